"""Whole-world arrays for drawing and analysis: parts, contacts and joints in one call each.

``world.bodies`` and the per-body handles are the way to change a world; drawing 2,000
bodies at 60 fps, or analysing every contact of a run, wants arrays instead. These views
are read-only (a view of the world's own arrays where one exists, else a fresh array), in
the order of ``world.bodies`` (rows), and say in their docstrings what each column holds.
"""

from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np

from .joint_store import (
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
    WORLD,
)

# A C-level loop reading the ids out of an object array of Body handles.
_ID_OF = np.frompyfunc(operator.attrgetter("_id"), 1, 1)


class PartArrays(NamedTuple):
    """Every convex part of every body (P parts, padded to K vertex slots).

    vertices: (P, K, 2) float64 in the owner's frame (origin at its centre of mass; the
    slots past a part's count repeat its first vertex, except a chain link's slots 2 and
    3, which hold its neighbours' far ends); normals: (P, K, 2) unit outward normal of the
    edge from vertex i to vertex i + 1 (zero for a circle; a segment's two sides; a chain
    link's front normal in every slot); count: (P,) int64 real vertices (1 for a circle, 2
    for a segment or a chain link, 3 or more for a polygon); radius: (P,) float64 (a
    circle's or a capsule's; 0 otherwise); body: (P,) int64 the owner's row (its index in
    ``world.bodies``). A body's parts are consecutive.
    """

    vertices: np.ndarray
    normals: np.ndarray
    count: np.ndarray
    radius: np.ndarray
    body: np.ndarray


class ContactArrays(NamedTuple):
    """The body pairs touching after the last step (C pairs, Q contact points in all).

    rows: (C, 2) int64 rows of bodies A and B (-1 for a body removed since the step);
    normal: (C, 2) unit normal from A towards B (of the pair's deepest manifold); depth,
    normal_impulse, tangent_impulse: (C,) float64 as ``Contact`` has them; points: (Q, 2)
    world points; pair_of_point: (Q,) int64 the pair each point belongs to.
    """

    rows: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray
    points: np.ndarray
    pair_of_point: np.ndarray


# Joint kind name -> the code ``JointArrays.kind`` holds.
JOINT_KIND_CODES = {
    "revolute": REVOLUTE, "distance": DISTANCE, "weld": WELD, "mouse": MOUSE,
    "prismatic": PRISMATIC, "wheel": WHEEL, "rope": ROPE, "angular_spring": ANGULAR_SPRING,
    "gear": GEAR, "motor": MOTOR_JOINT,
}  # fmt: skip


class JointArrays(NamedTuple):
    """Every joint (J of them), in the order they were added (as ``world.joints``).

    kind: (J,) int8 kind codes (``World.JOINT_KIND_CODES`` names them: 0 revolute, 1 distance,
    2 weld, 3 mouse, 4 prismatic, 5 wheel, 6 rope, 7 angular spring, 8 gear, 9 motor);
    rows: (J, 2) int64 rows of the two ends, -1 for the world; anchors: (J, 2, 2) each
    end's anchor in its body's frame (origin at the centre of mass), a world point for a
    world end (a mouse joint's target); angular springs, gears and motor joints have none
    (their anchor columns hold offsets); frequency: (J,) float64 Hz of a spring (distance,
    wheel, angular spring, mouse), 0 for a rigid joint.
    """

    kind: np.ndarray
    rows: np.ndarray
    anchors: np.ndarray
    frequency: np.ndarray


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def part_arrays(parts) -> PartArrays:
    """The PartArrays of a world's part table (``engine.part_table.PartTable``)."""
    packed = parts.packed()
    return PartArrays(
        _read_only(packed.vertices),
        _read_only(packed.normals),
        _read_only(packed.count),
        _read_only(packed.radius),
        _read_only(parts.table.view("body")),
    )


def contact_arrays(table, row_of_id: np.ndarray) -> ContactArrays:
    """ContactArrays from a step's ``engine.events.ContactTable``; row_of_id: (I,) int64."""
    ids = np.asarray(_ID_OF(table.handles), dtype=np.int64).reshape(-1, 2)
    rows = row_of_id[ids] if len(ids) else np.zeros((0, 2), dtype=np.int64)
    fields = (table.normal, table.depth, table.normal_impulse, table.tangent_impulse,
              table.points, table.pair_of_point)  # fmt: skip
    return ContactArrays(_read_only(rows), *(_read_only(np.asarray(f)) for f in fields))


def joint_arrays(joints, slots: np.ndarray, body_count: int) -> JointArrays:
    """JointArrays of a world's joint table; slots: (J, 2) body rows, ``body_count`` for
    the world (as ``engine.joint_store.joint_slots`` gives them)."""
    rows = np.where(slots == body_count, WORLD, slots)
    anchors = np.stack([joints.view("anchor_a"), joints.view("anchor_b")], axis=1)
    return JointArrays(
        _read_only(joints.view("kind")),
        _read_only(rows),
        _read_only(anchors),
        _read_only(joints.view("frequency")),
    )
