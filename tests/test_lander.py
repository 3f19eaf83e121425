"""A port of Gymnasium's LunarLander (``bench/lander.py``): a lander on two legs whose
hinges have limits and motors, flown onto its pad by a hand-written controller, at the
default World's settings. Box2D 2.3 runs the scene at 180 velocity and 60 position
iterations; the one step must hold the legs' limits and let the landed craft sleep, since
an episode ends only when the lander falls asleep."""

from __future__ import annotations

import pytest

from bench.lander import MAX_STEPS, PULL_IN_STEPS, Lander, episode

SEEDS = range(8)
# Past a limit by at most this: the legs' limits must hold, not open under the landing.
LIMIT_TOLERANCE = 0.01  # rad
# The hinges' two anchors at most this far apart while flying and landing.
HINGE_TOLERANCE = 2e-3  # m


@pytest.fixture(scope="module")
def outcomes():
    return {seed: episode(seed) for seed in SEEDS}


def test_every_episode_ends_before_the_time_limit(outcomes):
    # Landed episodes end when the lander sleeps: one that rocks on its legs for ever
    # runs into the time limit.
    endings = {seed: (o.ending, o.steps) for seed, o in outcomes.items()}
    assert all(o.ending != "timeout" and o.steps < MAX_STEPS for o in outcomes.values()), endings
    assert sum(o.ending == "landed" for o in outcomes.values()) >= len(SEEDS) - 1, endings


def test_the_legs_stay_within_their_limits_and_on_their_hinges(outcomes):
    for seed, outcome in outcomes.items():
        assert outcome.limit_excess <= LIMIT_TOLERANCE, (seed, outcome.limit_excess)
        assert outcome.hinge_gap <= HINGE_TOLERANCE, (seed, outcome.hinge_gap)


def test_a_landed_lander_comes_to_rest(outcomes):
    for seed, outcome in outcomes.items():
        if outcome.ending == "landed":
            # Asleep means below the sleep speed for the sleep time: the last steps slow.
            assert max(outcome.speeds[-10:]) < 0.05, (seed, outcome.speeds[-10:])


def test_the_legs_start_as_gymnasium_makes_them_and_are_pulled_in():
    """Built as Gymnasium builds them (Box2D's local anchors and limits): each hinge starts
    about 0.6 m open with its leg 0.45 rad outside its limits, and the joints pull the legs
    in, within the limits by the step the limit excess counts from."""
    lander = Lander(0)
    assert lander.hinge_gap() > 0.5
    assert lander.limit_excess() == pytest.approx(0.45, abs=1e-9)
    for _ in range(PULL_IN_STEPS):
        lander.step(0)
    assert lander.hinge_gap() <= HINGE_TOLERANCE
    assert lander.limit_excess() <= LIMIT_TOLERANCE
