"""Snapshots of a World: in memory, on disk, and through ``copy.deepcopy`` and ``pickle``.

>>> from engine import Box, World
>>> from engine.snapshot import restore, snapshot
>>> world = World()
>>> crate = world.add_body(Box(1, 1), position=(0, 5))
>>> saved = snapshot(world)
>>> for _ in range(30):
...     world.step()
>>> restore(world, saved)
>>> crate.position.tolist()
[0.0, 5.0]

API
---
``snapshot(world) -> Snapshot``
    An immutable copy of everything that decides the world's future.
``restore(world, snap)``
    The world's state becomes the snapshot's. Body and joint handles of the same world stay
    usable: a handle of a body or joint that exists in the snapshot works again; one created
    after it (or removed) raises ValueError ("removed") when used, and its ``world`` is None.
    Event handlers are not state: the world keeps its own.
``save(world, path, compress=False)`` / ``load(path, World) -> World``
    The file format below. ``path`` may also be a binary file object. ``save`` also takes a
    Snapshot. A saved world continues bitwise identically to the one that was not saved.
``world_getstate(world)`` / ``world_setstate(world, state)``
    ``World.__getstate__``/``__setstate__``, for ``copy.deepcopy`` and ``pickle``.

What is saved
-------------
Everything that affects the future: the bodies (every field of the body table, whatever
fields exist), their convex parts, shapes, materials and filters, the id map, the joints
(every field of the joint table, their warm-start impulses included), the contacts'
warm-start impulses, the time accumulator, the step count, the settings, and the event
bookkeeping (the contact and sensor pairs touching after the last step, so that the next
step reports began/ended exactly as it would have; and the last step's events and
contacts, so that ``world.events`` and ``world.contacts`` read the same after a restore).
Every attribute of a World is listed either in SAVED_ATTRIBUTES or in EXCLUDED_ATTRIBUTES
(with the reason); ``snapshot`` refuses a World with an attribute in neither list, so that
new state cannot be left out silently. A component the World holds (the event log,
``engine.event_log``) lists its own attributes (its SAVED and EXCLUDED) and carries its own
part of the format: ``to_arrays`` gives its arrays, ``validate`` checks a file's and
``from_arrays`` builds it again; this module only calls them.

Event handlers
--------------
Handlers are code, not simulation state. ``restore`` keeps the target world's handlers;
``save``/``load`` never store them (a file holds no code). ``copy.deepcopy`` keeps them (the
copy calls the same handler objects); ``pickle`` keeps them too, and raises a TypeError
that names the handler when one cannot be pickled (a lambda, a local function): unregister
it with ``world.off`` first, or register a module-level function.

File format "engine-world-snapshot", version 4
---------------------------------------------
An ``.npz`` archive (``numpy.savez``, or ``savez_compressed`` with ``compress=True``) of
plain numeric arrays, read back with ``allow_pickle=False``: a file never holds pickled
objects, and loading one never runs code. Body handles appear as body ids (int64), joint
handles as joint ids and kind codes (their class).

``header``: (B,) uint8, a UTF-8 JSON object::

    format    "engine-world-snapshot"
    version   4 (3, 2 and 1 still load: see below)
    settings  {gravity: [gx, gy], dt, broadphase: "grid" | "quadtree",
               cell_size: null | float, velocity_iterations, position_iterations,
               max_steps_per_advance, sleep: bool, units_per_meter, linear_slop,
               restitution_threshold, sleep_threshold, time_to_sleep, substeps,
               relax_iterations, contact_hertz, contact_damping_ratio,
               max_contact_push_speed, joint_hertz, joint_damping_ratio}
               (the World() arguments)
    state     {next_id, next_part_uid, next_joint_id, next_island, accumulator, steps,
               pose_revision, stepped: bool (the world has stepped: the last step's events
               exist)}
    counts    {bodies: N, parts: P, part_width: K, joints: J}
    shapes    [one per distinct shape:
               {type: "Box", width, height, offset: [x, y], angle}
               {type: "Circle", radius, offset: [x, y]}
               {type: "Polygon", vertices: [[x, y], ...]}          (counter-clockwise)
               {type: "ConcavePolygon", vertices: [[x, y], ...]}  (the outline)
               {type: "Segment", a: [x, y], b: [x, y], radius}
               {type: "Chain", points: [[x, y], ...], loop: bool}]
               each with the shape's own settings as further keys, those it sets only:
               density, friction, restitution (numbers), sensor (bool), category, mask,
               group (ints), tag (str)
               (Segment and Chain came after version 4 was fixed; they needed no new
               version, since files without them read as before, but a reader older than
               them refuses them as "not a shape")
    handle_shapes  [[shape index, ...] per handle]: the N live bodies in row order, then
               the E removed bodies that the event arrays still name
    tags      [null | "tag" per handle, in the order of handle_shapes]
    user_data [JSON value per handle, likewise]

Arrays (N bodies, P parts of K vertex slots, I = next_id ids, E extra handles, J joints, W
warm-start points, C/C0 touching body pairs after the last step/the one before, Q/Q0
their contact points, S/S0 sensor overlaps after the last step/the one before):

=============================  ===========  ================================================
body.<field>                   (N, ...)     one per field of ``engine.body_store.BODY_FIELDS``
                                            with its dtype: position (N, 2) f8, angle (N,) f8,
                                            velocity (N, 2), angular_velocity, force (N, 2),
                                            torque, mass, inertia, inv_mass, inv_inertia,
                                            friction, restitution, reach, thickness,
                                            sleep_time, sleep_threshold, gravity_scale
                                            (N,) f8; damping (N, 2) f8 (linear, angular);
                                            kind (N,) i1; bullet, sensor, awake (N,) bool;
                                            body_id, category, mask, group, island (N,) i8.
                                            Floats finite, except mass and inertia (+inf for
                                            static and kinematic bodies); sleep_threshold
                                            >= 0 (0: the world's); damping >= 0;
                                            fixed_rotation (N,) bool (inv_inertia 0);
                                            density (N,) f8 > 0 (a dynamic body's mass is
                                            density x its shapes' area); origin_offset
                                            (N, 2) f8: 0, or minus the shapes' centroid
                                            (origin="local")
part.vertices, part.normals    (P, K, 2) f8 packed convex parts (see ``engine.packing``)
part.count, part.body, part.uid (P,) i8     vertex count, owner row, stable part id
part.radius, part.reach        (P,) f8
part.density, part.friction,   (P,) f8      the part's material: its shape's own, else its
part.restitution                            body's (density: times what a new mass scaled)
part.sensor                    (P,) bool    its role and filter, likewise
part.category, part.mask,      (P,) i8
part.group
part.shape                     (P,) i8      the index of its shape in its body's shapes
row_of_id                      (I,) i8      the row of each body id, -1 once removed
joint.<field>                  (J, ...)     one per field of ``engine.joint_store.JOINT_FIELDS``
                                            with its dtype, rows in the order the joints
                                            were added: joint_id, body_a, body_b (J,) i8
                                            (body ids; body_a -1: the world); kind (J,) i1
                                            (0 revolute, 1 distance, 2 weld, 3 mouse,
                                            4 prismatic, 5 wheel, 6 rope, 7 angular spring,
                                            8 gear, 9 motor); anchor_a, anchor_b, axis
                                            (J, 2) f8; reference_angle, lower, upper,
                                            motor_speed, max_motor_torque, length,
                                            frequency, damping, max_force, ratio,
                                            rest_angle, correction (J,) f8;
                                            collide_connected (J,) bool; impulse (J, 3) f8,
                                            motor_impulse, lower_impulse, upper_impulse,
                                            spring_impulse (J,) f8. Floats finite, except
                                            lower (-inf) and upper (+inf): no limit
extra_handle_ids               (E,) i8      ids of removed bodies named by event arrays
warm.keys                      (W,) i8      sorted warm-start point keys
warm.normal, warm.tangent      (W,) f8      their impulses
contact_keys                   (C,) i8      sorted body-pair keys touching after the last step
sensor_keys                    (S, 2) i8    the sensor overlaps, one per shape pair: body-pair
                                            key, shape-pair key (the shape index of the body
                                            of smaller id in the high 32 bits), sorted
sensor_handles                 (S, 2) i8    their body ids (sensor, other)
sensor_shapes                  (S, 2) i8    their shapes' indices (sensor, other)
contacts.last.<field>          ...          the last step's ContactTable (C pairs): keys (C,)
contacts.previous.<field>      ...          i8, handles (C, 2) i8 ids, normal (C, 2) f8,
                                            depth, normal_impulse, tangent_impulse (C,) f8,
                                            points (Q, 2) f8, pair_of_point (Q,) i8; previous:
                                            C0 and Q0 rows; shapes (C, 2) i8 the shape
                                            indices of the deepest part pair
events.began, events.persisting (C,) bool   the last step's events (empty before any step)
events.ended                   (C0,) bool
events.sensor_old_handles      (S0, 2) i8
events.sensor_old_shapes       (S0, 2) i8
events.sensor_began            (S,) bool
events.sensor_ended            (S0,) bool
=============================  ===========  ================================================

A file is checked completely before anything is built, cheapest checks first:

* the archive: every member's name must be ``<array>.npy`` for an array listed above (or
  ``header``), checked before anything is decompressed; the header may claim at most 16
  times the file's size (or 1 MiB) and is read first; the body and part arrays may claim
  no more than the header's counts need, and those counts no more than the header's shapes
  make (one body per ``handle_shapes`` entry, at most n - 2 parts per concave outline of n
  vertices, parts no wider than the widest outline); the other arrays together at most
  DECOMPRESSION_RATIO (64) times the file's size (or 64 MiB); members are inflated only up
  to their claimed size (a member holding more fails its CRC check);
* the header: JSON nested at most MAX_HEADER_DEPTH levels deep, exactly the fields above
  (an unknown one is refused), the format name and version (a newer one is refused);
* the arrays: presence, dtype and shape, finite numbers, and the consistency of the whole:
  counts, ids and rows in range, parts in body order, sorted keys; event keys that name
  live bodies or the removed bodies the file lists, and agree with each other; joints
  between two different live bodies or a body and the world, with at least one dynamic
  body, valid limits, lengths, axes, ratios, correction factors and spring settings;
  states ``add_body`` and the setters make: a static body does not move, inverse masses
  and inertias are exactly 1 / mass and 1 / inertia (0 and +inf mass for static and
  kinematic bodies), only dynamic bodies sleep and a sleeping body does not move, and no
  more time is banked than ``advance`` leaves;
* last, the shapes, built from the header only now: every shape must be used by a body,
  a body's outlines may hold no more vertices than its parts (removed bodies' outlines,
  which have no parts, at most REMOVED_SHAPE_VERTICES more than all live parts), and the
  parts, reaches, part materials and mass properties must be exactly those ``add_body``
  and the setters make from them (see ``_check_geometry`` for the one tolerance).

A bad file raises ValueError naming the file and the problem; ``load`` returns a new World
or raises, ``restore`` changes the world entirely or not at all.

Version history
---------------
1. Bodies, parts, warm starting and event bookkeeping. Still read: as a world without
   joints (no ``state.next_joint_id``, ``counts.joints`` or ``joint.*`` arrays).
2. Joints: arrays ``joint.*``, ``state.next_joint_id`` and ``counts.joints``.
3. Units and tolerances: settings ``units_per_meter``, ``linear_slop``,
   ``restitution_threshold``, ``sleep_threshold``, ``time_to_sleep``; body arrays
   ``thickness``, ``sleep_threshold``, ``damping``, ``gravity_scale``, ``fixed_rotation``.
   Still read: with the metre defaults, the world's sleep threshold and the shapes'
   thickness.
4. The prismatic, wheel, rope, angular spring, gear and motor joints (kinds 4 to 9) and
   their joint fields ``axis``, ``ratio``, ``rest_angle``, ``correction`` and
   ``spring_impulse``; arrays ``body.density`` and ``body.origin_offset``; header ``tags``
   and ``user_data`` (the handles' labels); the shapes' own settings (keys of the header's
   shapes), the part arrays ``part.density`` ... ``part.shape`` and the shapes events name
   (``sensor_shapes``, ``events.sensor_old_shapes``, ``contacts.*.shapes``; sensor keys
   per shape pair); the sub-stepped solver's settings (``substeps`` to
   ``joint_damping_ratio``). Still read: an older file's joints get zeros in the new
   fields (its kinds, 0 to 3, do not read them); its dynamic bodies get the density their
   mass implies, the others 1; every body its centre of mass as origin; no tags or user
   data; its parts get their bodies' values, and its events name each body's first shape;
   the one-solve step (the solver settings' defaults).
"""

from __future__ import annotations

import json
import math
import operator
import os
import pickle
import secrets
import threading
import weakref
from types import MappingProxyType

import numpy as np

from .axis_joints import AngularSpring, PrismaticJoint, RopeJoint, WheelJoint
from .body import Body
from .body_geometry import body_geometry
from .body_store import BODY_FIELDS, DYNAMIC, KIND_CODES, PartTable, Table
from .drive_joints import MAX_RATIO, GearJoint, MotorJoint
from .event_arrays import layout as event_layout
from .event_log import EventLog
from .field_rules import RULES, column_message
from .joint_store import (
    ANGULAR_SPRING,
    DISTANCE,
    GEAR,
    JOINT_FIELDS,
    MOUSE,
    PRISMATIC,
    ROPE,
    WHEEL,
    WORLD,
)
from .joints import DistanceJoint, MouseJoint, RevoluteJoint, WeldJoint
from .materials import MATERIAL_NAMES, part_shapes
from .npz_archive import NPY_HEADER_BYTES, read_archive, read_json
from .packing import concatenate, widen
from .shape_specs import (
    SHAPE_TYPES,
    shape_from_spec,
    shape_spec,
    short,
    spec_vertex_count,
)
from .snapshot_materials import (
    PART_COLUMNS,
    check_part_materials,
    fill_parts_from_bodies,
    shape_densities_of_parts,
)
from .warm_start import FEATURE_BITS, ROW_BITS, WarmStartCache
from .world_base import WorldBase

__all__ = [
    "FORMAT_NAME",
    "VERSION",
    "SAVED_ATTRIBUTES",
    "EXCLUDED_ATTRIBUTES",
    "Snapshot",
    "snapshot",
    "restore",
    "save",
    "load",
    "world_getstate",
    "world_setstate",
]

FORMAT_NAME = "engine-world-snapshot"
VERSION = 4
# What each version added: 2 joints; 3 the units and tolerance settings and the body fields
# below (an older file's bodies get the world's sleep threshold and their shapes' thickness);
# 4 the joint kinds 4 to 9 and the joint fields below (zero in an older file's joints), the
# body density and origin offset, and the handles' tags and user data (an older file's
# dynamic bodies get the density their mass and shapes imply, the others 1, the add_body
# default; every body its centre of mass as origin).
_ADDED_IN_3 = {
    "settings": ("units_per_meter", "linear_slop", "restitution_threshold", "sleep_threshold",
                 "time_to_sleep"),
    "body": ("thickness", "sleep_threshold", "damping", "gravity_scale", "fixed_rotation"),
}  # fmt: skip
_ADDED_IN_4 = {
    "settings": (
        "substeps",
        "relax_iterations",
        "contact_hertz",
        "contact_damping_ratio",
        "max_contact_push_speed",
        "joint_hertz",
        "joint_damping_ratio",
    ),
    "joint": ("axis", "ratio", "rest_angle", "correction", "spring_impulse"),
    "body": ("density", "origin_offset"),
    "header": ("tags", "user_data"),
}
# The joint kinds a file of each version may hold.
_KINDS_UP_TO_3 = (0, 1, 2, 3)
# What an older file's bodies get for the fields it lacks (thickness: from their shapes).
_BODY_DEFAULTS = {
    "thickness": 0.0, "sleep_threshold": 0.0, "damping": 0.0, "gravity_scale": 1.0,
    "fixed_rotation": False, "density": 1.0, "origin_offset": 0.0,
}  # fmt: skip

# Every World attribute and what happens to it. A World with an attribute in neither dict is
# refused by ``snapshot``: new state must be saved or excluded on purpose.
SAVED_ATTRIBUTES = {
    "_gravity": "setting (header settings.gravity)",
    "_dt": "setting",
    "_broadphase": "setting",
    "_cell_size": "setting",
    "velocity_iterations": "setting",
    "position_iterations": "setting",
    "max_steps_per_advance": "setting",
    "sleep": "setting",
    "_units_per_meter": "setting",
    "_linear_slop": "setting",
    "_restitution_threshold": "setting",
    "_sleep_threshold": "setting",
    "_time_to_sleep": "setting",
    "substeps": "setting",
    "relax_iterations": "setting",
    "contact_hertz": "setting",
    "contact_damping_ratio": "setting",
    "max_contact_push_speed": "setting",
    "joint_hertz": "setting",
    "joint_damping_ratio": "setting",
    "_bodies": "body table, every field (arrays body.*)",
    "_parts": "part table, every field, and next_uid (arrays part.*)",
    "_handles": "as body ids (body.body_id) and shapes (header shapes, handle_shapes)",
    "_row_of_id": "array row_of_id (ids up to next_id)",
    "_next_id": "header state.next_id",
    "_joints": "joint table, every field (arrays joint.*), impulses included",
    "_joint_handles": "as joint ids (joint.joint_id) and classes (joint.kind)",
    "_next_joint_id": "header state.next_joint_id",
    "_warm": "warm-start cache, every array (arrays warm.*)",
    "_accumulator": "header state.accumulator",
    "_steps": "header state.steps",
    "_pose_revision": "header state.pose_revision",
    "_next_island": "header state.next_island",
    "_event_log": "the event log: its to_arrays (contact_keys, sensor_*, contacts.*, "
    "events.*; its own SAVED and EXCLUDED say what of it), header state.stepped",
}
EXCLUDED_ATTRIBUTES = {
    "_handle_array": "cache of _handles as an object array, rebuilt on demand",
    "_query_index": "cache of the query index, rebuilt by the first query after a change "
    "(a restore moves the pose revision on; other copies start with an empty cache)",
    # Within a step only: snapshot and restore refuse to run during a step (from a presolve
    # handler), and between steps these are always False, [] and None.
    "_stepping": "true only during a step",
    "_running": "true only while step() or advance() runs (refuses stepping from a handler)",
    "_deferred": "adds, removes and writes asked for during a step, applied at its end",
}
# The components a World holds, each listing its own attributes (saved or excluded), as the
# World's are listed above: World attribute -> the component's class.
_COMPONENTS = {"_event_log": EventLog}

# World() argument -> World attribute, for the settings.
_SETTINGS = {
    "gravity": "_gravity",
    "dt": "_dt",
    "broadphase": "_broadphase",
    "cell_size": "_cell_size",
    "velocity_iterations": "velocity_iterations",
    "position_iterations": "position_iterations",
    "max_steps_per_advance": "max_steps_per_advance",
    "sleep": "sleep",
    "units_per_meter": "_units_per_meter",
    "linear_slop": "_linear_slop",
    "restitution_threshold": "_restitution_threshold",
    "sleep_threshold": "_sleep_threshold",
    "time_to_sleep": "_time_to_sleep",
    "substeps": "substeps",
    "relax_iterations": "relax_iterations",
    "contact_hertz": "contact_hertz",
    "contact_damping_ratio": "contact_damping_ratio",
    "max_contact_push_speed": "max_contact_push_speed",
    "joint_hertz": "joint_hertz",
    "joint_damping_ratio": "joint_damping_ratio",
}
# Header state field -> World attribute, for the scalars ("next_part_uid" and "stepped" are
# the part table's and the event bookkeeping's).
_STATE = {
    "next_id": "_next_id",
    "next_joint_id": "_next_joint_id",
    "accumulator": "_accumulator",
    "steps": "_steps",
    "pose_revision": "_pose_revision",
    "next_island": "_next_island",
}
# Body fields that are +inf for static and kinematic bodies; every other float is finite.
_MAY_BE_INFINITE = frozenset({"mass", "inertia"})
# Joint limits: the one infinity each may hold, meaning "no limit"; other floats are finite.
_NO_LIMIT = {"lower": -np.inf, "upper": np.inf}
_JOINT_CLASSES = {
    cls._kind: cls
    for cls in (
        RevoluteJoint, DistanceJoint, WeldJoint, MouseJoint, PrismaticJoint, WheelJoint,
        RopeJoint, AngularSpring, GearJoint, MotorJoint,
    )
}  # fmt: skip
# Body-pair keys pack two ids into 32 bits each; point keys pack part rows into ROW_BITS.
_MAX_IDS = 2**31
_MAX_PARTS = 2**ROW_BITS
_INT64_MAX = 2**63 - 1

_HEADER_FIELDS = frozenset(
    {"format", "version", "settings", "state", "counts", "shapes", "handle_shapes"}
    | set(_ADDED_IN_4["header"])
)
# How far a recomputed centre of mass may be from the saved one, relative to the body's
# size, for bodies whose shapes have different densities (see ``_check_geometry``): a few
# thousand units in the last place, far below anything a file could change by it.
RECOMPUTED_CENTROID = 1e-12
# Outline vertices that removed bodies' shapes (which have no parts in a file) may hold
# together, beyond as many as the live bodies' parts hold.
REMOVED_SHAPE_VERTICES = 4096


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
        header = _file_header(self)
        return _snapshot_from_pickle, (header, dict(self._arrays))


def _snapshot_from_pickle(header: dict, arrays: dict) -> Snapshot:
    """A Snapshot from its pickled form; shapes are rebuilt (and checked) by ``restore``."""
    return Snapshot(header, {name: np.array(a) for name, a in arrays.items()}, None, None, None)


# -- taking a snapshot -------------------------------------------------------------------------
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
    SAVED_ATTRIBUTES), or for a shape type this module cannot describe.
    """
    _check_world(world, "world")
    _check_not_stepping(world, "snapshot")
    attributes = set(vars(world))
    unknown = attributes - SAVED_ATTRIBUTES.keys() - EXCLUDED_ATTRIBUTES.keys()
    if unknown:
        raise TypeError(
            f"World attribute(s) {', '.join(sorted(unknown))} neither saved nor excluded by "
            "engine.snapshot: add each to SAVED_ATTRIBUTES (and save it) or to "
            "EXCLUDED_ATTRIBUTES (with the reason)"
        )
    for attribute, component in _COMPONENTS.items():
        unknown = set(vars(getattr(world, attribute))) - component.SAVED.keys()
        unknown -= component.EXCLUDED.keys()
        if unknown:
            raise TypeError(
                f"{component.__name__} attribute(s) {', '.join(sorted(unknown))} neither saved "
                f"nor excluded: add each to {component.__name__}.SAVED (and to its to_arrays) "
                "or to its EXCLUDED (with the reason)"
            )
    arrays = {}
    bodies, parts, joints = world._bodies, world._parts, world._joints
    for prefix, table in (("body", bodies), ("part", parts.table), ("joint", joints)):
        for name in table.arrays:
            arrays[f"{prefix}.{name}"] = table.view(name).copy()
    # The part table keeps the width of the widest part it ever held; a snapshot keeps only
    # what its live parts need (a file may claim no wider parts than its shapes make).
    width = max(4, int(parts.table.view("count").max(initial=0)))
    for name in ("vertices", "normals"):
        arrays[f"part.{name}"] = np.ascontiguousarray(arrays[f"part.{name}"][:, :width])
    arrays["row_of_id"] = world._row_of_id[: world._next_id].copy()
    warm = world._warm
    for name, value in vars(warm).items():
        if not isinstance(value, np.ndarray):
            raise TypeError(f"WarmStartCache attribute {name} is not an array: cannot save it")
        arrays[f"warm.{name}"] = value.copy()

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
    stepped = world._event_log.stepped

    extra_ids = np.array(sorted(referenced), dtype=np.int64)
    arrays["extra_handle_ids"] = extra_ids
    handles = list(world._handles) + [referenced[int(i)] for i in extra_ids]
    for handle in handles:
        for shape in handle._shapes:
            if type(shape) not in SHAPE_TYPES.values():
                raise TypeError(f"cannot save a shape of type {type(shape).__name__}")
    header = {
        "format": FORMAT_NAME,
        "version": VERSION,
        "settings": {arg: _json_value(getattr(world, attr)) for arg, attr in _SETTINGS.items()},
        "state": {
            **{key: _json_value(getattr(world, attr)) for key, attr in _STATE.items()},
            "next_part_uid": int(parts.next_uid),
            "stepped": stepped,
        },
        "counts": {
            "bodies": bodies.count,
            "parts": parts.count,
            "part_width": width,
            "joints": joints.count,
        },
    }
    return Snapshot(
        header,
        arrays,
        tuple(handle._shapes for handle in handles),
        tuple(weakref.ref(handle) for handle in handles),
        tuple(weakref.ref(joint) for joint in world._joint_handles),
        tuple((handle._tag, handle._user_data) for handle in handles),
    )


# -- restoring ---------------------------------------------------------------------------------
def restore(world, snap: Snapshot) -> None:
    """Set the state of ``world`` to ``snap`` (taken from this world or another one).

    The snapshot is checked first; a bad one raises ValueError and leaves the world as it
    was. Handles of this world keep working for the bodies and joints that exist in the
    snapshot, and report "removed" for the others. Body and joint ids are never reused:
    those added after a restore get ids above every id this world has handed out (the
    relative order of ids, all that event order depends on, is unchanged). The world keeps
    its event handlers.
    During a step (from a presolve handler) it raises RuntimeError; from a contact or
    sensor handler it works, but the handlers after it still get the step's events.
    """
    _check_world(world, "world")
    _check_not_stepping(world, "restore")
    if not isinstance(snap, Snapshot):
        raise TypeError(f"snap: expected a Snapshot, got {type(snap).__name__}")
    checked = _check(
        snap._header, dict(snap._arrays), snap._shapes, "snapshot", type(world), snap._labels
    )
    _apply(world, checked, snap._handles, snap._joint_handles, fresh=False)


def _check_not_stepping(world, action: str) -> None:
    if getattr(world, "_stepping", False):
        raise RuntimeError(
            f"{action}: not possible during a step (from a presolve handler); "
            "do it between steps, e.g. from a contact handler or after step()"
        )


def _check_world(world, argument: str) -> None:
    if not isinstance(world, WorldBase):
        raise TypeError(f"{argument}: expected a World, got {type(world).__name__}")


# -- files -------------------------------------------------------------------------------------
def save(world, path, compress: bool = False) -> None:
    """Write ``world`` (or a Snapshot) to ``path`` (a path or a binary file object).

    The format is described in the module docstring. A path is written atomically: the
    data goes to a temporary file beside it, renamed over ``path`` when complete, so an
    interrupted save never leaves a truncated file. ``compress``: deflate the arrays
    (smaller, slower).
    """
    snap = world if isinstance(world, Snapshot) else snapshot(world)
    file_header = _file_header(snap)
    _check_json_user_data(file_header, snap._arrays)
    header = json.dumps(file_header, allow_nan=False, separators=(",", ":"))
    arrays = {"header": np.frombuffer(header.encode("utf-8"), dtype=np.uint8)}
    arrays.update(snap._arrays)
    savez = np.savez_compressed if compress else np.savez

    def write(file) -> None:
        savez(file, allow_pickle=False, **arrays)  # never pickle, even by mistake

    if hasattr(path, "write"):
        write(path)
        return
    path = os.fspath(path)
    # Opened by us (numpy would append ".npz" to a name without it), created exclusively
    # under a random name so that the permissions follow the umask as for any new file.
    temporary = f"{path}.{secrets.token_hex(6)}.tmp"
    try:
        with open(temporary, "xb") as file:
            write(file)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def load(path, world_type: type):
    """A new World (of ``world_type``, the World class: ``World.load(path)`` passes it)
    from a file written by :func:`save` (a path or a binary file object).

    Raises ValueError naming the file and the problem for anything that is not a complete,
    consistent snapshot of a version this engine reads; OSError when it cannot be read.
    """
    if hasattr(path, "read"):
        where = str(getattr(path, "name", "<file>"))
        data = path.read()
    else:
        where = os.fspath(path)
        with open(where, "rb") as file:
            data = file.read()
    header, arrays = read_archive(data, where, _known_arrays(), _read_header, _array_limits)
    checked = _check(header, arrays, None, where, world_type)
    world = checked.world
    _apply(world, checked, None, None, fresh=True)
    return world


def _check_json_user_data(header: dict, arrays) -> None:
    """TypeError naming the body whose user_data a file cannot hold (not JSON data)."""
    ids = np.concatenate([arrays["body.body_id"], arrays["extra_handle_ids"]]).tolist()
    for body_id, value in zip(ids, header["user_data"]):
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(
                f"user_data of body {body_id}: a file holds only JSON data (numbers, "
                f"strings, lists, dicts, None), got {type(value).__name__} ({error}); "
                "keep it in memory (snapshot, deepcopy, pickle) or store plain data"
            ) from None


def _file_header(snap: Snapshot) -> dict:
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


def _known_arrays() -> dict:
    """Every array a file of this engine may hold: name -> (dims, dtype); dims are ints or
    the size names of the format table (N, P, K, J, I are the header's; the others vary)."""
    layout = {}
    for name, (trailing, dtype) in BODY_FIELDS.items():
        layout[f"body.{name}"] = (("N", *trailing), dtype)
    for name, (trailing, dtype) in PartTable(width=1).table._fields.items():
        dims = ("P", "K", 2) if name in ("vertices", "normals") else ("P", *trailing)
        layout[f"part.{name}"] = (dims, dtype)
    for name, (trailing, dtype) in JOINT_FIELDS.items():
        layout[f"joint.{name}"] = (("J", *trailing), dtype)
    for name, template in vars(WarmStartCache()).items():
        layout[f"warm.{name}"] = (("W",), template.dtype)
    layout["row_of_id"] = (("I",), np.int64)
    layout["extra_handle_ids"] = (("E",), np.int64)
    layout.update(event_layout())
    return layout


def _array_limits(header: dict, where: str) -> dict:
    """Most bytes each body and part array may claim: name -> bytes (the header counts it).

    The counts are checked first (as ``_check`` checks them), and then against what the
    header's own shapes allow, which is cheap to count: at most one body per entry of
    ``handle_shapes``; per live body, one part per Box, Circle or Polygon and at most n - 2
    per ConcavePolygon of n vertices; parts no wider than the widest outline (or 4). An
    array's member is its data plus a short .npy header (NPY_HEADER_BYTES at most).
    """
    _check_format(header, where)
    state, counts = _header_counts(header, where)
    n, p, k = counts["bodies"], counts["parts"], counts["part_width"]
    specs, handle_shapes = header.get("shapes"), header.get("handle_shapes")
    if not isinstance(specs, list) or not isinstance(handle_shapes, list):
        raise ValueError(f"{where}: header 'shapes' and 'handle_shapes' must be lists")
    if n > len(handle_shapes):
        raise ValueError(f"{where}: header counts {n} bodies but lists shapes for fewer")
    vertices = [spec_vertex_count(spec, i, where) for i, spec in enumerate(specs)]
    most_parts, widest = 0, 4
    for indices in handle_shapes[:n]:
        if not isinstance(indices, list) or not all(
            _is_int(j) and 0 <= j < len(specs) for j in indices
        ):
            continue  # _shapes_from_header names the problem
        for j in indices:
            concave = specs[j]["type"] == "ConcavePolygon"
            most_parts += max(vertices[j] - 2, 1) if concave else 1
            most_parts += vertices[j] - 1 if specs[j]["type"] == "Chain" else 0
            widest = max(widest, vertices[j])
    if p > most_parts or k > widest:
        raise ValueError(
            f"{where}: header counts {p} parts of {k} vertex slots, more than its shapes "
            f"make (at most {most_parts} parts of {widest})"
        )
    sizes = {"N": n, "P": p, "K": k}
    limits = {}
    for name, (dims, dtype) in _known_arrays().items():
        if name.startswith(("body.", "part.")):
            count = math.prod(d if isinstance(d, int) else sizes[d] for d in dims)
            limits[name] = count * np.dtype(dtype).itemsize + NPY_HEADER_BYTES
    return limits


def _read_header(array, where: str) -> dict:
    header = read_json(array, where)
    if "format" not in header:
        raise ValueError(f"{where}: not a world snapshot (format name missing)")
    _check_format(header, where)
    return header


def _check_format(header: dict, where: str) -> None:
    name = header.get("format")
    if name != FORMAT_NAME:
        raise ValueError(
            f"{where}: not a world snapshot (format name is {name!r}, expected {FORMAT_NAME!r})"
        )
    version = header.get("version")
    if not _is_int(version):
        raise ValueError(f"{where}: snapshot version missing or not an integer: {version!r}")
    if version > VERSION:
        raise ValueError(
            f"{where}: snapshot version {version} is newer than this engine reads ({VERSION})"
        )
    if version < 1:
        raise ValueError(f"{where}: unknown snapshot version {version}")


def _shapes_from_header(header: dict, where: str, room: np.ndarray) -> tuple:
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
            or not all(_is_int(j) and 0 <= j < len(specs) for j in indices)
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


# -- checking ----------------------------------------------------------------------------------
class _Checked:
    """A snapshot that passed every check, ready to build from (all arrays native dtype)."""

    __slots__ = (
        "world",
        "state",
        "counts",
        "arrays",
        "shapes",
        "handle_ids",
        "bodies",
        "parts",
        "joints",
        "labels",
    )


class _Checker:
    """Pulls arrays out by name, checking dtype and shape; named sizes bind on first use."""

    def __init__(self, where: str, arrays: dict, sizes: dict):
        self.where, self.arrays, self.sizes, self.used = where, arrays, dict(sizes), set()

    def fail(self, message: str):
        raise ValueError(f"{self.where}: {message}")

    def take(self, name: str, dtype, dims: tuple) -> np.ndarray:
        """Array ``name`` as ``dtype`` with shape ``dims`` (ints, or size names like "N")."""
        if name not in self.arrays:
            self.fail(f"array {name!r} is missing")
        self.used.add(name)
        array, dtype = self.arrays[name], np.dtype(dtype)
        if array.dtype.kind != dtype.kind or array.dtype.itemsize != dtype.itemsize:
            self.fail(f"array {name!r} has dtype {array.dtype}, expected {dtype}")
        for dim, have in zip(dims, array.shape):
            if isinstance(dim, str) and dim not in self.sizes:
                self.sizes[dim] = have
        want = tuple(self.sizes[d] if isinstance(d, str) else d for d in dims)
        if array.shape != want:
            text = "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"
            named = [f"{d} = {self.sizes[d]}" for d in dict.fromkeys(dims) if isinstance(d, str)]
            self.fail(
                f"array {name!r} has shape {array.shape}, expected {text}"
                + (f" with {', '.join(named)}" if named else "")
            )
        return array.astype(dtype, copy=False)  # native byte order

    def supply(self, name: str, value: np.ndarray) -> None:
        """Stand in ``value`` for array ``name``, which an older file does not hold."""
        self.arrays[name] = value
        self.used.add(name)

    def require(self, condition, message: str) -> None:
        if not np.all(condition):
            self.fail(message)

    def finish(self) -> None:
        extra = sorted(set(self.arrays) - self.used)
        if extra:
            self.fail(f"unexpected array {extra[0]!r}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite_number(value) -> bool:
    # JSON ints are unbounded: compare them rather than convert them (10**400 overflows).
    if isinstance(value, float):
        return math.isfinite(value)
    return _is_int(value) and abs(value) <= _INT64_MAX


def _header_section(header: dict, section: str, keys: dict, where: str) -> dict:
    """header[section] as a dict whose keys are exactly ``keys`` (name -> test)."""
    values = header.get(section)
    if not isinstance(values, dict) or set(values) != set(keys):
        raise ValueError(
            f"{where}: header {section!r} must have exactly the fields {sorted(keys)}, "
            f"got {values!r}"
        )
    for key, test in keys.items():
        if not test(values[key]):
            raise ValueError(f"{where}: header field '{section}.{key}' is {values[key]!r}")
    return values


def _header_counts(header: dict, where: str) -> tuple[dict, dict]:
    """The header's sections ``state`` and ``counts``, checked (a version-1 file gets no
    joints); ValueError naming ``where`` and the first problem."""

    def count(value):
        return _is_int(value) and 0 <= value <= _INT64_MAX

    state_fields = {
        "next_id": lambda v: _is_int(v) and 0 <= v <= _MAX_IDS,
        "next_part_uid": count,
        "next_joint_id": count,
        "accumulator": lambda v: _is_finite_number(v) and v >= 0,
        "steps": count,
        "pose_revision": count,
        "next_island": count,
        "stepped": lambda v: isinstance(v, bool),
    }
    count_fields = {
        "bodies": count,
        "parts": lambda v: _is_int(v) and 0 <= v < _MAX_PARTS,
        "part_width": lambda v: _is_int(v) and 1 <= v <= 4096,
        "joints": count,
    }
    has_joints = header["version"] >= 2  # version 1 knew no joints
    if not has_joints:
        del state_fields["next_joint_id"], count_fields["joints"]
    state = _header_section(header, "state", state_fields, where)
    counts = _header_section(header, "counts", count_fields, where)
    if not has_joints:
        state, counts = {**state, "next_joint_id": 0}, {**counts, "joints": 0}
    return state, counts


def _check(
    header: dict,
    arrays: dict,
    shapes: tuple | None,
    where: str,
    world_type: type,
    labels: tuple | None = None,
) -> _Checked:
    """Check a snapshot completely; ValueError naming ``where`` and the first problem.

    shapes: the handles' shapes, or None to build them from the header's specs, which
    happens once everything cheaper has been checked (building a concave shape costs
    time), within the vertex counts that the file's parts allow. world_type: the World
    class, for the new world the settings make. labels: the handles' (tag, user_data), or
    None to read them from the header.
    """

    _check_format(header, where)
    unknown = sorted(set(header) - _HEADER_FIELDS)
    if unknown:
        raise ValueError(f"{where}: header has an unknown field {unknown[0]!r}")
    newer = header["version"] >= 3
    has_labels = header["version"] >= 4
    if labels is None and has_labels:
        missing = sorted(set(_ADDED_IN_4["header"]) - set(header))
        if missing:
            raise ValueError(f"{where}: header lacks the field {missing[0]!r}")
    elif not has_labels and set(_ADDED_IN_4["header"]) & set(header):
        raise ValueError(f"{where}: header has a field its version {header['version']} lacks")
    known = [
        name
        for name in _SETTINGS
        if (newer or name not in _ADDED_IN_3["settings"])
        and (has_labels or name not in _ADDED_IN_4["settings"])
    ]
    settings = _header_section(header, "settings", dict.fromkeys(known, _anything), where)
    try:
        # The World's own argument checks decide which settings are valid.
        world = world_type(**settings)
    except Exception as error:  # TypeError and ValueError, or whatever odd JSON provokes
        raise ValueError(f"{where}: header settings: {error}") from None
    state, counts = _header_counts(header, where)
    has_joints = header["version"] >= 2
    # advance() leaves less than one step banked, or the steps a raising handler cut short.
    if not state["accumulator"] < (world.max_steps_per_advance + 1) * world.dt:
        raise ValueError(
            f"{where}: header field 'state.accumulator' is {state['accumulator']!r}, more "
            "than advance() ever leaves banked"
        )
    n, p, k = counts["bodies"], counts["parts"], counts["part_width"]
    sizes = {"N": n, "P": p, "K": k, "I": state["next_id"], "J": counts["joints"]}
    check = _Checker(where, arrays, sizes)

    # Bodies: exactly the fields of this engine's body table.
    bodies = {}
    for name, (trailing, dtype) in world._bodies._fields.items():
        if (not newer and name in _ADDED_IN_3["body"]) or (
            not has_labels and name in _ADDED_IN_4["body"]
        ):
            bodies[name] = np.full((n, *trailing), _BODY_DEFAULTS[name], dtype=dtype)
            continue
        bodies[name] = value = check.take(f"body.{name}", dtype, ("N", *trailing))
        if name in RULES:  # the settings' rules, as add_body and the setters check them
            check.require(RULES[name].holds(value), column_message("body", name))
        if value.dtype.kind == "f":
            allowed = ~np.isnan(value) if name in _MAY_BE_INFINITE else np.isfinite(value)
            check.require(allowed, f"array 'body.{name}' holds NaN or infinity")
    _check_bodies(check, bodies, state["next_id"])

    # Parts: this engine's part fields, K vertex slots.
    parts = {}
    for name, (trailing, dtype) in PartTable(width=k).table._fields.items():
        if not has_labels and name in PART_COLUMNS:
            parts[name] = np.zeros(p, dtype=dtype)  # from the bodies, in _check_geometry
            continue
        dims = ("P", "K", 2) if trailing == (k, 2) else ("P", *trailing)
        parts[name] = value = check.take(f"part.{name}", dtype, dims)
        if value.dtype.kind == "f":
            check.require(np.isfinite(value), f"array 'part.{name}' holds NaN or infinity")
    _check_parts(check, parts, n, k, state["next_part_uid"])

    row_of_id = check.take("row_of_id", np.int64, ("I",))
    check.require((row_of_id >= -1) & (row_of_id < n), "array 'row_of_id' holds rows out of range")
    check.require(
        row_of_id[bodies["body_id"]] == np.arange(n), "arrays 'row_of_id' and 'body.body_id' differ"
    )
    check.require(np.sum(row_of_id >= 0) == n, "array 'row_of_id' maps ids to removed rows")

    # Joints: exactly the fields of this engine's joint table (none in a version-1 file).
    joints = {}
    for name, (trailing, dtype) in world._joints._fields.items():
        if not has_joints:
            joints[name] = np.zeros((0, *trailing), dtype=dtype)
            continue
        if header["version"] < 4 and name in _ADDED_IN_4["joint"]:
            joints[name] = np.zeros((counts["joints"], *trailing), dtype=dtype)
            continue
        joints[name] = value = check.take(f"joint.{name}", dtype, ("J", *trailing))
        if value.dtype.kind == "f":
            allowed = np.isfinite(value)
            if name in _NO_LIMIT:
                allowed |= value == _NO_LIMIT[name]
            check.require(allowed, f"array 'joint.{name}' holds NaN or infinity")
    if has_joints and header["version"] < 4:
        check.require(
            np.isin(joints["kind"], _KINDS_UP_TO_3),
            f"array 'joint.kind' has kinds a version {header['version']} file cannot hold",
        )
    _check_joints(check, joints, bodies["kind"], row_of_id, state["next_joint_id"])

    warm = {}
    for name, template in vars(WarmStartCache()).items():
        warm[name] = check.take(f"warm.{name}", template.dtype, ("W",))
        if template.dtype.kind == "f":
            check.require(np.isfinite(warm[name]), f"array 'warm.{name}' holds NaN or infinity")
    keys = warm.get("keys", np.zeros(0, np.int64))
    check.require(keys >= 0, "array 'warm.keys' holds negative keys")
    check.require(np.diff(keys) >= 0, "array 'warm.keys' is not sorted")
    check.require(
        (keys >> (ROW_BITS + FEATURE_BITS) < p) & ((keys >> FEATURE_BITS) & (_MAX_PARTS - 1) < p),
        "array 'warm.keys' names parts out of range",
    )

    # Handles: the live bodies, then removed bodies that events still name.
    extra = check.take("extra_handle_ids", np.int64, ("E",))
    check.require((extra >= 0) & (extra < state["next_id"]), "extra handle ids out of range")
    check.require(np.diff(extra) > 0, "array 'extra_handle_ids' is not sorted and unique")
    check.require(row_of_id[extra] == -1, "array 'extra_handle_ids' names live bodies")
    handle_ids = np.concatenate([bodies["body_id"], extra])
    EventLog.validate(check, state["stepped"], handle_ids, has_labels)
    check.finish()

    # Last, the shapes: built only now, within what the file's parts allow.
    if shapes is None:
        room = np.bincount(parts["body"], weights=parts["count"], minlength=n).astype(np.int64)
        shapes = _shapes_from_header(header, where, room)
    if len(shapes) != len(handle_ids):
        check.fail(
            f"header 'handle_shapes' has {len(shapes)} entries, expected {len(handle_ids)} (N + E)"
        )
    _check_geometry(check, shapes[:n], bodies, parts, k, newer, has_labels)
    EventLog.validate_shapes(check, shapes, handle_ids, state["next_id"])
    if labels is None:
        labels = _labels_from_header(header, len(handle_ids), has_labels, where)

    checked = _Checked()
    checked.labels = labels
    checked.world, checked.state, checked.counts = world, state, counts
    checked.shapes, checked.handle_ids = shapes, handle_ids
    checked.bodies, checked.parts, checked.joints = bodies, parts, joints
    checked.arrays = {name: check.arrays[name] for name in check.used}
    return checked


def _anything(value) -> bool:
    return True  # the World constructor checks settings


def _labels_from_header(header: dict, count: int, has_labels: bool, where: str) -> tuple:
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


def _check_geometry(
    check: _Checker,
    shapes: tuple,
    bodies: dict,
    parts: dict,
    k: int,
    has_thickness: bool,
    has_density: bool,
) -> None:
    """The parts, reaches, thicknesses, materials and mass properties that ``add_body``
    makes from the shapes.

    shapes: the N live bodies' shapes (tuples); bodies, parts: the checked arrays; k: the
    part width K; has_thickness, has_density: the file holds body.thickness, body.density
    and the part materials (else they are filled in here). Parts must match bit for bit
    (they were computed by the same code), except for bodies whose shapes have different
    densities: their centre of mass is recomputed from densities a new ``mass`` may have
    scaled, which rounds differently, so their parts and origin offset may differ from it
    by RECOMPUTED_CENTROID (relative to the body's size). A dynamic body's mass must be
    what its part densities give, to rounding; before density was saved (and inertia could
    be set by hand), inertia over mass had to equal the shapes' moment over area (one
    density).
    """
    n = len(shapes)
    owner = parts["body"]
    first = np.searchsorted(owner, np.arange(n))
    last = np.searchsorted(owner, np.arange(n), side="right")
    for row in range(n):
        if len(part_shapes(shapes[row])) != last[row] - first[row]:
            check.fail(f"body row {row}: its shapes have other parts than array 'part.body' says")
    if not has_density:
        fill_parts_from_bodies(shapes, bodies, parts)  # densities are set below
    else:
        check_part_materials(check, shapes, bodies, parts, first, last)
    made: dict = {}
    expected = []
    ratio, area, mass = np.ones(n), np.ones(n), np.ones(n)
    centroid = np.zeros((n, 2))
    reach, thickness, tolerance = np.zeros(n), np.zeros(n), np.zeros(n)
    for row in range(n):
        densities = shape_densities_of_parts(parts, slice(first[row], last[row]), len(shapes[row]))
        key = (tuple(id(shape) for shape in shapes[row]), tuple(densities.tolist()))
        if key not in made:
            made[key] = body_geometry(shapes[row], densities if has_density else None)
        geometry = made[key]
        if geometry.parts.width > k:
            check.fail(f"body row {row}: its shapes have other parts than array 'part.body' says")
        expected.append(widen(geometry.parts, k))
        reach[row] = geometry.reach
        thickness[row] = geometry.thickness
        # A body of lines alone has no area (and is never dynamic): its ratio is not read.
        ratio[row] = geometry.moment / geometry.area if geometry.area > 0.0 else 1.0
        area[row], mass[row] = geometry.area, geometry.mass
        centroid[row] = geometry.centroid
        if len(set(densities.tolist())) > 1:
            size = geometry.reach + float(np.abs(geometry.centroid).max())
            tolerance[row] = RECOMPUTED_CENTROID * size
    if n == 0:
        return
    packed = concatenate(expected)
    for name in ("normals", "count", "radius"):
        check.require(
            np.array_equal(getattr(packed, name), parts[name]),
            f"array 'part.{name}' differs from the parts of the header's shapes",
        )
    check.require(
        np.abs(packed.vertices - parts["vertices"]) <= tolerance[owner][:, None, None],
        "array 'part.vertices' differs from the parts of the header's shapes",
    )
    # Reaches and thicknesses follow from the saved parts, exactly.
    part_reach = np.sqrt((parts["vertices"] ** 2).sum(axis=2)).max(axis=1) + parts["radius"]
    check.require(
        np.array_equal(part_reach, parts["reach"]), "array 'part.reach' is not the parts'"
    )
    exact = tolerance == 0.0
    check.require(
        np.abs(bodies["reach"] - reach) <= 2 * tolerance,
        "array 'body.reach' is not the reach of its shapes",
    )
    check.require(
        bodies["reach"] == np.maximum.reduceat(part_reach, first), "array 'body.reach' is not "
        "the reach of its parts",
    )  # fmt: skip
    if not has_thickness:
        bodies["thickness"][:] = thickness
    check.require(
        np.abs(bodies["thickness"] - thickness) <= 2 * tolerance,
        "array 'body.thickness' is not its shapes' thickness",
    )
    offset = bodies["origin_offset"]
    check.require(
        (offset == 0.0).all(axis=1)
        | (offset == -centroid).all(axis=1)
        | (~exact & (np.abs(offset + centroid) <= tolerance[:, None]).all(axis=1)),
        "array 'body.origin_offset' is neither 0 nor the way from the shapes' centroid to "
        "their origin",
    )
    dynamic = bodies["kind"] == DYNAMIC
    if not has_density:
        bodies["density"][dynamic] = bodies["mass"][dynamic] / area[dynamic]
        parts["density"][:] = bodies["density"][owner]
        with np.errstate(over="ignore", invalid="ignore"):
            relative = (bodies["inertia"] / bodies["mass"]) / ratio - 1.0
        check.require(
            np.abs(relative[dynamic]) <= 1e-12,
            "arrays 'body.mass' and 'body.inertia' do not fit the shapes with one density",
        )
        return
    with np.errstate(over="ignore", invalid="ignore"):
        relative = bodies["mass"] / mass - 1.0
    check.require(
        np.abs(relative[dynamic]) <= 1e-12,
        "arrays 'body.mass' and 'part.density' do not fit the shapes' areas",
    )


def _check_bodies(check: _Checker, bodies: dict, next_id: int) -> None:
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
        check.require(
            inverse[turning] == 1.0 / bodies[name][turning],
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


def _check_joints(
    check: _Checker, joints: dict, body_kind: np.ndarray, row_of_id: np.ndarray, next_id: int
) -> None:
    """The invariants ``World.add_joint`` and the joint handles' setters establish.

    joints: field -> (J, ...) arrays; body_kind: (N,) int8; row_of_id: (I,) checked.
    """
    kind = joints["kind"]
    check.require(np.isin(kind, list(_JOINT_CLASSES)), "array 'joint.kind' has unknown kinds")
    ids = joints["joint_id"]
    check.require((ids >= 0) & (ids < next_id), "array 'joint.joint_id' holds ids out of range")
    check.require(len(np.unique(ids)) == len(ids), "array 'joint.joint_id' repeats ids")

    body_a, body_b = joints["body_a"], joints["body_b"]
    row_a, row_b = _rows_of_ids(body_a, row_of_id), _rows_of_ids(body_b, row_of_id)
    check.require(
        (row_a >= 0) | (body_a == WORLD), "array 'joint.body_a' names bodies that do not exist"
    )
    check.require(row_b >= 0, "array 'joint.body_b' names bodies that do not exist (or the world)")
    check.require(body_a != body_b, "a joint joins a body to itself ('joint.body_a' == 'body_b')")
    # Row -1 (the world, or no body) indexes the appended False: never dynamic.
    dynamic = np.append(body_kind == DYNAMIC, False)
    check.require(
        dynamic[row_a] | dynamic[row_b], "a joint has no dynamic body ('joint.body_a', 'body_b')"
    )
    mouse = kind == MOUSE
    check.require(body_a[mouse] == WORLD, "a mouse joint is not held to the world (body_a)")

    check.require(joints["lower"] <= joints["upper"], "array 'joint.lower' exceeds 'joint.upper'")
    check.require(
        joints["length"][kind == DISTANCE] > 0.0, "array 'joint.length' is <= 0 for distance"
    )
    for name in ("frequency", "damping", "max_force", "max_motor_torque"):
        check.require(joints[name] >= 0.0, f"array 'joint.{name}' holds negative values")
    check.require(joints["frequency"][mouse] > 0.0, "array 'joint.frequency' is 0 for mouse")

    # The kinds of format 4.
    sprung = (kind == WHEEL) | (kind == ANGULAR_SPRING)
    check.require(
        joints["frequency"][sprung] > 0.0, "array 'joint.frequency' is 0 for a wheel or spring"
    )
    axial = (kind == PRISMATIC) | (kind == WHEEL)
    size = np.hypot(joints["axis"][:, 0], joints["axis"][:, 1])
    check.require(
        np.abs(size[axial] - 1.0) <= 1e-9, "array 'joint.axis' is not a unit vector for an axis"
    )
    check.require(joints["length"][kind == ROPE] > 0.0, "array 'joint.length' is <= 0 for rope")
    gear = kind == GEAR
    ratio = np.abs(joints["ratio"][gear])
    check.require(
        (ratio >= 1.0 / MAX_RATIO) & (ratio <= MAX_RATIO), "array 'joint.ratio' out of range"
    )
    check.require(body_a[gear] != WORLD, "a gear joint is held to the world (body_a)")
    correction = joints["correction"]
    check.require(
        (correction >= 0.0) & (correction <= 1.0), "array 'joint.correction' out of [0, 1]"
    )


def _rows_of_ids(ids: np.ndarray, row_of_id: np.ndarray) -> np.ndarray:
    """The body row of each id (same shape), -1 for removed ids and ids out of range."""
    rows = np.full(ids.shape, -1, dtype=np.int64)
    inside = (ids >= 0) & (ids < len(row_of_id))
    rows[inside] = row_of_id[ids[inside]]
    return rows


def _check_parts(check: _Checker, parts: dict, n: int, k: int, next_uid: int) -> None:
    """Parts in body order, each body with at least one, vertex counts within the slots."""
    owner = parts["body"]
    check.require((owner >= 0) & (owner < n), "array 'part.body' holds rows out of range")
    check.require(np.diff(owner) >= 0, "array 'part.body' is not in body order")
    check.require(np.bincount(owner, minlength=n) > 0, "a body has no parts in 'part.body'")
    count, radius = parts["count"], parts["radius"]
    check.require((count >= 1) & (count <= k), "array 'part.count' out of range")
    check.require(radius >= 0.0, "array 'part.radius' holds negative radii")
    # A circle is one vertex with a radius; a polygon has at least three vertices and none;
    # a segment has two, with a radius or without.
    check.require(
        np.where(radius > 0.0, count <= 2, count >= 2), "parts neither circle, segment nor polygon"
    )
    check.require(parts["reach"] >= 0.0, "array 'part.reach' holds negative values")
    uid = parts["uid"]
    check.require((uid >= 0) & (uid < next_uid), "array 'part.uid' holds ids out of range")
    check.require(len(np.unique(uid)) == len(uid), "array 'part.uid' repeats ids")


# -- building ----------------------------------------------------------------------------------
def _apply(
    world,
    checked: _Checked,
    references: tuple | None,
    joint_references: tuple | None,
    fresh: bool,
) -> None:
    """Build the new state objects from ``checked``, then swap them into ``world`` at once.

    references, joint_references: weak references to the snapshot's Body and Joint handles
    (None: build new ones). fresh: ``world`` was just made (load, unpickling): ids and the
    pose revision are taken as saved. Otherwise handles of ``world`` may be out there: ids
    stay above every id handed out, and the pose revision moves past every value the query
    cache has seen.
    """
    state, counts, arrays = checked.state, checked.counts, checked.arrays
    n, p, k, j = counts["bodies"], counts["parts"], counts["part_width"], counts["joints"]

    bodies = Table(world._bodies._fields, capacity=max(16, n))
    for name, value in checked.bodies.items():
        bodies.arrays[name][:n] = value
    bodies.count = n
    parts = PartTable(capacity=max(16, p), width=k)
    for name, value in checked.parts.items():
        parts.table.arrays[name][:p] = value
    parts.table.count = p
    parts.next_uid = state["next_part_uid"]
    joints = Table(world._joints._fields, capacity=max(16, j))
    for name, value in checked.joints.items():
        joints.arrays[name][:j] = value
    joints.count = j

    next_id = state["next_id"] if fresh else max(state["next_id"], world._next_id)
    next_joint_id = state["next_joint_id"]
    if not fresh:
        next_joint_id = max(next_joint_id, world._next_joint_id)
    length = max(16, next_id, 0 if fresh else len(world._row_of_id))
    row_of_id = np.full(length, -1, dtype=np.int64)  # -1: removed, or not handed out yet
    row_of_id[: state["next_id"]] = arrays["row_of_id"]

    warm = WarmStartCache()
    for name in vars(warm):
        setattr(warm, name, arrays[f"warm.{name}"].copy())

    # Handles: the same objects where this world's handles are still alive.
    handles = []
    for i, body_id in enumerate(checked.handle_ids.tolist()):
        handle = references[i]() if references is not None else None
        if handle is None or handle._world is not world or handle._id != body_id:
            handle = Body(world, body_id, tuple(checked.shapes[i]), *checked.labels[i])
        handles.append(handle)
    by_id = np.empty(max(1, state["next_id"]), dtype=object)
    by_id[checked.handle_ids] = handles
    joint_handles, joint_bodies = _build_joint_handles(
        world, checked.joints, by_id, joint_references
    )

    def handles_of(name: str) -> np.ndarray:
        ids = arrays[name]
        result = np.empty(ids.shape, dtype=object)
        result[...] = by_id[ids]
        return result

    # Restore keeps the world's own handlers (code, not state).
    event_log = EventLog.from_arrays(
        arrays, handles_of, state["stepped"], world._event_log.handlers
    )

    # Nothing below can fail: the world changes completely or (above) not at all.
    previous_revision = world._pose_revision
    for attribute in _SETTINGS.values():
        setattr(world, attribute, getattr(checked.world, attribute))
    world._bodies = bodies
    world._parts = parts
    world._handles = handles[:n]
    world._handle_array = None
    world._row_of_id = row_of_id
    world._warm = warm
    world._joints = joints
    for joint, (body_a, body_b) in zip(joint_handles, joint_bodies):
        joint._body_a, joint._body_b = body_a, body_b
    world._joint_handles = joint_handles
    for handle, (tag, user_data) in zip(handles, checked.labels):
        handle._tag, handle._user_data = tag, user_data
    for key, attribute in _STATE.items():
        setattr(world, attribute, state[key])
    world._accumulator = float(state["accumulator"])
    world._next_id = next_id
    world._next_joint_id = next_joint_id
    if not fresh:
        # Past every value this world had: a query index cached for any earlier state of
        # it (another restore of this very snapshot included) must not match any more.
        world._pose_revision = max(state["pose_revision"], previous_revision) + 1
    world._event_log = event_log


def _build_joint_handles(world, joints: dict, by_id: np.ndarray, references: tuple | None):
    """The Joint handles of the joint rows, and the user-facing bodies of each.

    A handle of this world that the snapshot holds is reused (matched by joint id); any
    other is a new object of the class of its kind code. joints: field -> (J, ...) arrays;
    by_id: object array, body id -> the restored world's Body handle. Returns (handles,
    [(body_a, body_b)]): the caller sets the bodies once nothing can fail any more (a joint
    to the world is stored with the world in slot A, but its user gave the body first).
    """
    alive = [reference() for reference in references or ()]
    own = {joint._id: joint for joint in alive if joint is not None and joint._world is world}
    handles, bodies = [], []
    rows = zip(*(joints[name].tolist() for name in ("joint_id", "kind", "body_a", "body_b")))
    for joint_id, kind, id_a, id_b in rows:
        cls = _JOINT_CLASSES[kind]
        handle = own.get(joint_id)
        if type(handle) is not cls:
            handle = cls.__new__(cls)
            handle._world, handle._id = world, joint_id
            handle._points, handle._spec = None, {}  # only read before a joint is added
            handle._body_a = handle._body_b = None
        handles.append(handle)
        if id_a == WORLD:
            bodies.append((by_id[id_b], None))
        else:
            bodies.append((by_id[id_a], by_id[id_b]))
    return handles, bodies


# -- copy.deepcopy and pickle ------------------------------------------------------------------
def world_getstate(world) -> dict:
    """``World.__getstate__``: a snapshot and the event handlers.

    deepcopy: the copy shares the (immutable) snapshot and calls the same handler objects.
    pickle: the snapshot is pickled as arrays and shape data; each handler is pickled too,
    and one that cannot be raises TypeError naming it.
    """
    snap = snapshot(world)
    # Outside the (shared, immutable) snapshot, so that deepcopy copies the user data.
    user_data = [data for _, data in snap._labels]
    return {
        "snapshot": snap,
        "handlers": _Handlers(world._event_log.handlers),
        "user_data": user_data,
    }


def world_setstate(world, state: dict) -> None:
    """``World.__setstate__``: ``world`` is a bare ``World.__new__`` object."""
    if not isinstance(state, dict) or not isinstance(state.get("snapshot"), Snapshot):
        raise ValueError("pickled World: its state is not a World snapshot")
    world_type = type(world)
    snap = state["snapshot"]
    where = "pickled World"
    checked = _check(snap._header, dict(snap._arrays), snap._shapes, where, world_type,
                     snap._labels)  # fmt: skip
    user_data = state.get("user_data")
    if isinstance(user_data, list) and len(user_data) == len(checked.labels):
        checked.labels = tuple((tag, data) for (tag, _), data in zip(checked.labels, user_data))
    # A fully initialised World first, so that what this module does not restore (handlers,
    # caches, attributes added later with their defaults) is as a new World has it.
    probe = checked.world
    world_type.__init__(world, **{arg: getattr(probe, attr) for arg, attr in _SETTINGS.items()})
    _apply(world, checked, snap._handles, snap._joint_handles, fresh=True)
    handlers = state.get("handlers")
    if isinstance(handlers, _Handlers):
        for event, functions in handlers.by_event.items():
            world._event_log.handlers[event] = list(functions)


class _Handlers:
    """A World's handlers inside its copied or pickled state.

    deepcopy keeps the handler objects (functions cannot be meaningfully deep-copied, and
    a copied bound method would drag a copy of its whole object along); pickling checks
    each handler first so that the error names the culprit.
    """

    __slots__ = ("by_event",)

    def __init__(self, by_event: dict):
        self.by_event = {event: list(functions) for event, functions in by_event.items()}

    def __copy__(self) -> _Handlers:
        return _Handlers(self.by_event)

    def __deepcopy__(self, memo) -> _Handlers:
        return _Handlers(self.by_event)

    def __reduce__(self):
        _check_picklable(self.by_event)
        return _Handlers, (self.by_event,)


# Set while checking handlers: a handler whose pickle holds the world (a bound method of a
# game object that owns it) would otherwise check itself again, forever.
_checking = threading.local()


def _check_picklable(by_event: dict) -> None:
    if getattr(_checking, "active", False):
        return
    _checking.active = True
    try:
        for event, functions in by_event.items():
            for function in functions:
                try:
                    pickle.dumps(function)
                except Exception as error:
                    name = getattr(function, "__qualname__", None) or repr(function)
                    raise TypeError(
                        f"cannot pickle World: its {event!r} handler {name} cannot be pickled "
                        f"({error}); unregister it with world.off({event!r}, handler) first, "
                        "or register a module-level function"
                    ) from error
    finally:
        _checking.active = False
