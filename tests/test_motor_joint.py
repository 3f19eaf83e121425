"""Motor joint: driving a body to a pose with bounded force and torque, and its settings."""

from __future__ import annotations

import numpy as np
import pytest
from builders import G, run_for

from engine import Box, Circle, MotorJoint, World


def test_a_motor_joint_drives_a_body_to_its_pose_with_bounded_force_and_torque():
    world = World(gravity=(0, 0), sleep=False)
    ground = world.add_body(Box(1, 1), position=(0, 0), kind="static")
    crate = world.add_body(Box(1, 0.5), position=(1, 1))
    force, torque = 5.0, 0.5
    drive = world.add_joint(
        MotorJoint(ground, crate, linear_offset=(4, 2), angular_offset=1.0, max_force=force,
                   max_torque=torque, correction=0.3)
    )  # fmt: skip
    worst_linear, worst_angular = 0.0, 0.0
    last = [crate.velocity, crate.angular_velocity]

    def measure():
        nonlocal worst_linear, worst_angular
        worst_linear = max(worst_linear, np.hypot(*(crate.velocity - last[0])) / world.dt)
        worst_angular = max(worst_angular, abs(crate.angular_velocity - last[1]) / world.dt)
        last[:] = [crate.velocity, crate.angular_velocity]

    run_for(world, 10.0, measure)
    # Far from its target it pushes with all it has, and never more.
    assert worst_linear == pytest.approx(force / crate.mass, rel=1e-9)
    assert worst_angular == pytest.approx(torque / crate.inertia, rel=1e-9)
    # Then it holds the pose to rounding (measured: 4e-16 m and rad after 10 s).
    assert crate.position == pytest.approx([4, 2], abs=1e-9)
    assert crate.angle == pytest.approx(1.0, abs=1e-9)
    drive.linear_offset = (0, 3)  # a new target: it follows
    run_for(world, 10.0)
    assert crate.position == pytest.approx([0, 3], abs=1e-9)


def test_a_motor_joint_to_the_world_and_its_settings():
    world = World(sleep=False)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    body = world.add_body(Circle(0.3), position=(0, 3))
    hold = world.add_joint(MotorJoint(body, None, max_force=2.0 * body.mass * G))
    assert hold.linear_offset.tolist() == [0, 3] and hold.angular_offset == 0.0
    run_for(world, 2.0)
    assert body.position == pytest.approx([0, 3], abs=1e-9)  # held (measured: exactly)
    hold.max_force = 0.5 * body.mass * G  # too weak: it sinks at g / 2
    run_for(world, 0.5)
    # Gravity less the capped force, each step alike: measured exact, so 1e-9.
    assert body.velocity[1] == pytest.approx(-0.5 * G * 0.5, rel=1e-9)
