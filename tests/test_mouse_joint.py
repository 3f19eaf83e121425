"""Mouse joint: pulling a body to a target with bounded force, and waking it."""

from __future__ import annotations

import numpy as np
import pytest
from builders import run_for

from engine import Box, MouseJoint, World


def test_a_mouse_joint_pulls_a_body_to_its_target():
    world = World(sleep=False)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    pull = world.add_joint(MouseJoint(crate, target=(0, 1.0), max_force=1000.0))
    pull.target = (3.0, 4.0)
    run_for(world, 2.0)
    np.testing.assert_allclose(pull.anchor_a, (3.0, 4.0), atol=0.05)


def test_a_mouse_joint_pulls_with_no_more_than_its_force():
    world = World(gravity=(0, 0), sleep=False)
    crate = world.add_body(Box(1, 1), position=(0, 0), density=10.0)  # 10 kg
    world.add_joint(MouseJoint(crate, target=(0, 0), max_force=20.0)).target = (100.0, 0.0)
    run_for(world, 1.0)
    # At most 20 N on 10 kg: at most 2 m/s after 1 s, and the cap is reached.
    assert crate.velocity[0] == pytest.approx(2.0, rel=1e-9)


def test_setting_a_mouse_target_wakes_the_body():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 1), position=(0, 0.5))
    pull = world.add_joint(MouseJoint(crate, target=(0, 0.5)))
    run_for(world, 2.0)
    assert not crate.awake
    pull.target = (0, 3)
    assert crate.awake


@pytest.mark.parametrize("frequency", [1e-300, 5e-324])
def test_a_mouse_joint_too_weak_to_pull_leaves_the_body_alone(frequency):
    world = World(gravity=(0, 0), sleep=False)
    crate = world.add_body(Box(1, 1), velocity=(1.0, 0.0))
    world.add_joint(MouseJoint(crate, target=(5, 5), frequency=frequency, damping=0.0))
    run_for(world, 0.5)
    # Practically no spring: the crate keeps drifting, nothing turns NaN or rigid.
    np.testing.assert_allclose(crate.velocity, (1.0, 0.0))
    np.testing.assert_allclose(crate.position, (0.5, 0.0))
