"""What many tests build: the standard constants, step loops and shapes.

G, DT and SLOP are the World's defaults (gravity in m/s^2, the fixed step in s, the
resting overlap the solver leaves alone in m), written here once so that a test reads as
physics and a change of default shows up in one place.
"""

from __future__ import annotations

import math

from engine import Polygon, World

G = 9.81
DT = 1.0 / 60.0
SLOP = 0.005


def run(world: World, steps: int) -> None:
    """Step ``world`` ``steps`` times."""
    for _ in range(steps):
        world.step()


def run_for(world: World, seconds: float, each=None) -> None:
    """Step ``world`` for ``seconds`` of its time (rounded to whole steps), calling
    ``each()`` after every step if given."""
    for _ in range(round(seconds / world.dt)):
        world.step()
        if each is not None:
            each()


def hexagon(radius: float) -> Polygon:
    """A regular hexagon of circumradius ``radius``, a vertex on +x."""
    return Polygon(
        [(radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3)) for k in range(6)]
    )
