"""Body: a light handle on one row of a World's arrays.

A Body holds its world and a stable id; every property reads or writes the world's
structure-of-arrays storage, so ``body.position = ...`` and ``world.positions`` always agree.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC, KIND_NAMES
from .filtering import check_bits, check_group
from .validation import as_finite_float, as_vector


class Body:
    """A rigid body in a World. Made by ``World.add_body``; do not build one directly.

    >>> from engine import World, Box
    >>> world = World()
    >>> crate = world.add_body(Box(1, 1), position=(0, 2))
    >>> crate.position.tolist(), crate.mass
    ([0.0, 2.0], 1.0)
    """

    __slots__ = ("_world", "_id", "_shapes", "__weakref__")

    def __init__(self, world, body_id: int, shapes: tuple):
        self._world = world
        self._id = body_id
        self._shapes = shapes

    # -- where the body lives -------------------------------------------------------------
    @property
    def _row(self) -> int:
        row = self._world._row_of(self)
        if row < 0:
            raise ValueError("body: it has been removed from its world")
        return row

    def _get(self, field: str):
        return self._world._bodies.arrays[field][self._row]

    def _set(self, field: str, value) -> None:
        self._world._write_body(self._row, field, value)

    @property
    def world(self):
        """The World this body belongs to (None once removed)."""
        return self._world if self._world._row_of(self) >= 0 else None

    @property
    def shapes(self) -> tuple:
        """The shapes given to ``add_body``, in body-local coordinates."""
        return self._shapes

    # -- state ----------------------------------------------------------------------------
    @property
    def position(self) -> np.ndarray:
        """(2,) float64 position of the centre of mass, m (a copy; assign to change it)."""
        return self._get("position").copy()

    @position.setter
    def position(self, value) -> None:
        self._set("position", as_vector(value, "position"))

    @property
    def angle(self) -> float:
        """Rotation in radians, counter-clockwise."""
        return float(self._get("angle"))

    @angle.setter
    def angle(self, value) -> None:
        self._set("angle", as_finite_float(value, "angle"))

    @property
    def velocity(self) -> np.ndarray:
        """(2,) float64 velocity of the centre of mass, m/s (a copy)."""
        return self._get("velocity").copy()

    @velocity.setter
    def velocity(self, value) -> None:
        self._set("velocity", as_vector(value, "velocity"))

    @property
    def angular_velocity(self) -> float:
        """Angular velocity in rad/s, counter-clockwise."""
        return float(self._get("angular_velocity"))

    @angular_velocity.setter
    def angular_velocity(self, value) -> None:
        self._set("angular_velocity", as_finite_float(value, "angular_velocity"))

    # -- mass and material ----------------------------------------------------------------
    @property
    def mass(self) -> float:
        """Mass in kg (inf for static and kinematic bodies)."""
        return float(self._get("mass"))

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass, kg m^2 (inf unless dynamic)."""
        return float(self._get("inertia"))

    @property
    def kind(self) -> str:
        """ "dynamic", "static" or "kinematic"."""
        return KIND_NAMES[int(self._get("kind"))]

    @property
    def bullet(self) -> bool:
        """True when continuous collision also covers dynamic bodies for this one."""
        return bool(self._get("bullet"))

    @property
    def friction(self) -> float:
        """Friction coefficient (mixed with the other body's as sqrt(fa * fb))."""
        return float(self._get("friction"))

    @friction.setter
    def friction(self, value) -> None:
        value = as_finite_float(value, "friction")
        if value < 0.0:
            raise ValueError(f"friction: must be >= 0, got {value}")
        self._set("friction", value)

    @property
    def restitution(self) -> float:
        """Restitution in [0, 1] (mixed with the other body's as max(ea, eb))."""
        return float(self._get("restitution"))

    @restitution.setter
    def restitution(self, value) -> None:
        value = as_finite_float(value, "restitution")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"restitution: must be in [0, 1], got {value}")
        self._set("restitution", value)

    # -- sleeping ---------------------------------------------------------------------
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
        row = self._row
        world = self._world
        if value:
            world._wake_rows(row)
            return
        bodies = world._bodies.arrays
        if bodies["kind"][row] != DYNAMIC:
            raise ValueError("awake: only dynamic bodies sleep")
        bodies["awake"][row] = False
        bodies["velocity"][row] = 0.0
        bodies["angular_velocity"][row] = 0.0
        bodies["island"][row] = world._next_island
        world._next_island += 1

    # -- filtering ------------------------------------------------------------------------
    @property
    def sensor(self) -> bool:
        """A sensor detects overlaps (sensor events) but never pushes or is pushed."""
        return bool(self._get("sensor"))

    @sensor.setter
    def sensor(self, value) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"sensor: expected a bool, got {type(value).__name__}")
        self._set("sensor", bool(value))

    @property
    def category(self) -> int:
        """16-bit category bits: what this body is."""
        return int(self._get("category"))

    @category.setter
    def category(self, value) -> None:
        self._set("category", check_bits(value, "category"))

    @property
    def mask(self) -> int:
        """16-bit mask: the categories this body collides with."""
        return int(self._get("mask"))

    @mask.setter
    def mask(self, value) -> None:
        self._set("mask", check_bits(value, "mask"))

    @property
    def group(self) -> int:
        """Collision group: a shared positive group always collides, a negative one never."""
        return int(self._get("group"))

    @group.setter
    def group(self, value) -> None:
        self._set("group", check_group(value))

    # -- pushing it -----------------------------------------------------------------------
    def apply_force(self, force, point=None) -> None:
        """Add a force (N) for the next step, at a world ``point`` (default: the centre of mass).

        force: (2,); point: (2,) or None. A force off the centre of mass also gives torque.
        Forces are cleared after each step.
        """
        force = as_vector(force, "force")
        torque = self._moment_arm_cross(point, force)
        row = self._row
        self._world._wake_rows(row)
        bodies = self._world._bodies.arrays
        bodies["force"][row] += force
        bodies["torque"][row] += torque

    def apply_impulse(self, impulse, point=None) -> None:
        """Change the momentum now by ``impulse`` (N s) at a world ``point`` (default: centre).

        impulse: (2,); point: (2,) or None. Static and kinematic bodies are not affected.
        """
        impulse = as_vector(impulse, "impulse")
        angular = self._moment_arm_cross(point, impulse)
        row = self._row
        bodies = self._world._bodies.arrays
        if bodies["kind"][row] != DYNAMIC:
            return
        self._world._wake_rows(row)
        bodies["velocity"][row] += impulse * bodies["inv_mass"][row]
        bodies["angular_velocity"][row] += angular * bodies["inv_inertia"][row]

    def _moment_arm_cross(self, point, vector: np.ndarray) -> float:
        if point is None:
            return 0.0
        arm = as_vector(point, "point") - self._get("position")
        return float(arm[0] * vector[1] - arm[1] * vector[0])

    def __repr__(self) -> str:
        if self._world._row_of(self) < 0:
            return "<Body removed>"
        x, y = self.position
        return f"<Body {self.kind} at ({x:.3g}, {y:.3g})>"
