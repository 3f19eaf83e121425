"""Rope joint: slack below its length, and how far a taut rope stretches under a load."""

from __future__ import annotations

import numpy as np
import pytest
from builders import G, run_for

from engine import Circle, RopeJoint, World


def test_a_rope_is_slack_below_its_length_and_holds_a_thrown_load_within_one_percent():
    world = World(sleep=False)
    bob = world.add_body(Circle(0.1), position=(0.5, 0.0), density=100.0)
    rope = world.add_joint(RopeJoint(bob, None, bob.position, (0, 0), length=2.0))
    # Slack: free fall, exactly as without the rope, until the rope is taut.
    fall = []
    while rope.current_length < 1.9:
        world.step()
        fall.append((bob.velocity[1], rope.tension))
    velocities = np.array(fall)
    times = world.dt * np.arange(1, len(fall) + 1)
    assert np.allclose(velocities[:, 0], -G * times, rtol=1e-12)
    assert np.all(velocities[:, 1] == 0.0)
    bob.velocity = (12.0, 5.0)  # thrown around
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, rope.current_length)

    run_for(world, 6.0, measure)
    assert worst < 2.0 * 1.01
    assert rope.current_length == pytest.approx(2.0, abs=0.02)  # hanging at rest: taut


def test_two_ropes_swinging_a_load_ten_times_the_middle_bodys_mass_stretch_under_two_percent():
    """Gauss-Seidel carries tension down a chain slowly: the lighter the middle body, the
    more a swinging chain of ropes stretches (1.4% here; 4.5% at a mass ratio of 50)."""
    world = World(sleep=False)
    light = world.add_body(Circle(0.05), position=(1.0, 0.0))
    heavy = world.add_body(Circle(0.05), position=(2.0, 0.0), density=10.0)
    upper = world.add_joint(RopeJoint(light, None, light.position, (0, 0)))
    lower = world.add_joint(RopeJoint(heavy, light, heavy.position, light.position))
    worst = 0.0

    def measure():
        nonlocal worst
        worst = max(worst, upper.current_length - 1.0, lower.current_length - 1.0)

    run_for(world, 6.0, measure)
    assert worst < 0.02


def test_a_rope_made_longer_than_its_length_is_pulled_in_and_then_holds_still():
    """A rope past its length is brought back to it, not only kept from stretching more,
    and the pull leaves no speed behind (no slingshot)."""
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.5, 0.0))
    rope = world.add_joint(RopeJoint(bob, None, bob.position, (0, 0), length=1.0))
    run_for(world, 1.0)
    assert rope.current_length == pytest.approx(1.0, abs=0.005)
    assert np.hypot(*bob.velocity) < 0.01
