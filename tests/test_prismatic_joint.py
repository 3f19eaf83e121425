"""Prismatic joint: a motorised elevator on its limits, a weak motor, a free slider."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import SLOP, G, run_for

from engine import Box, Circle, PrismaticJoint, World


def test_a_prismatic_elevator_moves_at_motor_speed_and_holds_its_limits():
    """The motor's force (100 N per kg, about ten times the weight) is spent sub-step by
    sub-step: the platform gains at most (F / m - g) h of speed in each, so it reaches the
    motor's speed within the first step (in its third sub-step) and trails the motor by the
    sum of h (1 - v_k) over the sub-steps before: 3.6 mm (a uniform acceleration to 1 m/s
    trails by 5.5 mm; a single solve of the whole step, by none)."""
    world = World(sleep=False)
    platform = world.add_body(Box(2, 0.2), position=(0, 1))
    force = 100.0 * platform.mass
    lift = world.add_joint(
        PrismaticJoint(platform, None, (0, 1), (0, 1), lower=-0.5, upper=2.0, motor_speed=1.0,
                       max_motor_force=force)
    )  # fmt: skip
    heights, speeds = [], []

    def measure():
        heights.append(lift.translation)
        speeds.append(lift.translation_speed)

    h = world.dt / world.substeps
    gain = (force / platform.mass - G) * h
    reached = [min(1.0, k * gain) for k in range(1, math.ceil(1.0 / gain) + 1)]
    trail = sum(h * (1.0 - v) for v in reached)
    run_for(world, 1.0, measure)
    assert np.allclose(speeds, 1.0, rtol=1e-9)
    assert platform.velocity[1] == pytest.approx(1.0, rel=1e-9)
    assert lift.translation == pytest.approx(1.0 - trail, rel=1e-9)
    assert lift.motor_force == pytest.approx(platform.mass * G, rel=1e-9)
    run_for(world, 2.0, measure)
    assert max(heights) < 2.0 + 0.001 and heights[-1] > 2.0 - 0.001  # on the upper limit
    lift.motor_speed = -1.0
    heights.clear()
    run_for(world, 4.0, measure)
    assert min(heights) > -0.5 - 0.001 and heights[-1] < -0.5 + 0.001  # on the lower one
    assert platform.angle == 0.0 and platform.position[0] == 0.0


def test_a_prismatic_motor_too_weak_for_its_load_accelerates_at_the_force_balance():
    world = World(sleep=False)
    platform = world.add_body(Box(2, 0.2), position=(0, 1))
    force = 0.5 * platform.mass * G  # half the weight
    world.add_joint(
        PrismaticJoint(platform, None, (0, 1), (0, 1), motor_speed=1.0, max_motor_force=force)
    )
    run_for(world, 1.0)
    assert platform.velocity[1] == pytest.approx((force / platform.mass - G) * 1.0, rel=1e-9)


def test_a_slider_conserves_momentum_along_its_axis_and_does_not_turn():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 0.5), position=(0, 0), velocity=(1.0, -0.5), angular_velocity=0.3)
    b = world.add_body(Circle(0.3), position=(1.5, 1.0), velocity=(-2.0, 1.0))
    slide = world.add_joint(PrismaticJoint(a, b, (1.5, 1.0), (2, 1)))
    momentum = world.momentum()
    worst_angle, worst_off = 0.0, 0.0

    def measure():
        nonlocal worst_angle, worst_off
        worst_angle = max(worst_angle, abs(b.angle - a.angle))
        off = slide.anchor_b - slide.anchor_a
        worst_off = max(worst_off, abs(off @ np.array([-slide.axis[1], slide.axis[0]])))

    run_for(world, 3.0, measure)
    assert np.allclose(world.momentum(), momentum, rtol=0, atol=1e-9 * np.abs(momentum).max())
    # The sub-steps hold the joint on velocities; a turning pair leaves its axis by what
    # moving along straight lines over a sub-step leaves (measured: 1.8e-7 m), put back on
    # positions only past a tenth of the slop (TREE_TOLERANCE).
    assert worst_angle < 1e-9 and worst_off < 1e-6


@pytest.mark.parametrize("lower, upper", [(0.5, 2.0), (-2.0, -0.5)])
def test_a_slider_made_outside_its_limits_is_brought_back_to_the_nearer_one(lower, upper):
    world = World(gravity=(0, 0), sleep=False)
    slider = world.add_body(Box(0.5, 0.2), position=(1.0, 0.0))
    track = world.add_joint(PrismaticJoint(slider, None, (1.0, 0.0), (1, 0), lower, upper))
    assert track.translation == 0.0  # made at its anchor: 0.5 past the limit
    run_for(world, 1.0)
    nearer = lower if lower > 0.0 else upper
    # Within the slop: the one-solve step's position pass leaves that much.
    assert track.translation == pytest.approx(nearer, abs=SLOP + 1e-6)
    assert abs(track.translation_speed) < 0.01
