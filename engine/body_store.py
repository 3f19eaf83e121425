"""Structure-of-arrays storage for bodies and their convex parts, grown by doubling.

Rows [0, count) are the live bodies in the order they were added; removing a body shifts
the rows after it down by one, so arrays stay dense and views stay simple. Parts are kept
in the same order as their bodies, so a body's parts are one contiguous run of rows.
"""

from __future__ import annotations

import numpy as np

from .materials import PART_MATERIALS
from .packing import PackedParts, widen

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
    "island": ((), np.int64),
}


class Table:
    """Named arrays sharing one row count, grown by doubling.

    ``fields``: name -> (trailing shape, dtype). ``view(name)`` is rows [0, count).
    """

    def __init__(self, fields: dict, capacity: int = 16):
        self.count = 0
        self._fields = dict(fields)
        self.arrays = {
            name: np.zeros((capacity, *shape), dtype=dtype)
            for name, (shape, dtype) in self._fields.items()
        }
        self._columns = None

    @property
    def capacity(self) -> int:
        return len(next(iter(self.arrays.values())))

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` more rows, doubling as needed."""
        needed = self.count + rows
        if needed <= self.capacity:
            return
        capacity = max(needed, 2 * self.capacity)
        for name, array in self.arrays.items():
            grown = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
            grown[: self.count] = array[: self.count]
            self.arrays[name] = grown
        self._columns = None

    def append(self, values: dict, rows: int = 1) -> int:
        """Append ``rows`` rows from ``values`` (name -> array of the rows); returns the first."""
        self.reserve(rows)
        first = self.count
        for name, array in self.arrays.items():
            array[first : first + rows] = values.get(name, 0)
        self.count += rows
        return first

    def delete(self, first: int, rows: int = 1) -> None:
        """Remove rows [first, first + rows), shifting later rows down."""
        end = self.count
        for array in self.arrays.values():
            array[first : end - rows] = array[first + rows : end]
        self.count -= rows

    def view(self, name: str) -> np.ndarray:
        return self.arrays[name][: self.count]

    def columns(self) -> dict:
        """Every field's view (rows [0, count)), built once until the table changes."""
        if self._columns is None or self._columns[0] != self.count:
            self._columns = (self.count, {name: self.view(name) for name in self.arrays})
        return self._columns[1]

    def replace(self, name: str, array: np.ndarray) -> None:
        """Swap in a new array (same capacity) for field ``name``."""
        self.arrays[name] = array
        self._columns = None

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.count = self.count
        other._fields = dict(self._fields)
        other.arrays = {name: array.copy() for name, array in self.arrays.items()}
        other._columns = None
        return other


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
        return self.table.count

    @property
    def width(self) -> int:
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

    def append(self, packed: PackedParts, body: int, materials: dict) -> None:
        """Add the parts of one body (already in its centre-of-mass frame); materials: the
        columns of ``engine.materials.part_materials``, (S,) each."""
        if packed.width > self.width:
            self._widen_to(packed.width)
        packed = widen(packed, self.width)
        rows = len(packed.count)
        uids = np.arange(self.next_uid, self.next_uid + rows)
        self.next_uid += rows
        self.table.append(
            {
                "vertices": packed.vertices,
                "normals": packed.normals,
                "count": packed.count,
                "radius": packed.radius,
                "body": body,
                "uid": uids,
                "reach": np.sqrt((packed.vertices**2).sum(axis=2)).max(axis=1) + packed.radius,
                **materials,
            },
            rows,
        )
        self._packed_cache = None

    def rows_of(self, body: int) -> slice:
        """The part rows of body row ``body`` (a contiguous run)."""
        owners = self.table.view("body")
        return slice(
            int(np.searchsorted(owners, body)), int(np.searchsorted(owners, body, "right"))
        )

    def delete_body(self, body: int) -> None:
        """Remove the parts of body row ``body`` and renumber the rows of later bodies."""
        owners = self.table.view("body")
        rows = np.flatnonzero(owners == body)
        self.table.delete(int(rows[0]), len(rows))
        owners = self.table.view("body")
        owners[owners > body] -= 1
        self._packed_cache = None

    def packed(self) -> PackedParts:
        """The live parts as a PackedParts (rows [0, count))."""
        if self._packed_cache is None:
            t = self.table
            self._packed_cache = PackedParts(
                t.view("vertices"), t.view("normals"), t.view("count"), t.view("radius")
            )
        return self._packed_cache

    def copy(self) -> PartTable:
        other = PartTable.__new__(PartTable)
        other.table = self.table.copy()
        other.next_uid = self.next_uid
        other._packed_cache = None
        return other
