"""The whole-world arrays the demos draw from, read through the World's public bulk views.

Drawing 2,000 bodies at 60 fps needs the convex parts, ids, kinds, contacts and joints as
whole arrays rather than per-body handles: ``world.part_arrays()``, ``world.kinds``,
``world.body_ids``, ``world.sensors``, ``world.contact_arrays()`` and
``world.joint_arrays()`` give them. This module names the pieces the way the demos use
them (kind codes as constants, the parts as ``PackedParts`` for the tessellator).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import ContactArrays, JointArrays, World
from engine.packing import PackedParts

DYNAMIC = World.KIND_CODES["dynamic"]
STATIC = World.KIND_CODES["static"]
KINEMATIC = World.KIND_CODES["kinematic"]
REVOLUTE = World.JOINT_KIND_CODES["revolute"]
DISTANCE = World.JOINT_KIND_CODES["distance"]
WELD = World.JOINT_KIND_CODES["weld"]
MOUSE = World.JOINT_KIND_CODES["mouse"]
PRISMATIC = World.JOINT_KIND_CODES["prismatic"]
WHEEL = World.JOINT_KIND_CODES["wheel"]
ROPE = World.JOINT_KIND_CODES["rope"]
ANGULAR_SPRING = World.JOINT_KIND_CODES["angular_spring"]
GEAR = World.JOINT_KIND_CODES["gear"]
MOTOR_JOINT = World.JOINT_KIND_CODES["motor"]
Joints = JointArrays


class Parts(NamedTuple):
    """The world's convex parts: ``packed`` in body frames and each part's owner row."""

    packed: PackedParts
    owner: np.ndarray


def parts(world: World) -> Parts:
    """All convex parts of all bodies (P of them), in the owners' centre-of-mass frames."""
    arrays = world.part_arrays()
    packed = PackedParts(arrays.vertices, arrays.normals, arrays.count, arrays.radius)
    return Parts(packed, arrays.body)


def kinds(world: World) -> np.ndarray:
    """(N,) int8 per body: DYNAMIC 0, STATIC 1, KINEMATIC 2."""
    return world.kinds


def sensors(world: World) -> np.ndarray:
    """(N,) bool per body: sensors (``body.sensor``), which detect but never push."""
    return world.sensors


def body_ids(world: World) -> np.ndarray:
    """(N,) int64 stable ids, one per row, increasing (rows keep the order of adding)."""
    return world.body_ids


def body_id(body) -> int:
    """The stable id of one body handle."""
    return body.body_id


def row_of(world: World, body) -> int:
    """The row of ``body`` in the world's arrays, -1 once removed."""
    return world.index_of(body)


def sleeping(world: World) -> np.ndarray:
    """(N,) bool: bodies the engine has put to sleep (``world.awake`` is False)."""
    return ~np.asarray(world.awake, dtype=bool)


def joints(world: World) -> JointArrays:
    """Every joint as arrays, so that a frame can place the anchors at the drawn poses
    (the anchors are in the bodies' frames, which follow the poses the bodies are drawn
    at, between the last two steps)."""
    return world.joint_arrays()


def contacts(world: World) -> ContactArrays:
    """The pairs touching after the last step, as arrays."""
    return world.contact_arrays()


def cell_size(world: World):
    """The grid cell size the world was given (None: chosen from the boxes each step)."""
    return world.cell_size


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
    x, y = body.center_of_mass - offset
    return np.array([x, y, body.angle])
