"""Body: a light handle on one row of a World's arrays.

A Body holds its world and a stable id; every property reads or writes the world's
structure-of-arrays storage, so ``body.position = ...`` and ``world.positions`` always agree.
"""

from __future__ import annotations

import math

import numpy as np

from .body_geometry import body_geometry
from .body_store import DYNAMIC, KIND_CODES, KIND_NAMES, STATIC
from .filtering import check_bits, check_group, check_tag
from .materials import check_flag, check_friction, check_restitution
from .motion_settings import check_damping, check_gravity_scale
from .segments import check_dynamic
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED
from .validation import (
    as_bounded_float,
    as_bounded_vector,
    as_finite_array,
    as_finite_float,
    as_positive_float,
    check_bound,
)


def _as_points(value, argument: str) -> tuple[np.ndarray, bool]:
    """(N, 2) finite points from a (2,) point or (N, 2) points, and whether it was one."""
    array = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
    single = array.ndim == 1
    points = as_finite_array(value, (2,) if single else (-1, 2), argument)
    return (points[None, :] if single else points), single


def _turned(vector: np.ndarray, angle: float) -> np.ndarray:
    """(2,) ``vector`` turned counter-clockwise by ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def _frozen_copy(array: np.ndarray) -> np.ndarray:
    """A copy that refuses item assignment: writing into it could only be a mistake."""
    copy = array.copy()
    copy.flags.writeable = False
    return copy


class Body:
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
        return _frozen_copy(self._origin())

    @position.setter
    def position(self, value) -> None:
        value = as_bounded_vector(value, "position", MAX_COORDINATE, "m")
        if not self._get("origin_offset").any():
            self._set("position", value)
            return
        world = self._world

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
        return centre + _turned(offset, self._get("angle")) if offset.any() else centre.copy()

    @property
    def angle(self) -> float:
        """Rotation in radians, counter-clockwise (about ``position``: setting it turns a
        body added with ``origin="local"`` about its shapes' origin)."""
        return float(self._get("angle"))

    @angle.setter
    def angle(self, value) -> None:
        value = as_finite_float(value, "angle")
        if not self._get("origin_offset").any():
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
        self._set("velocity", as_bounded_vector(value, "velocity", MAX_SPEED, "m/s"))

    @property
    def angular_velocity(self) -> float:
        """Angular velocity in rad/s, counter-clockwise."""
        return float(self._get("angular_velocity"))

    @angular_velocity.setter
    def angular_velocity(self, value) -> None:
        value = as_bounded_float(value, "angular_velocity", MAX_ANGULAR_SPEED, "rad/s")
        self._set("angular_velocity", value)

    # -- mass and material ----------------------------------------------------------------
    @property
    def mass(self) -> float:
        """Mass in kg (inf for static and kinematic bodies)."""
        return float(self._get("mass"))

    @mass.setter
    def mass(self, value) -> None:
        """Set a dynamic body's mass, kg: its inertia scales with it, as if every density
        (the body's and each shape's) were multiplied by one factor."""
        mass = as_finite_float(value, "mass")
        if self._get("kind") != DYNAMIC:
            raise ValueError("mass: only a dynamic body has a mass to set")
        old_mass, old_inertia = float(self._get("mass")), float(self._get("inertia"))
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            inertia = old_inertia * (mass / old_mass)
            usable = mass > 0.0 and 0.0 < inertia < np.inf and 1.0 / mass < np.inf
            usable = usable and 1.0 / inertia < np.inf
        if not usable:
            raise ValueError(f"mass: must be > 0 and give a mass and inertia float64 can "
                             f"invert, got {mass:g}")  # fmt: skip
        world = self._world

        def weigh(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            # Every density scales by one factor: the body's and each part's.
            factor = mass / bodies["mass"][row]
            bodies["density"][row] *= factor
            world._parts.table.arrays["density"][world._parts.rows_of(row)] *= factor
            bodies["mass"][row], bodies["inertia"][row] = mass, inertia
            bodies["inv_mass"][row] = 1.0 / mass
            bodies["inv_inertia"][row] = 0.0 if bodies["fixed_rotation"][row] else 1.0 / inertia

        world._change_body(self, weigh)

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass, kg m^2 (inf unless dynamic).

        A dynamic body's can be set (> 0, finite); a new ``mass`` scales it, a new ``kind``
        recomputes it from the shapes."""
        return float(self._get("inertia"))

    @inertia.setter
    def inertia(self, value) -> None:
        inertia = as_finite_float(value, "inertia")
        if self._get("kind") != DYNAMIC:
            raise ValueError("inertia: only a dynamic body has an inertia to set")
        with np.errstate(over="ignore", divide="ignore"):
            usable = inertia > 0.0 and 1.0 / inertia < np.inf
        if not usable:
            raise ValueError(f"inertia: must be > 0 and invertible in float64, got {inertia:g}")
        world = self._world

        def turn(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["inertia"][row] = inertia
            bodies["inv_inertia"][row] = 0.0 if bodies["fixed_rotation"][row] else 1.0 / inertia

        world._change_body(self, turn)

    @property
    def density(self) -> float:
        """The body's density, kg/m^2: that of its shapes that set none (for every kind: it
        gives the mass a static or kinematic body takes when it is made dynamic). A new
        ``mass`` scales it with the shapes' own densities."""
        return float(self._get("density"))

    @property
    def fixed_rotation(self) -> bool:
        """True: nothing turns the body (its inverse inertia is 0); setting it also stops
        its spin. ``inertia`` still reports what the shapes have."""
        return bool(self._get("fixed_rotation"))

    @fixed_rotation.setter
    def fixed_rotation(self, value) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"fixed_rotation: expected a bool, got {type(value).__name__}")
        fixed = bool(value)
        world = self._world

        def fix(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["fixed_rotation"][row] = fixed
            if bodies["kind"][row] == DYNAMIC:
                bodies["inv_inertia"][row] = 0.0 if fixed else 1.0 / bodies["inertia"][row]
            if fixed:
                bodies["angular_velocity"][row] = 0.0

        world._change_body(self, fix)

    @property
    def kind(self) -> str:
        """ "dynamic", "static" or "kinematic"; assign one to change it.

        Made dynamic, a body takes its mass and inertia from its shapes and their densities
        (each shape's own, else ``density``; an inertia set by hand is not kept); made
        static, it stops; made kinematic, it keeps its velocity and moves as told. Bodies
        touching it wake.
        """
        return KIND_NAMES[int(self._get("kind"))]

    @kind.setter
    def kind(self, value) -> None:
        if value not in KIND_CODES:
            raise ValueError(f"kind: must be one of {sorted(KIND_CODES)}, got {value!r}")
        code = KIND_CODES[value]
        mass = inertia = np.inf
        if code == DYNAMIC:
            check_dynamic(self._shapes, "kind")
            # Each shape's density as its parts hold it (a ConcavePolygon's parts share one).
            densities = self._world._part_column(self, "density")
            shape_of_part = self._world._part_column(self, "shape")
            first = np.searchsorted(shape_of_part, np.arange(len(self._shapes)))
            geometry = body_geometry(self._shapes, densities[first])
            mass, inertia = geometry.mass, geometry.inertia
            with np.errstate(over="ignore", divide="ignore"):
                for name, amount in (("mass", mass), ("inertia", inertia)):
                    if not (0.0 < amount < np.inf and 1.0 / amount < np.inf):
                        raise ValueError(
                            f"kind: a dynamic body of these shapes and density gets a {name} "
                            f"of {amount:g}, which float64 cannot invert"
                        )
        world = self._world

        def change(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            world._wake_touching(self._id)
            bodies["kind"][row] = code
            bodies["mass"][row], bodies["inertia"][row] = mass, inertia
            dynamic = code == DYNAMIC
            bodies["inv_mass"][row] = 1.0 / mass if dynamic else 0.0
            turning = dynamic and not bodies["fixed_rotation"][row]
            bodies["inv_inertia"][row] = 1.0 / inertia if turning else 0.0
            if code == STATIC:
                bodies["velocity"][row] = 0.0
                bodies["angular_velocity"][row] = 0.0
            # Only dynamic bodies sleep or count resting time.
            bodies["awake"][row] = True
            bodies["sleep_time"][row] = 0.0
            bodies["island"][row] = -1

        world._change_body(self, change)

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

    # -- pushing it -----------------------------------------------------------------------
    # -- frames ---------------------------------------------------------------------------
    def local_to_world(self, points) -> np.ndarray:
        """World coordinates of ``points`` given in the body's frame: (2,) or (N, 2) in, the
        same shape out.

        The body's frame has its origin at ``position`` and turns with the body: the frame
        the shapes were given in for a body added with ``origin="local"``; otherwise the
        centre of mass, the shapes' frame once ``add_body`` has centred them on their
        common centroid (for one centred shape, the shape's own frame).
        """
        local, single = _as_points(points, "points")
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = self._origin()
        world = np.stack([c * local[:, 0] - s * local[:, 1] + x,
                          s * local[:, 0] + c * local[:, 1] + y], axis=1)  # fmt: skip
        return world[0] if single else world

    def world_to_local(self, points) -> np.ndarray:
        """The body's-frame coordinates of world ``points``: (2,) or (N, 2) in, the same
        shape out (the inverse of ``local_to_world``)."""
        world, single = _as_points(points, "points")
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = self._origin()
        dx, dy = world[:, 0] - x, world[:, 1] - y
        local = np.stack([c * dx + s * dy, -s * dx + c * dy], axis=1)
        return local[0] if single else local

    def velocity_at(self, points) -> np.ndarray:
        """Velocity of the body's material at world ``points``, m/s: v + w x (p - position).
        (2,) or (N, 2) in, the same shape out."""
        world, single = _as_points(points, "points")
        w = self.angular_velocity
        rx = world[:, 0] - self._get("position")[0]
        ry = world[:, 1] - self._get("position")[1]
        vx, vy = self._get("velocity")
        velocity = np.stack([vx - w * ry, vy + w * rx], axis=1)
        return velocity[0] if single else velocity

    # -- forces -----------------------------------------------------------------------------
    def apply_torque(self, torque) -> None:
        """Add a torque (N m) for the next step, counter-clockwise positive. Torques are
        cleared after each step, like forces."""
        torque = as_finite_float(torque, "torque")
        world = self._world
        with np.errstate(over="ignore", invalid="ignore"):
            spin = abs(self._get("torque") + torque) * self._get("inv_inertia") * world.dt
        check_bound(float(spin), "torque", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")

        def turn(row: int) -> None:
            world._wake_rows(row)
            world._bodies.arrays["torque"][row] += torque

        world._change_body(self, turn)

    def apply_force(self, force, point=None, *, local_point=None) -> None:
        """Add a force (N) for the next step, at a world ``point`` or at ``local_point`` in the
        body's frame (default: the centre of mass).

        force: (2,); point, local_point: (2,) or None, not both. A force off the centre of
        mass also gives torque. Forces are cleared after each step.
        """
        force = as_bounded_vector(force, "force", np.finfo(float).max, "N")
        point = self._world_point(point, local_point)
        torque = self._moment_arm_cross(point, force)
        world = self._world
        # What the forces pushed so far plus this one would add to the velocity next step.
        dt = world.dt
        inv_mass, inv_inertia = self._get("inv_mass"), self._get("inv_inertia")
        with np.errstate(over="ignore", invalid="ignore"):
            gain = np.hypot(*(self._get("force") + force)) * inv_mass * dt
            spin = abs(self._get("torque") + torque) * inv_inertia * dt
        check_bound(float(gain), "force", MAX_SPEED, "m/s of speed gained in a step")
        check_bound(float(spin), "point", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")

        def push(row: int) -> None:
            world._wake_rows(row)
            world._bodies.arrays["force"][row] += force
            world._bodies.arrays["torque"][row] += torque

        world._change_body(self, push)

    def apply_impulse(self, impulse, point=None, *, local_point=None) -> None:
        """Change the momentum now by ``impulse`` (N s) at a world ``point`` or at
        ``local_point`` in the body's frame (default: the centre of mass).

        impulse: (2,); point, local_point: (2,) or None, not both. Static and kinematic
        bodies are not affected.
        """
        impulse = as_bounded_vector(impulse, "impulse", np.finfo(float).max, "N s")
        point = self._world_point(point, local_point)
        angular = self._moment_arm_cross(point, impulse)
        world = self._world
        if self._get("kind") != DYNAMIC:
            world._change_body(self, lambda row: None)  # refuses a removed body
            return
        with np.errstate(over="ignore", invalid="ignore"):
            velocity = self._get("velocity") + impulse * self._get("inv_mass")
            spin = self._get("angular_velocity") + angular * self._get("inv_inertia")
        check_bound(float(np.hypot(*velocity)), "impulse", MAX_SPEED, "m/s of resulting speed")
        check_bound(abs(float(spin)), "point", MAX_ANGULAR_SPEED, "rad/s of resulting spin")

        def kick(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["velocity"][row] += impulse * bodies["inv_mass"][row]
            bodies["angular_velocity"][row] += angular * bodies["inv_inertia"][row]

        world._change_body(self, kick)

    def _world_point(self, point, local_point):
        """The world point a force or impulse acts at: ``point``, or ``local_point`` carried
        into the world, or None for the centre of mass."""
        if local_point is None:
            return point
        if point is not None:
            raise ValueError("local_point: give a world point or a local point, not both")
        local = as_bounded_vector(local_point, "local_point", MAX_COORDINATE, "m")
        return self.local_to_world(local)

    def _moment_arm_cross(self, point, vector: np.ndarray) -> float:
        if point is None:
            return 0.0
        arm = as_bounded_vector(point, "point", MAX_COORDINATE, "m") - self._get("position")
        with np.errstate(over="ignore", invalid="ignore"):
            return float(arm[0] * vector[1] - arm[1] * vector[0])

    def __repr__(self) -> str:
        if not self._world._holds(self):
            return "<Body removed>"
        x, y = self.position
        return f"<Body {self.kind} at ({x:.3g}, {y:.3g})>"
