"""Gymnasium's LunarLander scene (a Box2D 2.3 world) built in the engine.

Sizes, masses, engine powers and the 50 Hz step are Gymnasium's, given there in pixels of
``SCALE`` = 30 a metre. The legs are made as Gymnasium makes them: beside the hull, 0.6 m
below where their hinges hold them and 0.45 rad outside their limits, jointed by Box2D's
local anchors, reference angle and limits, so that the joints pull them into place while
the lander falls. Nothing here draws random numbers: the callers do, in the order
Gymnasium draws them (``engine.envs.lander``).
"""

from __future__ import annotations

import math

import numpy as np

from ..body import Body
from ..joints import RevoluteJoint
from ..segments import Segment
from ..shapes import Box, Polygon
from ..world import World

FPS = 50
SCALE = 30.0  # pixels per metre, Gymnasium's unit of its sizes
MAIN_ENGINE_POWER = 13.0
SIDE_ENGINE_POWER = 0.6
INITIAL_RANDOM = 1000.0  # N, the largest initial push on each axis
HULL = [(-14, 17), (-17, 0), (-17, -10), (17, -10), (17, 0), (14, 17)]  # pixels
LEG_AWAY, LEG_DOWN = 20, 18  # pixels: where a leg's hinge sits from the leg's centre
LEG_HALF_WIDTH, LEG_HALF_HEIGHT = 2, 8  # pixels
LEG_TORQUE = 40.0  # N m
LEG_SPEED = 0.3  # rad/s, toward the leg's resting limit
LEG_TRAVEL = 0.5  # rad between a leg's limits
LEG_REST = 0.4  # rad: the limit a leg rests on, from the hull
MAIN_ENGINE_DOWN = 4.0  # pixels below the hull's origin
SIDE_ENGINE_HEIGHT, SIDE_ENGINE_AWAY = 14.0, 12.0  # pixels
SIDE_ENGINE_BACK = 17.0  # pixels: Gymnasium's side engines fire from 17 px, not 14
WIDTH, HEIGHT = 600 / SCALE, 400 / SCALE  # the screen, m
CHUNKS = 11
GROUND = 0x0001
HULL_CATEGORY, LEG_CATEGORY = 0x0010, 0x0020
NOTHING, LEFT, MAIN, RIGHT = 0, 1, 2, 3


def surface(heights: np.ndarray) -> tuple[list, list, tuple]:
    """The terrain's corners from CHUNKS + 1 raw heights (m, drawn uniform in [0, HEIGHT /
    2)): xs and smoothed heights (CHUNKS each), and the pad (left x, right x, height)."""
    heights = np.array(heights, dtype=float)
    xs = [WIDTH / (CHUNKS - 1) * i for i in range(CHUNKS)]
    pad = (xs[CHUNKS // 2 - 1], xs[CHUNKS // 2 + 1], HEIGHT / 4)
    heights[CHUNKS // 2 - 2 : CHUNKS // 2 + 3] = pad[2]
    smooth = [0.33 * (heights[i - 1] + heights[i] + heights[i + 1]) for i in range(CHUNKS)]
    return xs, smooth, pad


def terrain_shapes(xs: list, smooth: list) -> list:
    """The ground's shapes: a flat line at 0 and the terrain's segments (friction 0.1)."""
    parts = [Segment((0.0, 0.0), (WIDTH, 0.0), friction=0.1)]
    for i in range(CHUNKS - 1):
        parts.append(Segment((xs[i], smooth[i]), (xs[i + 1], smooth[i + 1]), friction=0.1))
    return parts


def add_terrain(world: World, xs: list, smooth: list) -> Body:
    """The static ground of ``terrain_shapes``, its frame the world's."""
    return world.add_body(terrain_shapes(xs, smooth), kind="static", origin="local")


def add_craft(world: World) -> tuple[Body, list, list]:
    """The hull at the top middle of the screen and its two legs on motorised, limited
    hinges, as Gymnasium makes them. Returns (hull, [left, right] legs, their joints)."""
    top = (WIDTH / 2, HEIGHT)
    hull_shape = Polygon(
        [(x / SCALE, y / SCALE) for x, y in HULL], category=HULL_CATEGORY, mask=GROUND
    )
    hull = world.add_body(hull_shape, position=top, density=5.0, friction=0.1, origin="local")
    legs, hinges = [], []
    for side in (-1, +1):
        leg = world.add_body(
            Box(2 * LEG_HALF_WIDTH / SCALE, 2 * LEG_HALF_HEIGHT / SCALE,
                category=LEG_CATEGORY, mask=GROUND),
            position=(WIDTH / 2 - side * LEG_AWAY / SCALE, HEIGHT), angle=side * 0.05,
            density=1.0, friction=0.2,
        )  # fmt: skip
        rest = -side * LEG_REST
        lower, upper = (rest, rest + LEG_TRAVEL) if side < 0 else (rest - LEG_TRAVEL, rest)
        hinge = RevoluteJoint(
            hull, leg, local_anchor_a=(0.0, 0.0),
            local_anchor_b=(side * LEG_AWAY / SCALE, LEG_DOWN / SCALE), reference_angle=0.0,
            lower=lower, upper=upper, motor_speed=side * LEG_SPEED, max_motor_torque=LEG_TORQUE,
        )  # fmt: skip
        world.add_joint(hinge)
        legs.append(leg)
        hinges.append(hinge)
    return hull, legs, hinges


def engine_pushes(angle: float, origin, dispersion, main: float, side: float, direction: int):
    """The engines' impulses on the hull, as Gymnasium fires them: a list of (impulse (2,),
    world point (2,)) for a hull at ``angle`` whose origin is ``origin`` (2,), with the
    dispersion (2,) in metres, the main engine's power ``main`` (0, or 0.5 to 1) and the
    side engines' ``side`` (0, or 0.5 to 1) toward ``direction`` (-1 left, +1 right)."""
    tip = (math.sin(angle), math.cos(angle))
    across = (-tip[1], tip[0])
    x, y = float(origin[0]), float(origin[1])
    pushes = []
    if main > 0.0:
        reach = MAIN_ENGINE_DOWN / SCALE + 2 * dispersion[0]
        ox = tip[0] * reach + across[0] * dispersion[1]
        oy = -tip[1] * reach - across[1] * dispersion[1]
        power = MAIN_ENGINE_POWER * main
        pushes.append(((-ox * power, -oy * power), (x + ox, y + oy)))
    if side > 0.0:
        sideways = 3 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE
        ox = tip[0] * dispersion[0] + across[0] * sideways
        oy = -tip[1] * dispersion[0] - across[1] * sideways
        at = (
            x + ox - tip[0] * SIDE_ENGINE_BACK / SCALE,
            y + oy + tip[1] * SIDE_ENGINE_HEIGHT / SCALE,
        )
        power = SIDE_ENGINE_POWER * side
        pushes.append(((-ox * power, -oy * power), at))
    return pushes


def observation(position, velocity, angle: float, spin: float, pad_height: float,
                legs_down) -> list:  # fmt: skip
    """Gymnasium's observation (8 floats) of a hull whose origin is at ``position`` (2,)
    moving at ``velocity`` (2,), turned ``angle`` and turning at ``spin``: position and
    velocity scaled to the screen, the angle and a scaled turning rate, and whether each
    leg touches the ground."""
    return [
        (position[0] - WIDTH / 2) / (WIDTH / 2),
        (position[1] - (pad_height + LEG_DOWN / SCALE)) / (HEIGHT / 2),
        velocity[0] * (WIDTH / 2) / FPS,
        velocity[1] * (HEIGHT / 2) / FPS,
        angle,
        20.0 * spin / FPS,
        1.0 if legs_down[0] else 0.0,
        1.0 if legs_down[1] else 0.0,
    ]


def shaping(state):
    """Gymnasium's shaping potential of an observation (8 values; or (8, C) for C of
    them): near the pad, slow, level, and ten points a leg on the ground; a step's reward
    is its change less the fuel."""
    return (
        -100 * np.sqrt(state[0] * state[0] + state[1] * state[1])
        - 100 * np.sqrt(state[2] * state[2] + state[3] * state[3])
        - 100 * np.abs(state[4]) + 10 * state[6] + 10 * state[7]
    )  # fmt: skip
