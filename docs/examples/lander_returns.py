"""Episode returns of the lander under a random agent and under Gymnasium's heuristic.

Runs ``engine.envs.LanderVector`` (256 copies on one WorldBatch) until every copy has
finished one episode under each agent, and draws the two distributions of returns.

    python docs/examples/lander_returns.py [PICTURE.png]
"""

import sys

import numpy as np
from gymnasium.envs.box2d.lunar_lander import heuristic

from engine.envs import LanderVector

COPIES = 256


def first_returns(agent, copies: int = COPIES, seed: int = 0) -> np.ndarray:
    """(copies,) the return of each copy's first episode under ``agent(vector, states)``."""
    vector = LanderVector(copies)
    states, _ = vector.reset(seed=seed)
    returns = np.zeros(copies)
    finished = np.zeros(copies, dtype=bool)
    while not finished.all():
        states, rewards, terminated, truncated, _ = vector.step(agent(vector, states))
        returns += np.where(finished, 0.0, rewards)
        finished |= terminated | truncated
    return returns


def random_agent(vector, states):
    return vector.action_space.sample()


def heuristic_agent(vector, states):
    return np.array([heuristic(vector, state) for state in states])


def main(picture=None) -> None:
    random_returns = first_returns(random_agent)
    heuristic_returns = first_returns(heuristic_agent)
    for name, returns in (("random", random_returns), ("heuristic", heuristic_returns)):
        print(f"{name:9s}: mean {returns.mean():7.1f}, over 200: {(returns > 200).mean():.0%}")
    if picture:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 3.5))
        bins = np.linspace(-600, 350, 60)
        axes.hist(random_returns, bins, alpha=0.7, label="random agent")
        axes.hist(heuristic_returns, bins, alpha=0.7, label="Gymnasium's heuristic")
        axes.axvline(200, color="k", lw=1, ls="--")
        axes.set_xlabel("return of the first episode")
        axes.set_ylabel(f"copies of {COPIES}")
        axes.legend(loc="upper left")
        figure.tight_layout()
        figure.savefig(picture, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
