"""The event log in snapshots and files: its arrays, their checks, and the log they make.

Body handles are saved as body ids (int64). The sizes name what the arrays index: C pairs
touching after the last step (Q their points), C0 after the step before (Q0), S sensor
overlaps after the last step, S0 after the step before.

contact_keys                  (C,) i8      body-pair keys touching after the last step
sensor_keys                   (S, 2) i8    (body-pair key, shape-pair key) of each overlap
sensor_handles                (S, 2) i8    their body ids (sensor, other)
sensor_shapes                 (S, 2) i8    their shapes' indices (sensor, other)
contacts.previous.<field>     ...          the ContactTable of the step before (C0, Q0)
contacts.last.<field>         ...          the last step's ContactTable (C, Q)
events.began, .persisting     (C,) bool    the last step's contact events
events.ended                  (C0,) bool
events.sensor_old_handles     (S0, 2) i8   the overlaps before the last step, and theirs
events.sensor_old_shapes      (S0, 2) i8
events.sensor_began           (S,) bool
events.sensor_ended           (S0,) bool

Arrays are listed in the order files hold them (``arrays_of_log`` keeps it: files stay the
same byte for byte).
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

import numpy as np

from .events import ContactTable, sensor_order, shape_pair_keys
from .snapshot_materials import check_shape_indices

# The two contact tables: file label, index in the log (0: the step before), their sizes.
_TABLES = (("previous", 0, "C0", "Q0"), ("last", 1, "C", "Q"))
_EVENT_FLAGS = (
    ("began", ("C",)),
    ("persisting", ("C",)),
    ("ended", ("C0",)),
    ("sensor_began", ("S",)),
    ("sensor_ended", ("S0",)),
)


def layout() -> dict:
    """Every event array a file may hold: name -> (dims, dtype), dims as size names."""
    arrays = {
        "contact_keys": (("C",), np.int64),
        "sensor_keys": (("S", 2), np.int64),
        "sensor_handles": (("S", 2), np.int64),
        "sensor_shapes": (("S", 2), np.int64),
    }
    empty = ContactTable.empty()
    for label, _, size, points in _TABLES:
        for field in dataclass_fields(empty):
            template = getattr(empty, field.name)
            leading = points if field.name in ("points", "pair_of_point") else size
            dtype = np.int64 if template.dtype == object else template.dtype
            arrays[f"contacts.{label}.{field.name}"] = ((leading, *template.shape[1:]), dtype)
    for name, dims in _EVENT_FLAGS:
        arrays[f"events.{name}"] = (dims, bool)
    arrays["events.sensor_old_handles"] = (("S0", 2), np.int64)
    arrays["events.sensor_old_shapes"] = (("S0", 2), np.int64)
    return arrays


def arrays_of_log(log, ids_of) -> dict:
    """The arrays of ``log`` (an EventLog), copies; ids_of: object array of handles -> ids."""
    arrays = {
        "contact_keys": log.contact_keys.copy(),
        "sensor_keys": log.sensor_keys.copy(),
        "sensor_handles": ids_of(log.sensor_handles),
        "sensor_shapes": log.sensor_shapes.copy(),
    }
    for label, which, _, _ in _TABLES:
        # Builds the log's lazy contact table if nobody has asked for it yet.
        table = log.contact_table(which)
        for field in dataclass_fields(table):
            value = getattr(table, field.name)
            if value.dtype == object:
                value = ids_of(value)
            arrays[f"contacts.{label}.{field.name}"] = np.array(value)
    if log.stepped:
        began, persisting, ended = log._pending
        old_handles, _, sensor_began, sensor_ended, old_shapes, _ = log._sensor_pending
    else:
        began = persisting = ended = sensor_began = sensor_ended = np.zeros(0, dtype=bool)
        old_handles = np.empty((0, 2), dtype=object)
        old_shapes = np.zeros((0, 2), dtype=np.int64)
    arrays["events.began"] = np.array(began, dtype=bool)
    arrays["events.persisting"] = np.array(persisting, dtype=bool)
    arrays["events.ended"] = np.array(ended, dtype=bool)
    arrays["events.sensor_old_handles"] = ids_of(np.asarray(old_handles).reshape(-1, 2))
    arrays["events.sensor_old_shapes"] = np.array(old_shapes, dtype=np.int64).reshape(-1, 2)
    arrays["events.sensor_began"] = np.array(sensor_began, dtype=bool)
    arrays["events.sensor_ended"] = np.array(sensor_ended, dtype=bool)
    return arrays


def check_arrays(check, stepped: bool, handle_ids: np.ndarray, has_shapes: bool = True) -> None:
    """Keys sorted and unique, named bodies known, lengths as the event code indexes them.

    check: the snapshot checker (``take``, ``supply``, ``require``, ``sizes``, ``arrays``);
    stepped: the file says a step was recorded; handle_ids: (N + E,) int64 the ids of the
    bodies a file's arrays may name. has_shapes: the file names the shapes of sensor
    overlaps and contacts (version 4); an older one's are filled in as each body's first
    shape.
    """

    def names_known(ids: np.ndarray, name: str) -> None:
        check.require(np.isin(ids, handle_ids), f"array {name!r} names unknown bodies")

    def sorted_keys(name: str, size: str, keys=None) -> np.ndarray:
        keys = check.take(name, np.int64, (size,)) if keys is None else keys
        check.require(keys >= 0, f"array {name!r} holds negative keys")
        check.require(np.diff(keys) > 0, f"array {name!r} is not sorted and unique")
        # A key packs two body ids, the smaller first: both must name known bodies.
        first, second = keys >> 32, keys & 0xFFFFFFFF
        check.require(first < second, f"array {name!r} holds keys that are not body pairs")
        names_known(np.concatenate([first, second]), name)
        return keys

    def keys_of(pairs: np.ndarray) -> np.ndarray:
        """Body-pair keys of (M, 2) body ids, as the step makes them."""
        return np.minimum(pairs[:, 0], pairs[:, 1]) << 32 | np.maximum(pairs[:, 0], pairs[:, 1])

    contact_keys = sorted_keys("contact_keys", "C")
    # Sensor overlaps are per shape pair: (body-pair key, shape-pair key) rows, sorted.
    sensor_handles = check.take("sensor_handles", np.int64, ("S", 2))
    if has_shapes:
        sensor_keys = check.take("sensor_keys", np.int64, ("S", 2))
        sensor_shapes = check.take("sensor_shapes", np.int64, ("S", 2))
        old_shapes = check.take("events.sensor_old_shapes", np.int64, ("S0", 2))
    else:
        sensor_shapes = np.zeros_like(sensor_handles)
        body_keys = check.take("sensor_keys", np.int64, ("S",))
        sensor_keys = np.column_stack([body_keys, np.zeros_like(body_keys)])
        check.supply("sensor_keys", sensor_keys)
        check.supply("sensor_shapes", sensor_shapes)
        old_shapes = None
    rank = sensor_order(sensor_keys[:, 0], sensor_keys[:, 1])
    check.require(np.diff(rank) > 0, "array 'sensor_keys' is not sorted and unique")
    sorted_keys("sensor_keys", "S", np.unique(sensor_keys[:, 0]))
    check.require(sensor_keys[:, 1] >= 0, "array 'sensor_keys' holds negative keys")
    names_known(sensor_handles, "sensor_handles")
    check.require(
        keys_of(sensor_handles) == sensor_keys[:, 0],
        "arrays 'sensor_keys' and 'sensor_handles' differ",
    )
    check.require(
        shape_pair_keys(sensor_handles, sensor_shapes) == sensor_keys[:, 1],
        "arrays 'sensor_keys' and 'sensor_shapes' differ",
    )
    empty = ContactTable.empty()
    for label, _, size, points in _TABLES:
        for field in dataclass_fields(empty):
            name = f"contacts.{label}.{field.name}"
            template = getattr(empty, field.name)
            if field.name == "shapes" and not has_shapes:
                # Before shapes were named: each body's first shape.
                check.supply(name, np.zeros((check.sizes[size], 2), dtype=np.int64))
                continue
            trailing = template.shape[1:]
            leading = points if field.name in ("points", "pair_of_point") else size
            dtype = np.int64 if template.dtype == object else template.dtype
            value = check.take(name, dtype, (leading, *trailing))
            if field.name == "keys":
                value = sorted_keys(name, size)
                keys = value
            elif template.dtype == object:
                names_known(value, name)
                check.require(keys_of(value) == keys, f"arrays {name!r} and its keys differ")
            elif field.name == "pair_of_point":
                check.require(
                    (value >= 0) & (value < check.sizes[size]), f"array {name!r} out of range"
                )
            elif value.dtype.kind == "f":
                check.require(np.isfinite(value), f"array {name!r} holds NaN or infinity")
    # The pairs touching after the last step are the last step's contacts.
    check.require(
        np.array_equal(contact_keys, check.arrays["contacts.last.keys"]),
        "arrays 'contact_keys' and 'contacts.last.keys' differ",
    )
    check.take("events.began", bool, ("C",))
    check.take("events.persisting", bool, ("C",))
    check.take("events.ended", bool, ("C0",))
    names_known(check.take("events.sensor_old_handles", np.int64, ("S0", 2)), "sensor_old_handles")
    check.take("events.sensor_began", bool, ("S",))
    check.take("events.sensor_ended", bool, ("S0",))
    if old_shapes is None:
        check.supply("events.sensor_old_shapes", np.zeros((check.sizes["S0"], 2), np.int64))
    if not stepped:
        for size in ("C", "C0", "S", "S0"):
            check.require(check.sizes[size] == 0, "events recorded for a world that never stepped")


def check_shapes(check, shapes: tuple, handle_ids: np.ndarray, next_id: int) -> None:
    """The shape indices of the event arrays name shapes their bodies have: shapes, the
    handles' shapes (in the order of handle_ids (N + E,)); next_id: ids handed out."""
    counts = np.zeros(max(1, next_id), dtype=np.int64)
    counts[handle_ids] = [len(body_shapes) for body_shapes in shapes]
    arrays = check.arrays
    for ids, indices in (
        ("sensor_handles", "sensor_shapes"),
        ("events.sensor_old_handles", "events.sensor_old_shapes"),
        ("contacts.last.handles", "contacts.last.shapes"),
        ("contacts.previous.handles", "contacts.previous.shapes"),
    ):
        check_shape_indices(check, counts, arrays[ids], arrays[indices], indices)


def log_state(arrays: dict, handles_of, stepped: bool) -> dict:
    """The EventLog attributes that validated ``arrays`` make: name -> value.

    handles_of(name): the array ``name`` of body ids as an object array of Body handles.
    """
    tables = []
    for label, _, _, _ in _TABLES:
        values = {}
        for field in dataclass_fields(ContactTable):
            name = f"contacts.{label}.{field.name}"
            values[field.name] = handles_of(name) if field.name == "handles" else arrays[name]
        tables.append(ContactTable(**{key: np.array(v) for key, v in values.items()}))
    sensor_handles = handles_of("sensor_handles")
    if stepped:
        pending = tuple(
            arrays[f"events.{name}"].copy() for name in ("began", "persisting", "ended")
        )
        sensor_pending = (
            handles_of("events.sensor_old_handles"),
            sensor_handles,
            arrays["events.sensor_began"].copy(),
            arrays["events.sensor_ended"].copy(),
            arrays["events.sensor_old_shapes"].copy(),
            arrays["sensor_shapes"].copy(),
        )
    else:
        pending = sensor_pending = None
    return {
        "contact_keys": arrays["contact_keys"].copy(),
        "sensor_keys": arrays["sensor_keys"].copy(),
        "sensor_handles": sensor_handles,
        "sensor_shapes": arrays["sensor_shapes"].copy(),
        "_tables": tuple(tables),
        "_pending": pending,
        "_sensor_pending": sensor_pending,
    }
