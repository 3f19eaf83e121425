"""``WorldBatch``: many copies of one World, stepped together in one compiled call.

Experiments and agents run the same small world thousands of times with different
inputs. Stepped one World at a time from Python, each copy pays the step's fixed cost;
here the copies' states are arrays with a leading copy axis, and ``step`` hands them all
to one compiled call that spreads the copies over the machine's cores
(``engine.batch_step``). Each copy steps exactly as the same World stepped alone would,
bit for bit, whichever thread steps it.

The copies hold the same bodies, shapes and joints in the same rows (``world.bodies``'
order); they differ in their state (poses, velocities, sleep, joint impulses) and in the
settings an experiment varies (gravity). Event handlers do not run in a batch, and a
world with presolve handlers (which decide the physics) is refused.
"""

from __future__ import annotations

import copy as copying

import numpy as np
from numba import typed

from .batch_checks import (
    bool_array,
    check_lengths,
    check_sizes,
    copy_count,
    real_array,
)
from .batch_file import load_batch, save_batch
from .batch_queries import raycast_copies
from .batch_step import gathered_events, reset_kept, step_copies, touching_flags
from .batch_wake import wake_for_writes, write_awake
from .body import Body
from .body_forces import LARGEST
from .body_store import DYNAMIC, KIND_CODES
from .body_template import template
from .candidate_pairs import pair_key
from .contact_manifolds import no_manifold_columns
from .joint_store import PRISMATIC, REVOLUTE
from .materials import check_friction, check_restitution
from .packing import widen
from .queries import check_mask
from .raycast import RayHits
from .resting_parts import empty_grid
from .settings import (
    FLIP_SLOPS,
    MAX_ANGULAR_SPEED,
    MAX_COORDINATE,
    MAX_GRAVITY,
    MAX_SPEED,
    SPECULATIVE_SLOPS,
)
from .solver_inputs import SOLVER_JOINT_FIELDS
from .step import METHOD_CODES, solve_settings
from .step_inputs import SOLVE_BODY_FIELDS

STATIC = KIND_CODES["static"]
# A copy's contact events when nothing began or ended: (began keys, impulses, ended keys).
NO_EVENTS = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))
# The limit columns: batch attribute -> joint column.
LIMITS = {"lower_limits": "lower", "upper_limits": "upper"}
# The writable body columns: attribute -> (column, what a handle calls it, limit, unit).
STATE = {
    "positions": ("position", "position", MAX_COORDINATE, "m"),
    "angles": ("angle", "angle", None, None),
    "velocities": ("velocity", "velocity", MAX_SPEED, "m/s"),
    "angular_velocities": ("angular_velocity", "angular_velocity", MAX_ANGULAR_SPEED, "rad/s"),
}  # fmt: skip


class WorldBatch:
    """``copies`` independent copies of ``world`` (its bodies, shapes, joints, settings and
    state as they are now), stepped together by ``step``.

    The world is copied, so changing it afterwards changes no copy. State reads as arrays
    with a leading copy axis, C copies of N bodies in ``world.bodies``' order:
    ``positions`` (C, N, 2) (centres of mass), ``angles`` (C, N), ``velocities`` (C, N, 2),
    ``angular_velocities`` (C, N), ``awake`` (C, N), ``gravity`` (C, 2). Each is a
    ``BatchColumn``: index it like a numpy array to read (read-only) or to write; a write
    is checked as a handle's would be (with its messages) and wakes what the handle's
    write wakes, and a refused write changes nothing.

    TypeError for a world that is not a World or copies that is not an int; ValueError
    for copies below 1, a world with presolve handlers (they must run inside the step,
    in Python), or a world that is stepping.
    """

    def __init__(self, world, copies):
        from .world import World

        if not isinstance(world, World):
            raise TypeError(f"world: expected a World, got {type(world).__name__}")
        count = copy_count(copies)
        if world._stepping or world._running:
            raise ValueError("world: it is stepping; make the batch between steps")
        if world._event_log.handlers["presolve"]:
            raise ValueError(
                "world: it has presolve handlers, which decide the physics inside the step "
                "and cannot run in a batch; remove them (world.off) first"
            )
        template = copying.deepcopy(world)
        self._template = template
        self._copies = count
        self._steps = np.full(count, template._clock.steps, dtype=np.int64)
        inputs = template._step_inputs.current(template)
        self._inputs = inputs
        self._body = {
            name: _stacked(column, count)
            for name, column in zip(SOLVE_BODY_FIELDS, inputs.solve_body)
        }
        part = inputs.part
        # The parts' geometry, per copy: a static body may take other shapes in a copy.
        self._vertices = _stacked(inputs.table[0], count)
        self._normals = _stacked(inputs.table[1], count)
        self._reach = _stacked(inputs.table[4], count)
        self._reshaped = {}  # (copy, row) -> (shapes, origin_offset) of reshaped bodies
        self._friction = _stacked(part["friction"], count)
        self._restitution = _stacked(part["restitution"], count)
        self._gravity = _stacked(template._gravity, count)
        self._joints = {
            name: _stacked(column, count)
            for name, column in zip(SOLVER_JOINT_FIELDS, inputs.joints)
        }
        self._joint_rows = tuple(_stacked(room, count) for room in inputs.joint_rows)
        self._next_island = np.full(count, template._bodies.next_island, dtype=np.int64)
        self._start = self._kept_state()
        self._grids, self._grid_valid, self._resting, self._warms, self._touching = (
            self._start_lists(count)
        )
        self._events = typed.List([NO_EVENTS] * count) if count else typed.List()
        # The settings every copy shares, as ``engine.step.advance_one_step`` gives them.
        slop = template._linear_slop
        self._detect_settings = (
            template._dt, SPECULATIVE_SLOPS * slop, FLIP_SLOPS * slop, slop,
            float(METHOD_CODES[template._broadphase]), float(template._cell_size or 0.0),
        )  # fmt: skip
        self._solve_settings = solve_settings(template)
        self._sleep = (
            float(template.sleep), float(template._sleep_threshold),
            float(template._time_to_sleep),
        )  # fmt: skip
        self._columns = {}

    # -- what the batch is -----------------------------------------------------------------
    @property
    def copies(self) -> int:
        """How many copies the batch steps."""
        return self._copies

    @property
    def body_count(self) -> int:
        """N, the bodies in each copy."""
        return len(self._inputs.solve_body[0])

    @property
    def steps(self) -> np.ndarray:
        """(C,) int64 read-only: the steps each copy has taken since its world began (a
        reset copy counts from the template's)."""
        view = self._steps.view()
        view.flags.writeable = False
        return view

    @property
    def dt(self) -> float:
        """The fixed step, s (the template world's)."""
        return self._template._dt

    def index_of(self, body) -> int:
        """The row of ``body`` (a Body of the world the batch was made from, or its row):
        its index along the batch's body axis."""
        if isinstance(body, Body):
            ids = self._template._bodies.row_of_id
            row = int(ids[body._id]) if body._id < len(ids) else -1
            if row < 0 or self._template._bodies.columns()["body_id"][row] != body._id:
                raise ValueError("body: not a body of the world this batch was made from")
            return row
        if isinstance(body, (bool, np.bool_)) or not isinstance(body, (int, np.integer)):
            raise TypeError(f"body: expected a Body or a row (int), got {type(body).__name__}")
        if not 0 <= body < self.body_count:
            raise ValueError(f"body: row {body} is out of range [0, {self.body_count})")
        return int(body)

    # -- stepping --------------------------------------------------------------------------
    def step(self, steps: int = 1) -> None:
        """Advance every copy by ``steps`` steps of ``dt`` (one compiled call a step)."""
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
            raise TypeError(f"steps: expected an int, got {type(steps).__name__}")
        if steps < 0:
            raise ValueError(f"steps: must be at least 0, got {steps}")
        inputs = self._inputs
        body = tuple(self._body[name] for name in SOLVE_BODY_FIELDS)
        joints = tuple(self._joints[name] for name in SOLVER_JOINT_FIELDS)
        owner, sensor = inputs.part_columns[0], inputs.part_columns[1]
        shapes = (self._vertices, self._normals, inputs.table[2], inputs.table[3], self._reach)
        for _ in range(steps):
            step_copies(
                body, self._gravity, shapes, owner, sensor, self._friction, self._restitution,
                inputs.filters, inputs.slots, joints, self._joint_rows, self._grids,
                self._grid_valid, self._resting, self._warms, self._touching, self._events,
                self._next_island, self._steps, self._detect_settings, self._solve_settings,
                self._sleep,
            )  # fmt: skip

    # -- state -----------------------------------------------------------------------------
    def _column(self, name: str) -> BatchColumn:
        column = self._columns.get(name)
        if column is None:
            column = self._columns[name] = BatchColumn(self, name)
        return column

    positions = property(
        lambda self: self._column("positions"),
        lambda self, value: self._column("positions").__setitem__(Ellipsis, value),
        doc="(C, N, 2) centres of mass, m (a ``BatchColumn``).",
    )
    angles = property(
        lambda self: self._column("angles"),
        lambda self, value: self._column("angles").__setitem__(Ellipsis, value),
        doc="(C, N) angles, rad (a ``BatchColumn``).",
    )
    velocities = property(
        lambda self: self._column("velocities"),
        lambda self, value: self._column("velocities").__setitem__(Ellipsis, value),
        doc="(C, N, 2) velocities of the centres of mass, m/s (a ``BatchColumn``).",
    )
    angular_velocities = property(
        lambda self: self._column("angular_velocities"),
        lambda self, value: self._column("angular_velocities").__setitem__(Ellipsis, value),
        doc="(C, N) angular velocities, rad/s (a ``BatchColumn``).",
    )
    awake = property(
        lambda self: self._column("awake"),
        lambda self, value: self._column("awake").__setitem__(Ellipsis, value),
        doc="(C, N) bool, False while a body sleeps (a ``BatchColumn``; True wakes its "
        "island, False puts a dynamic body to sleep).",
    )
    motor_speeds = property(
        lambda self: self._column("motor_speeds"),
        lambda self, value: self._column("motor_speeds").__setitem__(Ellipsis, value),
        doc="(C, J) each joint's motor speed, rad/s (m/s for a prismatic joint), in the "
        "order of ``world.joints`` (a ``BatchColumn``; a write wakes the joint's bodies).",
    )
    lower_limits = property(
        lambda self: self._column("lower_limits"),
        lambda self, value: self._column("lower_limits").__setitem__(Ellipsis, value),
        doc="(C, J) each joint's lower limit, rad (m for a prismatic joint), -inf for none "
        "(a ``BatchColumn``; revolute and prismatic joints only, never past the upper).",
    )
    upper_limits = property(
        lambda self: self._column("upper_limits"),
        lambda self, value: self._column("upper_limits").__setitem__(Ellipsis, value),
        doc="(C, J) each joint's upper limit, rad (m for a prismatic joint), +inf for none "
        "(a ``BatchColumn``; revolute and prismatic joints only, never past the lower).",
    )
    gravity = property(
        lambda self: self._column("gravity"),
        lambda self, value: self._column("gravity").__setitem__(Ellipsis, value),
        doc="(C, 2) each copy's gravity, m/s^2 (a ``BatchColumn``).",
    )

    def _array(self, name: str) -> np.ndarray:
        if name == "gravity":
            return self._gravity
        if name == "motor_speeds":
            return self._joints["motor_speed"]
        if name in LIMITS:
            return self._joints[LIMITS[name]]
        if name == "awake":
            return self._body["awake"]
        return self._body[STATE[name][0]]

    def _write(self, name: str, key, value) -> None:
        """Check ``value`` for ``column[key]``, write it, and wake what it wakes."""
        array = self._array(name)
        copies, rows = self._cells(array, key)
        if name == "awake":
            values = bool_array(value, name, array[key].shape)
            self._write_awake(key, values, copies, rows)
            return
        if name == "motor_speeds":
            self._write_motor_speeds(key, value, copies, rows)
            return
        if name in LIMITS:
            self._write_limits(name, key, value, copies, rows)
            return
        if name == "gravity":
            trial = array.copy()
            trial[key] = real_array(value, name, array[key].shape)
            check_lengths(trial[copies], name, MAX_GRAVITY, "m/s^2")
            array[copies] = trial[copies]
            return
        self._commit(name, copies, rows, self._checked(name, key, value, copies, rows))

    def _checked(self, name: str, key, value, copies, rows) -> np.ndarray:
        """The body cells (copies, rows) of state column ``name`` once ``value`` is written
        at ``key``, (K, ...), checked as a handle checks its write (nothing written)."""
        array = self._array(name)
        trial = array.copy()
        trial[key] = real_array(value, name, array[key].shape)
        field, _, limit, unit = STATE[name]
        new = trial[copies, rows]
        if limit is not None:
            (check_lengths if new.ndim == 2 else check_sizes)(new, name, limit, unit)
        static = self._inputs.body["kind"][rows] == STATIC
        if field in ("velocity", "angular_velocity") and np.any(new[static] != 0.0):
            raise ValueError(f"{name}: a static body cannot move; make it kinematic")
        return new

    def _commit(self, name: str, copies, rows, new) -> None:
        """Write checked values into the body cells (copies, rows), waking what a handle's
        write wakes; a static body moved makes its copy find its resting parts again."""
        array = self._array(name)
        field = STATE[name][0]
        self._wake(copies, rows, touching_too=True)
        if field in ("position", "angle"):
            moved = np.any((new != array[copies, rows]).reshape(len(rows), -1), axis=1)
            static = self._inputs.body["kind"][rows] == STATIC
            self._grid_valid[copies[moved & static]] = False
        array[copies, rows] = new

    def _write_motor_speeds(self, key, value, copies, joints) -> None:
        """Check and write motor speeds at (copies, joints), waking each joint's bodies as
        a joint handle's write does."""
        array = self._joints["motor_speed"]
        trial = array.copy()
        trial[key] = real_array(value, "motor_speed", array[key].shape)
        new = trial[copies, joints]
        linear = self._inputs.joints[0][joints] == PRISMATIC
        check_sizes(new[linear], "motor_speed", MAX_SPEED, "m/s")
        check_sizes(new[~linear], "motor_speed", MAX_ANGULAR_SPEED, "rad/s")
        self._wake_joints(copies, joints)
        array[copies, joints] = new

    def _write_limits(self, name: str, key, value, copies, joints) -> None:
        """Check and write joint limits at (copies, joints) as a joint handle's ``lower``
        or ``upper`` write does (a missing limit is -inf or +inf here), waking the
        joint's bodies."""
        side = LIMITS[name]
        array = self._joints[side]
        lower = side == "lower"
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{side}: expected real numbers, got {type(value).__name__}")
        given = np.asarray(value, dtype=np.float64) if not isinstance(value, str) else value
        if isinstance(given, str) or np.isnan(given).any():
            raise ValueError(f"{side}: expected numbers (inf for no limit), got {value!r}")
        # No limit is -inf below, +inf above (a handle's None); the other infinity is not one.
        if (given == (np.inf if lower else -np.inf)).any():
            raise ValueError(f"{side}: must be finite or {'-' if lower else '+'}inf (no limit)")
        trial = array.copy()
        try:
            trial[key] = np.broadcast_to(given, array[key].shape)
        except ValueError:
            raise ValueError(
                f"{side}: expected values of shape {array[key].shape}, got {given.shape}"
            ) from None
        new = trial[copies, joints]
        kinds = self._inputs.joints[0][joints]
        without = ~np.isin(kinds, (REVOLUTE, PRISMATIC))
        if without.any():
            raise ValueError(
                f"{side}: joint {int(joints[without][0])} has no limits (revolute and "
                "prismatic joints have them)"
            )
        other = self._joints["upper" if lower else "lower"][copies, joints]
        wrong = new > other if lower else new < other
        if wrong.any():
            at = int(np.flatnonzero(wrong)[0])
            relation, other_name = ("<=", "upper") if lower else (">=", "lower")
            raise ValueError(
                f"{side}: must be {relation} {other_name} ({other[at]}), got {new[at]}"
            )
        self._wake_joints(copies, joints)
        array[copies, joints] = new

    def _wake_joints(self, copies, joints) -> None:
        """Wake the bodies of the joints at (copies, joints) (K,) each."""
        slots = self._inputs.slots[joints]
        for side in (0, 1):
            bodies = slots[:, side]
            real = bodies < self.body_count  # a joint to the world has the world's slot
            self._wake(copies[real], bodies[real], touching_too=False)

    def set_material(self, body, name: str, values, copies=None) -> None:
        """Set ``body``'s ``friction`` or ``restitution`` in the chosen copies (a (C,)
        bool mask, indices, or None for all) to values (C,), as ``body.friction = ...``
        does in each: its shapes that set none of their own take it, and what it touched
        wakes. The other copies' values are not read."""
        if name not in ("friction", "restitution"):
            raise ValueError(f"name: 'friction' or 'restitution', got {name!r}")
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        given = real_array(values, name, (self._copies,))[chosen]
        check = check_friction if name == "friction" else check_restitution
        for value in np.unique(given):
            check(float(value), name)
        run = self._template._parts.rows_of(row)
        owned = template(self._template.bodies[row].shapes).owned[name]
        parts = np.arange(run.start, run.stop)[~np.asarray(owned, dtype=bool)]
        self._wake(chosen, np.full(len(chosen), row), touching_too=True)
        column = self._friction if name == "friction" else self._restitution
        column[np.ix_(chosen, parts)] = given[:, None]

    def _write_awake(self, key, values, copies, rows) -> None:
        chosen = np.zeros(self._body["awake"].shape, dtype=np.bool_)
        chosen[key] = values
        asked = chosen[copies, rows]
        kind = self._inputs.body["kind"]
        if np.any(~asked & (kind[rows] != DYNAMIC)):
            raise ValueError("awake: only dynamic bodies sleep")
        body = self._body
        write_awake(
            copies, rows, asked, kind, body["awake"], body["velocity"],
            body["angular_velocity"], body["island"], body["sleep_time"], self._next_island,
            DYNAMIC,
        )  # fmt: skip
        # A body put to sleep may have moved since it last rested: its contacts are found again.
        self._grid_valid[copies[~asked]] = False

    def _cells(self, array: np.ndarray, key) -> tuple:
        """The (copy, row) cells ``array[key]`` touches, in order: (K,) int64 each (rows
        are all zero for a per-copy array such as gravity)."""
        if array is self._gravity:
            ids = np.arange(self._copies)
            copies = np.unique(np.broadcast_to(ids[:, None], array.shape)[key])
            return copies, np.zeros(len(copies), dtype=np.int64)
        count = array.shape[1]
        ids = np.arange(self._copies * count).reshape(self._copies, count)
        ids = ids.reshape(ids.shape + (1,) * (array.ndim - 2))
        cells = np.unique(np.broadcast_to(ids, array.shape)[key])
        return cells // count, cells % count

    def _wake(self, copies, rows, touching_too: bool) -> None:
        body = self._body
        template = self._template
        wake_for_writes(
            copies, rows, touching_too, body["awake"], body["island"], body["sleep_time"],
            self._touching, self._inputs.body["body_id"], template._bodies.row_of_id,
        )  # fmt: skip

    # -- forces and impulses ---------------------------------------------------------------
    def apply_impulse(self, body, impulses, points=None, copies=None) -> None:
        """Change ``body``'s momentum now in the chosen copies (a (C,) bool mask, indices,
        or None for all) by impulses (C, 2), N s, at world points (C, 2), m (default: the
        centre of mass), as ``Body.apply_impulse`` does in each (static and kinematic
        bodies are not affected); the other copies' rows of impulses and points are not
        read."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        impulse = real_array(impulses, "impulse", (self._copies, 2))[chosen]
        check_lengths(impulse, "impulse", LARGEST, "N s")
        cells = self._body
        angular = np.zeros(len(chosen))
        if points is not None:
            point = real_array(points, "point", (self._copies, 2))[chosen]
            check_lengths(point, "point", MAX_COORDINATE, "m")
            position = cells["position"][chosen, row]
            angular = (point[:, 0] - position[:, 0]) * impulse[:, 1] - (
                point[:, 1] - position[:, 1]
            ) * impulse[:, 0]
        if self._inputs.body["kind"][row] != DYNAMIC:
            return
        inv_mass = cells["inv_mass"][chosen, row]
        velocity = cells["velocity"][chosen, row]
        vx = velocity[:, 0] + impulse[:, 0] * inv_mass
        vy = velocity[:, 1] + impulse[:, 1] * inv_mass
        spin = cells["angular_velocity"][chosen, row] + angular * cells["inv_inertia"][chosen, row]
        check_lengths(np.stack([vx, vy], axis=1), "impulse", MAX_SPEED, "m/s of resulting speed")
        check_sizes(spin, "point", MAX_ANGULAR_SPEED, "rad/s of resulting spin")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["velocity"][chosen, row, 0] = vx
        cells["velocity"][chosen, row, 1] = vy
        cells["angular_velocity"][chosen, row] = spin

    def apply_force(self, body, forces, points=None, copies=None) -> None:
        """Add forces (C, 2), N, to ``body`` for the next step in the chosen copies (a (C,)
        bool mask, indices, or None for all), at world points (C, 2), m (default: the
        centre of mass), as ``Body.apply_force`` does in each."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        force = real_array(forces, "force", (self._copies, 2))[chosen]
        check_lengths(force, "force", LARGEST, "N")
        cells = self._body
        torque = np.zeros(len(chosen))
        if points is not None:
            point = real_array(points, "point", (self._copies, 2))[chosen]
            check_lengths(point, "point", MAX_COORDINATE, "m")
            position = cells["position"][chosen, row]
            torque = (point[:, 0] - position[:, 0]) * force[:, 1] - (
                point[:, 1] - position[:, 1]
            ) * force[:, 0]
        total = cells["force"][chosen, row] + force
        total_torque = cells["torque"][chosen, row] + torque
        dt = self._template._dt
        gain = np.hypot(total[:, 0], total[:, 1]) * cells["inv_mass"][chosen, row] * dt
        check_sizes(gain, "force", MAX_SPEED, "m/s of speed gained in a step")
        spin = np.abs(total_torque) * cells["inv_inertia"][chosen, row] * dt
        check_sizes(spin, "point", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["force"][chosen, row] = total
        cells["torque"][chosen, row] = total_torque

    def apply_torque(self, body, torques, copies=None) -> None:
        """Add torques (C,), N m, to ``body`` for the next step in the chosen copies (a (C,)
        bool mask, indices, or None for all), as ``Body.apply_torque`` does in each."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        torque = real_array(torques, "torque", (self._copies,))[chosen]
        cells = self._body
        total = cells["torque"][chosen, row] + torque
        spin = np.abs(total) * cells["inv_inertia"][chosen, row] * self._template._dt
        check_sizes(spin, "torque", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["torque"][chosen, row] = total

    # -- shapes and contacts per copy ------------------------------------------------------
    def reshape(self, body, shapes, copies=None) -> None:
        """Give a static ``body`` other ``shapes`` in the chosen copies (a (C,) bool mask,
        indices, or None for all): terrain that differs from copy to copy.

        The new shapes are given in the body's frame, as ``origin="local"`` takes them: its
        origin at ``position`` as the body's handle reads it (the frame's origin for a body
        added with ``origin="local"``, else its centre of mass), turned by its ``angle``.
        They must make the same parts as the body's shapes do: as many, each of the same
        kind (vertex count and radius), so that the copies keep one layout. ValueError
        otherwise, or for a body that is not static; the copies find their resting
        contacts again.
        """
        from .world import World

        row = self.index_of(body)
        template = self._template
        handle = template.bodies[row]
        if handle.kind != "static":
            raise ValueError(
                f"body: only a static body can take other shapes, not a {handle.kind} one"
            )
        chosen = self._chosen(copies)
        probe = World()
        made = probe.add_body(
            shapes, kind="static", position=tuple(handle.position), angle=handle.angle,
            origin="local",
        )  # fmt: skip
        run = template._parts.rows_of(row)
        parts = np.arange(run.start, run.stop)
        packed = probe._parts.packed()
        width = self._vertices.shape[2]
        count, radius = self._inputs.table[2][parts], self._inputs.table[3][parts]
        if len(packed.count) != len(count) or not (
            np.array_equal(packed.count, count) and np.array_equal(packed.radius, radius)
        ):
            raise ValueError(
                f"shapes: they make {len(packed.count)} parts of vertex counts "
                f"{packed.count.tolist()}, where the body has {len(count)} of "
                f"{count.tolist()} (with the same radii): a batch's copies share one layout"
            )
        if packed.width > width:
            raise ValueError(
                f"shapes: a part of {packed.width} vertex slots, more than the batch's {width}"
            )
        packed = widen(packed, width)
        probe_body = probe._bodies.columns()
        indices = np.flatnonzero(chosen)
        for name in ("position", "angle", "reach", "thickness"):
            self._body[name][indices, row] = probe_body[name][0]
        self._vertices[np.ix_(indices, parts)] = packed.vertices
        self._normals[np.ix_(indices, parts)] = packed.normals
        self._reach[np.ix_(indices, parts)] = probe._parts.table.view("reach")
        self._grid_valid[indices] = False
        kept = (made.shapes, probe_body["origin_offset"][0].copy())
        for index in indices:
            self._reshaped[(int(index), row)] = kept

    def contact_events(self) -> tuple:
        """The last step's contact begin and end in every copy, as arrays (the
        ``contact_begin`` and ``contact_end`` events a World of each copy reports):
        ((copies (B,) int64, rows (B, 2) int64, impulses (B,)), (copies (E,), rows (E,
        2))). rows: the pair's two bodies, the one of lower body id first; impulses: the
        normal impulse of the step the pair began touching, N s (``Contact``'s)."""
        (began_copy, began, impulses), (ended_copy, ended) = gathered_events(self._events)
        return (began_copy, self._pair_rows(began), impulses), (ended_copy, self._pair_rows(ended))

    def _pair_rows(self, keys: np.ndarray) -> np.ndarray:
        """(K, 2) int64 body rows of body-pair keys (K,)."""
        row_of_id = self._template._bodies.row_of_id
        return np.column_stack([row_of_id[keys >> 32], row_of_id[keys & 0xFFFFFFFF]]).astype(
            np.int64
        )

    def raycast_many(self, starts, ends, mask: int = 0xFFFF) -> RayHits:
        """R rays in each copy at once (a lidar per copy): starts, ends (C, R, 2). Returns
        RayHits of (C, R) arrays: body_row (-1: no hit), fraction, point and normal (C, R,
        2) (NaN: no hit), each copy's as ``world.raycast_many`` gives them in a World of
        that copy. ValueError for a ray whose end is its start."""
        count = self._copies
        starts = np.ascontiguousarray(real_array(starts, "starts", np.shape(starts)))
        if starts.ndim != 3 or starts.shape[0] != count or starts.shape[2] != 2:
            raise ValueError(f"starts: expected ({count}, R, 2), got {starts.shape}")
        ends = np.ascontiguousarray(real_array(ends, "ends", starts.shape))
        if np.any(np.all(starts == ends, axis=2)):
            raise ValueError(
                "ends: every ray needs end != start (a zero-length ray has no direction)"
            )
        mask = check_mask(mask)
        part = self._inputs.part
        hits = raycast_copies(
            self._body["position"], self._body["angle"], part["body"], self._vertices,
            self._normals, self._inputs.table[2], self._inputs.table[3], self._reach,
            part["category"], part["sensor"], mask, starts, ends,
        )  # fmt: skip
        return RayHits(*hits)

    def touching(self, pairs) -> np.ndarray:
        """(C, K) bool: whether each of the body pairs (K, 2) (Bodies of the template world
        or rows) touched in each copy after its last step, as ``world.contacts`` lists a
        touching pair."""
        pairs = np.asarray(pairs, dtype=object)
        if pairs.ndim != 2 or pairs.shape[1] != 2:
            raise ValueError(f"pairs: expected K pairs of bodies (K, 2), got shape {pairs.shape}")
        ids = self._inputs.body["body_id"]
        keys = np.array(
            [pair_key(int(ids[self.index_of(a)]), int(ids[self.index_of(b)])) for a, b in pairs],
            dtype=np.int64,
        )
        return touching_flags(self._touching, keys.reshape(-1))

    # -- files -----------------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the batch to ``path`` (a path or a binary file object): the template world
        and every copy's state (``engine.batch_file``)."""
        save_batch(self, path)

    @staticmethod
    def load(path) -> WorldBatch:
        """A new batch from a file ``save`` wrote; it steps on as the saved batch would.
        ValueError naming the file and the problem for anything inconsistent."""
        return load_batch(path, WorldBatch)

    # -- copies as Worlds, and back to the start -------------------------------------------
    def world(self, index: int):
        """Copy ``index`` as an ordinary World (a new one: drawing, saving, stepping it
        changes nothing here). Stepped alone it goes on as the copy would."""
        index = self._copy_index(index)
        world = copying.deepcopy(self._template)
        bodies = world._bodies.columns()
        for name in SOLVE_BODY_FIELDS:
            bodies[name][...] = self._body[name][index]
        joints = world._joints.columns()
        for name in SOLVER_JOINT_FIELDS:
            joints[name][...] = self._joints[name][index]
        parts = world._parts.table.columns()
        parts["friction"][...] = self._friction[index]
        parts["restitution"][...] = self._restitution[index]
        world._gravity = self._gravity[index].copy()
        world._bodies.next_island = int(self._next_island[index])
        world._bodies.sleep_changed()
        keys, normal, tangent = self._warms[index]
        world._warm.keys, world._warm.normal, world._warm.tangent = (
            keys.copy(), normal.copy(), tangent.copy(),
        )  # fmt: skip
        world._event_log.contact_keys = self._touching[index].copy()
        world._clock.steps = int(self._steps[index])
        parts["vertices"][...] = self._vertices[index]
        parts["normals"][...] = self._normals[index]
        parts["reach"][...] = self._reach[index]
        for (copy, row), (shapes, offset) in self._reshaped.items():
            if copy == index:
                world.bodies[row]._shapes = shapes
                world._bodies.columns()["origin_offset"][row] = offset
        world._clock.pose_revision += 1
        world._resting_parts.invalidate()
        return world

    def reset(self, copies=None, state=None) -> None:
        """Put the chosen copies (a (C,) bool mask, indices, or None for all) back to the
        state the batch began with; the others are untouched.

        state: None, or a dict giving some of ``positions``, ``angles``, ``velocities``
        and ``angular_velocities`` for the chosen copies instead ((K, N, ...) for K
        chosen copies, or anything that broadcasts to it), checked as writes are (nothing
        changes if one is refused).
        """
        chosen = self._chosen(copies)
        indices = np.flatnonzero(chosen)
        given = {} if state is None else state
        if not isinstance(given, dict):
            raise TypeError(f"state: expected a dict of state arrays, got {type(state).__name__}")
        unknown = sorted(set(given) - set(STATE))
        if unknown:
            raise ValueError(
                f"state: no state column {unknown[0]!r}; the columns are {', '.join(STATE)}"
            )
        cells = {}
        for name, value in given.items():
            copies_of, rows = self._cells(self._array(name), (indices,))
            cells[name] = (copies_of, rows, self._checked(name, (indices,), value, copies_of, rows))
        start = self._start
        for name, column in self._body.items():
            column[chosen] = start["body"][name]
        for name, column in self._joints.items():
            column[chosen] = start["joints"][name]
        self._friction[chosen] = start["friction"]
        self._restitution[chosen] = start["restitution"]
        self._gravity[chosen] = start["gravity"]
        self._next_island[chosen] = start["next_island"]
        self._steps[chosen] = start["steps"]
        self._vertices[chosen] = start["vertices"]
        self._normals[chosen] = start["normals"]
        self._reach[chosen] = start["reach"]
        self._reshaped = {key: value for key, value in self._reshaped.items() if not chosen[key[0]]}
        reset_kept(
            np.flatnonzero(chosen), self._grids, self._resting, self._warms, self._touching,
            self._events, start["grid"], start["resting"], start["warm"], start["touching"],
            NO_EVENTS,
        )  # fmt: skip
        self._grid_valid[chosen] = False
        for name, (copies_of, rows, new) in cells.items():
            self._commit(name, copies_of, rows, new)

    def _chosen(self, copies) -> np.ndarray:
        """(C,) bool of the copies named by a mask, indices or None (all)."""
        if copies is None:
            return np.ones(self._copies, dtype=np.bool_)
        array = np.asarray(copies)
        if array.dtype == np.bool_:
            if array.shape != (self._copies,):
                raise ValueError(
                    f"copies: a mask must have shape ({self._copies},), got {array.shape}"
                )
            return array.copy()
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"copies: expected a bool mask or int indices, got {array.dtype}")
        bad = (array < -self._copies) | (array >= self._copies)
        if np.any(bad):
            raise ValueError(
                f"copies: index {array[bad].flat[0]} is out of range for {self._copies} copies"
            )
        chosen = np.zeros(self._copies, dtype=np.bool_)
        chosen[array] = True
        return chosen

    def _copy_index(self, index) -> int:
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"index: expected an int, got {type(index).__name__}")
        if not -self._copies <= index < self._copies:
            raise ValueError(f"index: {index} is out of range for {self._copies} copies")
        return int(index) % self._copies

    # -- what the copies start from ------------------------------------------------------
    def _kept_state(self) -> dict:
        template = self._template
        cache = template._warm
        return {
            "body": {name: column[0].copy() for name, column in self._body.items()},
            "joints": {name: column[0].copy() for name, column in self._joints.items()},
            "friction": self._friction[0].copy(),
            "restitution": self._restitution[0].copy(),
            "gravity": self._gravity[0].copy(),
            "next_island": template._bodies.next_island,
            "steps": template._clock.steps,
            "vertices": self._vertices[0].copy(),
            "normals": self._normals[0].copy(),
            "reach": self._reach[0].copy(),
            "grid": empty_grid(),
            "resting": no_manifold_columns(),
            "warm": (cache.keys.copy(), cache.normal.copy(), cache.tangent.copy()),
            "touching": template._event_log.contact_keys.copy(),
        }

    def _start_lists(self, count: int) -> tuple:
        start = self._start
        grids, resting, warms, touching = typed.List(), typed.List(), typed.List(), typed.List()
        for _ in range(count):
            grids.append(start["grid"])
            resting.append(start["resting"])
            warms.append(start["warm"])
            touching.append(start["touching"])
        return grids, np.zeros(count, dtype=np.bool_), resting, warms, touching


def _stacked(column: np.ndarray, count: int) -> np.ndarray:
    """``count`` copies of ``column`` along a new leading axis, C-contiguous."""
    return np.repeat(column[None], count, axis=0)


class BatchColumn:
    """One state column of every copy in a ``WorldBatch``, (C, N, ...) or (C, 2).

    ``column[key]`` reads a read-only numpy array; ``column[key] = value`` writes after
    checking the values as a handle's write does (a refused write changes nothing);
    ``np.asarray(column)`` is a read-only view.
    """

    def __init__(self, batch: WorldBatch, name: str):
        self._batch = batch
        self._name = name

    def _view(self) -> np.ndarray:
        view = self._batch._array(self._name).view()
        view.flags.writeable = False
        return view

    def __array__(self, dtype=None, copy=None):
        view = self._view()
        if dtype is not None and np.dtype(dtype) != view.dtype:
            return view.astype(dtype)
        return view.copy() if copy else view

    def __getitem__(self, key):
        return self._view()[key]

    def __setitem__(self, key, value) -> None:
        self._batch._write(self._name, key, value)

    @property
    def shape(self) -> tuple:
        return self._view().shape

    @property
    def dtype(self):
        return self._view().dtype

    def __len__(self) -> int:
        return len(self._view())

    def __repr__(self) -> str:
        return f"BatchColumn({self._name}, shape={self.shape})"
