"""Joint handles that act on whole bodies rather than on points: GearJoint and
MotorJoint."""

from __future__ import annotations

import numpy as np

from .field_rules import RATIO_SIZE, SHARE, check_rule
from .joint_base import Joint, _check_body, _non_negative, _number_field, _turn
from .joint_store import GEAR, MOTOR_JOINT
from .settings import MAX_COORDINATE
from .validation import as_bounded_vector, as_finite_float


def _ratio(value, argument: str) -> float:
    value = as_finite_float(value, argument)
    if not RATIO_SIZE.holds(abs(value)):
        raise ValueError(f"{argument}: {RATIO_SIZE.text}, got {value:g}")
    return value


def _share(value, argument: str) -> float:
    return check_rule(SHARE, value, argument)


class GearJoint(Joint):
    """Couples two bodies' rotations:  angle_a + ratio * angle_b  stays what it was when
    the joint was made (the convention of Box2D's gear joint). So with ratio 1 the bodies
    turn opposite ways at the same rate, like two meshed gears of the same size; a gear of
    radius r_a meshed with one of radius r_b has ratio r_b / r_a. Both bodies are needed
    (a static one stops the other from turning); the ratio is fixed when the joint is
    made. The gear holds no point: pin each body with a RevoluteJoint too.
    """

    __slots__ = ()
    _kind = GEAR

    def __init__(self, body_a, body_b, ratio: float = 1.0, collide_connected: bool = False):
        _check_body(body_b, "body_b", optional=False)
        spec = {"ratio": _ratio(ratio, "ratio")}
        super().__init__(body_a, body_b, (None, None), spec, collide_connected)

    def _record(self) -> dict:
        record = super()._record()
        record["reference_angle"] = self._body_a.angle + record["ratio"] * self._body_b.angle
        return record

    @property
    def ratio(self) -> float:
        """The gear ratio (fixed when the joint is made)."""
        return float(self._read("ratio"))

    @property
    def error(self) -> float:
        """How far  angle_a + ratio * angle_b  is from its value when the joint was made,
        rad (0 when the gear holds exactly)."""
        _, angle_a = self._slot_pose(0)
        _, angle_b = self._slot_pose(1)
        return angle_a + self.ratio * angle_b - float(self._read("reference_angle"))

    @property
    def reaction_torque(self) -> float:
        """Torque in N m the gear put on body_b in the last step (body_a felt this over
        the ratio, the other way)."""
        return float(self._read("impulse")[0]) * self.ratio / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        return np.zeros(2)


class MotorJoint(Joint):
    """Drives body_b to a pose relative to body_a: its centre of mass to ``linear_offset``
    (2,) in body_a's frame (from body_a's centre of mass, turning with it) and its angle to
    angle_a + ``angular_offset``, pushing with at most ``max_force`` N and ``max_torque``
    N m. Each step it aims to close ``correction`` (0 to 1) of the pose error. With body_b
    None it drives body_a to the world pose (linear_offset, angular_offset). Offsets left
    None keep the pose the bodies have when the joint is added. A top-down game moves a
    character or a crate across the ground this way: the joint to the ground body gives
    it friction-like drag with a bounded force.
    """

    __slots__ = ()
    _kind = MOTOR_JOINT

    def __init__(
        self,
        body_a,
        body_b,
        linear_offset=None,
        angular_offset=None,
        max_force: float = 1000.0,
        max_torque: float = 1000.0,
        correction: float = 0.3,
        collide_connected: bool = False,
    ):
        spec = {
            "max_force": _non_negative(max_force, "max_force"),
            "max_motor_torque": _non_negative(max_torque, "max_torque"),
            "correction": _share(correction, "correction"),
        }
        if linear_offset is not None:
            spec["anchor_a"] = _offset(linear_offset, "linear_offset")
        if angular_offset is not None:
            spec["reference_angle"] = as_finite_float(angular_offset, "angular_offset")
        super().__init__(body_a, body_b, (None, None), spec, collide_connected)

    def _record(self) -> dict:
        offsets = {name: self._spec[name] for name in ("anchor_a", "reference_angle")
                   if name in self._spec}  # fmt: skip
        record = super()._record()
        slot_a, slot_b = self._slots()
        if slot_a is None:
            offset = slot_b.center_of_mass.copy()
        else:
            offset = _turn(slot_b.center_of_mass - slot_a.center_of_mass, -slot_a.angle)
        record["anchor_a"] = offset
        record.update(offsets)  # the offsets given win over the pose now
        return record

    @property
    def linear_offset(self) -> np.ndarray:
        """(2,) where body_b's centre is driven to, in body_a's frame from its centre of
        mass (with body_b None: a world point)."""
        value = self._read("anchor_a") if self._world is not None else self._spec.get("anchor_a")
        if value is None:
            raise ValueError("joint: the offset is taken when it is added to a world")
        return np.array(value, dtype=np.float64)

    @linear_offset.setter
    def linear_offset(self, value) -> None:
        self._write("anchor_a", _offset(value, "linear_offset"))

    @property
    def angular_offset(self) -> float:
        """body_b's angle minus body_a's that the joint drives to, rad."""
        if self._world is None and "reference_angle" not in self._spec:
            raise ValueError("joint: the offset is taken when it is added to a world")
        return float(self._read("reference_angle"))

    @angular_offset.setter
    def angular_offset(self, value) -> None:
        self._write("reference_angle", as_finite_float(value, "angular_offset"))

    max_force = _number_field("max_force", _non_negative, "Largest force it pushes with, N.")
    correction = _number_field(
        "correction", _share, "Share of the pose error it closes per step, 0 to 1."
    )

    @property
    def max_torque(self) -> float:
        """Largest torque it turns with, N m."""
        return float(self._read("max_motor_torque"))

    @max_torque.setter
    def max_torque(self, value) -> None:
        self._write("max_motor_torque", _non_negative(value, "max_torque"))

    @property
    def reaction_torque(self) -> float:
        """Torque in N m it put on body_b in the last step (on body_a when alone)."""
        return float(self._read("impulse")[2]) / self._world.dt


def _offset(value, argument: str) -> np.ndarray:
    return as_bounded_vector(value, argument, MAX_COORDINATE, "m")
