"""The part table: the convex parts of every body, packed, in body order.

Each body's parts are one contiguous run of rows (``rows_of``), in the order of its
bodies' rows in ``engine.body_store``; each part has a stable id (``uid``) that names it
in the warm-start cache. Its state goes into snapshots as the arrays ``part.*`` and the
header scalar ``next_part_uid``: ``to_arrays``, ``scalars``, ``validate``, ``from_arrays``.
"""

from __future__ import annotations

import bisect

import numpy as np

from .materials import PART_MATERIALS
from .packing import PackedParts, widen
from .snapshot_format import ArrayChecker, Version
from .snapshot_materials import PART_COLUMNS
from .table import Table


class PartTable:
    """Convex parts of all bodies, packed (see ``engine.packing``), with their owner row.

    vertices, normals: (P, K, 2) in the owner's centre-of-mass frame; count: (P,);
    radius: (P,); body: (P,) int64 owner row; uid: (P,) int64 stable id (warm starting);
    reach: (P,) distance from the owner's centre of mass to the part's farthest point;
    the part's material and role (``engine.materials.PART_MATERIALS``), each (P,): its
    shape's own value, else its body's: density, friction, restitution (f8), sensor
    (bool), category, mask, group (i8); shape: (P,) int64 the index of the part's shape in
    its body's shapes (a ConcavePolygon's parts share one).
    """

    # Which attributes a snapshot saves and which it leaves out (as for the body store).
    SAVED = {
        "table": "arrays part.*, every field, rows [0, count), only as wide as they need",
        "next_uid": "header state.next_part_uid",
    }
    EXCLUDED = {"_packed_cache": "cache of the live rows as PackedParts, rebuilt on demand"}

    def __init__(self, capacity: int = 16, width: int = 4):
        self.table = Table(
            {
                "vertices": ((width, 2), np.float64),
                "normals": ((width, 2), np.float64),
                "count": ((), np.int64),
                "radius": ((), np.float64),
                "body": ((), np.int64),
                "uid": ((), np.int64),
                "reach": ((), np.float64),
                **{name: ((), dtype) for name, dtype in PART_MATERIALS.items()},
                "shape": ((), np.int64),
            },
            capacity,
        )
        self.next_uid = 0
        self._packed_cache = None

    @property
    def count(self) -> int:
        """P, the number of live parts."""
        return self.table.count

    @property
    def width(self) -> int:
        """K, the vertex slots of every part (that of the widest part ever held)."""
        return self.table.arrays["vertices"].shape[1]

    def _widen_to(self, width: int) -> None:
        arrays = self.table.arrays
        packed = PackedParts(
            arrays["vertices"], arrays["normals"], arrays["count"], arrays["radius"]
        )
        wide = widen(packed, width)
        self.table.replace("vertices", wide.vertices)
        self.table.replace("normals", wide.normals)
        self.table._fields["vertices"] = ((width, 2), np.float64)
        self.table._fields["normals"] = ((width, 2), np.float64)

    def append(self, packed: PackedParts, body, materials: dict, reach=None) -> None:
        """Add the parts of one body (already in its centre-of-mass frame), or of several
        bodies in row order; body: the owner row, one for all or (S,); materials: the
        columns of ``engine.materials.part_materials``, (S,) each; reach: (S,) the
        parts' ``part_reach`` when known (None: computed here)."""
        if packed.width > self.width:
            self._widen_to(packed.width)
        packed = widen(packed, self.width)
        rows = len(packed.count)
        if reach is None:
            reach = part_reach(packed)
        if rows == 1:  # one part: element writes, cheaper than slices
            row = {name: column[0] for name, column in materials.items()}
            row["vertices"], row["normals"] = packed.vertices[0], packed.normals[0]
            row["count"], row["radius"], row["reach"] = packed.count[0], packed.radius[0], reach[0]
            row["body"] = body if np.ndim(body) == 0 else body[0]
            row["uid"] = self.next_uid
            self.table.append_one(row)
        else:
            columns = {
                "vertices": packed.vertices,
                "normals": packed.normals,
                "count": packed.count,
                "radius": packed.radius,
                "reach": reach,
                "body": body,
                "uid": np.arange(self.next_uid, self.next_uid + rows),
                **materials,
            }
            self.table.append(columns, rows)
        self.next_uid += rows
        self._packed_cache = None

    def rows_of(self, body: int) -> slice:
        """The part rows of body row ``body`` (a contiguous run)."""
        # A binary search of the owners' cells: a few element reads, no numpy call.
        owners, count = self.table.cells()["body"], self.table.count
        first = bisect.bisect_left(owners, body, 0, count)
        return slice(first, bisect.bisect_right(owners, body, first, count))

    def delete_body(self, body: int) -> slice:
        """Remove the parts of body row ``body`` and renumber the rows of later bodies
        (theirs are the parts after its own: parts are in body order); returns the rows
        the parts had."""
        rows = self.rows_of(body)
        self.table.delete(rows.start, rows.stop - rows.start)
        if rows.start < self.table.count:
            self.table.view("body")[rows.start :] -= 1
        self._packed_cache = None
        return rows

    def keep_bodies(self, kept: np.ndarray) -> None:
        """Keep the parts of the body rows where ``kept`` (N,) bool is True and renumber
        their owners to the rows those bodies move to."""
        owners = self.table.view("body")
        self.table.keep_rows(kept[owners])
        owners = self.table.view("body")
        owners[:] = (np.cumsum(kept) - 1)[owners]
        self._packed_cache = None

    def packed(self) -> PackedParts:
        """The live parts as a PackedParts (rows [0, count))."""
        if self._packed_cache is None:
            t = self.table
            self._packed_cache = PackedParts(
                t.view("vertices"), t.view("normals"), t.view("count"), t.view("radius")
            )
        return self._packed_cache

    # -- saving and loading ------------------------------------------------------------
    def to_arrays(self) -> dict:
        """Copies of the live rows of every field (``part.<field>``); vertices and normals
        only as wide as the widest live part (at least 4): the table keeps the width of the
        widest part it ever held, a file may claim no wider parts than its shapes make."""
        width = max(4, int(self.table.view("count").max(initial=0)))
        arrays = {f"part.{name}": self.table.view(name).copy() for name in self.table.arrays}
        for name in ("vertices", "normals"):
            arrays[f"part.{name}"] = np.ascontiguousarray(arrays[f"part.{name}"][:, :width])
        return arrays

    @staticmethod
    def layout() -> dict:
        """The arrays a file may hold of the table: name -> (dims, dtype)."""
        layout = {}
        for name, (trailing, dtype) in PartTable(width=1).table._fields.items():
            dims = ("P", "K", 2) if name in ("vertices", "normals") else ("P", *trailing)
            layout[f"part.{name}"] = (dims, dtype)
        return layout

    def scalars(self) -> dict:
        """The header state entry next_part_uid."""
        return {"next_part_uid": int(self.next_uid)}

    @staticmethod
    def validate(check: ArrayChecker, version: Version, next_uid: int) -> dict:
        """Check a snapshot's part arrays (sizes "N", "P" and "K" bound in ``check``).

        Returns the columns (field -> (P, ...) native arrays; a file before version 4 has no
        part materials: they are zeros here, filled from the bodies when the shapes are
        checked). Parts must be in body order, each body with one at least, vertex counts
        within the K slots, circles, segments and polygons as add_body makes them, and
        unique ids below ``next_uid``.
        """
        n, k = check.sizes["N"], check.sizes["K"]
        p = check.sizes["P"]
        columns = {}
        for name, (trailing, dtype) in PartTable(width=k).table._fields.items():
            if not version.has_labels and name in PART_COLUMNS:
                columns[name] = np.zeros(p, dtype=dtype)
                continue
            dims = ("P", "K", 2) if trailing == (k, 2) else ("P", *trailing)
            columns[name] = check.take_finite(f"part.{name}", dtype, dims)
        _check_invariants(check, columns, n, k, next_uid)
        return columns

    @classmethod
    def from_arrays(cls, columns: dict, width: int, next_uid: int) -> PartTable:
        """A part table of checked ``columns`` (P rows, vertex slots ``width``)."""
        count = len(columns["body"])
        parts = cls(capacity=max(16, count), width=width)
        parts.table.fill(columns, count)
        parts.next_uid = next_uid
        return parts


def part_reach(packed: PackedParts) -> np.ndarray:
    """(S,) each part's reach: the distance from its body's centre of mass to its farthest
    point (the padding repeats a vertex, so the slots' width changes nothing)."""
    return np.sqrt((packed.vertices**2).sum(axis=2)).max(axis=1) + packed.radius


def _check_invariants(check: ArrayChecker, parts: dict, n: int, k: int, next_uid: int) -> None:
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
