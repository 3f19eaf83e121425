"""Joints: handles that hold two bodies (or a body and the world) together.

A joint is built with its bodies and world-space anchor points, then given to
``World.add_joint``; the anchors are fixed to the bodies at that moment. Afterwards the
handle reads and writes the world's joint table, like a Body handle does its body row.

>>> from engine import Box, Circle, RevoluteJoint, World
>>> world = World()
>>> bob = world.add_body(Circle(0.1), position=(1, 0))
>>> pivot = world.add_joint(RevoluteJoint(bob, None, anchor=(0, 0)))
>>> for _ in range(30):
...     world.step()
>>> round(float(abs(bob.position).max() ** 2 + min(abs(bob.position)) ** 2), 3)
1.0
"""

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
    _point,
    _positive,
    _reference_angle,
    _spin,
    _world_points,
)
from .joint_store import DISTANCE, MOUSE, REVOLUTE, WELD, WORLD


class RevoluteJoint(Joint):
    """A shared pivot: the bodies turn freely about ``anchor`` (2,), a world point.

    lower, upper: optional limits in radians on the joint angle (how far body_b has turned
    relative to body_a since the joint was made; with body_b None, how far body_a has
    turned). motor_speed: rad/s the motor drives the joint angle at, using at most
    ``max_motor_torque`` N m (0: no motor).
    """

    __slots__ = ()
    _kind = REVOLUTE

    def __init__(
        self,
        body_a,
        body_b,
        anchor=None,
        lower=None,
        upper=None,
        motor_speed: float = 0.0,
        max_motor_torque: float = 0.0,
        collide_connected: bool = False,
        *,
        local_anchor_a=None,
        local_anchor_b=None,
        reference_angle=None,
    ):
        points, frames = _anchoring(((anchor, "anchor"),), local_anchor_a, local_anchor_b)
        spec = {
            **_limits(lower, upper),
            "motor_speed": _spin(motor_speed, "motor_speed"),
            "max_motor_torque": _non_negative(max_motor_torque, "max_motor_torque"),
        }
        super().__init__(body_a, body_b, points, spec, collide_connected, frames,
                         _reference_angle(reference_angle))  # fmt: skip

    @property
    def angle(self) -> float:
        """The joint angle in radians: body_b's turn relative to body_a since joining."""
        _, angle_a = self._slot_pose(0)
        _, angle_b = self._slot_pose(1)
        return angle_b - angle_a - float(self._read("reference_angle"))

    @property
    def speed(self) -> float:
        """Rate of change of ``angle``, rad/s."""
        joint_row = self._row  # raises when the joint is not in a world
        rates = []
        for slot in (0, 1):
            body_id = int(self._world._joints.arrays["body_" + "ab"[slot]][joint_row])
            body_row = self._world._bodies.row_of_id[body_id] if body_id != WORLD else -1
            spin = self._world._bodies.arrays["angular_velocity"]
            rates.append(0.0 if body_row < 0 else float(spin[body_row]))
        return rates[1] - rates[0]

    lower = _limit_field("lower", "Lower angle limit in radians, or None.")
    upper = _limit_field("upper", "Upper angle limit in radians, or None.")

    motor_speed = _number_field(
        "motor_speed", _spin, "Speed the motor drives the joint angle at, rad/s."
    )
    max_motor_torque = _number_field(
        "max_motor_torque", _non_negative, "Largest torque the motor may use, N m (0: no motor)."
    )

    @property
    def motor_torque(self) -> float:
        """Torque the motor applied in the last step, N m."""
        return float(self._read("motor_impulse")) / self._world.dt


class DistanceJoint(Joint):
    """Keeps ``anchor_a`` on body_a and ``anchor_b`` on body_b (world points, (2,) each)
    ``length`` apart (None: as far apart as they are now).

    frequency 0 makes a rigid rod; frequency > 0 (Hz) makes a spring that oscillates at
    that frequency, with ``damping`` the damping ratio (1: critically damped). With body_b
    None, anchor_b is a fixed world point.
    """

    __slots__ = ()
    _kind = DISTANCE

    def __init__(
        self,
        body_a,
        body_b,
        anchor_a=None,
        anchor_b=None,
        length=None,
        frequency: float = 0.0,
        damping: float = 0.0,
        collide_connected: bool = False,
        *,
        local_anchor_a=None,
        local_anchor_b=None,
    ):
        points, frames = _anchoring(
            ((anchor_a, "anchor_a"), (anchor_b, "anchor_b")), local_anchor_a, local_anchor_b
        )
        if length is None:
            ends = points if frames is None else _world_points(body_a, body_b, frames)
            length = float(np.hypot(*(ends[1] - ends[0])))
            if length <= 0.0:
                raise ValueError("length: the anchors coincide; give a length > 0")
        spec = {
            "length": _length(length, "length"),
            "frequency": _non_negative(frequency, "frequency"),
            "damping": _non_negative(damping, "damping"),
        }
        super().__init__(body_a, body_b, points, spec, collide_connected, frames)

    length = _number_field("length", _length, "Rest length, m.")
    frequency = _number_field(
        "frequency", _non_negative, "Spring frequency in Hz (0: a rigid rod)."
    )
    damping = _number_field(
        "damping", _non_negative, "Damping ratio of the spring (0: none, 1: critical)."
    )

    @property
    def current_length(self) -> float:
        """Distance between the two anchors now, m."""
        return float(np.hypot(*(self.anchor_b - self.anchor_a)))


class WeldJoint(Joint):
    """Glues body_a and body_b together at ``anchor`` (2,), a world point: neither moves
    nor turns relative to the other."""

    __slots__ = ()
    _kind = WELD

    def __init__(self, body_a, body_b, anchor=None, collide_connected: bool = False, *,
                 local_anchor_a=None, local_anchor_b=None, reference_angle=None):  # fmt: skip
        points, frames = _anchoring(((anchor, "anchor"),), local_anchor_a, local_anchor_b)
        super().__init__(body_a, body_b, points, {}, collide_connected, frames,
                         _reference_angle(reference_angle))  # fmt: skip

    @property
    def reaction_torque(self) -> float:
        """Torque in N m the joint put on body_b in the last step (on body_a when alone)."""
        return float(self._read("impulse")[2]) / self._world.dt


class MouseJoint(Joint):
    """Pulls a point of ``body`` towards ``target`` (2,), a world point, like a stiff spring
    of ``frequency`` Hz and ``damping`` ratio, with at most ``max_force`` N.

    anchor: the world point of the body that is pulled (default: the target itself, the
    point under the pointer when dragging starts). Move the target with ``joint.target``.
    """

    __slots__ = ()
    _kind = MOUSE

    def __init__(
        self,
        body,
        target,
        max_force: float = 1000.0,
        frequency: float = 5.0,
        damping: float = 0.7,
        anchor=None,
    ):
        target = _point(target, "target")
        anchor = target if anchor is None else _point(anchor, "anchor")
        spec = {
            "max_force": _non_negative(max_force, "max_force"),
            "frequency": _positive(frequency, "frequency"),
            "damping": _non_negative(damping, "damping"),
        }
        super().__init__(body, None, (anchor, target), spec, False)

    @property
    def target(self) -> np.ndarray:
        """(2,) world point the body is pulled towards; assign to move it."""
        if self._world is None:
            return self._points[1].copy()
        return self._read("anchor_a").copy()

    @target.setter
    def target(self, value) -> None:
        value = _point(value, "target")
        if self._world is None:
            self._points = (self._points[0], value)
        else:
            self._write("anchor_a", value)

    max_force = _number_field("max_force", _non_negative, "Largest pulling force, N.")
    frequency = _number_field("frequency", _positive, "Frequency of the pull in Hz.")
    damping = _number_field("damping", _non_negative, "Damping ratio of the pull.")
