"""Weld joint: welded bodies keep their relative pose and move as one rigid body."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import run_for

from engine import Box, WeldJoint, World


def test_welded_bodies_keep_their_relative_pose_when_they_land():
    world = World(sleep=False)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    a = world.add_body(Box(1, 1), position=(0, 3), angle=0.3)
    b = world.add_body(Box(2, 0.3), position=(1.2, 3.4), angle=0.3)
    world.add_joint(WeldJoint(a, b, anchor=(0.6, 3.3)))

    def relative():
        c, s = math.cos(-a.angle), math.sin(-a.angle)
        d = b.position - a.position
        return np.array([c * d[0] - s * d[1], s * d[0] + c * d[1], b.angle - a.angle])

    start = relative()
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, float(np.abs(relative() - start).max()))

    run_for(world, 3.0, measure)
    assert worst < 0.02
    assert np.abs(relative() - start).max() < 0.002


def test_a_welded_pair_spins_like_one_rigid_body():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 1), position=(-0.5, 0))
    b = world.add_body(Box(1, 1), position=(0.5, 0))
    world.add_joint(WeldJoint(a, b, anchor=(0, 0)))
    for body in (a, b):
        body.angular_velocity = 2.0
        body.velocity = (0.0, 2.0 * body.position[0])  # rigid rotation about the origin
    run_for(world, 2.0)
    assert a.angular_velocity == pytest.approx(2.0, rel=1e-3)
    assert np.hypot(*a.position) == pytest.approx(0.5, abs=2e-3)
