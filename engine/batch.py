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
    copy_count,
)
from .batch_columns import STATE, BatchColumns
from .batch_contacts import BatchContacts
from .batch_file import load_batch, save_batch
from .batch_forces import BatchForces
from .batch_shapes import BatchShapes
from .batch_step import reset_kept, step_copies
from .body import Body
from .contact_manifolds import no_manifold_columns
from .resting_parts import empty_grid
from .settings import (
    FLIP_SLOPS,
    SPECULATIVE_SLOPS,
)
from .solver_inputs import SOLVER_JOINT_FIELDS
from .step import METHOD_CODES, solve_settings
from .step_inputs import SOLVE_BODY_FIELDS

# A copy's contact events when nothing began or ended: (began keys, impulses, ended keys).
NO_EVENTS = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))


class WorldBatch(BatchColumns, BatchForces, BatchShapes, BatchContacts):
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
        # Mass per copy (``set_mass``): what a handle's ``mass`` write changes besides the
        # inverses the step reads.
        bodies = template._bodies.columns()
        self._mass = {
            "mass": _stacked(bodies["mass"], count),
            "inertia": _stacked(bodies["inertia"], count),
            "density": _stacked(bodies["density"], count),
            "part_density": _stacked(part["density"], count),
        }
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
        parts["density"][...] = self._mass["part_density"][index]
        for name in ("mass", "inertia", "density"):
            bodies[name][...] = self._mass[name][index]
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
        for name, column in self._mass.items():
            column[chosen] = start["mass"][name]
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
            "mass": {name: column[0].copy() for name, column in self._mass.items()},
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
