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

from engine import Box, Circle, Polygon, RevoluteJoint, World

G = 9.81
DT = 1.0 / 60.0
SLOP = 0.005

# An L of a 1.2 x 0.4 foot and a 0.4 x 0.8 upright (concave: two convex parts).
L_OUTLINE = [(0, 0), (1.2, 0), (1.2, 0.4), (0.4, 0.4), (0.4, 1.2), (0, 1.2)]


def steps(seconds: float, dt: float = DT) -> int:
    """The number of whole steps of ``dt`` in ``seconds``."""
    return int(round(seconds / dt))


def integration_step(world: World) -> float:
    """The step the integrator takes: the world's sub-step."""
    return world.dt / world.substeps


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


HINGE_FRICTION = 0.05


def ragdoll(world: World, x: float, y: float) -> list:
    """A ragdoll standing at (x, y) (its feet): head, torso, arms and legs in two parts,
    with a little friction in every hinge."""
    parts = {
        "torso": (Box(0.4, 0.7), (x, y + 1.25)),
        "head": (Circle(0.15), (x, y + 1.78)),
        "upper_arm_l": (Box(0.12, 0.35), (x - 0.28, y + 1.42)),
        "lower_arm_l": (Box(0.1, 0.35), (x - 0.28, y + 1.07)),
        "upper_arm_r": (Box(0.12, 0.35), (x + 0.28, y + 1.42)),
        "lower_arm_r": (Box(0.1, 0.35), (x + 0.28, y + 1.07)),
        "thigh_l": (Box(0.15, 0.45), (x - 0.1, y + 0.68)),
        "shin_l": (Box(0.12, 0.45), (x - 0.1, y + 0.23)),
        "thigh_r": (Box(0.15, 0.45), (x + 0.1, y + 0.68)),
        "shin_r": (Box(0.12, 0.45), (x + 0.1, y + 0.23)),
    }
    body = {name: world.add_body(shape, position=at) for name, (shape, at) in parts.items()}
    joints = [
        ("torso", "head", (x, y + 1.62), -0.5, 0.5),
        ("torso", "upper_arm_l", (x - 0.28, y + 1.58), -2.5, 0.5),
        ("upper_arm_l", "lower_arm_l", (x - 0.28, y + 1.25), -2.0, 0.0),
        ("torso", "upper_arm_r", (x + 0.28, y + 1.58), -0.5, 2.5),
        ("upper_arm_r", "lower_arm_r", (x + 0.28, y + 1.25), 0.0, 2.0),
        ("torso", "thigh_l", (x - 0.1, y + 0.9), -1.5, 0.5),
        ("thigh_l", "shin_l", (x - 0.1, y + 0.45), 0.0, 2.0),
        ("torso", "thigh_r", (x + 0.1, y + 0.9), -0.5, 1.5),
        ("thigh_r", "shin_r", (x + 0.1, y + 0.45), -2.0, 0.0),
    ]
    for a, b, anchor, lower, upper in joints:
        world.add_joint(
            RevoluteJoint(
                body[a], body[b], anchor=anchor, lower=lower, upper=upper,
                max_motor_torque=HINGE_FRICTION,
            )
        )  # fmt: skip
    return list(body.values())
