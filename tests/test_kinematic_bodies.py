"""Kinematic bodies: motion by their velocities alone, and the bodies they push and carry.

A kinematic body's motion is prescribed: gravity and contacts never change its velocity, so
its position is x0 + v t to rounding (1e-9). What it touches is moved by the contact solve:
shoved ahead of a pusher without sinking into it, carried by a platform through friction.
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import DT, SLOP, add_ground, ground_world, run, steps

from engine import Box, World


def test_kinematic_box_pushes_dynamic_box_and_is_not_pushed():
    """A kinematic box at 1 m/s meets a resting dynamic box after 1 s and pushes it for 2 s.

    The pusher's motion is prescribed: its velocity and angle must not change by a bit, and
    its position is x0 + v t to rounding. The pushed box must travel with it: over the last
    second it moves 1 m, at the pusher's speed but for the last of its settling into the
    pusher's contact spring, which holds it 1.15e-5 m deep against the ground's friction
    (measured: 6.6e-8 m short; so 1e-6: a lag or a bounce ahead is centimetres), and never
    sinks more than 1 cm into the pusher.
    """
    world = World()
    add_ground(world)
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    pusher = world.add_body(Box(1, 1), position=(-2, 0.51), velocity=(1.0, 0.0), kind="kinematic")
    crate_x_at_2s = None
    for n in range(1, steps(3.0) + 1):
        world.step()
        assert np.array_equal(pusher.velocity, [1.0, 0.0])
        assert pusher.angle == 0.0 and pusher.angular_velocity == 0.0
        assert pusher.position[1] == 0.51  # no gravity on a kinematic body, never pushed
        assert pusher.position[0] == pytest.approx(-2.0 + n * DT, abs=1e-9)
        assert crate.position[0] - pusher.position[0] > 1.0 - 0.01
        if n == steps(2.0):
            crate_x_at_2s = crate.position[0]
    assert crate.position[0] - crate_x_at_2s == pytest.approx(1.0, abs=1e-6)
    assert abs(crate.angle) < 0.05


def test_dynamic_box_is_carried_by_kinematic_platform():
    """Friction accelerates the box at mu g = 5.9 m/s², so it reaches the platform's 1 m/s in
    ~0.2 s; after 1 s static friction holds it at the platform's speed (measured to 1e-16,
    so 1e-9)."""
    world = World()
    platform = world.add_body(Box(4, 0.2), position=(0, 1.0), velocity=(1.0, 0.0), kind="kinematic")
    box = world.add_body(Box(0.5, 0.5), position=(0, 1.35))
    run(world, steps(1.0))
    assert box.velocity[0] == pytest.approx(1.0, rel=1e-9)
    assert box.position[1] == pytest.approx(1.35, abs=0.01)  # resting on it, not through it
    assert np.array_equal(platform.velocity, [1.0, 0.0])
    assert platform.position[1] == 1.0
    assert platform.position[0] == pytest.approx(1.0, abs=1e-9)


def test_kinematic_body_moves_and_turns_by_its_velocities_only():
    """Gravity does not act on a kinematic body; x = x0 + v t and angle = a0 + w t to
    rounding (1e-9), even while it sweeps through dynamic bodies resting on the ground."""
    world = World()
    add_ground(world)
    for i in range(5):
        world.add_body(Box(0.5, 0.5), position=(-1.0 + 0.6 * i, 0.25))
    paddle = world.add_body(
        Box(3, 0.2),
        position=(-3, 0.6),
        angle=0.0,
        velocity=(0.5, 0.0),
        angular_velocity=1.0,
        kind="kinematic",
    )
    n = steps(3.0)
    run(world, n)
    t = n * DT
    assert paddle.position[0] == pytest.approx(-3 + 0.5 * t, abs=1e-9)
    assert paddle.position[1] == 0.6
    assert paddle.angle == pytest.approx(1.0 * t, abs=1e-9)
    assert np.array_equal(paddle.velocity, [0.5, 0.0]) and paddle.angular_velocity == 1.0
    assert np.all(np.isfinite(world.positions))


def test_kinematic_platform_carries_a_resting_box_by_friction():
    world = World()
    platform = world.add_body(Box(6, 0.5), position=(0, 0), velocity=(2.0, 0.0), kind="kinematic")
    box = world.add_body(Box(1, 1), position=(0, 0.75))
    run(world, 60)
    assert box.velocity[0] == pytest.approx(platform.velocity[0], rel=1e-9)
    # Friction (mu g = 5.9 m/s^2) gets it to 2 m/s in 0.34 s: slip ~ v^2 / (2 mu g) = 0.34 m.
    assert platform.position[0] - box.position[0] == pytest.approx(0.34, abs=0.1)
    assert box.position[1] == pytest.approx(0.75, abs=SLOP + 1e-3)
    # The platform itself is not slowed by its load.
    np.testing.assert_array_equal(platform.velocity, [2.0, 0.0])
    assert platform.position[0] == pytest.approx(60 * DT * 2.0, abs=1e-9)


def test_kinematic_pusher_shoves_a_box_ahead_of_it_without_overlapping():
    world, ground = ground_world()
    pusher = world.add_body(Box(1, 1), position=(-2, 0.52), velocity=(1.5, 0.0), kind="kinematic")
    box = world.add_body(Box(1, 1), position=(0, 0.5))
    for _ in range(180):
        world.step()
        gap = (box.position[0] - 0.5) - (pusher.position[0] + 0.5)
        assert gap > -0.01, "the pushed box sank into the pusher"
    assert box.position[0] > pusher.position[0] + 0.99
    assert box.position[0] > 2.0  # it has been shoved well past where it stood
    assert pusher.position[0] == pytest.approx(-2 + 180 * DT * 1.5, abs=1e-9)
    # The box still settles into the pusher's contact spring (1.16e-5 m deep against the
    # ground's friction): every other step it is 4.3e-8 m/s slow, halving every 16 steps.
    assert box.velocity[0] == pytest.approx(1.5, rel=1e-7)


# -- set_target_transform ------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["centroid", "local"])
def test_a_kinematic_body_reaches_its_target_transform_in_one_step(origin):
    """Box2D's SetTargetTransform: the velocities that land the body on the target pose
    after the next step; for ``origin="local"`` the target is its shapes' origin."""
    world = World()
    door = world.add_body(Box(2, 0.2, offset=(1, 0)), position=(3, 1), angle=0.3,
                          kind="kinematic", origin=origin)  # fmt: skip
    for target, angle in (((3.5, 1.2), 0.8), ((3.5, 1.2), 0.8), ((2.0, 0.0), 0.8 + 2 * np.pi)):
        door.set_target_transform(target, angle)
        world.step()
        np.testing.assert_allclose(door.position, target, rtol=0, atol=1e-9)
        assert door.angle == pytest.approx(angle, abs=1e-12)
    # Where it already is: no motion.
    door.set_target_transform(door.position, door.angle)
    assert door.velocity.tolist() == [0.0, 0.0] and door.angular_velocity == 0.0


def test_a_target_transform_wakes_a_sleeping_platform_and_carries_what_rests_on_it():
    world, _ = ground_world()
    lift = world.add_body(Box(2, 0.2), position=(0, 1), kind="kinematic")
    crate = world.add_body(Box(0.5, 0.5), position=(0, 1.35))
    for _ in range(120):
        world.step()
    assert not crate.awake
    for i in range(60):
        lift.set_target_transform((0, 1 + 0.01 * (i + 1)), 0.0)
        world.step()
    assert crate.awake
    assert crate.position[1] == pytest.approx(1.95, abs=0.02)


def test_bad_target_transforms_are_refused_and_change_nothing():
    world = World()
    wall = world.add_body(Box(1, 1), position=(0, 0), kind="static")
    lift = world.add_body(Box(1, 1), position=(5, 0), kind="kinematic")
    for body, arguments, error, message in (
        (wall, ((1, 0), 0.0), ValueError, "position: a static body cannot move"),
        (lift, ((1e9, 0), 0.0), ValueError, "position: .* m/s of speed to reach it"),
        (lift, ((5, 0), 1e9), ValueError, "angle: .* rad/s of turning to reach it"),
        (lift, ((5, "x"), 0.0), TypeError, "position"),
        (lift, ((5, 0), float("nan")), ValueError, "angle"),
    ):
        before = world.snapshot()
        with pytest.raises(error, match=message):
            body.set_target_transform(*arguments)
        after = world.snapshot()
        for name, array in before._arrays.items():
            assert np.array_equal(array, after._arrays[name]), name
    wall.set_target_transform((0, 0), 0.0)  # where it is: allowed, nothing moves
