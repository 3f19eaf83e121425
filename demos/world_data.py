"""Everything the demos read from a World's internal arrays, gathered in one place.

The engine's public API is per body (``world.bodies``, ``body.position``) plus a few bulk
views. Drawing 2,000 bodies at 60 fps needs the packed convex parts and per-body ids and
kinds as whole arrays, which only the private tables hold today. Keeping every such access
here means one file to change when the engine publishes them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import World
from engine.body_store import DYNAMIC, KINEMATIC, STATIC
from engine.joint_store import (
    ANGULAR_SPRING,
    DISTANCE,
    GEAR,
    MOTOR_JOINT,
    MOUSE,
    PRISMATIC,
    REVOLUTE,
    ROPE,
    WELD,
    WHEEL,
)
from engine.packing import PackedParts

__all__ = [
    "ANGULAR_SPRING",
    "DISTANCE",
    "GEAR",
    "MOTOR_JOINT",
    "PRISMATIC",
    "ROPE",
    "WHEEL",
    "DYNAMIC",
    "KINEMATIC",
    "MOUSE",
    "REVOLUTE",
    "STATIC",
    "WELD",
    "Joints",
    "Parts",
    "body_ids",
    "joints",
    "kinds",
    "parts",
    "row_of",
    "sensors",
]


class Parts(NamedTuple):
    """The world's convex parts: ``packed`` in body frames and each part's owner row."""

    packed: PackedParts
    owner: np.ndarray


def parts(world: World) -> Parts:
    """All convex parts of all bodies (P of them), in the owners' centre-of-mass frames."""
    return Parts(world._parts.packed(), world._parts.table.view("body"))


def kinds(world: World) -> np.ndarray:
    """(N,) int8 per body: DYNAMIC 0, STATIC 1, KINEMATIC 2."""
    return world._bodies.view("kind")


def sensors(world: World) -> np.ndarray:
    """(N,) bool per body: sensors (``body.sensor``), which detect but never push."""
    return world._bodies.view("sensor")


def body_ids(world: World) -> np.ndarray:
    """(N,) int64 stable ids, one per row; rows keep the order bodies were added in, so
    the ids are increasing (removal shifts rows down but never reorders them)."""
    return world._bodies.view("body_id")


def body_id(body) -> int:
    """The stable id of one body handle."""
    return int(body._id)


def row_of(world: World, body) -> int:
    """The row of ``body`` in the world's arrays, -1 once removed."""
    return world._row_of(body)


def sleeping(world: World) -> np.ndarray:
    """(N,) bool: bodies the engine has put to sleep (``world.awake`` is False)."""
    return ~np.asarray(world.awake, dtype=bool)


class Joints(NamedTuple):
    """The world's joints as arrays (J of them), in the order they were added.

    kind: (J,) int8, REVOLUTE, DISTANCE, WELD, MOUSE, PRISMATIC, WHEEL, ROPE,
    ANGULAR_SPRING, GEAR or MOTOR_JOINT. rows: (J, 2) int64 body rows of the
    joint's two ends, -1 for the world. anchors: (J, 2, 2) each end's anchor in its body's
    centre-of-mass frame; for a world end, a world point (a mouse joint's target).
    frequency: (J,) Hz of a distance joint's spring (0: a rigid rod) or of a mouse
    joint's pull.
    """

    kind: np.ndarray
    rows: np.ndarray
    anchors: np.ndarray
    frequency: np.ndarray


def joints(world: World) -> Joints:
    """Every joint as arrays, so that a frame can place the anchors at the drawn poses.

    The handles' ``anchor_a`` / ``anchor_b`` are where the anchors are after the last step,
    while the bodies are drawn between the last two steps; the anchors in body frames can
    follow the drawn poses instead.
    """
    table = world._joints
    slots = world._joint_slots()  # the world end is row N there
    rows = np.where(slots == len(world._bodies.view("body_id")), -1, slots)
    anchors = np.stack([table.view("anchor_a"), table.view("anchor_b")], axis=1)
    return Joints(table.view("kind"), rows, anchors, table.view("frequency"))


def contact_table(world: World):
    """The last step's touching body pairs as arrays, or None if the engine keeps none.

    Fields used: keys (K,), normal (K, 2), points (P, 2), pair_of_point (P,). The World
    builds it lazily (``_contact_table(1)``: the last step's); ``world.contacts`` makes a
    Contact object per pair from the same table, too slow for every frame.
    """
    source = getattr(world, "_contact_table", None)
    try:
        table = source(1) if callable(source) else source
    except Exception:  # a changed private signature: fall back to the public API
        return None
    needed = ("keys", "normal", "points", "pair_of_point")
    return table if all(hasattr(table, name) for name in needed) else None


def cell_size(world: World):
    """The grid cell size the world was given (None: chosen from the boxes each step)."""
    return world._cell_size


def shape_pose(body) -> np.ndarray:
    """(3,) pose (x, y, angle) at which ``body.shapes`` (in their own coordinates) sit.

    A body's position is its centre of mass, where the shapes' common centroid was moved
    to; ``engine.collide`` wants the pose of the shapes' own origin instead.
    """
    shapes = body.shapes
    area = sum(shape.area for shape in shapes)
    centroid = sum(shape.area * shape.centroid for shape in shapes) / area
    c, s = np.cos(body.angle), np.sin(body.angle)
    offset = np.array([c * centroid[0] - s * centroid[1], s * centroid[0] + c * centroid[1]])
    x, y = body.position - offset
    return np.array([x, y, body.angle])
