"""Stability scenes: a tall stack, a large pyramid, hundreds of mixed bodies in a closed box.

These are the scenes where iterative contact solvers fail in practice: slow sinking, jitter
that grows, creeping sideways, or blowing up. Tolerances are what a person would see as the
scene "standing" (a few cm over ten seconds), far below what a collapse (metres) gives.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import DT, add_ground, hexagon, run

from engine import Box, Circle, World

TEN_SECONDS = 600


@pytest.mark.slow
def test_stack_of_ten_boxes_stands():
    """10 unit boxes, spacing exactly 1.0, for 10 s.

    3 cm is 3 mm of settling per contact (ten contacts down to the ground) and a small sway;
    a stack that leans over or sinks through itself moves by decimetres or more.
    """
    world = World(dt=DT)
    add_ground(world)
    boxes = [world.add_body(Box(1, 1), position=(0, 0.5 + i)) for i in range(10)]
    run(world, TEN_SECONDS)
    top = boxes[-1]
    assert abs(top.position[0] - 0.0) < 0.03
    assert abs(top.position[1] - 9.5) < 0.03
    assert abs(top.angle) < 0.05
    assert np.all(np.abs(world.angles[1:]) < 0.05)
    assert np.all(np.isfinite(world.positions))


@pytest.mark.slow
def test_pyramid_of_twenty_rows_stands():
    """210 unit boxes: row r has 20 - r boxes spaced 1.125 apart, rows at y = 0.5 + r.

    The top box carries the accumulated error of 20 rows; 5 cm after 10 s is standing, a
    pyramid that slumps or spreads moves it by much more.
    """
    world = World(dt=DT)
    add_ground(world, width=60.0)
    rows = 20
    top = None
    for r in range(rows):
        count = rows - r
        for i in range(count):
            x = (i - (count - 1) / 2) * 1.125
            top = world.add_body(Box(1, 1), position=(x, 0.5 + r), friction=0.6)
    assert len(world.bodies) == 1 + rows * (rows + 1) // 2
    start = top.position.copy()
    assert np.allclose(start, [0.0, 19.5])
    run(world, TEN_SECONDS)
    assert np.hypot(*(top.position - start)) < 0.05
    assert np.all(np.isfinite(world.positions))


@pytest.mark.slow
def test_hundreds_of_mixed_bodies_in_a_closed_box():
    """300 boxes (0.2-1.5 m), circles and hexagons of densities 0.5-10, thrown at up to
    20 m/s inside four static walls. After 10 s every number is finite and every body's
    centre is inside the container (a centre inside a wall means a body at least half way
    through it; outside means it escaped)."""
    rng = np.random.default_rng(12345)
    cols, rows, cell = 20, 15, 2.2  # a cell holds any body at any angle (diagonal <= 2.13)
    half_w, height = cols * cell / 2, rows * cell + 2.0
    world = World(dt=DT)
    thick = 1.0
    world.add_body(Box(2 * half_w + 2 * thick, thick), position=(0, -thick / 2), kind="static")
    world.add_body(
        Box(2 * half_w + 2 * thick, thick), position=(0, height + thick / 2), kind="static"
    )
    world.add_body(
        Box(thick, height + 2 * thick), position=(-half_w - thick / 2, height / 2), kind="static"
    )
    world.add_body(
        Box(thick, height + 2 * thick), position=(half_w + thick / 2, height / 2), kind="static"
    )
    walls = 4
    for k in range(cols * rows):
        row, col = divmod(k, cols)
        centre = (-half_w + (col + 0.5) * cell, (row + 0.5) * cell)
        which = k % 3
        if which == 0:
            shape = Box(rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.5))
        elif which == 1:
            shape = Circle(rng.uniform(0.1, 0.75))
        else:
            shape = hexagon(rng.uniform(0.1, 0.75))
        speed, heading = rng.uniform(0, 20), rng.uniform(0, 2 * math.pi)
        world.add_body(
            shape,
            position=centre,
            angle=rng.uniform(0, 2 * math.pi),
            velocity=(speed * math.cos(heading), speed * math.sin(heading)),
            angular_velocity=rng.uniform(-5, 5),
            density=rng.uniform(0.5, 10.0),
        )
    assert len(world.bodies) == walls + 300
    run(world, TEN_SECONDS)
    assert np.all(np.isfinite(world.positions))
    assert np.all(np.isfinite(world.velocities))
    assert np.all(np.isfinite(world.angles))
    assert all(math.isfinite(b.angular_velocity) for b in world.bodies)
    xs, ys = world.positions[walls:].T
    outside = np.flatnonzero((np.abs(xs) >= half_w) | (ys <= 0.0) | (ys >= height))
    assert outside.size == 0, (
        f"bodies outside: {outside + walls}, at {world.positions[outside + walls]}"
    )
    # The walls did not move.
    assert np.array_equal(world.velocities[:walls], np.zeros((walls, 2)))
