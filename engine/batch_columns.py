"""A ``WorldBatch``'s state columns: reads as read-only arrays, writes checked as a
handle's writes are and waking what they wake (``engine.batch_wake``).
"""

from __future__ import annotations

import numpy as np

from .batch_checks import (
    bool_array,
    check_lengths,
    check_sizes,
    real_array,
)
from .batch_wake import wake_for_writes, write_awake
from .body_store import DYNAMIC, KIND_CODES
from .body_template import template
from .joint_store import PRISMATIC, REVOLUTE
from .materials import check_friction, check_restitution
from .settings import (
    MAX_ANGULAR_SPEED,
    MAX_COORDINATE,
    MAX_GRAVITY,
    MAX_SPEED,
)

STATIC = KIND_CODES["static"]
# The limit columns: batch attribute -> joint column.
LIMITS = {"lower_limits": "lower", "upper_limits": "upper"}
# The writable body columns: attribute -> (column, what a handle calls it, limit, unit).
STATE = {
    "positions": ("position", "position", MAX_COORDINATE, "m"),
    "angles": ("angle", "angle", None, None),
    "velocities": ("velocity", "velocity", MAX_SPEED, "m/s"),
    "angular_velocities": ("angular_velocity", "angular_velocity", MAX_ANGULAR_SPEED, "rad/s"),
}  # fmt: skip


def _column_property(name: str, doc: str) -> property:
    """A ``BatchColumns`` attribute: reads the column ``name`` (a ``BatchColumn``);
    assigning to it writes every cell, as ``column[...] = value`` does."""

    def read(batch):
        return batch._column(name)

    def write(batch, value) -> None:
        batch._column(name)[...] = value

    return property(read, write, doc=doc)


class BatchColumns:
    """The state columns of a ``WorldBatch`` and their checked writes (part of it)."""

    # -- state -----------------------------------------------------------------------------
    def _column(self, name: str) -> BatchColumn:
        column = self._columns.get(name)
        if column is None:
            column = self._columns[name] = BatchColumn(self, name)
        return column

    positions = _column_property(
        "positions",
        "(C, N, 2) centres of mass, m (a ``BatchColumn``).",
    )
    angles = _column_property(
        "angles",
        "(C, N) angles, rad (a ``BatchColumn``).",
    )
    velocities = _column_property(
        "velocities",
        "(C, N, 2) velocities of the centres of mass, m/s (a ``BatchColumn``).",
    )
    angular_velocities = _column_property(
        "angular_velocities",
        "(C, N) angular velocities, rad/s (a ``BatchColumn``).",
    )
    awake = _column_property(
        "awake",
        "(C, N) bool, False while a body sleeps (a ``BatchColumn``; True wakes its "
        "island, False puts a dynamic body to sleep).",
    )
    motor_speeds = _column_property(
        "motor_speeds",
        "(C, J) each joint's motor speed, rad/s (m/s for a prismatic joint), in the "
        "order of ``world.joints`` (a ``BatchColumn``; a write wakes the joint's bodies).",
    )
    lower_limits = _column_property(
        "lower_limits",
        "(C, J) each joint's lower limit, rad (m for a prismatic joint), -inf for none "
        "(a ``BatchColumn``; revolute and prismatic joints only, never past the upper).",
    )
    upper_limits = _column_property(
        "upper_limits",
        "(C, J) each joint's upper limit, rad (m for a prismatic joint), +inf for none "
        "(a ``BatchColumn``; revolute and prismatic joints only, never past the lower).",
    )
    gravity = _column_property(
        "gravity",
        "(C, 2) each copy's gravity, m/s^2 (a ``BatchColumn``).",
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
        # No limit is -inf below, +inf above (a handle's None); the other infinity is not one.
        trial = array.copy()
        trial[key] = real_array(value, side, array[key].shape, -np.inf if lower else np.inf)
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


class BatchColumn:
    """One state column of every copy in a ``WorldBatch``, (C, N, ...) or (C, 2).

    ``column[key]`` reads a read-only numpy array; ``column[key] = value`` writes after
    checking the values as a handle's write does (a refused write changes nothing);
    ``np.asarray(column)`` is a read-only view.
    """

    def __init__(self, batch, name: str):
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
        """The column's shape: (C, N, ...), (C, J) or (C, 2)."""
        return self._view().shape

    @property
    def dtype(self):
        """The column's numpy dtype."""
        return self._view().dtype

    def __len__(self) -> int:
        return len(self._view())

    def __repr__(self) -> str:
        return f"BatchColumn({self._name}, shape={self.shape})"
