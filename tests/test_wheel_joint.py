"""Wheel joint: a car's suspension frequency and sag, driving on its motors, its settings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import G, run_for
from oracles import down_crossings, symplectic_period

from engine import Box, Chain, Circle, WheelJoint, World


def build_car(world: World, x: float, y: float, frequency=2.0, damping=0.1, motor_speed=0.0,
              max_torque=0.0, r=0.4):  # fmt: skip
    """A 3 m chassis on two wheels 2.2 m apart, whose axles are ``r + 0.6`` m below the
    chassis's centre at (x, y)."""
    chassis = world.add_body(Box(3, 0.5), position=(x, y))
    wheels, joints = [], []
    for dx in (-1.1, 1.1):
        wheel = world.add_body(Circle(r), position=(x + dx, y - 0.6 - r), friction=1.0)
        joints.append(
            world.add_joint(
                WheelJoint(
                    chassis,
                    wheel,
                    wheel.position,
                    (0, 1),
                    frequency=frequency,
                    damping=damping,
                    motor_speed=motor_speed,
                    max_motor_torque=max_torque,
                )
            )  # fmt: skip
        )
        wheels.append(wheel)
    return chassis, wheels, joints


def flat_ground(world: World, kind: str) -> None:
    """A static ground whose top is y = 0: a box, or a chain running right to left (its
    front, the solid side's outside, up)."""
    if kind == "box":
        world.add_body(Box(60, 1), position=(0, -0.5), kind="static", friction=1.0)
    else:
        points = [(x, 0.0) for x in np.linspace(30, -30, 61)]  # 1 m links
        world.add_body(Chain(points), kind="static", friction=1.0, origin="local")


@pytest.mark.parametrize("ground", ["box", "chain"])
def test_a_car_dropped_on_its_wheels_bounces_at_its_suspension_frequency(ground):
    world = World(sleep=False)
    flat_ground(world, ground)
    frequency, zeta = 2.0, 0.1
    chassis, wheels, joints = build_car(world, 0.0, 1.45, frequency, zeta)
    heights = []
    run_for(world, 5.0, lambda: heights.append(chassis.position[1]))
    heights = np.array(heights)
    # Each spring's stiffness is its axis row's mass times w^2: the chassis (linear and, at
    # 1.1 m from its centre, turning) and the wheel. Standing on the ground the wheels stay
    # put, so the chassis bounces on two such springs.
    mass, inertia, wheel = chassis.mass, chassis.inertia, wheels[0].mass
    row_mass = 1.0 / (1.0 / mass + 1.1**2 / inertia + 1.0 / wheel)
    omega = 2.0 * math.pi * frequency
    stiffness, drag = row_mass * omega**2, 2.0 * row_mass * zeta * omega
    bounce = math.sqrt(2.0 * stiffness / mass)
    ratio = 2.0 * drag / (2.0 * math.sqrt(2.0 * stiffness * mass))
    expected = symplectic_period(bounce, world.dt) / math.sqrt(1.0 - ratio**2)
    rest = heights[-60:].mean()
    periods = np.diff(down_crossings(heights[:180] - rest, world.dt))
    assert len(periods) >= 2
    assert periods.mean() == pytest.approx(expected, rel=0.01)
    # Damped hard, it settles where the springs carry the chassis's weight, 1 m above the
    # wheels when unloaded (the wheels stand on the ground, within its slop).
    for joint in joints:
        joint.damping = 1.0
    run_for(world, 3.0)
    assert [w.position[1] for w in wheels] == pytest.approx([0.4, 0.4], abs=0.005)
    sag = mass * G / (2.0 * stiffness)
    assert chassis.position[1] == pytest.approx(wheels[0].position[1] + 1.0 - sag, abs=1e-4)


def test_a_car_drives_over_bumps_on_its_motors():
    world = World(sleep=False)
    world.add_body(Box(80, 1), position=(30, -0.5), kind="static", friction=1.0)
    for i in range(12):  # low bumps every 4 m
        world.add_body(Box(0.8, 0.12), position=(4.0 + 4.0 * i, 0.06), angle=0.0, kind="static")
    speed, r = -6.0, 0.4  # clockwise: forwards, to +x
    chassis, wheels, joints = build_car(world, 0.0, 1.4, 3.0, 0.5, speed, 60.0, r)
    worst_off = 0.0

    def measure():
        nonlocal worst_off
        for joint in joints:
            off = joint.anchor_b - joint.anchor_a
            worst_off = max(worst_off, abs(off @ np.array([-joint.axis[1], joint.axis[0]])))

    run_for(world, 8.0, measure)
    travelled = chassis.position[0]
    assert travelled > 0.8 * -speed * r * 6.0  # rolls at about r w once up to speed
    assert abs(chassis.angle) < 0.3
    assert [joint.speed for joint in joints] == pytest.approx([speed, speed], abs=0.5)
    assert worst_off < 0.005


def test_a_car_drives_over_chain_terrain_on_its_motors():
    world = World(sleep=False)
    xs = np.arange(80.0, -10.5, -0.5)  # right to left: the front is up
    hills = np.where(xs > 3.0, 0.35 * np.sin(0.5 * xs) * np.minimum(1.0, (xs - 3.0) / 3.0), 0.0)
    world.add_body(Chain(np.column_stack([xs, hills])), kind="static", friction=1.0,
                   origin="local")  # fmt: skip
    speed, r = -6.0, 0.4
    chassis, wheels, joints = build_car(world, 0.0, 1.4, 3.0, 0.5, speed, 60.0, r)
    lowest = np.inf

    def measure():
        nonlocal lowest
        for wheel in wheels:
            ground = np.interp(wheel.position[0], xs[::-1], hills[::-1])
            lowest = min(lowest, wheel.position[1] - r - ground)

    run_for(world, 8.0, measure)
    assert chassis.position[0] > 0.8 * -speed * r * 6.0
    assert abs(chassis.angle) < 0.5
    # The wheels roll on the chain's front: never more than a slop and a bit into it.
    assert lowest > -0.02


def test_settings_read_back_and_the_bodies_sleep_together():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    chassis, wheels, joints = build_car(world, 0.0, 1.45, damping=0.7)
    joints[0].motor_speed = -1.0
    joints[0].max_motor_torque = 3.0
    assert (joints[0].motor_speed, joints[0].max_motor_torque) == (-1.0, 3.0)
    joints[0].motor_speed = 0.0
    joints[0].max_motor_torque = 0.0
    assert joints[1].axis.tolist() == [0.0, 1.0] and joints[1].frequency == 2.0
    run_for(world, 4.0)
    assert not chassis.awake and not any(wheel.awake for wheel in wheels)
    joints[1].damping = 0.5  # a change wakes the island
    assert chassis.awake and all(wheel.awake for wheel in wheels)
