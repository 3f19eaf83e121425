"""``engine.envs.Lander``: Gymnasium's LunarLander-v3 on the engine.

Gymnasium's own pieces are the oracles: its env checker, its ``heuristic`` controller
(which lands Box2D's lander with a return over 200 on 18 of the seeds 0-19), and its
LunarLander, whose terrain for a seed the engine's env must draw alike.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d.lunar_lander import heuristic
from gymnasium.utils.env_checker import check_env

from engine.envs import Lander


def run_episode(env, seed: int) -> tuple[float, int, bool]:
    """(return, steps, terminated) of one episode flown by Gymnasium's heuristic."""
    state, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        state, reward, terminated, truncated, _ = env.step(heuristic(env, state))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated


def test_gymnasiums_heuristic_lands_it_as_it_lands_box2ds():
    env = Lander()
    returns = [run_episode(env, seed)[0] for seed in range(20)]
    landed = sum(total > 200 for total in returns)
    assert landed >= 18, np.round(returns, 1)


def test_the_continuous_lander_flies_under_the_heuristic_too():
    env = Lander(continuous=True)
    returns = [run_episode(env, seed)[0] for seed in range(5)]
    assert sum(total > 200 for total in returns) >= 4, np.round(returns, 1)


def test_gymnasiums_env_checker_passes():
    check_env(Lander(), skip_render_check=True)


def test_a_seed_draws_gymnasiums_terrain():
    ours = Lander()
    theirs = gymnasium.make("LunarLander-v3").unwrapped
    for seed in (0, 7, 123):
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        corners = [polygon[0] for polygon in theirs.sky_polys]
        assert np.allclose(ours.terrain[:-1], corners, rtol=0, atol=1e-12)
        assert ours.pad == (theirs.helipad_x1, theirs.helipad_x2, theirs.helipad_y)


def test_an_episode_is_its_seed():
    env = Lander()
    first = [env.reset(seed=4)[0]]
    for action in [2, 2, 1, 0, 3] * 20:
        first.append(env.step(action)[0])
    again = [env.reset(seed=4)[0]]
    for action in [2, 2, 1, 0, 3] * 20:
        again.append(env.step(action)[0])
    assert np.array_equal(np.array(first), np.array(again))


def test_doing_nothing_crashes_and_ends_the_episode():
    env = Lander()
    env.reset(seed=2)
    for _ in range(1000):
        state, reward, terminated, truncated, _ = env.step(0)
        if terminated or truncated:
            break
    assert terminated and reward == -100.0


def test_the_time_limit_truncates():
    env = Lander(max_episode_steps=5)
    env.reset(seed=0)
    flags = [env.step(2)[3] for _ in range(5)]
    assert flags == [False, False, False, False, True]


def test_wind_pushes_the_flying_lander():
    calm, windy = Lander(), Lander(enable_wind=True, wind_power=20.0)
    calm.reset(seed=3)
    windy.reset(seed=3)
    for _ in range(40):
        calm_state = calm.step(0)[0]
        windy_state = windy.step(0)[0]
    assert abs(windy_state[2] - calm_state[2]) > 1e-3


def test_render_gives_a_picture():
    env = Lander(render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.shape == (400, 600, 3)
    assert picture.min() < picture.max()


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: Lander(gravity=-13.0), ValueError, "gravity"),
        (lambda: Lander(render_mode="human"), ValueError, "render_mode"),
        (lambda: Lander(max_episode_steps=0), ValueError, "max_episode_steps"),
        (lambda: Lander().step(0), RuntimeError, "reset"),
    ],
)
def test_bad_arguments_are_refused(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize("action", [4, -1, True, "main"])
def test_actions_outside_the_space_are_refused(action):
    env = Lander()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
