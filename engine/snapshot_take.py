"""Taking a snapshot: the Snapshot object, and the list of what a World holds.

A World is its settings plus components that own their state (``COMPONENTS``); each lists
its own attributes as saved or excluded, and gives its part of a snapshot through
``to_arrays`` (arrays) and ``scalars`` (header state). ``snapshot`` refuses a World or a
component with an attribute in neither list, so that new state is never left out silently.
"""

from __future__ import annotations

import json
import operator
import weakref
from types import MappingProxyType

import numpy as np

from .body_store import BodyStore
from .clock import Clock
from .event_log import EventLog
from .joint_store import JointStore
from .part_table import PartTable
from .shape_specs import SHAPE_TYPES, shape_spec
from .snapshot_format import FORMAT_NAME, SETTINGS, STATE_ORDER, VERSION
from .warm_start import WarmStartCache
from .world_base import WorldBase

# World attribute -> the component class it holds. Each lists its own attributes.
COMPONENTS = {
    "_bodies": BodyStore,
    "_parts": PartTable,
    "_joints": JointStore,
    "_warm": WarmStartCache,
    "_clock": Clock,
    "_event_log": EventLog,
}
# Every World attribute and what happens to it. A World with an attribute in neither dict
# is refused by ``snapshot``: new state must be saved or excluded on purpose.
SAVED_ATTRIBUTES = {
    **{attribute: "setting (header settings)" for attribute in SETTINGS.values()},
    "_bodies": "the body store: arrays body.*, row_of_id, header state.next_id, next_island",
    "_parts": "the part table: arrays part.*, header state.next_part_uid",
    "_joints": "the joint store: arrays joint.*, header state.next_joint_id",
    "_warm": "the warm-start cache: arrays warm.*",
    "_clock": "the clock: header state.accumulator, steps, pose_revision",
    "_event_log": "the event log: contact_keys, sensor_*, contacts.*, events.*, header "
    "state.stepped",
}
EXCLUDED_ATTRIBUTES = {
    "_query_index": "cache of the query index, rebuilt by the first query after a change "
    "(a restore moves the pose revision on; other copies start with an empty cache)",
    "_resting_parts": "cache of the resting parts' grid and contacts, rebuilt by the step "
    "after the resting parts change (a restore replaces the part table, which it checks; "
    "the contacts follow from the poses and the warm-start cache, which are saved)",
    "_step_inputs": "cache of the table views and joint rows the step passes its kernels, "
    "gathered again when a table's version moves on or the table is replaced (a restore)",
    # Within a step only: snapshot and restore refuse to run during a step (from a presolve
    # handler), and between steps these are always False, False and [].
    "_stepping": "true only during a step",
    "_running": "true only while step() or advance() runs (refuses stepping from a handler)",
    "_deferred": "adds, removes and writes asked for during a step, applied at its end",
}


class Snapshot:
    """An immutable copy of a World's state, made by :func:`snapshot`.

    Holds read-only copies of the state arrays, a small JSON-ready header (settings and
    scalars), the shapes of each body (the shape objects themselves: they are immutable)
    and weak references to the Body and Joint handles, so that ``restore`` into the same
    world hands back the very handle objects the game holds. ``copy.deepcopy`` returns the
    snapshot itself; pickling it keeps arrays and shapes (as data) and drops the weak
    references.
    """

    __slots__ = ("_header", "_arrays", "_shapes", "_handles", "_joint_handles", "_labels")

    def __init__(
        self,
        header: dict,
        arrays: dict,
        shapes: tuple,
        handles: tuple | None,
        joint_handles: tuple | None = None,
        labels: tuple | None = None,
    ):
        for array in arrays.values():
            array.flags.writeable = False
        object.__setattr__(self, "_header", header)
        object.__setattr__(self, "_arrays", MappingProxyType(arrays))
        object.__setattr__(self, "_shapes", shapes)
        object.__setattr__(self, "_handles", handles)
        object.__setattr__(self, "_joint_handles", joint_handles)
        # (tag, user_data) per handle; None when the header holds them (unpickled).
        if labels is None and shapes is not None:
            labels = ((None, None),) * len(shapes)
        object.__setattr__(self, "_labels", labels)

    def __setattr__(self, name, value):
        raise AttributeError("Snapshot is immutable; take a new one with snapshot(world)")

    @property
    def steps(self) -> int:
        """The world's step count when the snapshot was taken."""
        return self._header["state"]["steps"]

    @property
    def time(self) -> float:
        """Simulated seconds at the snapshot: steps times dt."""
        return self.steps * self._header["settings"]["dt"]

    @property
    def body_count(self) -> int:
        """N, the number of live bodies."""
        return self._header["counts"]["bodies"]

    @property
    def joint_count(self) -> int:
        """J, the number of joints."""
        return self._header["counts"].get("joints", 0)  # none in an unpickled version 1

    @property
    def nbytes(self) -> int:
        """Bytes held by the snapshot's arrays."""
        return sum(array.nbytes for array in self._arrays.values())

    def __repr__(self) -> str:
        return (
            f"<Snapshot of {self.body_count} bodies and {self.joint_count} joints "
            f"at step {self.steps}>"
        )

    def __copy__(self) -> Snapshot:
        return self

    def __deepcopy__(self, memo) -> Snapshot:
        return self  # immutable: a copy could not differ

    def __reduce__(self):
        return _snapshot_from_pickle, (file_header(self), dict(self._arrays))


def _snapshot_from_pickle(header: dict, arrays: dict) -> Snapshot:
    """A Snapshot from its pickled form; shapes are rebuilt (and checked) by ``restore``."""
    return Snapshot(header, {name: np.array(a) for name, a in arrays.items()}, None, None, None)


def check_world(world, argument: str) -> None:
    """TypeError naming ``argument`` unless ``world`` is a World."""
    if not isinstance(world, WorldBase):
        raise TypeError(f"{argument}: expected a World, got {type(world).__name__}")


def check_not_stepping(world, action: str) -> None:
    """RuntimeError naming ``action`` during a step (from a presolve handler)."""
    if getattr(world, "_stepping", False):
        raise RuntimeError(
            f"{action}: not possible during a step (from a presolve handler); "
            "do it between steps, e.g. from a contact handler or after step()"
        )


def check_attributes(world) -> None:
    """TypeError naming any attribute of ``world`` or of its components that is neither
    saved nor excluded."""
    unknown = set(vars(world)) - SAVED_ATTRIBUTES.keys() - EXCLUDED_ATTRIBUTES.keys()
    if unknown:
        raise TypeError(
            f"World attribute(s) {', '.join(sorted(unknown))} neither saved nor excluded by "
            "engine.snapshot: add each to SAVED_ATTRIBUTES (and save it) or to "
            "EXCLUDED_ATTRIBUTES (with the reason)"
        )
    for attribute, component in COMPONENTS.items():
        unknown = set(vars(getattr(world, attribute))) - component.SAVED.keys()
        unknown -= component.EXCLUDED.keys()
        if unknown:
            raise TypeError(
                f"{component.__name__} attribute(s) {', '.join(sorted(unknown))} neither saved "
                f"nor excluded: add each to {component.__name__}.SAVED (and to its to_arrays) "
                "or to its EXCLUDED (with the reason)"
            )


def _json_value(value):
    """A setting or scalar as plain JSON data (numpy scalars and arrays become Python's)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


# A C-level loop for reading the ids out of object arrays of Body handles.
_ID_OF = np.frompyfunc(operator.attrgetter("_id"), 1, 1)


def snapshot(world) -> Snapshot:
    """An immutable copy of the state of ``world`` (deep copies of all state arrays).

    Raises TypeError for a World attribute that is neither saved nor excluded (see
    SAVED_ATTRIBUTES), or for a shape type a file cannot describe.
    """
    check_world(world, "world")
    check_not_stepping(world, "snapshot")
    check_attributes(world)
    bodies, parts, joints = world._bodies, world._parts, world._joints
    arrays = {}
    scalars = {}
    for component in (bodies, parts, joints, world._warm, world._clock):
        arrays.update(component.to_arrays())
        scalars.update(component.scalars())

    # Event bookkeeping. Handles become ids; removed bodies named here become extra handles.
    referenced = {}  # id -> Body, for handles that are not live
    live_ids = arrays["body.body_id"]

    def ids_of(handles: np.ndarray) -> np.ndarray:
        ids = np.asarray(_ID_OF(handles), dtype=np.int64).reshape(handles.shape)
        flat = ids.ravel()
        for extra in np.setdiff1d(flat, live_ids):
            referenced[int(extra)] = handles.ravel()[np.flatnonzero(flat == extra)[0]]
        return ids

    arrays.update(world._event_log.to_arrays(ids_of))
    scalars["stepped"] = world._event_log.stepped

    extra_ids = np.array(sorted(referenced), dtype=np.int64)
    arrays["extra_handle_ids"] = extra_ids
    handles = list(bodies.handles) + [referenced[int(i)] for i in extra_ids]
    for handle in handles:
        for shape in handle._shapes:
            if type(shape) not in SHAPE_TYPES.values():
                raise TypeError(f"cannot save a shape of type {type(shape).__name__}")
    header = {
        "format": FORMAT_NAME,
        "version": VERSION,
        "settings": {arg: _json_value(getattr(world, attr)) for arg, attr in SETTINGS.items()},
        "state": {key: _json_value(scalars[key]) for key in STATE_ORDER},
        "counts": {
            "bodies": bodies.count,
            "parts": parts.count,
            "part_width": arrays["part.vertices"].shape[1],
            "joints": joints.count,
        },
    }
    return Snapshot(
        header,
        arrays,
        tuple(handle._shapes for handle in handles),
        tuple(weakref.ref(handle) for handle in handles),
        tuple(weakref.ref(joint) for joint in joints.handles),
        tuple((handle._tag, handle._user_data) for handle in handles),
    )


def file_header(snap: Snapshot) -> dict:
    """The snapshot's header plus its shapes as data, each distinct shape listed once, and
    the handles' tags and user data."""
    if snap._shapes is None:  # unpickled: the header already has them
        return snap._header
    specs, index_of_spec, index_of_object, handle_shapes = [], {}, {}, []
    for shapes in snap._shapes:
        indices = []
        for shape in shapes:
            index = index_of_object.get(id(shape))
            if index is None:
                spec = shape_spec(shape)
                # Equal shapes (a Box(1, 1) built once per body) are stored once.
                key = json.dumps(spec)
                index = index_of_spec.setdefault(key, len(specs))
                if index == len(specs):
                    specs.append(spec)
                index_of_object[id(shape)] = index
            indices.append(index)
        handle_shapes.append(indices)
    tags = [tag for tag, _ in snap._labels]
    user_data = [data for _, data in snap._labels]
    return {
        **snap._header,
        "shapes": specs,
        "handle_shapes": handle_shapes,
        "tags": tags,
        "user_data": user_data,
    }
