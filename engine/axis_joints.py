"""Joint handles with an axis row (``engine.joint_axis``): PrismaticJoint, WheelJoint,
RopeJoint and AngularSpring."""

from __future__ import annotations

import numpy as np

from .joint_base import (
    Joint,
    _anchoring,
    _length,
    _limit_field,
    _limits,
    _non_negative,
    _number_field,
    _positive,
    _reference_angle,
    _spin,
    _turn,
    _world_points,
)
from .joint_store import ANGULAR_SPRING, PRISMATIC, ROPE, WHEEL
from .settings import MAX_SPEED
from .validation import as_bounded_float, as_finite_float, as_vector


def _direction(value, argument: str) -> np.ndarray:
    """A unit (2,) vector along ``value``, which must have a direction."""
    vector = as_vector(value, argument)
    size = float(np.hypot(vector[0], vector[1]))
    if not 0.0 < size < np.inf:
        raise ValueError(f"{argument}: must be a non-zero direction, got {vector.tolist()}")
    unit = vector / size
    if abs(float(np.hypot(unit[0], unit[1])) - 1.0) > 1e-12:
        raise ValueError(f"{argument}: too short to have a direction, got {vector.tolist()}")
    return unit


def _speed(value, argument: str) -> float:
    return as_bounded_float(value, argument, MAX_SPEED, "m/s")


class _AxisJoint(Joint):
    """A joint along an axis fixed in slot A's frame: prismatic and wheel joints."""

    __slots__ = ("_axis",)

    def __init__(self, body_a, body_b, anchor, axis, spec: dict, collide_connected,
                 local_anchor_a=None, local_anchor_b=None, reference_angle=None):  # fmt: skip
        points, frames = _anchoring(((anchor, "anchor"),), local_anchor_a, local_anchor_b)
        if axis is None:
            raise TypeError("axis: a direction is needed, (2,) in the world")
        self._axis = _direction(axis, "axis")
        super().__init__(body_a, body_b, points, spec, collide_connected, frames,
                         _reference_angle(reference_angle))  # fmt: skip

    def _record(self) -> dict:
        record = super()._record()
        slot_a = self._slots()[0]
        record["axis"] = self._axis if slot_a is None else _turn(self._axis, -slot_a.angle)
        return record

    @property
    def axis(self) -> np.ndarray:
        """(2,) unit world direction of the axis now (it turns with body_a; with body_b
        None it is fixed in the world)."""
        if self._world is None:
            return self._axis.copy()
        _, angle = self._slot_pose(0)
        return _turn(self._read("axis"), angle)

    @property
    def translation(self) -> float:
        """How far body_b's anchor has moved along the axis from body_a's, m (with body_b
        None: how far body_a moved along the axis since the joint was made)."""
        return float(self.axis @ (self._anchor(1) - self._anchor(0)))

    @property
    def translation_speed(self) -> float:
        """Rate of change of ``translation``, m/s."""
        (position_a, _), (velocity_a, spin_a) = self._slot_pose(0), self._slot_motion(0)
        velocity_b, spin_b = self._slot_motion(1)
        point_a, point_b = self._anchor(0), self._anchor(1)
        axis = self.axis

        def moving(velocity, spin, arm):
            return velocity + spin * np.array([-arm[1], arm[0]])

        relative = moving(velocity_b, spin_b, point_b - self._slot_pose(1)[0]) - moving(
            velocity_a, spin_a, point_a - position_a
        )
        # The axis turns with A: d/dt (axis . gap) = axis . relative + gap . (w_a x axis).
        gap = point_b - point_a
        return float(axis @ relative + spin_a * (gap @ np.array([-axis[1], axis[0]])))

    def _normal_and_axis(self):
        axis = self.axis
        return np.array([-axis[1], axis[0]]), axis


class PrismaticJoint(_AxisJoint):
    """A slider: body_b moves relative to body_a along ``axis`` (2,), a world direction
    fixed in body_a when the joint is made, through ``anchor`` (2,), a world point; the
    bodies do not turn relative to each other. With body_b None, body_a slides along a
    line fixed in the world.

    lower, upper: optional limits in m on ``translation`` (0 when the joint is made).
    motor_speed: m/s the motor drives the translation at, using at most
    ``max_motor_force`` N (0: no motor).
    """

    __slots__ = ()
    _kind = PRISMATIC

    def __init__(
        self,
        body_a,
        body_b,
        anchor=None,
        axis=None,
        lower=None,
        upper=None,
        motor_speed: float = 0.0,
        max_motor_force: float = 0.0,
        collide_connected: bool = False,
        *,
        local_anchor_a=None,
        local_anchor_b=None,
        reference_angle=None,
    ):
        spec = {
            **_limits(lower, upper),
            "motor_speed": _speed(motor_speed, "motor_speed"),
            "max_force": _non_negative(max_motor_force, "max_motor_force"),
        }
        super().__init__(body_a, body_b, anchor, axis, spec, collide_connected, local_anchor_a,
                         local_anchor_b, reference_angle)  # fmt: skip

    lower = _limit_field("lower", "Lower translation limit in m, or None.")
    upper = _limit_field("upper", "Upper translation limit in m, or None.")
    motor_speed = _number_field(
        "motor_speed", _speed, "Speed the motor drives the translation at, m/s."
    )

    @property
    def max_motor_force(self) -> float:
        """Largest force the motor may use, N (0: no motor)."""
        return float(self._read("max_force"))

    @max_motor_force.setter
    def max_motor_force(self, value) -> None:
        self._write("max_force", _non_negative(value, "max_motor_force"))

    @property
    def motor_force(self) -> float:
        """Force the motor applied along the axis in the last step, N."""
        return float(self._read("motor_impulse")) / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        normal, axis = self._normal_and_axis()
        along = self._read("motor_impulse") + self._read("lower_impulse")
        along -= self._read("upper_impulse")
        return self._read("impulse")[0] * normal + along * axis


class WheelJoint(_AxisJoint):
    """A wheel: body_b's point at ``anchor`` (2,) (a world point, usually the wheel's
    centre) is held on the line through it along ``axis`` (2,) (a world direction fixed in
    body_a, the chassis), by a spring along the axis of ``frequency`` Hz and ``damping``
    ratio; body_b turns freely about the anchor. A motor drives body_b's turn relative to
    body_a at ``motor_speed`` rad/s with at most ``max_motor_torque`` N m (0: no motor).

    The spring's stiffness is that of the axis row's own mass m (the chassis, the wheel
    and the chassis's turning, as the anchor sees them): k = m (2 pi f)^2.
    """

    __slots__ = ()
    _kind = WHEEL

    def __init__(
        self,
        body_a,
        body_b,
        anchor=None,
        axis=None,
        frequency: float = 4.0,
        damping: float = 0.7,
        motor_speed: float = 0.0,
        max_motor_torque: float = 0.0,
        collide_connected: bool = False,
        *,
        local_anchor_a=None,
        local_anchor_b=None,
    ):
        spec = {
            "frequency": _positive(frequency, "frequency"),
            "damping": _non_negative(damping, "damping"),
            "motor_speed": _spin(motor_speed, "motor_speed"),
            "max_motor_torque": _non_negative(max_motor_torque, "max_motor_torque"),
        }
        super().__init__(body_a, body_b, anchor, axis, spec, collide_connected, local_anchor_a,
                         local_anchor_b)  # fmt: skip

    frequency = _number_field("frequency", _positive, "Suspension spring frequency in Hz (> 0).")
    damping = _number_field("damping", _non_negative, "Damping ratio of the suspension.")
    motor_speed = _number_field(
        "motor_speed", _spin, "Speed the motor drives the wheel's turn at, rad/s."
    )
    max_motor_torque = _number_field(
        "max_motor_torque", _non_negative, "Largest torque the motor may use, N m (0: no motor)."
    )

    @property
    def speed(self) -> float:
        """body_b's angular velocity relative to body_a, rad/s."""
        return self._slot_motion(1)[1] - self._slot_motion(0)[1]

    @property
    def motor_torque(self) -> float:
        """Torque the motor applied in the last step, N m."""
        return float(self._read("motor_impulse")) / self._world.dt

    @property
    def spring_force(self) -> float:
        """Force the suspension put on body_b along the axis in the last step, N."""
        return float(self._read("spring_impulse")) / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        normal, axis = self._normal_and_axis()
        return self._read("impulse")[0] * normal + self._read("spring_impulse") * axis


class RopeJoint(Joint):
    """A rope between ``anchor_a`` on body_a and ``anchor_b`` on body_b (world points, (2,)
    each; with body_b None, anchor_b is a fixed world point): slack while the anchors are
    closer than ``length`` m (None: as far apart as they are now), rigid at it."""

    __slots__ = ()
    _kind = ROPE

    def __init__(self, body_a, body_b, anchor_a=None, anchor_b=None, length=None,
                 collide_connected: bool = False, *, local_anchor_a=None,
                 local_anchor_b=None):  # fmt: skip
        points, frames = _anchoring(
            ((anchor_a, "anchor_a"), (anchor_b, "anchor_b")), local_anchor_a, local_anchor_b
        )
        if length is None:
            ends = points if frames is None else _world_points(body_a, body_b, frames)
            length = float(np.hypot(*(ends[1] - ends[0])))
            if length <= 0.0:
                raise ValueError("length: the anchors coincide; give a length > 0")
        spec = {"length": _length(length, "length")}
        super().__init__(body_a, body_b, points, spec, collide_connected, frames)

    length = _number_field("length", _length, "Largest distance between the anchors, m.")

    @property
    def current_length(self) -> float:
        """Distance between the two anchors now, m."""
        return float(np.hypot(*(self.anchor_b - self.anchor_a)))

    @property
    def tension(self) -> float:
        """Force the rope pulled with in the last step, N (0 while slack)."""
        return float(self._read("upper_impulse")) / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        return -self._read("upper_impulse") * self._span_direction()


class AngularSpring(Joint):
    """A rotary spring between body_a's and body_b's angles (with body_b None, between
    body_a's angle and the world's): it turns body_b relative to body_a towards
    ``rest_angle`` (radians from their relative angle when the joint is made), oscillating
    at ``frequency`` Hz with ``damping`` ratio. It holds no point: pin the bodies together
    with a RevoluteJoint as well for a sprung hinge.

    The spring's stiffness is that of the bodies' relative turn, k = I (2 pi f)^2 with
    1 / I = 1 / I_a + 1 / I_b.
    """

    __slots__ = ()
    _kind = ANGULAR_SPRING

    def __init__(self, body_a, body_b, frequency: float, damping: float = 0.0,
                 rest_angle: float = 0.0, collide_connected: bool = False):  # fmt: skip
        spec = {
            "frequency": _positive(frequency, "frequency"),
            "damping": _non_negative(damping, "damping"),
            "rest_angle": as_finite_float(rest_angle, "rest_angle"),
        }
        # No anchor: the bodies' centres stand in for it.
        super().__init__(body_a, body_b, (None, None), spec, collide_connected)

    frequency = _number_field("frequency", _positive, "Spring frequency in Hz (> 0).")
    damping = _number_field("damping", _non_negative, "Damping ratio of the spring.")
    rest_angle = _number_field(
        "rest_angle", as_finite_float, "Relative angle the spring turns towards, rad."
    )

    @property
    def angle(self) -> float:
        """body_b's turn relative to body_a since the joint was made (with body_b None:
        body_a's own turn), rad."""
        return self._relative_angle()

    @property
    def spring_torque(self) -> float:
        """Torque the spring put on body_b in the last step, N m."""
        return float(self._read("spring_impulse")) / self._world.dt

    def _linear_impulse(self) -> np.ndarray:
        return np.zeros(2)
