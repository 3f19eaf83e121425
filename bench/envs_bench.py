"""The lander environment against Gymnasium's own LunarLander-v3 (Box2D 2.3), side by side
in one process: environment steps per second with random actions (seeded), resetting at
each episode's end, one environment on one core; and the vector env (``LanderVector``,
1,024 copies on one WorldBatch, every core) under random actions with its autoreset.
And Gymnasium's ``heuristic`` on seeds 0-19 in each: how many land with a return over
200.

Run alone with ``python -m bench.envs_bench``.
"""

from __future__ import annotations

import time

import gymnasium
import numpy as np
from gymnasium.envs.box2d.lunar_lander import heuristic

from engine.envs import Lander, LanderVector

STEPS = 3000
ROUNDS = 3


def random_rate(env, steps: int = STEPS) -> float:
    """Steps per second of ``env`` under random actions with resets: best of ROUNDS."""
    actions = np.random.default_rng(0).integers(0, 4, size=steps)
    best = float("inf")
    for _ in range(ROUNDS):
        env.reset(seed=0)
        start = time.perf_counter()
        for action in actions:
            _, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                env.reset()
        best = min(best, time.perf_counter() - start)
    return steps / best


def vector_rate(copies: int = 1024, steps: int = 60) -> float:
    """Environment steps per second of a LanderVector of ``copies`` under random actions:
    the best of ROUNDS runs of ``steps`` steps (after a first run that compiles and
    settles the episodes' restarts into a steady mix)."""
    vector = LanderVector(copies)
    vector.reset(seed=0)
    random = np.random.default_rng(0)
    best = float("inf")
    for round in range(ROUNDS + 1):
        actions = random.integers(0, 4, size=(steps, copies))
        start = time.perf_counter()
        for action in actions:
            vector.step(action)
        if round:
            best = min(best, time.perf_counter() - start)
    return copies * steps / best


def heuristic_landings(env, seeds=range(20)) -> int:
    """How many of ``seeds`` Gymnasium's heuristic lands with a return over 200."""
    landed = 0
    for seed in seeds:
        state, _ = env.reset(seed=seed)
        total = 0.0
        while True:
            state, reward, terminated, truncated, _ = env.step(heuristic(env, state))
            total += reward
            if terminated or truncated:
                break
        landed += total > 200
    return landed


def run() -> list:
    """Rows (label, value, unit) for ``make bench``."""
    ours, theirs = Lander(), gymnasium.make("LunarLander-v3")
    rate, box2d_rate = random_rate(ours), random_rate(theirs)
    vector = vector_rate()
    return [
        ("lander vector env, 1,024 copies, random actions", vector, "steps/s"),
        ("lander vector env / Gymnasium's (one core)", vector / box2d_rate, "x"),
        ("lander env, random actions", rate, "steps/s"),
        ("Gymnasium LunarLander-v3 (Box2D), random actions", box2d_rate, "steps/s"),
        ("lander env / Gymnasium's", rate / box2d_rate, "x"),
        ("lander env: heuristic landings > 200 of 20", heuristic_landings(ours), "episodes"),
        ("Gymnasium's: heuristic landings > 200 of 20", heuristic_landings(theirs), "episodes"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>14,.4g}  {unit}")
