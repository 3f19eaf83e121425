"""Body templates: what every body made of one tuple of shapes shares, derived once.

Shapes never change, so what a body's shapes give it depends on those shapes alone (and
for mass and inertia on the densities): the geometry of ``engine.body_geometry`` (its
parts in its own frame, area, moment, reach, thickness) and its parts' columns of the part
table (``engine.materials``). Games add the same few shapes over and over; ``template``
keeps the templates of the shape tuples used last, and each template keeps what it made
for the densities and materials asked of it last, so that adding a body looks them up
instead of deriving them. Every value is the one ``body_geometry`` and
``engine.materials.part_materials`` compute, bit for bit (the template holds their
results), and every array is read-only: one is shared by all the bodies of a template.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .body_geometry import BodyGeometry, body_geometry
from .materials import PART_MATERIALS, own_values, part_shapes
from .packing import PackedParts, widen
from .part_table import part_reach
from .segments import check_dynamic

# Shape tuples whose templates are kept (the least recently used go first), and the
# geometries and part columns each template keeps (all forgotten when one more comes).
KEPT_TEMPLATES = 1024
KEPT_VARIANTS = 64


class BodyTemplate:
    """What the bodies of one tuple of shapes share.

    shapes: the shapes (S convex parts between them); unit: their geometry at density 1
    everywhere (mass = area, inertia = moment); part_shapes: (S,) int64 the index in
    ``shapes`` of each part's shape; owned, own: per name of PART_MATERIALS, (S,) bool
    whether the part's shape sets it, and (S,) the value it sets (0 where unset);
    own_density: each shape's own density, None where unset; any_owned: whether any shape
    sets any of PART_MATERIALS; may_be_dynamic: whether ``engine.segments.check_dynamic``
    lets a dynamic body have these shapes.
    """

    __slots__ = (
        "shapes", "unit", "part_shapes", "owned", "own", "own_density", "any_owned",
        "may_be_dynamic", "_made",
    )  # fmt: skip

    def __init__(self, shapes: tuple):
        self.shapes = shapes
        self.unit = _frozen_geometry(body_geometry(shapes))
        self.part_shapes = _frozen(part_shapes(shapes))
        self.owned, self.own = {}, {}
        for name in PART_MATERIALS:
            owned, own = own_values(shapes, name)
            self.owned[name], self.own[name] = _frozen(owned), _frozen(own)
        self.own_density = tuple(shape._material.get("density") for shape in shapes)
        self.any_owned = any(owned.any() for owned in self.owned.values())
        try:
            check_dynamic(shapes, "shapes")
            self.may_be_dynamic = True
        except ValueError:
            self.may_be_dynamic = False
        self._made: dict = {}

    def geometry(self, density: float) -> BodyGeometry:
        """``body_geometry(shapes, densities)`` of a body of density ``density`` (kg/m^2):
        each shape's own density, else this one. When they are all one value, the unit
        geometry with mass and inertia scaled as ``body_geometry`` scales them; otherwise
        the geometry of those densities (a mass-weighted centroid)."""
        key = ("geometry", density)
        made = self._made.get(key)
        if made is None:
            densities = [density if own is None else own for own in self.own_density]
            first = densities[0]
            if all(value == first for value in densities):
                unit = self.unit
                made = unit._replace(mass=first * unit.area, inertia=first * unit.moment)
            else:
                made = _frozen_geometry(body_geometry(self.shapes, densities))
            self._keep(key, made)
        return made

    def parts(self, density: float, width: int) -> tuple[PackedParts, np.ndarray]:
        """The parts of a body of density ``density`` (those of its ``geometry``), padded to
        ``width`` slots if they have fewer, and each part's reach (S,): what the part table
        stores of them."""
        geometry = self.geometry(density)
        shared = geometry.parts is self.unit.parts  # the same parts for every density
        key = ("parts", width, None if shared else density)
        made = self._made.get(key)
        if made is None:
            packed = widen(geometry.parts, max(width, geometry.parts.width))
            made = (packed, part_reach(packed))
            _frozen(made[1])
            for array in packed:
                _frozen(array)
            self._keep(key, made)
        return made

    def part_columns(self, values: dict) -> dict:
        """The part-table columns of a body of the template, as
        ``engine.materials.part_materials`` makes them: name -> (S,) array for each of
        PART_MATERIALS (the shape's own value, else ``values[name]``, the body's) and
        ``shape`` (S,) int64. Read-only arrays."""
        given = tuple([values[name] for name in PART_MATERIALS])
        # -0.0 == 0.0 (a friction may be either): their signs keep their columns apart.
        key = ("columns", given, *[math.copysign(1.0, value) for value in given if not value])
        made = self._made.get(key)
        if made is None:
            made = {"shape": self.part_shapes}
            for name, dtype in PART_MATERIALS.items():
                column = np.where(self.owned[name], self.own[name], values[name])
                made[name] = _frozen(column.astype(dtype))
            self._keep(key, made)
        return made

    def _keep(self, key: tuple, made) -> None:
        if len(self._made) >= KEPT_VARIANTS:
            self._made.clear()
        self._made[key] = made


@lru_cache(maxsize=KEPT_TEMPLATES)
def template(shapes: tuple) -> BodyTemplate:
    """The template of a body of ``shapes`` (a tuple of checked Shape objects)."""
    return BodyTemplate(shapes)


def _frozen(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only: a template's arrays are shared by its bodies."""
    array.setflags(write=False)
    return array


def _frozen_geometry(made: BodyGeometry) -> BodyGeometry:
    """``made`` with its arrays read-only."""
    _frozen(made.centroid)
    for array in made.parts:
        _frozen(array)
    return made
