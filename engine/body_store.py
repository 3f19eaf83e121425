"""The body store: one row per live body, their Body handles, and the id map.

Rows [0, count) are the live bodies in the order they were added; removing a body shifts
the rows after it down by one, so arrays stay dense and views stay simple (their parts are
in the same order, in ``engine.part_table``). Ids are never reused: ``row_of_id`` maps each
id handed out to its row, -1 once removed.

Its state goes into snapshots and files as plain arrays (``body.*``, ``row_of_id``) and two
header scalars: ``to_arrays`` and ``scalars`` give them, ``validate`` checks a file's, and
``from_arrays`` builds a store from checked ones.
"""

from __future__ import annotations

import numpy as np

from .field_rules import RULES, column_message
from .snapshot_format import BODY_DEFAULTS, ArrayChecker, Version
from .table import Table

KIND_CODES = {"dynamic": 0, "static": 1, "kinematic": 2}
KIND_NAMES = {code: name for name, code in KIND_CODES.items()}
DYNAMIC, STATIC, KINEMATIC = 0, 1, 2

# Field name -> (trailing shape, dtype) of the per-body arrays.
BODY_FIELDS = {
    "position": ((2,), np.float64),  # the centre of mass
    "origin_offset": ((2,), np.float64),  # the shapes' origin from it, body frame (origin=)
    "angle": ((), np.float64),
    "velocity": ((2,), np.float64),
    "angular_velocity": ((), np.float64),
    "force": ((2,), np.float64),
    "torque": ((), np.float64),
    "mass": ((), np.float64),
    "inertia": ((), np.float64),
    "inv_mass": ((), np.float64),
    "inv_inertia": ((), np.float64),
    "friction": ((), np.float64),
    "restitution": ((), np.float64),
    "density": ((), np.float64),  # kg/m^2 of the shapes: the mass a body made dynamic takes
    "kind": ((), np.int8),
    "bullet": ((), bool),
    "reach": ((), np.float64),
    "thickness": ((), np.float64),
    "body_id": ((), np.int64),
    "sensor": ((), bool),
    "category": ((), np.int64),
    "mask": ((), np.int64),
    "group": ((), np.int64),
    "awake": ((), bool),
    "sleep_time": ((), np.float64),
    "sleep_threshold": ((), np.float64),  # 0: the world's
    "damping": ((2,), np.float64),  # linear, angular: 1/s
    "gravity_scale": ((), np.float64),
    "fixed_rotation": ((), bool),  # inv_inertia 0: forces and contacts never turn it
    "enable_sleep": ((), bool),  # False: never falls asleep, nor does its island
    "island": ((), np.int64),
}


# Body fields that are +inf for static and kinematic bodies; every other float is finite.
MAY_BE_INFINITE = frozenset({"mass", "inertia"})


class BodyStore(Table):
    """The body table (fields BODY_FIELDS, N live rows) and what names its rows.

    handles: the N Body handles in row order; row_of_id: (I,) int64 row of each id handed
    out (-1: removed, or not yet handed out); next_id: the next body id; next_island: the
    next island id (``engine.sleep``).
    """

    # Which attributes a snapshot saves and which it leaves out: ``engine.snapshot``
    # refuses a store with an attribute in neither.
    SAVED = {
        "count": "header counts.bodies",
        "arrays": "arrays body.*, every field, rows [0, count)",
        "_fields": "BODY_FIELDS: the file's body arrays are checked against them",
        "handles": "as body ids (body.body_id) and shapes (header shapes, handle_shapes)",
        "row_of_id": "array row_of_id (ids up to next_id)",
        "next_id": "header state.next_id",
        "next_island": "header state.next_island",
    }
    EXCLUDED = {
        "_columns": "cache of the field views, rebuilt on demand",
        "_cells": "cache of the fields' memoryviews, rebuilt on demand",
        "version": "counts changes of the rows' layout, for caches; starts again at 0",
        "handle_array": "cache of handles as an object array, rebuilt on demand",
        "_any_asleep": "cache: whether some body sleeps, found again after it may change",
    }

    def __init__(self, capacity: int = 16):
        super().__init__(BODY_FIELDS, capacity)
        self.handles: list = []
        self.handle_array = None
        self.row_of_id = np.full(16, -1, dtype=np.int64)
        self.next_id = 0
        self.next_island = 0
        self._any_asleep = None

    def any_asleep(self) -> bool:
        """True when some live body sleeps. Remembered: ``sleep_changed`` forgets it."""
        if self._any_asleep is None:
            self._any_asleep = not self.view("awake").all()
        return self._any_asleep

    def sleep_changed(self) -> None:
        """Bodies may have fallen asleep or woken (a step, ``awake`` set): forget
        ``any_asleep``. Adding and removing bodies need not call it (a new body is awake,
        and removing one leaves a world without sleepers without sleepers)."""
        self._any_asleep = None

    def new_id(self) -> int:
        """Hand out the next body id (its row stays -1 until ``add`` enters the body)."""
        if self.next_id >= len(self.row_of_id):
            return self.new_ids(1)[0]
        body_id = self.next_id
        self.next_id += 1
        self.row_of_id[body_id] = -1
        return body_id

    def new_ids(self, count: int) -> range:
        """Hand out the next ``count`` body ids, in order (rows -1 until entered)."""
        first = self.next_id
        self.next_id += count
        if self.next_id > len(self.row_of_id):
            grown = np.full(max(self.next_id, 2 * len(self.row_of_id)), -1, dtype=np.int64)
            grown[: len(self.row_of_id)] = self.row_of_id
            self.row_of_id = grown
        self.row_of_id[first : self.next_id] = -1
        return range(first, self.next_id)

    def add(self, handle, record: dict) -> int:
        """Append one body (its fields in ``record``, scalars and (2,) vectors; the others
        0) and its handle; returns its row."""
        row = self.append_one(record)
        self.row_of_id[handle._id] = row
        self.handles.append(handle)
        self.handle_array = None
        return row

    def add_many(self, handles: list, columns: dict) -> int:
        """Append B bodies (field -> (B, ...) column; a missing field is 0) and their B
        handles, in order; returns the first one's row."""
        first = self.append(columns, len(handles))
        self.row_of_id[columns["body_id"]] = np.arange(first, self.count)
        self.handles.extend(handles)
        self.handle_array = None
        return first

    def keep(self, kept: np.ndarray) -> None:
        """Keep the rows where ``kept`` (N,) bool is True, in their order, and their
        handles; the others' ids map to -1 and the rest to their new rows."""
        ids = self.view("body_id")
        self.row_of_id[ids[~kept]] = -1
        self.row_of_id[ids[kept]] = np.arange(int(kept.sum()))
        self.handles = [handle for handle, keep in zip(self.handles, kept.tolist()) if keep]
        self.handle_array = None
        self.keep_rows(kept)

    def remove(self, row: int) -> None:
        """Delete body row ``row`` and its handle; later rows move down by one (only
        theirs are renumbered in ``row_of_id``, not every id ever handed out)."""
        self.row_of_id[self.cells()["body_id"][row]] = -1
        if row + 1 < self.count:
            self.row_of_id[self.view("body_id")[row + 1 :]] -= 1
        self.delete(row)
        self.handles.pop(row)
        self.handle_array = None

    def handle_objects(self) -> np.ndarray:
        """(N,) object array of the Body handles in row order, cached until one changes."""
        if self.handle_array is None or len(self.handle_array) != len(self.handles):
            array = np.empty(len(self.handles), dtype=object)
            array[:] = self.handles
            self.handle_array = array
        return self.handle_array

    # -- saving and loading ------------------------------------------------------------
    def to_arrays(self) -> dict:
        """Copies of the live rows of every field (``body.<field>``) and ``row_of_id``."""
        arrays = {f"body.{name}": self.view(name).copy() for name in self.arrays}
        arrays["row_of_id"] = self.row_of_id[: self.next_id].copy()
        return arrays

    @staticmethod
    def layout() -> dict:
        """The arrays a file may hold of the store: name -> (dims, dtype)."""
        layout = {
            f"body.{name}": (("N", *shape), dtype) for name, (shape, dtype) in BODY_FIELDS.items()
        }
        layout["row_of_id"] = (("I",), np.int64)
        return layout

    def scalars(self) -> dict:
        """The header state entries: next_id, next_island."""
        return {"next_id": self.next_id, "next_island": self.next_island}

    @staticmethod
    def validate(check: ArrayChecker, version: Version, next_id: int) -> tuple[dict, np.ndarray]:
        """Check a snapshot's body arrays (N rows, sizes "N" and "I" bound in ``check``).

        Returns the columns (field -> (N, ...) native arrays; fields an older version lacks
        get BODY_DEFAULTS) and row_of_id (I,) int64. Checks what ``add_body`` and the
        setters establish: the fields' rules, finite numbers (mass and inertia +inf for
        static and kinematic bodies), inverse masses, resting static bodies, sleepers that
        do not move, ids in range and increasing, and an id map that agrees with them.
        """
        n = check.sizes["N"]
        columns = {}
        for name, (trailing, dtype) in BODY_FIELDS.items():
            if not version.holds_body_field(name):
                columns[name] = np.full((n, *trailing), BODY_DEFAULTS[name], dtype=dtype)
                continue
            allowed = (lambda v: ~np.isnan(v)) if name in MAY_BE_INFINITE else None
            columns[name] = value = check.take_finite(
                f"body.{name}", dtype, ("N", *trailing), allowed
            )
            if name in RULES:  # the settings' rules, as add_body and the setters check them
                check.require(RULES[name].holds(value), column_message("body", name))
        _check_invariants(check, columns, next_id)
        row_of_id = check.take("row_of_id", np.int64, ("I",))
        check.require(
            (row_of_id >= -1) & (row_of_id < n), "array 'row_of_id' holds rows out of range"
        )
        check.require(
            row_of_id[columns["body_id"]] == np.arange(n),
            "arrays 'row_of_id' and 'body.body_id' differ",
        )
        check.require(np.sum(row_of_id >= 0) == n, "array 'row_of_id' maps ids to removed rows")
        return columns, row_of_id

    @classmethod
    def from_arrays(
        cls, columns: dict, row_of_id: np.ndarray, scalars: dict, handles: list, handed_out: int
    ) -> BodyStore:
        """A store of checked ``columns`` (N rows), ``row_of_id`` (I,), the header
        ``scalars`` and the N live ``handles``. handed_out: the ids the world restored into
        has handed out (0 for a new world): new ids start above them, never reused."""
        n = len(handles)
        store = cls(capacity=max(16, n))
        store.fill(columns, n)
        store.handles = list(handles)
        store.next_id = max(scalars["next_id"], handed_out)
        store.next_island = scalars["next_island"]
        store.row_of_id = np.full(max(16, store.next_id), -1, dtype=np.int64)
        store.row_of_id[: len(row_of_id)] = row_of_id
        return store


def _check_invariants(check: ArrayChecker, bodies: dict, next_id: int) -> None:
    """The invariants ``World.add_body`` establishes, for the fields that have them."""
    kind = bodies["kind"]
    check.require(np.isin(kind, list(KIND_CODES.values())), "array 'body.kind' has unknown kinds")
    dynamic = kind == KIND_CODES["dynamic"]
    for name in ("mass", "inertia"):
        value = bodies[name]
        check.require(value > 0.0, f"array 'body.{name}' holds values <= 0")
        check.require(np.isfinite(value[dynamic]), f"array 'body.{name}' is infinite for dynamic")
    for name in ("mass", "inertia"):
        check.require(
            bodies[name][~dynamic] == np.inf,
            f"array 'body.{name}' is finite for a static or kinematic body",
        )
        inverse = bodies["inv_" + name]
        # A body with fixed rotation turns for nothing: its inverse inertia is 0.
        turning = dynamic & ~bodies["fixed_rotation"] if name == "inertia" else dynamic
        # An edited file may hold a mass so small (or zero) that 1 / mass overflows: then it
        # is not the stored inverse, and the check says so without a numpy warning.
        with np.errstate(over="ignore", divide="ignore"):
            reciprocal = 1.0 / bodies[name][turning]
        check.require(
            inverse[turning] == reciprocal,
            f"array 'body.inv_{name}' is not 1 / 'body.{name}' for dynamic bodies",
        )
        check.require(
            inverse[~turning] == 0.0, f"array 'body.inv_{name}' is not 0 for other bodies"
        )
    static = kind == KIND_CODES["static"]
    check.require(bodies["velocity"][static] == 0.0, "array 'body.velocity' moves a static body")
    check.require(
        bodies["angular_velocity"][static] == 0.0,
        "array 'body.angular_velocity' turns a static body",
    )
    check.require(
        bodies["awake"][~dynamic], "array 'body.awake' puts a static or kinematic body to sleep"
    )
    asleep = ~bodies["awake"]
    check.require(
        (bodies["velocity"][asleep] == 0.0).all()
        and (bodies["angular_velocity"][asleep] == 0.0).all(),
        "array 'body.velocity' or 'body.angular_velocity' moves a sleeping body",
    )
    # A force or torque wakes its body (apply_force, apply_torque): none waits on a sleeper.
    check.require(
        (bodies["force"][asleep] == 0.0).all() and (bodies["torque"][asleep] == 0.0).all(),
        "array 'body.force' or 'body.torque' pushes a sleeping body",
    )
    sleep_time = bodies["sleep_time"]
    check.require(sleep_time >= 0.0, "array 'body.sleep_time' holds negative values")
    check.require(sleep_time[~dynamic] == 0.0, "array 'body.sleep_time' is set for other bodies")
    check.require(bodies["reach"] >= 0.0, "array 'body.reach' holds negative values")
    ids = bodies["body_id"]
    check.require((ids >= 0) & (ids < next_id), "array 'body.body_id' holds ids out of range")
    check.require(np.diff(ids) > 0, "array 'body.body_id' is not increasing")
