"""``engine.envs.LanderVector``: many lander episodes on one WorldBatch.

The oracle is the single env: copy i of a vector env reset with seed s, given the same
actions, must run the episodes of ``Lander().reset(seed=s + i)`` bit for bit
(observations, rewards and endings), through Gymnasium's next-step autoreset.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.envs.box2d.lunar_lander import heuristic

from engine.envs import Lander, LanderVector


def single_step(env: Lander, action, ended: bool):
    """What the vector env returns for a copy whose single env is ``env``: its next step,
    or, after an episode ended, the new episode's first observation (next-step reset)."""
    if ended:
        state, _ = env.reset()
        return state, 0.0, False, False
    state, reward, terminated, truncated, _ = env.step(action)
    return state, reward, terminated, truncated


@pytest.mark.parametrize("continuous", [False, True])
def test_each_copy_runs_the_single_envs_episodes_bit_for_bit(continuous):
    count, seed = 4, 20
    vector = LanderVector(count, continuous=continuous, enable_wind=continuous)
    singles = [Lander(continuous=continuous, enable_wind=continuous) for _ in range(count)]
    states, _ = vector.reset(seed=seed)
    for i, env in enumerate(singles):
        assert np.array_equal(states[i], env.reset(seed=seed + i)[0])
    ended = [False] * count
    random = np.random.default_rng(3)
    endings = 0
    for _ in range(250):
        if continuous:
            actions = random.uniform(-1, 1, size=(count, 2))
        else:
            actions = random.integers(0, 4, size=count)
        states, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(singles):
            state, reward, done, cut = single_step(env, actions[i], ended[i])
            assert np.array_equal(states[i], state), i
            assert (rewards[i], terminated[i], truncated[i]) == (reward, done, cut), i
            ended[i] = done or cut
            endings += done or cut
    assert endings >= count, "episodes ended and restarted"


def test_gymnasiums_heuristic_lands_the_copies():
    vector = LanderVector(20)
    states, _ = vector.reset(seed=0)
    returns = np.zeros(20)
    finished = np.zeros(20, dtype=bool)
    for _ in range(1000):
        actions = np.array([heuristic(vector, state) for state in states])
        states, rewards, terminated, truncated, _ = vector.step(actions)
        returns += np.where(finished, 0.0, rewards)
        finished |= terminated | truncated
        if finished.all():
            break
    assert finished.all()
    assert (returns > 200).sum() >= 18, np.round(returns, 1)


def test_spaces_and_copies_as_worlds():
    vector = LanderVector(3)
    assert vector.observation_space.shape == (3, 8)
    assert vector.action_space.shape == (3,)
    states, _ = vector.reset(seed=1)
    assert states.dtype == np.float32 and states.shape == (3, 8)
    # Each copy has its own terrain: the ground's shapes differ between copies.
    grounds = [vector.batch.world(i).bodies[0].shapes for i in range(3)]
    assert grounds[0][3].a.tolist() != grounds[1][3].a.tolist()


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: LanderVector(0), ValueError, "num_envs"),
        (lambda: LanderVector(2, gravity=1.0), ValueError, "gravity"),
        (lambda: LanderVector(2).step(np.zeros(2, int)), RuntimeError, "reset"),
    ],
)
def test_bad_arguments_are_refused(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize("actions", [np.array([0, 4]), np.array([0]), np.array([True, False])])
def test_actions_outside_the_space_are_refused(actions):
    vector = LanderVector(2)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        vector.step(actions)
