"""What many tests build: the standard constants, step loops, grounds and shapes.

G, DT and SLOP are the World's defaults (gravity in m/s^2, the fixed step in s, the
resting overlap the solver leaves alone in m), written here once so that a test reads as
physics and a change of default shows up in one place.
"""

from __future__ import annotations

import math
import socket

import numpy as np
from oracles import crossings

from engine import Box, Polygon, World

G = 9.81
DT = 1.0 / 60.0
SLOP = 0.005

# An L of a 1.2 x 0.4 foot and a 0.4 x 0.8 upright (concave: two convex parts).
L_OUTLINE = [(0, 0), (1.2, 0), (1.2, 0.4), (0.4, 0.4), (0.4, 1.2), (0, 1.2)]


def steps(seconds: float, dt: float = DT) -> int:
    """The number of whole steps of ``dt`` in ``seconds``."""
    return int(round(seconds / dt))


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


def add_ground(world: World, width: float = 40.0, **body):
    """A static ``width`` x 1 box centred on x = 0 whose top face is y = 0; ``body`` goes to
    ``add_body`` (friction, restitution, ...). Returns its body."""
    return world.add_body(Box(width, 1), position=(0, -0.5), kind="static", **body)


def ground_world(**settings) -> tuple[World, object]:
    """A World made with ``settings`` and a 40 m ground (``add_ground``): (world, ground)."""
    world = World(**settings)
    return world, add_ground(world)


def stack(world: World, count: int = 5, x: float = 0.0) -> list:
    """``count`` unit boxes stacked at ``x`` on ``add_ground``'s top, exactly touching,
    bottom first."""
    return [world.add_body(Box(1, 1), position=(x, 0.5 + i)) for i in range(count)]


def measured_period(world: World, body, seconds: float, axis: int = 0, centre=0.0) -> float:
    """Step ``world`` for ``seconds``; the mean time between the downward zero crossings of
    ``body.position[axis] - centre``."""
    values = []
    run_for(world, seconds, lambda: values.append(body.position[axis] - centre))
    times = world.dt * np.arange(1, len(values) + 1)
    return float(np.diff(crossings(times, np.array(values))).mean())


def hexagon(radius: float) -> Polygon:
    """A regular hexagon of circumradius ``radius``, a vertex on +x."""
    return Polygon(
        [(radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3)) for k in range(6)]
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (for a local scheduler)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
