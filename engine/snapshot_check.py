"""Checking a snapshot completely before anything is built from it.

The header first (format, version, settings through the World constructor's own checks,
the state scalars and counts), then each component's arrays through its ``validate``, in
the order their cross-references need (bodies, parts, joints, warm starting, events), and
last the shapes, built from the header only now and compared with the parts
(``engine.snapshot_geometry``). A bad snapshot raises ValueError naming ``where`` and the
first problem; nothing is built.
"""

from __future__ import annotations

import numpy as np

from .body_store import BodyStore
from .clock import Clock
from .event_log import EventLog
from .joint_store import JointStore
from .materials import MATERIAL_NAMES
from .part_table import PartTable
from .shape_specs import shape_from_spec, short, spec_vertex_count
from .snapshot_format import (
    ADDED_IN_4,
    INT64_MAX,
    ArrayChecker,
    check_format,
    header_section,
    is_finite_number,
    is_int,
    setting_names,
    world_arguments,
)
from .snapshot_geometry import check_geometry
from .warm_start import ROW_BITS, WarmStartCache

# Outline vertices that removed bodies' shapes (which have no parts in a file) may hold
# together, beyond as many as the live bodies' parts hold.
REMOVED_SHAPE_VERTICES = 4096
# Body-pair keys pack two ids into 32 bits each; point keys pack part rows into ROW_BITS.
MAX_IDS = 2**31
MAX_PARTS = 2**ROW_BITS
HEADER_FIELDS = frozenset(
    {"format", "version", "settings", "state", "counts", "shapes", "handle_shapes"}
    | set(ADDED_IN_4["header"])
)


class Checked:
    """A snapshot that passed every check, ready to build from (all arrays native dtype).

    world: a new World of the snapshot's settings; state, counts: the header's sections;
    bodies, parts, joints, warm: the components' checked columns; row_of_id: (I,);
    handle_ids: (N + E,) the ids of the live bodies, then of the removed ones events name;
    shapes, labels: their shapes and (tag, user_data); arrays: every array used, by name.
    """

    __slots__ = (
        "world", "state", "counts", "arrays", "shapes", "handle_ids", "bodies", "parts",
        "joints", "warm", "row_of_id", "labels",
    )  # fmt: skip


def header_counts(header: dict, where: str) -> tuple[dict, dict]:
    """The header's sections ``state`` and ``counts``, checked (a version-1 file gets no
    joints); ValueError naming ``where`` and the first problem."""

    def count(value):
        return is_int(value) and 0 <= value <= INT64_MAX

    state_fields = {
        "next_id": lambda v: is_int(v) and 0 <= v <= MAX_IDS,
        "next_part_uid": count,
        "next_joint_id": count,
        "accumulator": lambda v: is_finite_number(v) and v >= 0,
        "steps": count,
        "pose_revision": count,
        "next_island": count,
        "stepped": lambda v: isinstance(v, bool),
    }
    count_fields = {
        "bodies": count,
        "parts": lambda v: is_int(v) and 0 <= v < MAX_PARTS,
        "part_width": lambda v: is_int(v) and 1 <= v <= 4096,
        "joints": count,
    }
    has_joints = header["version"] >= 2  # version 1 knew no joints
    if not has_joints:
        del state_fields["next_joint_id"], count_fields["joints"]
    state = header_section(header, "state", state_fields, where)
    counts = header_section(header, "counts", count_fields, where)
    if not has_joints:
        state, counts = {**state, "next_joint_id": 0}, {**counts, "joints": 0}
    return state, counts


def _settings_world(header: dict, version, where: str, world_type: type):
    """A new World of the header's settings: the World's own argument checks decide (an
    older file's settings as ``world_arguments`` reads them)."""
    known = setting_names(version)
    settings = header_section(header, "settings", dict.fromkeys(known, _anything), where)
    try:
        return world_type(**world_arguments(settings, version))
    except Exception as error:  # TypeError and ValueError, or whatever odd JSON provokes
        raise ValueError(f"{where}: header settings: {error}") from None


def check_snapshot(
    header: dict,
    arrays: dict,
    shapes: tuple | None,
    where: str,
    world_type: type,
    labels: tuple | None = None,
) -> Checked:
    """Check a snapshot completely; ValueError naming ``where`` and the first problem.

    shapes: the handles' shapes, or None to build them from the header's specs, which
    happens once everything cheaper has been checked (building a concave shape costs
    time), within the vertex counts that the file's parts allow. world_type: the World
    class, for the new world the settings make. labels: the handles' (tag, user_data), or
    None to read them from the header.
    """
    version = check_format(header, where)
    unknown = sorted(set(header) - HEADER_FIELDS)
    if unknown:
        raise ValueError(f"{where}: header has an unknown field {unknown[0]!r}")
    if labels is None and version.has_labels:
        missing = sorted(set(ADDED_IN_4["header"]) - set(header))
        if missing:
            raise ValueError(f"{where}: header lacks the field {missing[0]!r}")
    elif not version.has_labels and set(ADDED_IN_4["header"]) & set(header):
        raise ValueError(f"{where}: header has a field its version {version.number} lacks")
    world = _settings_world(header, version, where, world_type)
    state, counts = header_counts(header, where)
    Clock.validate(state, world.dt, world.max_steps_per_advance, where)
    n, p, k = counts["bodies"], counts["parts"], counts["part_width"]
    sizes = {"N": n, "P": p, "K": k, "I": state["next_id"], "J": counts["joints"]}
    check = ArrayChecker(where, arrays, sizes)

    bodies, row_of_id = BodyStore.validate(check, version, state["next_id"])
    parts = PartTable.validate(check, version, state["next_part_uid"])
    joints = JointStore.validate(check, version, bodies["kind"], row_of_id, state["next_joint_id"])
    warm = WarmStartCache.validate(check, p)

    # Handles: the live bodies, then removed bodies that events still name.
    extra = check.take("extra_handle_ids", np.int64, ("E",))
    check.require((extra >= 0) & (extra < state["next_id"]), "extra handle ids out of range")
    check.require(np.diff(extra) > 0, "array 'extra_handle_ids' is not sorted and unique")
    check.require(row_of_id[extra] == -1, "array 'extra_handle_ids' names live bodies")
    handle_ids = np.concatenate([bodies["body_id"], extra])
    EventLog.validate(check, state["stepped"], handle_ids, version.has_labels)
    check.finish()

    # Last, the shapes: built only now, within what the file's parts allow.
    if shapes is None:
        room = np.bincount(parts["body"], weights=parts["count"], minlength=n).astype(np.int64)
        shapes = shapes_from_header(header, where, room)
    if len(shapes) != len(handle_ids):
        check.fail(
            f"header 'handle_shapes' has {len(shapes)} entries, expected {len(handle_ids)} (N + E)"
        )
    check_geometry(check, shapes[:n], bodies, parts, k, version.has_units, version.has_labels)
    EventLog.validate_shapes(check, shapes, handle_ids, state["next_id"])
    if labels is None:
        labels = labels_from_header(header, len(handle_ids), version.has_labels, where)

    checked = Checked()
    checked.labels = labels
    checked.world, checked.state, checked.counts = world, state, counts
    checked.shapes, checked.handle_ids = shapes, handle_ids
    checked.bodies, checked.parts, checked.joints = bodies, parts, joints
    checked.warm, checked.row_of_id = warm, row_of_id
    checked.arrays = {name: check.arrays[name] for name in check.used}
    return checked


def _anything(value) -> bool:
    return True  # the World constructor checks settings


def labels_from_header(header: dict, count: int, has_labels: bool, where: str) -> tuple:
    """(tag, user_data) of each of the ``count`` handles a header lists (none before
    version 4); ValueError naming ``where`` for a list of the wrong length or a bad tag."""
    if not has_labels:
        return ((None, None),) * count
    tags, user_data = header["tags"], header["user_data"]
    for name, values in (("tags", tags), ("user_data", user_data)):
        if not isinstance(values, list) or len(values) != count:
            raise ValueError(f"{where}: header {name!r} must be a list of {count} (N + E) items")
    for i, tag in enumerate(tags):
        if tag is not None and not (isinstance(tag, str) and tag):
            raise ValueError(f"{where}: header 'tags'[{i}] is {short(tag)}")
    return tuple(zip(tags, user_data))


def shapes_from_header(header: dict, where: str, room: np.ndarray) -> tuple:
    """The handles' shapes, built from the header's specs: a tuple of tuples of shapes.

    Before anything is built, the specs are checked to be used and to ask for no more
    than the file holds: room (N,) is the vertex count of each live body's parts; a body's
    polygon outlines may have at most that many vertices (each outline vertex is in some
    part), and the outlines used only by removed bodies (which have no parts) at most
    REMOVED_SHAPE_VERTICES beyond all the live parts' vertices together.
    """
    specs = header.get("shapes")
    handle_shapes = header.get("handle_shapes")
    if not isinstance(specs, list) or not isinstance(handle_shapes, list):
        raise ValueError(f"{where}: header 'shapes' and 'handle_shapes' must be lists")
    for i, indices in enumerate(handle_shapes):
        if (
            not isinstance(indices, list)
            or not indices
            or not all(is_int(j) and 0 <= j < len(specs) for j in indices)
        ):
            raise ValueError(
                f"{where}: header 'handle_shapes'[{i}] must be a non-empty list of shape "
                f"indices below {len(specs)}, got {indices!r}"
            )
    vertices = [spec_vertex_count(spec, i, where) for i, spec in enumerate(specs)]
    if header["version"] < 4:
        for i, spec in enumerate(specs):
            if set(spec) & set(MATERIAL_NAMES):
                raise ValueError(
                    f"{where}: header 'shapes'[{i}] has settings of its own, which version "
                    f"{header['version']} files do not hold"
                )
    used_live = np.zeros(len(specs), dtype=bool)
    used = np.zeros(len(specs), dtype=bool)
    for i, indices in enumerate(handle_shapes):
        used[indices] = True
        if i < len(room):
            used_live[indices] = True
            if sum(vertices[j] for j in set(indices)) > room[i]:
                raise ValueError(
                    f"{where}: header 'handle_shapes'[{i}] asks for shapes of more vertices "
                    f"than the body's {room[i]} part vertices"
                )
    unused = np.flatnonzero(~used)
    if len(unused):
        raise ValueError(f"{where}: header 'shapes'[{unused[0]}] is used by no body")
    removed_only = sum(v for v, live in zip(vertices, used_live) if not live)
    if removed_only > int(room.sum()) + REMOVED_SHAPE_VERTICES:
        raise ValueError(
            f"{where}: header 'shapes' of removed bodies hold {removed_only} vertices, more "
            "than the file's parts allow"
        )
    shapes = [shape_from_spec(spec, i, where) for i, spec in enumerate(specs)]
    return tuple(tuple(shapes[j] for j in indices) for indices in handle_shapes)
