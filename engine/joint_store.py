"""The joint store: one row per joint, in the order the joints were added, and handles.

A joint joins slot A and slot B. A slot holds a body id, or -1 for the world itself (a
fixed frame at the origin). When a joint holds one body to the world, the world takes slot
A and the body slot B, whatever order the user gave: then the joint's angle, limits and
motor speed are the body's own turn, counter-clockwise, as one would expect of a wheel on
an axle. Anchors are stored in each slot's own frame (for the world: world points), so a
joint follows its bodies without being updated.

Columns are shared between kinds where their meaning is the same: ``lower``, ``upper`` and
``motor_speed`` are on the joint's coordinate (an angle for a revolute joint, a
translation for a prismatic one), ``max_force`` bounds a force (a mouse's pull, a
prismatic motor, a motor joint) and ``max_motor_torque`` a torque.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC
from .field_rules import JOINT_RULES, POSITIVE, RATIO_SIZE, column_message
from .snapshot_format import ADDED_IN_4, KINDS_UP_TO_3, ArrayChecker, Version
from .table import Table

REVOLUTE, DISTANCE, WELD, MOUSE = 0, 1, 2, 3
PRISMATIC, WHEEL, ROPE, ANGULAR_SPRING, GEAR, MOTOR_JOINT = 4, 5, 6, 7, 8, 9
WORLD = -1
KIND_COUNT = 10
KIND_NAMES = (
    "revolute", "distance", "weld", "mouse", "prismatic", "wheel", "rope", "angular spring",
    "gear", "motor",
)  # fmt: skip
# The kinds that need a field > 0 (beyond its rule in ``engine.field_rules.JOINT_RULES``):
# a mouse, wheel or angular spring is a spring, a distance joint or rope has a length.
POSITIVE_FOR_KINDS = {
    "frequency": (MOUSE, WHEEL, ANGULAR_SPRING),
    "length": (DISTANCE, ROPE),
}

# Field name -> (trailing shape, dtype) of the per-joint arrays.
JOINT_FIELDS = {
    "joint_id": ((), np.int64),
    "kind": ((), np.int8),
    "body_a": ((), np.int64),  # body id in slot A, or WORLD
    "body_b": ((), np.int64),
    "anchor_a": ((2,), np.float64),  # in slot A's frame, from its centre of mass
    "anchor_b": ((2,), np.float64),
    # angle_b - angle_a when the joint was made; a gear: angle_a + ratio angle_b then; a
    # motor joint: the angle_b - angle_a it drives to (its angular offset)
    "reference_angle": ((), np.float64),
    "lower": ((), np.float64),  # limits on the joint coordinate, -inf / +inf: none
    "upper": ((), np.float64),
    "motor_speed": ((), np.float64),  # rad/s of B relative to A (prismatic: m/s)
    "max_motor_torque": ((), np.float64),  # N m; 0: no motor (motor joint: its max torque)
    "length": ((), np.float64),  # distance joint rest length, rope length, m
    "frequency": ((), np.float64),  # Hz; 0: rigid
    "damping": ((), np.float64),  # damping ratio
    "max_force": ((), np.float64),  # mouse pull, prismatic motor, motor joint, N
    "collide_connected": ((), bool),
    "axis": ((2,), np.float64),  # prismatic and wheel: unit axis in slot A's frame
    "ratio": ((), np.float64),  # gear ratio
    "rest_angle": ((), np.float64),  # angular spring: rest angle from the reference angle
    "correction": ((), np.float64),  # motor joint: share of the pose error closed per step
    # Accumulated impulses, kept from step to step for warm starting.
    "impulse": ((3,), np.float64),  # point x, point y (or the distance axis), angle
    "motor_impulse": ((), np.float64),
    "lower_impulse": ((), np.float64),
    "upper_impulse": ((), np.float64),
    "spring_impulse": ((), np.float64),  # wheel and angular spring
}


def joint_slots(ids_a: np.ndarray, ids_b: np.ndarray, row_of_id: np.ndarray, body_count: int):
    """(J, 2) int64 body rows of every joint's slots A and B from their body ids (J,); the
    world (WORLD) is row ``body_count``, one past the bodies."""
    ids = np.column_stack([ids_a, ids_b])
    rows = row_of_id[np.maximum(ids, 0)]
    return np.where(ids == WORLD, body_count, rows)


# Joint limits: the one infinity each may hold, meaning "no limit"; other floats are finite.
NO_LIMIT = {"lower": -np.inf, "upper": np.inf}


class JointStore(Table):
    """The joint table (fields JOINT_FIELDS, J rows) and the J Joint handles in row order.

    next_id: the next joint id (ids are never reused).
    """

    # Which attributes a snapshot saves and which it leaves out (as for the body store).
    SAVED = {
        "count": "header counts.joints",
        "arrays": "arrays joint.*, every field (impulses included), rows [0, count)",
        "_fields": "JOINT_FIELDS: the file's joint arrays are checked against them",
        "handles": "as joint ids (joint.joint_id) and classes (joint.kind)",
        "next_id": "header state.next_joint_id",
    }
    EXCLUDED = {
        "_columns": "cache of the field views, rebuilt on demand",
        "_cells": "cache of the fields' memoryviews, rebuilt on demand",
        "version": "counts changes of the rows' layout, for caches; starts again at 0",
        "_rows": "cache of each joint id's row, rebuilt on demand",
        "_joined": "cache of the ids of the bodies in joints, rebuilt on demand",
    }

    def __init__(self, capacity: int = 16):
        super().__init__(JOINT_FIELDS, capacity)
        self.handles: list = []
        self.next_id = 0
        self._rows = None
        self._joined = None

    def row_of(self, joint_id: int) -> int:
        """The row of joint ``joint_id``, or -1 when it is not in the table: a dict lookup
        (the map is built again after rows were deleted)."""
        if self._rows is None:
            self._rows = {j: row for row, j in enumerate(self.view("joint_id").tolist())}
        return self._rows.get(joint_id, -1)

    def joined_ids(self) -> set:
        """The ids of the bodies in joints (WORLD too, when a joint holds a body to the
        world): a set, built again after joints were added or removed."""
        if self._joined is None:
            self._joined = set(self.view("body_a").tolist()) | set(self.view("body_b").tolist())
        return self._joined

    def append(self, values: dict, rows: int = 1) -> int:
        """``Table.append``, keeping the id map."""
        self._joined = None
        first = super().append(values, rows)
        if self._rows is not None:
            ids = self.arrays["joint_id"][first : first + rows].tolist()
            self._rows.update(zip(ids, range(first, first + rows)))
        return first

    def delete(self, first: int, rows: int = 1) -> None:
        """``Table.delete``; later rows move, so the id map is built again when next read."""
        super().delete(first, rows)
        self._rows = self._joined = None

    def fill(self, columns: dict, count: int) -> None:
        """``Table.fill``; the id map is built again when next read."""
        super().fill(columns, count)
        self._rows = self._joined = None

    def to_arrays(self) -> dict:
        """Copies of the live rows of every field (``joint.<field>``)."""
        return {f"joint.{name}": self.view(name).copy() for name in self.arrays}

    @staticmethod
    def layout() -> dict:
        """The arrays a file may hold of the store: name -> (dims, dtype)."""
        return {
            f"joint.{name}": (("J", *shape), dtype) for name, (shape, dtype) in JOINT_FIELDS.items()
        }

    def scalars(self) -> dict:
        """The header state entry next_joint_id."""
        return {"next_joint_id": self.next_id}

    @staticmethod
    def validate(
        check: ArrayChecker, version: Version, body_kind: np.ndarray, row_of_id: np.ndarray,
        next_id: int,
    ) -> dict:  # fmt: skip
        """Check a snapshot's joint arrays (size "J" bound in ``check``); none before
        version 2, and zeros for the fields of ADDED_IN_4 before version 4.

        body_kind: (N,) int8 the checked bodies' kinds; row_of_id: (I,) their id map.
        Returns the columns, field -> (J, ...) native arrays. Checks what ``add_joint`` and
        the handles' setters establish (see ``_check_invariants``).
        """
        j = check.sizes["J"]
        columns = {}
        for name, (trailing, dtype) in JOINT_FIELDS.items():
            if not version.has_joints or (not version.has_labels and name in ADDED_IN_4["joint"]):
                columns[name] = np.zeros((j, *trailing), dtype=dtype)
                continue
            limit = NO_LIMIT.get(name)
            allowed = None if limit is None else (lambda v, limit=limit: v == limit)
            columns[name] = check.take_finite(f"joint.{name}", dtype, ("J", *trailing), allowed)
        if version.has_joints and not version.has_labels:
            check.require(
                np.isin(columns["kind"], KINDS_UP_TO_3),
                f"array 'joint.kind' has kinds a version {version.number} file cannot hold",
            )
        _check_invariants(check, columns, body_kind, row_of_id, next_id)
        return columns

    @classmethod
    def from_arrays(cls, columns: dict, handles: list, next_id: int) -> JointStore:
        """A store of checked ``columns`` (J rows) and their J ``handles``."""
        store = cls(capacity=max(16, len(handles)))
        store.fill(columns, len(handles))
        store.handles = list(handles)
        store.next_id = next_id
        return store


def _check_invariants(
    check: ArrayChecker, joints: dict, body_kind: np.ndarray, row_of_id: np.ndarray, next_id: int
) -> None:
    """The invariants ``World.add_joint`` and the joint handles' setters establish.

    joints: field -> (J, ...) arrays; body_kind: (N,) int8; row_of_id: (I,) checked.
    """
    kind = joints["kind"]
    check.require(np.isin(kind, list(range(KIND_COUNT))), "array 'joint.kind' has unknown kinds")
    ids = joints["joint_id"]
    check.require((ids >= 0) & (ids < next_id), "array 'joint.joint_id' holds ids out of range")
    check.require(len(np.unique(ids)) == len(ids), "array 'joint.joint_id' repeats ids")

    body_a, body_b = joints["body_a"], joints["body_b"]
    row_a, row_b = rows_of_ids(body_a, row_of_id), rows_of_ids(body_b, row_of_id)
    check.require(
        (row_a >= 0) | (body_a == WORLD), "array 'joint.body_a' names bodies that do not exist"
    )
    check.require(row_b >= 0, "array 'joint.body_b' names bodies that do not exist (or the world)")
    check.require(body_a != body_b, "a joint joins a body to itself ('joint.body_a' == 'body_b')")
    # Row -1 (the world, or no body) indexes the appended False: never dynamic.
    dynamic = np.append(body_kind == DYNAMIC, False)
    check.require(
        dynamic[row_a] | dynamic[row_b], "a joint has no dynamic body ('joint.body_a', 'body_b')"
    )
    mouse = kind == MOUSE
    check.require(body_a[mouse] == WORLD, "a mouse joint is not held to the world (body_a)")

    check.require(joints["lower"] <= joints["upper"], "array 'joint.lower' exceeds 'joint.upper'")
    for name, rule in JOINT_RULES.items():
        check.require(rule.holds(joints[name]), column_message("joint", name, rule))
    for name, kinds in POSITIVE_FOR_KINDS.items():
        check.require(
            POSITIVE.holds(joints[name][np.isin(kind, kinds)]),
            f"array 'joint.{name}' holds values out of range ({POSITIVE.text} for the kinds "
            f"{', '.join(KIND_NAMES[k] for k in kinds)})",
        )
    axial = (kind == PRISMATIC) | (kind == WHEEL)
    size = np.hypot(joints["axis"][:, 0], joints["axis"][:, 1])
    check.require(
        np.abs(size[axial] - 1.0) <= 1e-9, "array 'joint.axis' is not a unit vector for an axis"
    )
    gear = kind == GEAR
    check.require(
        RATIO_SIZE.holds(np.abs(joints["ratio"][gear])),
        column_message("joint", "ratio", RATIO_SIZE),
    )
    check.require(body_a[gear] != WORLD, "a gear joint is held to the world (body_a)")


def rows_of_ids(ids: np.ndarray, row_of_id: np.ndarray) -> np.ndarray:
    """The body row of each id (same shape), -1 for removed ids and ids out of range."""
    rows = np.full(ids.shape, -1, dtype=np.int64)
    inside = (ids >= 0) & (ids < len(row_of_id))
    rows[inside] = row_of_id[ids[inside]]
    return rows
