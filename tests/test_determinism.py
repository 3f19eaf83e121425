"""Determinism: the same scene gives the same bits, run twice, with either broad phase, or
with the solve visiting every body rather than the moving ones.

The same operations in the same order must give the same bits, so the comparisons are
bitwise: no tolerance would be the right one for a result that may not differ at all.
"""

from __future__ import annotations

import numpy as np
from builders import hexagon, run

from engine import Box, Circle, RevoluteJoint, World
from engine import step as step_stages


def mixed_scene(broadphase: str) -> World:
    """A ground and ~30 bodies of several shapes falling and piling onto it."""
    world = World(broadphase=broadphase)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    rng = np.random.default_rng(7)
    for i in range(30):
        x = -6.0 + (i % 6) * 2.1 + rng.uniform(-0.2, 0.2)
        y = 1.0 + (i // 6) * 1.8
        kind = i % 3
        shape = (
            Box(rng.uniform(0.4, 1.2), rng.uniform(0.4, 1.2))
            if kind == 0
            else (Circle(rng.uniform(0.2, 0.6)) if kind == 1 else hexagon(rng.uniform(0.3, 0.6)))
        )
        world.add_body(
            shape,
            position=(x, y),
            angle=rng.uniform(-1, 1),
            velocity=(rng.uniform(-2, 2), rng.uniform(-2, 0)),
            angular_velocity=rng.uniform(-2, 2),
            density=rng.uniform(0.5, 3),
        )
    return world


def boxes_scene(broadphase: str) -> World:
    """About 30 boxes dropped in staggered rows onto a ground."""
    world = World(broadphase=broadphase)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    for i in range(30):
        row, col = divmod(i, 6)
        world.add_body(
            Box(1, 1),
            position=(-5.0 + 1.7 * col + 0.3 * (row % 2), 0.6 + 1.4 * row),
            angle=0.05 * (i % 5 - 2),
        )
    return world


def arrays(world: World):
    return (
        np.array(world.positions, copy=True),
        np.array(world.velocities, copy=True),
        np.array(world.angles, copy=True),
    )


def test_same_scene_twice_is_bitwise_identical():
    first, second = mixed_scene("grid"), mixed_scene("grid")
    run(first, 200)
    run(second, 200)
    for a, b in zip(arrays(first), arrays(second)):
        assert np.array_equal(a, b)
    assert np.all(np.isfinite(first.positions))


def test_broadphases_give_bitwise_identical_results():
    grid, quadtree = boxes_scene("grid"), boxes_scene("quadtree")
    run(grid, 100)
    run(quadtree, 100)
    # The boxes fell and landed on the ground or on each other (none fell through, none is
    # still in the air at its start height): a scene with no contacts would prove nothing.
    assert np.all(grid.positions[1:, 1] > 0.4)
    assert np.mean(grid.positions[-6:, 1]) < 0.6 + 1.4 * 4 - 1.0  # the top row came down
    for a, b in zip(arrays(grid), arrays(quadtree)):
        assert np.array_equal(a, b)


def resting_and_moving_scene() -> World:
    """A pile that falls asleep on a ground, a kinematic platform moving and one at rest,
    a pendulum on a static pin and a chain hanging from it."""
    world = World()
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    for i in range(12):
        world.add_body(Box(1, 1), position=(-3 + (i % 4) * 1.05, 0.5 + (i // 4) * 1.0))
    world.add_body(Box(3, 0.3), position=(8, 2), kind="kinematic", velocity=(-0.5, 0))
    world.add_body(Box(3, 0.3), position=(12, 1), kind="kinematic")
    world.add_body(Circle(0.3), position=(12, 2))  # comes to rest on the still platform
    pin = world.add_body(Box(0.2, 0.2), position=(-10, 6), kind="static")
    bob = world.add_body(Circle(0.4), position=(-8, 6))
    world.add_joint(RevoluteJoint(pin, bob, anchor=(-10, 6)))
    link = pin
    for k in range(4):
        body = world.add_body(Box(0.5, 0.2), position=(-9.75 + 0.5 * k, 8))
        world.add_joint(RevoluteJoint(link, body, anchor=(-10 + 0.5 * k, 8)))
        link = body
    return world


def test_visiting_only_the_moving_bodies_changes_no_bit(monkeypatch):
    """The solve's loops over bodies visit only the moving ones; visiting every row (as
    they once did) must give the same bits, through sleep, waking and kinematic motion."""

    def history(world: World) -> list:
        frames = []
        for frame in range(420):
            if frame == 300:
                # Wakes the pile, which fell asleep around 2-3 s.
                world.add_body(Circle(0.4), position=(-1.5, 6), velocity=(0, -5))
            world.step()
            frames.append((*arrays(world), np.array(world.awake, copy=True)))
        return frames

    only_moving = history(resting_and_moving_scene())
    assert not only_moving[290][3][1:13].any()  # the pile slept before the ball came
    assert any(frame[3][1:13].any() for frame in only_moving[300:])  # the ball woke it
    monkeypatch.setattr(step_stages, "moving_rows", lambda active: np.arange(len(active) + 1))
    for got, want in zip(only_moving, history(resting_and_moving_scene())):
        for a, b in zip(got, want):
            assert np.array_equal(a, b)
