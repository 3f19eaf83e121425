"""The joint handle's common part: validation of joint arguments and the ``Joint`` base.

A joint is built with its bodies and world-space anchor points, then given to
``World.add_joint``; the anchors are fixed to the bodies at that moment. Afterwards the
handle reads and writes the world's joint table, like a Body handle does its body row. The
kinds live beside it: ``engine.joints`` (revolute, distance, weld, mouse),
``engine.axis_joints`` and ``engine.drive_joints``.
"""

from __future__ import annotations

import numpy as np

from .body import Body
from .field_rules import NON_NEGATIVE, POSITIVE, check_rule
from .joint_store import DISTANCE, WORLD
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE
from .validation import as_bounded_float, as_finite_float, as_positive_float, bounded_components


def _non_negative(value, argument: str) -> float:
    return check_rule(NON_NEGATIVE, value, argument)


def _positive(value, argument: str) -> float:
    return check_rule(POSITIVE, value, argument)


def _point(value, argument: str) -> np.ndarray:
    """A world point (2,) within the coordinates the step represents."""
    return np.array(bounded_components(value, argument, MAX_COORDINATE, "m"))


def _anchoring(given: tuple, local_anchor_a, local_anchor_b) -> tuple:
    """A joint's anchors, checked: (world points (2,) for body_a and body_b, None) from the
    world anchors ``given`` ((value, argument name) pairs: one shared anchor or one per
    body), or (None, (local_anchor_a, local_anchor_b)) when those are given instead, each
    in its body's frame (the world's for body_b None), as Box2D's joint definitions take
    them."""
    if local_anchor_a is None and local_anchor_b is None:
        for value, name in given:
            if value is None:
                raise TypeError(
                    f"{name}: a world point is needed (or local_anchor_a and local_anchor_b)"
                )
        points = [_point(value, name) for value, name in given]
        return (points[0], points[-1]), None
    for value, name in given:
        if value is not None:
            raise ValueError(
                f"{name}: give the world anchor or local_anchor_a and local_anchor_b, not both"
            )
    for value, name, other in ((local_anchor_a, "local_anchor_a", "local_anchor_b"),
                               (local_anchor_b, "local_anchor_b", "local_anchor_a")):  # fmt: skip
        if value is None:
            raise TypeError(f"{name}: needed with {other} (a point in its body's frame)")
    frames = (_point(local_anchor_a, "local_anchor_a"), _point(local_anchor_b, "local_anchor_b"))
    return None, frames


def _world_points(body_a, body_b, frames: tuple) -> tuple:
    """The world points (2,) of local anchors ``frames`` on body_a and body_b (None: the
    world, whose frame is the world's) where the bodies stand now."""
    body_a = _check_body(body_a, "body_a", optional=False)
    body_b = _check_body(body_b, "body_b", optional=True)
    point_b = frames[1] if body_b is None else body_b.local_to_world(frames[1])
    return body_a.local_to_world(frames[0]), point_b


def _reference_angle(value):
    """A reference angle as given (None: the bodies' relative angle when added), checked."""
    return None if value is None else as_finite_float(value, "reference_angle")


def _spin(value, argument: str) -> float:
    return as_bounded_float(value, argument, MAX_ANGULAR_SPEED, "rad/s")


def _length(value, argument: str) -> float:
    value = as_positive_float(value, argument)
    return as_bounded_float(value, argument, 2.0 * MAX_COORDINATE, "m")


def _limit(value, argument: str, none: float) -> float:
    """A limit angle in radians; None means no limit on that side (stored as +-inf)."""
    return none if value is None else as_finite_float(value, argument)


def _number_field(name: str, check, doc: str) -> property:
    """A float property backed by the joint-table column ``name``, checked on writing."""

    def read(joint) -> float:
        return float(joint._read(name))

    def write(joint, value) -> None:
        joint._write(name, check(value, name))

    return property(read, write, doc=doc)


def _limit_field(side: str, doc: str) -> property:
    """The ``lower`` or ``upper`` limit property: None for no limit, never past the other."""
    lower = side == "lower"
    other, none, relation = ("upper", -np.inf, "<=") if lower else ("lower", np.inf, ">=")

    def read(joint):
        value = float(joint._read(side))
        return None if np.isinf(value) else value

    def write(joint, value) -> None:
        value = _limit(value, side, none)
        bound = joint._read(other)
        if value > bound if lower else value < bound:
            raise ValueError(
                f"{side}: must be {relation} {other} ({getattr(joint, other)}), got {value}"
            )
        joint._write(side, value)

    return property(read, write, doc=doc)


def _limits(lower, upper) -> dict:
    """The spec entries of a pair of limits (None: no limit), checked."""
    spec = {"lower": _limit(lower, "lower", -np.inf), "upper": _limit(upper, "upper", np.inf)}
    if spec["lower"] > spec["upper"]:
        raise ValueError(f"lower: must be <= upper, got {lower} > {upper}")
    return spec


def _check_bool(value, argument: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argument}: expected a bool, got {type(value).__name__}")
    return bool(value)


def _check_body(value, argument: str, optional: bool):
    if value is None and optional:
        return None
    if not isinstance(value, Body):
        wanted = "a Body or None" if optional else "a Body"
        raise TypeError(f"{argument}: expected {wanted}, got {type(value).__name__}")
    return value


def _turn(vector: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


class Joint:
    """Base of the joint handles. Build a RevoluteJoint, DistanceJoint, WeldJoint,
    MouseJoint, PrismaticJoint, WheelJoint, RopeJoint, AngularSpring, GearJoint or
    MotorJoint and add it with ``World.add_joint``."""

    __slots__ = ("_world", "_id", "_body_a", "_body_b", "_points", "_frames", "_reference",
                 "_spec", "__weakref__")  # fmt: skip
    _kind = -1

    def __init__(self, body_a, body_b, points, spec: dict, collide_connected, frames=None,
                 reference=None):  # fmt: skip
        self._world = None
        self._id = -1
        self._body_a = _check_body(body_a, "body_a", optional=False)
        self._body_b = _check_body(body_b, "body_b", optional=True)
        if self._body_a is self._body_b:
            raise ValueError("body_b: a joint needs two different bodies (or None for the world)")
        # World anchor points as given, for body_a and body_b, fixed to the bodies on adding;
        # or, given in the bodies' own frames instead (Box2D's local anchors), ``frames``.
        self._points = points
        self._frames = frames
        # The relative angle at which the joint is at rest (None: the one when added).
        self._reference = reference
        spec["collide_connected"] = _check_bool(collide_connected, "collide_connected")
        self._spec = spec

    # -- where the joint lives ------------------------------------------------------------
    @property
    def world(self):
        """The World this joint is in (None before adding and after removal)."""
        if self._world is None or not self._world._holds_joint(self):
            return None
        return self._world

    @property
    def _row(self) -> int:
        if self._world is None:
            raise ValueError("joint: it has not been added to a world")
        row = self._world._joint_row(self)
        if row < 0:
            raise ValueError("joint: it has been removed from its world")
        return row

    def _read(self, field: str):
        if self._world is None:
            if field not in self._spec:  # a reading that needs the world (impulses)
                raise ValueError("joint: it has not been added to a world")
            return self._spec[field]
        return self._world._joints.arrays[field][self._row]

    def _write(self, field: str, value) -> None:
        if self._world is None:
            self._spec[field] = value
        else:
            self._world._change_joint(self, field, value)

    @property
    def body_a(self) -> Body:
        """The first body."""
        return self._body_a

    @property
    def body_b(self):
        """The second body, or None when the joint holds body_a to the world."""
        return self._body_b

    @property
    def collide_connected(self) -> bool:
        """Whether the two bodies still collide with each other (fixed when built)."""
        return bool(self._read("collide_connected"))

    def _slots(self) -> tuple:
        """The bodies in slots A and B (None: the world, always in slot A)."""
        if self._body_b is None:
            return None, self._body_a
        return self._body_a, self._body_b

    def _record(self) -> dict:
        """The joint-table row of this joint, from the bodies' poses now."""
        a, b = self._body_a, self._body_b
        framed = self._frames is not None
        point_a, point_b = self._frames if framed else self._points
        if b is None:  # the world takes slot A (see engine.joint_store)
            slots, points = (None, a), (point_b, point_a)
        else:
            slots, points = (a, b), (point_a, point_b)

        def local(body, point):
            if point is None:  # a joint without anchors
                return np.zeros(2)
            if body is None:
                return np.asarray(point, dtype=np.float64)
            # The joint table measures anchors from the centre of mass, which is not the
            # body's position for a body whose frame's origin lies elsewhere: the origin
            # lies origin_offset from it, in the body's frame.
            if framed:
                return point + body._get("origin_offset")
            return _turn(point - body.center_of_mass, -body.angle)

        angle_of = [0.0 if body is None else body.angle for body in slots]
        reference = self._reference
        return {
            **self._spec,
            "kind": self._kind,
            "body_a": WORLD if slots[0] is None else slots[0]._id,
            "body_b": slots[1]._id,
            "anchor_a": local(slots[0], points[0]),
            "anchor_b": local(slots[1], points[1]),
            "reference_angle": angle_of[1] - angle_of[0] if reference is None else reference,
        }

    def _slot_pose(self, slot: int):
        """(position (2,), angle) of slot 0 (A) or 1 (B) now; the world is at the origin."""
        row = self._row  # raises when the joint is not in a world
        body_id = int(self._world._joints.arrays["body_" + "ab"[slot]][row])
        if body_id == WORLD:
            return np.zeros(2), 0.0
        row = int(self._world._bodies.row_of_id[body_id])
        bodies = self._world._bodies.arrays
        return bodies["position"][row].copy(), float(bodies["angle"][row])

    def _slot_motion(self, slot: int):
        """(velocity (2,), angular velocity) of slot 0 (A) or 1 (B) now; the world's is 0."""
        row = self._row  # raises when the joint is not in a world
        body_id = int(self._world._joints.arrays["body_" + "ab"[slot]][row])
        if body_id == WORLD:
            return np.zeros(2), 0.0
        row = int(self._world._bodies.row_of_id[body_id])
        bodies = self._world._bodies.arrays
        return bodies["velocity"][row].copy(), float(bodies["angular_velocity"][row])

    def _relative_angle(self) -> float:
        """Slot B's turn relative to slot A since the joint was made, rad."""
        _, angle_a = self._slot_pose(0)
        _, angle_b = self._slot_pose(1)
        return angle_b - angle_a - float(self._read("reference_angle"))

    def _anchor(self, slot: int) -> np.ndarray:
        position, angle = self._slot_pose(slot)
        return position + _turn(self._read("anchor_" + "ab"[slot]), angle)

    def _swapped(self) -> bool:
        return self._body_b is None

    @property
    def anchor_a(self) -> np.ndarray:
        """(2,) world point where the joint holds body_a, now."""
        return self._anchor(1 if self._swapped() else 0)

    @property
    def anchor_b(self) -> np.ndarray:
        """(2,) world point where the joint holds body_b (or the world), now."""
        return self._anchor(0 if self._swapped() else 1)

    @property
    def reaction_force(self) -> np.ndarray:
        """(2,) force in N the joint put on body_b in the last step (on body_a when alone);
        the other body felt the opposite."""
        return self._linear_impulse() / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        """(2,) impulse the joint's rows put on slot B's centre of mass in the last step."""
        impulse = self._read("impulse")
        if self._kind == DISTANCE:
            return impulse[0] * self._span_direction()
        return impulse[:2].copy()

    def _span_direction(self) -> np.ndarray:
        """(2,) unit vector from slot A's anchor to slot B's, now (x when they coincide)."""
        axis = self._anchor(1) - self._anchor(0)
        return axis / max(np.hypot(*axis), 1e-12)

    def __repr__(self) -> str:
        state = "in a world" if self.world is not None else "not in a world"
        return f"<{type(self).__name__} {state}>"
