"""Distance joint: undamped, damped, critically damped and stiff springs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import DT, integration_step, run_for
from oracles import crossings

from engine import Circle, DistanceJoint, World


@pytest.mark.parametrize("frequency", [0.5, 1.0, 2.0, 4.0])
def test_an_undamped_spring_oscillates_at_its_frequency_and_keeps_its_amplitude(frequency):
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=frequency))
    samples = []
    run_for(world, 10.0, lambda: samples.append(bob.position[0] - 1.0))
    times = DT * np.arange(1, len(samples) + 1)
    period = np.diff(crossings(times, np.array(samples))).mean()
    # Symplectic Euler: the frequency is high by (w h)^2 / 24, 0.7% at 4 Hz and 60 Hz
    # (h the integrator's step: with sub-steps, the sub-step).
    w_h = 2 * math.pi * frequency * integration_step(world)
    assert 1 / period == pytest.approx(frequency * (1 + w_h**2 / 24), rel=0.002)
    assert max(samples[-round(2 / frequency / DT) :]) == pytest.approx(0.2, rel=0.03)


def test_a_damped_spring_decays_at_its_damping_ratio():
    world = World(gravity=(0, 0), sleep=False)
    frequency, ratio = 1.0, 0.1
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(
        DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=frequency, damping=ratio)
    )
    samples = []
    run_for(world, 6.0, lambda: samples.append(bob.position[0] - 1.0))
    samples = np.array(samples)
    peaks = np.flatnonzero((samples[1:-1] > samples[:-2]) & (samples[1:-1] >= samples[2:])) + 1
    # Successive peaks shrink by exp(-zeta w T_d), T_d = 1 / (f sqrt(1 - zeta^2)).
    decrement = np.log(samples[peaks[:-1]] / samples[peaks[1:]]).mean()
    expected = 2 * math.pi * ratio / math.sqrt(1 - ratio**2)
    # Measured 0.5 % low (symplectic Euler at w dt = 0.1), so 1 %.
    assert decrement == pytest.approx(expected, rel=0.01)


def test_a_critically_damped_spring_does_not_overshoot():
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.5, 0))
    world.add_joint(DistanceJoint(bob, None, (1.5, 0), (0, 0), length=1.0, frequency=2.0,
                                  damping=1.0))  # fmt: skip
    samples = []
    run_for(world, 3.0, lambda: samples.append(bob.position[0] - 1.0))
    assert min(samples) > -1e-3
    assert samples[-1] < 1e-3


def test_a_stiff_spring_is_stable_and_loses_energy():
    world = World(gravity=(0, 0), sleep=False)
    bob = world.add_body(Circle(0.1), position=(1.2, 0))
    world.add_joint(DistanceJoint(bob, None, (1.2, 0), (0, 0), length=1.0, frequency=30.0))
    samples = []
    run_for(world, 2.0, lambda: samples.append(abs(bob.position[0] - 1.0)))
    assert max(samples) <= 0.2 + 1e-9
    assert samples[-1] < 0.2
