"""Joints in a World: adding and removing them, and the rows the solver reads.

A joint's state lives in its row of the joint store (``engine.joint_store``); its handle
reads and writes through the methods here, which queue changes made during a step.
"""

from __future__ import annotations

import numpy as np

from .joint_base import Joint
from .joint_store import WORLD, joint_slots


class WorldJoints:
    """Adding, removing, reading and writing joints (part of ``World``)."""

    # -- joints -----------------------------------------------------------------------------
    def add_joint(self, joint: Joint) -> Joint:
        """Add a joint (RevoluteJoint, DistanceJoint, WeldJoint, MouseJoint, PrismaticJoint,
        WheelJoint, RopeJoint, AngularSpring, GearJoint or MotorJoint); returns it.

        Its anchors are fixed to its bodies where they stand now. Both bodies wake up.
        Raises TypeError for a non-joint, ValueError for a joint already added, a body of
        another world or one removed, or a joint without a dynamic body.
        """
        if not isinstance(joint, Joint):
            raise TypeError(f"joint: expected a Joint, got {type(joint).__name__}")
        if joint._world is not None:
            raise ValueError("joint: it has already been added to a world")
        bodies = [body for body in (joint.body_a, joint.body_b) if body is not None]
        pending = {id(entry[1]) for entry in self._deferred if entry[0] == "add"}
        for name, body in zip(("body_a", "body_b"), bodies):
            if body._world is not self:
                raise ValueError(f"{name}: it belongs to another world")
            if self._row_of(body) < 0 and id(body) not in pending:
                raise ValueError(f"{name}: it has been removed from its world")
        if not any(body.kind == "dynamic" for body in bodies):
            raise ValueError("joint: needs at least one dynamic body to act on")
        joint._world = self
        joint._id = self._joints.next_id
        self._joints.next_id += 1
        if self._stepping or any(self._row_of(body) < 0 for body in bodies):
            # During a step (a presolve handler) the step's arrays are in use: add after it.
            self._deferred.append(("add_joint", joint))
        else:
            self._insert_joint(joint)
        return joint

    def _insert_joint(self, joint: Joint) -> None:
        record = joint._record()
        record["joint_id"] = joint._id
        self._joints.append(record)
        self._joints.handles.append(joint)
        self._wake_joint(self._joints.count - 1)

    def remove_joint(self, joint: Joint) -> None:
        """Remove a joint; its bodies wake up. Removing twice raises ValueError."""
        if not isinstance(joint, Joint):
            raise TypeError(f"joint: expected a Joint, got {type(joint).__name__}")
        if joint._world is not self:
            raise ValueError("joint: it is not in this world")
        row = self._joint_row(joint)
        queued = any(entry[0] == "add_joint" and entry[1] is joint for entry in self._deferred)
        if (
            row < 0
            and not queued
            or any(entry[0] == "remove_joint" and entry[1] is joint for entry in self._deferred)
        ):
            raise ValueError("joint: it has already been removed")
        if self._stepping or row < 0:
            self._deferred.append(("remove_joint", joint))
            return
        self._delete_joint(row)

    def _delete_joint(self, row: int) -> None:
        self._wake_joint(row)
        self._joints.delete(row)
        self._joints.handles.pop(row)

    def _wake_joint(self, row: int) -> None:
        """Wake the bodies of the joint at table ``row`` (the islands of those asleep)."""
        joints, bodies = self._joints.cells(), self._bodies
        awake, asleep = bodies.cells()["awake"], []
        for body_id in (joints["body_a"][row], joints["body_b"][row]):
            if body_id != WORLD:
                body_row = bodies.row_of_id.item(body_id)
                if body_row >= 0 and not awake[body_row]:
                    asleep.append(body_row)
        if asleep:
            self._wake_rows(np.array(asleep, dtype=np.int64))

    @property
    def joints(self) -> list:
        """Every joint, in the order added."""
        return list(self._joints.handles)

    def _joint_row(self, joint: Joint) -> int:
        """The joint's table row, or -1 when it is not in the table."""
        return self._joints.row_of(joint._id)

    def _holds_joint(self, joint: Joint) -> bool:
        """True while ``joint`` is in this world (or queued to be added during this step)
        and not removed (nor queued for removal)."""
        if joint._world is not self:
            return False
        if self._joint_row(joint) < 0 and not self._queued("add_joint", joint):
            return False
        return not (self._deferred and self._queued("remove_joint", joint))

    def _change_joint(self, joint: Joint, field: str, value) -> None:
        """Write one field of a joint's row: now, or when the step ends if one is running."""
        if not (self._stepping or self._deferred) and joint._world is self:
            row = self._joints.row_of(joint._id)
            if row >= 0:  # between steps, in the table: write it now
                self._write_joint(row, field, value)
                return
        if not self._holds_joint(joint):
            raise ValueError("joint: it has been removed from its world")
        if self._stepping or self._joint_row(joint) < 0:
            self._deferred.append(
                ("change_joint", joint, lambda row: self._write_joint(row, field, value))
            )
        else:
            self._write_joint(self._joint_row(joint), field, value)

    def _write_joint(self, row: int, field: str, value) -> None:
        self._joints.arrays[field][row] = value
        self._wake_joint(row)

    def _joint_slots(self) -> np.ndarray:
        """(J, 2) body rows of the joints' slots A and B (the world: N)."""
        if self._joints.count == 0:
            return NO_SLOTS
        return joint_slots(
            self._joints.view("body_a"), self._joints.view("body_b"), self._bodies.row_of_id,
            self._bodies.count,
        )  # fmt: skip

    def _jointed_keys(self) -> np.ndarray:
        """Sorted body-pair keys (K,) of the joints whose bodies must not collide."""
        if self._joints.count == 0:
            return NO_KEYS
        a, b = self._joints.view("body_a"), self._joints.view("body_b")
        keep = ~self._joints.view("collide_connected") & (a != WORLD)
        return np.unique(np.minimum(a, b)[keep] << 32 | np.maximum(a, b)[keep])


# What a world without joints has, made once.
NO_SLOTS = np.zeros((0, 2), dtype=np.int64)
NO_KEYS = np.zeros(0, dtype=np.int64)
