"""Gear joint: the ratio held exactly, the inertia it reflects, driven by a motor."""

from __future__ import annotations

import pytest
from builders import run_for

from engine import Box, Circle, GearJoint, RevoluteJoint, World


@pytest.mark.parametrize("ratio", [1.0, 2.5, -0.4])
def test_a_gear_keeps_its_ratio_and_reflects_inertia(ratio):
    world = World(sleep=False)
    driver = world.add_body(Circle(0.5), position=(0, 2))
    driven = world.add_body(Circle(0.5 * abs(ratio)), position=(3, 2))
    world.add_joint(RevoluteJoint(driver, None, driver.position))
    world.add_joint(RevoluteJoint(driven, None, driven.position))
    gear = world.add_joint(GearJoint(driver, driven, ratio))
    torque = 2.0
    worst_angle, worst_speed = 0.0, 0.0

    def measure():
        nonlocal worst_angle, worst_speed
        worst_angle = max(worst_angle, abs(gear.error))
        rates = driver.angular_velocity + ratio * driven.angular_velocity
        worst_speed = max(worst_speed, abs(rates) / abs(driver.angular_velocity))
        driver.apply_torque(torque)

    driver.apply_torque(torque)
    run_for(world, 3.0, measure)
    assert worst_angle < 1e-6 and worst_speed < 1e-6
    # The driven wheel turns at -1/ratio of the driver: the torque drives both inertias.
    reflected = driver.inertia + driven.inertia / ratio**2
    assert driver.angular_velocity == pytest.approx(torque / reflected * 3.0, rel=1e-6)
    assert gear.reaction_torque == pytest.approx(
        driven.inertia * -torque / reflected / ratio, rel=1e-6
    )


def test_a_gear_driven_by_a_motor_keeps_its_ratio():
    world = World(sleep=False)
    driver = world.add_body(Box(1.0, 0.2), position=(0, 2))
    driven = world.add_body(Box(2.0, 0.2), position=(3, 2))
    world.add_joint(
        RevoluteJoint(driver, None, driver.position, motor_speed=4.0, max_motor_torque=5.0)
    )
    world.add_joint(RevoluteJoint(driven, None, driven.position))
    gear = world.add_joint(GearJoint(driver, driven, 2.0))
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, abs(gear.error))

    run_for(world, 4.0, measure)
    assert worst < 1e-6
    # The motor's torque suffices: both speeds exact (measured to 2e-16), so 1e-9.
    assert driver.angular_velocity == pytest.approx(4.0, rel=1e-9)
    assert driven.angular_velocity == pytest.approx(-2.0, rel=1e-9)
