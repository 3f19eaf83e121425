"""Adding and removing many bodies at once: ``add_bodies`` and ``remove_bodies``.

A batch is checked whole before anything changes, so a bad body leaves the world as it
was (all or nothing); then it goes in with one write per column of the body and part
tables, not one per body and field. The world it leaves is the one that adding (or
removing) the same bodies one at a time, in order, leaves, bit for bit: the same rows in
the same order, ids and part ids, masses, woken islands and warm-start points.
"""

from __future__ import annotations

import math

import numpy as np

from .body import Body
from .body_columns import (
    bounded_rows,
    check_lengths,
    flags,
    integers,
    labels,
    numbers_of,
    one_each,
    ruled,
    vectors,
)
from .body_store import DYNAMIC, KIND_CODES, STATIC
from .body_template import template
from .field_rules import check_number
from .filtering import check_tag
from .materials import PART_MATERIALS, check_density, check_flag, check_friction, check_restitution
from .motion_settings import check_damping
from .packing import PackedParts, widen
from .segments import check_dynamic
from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED
from .shapes import Shape
from .validation import as_bounded_float, as_finite_float, as_positive_float
from .world_bodies import _check_shapes


class WorldBatches:
    """Adding and removing many bodies in one call (part of ``World``)."""

    def add_bodies(
        self,
        shapes,
        positions,
        angles=0.0,
        velocities=(0.0, 0.0),
        angular_velocities=0.0,
        density=1.0,
        friction=0.6,
        restitution=0.0,
        kind="dynamic",
        bullet=False,
        sensor=False,
        category=0x0001,
        mask=0xFFFF,
        group=0,
        sleep_threshold=None,
        linear_damping=0.0,
        angular_damping=0.0,
        gravity_scale=1.0,
        fixed_rotation=False,
        enable_sleep=True,
        tag=None,
        user_data=None,
        origin: str = "centroid",
    ) -> list:
        """Add B bodies at once; returns their handles, in order. The same as B calls of
        ``add_body`` (same rows, ids and results, bit for bit), at a fraction of the cost.

        positions: (B, 2) float64, which sets B. shapes: one Shape for every body, or a
        list or tuple of B entries, each a Shape or a list of shapes (one body's). Every
        other argument is ``add_body``'s, given once for every body or once per body:
        angles, angular_velocities: a number or (B,); velocities: (2,) or (B, 2);
        density, friction, restitution, linear_damping, angular_damping, gravity_scale,
        sleep_threshold (None: the world's): a number or (B,) float; category, mask,
        group: an int or (B,) int; bullet, sensor, fixed_rotation, enable_sleep: a bool or
        (B,) bool;
        kind, tag: a str (tag: or None) or a list of B; user_data: None or a list of B
        values (one per body); origin: "centroid" or "local", for every body.

        Checked whole before anything is added: if any body is refused, none is, and the
        error names the argument and, for a per-body one, the body (``friction[3]: must
        be >= 0, got -1``).
        """
        positions = bounded_rows(positions, "positions", MAX_COORDINATE, "m")
        count = len(positions)
        bodies = _body_shapes(shapes, count)
        angles = numbers_of(angles, count, "angles", as_finite_float)
        velocities = vectors(velocities, count, "velocities", MAX_SPEED, "m/s")
        angular_velocities = numbers_of(
            angular_velocities, count, "angular_velocities", _spin,
            lambda spins: np.abs(spins) <= MAX_ANGULAR_SPEED,
        )  # fmt: skip
        density = ruled("density", density, count, "density", check_density)
        friction = ruled("friction", friction, count, "friction", check_friction)
        restitution = ruled("restitution", restitution, count, "restitution", check_restitution)
        kinds = _kind_codes(kind, count)
        bullet = flags(bullet, count, "bullet", check_flag)
        sensor = flags(sensor, count, "sensor", check_flag)
        fixed_rotation = flags(fixed_rotation, count, "fixed_rotation", check_flag)
        enable_sleep = flags(enable_sleep, count, "enable_sleep", check_flag)
        category = integers("category", category, count, "category")
        mask = integers("mask", mask, count, "mask")
        group = integers("group", group, count, "group")
        own_threshold = np.zeros(count)
        if sleep_threshold is not None:
            own_threshold = numbers_of(
                sleep_threshold, count, "sleep_threshold", as_positive_float,
                lambda values: values > 0.0,
            )  # fmt: skip
        damping = np.column_stack(
            [ruled("damping", value, count, name, check_damping)
             for name, value in (("linear_damping", linear_damping),
                                 ("angular_damping", angular_damping))]
        )  # fmt: skip
        gravity_scale = ruled(
            "gravity_scale", gravity_scale, count, "gravity_scale",
            lambda value, name: check_number("gravity_scale", value, name),
        )  # fmt: skip
        tags = labels(tag, count, "tag", check_tag)
        user_data = one_each(user_data, count, "user_data")
        if origin not in ("centroid", "local"):
            raise ValueError(f"origin: must be 'centroid' or 'local', got {origin!r}")

        if not count:
            return []
        dynamic = kinds == DYNAMIC
        bodies.check_dynamic(dynamic)
        made = bodies.geometries(density, self._parts.width)
        geometry = made.per_body
        centroid = geometry["centroid"]
        offset = np.zeros((count, 2))
        if origin == "local":
            offset = -centroid
            turns = angles.tolist()
            c = np.array([math.cos(angle) for angle in turns])
            s = np.array([math.sin(angle) for angle in turns])
            positions = positions + np.column_stack(
                [c * centroid[:, 0] - s * centroid[:, 1], s * centroid[:, 0] + c * centroid[:, 1]]
            )
            check_lengths(positions, "positions", MAX_COORDINATE, "m")
        made.check_invertible(dynamic)
        mass = np.where(dynamic, geometry["mass"], np.inf)
        inertia = np.where(dynamic, geometry["inertia"], np.inf)

        static = kinds == STATIC
        columns = {
            "position": positions,
            "origin_offset": offset,
            "angle": angles,
            # Static bodies never move, whatever they were given.
            "velocity": np.where(static[:, None], 0.0, velocities),
            "angular_velocity": np.where(static, 0.0, angular_velocities),
            "mass": mass,
            "inertia": inertia,
            "inv_mass": np.where(dynamic, 1.0 / mass, 0.0),
            "inv_inertia": np.where(dynamic & ~fixed_rotation, 1.0 / inertia, 0.0),
            "friction": friction,
            "restitution": restitution,
            "density": density,
            "kind": kinds,
            "bullet": bullet,
            "reach": geometry["reach"],
            "thickness": geometry["thickness"],
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
            "enable_sleep": enable_sleep,
        }
        materials = made.part_columns(columns)
        ids = self._bodies.new_ids(count)
        handles = [
            Body(self, body_id, shape_set, label, data)
            for body_id, shape_set, label, data in zip(ids, bodies.per_body, tags, user_data)
        ]
        columns["body_id"] = np.arange(ids.start, ids.stop, dtype=np.int64)
        if self._stepping:
            # Inside a presolve handler the step's arrays are in use: add after the step.
            for i, entry in enumerate(made.each_body(handles, columns, materials)):
                self._deferred.append(("add", handles[i], *entry))
            return handles
        first = self._bodies.add_many(handles, columns)
        self._parts.append(made.packed, first + made.owner, materials, made.reach)
        self._clock.pose_revision += count  # as many as adding them one by one
        if np.any(columns["kind"] == STATIC):
            self._resting_parts.invalidate()
        return handles

    def remove_bodies(self, bodies) -> None:
        """Remove every body of ``bodies`` (a list or tuple of Body handles) at once: the
        same as removing them one by one, at a fraction of the cost. Checked whole first:
        a body that is not a Body, of another world, already removed or given twice is
        refused (TypeError or ValueError naming it, ``bodies[2]: ...``) and none goes."""
        ids = self._removable(bodies)
        if self._stepping or self._deferred:
            for body in bodies:  # queued: removed when the step ends, as ``remove`` does
                self.remove(body)
            return
        if not bodies:
            return
        rows = self._bodies.row_of_id[ids]
        # What the removed bodies touched and held wakes, as for one body at a time (the
        # islands woken are the same whatever the order).
        if self._bodies.any_asleep():
            keys = self._event_log.contact_keys
            first, second = keys >> 32, keys & 0xFFFFFFFF
            touching = np.concatenate([second[np.isin(first, ids)], first[np.isin(second, ids)]])
            touching = self._bodies.row_of_id[touching]
            self._wake_rows(np.concatenate([touching[touching >= 0], rows]))
        joints = self._joints
        if not joints.joined_ids().isdisjoint(ids.tolist()):
            mine = np.isin(joints.view("body_a"), ids) | np.isin(joints.view("body_b"), ids)
            for joint_row in np.flatnonzero(mine)[::-1]:  # from the back: rows stay valid
                self._delete_joint(int(joint_row))
        kept = np.ones(self._bodies.count, dtype=bool)
        kept[rows] = False
        self._forget_warm_starts(kept)
        self._parts.keep_bodies(kept)
        self._bodies.keep(kept)
        self._clock.pose_revision += len(bodies)  # as many as removing them one by one
        self._resting_parts.invalidate()  # part rows moved up

    def _removable(self, bodies) -> np.ndarray:
        """The ids (R,) int64 of ``bodies``, a list or tuple of R bodies of this world,
        none removed nor given twice; TypeError or ValueError naming the first that is
        not."""
        if not isinstance(bodies, (list, tuple)):
            raise TypeError(f"bodies: expected a list of bodies, got {type(bodies).__name__}")
        for i, body in enumerate(bodies):
            if not isinstance(body, Body):
                raise TypeError(f"bodies[{i}]: expected a Body, got {type(body).__name__}")
            if body._world is not self:
                raise ValueError(f"bodies[{i}]: it belongs to another world")
        ids = np.fromiter((body._id for body in bodies), dtype=np.int64, count=len(bodies))
        _, first = np.unique(ids, return_index=True)
        if len(first) < len(ids):
            twice = np.setdiff1d(np.arange(len(ids)), first)[0]
            raise ValueError(f"bodies[{twice}]: given twice")
        if self._stepping or self._deferred:
            held = [self._holds(body) for body in bodies]
        else:
            held = (self._bodies.row_of_id[ids] >= 0).tolist()
        if not all(held):
            raise ValueError(f"bodies[{held.index(False)}]: it has already been removed")
        return ids

    def _forget_warm_starts(self, kept: np.ndarray) -> None:
        """Drop the warm-start points of the parts of the bodies not ``kept`` (N,) bool:
        runs of removed parts from the last to the first, so that each run's rows are
        still those it had."""
        if not len(self._warm.keys):
            return
        gone = ~kept[self._parts.table.view("body")]
        edges = np.flatnonzero(np.diff(np.concatenate([[False], gone, [False]])))
        for start, stop in reversed(edges.reshape(-1, 2).tolist()):
            self._warm.forget_parts(start, stop - start)


def _spin(value, argument: str) -> float:
    return as_bounded_float(value, argument, MAX_ANGULAR_SPEED, "rad/s")


def _kind_codes(kind, count: int) -> np.ndarray:
    """(B,) int8 kind codes from one kind for all or a list of B."""

    def check(value, argument):
        if not isinstance(value, str) or value not in KIND_CODES:
            raise ValueError(f"{argument}: must be one of {sorted(KIND_CODES)}, got {value!r}")
        return KIND_CODES[value]

    if isinstance(kind, str):
        return np.full(count, check(kind, "kind"), dtype=np.int8)
    return np.array(labels(kind, count, "kind", check), dtype=np.int8)


def _first_of_each(index: np.ndarray, chosen: np.ndarray, kinds: int) -> dict:
    """For each value in [0, kinds) that ``index`` (B,) takes where ``chosen`` (B,) bool,
    the first such body: value -> body."""
    bodies = np.flatnonzero(chosen)
    if not len(bodies):
        return {}
    if kinds == 1:
        return {0: int(bodies[0])}
    used, first = np.unique(index[bodies], return_index=True)
    return dict(zip(used.tolist(), bodies[first].tolist()))


class _BodyShapes:
    """The shapes of a batch's B bodies: per_body, B tuples of shapes; templates, the
    distinct ones' templates; index, (B,) int64 each body's template; one, whether one
    Shape was given for all (then errors name ``shapes``, else ``shapes[i]``)."""

    def __init__(self, per_body: list, templates: list, index: np.ndarray, one: bool):
        self.per_body, self.templates, self.index, self.one = per_body, templates, index, one

    def check_dynamic(self, dynamic: np.ndarray) -> None:
        """``check_dynamic`` of the shapes of each dynamic body (once per template, named
        by the first dynamic body of it)."""
        if all(body.may_be_dynamic for body in self.templates):
            return
        for t, i in _first_of_each(self.index, dynamic, len(self.templates)).items():
            check_dynamic(self.templates[t].shapes, "shapes" if self.one else f"shapes[{i}]")

    def geometries(self, density: np.ndarray, width: int) -> _Made:
        """What the bodies' templates give them at their densities (see ``_Made``)."""
        one_density = bool((density == density[0]).all())
        if len(self.templates) == 1 and one_density:
            index = np.zeros(len(density), dtype=np.int64)
            pairs = [(self.templates[0], float(density[0]))]
        else:
            # One geometry per template and density (a density changes only the mass of
            # most shapes, but the centroid of shapes with densities of their own).
            keys = np.column_stack([self.index, density.view(np.int64)])
            unique, index = np.unique(keys, axis=0, return_inverse=True)
            index = index.reshape(-1)
            pairs = [(self.templates[t], float(np.int64(bits).view(np.float64)))
                     for t, bits in unique.tolist()]  # fmt: skip
        return _Made(pairs, index, width, one_density)


class _Made:
    """The geometry and parts of a batch: pairs, the distinct (template, density); index,
    (B,) each body's pair; per_body: the body columns they give (mass, inertia, reach,
    thickness (B,), centroid (B, 2)); packed, reach, owner: the batch's P parts, padded
    alike, their reach and the batch's body each belongs to (P,), in body order."""

    def __init__(self, pairs: list, index: np.ndarray, width: int, one_density: bool):
        self.pairs, self.index, self.one_density = pairs, index, one_density
        self.made = [body.geometry(d) for body, d in pairs]
        count = len(index)
        parts = [body.parts(d, width) for body, d in pairs]
        widest = max(packed.width for packed, _ in parts)
        packed = [widen(p, widest) for p, _ in parts]
        counts = np.array([len(p.count) for p in packed])
        # One body of one part, repeated: broadcast views, copied when the tables take them.
        self.one_part_each = len(pairs) == 1 and counts[0] == 1
        if self.one_part_each:
            self.per_body = {name: np.broadcast_to(getattr(self.made[0], name), (count,))
                             for name in ("mass", "inertia", "reach", "thickness")}  # fmt: skip
            self.per_body["centroid"] = np.broadcast_to(self.made[0].centroid, (count, 2))
            self.owner = np.arange(count)
            self.source = np.zeros(count, dtype=np.int64)
            self.packed = PackedParts(
                *(np.broadcast_to(field, (count, *field.shape[1:])) for field in packed[0])
            )
            self.reach = np.broadcast_to(parts[0][1], (count,))
            return
        self.per_body = {
            name: np.array([getattr(g, name) for g in self.made])[index]
            for name in ("mass", "inertia", "reach", "thickness", "centroid")
        }
        starts = np.cumsum(counts) - counts
        per_body = counts[index]
        self.owner = np.repeat(np.arange(count), per_body)
        # Each part's row among the distinct pairs' parts, in body order.
        within = np.arange(len(self.owner)) - np.repeat(np.cumsum(per_body) - per_body, per_body)
        self.source = np.repeat(starts[index], per_body) + within
        self.packed = PackedParts(*(np.concatenate(field)[self.source] for field in zip(*packed)))
        self.reach = np.concatenate([reach for _, reach in parts])[self.source]

    def check_invertible(self, dynamic: np.ndarray) -> None:
        """ValueError, as ``add_body`` raises it, for a dynamic body whose mass or inertia
        float64 cannot invert (checked once per geometry, named by its first body)."""
        for pair, i in _first_of_each(self.index, dynamic, len(self.pairs)).items():
            made = self.made[pair]
            for name, value in (("mass", made.mass), ("inertia", made.inertia)):
                if not (0.0 < value < np.inf and 1.0 / value < np.inf):  # as add_body asks
                    argument = "density" if self.one_density else f"density[{i}]"
                    raise ValueError(
                        f"{argument}: gives these shapes a {name} of {value:g}, which "
                        "float64 cannot invert"
                    )

    def part_columns(self, body_columns: dict) -> dict:
        """The batch's part-table columns, as each template's ``part_columns`` makes
        them for its bodies: name -> (P,) for PART_MATERIALS, and ``shape`` (P,)."""
        templates = [body for body, _ in self.pairs]
        if self.one_part_each:
            columns = {"shape": np.broadcast_to(templates[0].part_shapes, self.source.shape)}
        else:
            columns = {"shape": np.concatenate([t.part_shapes for t in templates])[self.source]}
        owned_anywhere = any(t.any_owned for t in templates)
        for name, dtype in PART_MATERIALS.items():
            value = body_columns[name]
            if not self.one_part_each:
                value = value[self.owner]
            if owned_anywhere:
                owned = np.concatenate([t.owned[name] for t in templates])[self.source]
                own = np.concatenate([t.own[name] for t in templates])[self.source]
                value = np.where(owned, own, value)
            columns[name] = np.asarray(value, dtype=dtype)  # the part table copies it
        return columns

    def each_body(self, handles: list, columns: dict, materials: dict):
        """Per body, what ``add_body`` queues during a step: (record, (packed, reach),
        part materials)."""
        ends = np.cumsum(np.bincount(self.owner, minlength=len(handles))).tolist()
        start = 0
        for i, end in enumerate(ends):
            record = {name: _row(column, i) for name, column in columns.items()}
            rows = slice(start, end)
            packed = PackedParts(*(field[rows] for field in self.packed))
            # Copies: a column may be the caller's own array, changed before the step ends.
            own = {name: column[rows].copy() for name, column in materials.items()}
            yield record, (packed, self.reach[rows]), own
            start = end


def _row(column, i: int):
    """Body ``i``'s value of a column: a copy of its row, or the one value for all."""
    if np.ndim(column) == 0:
        return column
    return column[i].copy() if column.ndim > 1 else column[i]


def _body_shapes(shapes, count: int) -> _BodyShapes:
    """The shapes of each of ``count`` bodies: one Shape for all, or a list or tuple of
    one entry per body (a Shape or a list of shapes), each checked as ``add_body`` checks
    its shapes."""
    if isinstance(shapes, Shape):
        one = (shapes,)
        return _BodyShapes([one] * count, [template(one)], np.zeros(count, np.int64), True)
    if not isinstance(shapes, (list, tuple)):
        raise TypeError(
            f"shapes: expected a shape or a list of one entry per body, got {type(shapes).__name__}"
        )
    if len(shapes) != count:
        raise ValueError(f"shapes: expected one entry per body ({count}), got {len(shapes)}")
    per_body, found, index = [], {}, np.empty(count, dtype=np.int64)
    for i, entry in enumerate(shapes):
        entry = (
            (entry,) if isinstance(entry, Shape) else tuple(_check_shapes(entry, f"shapes[{i}]"))
        )
        per_body.append(entry)
        index[i] = found.setdefault(entry, len(found))
    return _BodyShapes(per_body, [template(entry) for entry in found], index, False)
