"""Body: a light handle on one row of a World's arrays.

A Body holds its world and a stable id; every property reads or writes the world's
structure-of-arrays storage, so ``body.position = ...`` and ``world.positions`` always agree.
"""

from __future__ import annotations

import math

import numpy as np

from .body_forces import BodyForces
from .body_frames import BodyFrames
from .body_mass import BodyMass
from .body_store import DYNAMIC
from .filtering import check_bits, check_group, check_tag
from .materials import check_flag, check_friction, check_restitution
from .motion_settings import check_damping, check_gravity_scale
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED
from .validation import (
    as_bounded_float,
    as_finite_float,
    as_positive_float,
    bounded_components,
    check_bound,
)


def _turned(vector: np.ndarray, angle: float) -> np.ndarray:
    """(2,) ``vector`` turned counter-clockwise by ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def _has_offset(offset: np.ndarray) -> bool:
    """Whether a body's (2,) origin_offset is not zero (its frame's origin lies away from
    its centre of mass): two reads, cheaper than numpy's any."""
    return bool(offset.item(0) or offset.item(1))


def _frozen_copy(array: np.ndarray) -> np.ndarray:
    """A copy that refuses item assignment: writing into it could only be a mistake."""
    copy = array.copy()
    copy.setflags(write=False)
    return copy


class Body(BodyMass, BodyFrames, BodyForces):
    """A rigid body in a World. Made by ``World.add_body``; do not build one directly.

    >>> from engine import World, Box
    >>> world = World()
    >>> crate = world.add_body(Box(1, 1), position=(0, 2))
    >>> crate.position.tolist(), crate.mass
    ([0.0, 2.0], 1.0)
    """

    # tag and user_data live on the handle, so that a removed body's events still carry
    # them; snapshots record them per handle.
    __slots__ = ("_world", "_id", "_shapes", "_tag", "_user_data", "__weakref__")

    def __init__(self, world, body_id: int, shapes: tuple, tag=None, user_data=None):
        self._world = world
        self._id = body_id
        self._shapes = shapes
        self._tag = tag
        self._user_data = user_data

    # -- where the body lives -------------------------------------------------------------
    def _get(self, field: str):
        return self._world._read_body(self, field)

    def _set(self, field: str, value) -> None:
        self._world._set_body(self, field, value)

    @property
    def world(self):
        """The World this body belongs to (None once removed, even while a presolve handler
        runs: the removal itself happens when the step ends)."""
        return self._world if self._world._holds(self) else None

    @property
    def body_id(self) -> int:
        """The body's stable id: unique in its world, never reused, increasing in the order
        bodies were added (``world.body_ids`` holds them by row)."""
        return self._id

    @property
    def shapes(self) -> tuple:
        """The shapes given to ``add_body``, in body-local coordinates."""
        return self._shapes

    # -- state ----------------------------------------------------------------------------
    @property
    def position(self) -> np.ndarray:
        """(2,) float64 position, m: the centre of mass, or for a body added with
        ``origin="local"`` the place of its shapes' origin (``center_of_mass`` is then
        elsewhere). A read-only copy, so that ``body.position[0] = 5`` raises instead of
        changing nothing; assign the whole vector to move the body."""
        bodies = self._world._bodies
        row = bodies.row_of_id.item(self._id)
        if row >= 0 and not _has_offset(bodies.arrays["origin_offset"][row]):
            position = bodies.arrays["position"][row].copy()
            position.setflags(write=False)
            return position
        return _frozen_copy(self._origin())  # the general way: a queued or removed body too

    @position.setter
    def position(self, value) -> None:
        value = bounded_components(value, "position", MAX_COORDINATE, "m")
        if not _has_offset(self._get("origin_offset")):
            self._set("position", value)
            return
        world = self._world
        value = np.array(value)

        def move(row: int) -> None:
            bodies = world._bodies.arrays
            offset = _turned(bodies["origin_offset"][row], bodies["angle"][row])
            world._write_body(row, "position", value - offset)

        world._change_body(self, move)

    @property
    def center_of_mass(self) -> np.ndarray:
        """(2,) float64 centre of mass in the world, m (read-only copy): ``position``,
        unless the body was added with ``origin="local"``."""
        return _frozen_copy(self._get("position"))

    def _origin(self) -> np.ndarray:
        """(2,) the origin of the body's frame in the world."""
        offset = self._get("origin_offset")
        centre = self._get("position")
        if _has_offset(offset):
            return centre + _turned(offset, self._get("angle"))
        return centre.copy()

    @property
    def angle(self) -> float:
        """Rotation in radians, counter-clockwise (about ``position``: setting it turns a
        body added with ``origin="local"`` about its shapes' origin)."""
        return float(self._get("angle"))

    @angle.setter
    def angle(self, value) -> None:
        value = as_finite_float(value, "angle")
        if not _has_offset(self._get("origin_offset")):
            self._set("angle", value)
            return
        world = self._world

        def turn(row: int) -> None:
            bodies = world._bodies.arrays
            offset, old = bodies["origin_offset"][row], bodies["angle"][row]
            origin = bodies["position"][row] + _turned(offset, old)
            world._write_body(row, "angle", value)
            world._write_body(row, "position", origin - _turned(offset, value))

        world._change_body(self, turn)

    @property
    def velocity(self) -> np.ndarray:
        """(2,) float64 velocity of the centre of mass, m/s: a read-only copy (assign the
        whole vector to change it)."""
        return _frozen_copy(self._get("velocity"))

    @velocity.setter
    def velocity(self, value) -> None:
        self._set("velocity", bounded_components(value, "velocity", MAX_SPEED, "m/s"))

    @property
    def angular_velocity(self) -> float:
        """Angular velocity in rad/s, counter-clockwise."""
        return float(self._get("angular_velocity"))

    @angular_velocity.setter
    def angular_velocity(self, value) -> None:
        value = as_bounded_float(value, "angular_velocity", MAX_ANGULAR_SPEED, "rad/s")
        self._set("angular_velocity", value)

    def set_target_transform(self, position, angle) -> None:
        """Set the velocities that bring the body to ``position`` (2,) and ``angle`` over the
        world's next step, as Box2D's ``b2Body_SetTargetTransform`` does: a kinematic
        platform or door moved by where it should be rather than by how fast.

        ``position`` is what ``body.position`` reads (the shapes' origin for a body added
        with ``origin="local"``); the angle is reached as given, not the short way round
        (a target of 2 pi from 0 is a whole turn). A kinematic body lands on the target to
        rounding; a dynamic one is given the velocities, and forces and contacts act as
        usual. ValueError (the world unchanged) for a static body, or for a target farther
        than the step's speed bounds reach in one step.
        """
        target = np.array(bounded_components(position, "position", MAX_COORDINATE, "m"))
        angle = as_finite_float(angle, "angle")
        offset = self._get("origin_offset")
        centre = target - _turned(offset, angle) if _has_offset(offset) else target
        inverse_dt = 1.0 / self._world.dt
        velocity = (centre - self._get("position")) * inverse_dt
        spin = (angle - float(self._get("angle"))) * inverse_dt
        check_bound(float(np.hypot(*velocity)), "position", MAX_SPEED, "m/s of speed to reach it")
        check_bound(abs(spin), "angle", MAX_ANGULAR_SPEED, "rad/s of turning to reach it")
        if self.kind == "static" and (spin != 0.0 or velocity.any()):
            raise ValueError("position: a static body cannot move; make it kinematic")
        self._set("velocity", velocity)
        self._set("angular_velocity", spin)

    # -- labels ---------------------------------------------------------------------------
    @property
    def tag(self) -> str | None:
        """A name for the kind of thing the body is ("player", "coin"), or None: handlers
        registered with ``world.on(event, handler, between=(tag_a, tag_b))`` see only the
        contacts between bodies of those tags. Saved by snapshots."""
        return self._tag

    @tag.setter
    def tag(self, value) -> None:
        self._tag = check_tag(value)

    @property
    def user_data(self):
        """Anything the program wants to keep with the body (the engine never reads it).
        Kept by snapshots, restore, deepcopy and pickle; ``save`` writes it as JSON, so
        only JSON data (numbers, strings, lists, dicts, None) can go into a file."""
        return self._user_data

    @user_data.setter
    def user_data(self, value) -> None:
        self._user_data = value

    @property
    def bullet(self) -> bool:
        """True when continuous collision also covers dynamic bodies for this one."""
        return bool(self._get("bullet"))

    @property
    def friction(self) -> float:
        """Friction coefficient (mixed per touching shape pair as sqrt(fa * fb)): the
        body's, which its shapes without their own take; setting it sets theirs too."""
        return float(self._get("friction"))

    @friction.setter
    def friction(self, value) -> None:
        self._world._set_material(self, "friction", check_friction(value))

    @property
    def restitution(self) -> float:
        """Restitution in [0, 1] (mixed per touching shape pair as max(ea, eb)): the
        body's, which its shapes without their own take; setting it sets theirs too."""
        return float(self._get("restitution"))

    @restitution.setter
    def restitution(self, value) -> None:
        self._world._set_material(self, "restitution", check_restitution(value))

    # -- motion settings --------------------------------------------------------------
    @property
    def linear_damping(self) -> float:
        """Linear drag rate, 1/s (>= 0): each step divides the velocity by 1 + dt * rate."""
        return float(self._get("damping")[0])

    @linear_damping.setter
    def linear_damping(self, value) -> None:
        rate = check_damping(value, "linear_damping")
        self._set("damping", np.array([rate, self.angular_damping]))

    @property
    def angular_damping(self) -> float:
        """Angular drag rate, 1/s (>= 0): each step divides the spin by 1 + dt * rate."""
        return float(self._get("damping")[1])

    @angular_damping.setter
    def angular_damping(self, value) -> None:
        rate = check_damping(value, "angular_damping")
        self._set("damping", np.array([self.linear_damping, rate]))

    @property
    def gravity_scale(self) -> float:
        """How much of the world's gravity this body feels (1; 0 floats, < 0 rises)."""
        return float(self._get("gravity_scale"))

    @gravity_scale.setter
    def gravity_scale(self, value) -> None:
        self._set("gravity_scale", check_gravity_scale(value))

    # -- sleeping ---------------------------------------------------------------------
    @property
    def enable_sleep(self) -> bool:
        """False: the body never falls asleep, and neither does any island it is in
        (Box2D's ``enableSleep``: a player's body, a sensor that must keep watching).
        Switching it off wakes the body."""
        return bool(self._get("enable_sleep"))

    @enable_sleep.setter
    def enable_sleep(self, value) -> None:
        self._set("enable_sleep", check_flag(value, "enable_sleep"))

    @property
    def sleep_threshold(self) -> float:
        """Speed, in units/s, below which this body counts as resting: the world's
        ``sleep_threshold`` unless the body has its own. Assign a positive speed to give it
        its own (a slow slider kept awake), None to follow the world's again."""
        own = float(self._get("sleep_threshold"))
        return own if own > 0.0 else self._world.sleep_threshold  # 0: the world's

    @sleep_threshold.setter
    def sleep_threshold(self, value) -> None:
        value = 0.0 if value is None else as_positive_float(value, "sleep_threshold")
        self._set("sleep_threshold", value)

    @property
    def awake(self) -> bool:
        """False while the body sleeps (at rest, out of the solver until touched or moved).

        Assign True to wake it with its island, False to put it to sleep now (it stops).
        """
        return bool(self._get("awake"))

    @awake.setter
    def awake(self, value) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"awake: expected a bool, got {type(value).__name__}")
        world = self._world
        if not value and self._get("kind") != DYNAMIC:
            raise ValueError("awake: only dynamic bodies sleep")
        world._change_body(self, world._wake_rows if value else world._put_to_sleep)

    # -- filtering ------------------------------------------------------------------------
    # The filter and role below are the body's: its shapes that set none of their own take
    # them, and setting one sets it for those shapes (a shape's own value wins).
    @property
    def sensor(self) -> bool:
        """A sensor detects overlaps (sensor events) but never pushes or is pushed."""
        return bool(self._get("sensor"))

    @sensor.setter
    def sensor(self, value) -> None:
        self._world._set_material(self, "sensor", check_flag(value, "sensor"))

    @property
    def category(self) -> int:
        """16-bit category bits: what this body is."""
        return int(self._get("category"))

    @category.setter
    def category(self, value) -> None:
        self._world._set_material(self, "category", check_bits(value, "category"))

    @property
    def mask(self) -> int:
        """16-bit mask: the categories this body collides with."""
        return int(self._get("mask"))

    @mask.setter
    def mask(self, value) -> None:
        self._world._set_material(self, "mask", check_bits(value, "mask"))

    @property
    def group(self) -> int:
        """Collision group: a shared positive group always collides, a negative one never."""
        return int(self._get("group"))

    @group.setter
    def group(self, value) -> None:
        self._world._set_material(self, "group", check_group(value))

    def __repr__(self) -> str:
        if not self._world._holds(self):
            return "<Body removed>"
        x, y = self.position
        return f"<Body {self.kind} at ({x:.3g}, {y:.3g})>"
