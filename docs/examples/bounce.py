"""Bounce height against restitution.

A ball of radius 5 cm is dropped from ``height`` (m, measured from its lowest point) on
the ground, and the top of its first rebound is measured. Theory: the rebound keeps e^2
of the impact's kinetic energy, so it rises to e^2 h. The drop height is known to +-5 mm
(the seed draws it), as when the ball is let go by hand.

    python docs/examples/bounce.py [PICTURE.png]    # the sweep, its table and its plot
"""

import numpy as np

from engine import Box, Circle, World

RADIUS = 0.05
DT = 1 / 60  # the ball bounces in the sub-step it arrives in, at any dt (docs/world.md)


def bounce(restitution, height, seed):
    """The apex of the first rebound (m above the ground) of a ball dropped from about
    ``height``; also the drop height that was drawn."""
    rng = np.random.default_rng(seed)
    drop = height + rng.uniform(-0.005, 0.005)
    world = World(dt=DT)
    world.add_body(Box(2, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(
        Circle(RADIUS), position=(0, drop + RADIUS), restitution=restitution, friction=0.0
    )
    landed, apex = False, 0.0
    for _ in range(int(3 * np.sqrt(2 * drop / 9.81) / DT)):  # time to fall, rise and spare
        world.step()
        rising = ball.velocity[1] > 0
        if not landed:
            landed = rising or ball.position[1] - RADIUS < 0.01
            continue
        apex = max(apex, ball.position[1] - RADIUS)
        if not rising:  # past the top (or at rest, when e = 0)
            break
    return {"drop_height": drop, "apex": apex}


if __name__ == "__main__":
    import sys

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from engine.experiments import sweep

    grid = {"restitution": np.linspace(0, 1, 21), "height": [1, 2, 4]}
    table = sweep(bounce, grid=grid, repeats=3, out="bounce.parquet")
    print(table.groupby("height")["wall_time"].describe())

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    e = np.linspace(0, 1, 101)
    for (height, runs), colour in zip(table.groupby("height"), ["C0", "C1", "C2"]):
        label = f"h = {height} m"
        left.plot(e, e**2 * height, color=colour, lw=1)
        left.plot(runs["restitution"], runs["apex"], "o", color=colour, ms=3, label=label)
        excess = runs["apex"] - runs["restitution"] ** 2 * runs["drop_height"]
        right.plot(runs["restitution"], 1000 * excess, "o", color=colour, ms=3, label=label)
    # The top is sampled at the ends of steps, at most dt / 2 from it: that low at most.
    right.axhline(-1000 * 9.81 * (DT / 2) ** 2 / 2, color="k", lw=1, ls="--")
    left.set(xlabel="restitution e", ylabel="apex of the first rebound (m)")
    left.set_title("measured (dots) and e² h (lines)")
    right.set(xlabel="restitution e", ylabel="apex - e² h (mm)")
    right.set_title("excess over e² h (dashed: the most sampling misses)")
    left.legend()
    right.legend()
    figure.tight_layout()
    figure.savefig(sys.argv[1] if len(sys.argv) > 1 else "bounce.png", dpi=100)
