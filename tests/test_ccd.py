"""Continuous collision: fast, small bodies must not tunnel through thin walls.

At 300 m/s and dt = 1/60 a body moves 5 m per step, 50 times the thickness of the 0.1 m
walls here, so a discrete-only engine misses the wall entirely. The checks are geometric
(which side of the wall is the body on), with no tolerance needed: tunnelling puts the
body metres beyond the wall, a stop puts it within a few cm in front of it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import DT
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World

WALL_X = 5.05  # wall centre; its near face is at x = 5.0, 5 m from the launch point
# A glancing hit leaves a body sliding along the wall at up to 866 m/s (1000 m/s at 60 deg);
# the wall is 2 km tall so that in the 1 s checked nothing can go round its end, and being
# on the far side can only mean going through it.
WALL_HEIGHT = 2000.0


def fire_at_static_wall(shape, speed, heading, body_angle=0.0, bullet=False, seconds=1.0):
    """Launch shape from the origin at speed along heading (rad) at a 0.1 m thick, 2 km tall
    static wall. Returns the largest x its centre ever had, and its final position."""
    world = World(dt=DT)
    world.add_body(Box(0.1, WALL_HEIGHT), position=(WALL_X, 0.0), kind="static")
    body = world.add_body(
        shape,
        position=(0.0, 0.0),
        angle=body_angle,
        velocity=(speed * math.cos(heading), speed * math.sin(heading)),
        bullet=bullet,
    )
    furthest = -math.inf
    for _ in range(int(round(seconds / DT))):
        world.step()
        assert np.all(np.isfinite(body.position))
        furthest = max(furthest, body.position[0])
    return furthest, body.position.copy()


@pytest.mark.parametrize("heading_deg", [0.0, 20.0, -45.0, 60.0])
@pytest.mark.parametrize("body_angle", [0.0, 0.7])
def test_small_fast_box_does_not_pass_static_wall(heading_deg, body_angle):
    furthest, final = fire_at_static_wall(
        Box(0.1, 0.1), 300.0, math.radians(heading_deg), body_angle
    )
    # Never crossed the wall's mid-plane; at 1 s still on the near side.
    assert furthest < WALL_X
    assert final[0] < WALL_X


@settings(max_examples=30)
@given(
    speed=st.floats(50.0, 1000.0),
    heading=st.floats(-math.radians(60), math.radians(60)),
    body_angle=st.floats(0.0, math.pi / 2),
)
def test_fast_box_never_passes_static_wall(speed, heading, body_angle):
    furthest, final = fire_at_static_wall(Box(0.1, 0.1), speed, heading, body_angle)
    assert furthest < WALL_X
    assert final[0] < WALL_X


@pytest.mark.parametrize("heading_deg", [0.0, 30.0])
def test_small_fast_circle_does_not_pass_static_wall(heading_deg):
    furthest, final = fire_at_static_wall(Circle(0.05), 500.0, math.radians(heading_deg))
    assert furthest < WALL_X
    assert final[0] < WALL_X


@pytest.mark.parametrize("speed", [10.0, 30.0, 300.0])
@pytest.mark.parametrize(
    "shape",
    [Box(0.1, 0.1), Circle(0.05), Box(1.0, 1.0), Circle(0.25)],
    ids=["box0.1", "circle0.05", "box1", "circle0.25"],
)
def test_glancing_hit_on_frictionless_wall_keeps_sliding(shape, speed):
    """A body hits a frictionless static wall at 45 deg, no gravity, restitution 0.

    The wall can only push along x, so the y motion is untouched: v_y stays v sin 45 and
    y(1 s) = v sin 45 * 1 s exactly. A continuous-collision step may lose some tangential
    travel in the impact step (it stops the body at the time of impact); two steps' worth,
    2 v_y dt = 3.3 % of the distance, is allowed. A body held at the point of impact (its
    velocity saying it moves while it does not) fails by 30-90 %.
    """
    world = World(gravity=(0.0, 0.0), dt=DT)
    world.add_body(Box(0.1, WALL_HEIGHT), position=(WALL_X, 0.0), kind="static", friction=0.0)
    vx = vy = speed * math.sqrt(0.5)
    body = world.add_body(shape, position=(0.0, 0.0), velocity=(vx, vy), friction=0.0)
    for _ in range(60):
        world.step()
        assert body.position[0] < WALL_X
    assert body.velocity[1] == pytest.approx(vy, rel=1e-9)
    assert abs(body.position[1] - vy * 1.0) <= 2 * vy * DT


@pytest.mark.parametrize("spin", [-3.0, 0.0, 3.0])
def test_a_box_tipping_onto_a_frictionless_floor_as_it_slides_keeps_sliding(spin):
    """A box on its corner on a frictionless floor, sliding at 9 m/s (fast enough to be
    swept), tips onto its face: its centre comes down while the corner on the floor does
    not. The floor pushes only along y, so x(t) = 9 t; two steps' travel is allowed, as for
    the glancing hit. Judged by its centre's approach, the sweep stopped it every step and
    the box hung still, its velocity saying 9 m/s."""
    world = World(sleep=False, dt=DT)
    world.add_body(Box(100, 1), position=(0, -0.5), kind="static", friction=0.0)
    angle = 0.3
    lowest = -0.35 * (math.sin(angle) + math.cos(angle))  # the lower corner's height
    box = world.add_body(
        Box(0.7, 0.7), position=(0, 0.001 - lowest), angle=angle, velocity=(9.0, -0.5),
        angular_velocity=spin, friction=0.0,
    )  # fmt: skip
    steps = 30
    for _ in range(steps):
        world.step()
    assert box.velocity[0] == pytest.approx(9.0, rel=1e-9)
    assert abs(box.position[0] - 9.0 * steps * DT) <= 2 * 9.0 * DT


def wall_frame_x(point, wall) -> float:
    """x of a world point in the wall's local frame (negative: the near side)."""
    c, s = math.cos(wall.angle), math.sin(wall.angle)
    d = np.asarray(point) - wall.position
    return float(c * d[0] + s * d[1])


def fire_at_dynamic_wall(bullet: bool, hit_y: float, body_angle: float, steps: int = 10):
    """A 0.1 x 0.1 box at 300 m/s at a floating 0.1 x 2 dynamic wall (gravity off).

    The wall has density 10 (2 kg against the projectile's 0.01 kg), so it recoils at about
    1.5 m/s and turns slowly: over 10 steps the projectile stays in front of it unless it
    tunnelled. Returns the projectile's largest x in the wall's frame, and the world."""
    world = World(gravity=(0.0, 0.0), dt=DT)
    wall = world.add_body(Box(0.1, 2.0), position=(WALL_X, 0.0), density=10.0)
    shot = world.add_body(
        Box(0.1, 0.1),
        position=(0.0, hit_y),
        angle=body_angle,
        velocity=(300.0, 0.0),
        bullet=bullet,
    )
    furthest = -math.inf
    for _ in range(steps):
        world.step()
        furthest = max(furthest, wall_frame_x(shot.position, wall))
    return furthest, world, wall, shot


@pytest.mark.parametrize("hit_y, body_angle", [(0.0, 0.0), (0.5, 0.0), (-0.3, 0.6)])
def test_bullet_does_not_pass_dynamic_wall(hit_y, body_angle):
    furthest, world, wall, shot = fire_at_dynamic_wall(True, hit_y, body_angle)
    assert furthest < 0.0
    # It hit: the wall took momentum (the shot's 3 N s, shared: both now move to +x).
    assert wall.velocity[0] > 0.5
    # Momentum conserved by the contact (equal and opposite impulses): 1e-9 of 3 N s.
    momentum = wall.mass * wall.velocity + shot.mass * shot.velocity
    assert np.allclose(momentum, [shot.mass * 300.0, 0.0], rtol=0, atol=3e-9)


def test_non_bullet_against_dynamic_wall_runs():
    """Without bullet=True tunnelling through a dynamic body is allowed: nothing is asserted
    about the outcome, only that the step stays finite."""
    _, world, _, _ = fire_at_dynamic_wall(False, 0.0, 0.0)
    assert np.all(np.isfinite(world.positions)) and np.all(np.isfinite(world.velocities))


@settings(max_examples=20, deadline=None)
@given(
    speed=st.floats(60.0, 300.0),
    gap=st.floats(0.1, 0.8),
    ratio=st.floats(100.0, 10_000.0),
)
def test_a_body_struck_towards_a_wall_it_had_no_pair_with_stops_there(speed, gap, ratio):
    """A resting chip, its wall `gap` away (beyond the broad phase's margin, so the step
    starts with no pair between them), is struck by a body `ratio` times heavier and sent
    at it faster than the wall is thick: it must stop at the wall, never crossing its
    mid-plane. (Whether the hammer then presses it into the wall's face is a matter of the
    mass ratio, not of tunnelling.)"""
    world = World(gravity=(0.0, 0.0))
    world.add_body(Box(1.0, 4.0), position=(1.5, 0.0), kind="static")  # face at x = 1
    chip = world.add_body(Box(0.05, 0.05), position=(1.0 - gap - 0.025, 0.0), density=1.0)
    hammer_x = chip.position[0] - 0.025 - 0.01 - 0.25
    world.add_body(
        Box(0.5, 0.5), position=(hammer_x, 0.0), velocity=(speed, 0.0), density=ratio / 100.0
    )
    for _ in range(20):
        world.step()
        assert chip.position[0] < 1.5


def chaos_box(seed: int) -> tuple[np.ndarray, World]:
    """300 bodies, densities 0.01-100 kg/m^2 (10^4 mass ratios), sizes 3 cm-2 m, thrown
    at up to 200 m/s inside a closed 40 x 30 m box of 1 m static walls; after 5 s, the
    centres (300, 2) and the world."""
    rng = np.random.default_rng(seed)
    world = World()
    for x, y, w, h in ((0, -0.5, 42, 1), (0, 30.5, 42, 1), (-20.5, 15, 1, 30), (20.5, 15, 1, 30)):
        world.add_body(Box(w, h), position=(x, y), kind="static")
    bodies = []
    for _ in range(300):
        size = math.exp(rng.uniform(math.log(0.03), math.log(2.0)))
        shape = Box(size, size) if rng.random() < 0.5 else Circle(size / 2)
        speed, heading = rng.uniform(0, 200), rng.uniform(0, 2 * math.pi)
        bodies.append(
            world.add_body(
                shape, position=(rng.uniform(-18, 18), rng.uniform(2, 28)),
                velocity=(speed * math.cos(heading), speed * math.sin(heading)),
                density=math.exp(rng.uniform(math.log(0.01), math.log(100.0))),
            )
        )  # fmt: skip
    for _ in range(300):
        world.step()
    return np.array([body.position for body in bodies]), world


@pytest.mark.parametrize("seed", range(1, 9))
def test_nothing_leaves_the_chaos_box_or_ends_in_its_walls(seed):
    """Light bodies struck by ones 10^4 times heavier, squeezed into the walls, sent where
    the broad phase never looked: every centre ends inside the box, every number finite.
    (Sweeping only the step's pairs, and skipping pairs that start overlapping, left 9 of
    the 2,400 bodies outside.)"""
    centres, world = chaos_box(seed)
    assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    inside = (np.abs(centres[:, 0]) < 20) & (centres[:, 1] > 0) & (centres[:, 1] < 30)
    assert inside.all(), centres[~inside]
