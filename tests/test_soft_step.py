"""The sub-stepped soft solver, ``World(substeps=n)``: its settings, and the scenes where it
does what one solve per step cannot (the figures of ``bench.solver_quality``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import G, run

from engine import Box, Circle, World
from engine.solver_settings import SOFT_SUBSTEPS


def soft_world(**kwargs) -> World:
    return World(substeps=SOFT_SUBSTEPS, **kwargs)


def test_the_default_is_the_one_solve_step():
    world = World()
    assert world.substeps == 0
    assert world.max_contact_push_speed == pytest.approx(3.0)
    assert World(units_per_meter=100.0).max_contact_push_speed == pytest.approx(300.0)


@pytest.mark.parametrize(
    ("argument", "value", "error"),
    [
        ("substeps", -1, ValueError),
        ("substeps", 2.0, TypeError),
        ("relax_iterations", -1, ValueError),
        ("contact_hertz", -1.0, ValueError),
        ("joint_damping_ratio", math.nan, ValueError),
        ("max_contact_push_speed", "fast", TypeError),
    ],
)
def test_bad_settings_are_refused(argument, value, error):
    with pytest.raises(error, match=argument):
        World(**{argument: value})


def test_snapshots_keep_the_solver_settings(tmp_path):
    world = World(substeps=3, contact_hertz=25.0, joint_hertz=50.0, max_contact_push_speed=2.0)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(1, 1), position=(0, 2.0))
    run(world, 10)
    world.save(tmp_path / "world.npz")
    copy = World.load(tmp_path / "world.npz")
    for name in ("substeps", "contact_hertz", "joint_hertz", "max_contact_push_speed"):
        assert getattr(copy, name) == getattr(world, name)
    run(world, 30)
    run(copy, 30)
    assert np.array_equal(world.positions, copy.positions)


@pytest.mark.parametrize("e", [0.5, 0.8])
def test_a_ball_rebounds_to_within_one_percent_of_e_squared_h(e):
    """From 2 m at dt 1/60 (the one-solve step overshoots by 20% and 8%)."""
    h, r = 2.0, 0.25
    world = soft_world()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(r), position=(0, h + r), restitution=e)
    rising, apex = False, -math.inf
    for _ in range(600):
        world.step()
        rising = rising or ball.velocity[1] > 0
        if rising:
            apex = max(apex, ball.position[1] - r)
            if ball.velocity[1] <= 0:
                break
    assert apex == pytest.approx(e * e * h, rel=0.01)


def test_a_landing_reports_nearly_all_of_its_impulse_in_contact_begin():
    """A 1 kg box landing at 4.25 m/s: the one-solve step reports half of m v, this one at
    least nine tenths (the rest comes the step after, as the box settles)."""
    world = soft_world()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    box = world.add_body(Box(1, 1), position=(0, 0.5 + 4.25**2 / (2 * G)), density=1.0)
    seen = []
    world.on("contact_begin", lambda contact: seen.append(contact.normal_impulse))
    for _ in range(120):
        world.step()
        if seen:
            break
    assert 0.9 <= seen[0] / (box.mass * 4.25) <= 1.05


def test_spawned_overlap_separates_no_faster_than_the_push_speed():
    world = soft_world(gravity=(0.0, 0.0))
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(0.5, 0))
    fastest = 0.0
    for _ in range(120):
        world.step()
        fastest = max(fastest, abs(a.velocity[0]), abs(b.velocity[0]))
    assert b.position[0] - a.position[0] > 1.0 - 0.02
    assert fastest <= world.max_contact_push_speed + 1e-9
