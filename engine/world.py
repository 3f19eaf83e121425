"""The World: bodies in structure-of-arrays storage and the fixed-step pipeline.

One ``step`` of ``dt``, as data flowing (each stage a function from arrays to arrays):

1. forces -> velocities (gravity, applied forces);
2. broad phase on swept part boxes -> candidate part pairs;
3. narrow phase (swept SAT with relative velocities) -> contact manifolds;
4. velocity solve: warm-started sequential impulses on coloured batches, then restitution;
5. integrate positions, stopping fast bodies at their time of impact;
6. positional correction along contact normals;
7. remember impulses for the next step's warm start.
"""

from __future__ import annotations

import math

import numpy as np

from .body import Body
from .body_geometry import body_geometry
from .body_store import BODY_FIELDS, KIND_CODES, PartTable, Table
from .bulk_views import (
    JOINT_KIND_CODES,
    ContactArrays,
    JointArrays,
    PartArrays,
    joint_arrays,
    part_arrays,
)
from .character import move_and_slide
from .event_log import EventLog
from .filtering import check_bits, check_group, check_tag
from .joint_base import Joint
from .joint_store import JOINT_FIELDS, WORLD, joint_slots
from .materials import (
    check_density,
    check_flag,
    check_friction,
    check_restitution,
    own_values,
    part_materials,
    shape_densities,
)
from .motion_settings import check_damping, check_gravity_scale
from .queries import check_body, query_aabb, query_point, shape_cast
from .query_index import QueryIndex, QueryIndexCache
from .raycast import raycast, raycast_all, raycast_many
from .segments import check_dynamic
from .settings import (
    LINEAR_SLOP,
    MAX_ANGULAR_SPEED,
    MAX_COORDINATE,
    MAX_DT,
    MAX_GRAVITY,
    MAX_SPEED,
    MAX_STEPS_PER_ADVANCE,
    MAX_UNITS_PER_METER,
    POSITION_ITERATIONS,
    RESTITUTION_THRESHOLD,
    SLEEP_THRESHOLD,
    TIME_TO_SLEEP,
    VELOCITY_ITERATIONS,
)
from .shapes import Shape
from .snapshot import load as load_world
from .snapshot import restore as restore_world
from .snapshot import save as save_world
from .snapshot import snapshot as snapshot_world
from .snapshot import world_getstate, world_setstate
from .solver_settings import (
    CONTACT_DAMPING_RATIO,
    CONTACT_HERTZ,
    JOINT_DAMPING_RATIO,
    JOINT_HERTZ,
    RELAX_ITERATIONS,
    SUBSTEPS,
    soft_solver_settings,
)
from .step import advance_one_step
from .validation import (
    as_bounded_float,
    as_bounded_vector,
    as_finite_float,
    as_positive_float,
    check_bound,
)
from .warm_start import WarmStartCache
from .world_base import WorldBase


class World(WorldBase):
    """A 2D world of rigid bodies stepped with a fixed timestep.

    gravity: (2,) m/s^2. dt: the fixed step in seconds. broadphase: "grid" (a spatial hash,
    cell size from the bodies' sizes unless ``cell_size`` is given) or "quadtree".

    Units: lengths are in whatever unit the world is built in, ``units_per_meter`` of
    them to a metre (1 for metres, 100 for a game drawn at 100 pixels a metre, 1000 for
    millimetres). The tolerances that are lengths or speeds, and the default gravity, are
    the metre values times it, so a scene built in pixels moves as the same scene in
    metres; times, angles, masses and material coefficients do not scale. The tunable
    tolerances, each a keyword and a settable attribute (None: the default):

    - ``linear_slop``: overlap a resting contact keeps (0.005 m); thin and small bodies
      get less (at most 2% of the thinner one's thickness);
    - ``restitution_threshold``: slowest approach that bounces (1 m/s);
    - ``sleep_threshold``: speed below which a body rests (0.05 m/s; a body may have its
      own, ``Body.sleep_threshold``);
    - ``time_to_sleep``: how long an island rests before it sleeps (0.5 s, not scaled).

    >>> from engine import World, Box
    >>> world = World()
    >>> ground = world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    >>> crate = world.add_body(Box(1, 1), position=(0, 3))
    >>> for _ in range(120):
    ...     world.step()
    >>> round(float(crate.position[1]), 2)
    0.5
    """

    def __init__(
        self,
        gravity=None,
        dt: float = 1 / 60,
        broadphase: str = "grid",
        cell_size: float | None = None,
        velocity_iterations: int = VELOCITY_ITERATIONS,
        position_iterations: int = POSITION_ITERATIONS,
        max_steps_per_advance: int = MAX_STEPS_PER_ADVANCE,
        sleep: bool = True,
        units_per_meter: float = 1.0,
        linear_slop: float | None = None,
        restitution_threshold: float | None = None,
        sleep_threshold: float | None = None,
        time_to_sleep: float | None = None,
        substeps: int = SUBSTEPS,
        relax_iterations: int = RELAX_ITERATIONS,
        contact_hertz: float = CONTACT_HERTZ,
        contact_damping_ratio: float = CONTACT_DAMPING_RATIO,
        max_contact_push_speed: float | None = None,
        joint_hertz: float = JOINT_HERTZ,
        joint_damping_ratio: float = JOINT_DAMPING_RATIO,
    ):
        if not isinstance(sleep, (bool, np.bool_)):
            raise TypeError(f"sleep: expected a bool, got {type(sleep).__name__}")
        units = as_positive_float(units_per_meter, "units_per_meter")
        if units > MAX_UNITS_PER_METER:
            # The default gravity and tolerances would pass the limits the step represents.
            raise ValueError(
                f"units_per_meter: must be at most {MAX_UNITS_PER_METER:g}, got {units:g}"
            )
        # Checked before anything is kept: a refused World() builds nothing.
        tolerances = {
            name: as_positive_float(value, name) if value is not None else default
            for name, value, default in (
                ("linear_slop", linear_slop, LINEAR_SLOP * units),
                ("restitution_threshold", restitution_threshold, RESTITUTION_THRESHOLD * units),
                ("sleep_threshold", sleep_threshold, SLEEP_THRESHOLD * units),
                ("time_to_sleep", time_to_sleep, TIME_TO_SLEEP),
            )
        }
        # The sub-stepped solver's (``engine.substep``); substeps 0 keeps the other one.
        soft = soft_solver_settings(
            substeps, relax_iterations, contact_hertz, contact_damping_ratio,
            max_contact_push_speed, joint_hertz, joint_damping_ratio, units,
        )  # fmt: skip
        if gravity is None:
            gravity = (0.0, -9.81 * units)
        self._gravity = as_bounded_vector(gravity, "gravity", MAX_GRAVITY, "m/s^2")
        self._dt = as_positive_float(dt, "dt")
        check_bound(self._dt, "dt", MAX_DT, "s")
        self._broadphase = _check_broadphase(broadphase)
        self._cell_size = None if cell_size is None else as_positive_float(cell_size, "cell_size")
        self.velocity_iterations = _check_count(velocity_iterations, "velocity_iterations", 1)
        self.position_iterations = _check_count(position_iterations, "position_iterations", 0)
        self.max_steps_per_advance = _check_count(max_steps_per_advance, "max_steps_per_advance", 1)
        self._bodies = Table(BODY_FIELDS)
        self._parts = PartTable()
        self._handles: list[Body] = []
        self._row_of_id = np.zeros(16, dtype=np.int64)
        self._next_id = 0
        self._warm = WarmStartCache()
        self._joints = Table(JOINT_FIELDS)
        self._joint_handles: list[Joint] = []
        self._next_joint_id = 0
        self._accumulator = 0.0
        self._steps = 0
        self._pose_revision = 0
        self.sleep = bool(sleep)
        self._next_island = 0
        self._stepping = False
        self._running = False
        self._deferred: list = []
        self._event_log = EventLog()
        self._query_index = QueryIndexCache()
        self._handle_array = np.empty(0, dtype=object)
        self._units_per_meter = units
        self._linear_slop = tolerances["linear_slop"]
        self._restitution_threshold = tolerances["restitution_threshold"]
        self._sleep_threshold = tolerances["sleep_threshold"]
        self._time_to_sleep = tolerances["time_to_sleep"]
        for name, value in soft.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return (
            f"World(gravity={tuple(self._gravity.tolist())}, dt={self._dt!r}, "
            f"broadphase={self._broadphase!r}, units_per_meter={self._units_per_meter!r}, "
            f"linear_slop={self._linear_slop!r}, "
            f"restitution_threshold={self._restitution_threshold!r}, "
            f"sleep_threshold={self._sleep_threshold!r}, "
            f"time_to_sleep={self._time_to_sleep!r}, sleep={self.sleep!r}; "
            f"{self._bodies.count} bodies, {self._joints.count} joints)"
        )

    # -- settings -------------------------------------------------------------------------
    @property
    def units_per_meter(self) -> float:
        """Length units in a metre (fixed when the world is made): 1 for metres, 100 for
        100 pixels a metre. The length and speed tolerances are their metre values times it.
        """
        return self._units_per_meter

    @property
    def linear_slop(self) -> float:
        """Overlap a resting contact keeps, in length units (default 0.005 m); a contact
        between bodies thinner than 50 slops keeps 2% of the thinner one's thickness."""
        return self._linear_slop

    @linear_slop.setter
    def linear_slop(self, value) -> None:
        self._linear_slop = as_positive_float(value, "linear_slop")

    @property
    def restitution_threshold(self) -> float:
        """Slowest approach, in units/s, that bounces (default 1 m/s)."""
        return self._restitution_threshold

    @restitution_threshold.setter
    def restitution_threshold(self, value) -> None:
        self._restitution_threshold = as_positive_float(value, "restitution_threshold")

    @property
    def sleep_threshold(self) -> float:
        """Speed, in units/s, below which a body counts as resting (default 0.05 m/s), at
        its centre and at its reach when turning; bodies may set their own."""
        return self._sleep_threshold

    @sleep_threshold.setter
    def sleep_threshold(self, value) -> None:
        self._sleep_threshold = as_positive_float(value, "sleep_threshold")

    @property
    def time_to_sleep(self) -> float:
        """Seconds an island's bodies must all rest before it falls asleep (default 0.5)."""
        return self._time_to_sleep

    @time_to_sleep.setter
    def time_to_sleep(self, value) -> None:
        self._time_to_sleep = as_positive_float(value, "time_to_sleep")

    @property
    def dt(self) -> float:
        """The fixed step, s."""
        return self._dt

    @property
    def gravity(self) -> np.ndarray:
        """(2,) float64 gravity, m/s^2: a read-only copy (assign the whole vector)."""
        gravity = self._gravity.copy()
        gravity.flags.writeable = False
        return gravity

    @gravity.setter
    def gravity(self, value) -> None:
        self._gravity = as_bounded_vector(value, "gravity", MAX_GRAVITY, "m/s^2")

    @property
    def broadphase(self) -> str:
        """ "grid" or "quadtree" (assign to switch)."""
        return self._broadphase

    @broadphase.setter
    def broadphase(self, value: str) -> None:
        self._broadphase = _check_broadphase(value)

    @property
    def time(self) -> float:
        """Simulated seconds: steps taken times dt."""
        return self._steps * self._dt

    # -- bodies ---------------------------------------------------------------------------
    def add_body(
        self,
        shapes,
        position=(0.0, 0.0),
        angle: float = 0.0,
        velocity=(0.0, 0.0),
        angular_velocity: float = 0.0,
        density: float = 1.0,
        friction: float = 0.6,
        restitution: float = 0.0,
        kind: str = "dynamic",
        bullet: bool = False,
        sensor: bool = False,
        category: int = 0x0001,
        mask: int = 0xFFFF,
        group: int = 0,
        sleep_threshold: float | None = None,
        linear_damping: float = 0.0,
        angular_damping: float = 0.0,
        gravity_scale: float = 1.0,
        fixed_rotation: bool = False,
        tag: str | None = None,
        user_data=None,
        origin: str = "centroid",
    ) -> Body:
        """Add a body made of one shape or a list of shapes; returns its handle.

        origin="centroid": the body's ``position`` is its centre of mass; the shapes are
        placed so that their common centroid lands there. origin="local": the shapes stay
        where they were given, and ``position`` is the place of their origin (the centre
        of mass is then ``body.center_of_mass``). A ConcavePolygon brings its convex parts.

        sensor: detects overlaps (``sensor_begin``/``sensor_end`` events) but never pushes
        or is pushed. category, mask: 16-bit collision filter; two bodies collide only if
        each one's category is in the other's mask. group: a shared non-zero group
        overrides the masks: positive always collides, negative never.
        sleep_threshold: the body's own resting speed, units/s (None: the world's).
        linear_damping, angular_damping: drag rates, 1/s (>= 0): each step divides the
        velocities by 1 + dt * rate. gravity_scale: multiplies the world's gravity for this
        body (0: it floats; negative: it rises). fixed_rotation: nothing turns the body
        (its inverse inertia is 0; ``inertia`` still reports its shapes').
        tag: a name for the kind of thing it is, for handlers registered ``between`` tags
        (see ``on``). user_data: anything the program keeps with the body.
        """
        shapes = _check_shapes(shapes)
        position = as_bounded_vector(position, "position", MAX_COORDINATE, "m")
        angle = as_finite_float(angle, "angle")
        velocity = as_bounded_vector(velocity, "velocity", MAX_SPEED, "m/s")
        angular_velocity = as_bounded_float(
            angular_velocity, "angular_velocity", MAX_ANGULAR_SPEED, "rad/s"
        )
        # One check per property, shared with the shapes and the body setters.
        density = check_density(density)
        friction = check_friction(friction)
        restitution = check_restitution(restitution)
        if kind not in KIND_CODES:
            raise ValueError(f"kind: must be one of {sorted(KIND_CODES)}, got {kind!r}")
        bullet = check_flag(bullet, "bullet")
        sensor = check_flag(sensor, "sensor")
        fixed_rotation = check_flag(fixed_rotation, "fixed_rotation")
        category = check_bits(category, "category")
        mask = check_bits(mask, "mask")
        group = check_group(group)
        own_threshold = _check_sleep_threshold(sleep_threshold)
        damping = [check_damping(linear_damping, "linear_damping"),
                   check_damping(angular_damping, "angular_damping")]  # fmt: skip
        gravity_scale = check_gravity_scale(gravity_scale)
        tag = check_tag(tag)
        if origin not in ("centroid", "local"):
            raise ValueError(f"origin: must be 'centroid' or 'local', got {origin!r}")

        if kind == "dynamic":
            check_dynamic(shapes, "shapes")
        # Each shape's own density, else the body's: the centre of mass is mass-weighted.
        geometry = body_geometry(shapes, shape_densities(shapes, density))
        local, centroid = geometry.parts, geometry.centroid
        offset = -centroid if origin == "local" else np.zeros(2)
        if origin == "local":
            c, s = math.cos(angle), math.sin(angle)
            centre = position + np.array([c * centroid[0] - s * centroid[1],
                                          s * centroid[0] + c * centroid[1]])  # fmt: skip
            position = as_bounded_vector(centre, "position", MAX_COORDINATE, "m")
        dynamic = kind == "dynamic"
        mass = geometry.mass if dynamic else np.inf
        inertia = geometry.inertia if dynamic else np.inf
        if dynamic:
            for name, value in (("mass", mass), ("inertia", inertia)):
                if not (0.0 < value < np.inf and 1.0 / value < np.inf):
                    raise ValueError(
                        f"density: gives these shapes a {name} of {value:g}, which float64 "
                        "cannot invert"
                    )

        record = {
            "position": position,
            "origin_offset": offset,
            "angle": angle,
            # Static bodies never move, whatever they were given.
            "velocity": velocity if kind != "static" else np.zeros(2),
            "angular_velocity": angular_velocity if kind != "static" else 0.0,
            "mass": mass,
            "inertia": inertia,
            "inv_mass": 1.0 / mass if dynamic else 0.0,
            "inv_inertia": 1.0 / inertia if dynamic and not fixed_rotation else 0.0,
            "friction": friction,
            "restitution": restitution,
            "density": density,
            "kind": KIND_CODES[kind],
            "bullet": bullet,
            "reach": geometry.reach,
            "thickness": geometry.thickness,
            "sensor": sensor,
            "category": category,
            "mask": mask,
            "group": group,
            "awake": True,
            "island": -1,
            "sleep_threshold": own_threshold,
            "damping": damping,
            "gravity_scale": gravity_scale,
            "fixed_rotation": fixed_rotation,
        }
        materials = part_materials(shapes, record)
        body_id = self._next_id
        self._next_id += 1
        if body_id >= len(self._row_of_id):
            grown = np.full(2 * len(self._row_of_id), -1, dtype=np.int64)
            grown[: len(self._row_of_id)] = self._row_of_id
            self._row_of_id = grown
        self._row_of_id[body_id] = -1
        handle = Body(self, body_id, tuple(shapes), tag, user_data)
        if self._stepping:
            # Inside a presolve handler the step's arrays are in use: add after the step.
            self._deferred.append(("add", handle, record, local, materials))
        else:
            self._insert(handle, record, local, materials)
        return handle

    def _insert(self, handle: Body, record: dict, local, materials: dict) -> None:
        row = self._bodies.count
        record["body_id"] = handle._id
        self._bodies.append(record)
        self._parts.append(local, row, materials)
        self._row_of_id[handle._id] = row
        self._handles.append(handle)
        self._handle_array = None
        self._pose_revision += 1  # the query index must see the new body

    def _apply_deferred(self) -> None:
        """Carry out the adds and removes asked for during the step (by presolve handlers)."""
        deferred, self._deferred = self._deferred, []
        for action, handle, *data in deferred:
            if action == "add":
                self._insert(handle, *data)
            elif action == "add_joint":
                if handle._world is self and self._joint_row(handle) < 0:
                    self._insert_joint(handle)
            elif action == "remove_joint":
                if self._joint_row(handle) >= 0:
                    self._delete_joint(self._joint_row(handle))
            elif action == "change_joint":
                if self._joint_row(handle) >= 0:
                    data[0](self._joint_row(handle))
            elif action == "change":
                if self._row_of(handle) >= 0:
                    data[0](self._row_of(handle))
            elif self._row_of(handle) >= 0:
                self.remove(handle)

    def _queued(self, action: str, handle) -> bool:
        """True when ``action`` ("add", "remove", ...) is queued for ``handle`` this step."""
        return any(entry[0] == action and entry[1] is handle for entry in self._deferred)

    def _holds(self, body: Body) -> bool:
        """True while ``body`` belongs to this world: added (or queued to be added during
        this step) and not removed (nor queued to be removed)."""
        if self._row_of(body) < 0 and not self._queued("add", body):
            return False
        return not (self._deferred and self._queued("remove", body))

    def _change_body(self, body: Body, change) -> None:
        """Run ``change(row)`` on the body's row: now, or when the step ends if one is
        running (a presolve handler), so that the step's write-back cannot undo it.

        Raises ValueError for a body that is removed or queued for removal.
        """
        if not self._holds(body):
            raise ValueError("body: it has been removed from its world")
        if self._stepping or self._row_of(body) < 0:
            self._deferred.append(("change", body, change))
        else:
            change(self._row_of(body))

    def remove(self, body: Body) -> None:
        """Remove a body. Other handles stay valid; removing twice raises ValueError."""
        if not isinstance(body, Body):
            raise TypeError(f"body: expected a Body, got {type(body).__name__}")
        if body._world is not self:
            raise ValueError("body: it belongs to another world")
        row = self._row_of(body)
        pending = [entry[1] for entry in self._deferred]
        if (
            row < 0
            and body not in pending
            or any(action == "remove" and handle is body for action, handle, *_ in self._deferred)
        ):
            raise ValueError("body: it has already been removed")
        if self._stepping or row < 0:
            # Inside a presolve handler, or added during this step: remove after the step.
            self._deferred.append(("remove", body))
            return
        # Bodies resting on the removed one wake up (and fall, if it held them); its
        # joints go with it, and what they held wakes too.
        self._wake_touching(body._id)
        self._wake_rows(row)
        mine = (self._joints.view("body_a") == body._id) | (self._joints.view("body_b") == body._id)
        for joint_row in np.flatnonzero(mine)[::-1]:  # from the back: rows stay valid
            self._delete_joint(int(joint_row))
        part_rows = np.flatnonzero(self._parts.table.view("body") == row)
        self._warm.forget_parts(int(part_rows[0]), len(part_rows))
        self._parts.delete_body(row)
        self._bodies.delete(row)
        self._handles.pop(row)
        self._handle_array = None
        self._row_of_id[body._id] = -1
        self._row_of_id[self._row_of_id > row] -= 1
        self._pose_revision += 1  # the query index must drop the body

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
        joint._id = self._next_joint_id
        self._next_joint_id += 1
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
        self._joint_handles.append(joint)
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
        self._joint_handles.pop(row)

    def _wake_joint(self, row: int) -> None:
        """Wake the bodies of the joint at table ``row``."""
        slots = self._joint_slots()[row]
        self._wake_rows(slots[slots < self._bodies.count])

    @property
    def joints(self) -> list:
        """Every joint, in the order added."""
        return list(self._joint_handles)

    def _joint_row(self, joint: Joint) -> int:
        """The joint's table row, or -1 when it is not in the table."""
        rows = np.flatnonzero(self._joints.view("joint_id") == joint._id)
        return int(rows[0]) if len(rows) else -1

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
            self._joints.view("body_a"), self._joints.view("body_b"), self._row_of_id,
            self._bodies.count,
        )  # fmt: skip

    def _jointed_keys(self) -> np.ndarray:
        """Sorted body-pair keys (K,) of the joints whose bodies must not collide."""
        if self._joints.count == 0:
            return NO_KEYS
        a, b = self._joints.view("body_a"), self._joints.view("body_b")
        keep = ~self._joints.view("collide_connected") & (a != WORLD)
        return np.unique(np.minimum(a, b)[keep] << 32 | np.maximum(a, b)[keep])

    @property
    def bodies(self) -> list:
        """Every body, in the order added."""
        return list(self._handles)

    def _row_of(self, body: Body) -> int:
        return int(self._row_of_id[body._id])

    def _read_body(self, body: Body, field: str):
        """One field of a body's row; for a body queued to be added during this step, the
        value it will be added with. ValueError once the body is removed."""
        row = self._row_of(body)
        if row >= 0:
            return self._bodies.arrays[field][row]
        for action, handle, *data in self._deferred:
            if action == "add" and handle is body:
                return data[0][field]
        raise ValueError("body: it has been removed from its world")

    def _set_body(self, body: Body, field: str, value) -> None:
        """Set one (validated) field of a body: now, or when the step ends (see
        ``_change_body``). A static body's velocity can only be zero."""
        if not self._holds(body):
            raise ValueError("body: it has been removed from its world")
        if field in ("velocity", "angular_velocity") and np.any(np.asarray(value) != 0.0):
            if self._read_body(body, "kind") == KIND_CODES["static"]:
                raise ValueError(f"{field}: a static body cannot move; make it kinematic")
        self._change_body(body, lambda row: self._write_body(row, field, value))

    def _set_material(self, body: Body, name: str, value) -> None:
        """Set the body's (validated) ``name``, one of PART_MATERIALS, and that of every
        part whose shape leaves it unset (a shape's own value wins): now, or when the step
        ends (see ``_change_body``)."""
        owned, _ = own_values(body._shapes, name)

        def change(row: int) -> None:
            self._write_body(row, name, value)
            self._parts.table.arrays[name][self._parts.rows_of(row)][~owned] = value

        self._change_body(body, change)

    def _part_column(self, body: Body, name: str) -> np.ndarray:
        """(S,) the part-table column ``name`` of the body's parts (for a body queued to be
        added during this step, as it will be added). ValueError once the body is removed."""
        row = self._row_of(body)
        if row >= 0:
            return self._parts.table.arrays[name][self._parts.rows_of(row)]
        for action, handle, *data in self._deferred:
            if action == "add" and handle is body:
                return data[2][name]
        raise ValueError("body: it has been removed from its world")

    def _put_to_sleep(self, row: int) -> None:
        """Put the dynamic body at ``row`` to sleep now, alone in a new island."""
        bodies = self._bodies.arrays
        bodies["awake"][row] = False
        bodies["velocity"][row] = 0.0
        bodies["angular_velocity"][row] = 0.0
        bodies["island"][row] = self._next_island
        self._next_island += 1

    def _write_body(self, row: int, field: str, value) -> None:
        # Any change by hand (a move, a new filter or material) wakes the body's island and
        # whatever rests on it: a sleeping island would not notice it.
        self._wake_rows(row)
        self._wake_touching(int(self._bodies.arrays["body_id"][row]))
        changed = field in ("position", "angle") and np.any(
            self._bodies.arrays[field][row] != value
        )
        self._bodies.arrays[field][row] = value
        if changed:
            self._pose_revision += 1  # tells the query index a pose changed outside step

    # -- bulk views -----------------------------------------------------------------------
    def _read_only(self, field: str) -> np.ndarray:
        view = self._bodies.view(field).view()
        view.flags.writeable = False
        return view

    @property
    def positions(self) -> np.ndarray:
        """(N, 2) float64 read-only view of the centres of mass, in the order of ``bodies``."""
        return self._read_only("position")

    @property
    def angles(self) -> np.ndarray:
        """(N,) float64 read-only view of the angles."""
        return self._read_only("angle")

    @property
    def velocities(self) -> np.ndarray:
        """(N, 2) float64 read-only view of the velocities."""
        return self._read_only("velocity")

    @property
    def angular_velocities(self) -> np.ndarray:
        """(N,) float64 read-only view of the angular velocities."""
        return self._read_only("angular_velocity")

    @property
    def masses(self) -> np.ndarray:
        """(N,) float64 read-only view of the masses, kg (inf for static and kinematic)."""
        return self._read_only("mass")

    @property
    def inertias(self) -> np.ndarray:
        """(N,) float64 read-only view of the moments of inertia about the centres of mass,
        kg m^2 (inf for static and kinematic)."""
        return self._read_only("inertia")

    # -- read-outs of the dynamic bodies (see engine.readouts) -----------------------------
    def kinetic_energy(self) -> float:
        """Kinetic energy of the dynamic bodies, J (translation and rotation)."""
        from .readouts import kinetic_energy

        return kinetic_energy(self)

    def potential_energy(self) -> float:
        """Potential energy of the dynamic bodies in the world's gravity, J, zero at the
        origin."""
        from .readouts import potential_energy

        return potential_energy(self)

    def momentum(self) -> np.ndarray:
        """(2,) float64 linear momentum of the dynamic bodies, kg m/s."""
        from .readouts import momentum

        return momentum(self)

    def angular_momentum(self, about=(0.0, 0.0)) -> float:
        """Angular momentum of the dynamic bodies about the point ``about`` (2,), kg m^2/s."""
        from .readouts import angular_momentum

        return angular_momentum(self, about)

    # -- time -----------------------------------------------------------------------------
    def advance(self, seconds: float) -> float:
        """Run as many fixed steps as fit in the time banked so far plus ``seconds``.

        At most ``max_steps_per_advance`` steps run per call: time beyond that is dropped
        so that a slow frame cannot snowball. Returns the leftover fraction of a step in
        [0, 1), for interpolating between the last two states when drawing. A step whose
        handler raises has used its time: the exception propagates and the time of the
        steps not run stays banked for the next call. Raises RuntimeError when called
        from an event handler (or during a step).
        """
        seconds = as_finite_float(seconds, "seconds")
        if seconds < 0.0:
            raise ValueError(f"seconds: must be >= 0, got {seconds}")
        self._refuse_reentry("advance")
        dt = self._dt
        banked = self._accumulator + seconds
        # fmod is exact, so the leftover is always below one step; the count is rounded
        # rather than floored so that rounding in ``banked - leftover`` cannot lose a step.
        leftover = math.fmod(banked, dt)
        whole = (banked - leftover) / dt  # may be huge (or inf for a tiny dt): capped first
        steps = min(self.max_steps_per_advance, round(min(whole, self.max_steps_per_advance)))
        self._running = True
        try:
            for done in range(1, steps + 1):
                # Banked before each step: a handler raising in it leaves the rest banked.
                self._accumulator = leftover + (steps - done) * dt
                self._step_once()
        finally:
            self._running = False
        self._accumulator = leftover
        return leftover / dt

    def step(self, dt=None) -> None:
        """Advance the world by exactly one step of ``dt``, then run the event handlers.

        The step is the world's own fixed ``dt`` (``World(dt=...)``); giving one here
        raises TypeError saying so (``advance(seconds)`` runs the steps that fit in a
        stretch of time).

        Raises RuntimeError when called from an event handler (or during a step): a step
        inside a step would run on arrays the outer one is using, and events would nest.
        """
        if dt is not None:
            raise TypeError(
                f"step: takes no dt (got {dt!r}); the world always steps by its fixed "
                f"dt = {self._dt:g} s, set with World(dt=...); to run a stretch of time, "
                "call advance(seconds)"
            )
        self._refuse_reentry("step")
        self._running = True
        try:
            self._step_once()
        finally:
            self._running = False

    def _refuse_reentry(self, action: str) -> None:
        if self._running or self._stepping:
            raise RuntimeError(
                f"{action}: not possible while the world is stepping (from an event "
                "handler); call it from the game loop, after step() or advance() returned"
            )

    def _step_once(self) -> None:
        self._stepping = True
        try:
            advance_one_step(self)
        finally:
            self._stepping = False
        self._apply_deferred()
        error = self._event_log.take_presolve_error()
        if error is not None:
            raise error
        self._event_log.dispatch()

    def _wake_touching(self, body_id: int) -> None:
        """Wake the islands of the bodies that touched body ``body_id`` in the last step."""
        keys = self._event_log.contact_keys
        ids = np.concatenate(
            [
                keys[(keys >> 32) == body_id] & 0xFFFFFFFF,
                keys[(keys & 0xFFFFFFFF) == body_id] >> 32,
            ]
        )
        touching = self._row_of_id[ids]
        self._wake_rows(touching[touching >= 0])

    def _wake_rows(self, rows) -> None:
        """Wake the islands of the bodies at ``rows`` (an int or (K,) int64)."""
        rows = np.atleast_1d(np.asarray(rows, dtype=np.int64))
        awake = self._bodies.view("awake")
        island = self._bodies.view("island")
        sleeping = rows[~awake[rows]]
        if len(sleeping) == 0:
            return
        woken = ~awake & np.isin(island, island[sleeping])
        awake[woken] = True
        self._bodies.view("sleep_time")[woken] = 0.0

    @property
    def awake(self) -> np.ndarray:
        """(N,) bool read-only view: which bodies are awake (static ones count as awake)."""
        return self._read_only("awake")

    @property
    def kinds(self) -> np.ndarray:
        """(N,) int8 read-only view of the kinds as codes: ``World.KIND_CODES`` names them
        (0 dynamic, 1 static, 2 kinematic)."""
        return self._read_only("kind")

    KIND_CODES = dict(KIND_CODES)
    # Joint kind name -> the code ``joint_arrays().kind`` holds.
    JOINT_KIND_CODES = dict(JOINT_KIND_CODES)

    @property
    def sensors(self) -> np.ndarray:
        """(N,) bool read-only view: which bodies are sensors."""
        return self._read_only("sensor")

    @property
    def body_ids(self) -> np.ndarray:
        """(N,) int64 read-only view of the bodies' stable ids (``body.body_id``),
        increasing: rows keep the order bodies were added in."""
        return self._read_only("body_id")

    @property
    def cell_size(self) -> float | None:
        """The broad phase's grid cell size as given to World() (None: chosen each step)."""
        return self._cell_size

    def index_of(self, body: Body) -> int:
        """The row of ``body`` in the bulk views (its index in ``bodies``), or -1 if it is
        not in this world (removed, or another world's)."""
        if not isinstance(body, Body):
            raise TypeError(f"body: expected a Body, got {type(body).__name__}")
        return self._row_of(body) if body._world is self else -1

    def part_arrays(self) -> PartArrays:
        """Every body's convex parts as read-only arrays (see ``engine.bulk_views``):
        vertices (P, K, 2) in the owners' frames, count (P,), radius (P,), body (P,)."""
        return part_arrays(self._parts)

    def contact_arrays(self) -> ContactArrays:
        """The pairs touching after the last step as arrays (``world.contacts`` as a
        table): rows (C, 2), normal (C, 2), depth, normal_impulse, tangent_impulse (C,),
        points (Q, 2), pair_of_point (Q,). See ``engine.bulk_views``."""
        return self._event_log.contact_arrays(self._row_of_id)

    def joint_arrays(self) -> JointArrays:
        """Every joint as arrays: kind (J,), rows (J, 2) (-1: the world), anchors
        (J, 2, 2) in the bodies' frames, frequency (J,). See ``engine.bulk_views``."""
        return joint_arrays(self._joints, self._joint_slots(), self._bodies.count)

    def _handles_by_row(self) -> np.ndarray:
        """(N,) object array of the Body handles, cached until bodies change."""
        if self._handle_array is None or len(self._handle_array) != len(self._handles):
            array = np.empty(len(self._handles), dtype=object)
            array[:] = self._handles
            self._handle_array = array
        return self._handle_array

    # -- snapshots ------------------------------------------------------------------------
    def snapshot(self):
        """An immutable in-memory copy of everything that decides the future (a Snapshot)."""
        return snapshot_world(self)

    def restore(self, snap) -> None:
        """Return to ``snap``; handles of bodies in it stay usable. A bad one changes nothing."""
        restore_world(self, snap)

    def save(self, path, compress: bool = False) -> None:
        """Write the world to ``path`` (.npz with a JSON header; never pickle). See
        ``engine.snapshot`` for the format."""
        save_world(self, path, compress)

    @staticmethod
    def load(path) -> World:
        """A new World from a file written by ``save``; ValueError names what is wrong."""
        return load_world(path, World)

    __getstate__ = world_getstate
    __setstate__ = world_setstate

    # -- queries --------------------------------------------------------------------------
    def _query_stamp(self) -> tuple:
        """What the query index depends on (``engine.query_index``)."""
        return (self._bodies.count, self._next_id, self._steps, self._pose_revision)

    def _current_index(self) -> QueryIndex:
        """The query index at the current poses, built first if the world changed since."""
        return self._query_index.current(self._query_stamp(), self._bodies, self._parts.table)

    def query_point(self, point) -> list:
        """The bodies whose shapes contain ``point`` (2,) (touching counts), in body order."""
        return query_point(self._current_index(), self._handles_by_row(), point)

    def query_aabb(self, lower, upper) -> list:
        """The bodies whose shapes overlap the box [lower, upper] (each (2,)), exactly."""
        return query_aabb(self._current_index(), self._handles_by_row(), lower, upper)

    def raycast(self, start, end, mask: int = 0xFFFF):
        """The first body the segment start -> end hits (a RayHit: body, point, normal,
        fraction), or None. Only bodies whose category is in ``mask``; sensors are ignored.
        """
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return raycast(self._current_index(), parts, handles, start, end, mask)

    def raycast_all(self, start, end, mask: int = 0xFFFF) -> list:
        """Every body the segment hits (first hit per body), nearest first."""
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return raycast_all(self._current_index(), parts, handles, start, end, mask)

    def raycast_many(self, starts, ends, mask: int = 0xFFFF):
        """R rays at once: starts, ends (R, 2). Returns RayHits arrays (body_row -1: no hit)."""
        return raycast_many(self._current_index(), self._parts.table.columns(), starts, ends, mask)

    def shape_cast(self, shape, pose, motion, mask: int = 0xFFFF):
        """The first body ``shape`` at ``pose`` (3,) would hit when swept by ``motion`` (2,):
        a ShapeHit (body, toi as a fraction of the motion, normal, point) or None."""
        parts, handles = self._parts.table.columns(), self._handles_by_row()
        return shape_cast(self._current_index(), parts, handles, shape, pose, motion, mask)

    def move_and_slide(self, body, motion, max_slides: int = 4, floor_angle=None):
        """Move ``body`` by ``motion`` (2,), stopping at contacts and sliding along them.

        Returns a SlideResult (position, contacts, on_floor). See engine.character.
        """
        row = check_body(self, body)
        index, parts, handles = self._current_index(), self._parts.table, self._handles_by_row()
        result, moved = move_and_slide(
            index, parts.columns(), self._bodies.columns(), handles, row, motion, max_slides,
            floor_angle, self._units_per_meter,
        )  # fmt: skip
        if moved:
            body.position = result.position  # validated like any write: raises, or is made
            self._query_index.patch(index, row, self._bodies, self._query_stamp())
        return result

    # -- events (engine.event_log) --------------------------------------------------------
    def on(self, event: str, handler=None, *, between=None):
        """Register ``handler(subject)`` for an event; usable as a decorator.

        Events: "contact_begin", "contact_persist", "contact_end" (subject: Contact),
        "sensor_begin", "sensor_end" (subject: SensorOverlap), and "presolve" (subject:
        Contact; return False to ignore that contact for this step). Handlers run after
        the step, in the order registered; presolve runs inside it, before the solve.

        between: (tag_a, tag_b), two body tags: the handler sees only those pairs, a
        contact with ``body_a`` the body tagged ``tag_a`` (its normal turned to match).
        """
        return self._event_log.on(event, handler, between=between)

    def off(self, event: str, handler, *, between=None) -> None:
        """Unregister a handler added with ``on`` (with the same ``between``, if any): the
        earliest such registration goes."""
        self._event_log.off(event, handler, between=between)

    @property
    def contacts(self) -> list:
        """The Contact of each body pair touching after the last step."""
        return self._event_log.contacts

    @property
    def events(self) -> list:
        """The Events of the last step, for code that polls instead of registering handlers."""
        return self._event_log.events


# What a world without joints has, made once.
NO_SLOTS = np.zeros((0, 2), dtype=np.int64)
NO_KEYS = np.zeros(0, dtype=np.int64)


def _check_broadphase(value) -> str:
    if value not in ("grid", "quadtree"):
        raise ValueError(f"broadphase: must be 'grid' or 'quadtree', got {value!r}")
    return value


def _check_sleep_threshold(value) -> float:
    """A body's own sleep threshold: a positive speed, or None (stored as 0: the world's)."""
    return 0.0 if value is None else as_positive_float(value, "sleep_threshold")


def _check_count(value, argument: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    if value < least:
        raise ValueError(f"{argument}: must be >= {least}, got {value}")
    return int(value)


def _check_shapes(shapes) -> list:
    if isinstance(shapes, Shape):
        return [shapes]
    if isinstance(shapes, (list, tuple)):
        if not shapes:
            raise ValueError("shapes: a body needs at least one shape")
        for shape in shapes:
            if not isinstance(shape, Shape):
                raise TypeError(f"shapes: expected shapes, got {type(shape).__name__}")
        return list(shapes)
    raise TypeError(f"shapes: expected a shape or a list of shapes, got {type(shapes).__name__}")
