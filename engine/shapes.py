"""Immutable collision shapes in body-local coordinates: Circle, Polygon, Box, ConcavePolygon.

Every shape is validated when built and never changes afterwards, so its mass properties and
its packed kernel form are computed once and cached.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType

import numpy as np

from .decompose import decompose
from .mass import circle_mass_properties, polygon_mass_properties
from .materials import MATERIAL_NAMES, check_material
from .outline import clean_outline, is_convex
from .packing import PackedParts, concatenate, edge_normals, pack_circle, pack_polygon
from .validation import as_pose, as_positive_float, as_vector

_next_uid = itertools.count()


NO_MATERIAL = MappingProxyType({})


def _rebuild(cls, args: tuple, material: dict):
    """A shape from its constructor arguments and own settings (for pickle)."""
    return cls(*args, **material)


def _material_property(name: str, meaning: str) -> property:
    def read(self):
        return self._material.get(name)

    read.__doc__ = f"{meaning}, or None: unset (the body's value applies)."
    return property(read)


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64)
    array.flags.writeable = False
    return array


class Shape:
    """Base of all shapes. Read-only after construction.

    Every shape has ``area``, ``centroid`` (2,), ``parts`` (its convex pieces),
    ``mass(density)``, ``inertia(density)`` (about its own centroid) and ``aabb(pose)``.

    Every constructor also takes, keyword-only, the shape's own material and role:
    ``density``, ``friction``, ``restitution``, ``sensor``, ``category``, ``mask``,
    ``group``, ``tag`` (checked as ``World.add_body`` checks them). None, the default,
    leaves one unset: the body's value applies. ``material`` is a dict of those set.
    """

    __slots__ = ("_uid", "_area", "_centroid", "_moment", "_packed", "_material")

    def _finish(
        self, area: float, centroid: np.ndarray, moment: float, argument: str, empty_ok=False
    ) -> None:
        # Only a segment without radius may have no area (it is a line).
        if np.isfinite(area) and area <= 0.0 and not (empty_ok and area == 0.0):
            raise ValueError(f"{argument}: shape too small: its area is zero in float64")
        if not (np.isfinite(area) and np.isfinite(moment) and np.all(np.isfinite(centroid))):
            raise ValueError(f"{argument}: shape too large: its area or inertia overflows float64")
        object.__setattr__(self, "_uid", next(_next_uid))
        object.__setattr__(self, "_area", area)
        object.__setattr__(self, "_centroid", _frozen(centroid))
        object.__setattr__(self, "_moment", moment)
        object.__setattr__(self, "_packed", None)
        object.__setattr__(self, "_material", NO_MATERIAL)

    def _keep_material(self, *values) -> None:
        """Check and keep the shape's own settings (in the order of MATERIAL_NAMES)."""
        material = check_material(dict(zip(MATERIAL_NAMES, values)))
        object.__setattr__(self, "_material", MappingProxyType(material))

    def _material_repr(self) -> str:
        """``, name=value`` for each setting the shape has, for its repr."""
        return "".join(f", {name}={value!r}" for name, value in self._material.items())

    @property
    def material(self) -> dict:
        """The shape's own settings (name -> value); what is not here comes from the body."""
        return dict(self._material)

    density = _material_property("density", "The shape's own density, kg/m^2")
    friction = _material_property("friction", "The shape's own friction coefficient")
    restitution = _material_property("restitution", "The shape's own restitution")
    sensor = _material_property("sensor", "True: the shape only senses (its own setting)")
    category = _material_property("category", "The shape's own 16-bit category")
    mask = _material_property("mask", "The shape's own 16-bit mask")
    group = _material_property("group", "The shape's own collision group")
    tag = _material_property("tag", "The shape's own tag (for handlers ``between`` tags)")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; build a new shape instead")

    def __deepcopy__(self, memo):
        return self  # immutable: a copy would be the same shape

    def __copy__(self):
        return self

    def __reduce__(self):
        # Rebuilt from its constructor arguments, which validates it again on unpickling.
        return _rebuild, (type(self), self._constructor_args(), dict(self._material))

    @property
    def area(self) -> float:
        """Area in m^2."""
        return self._area

    @property
    def centroid(self) -> np.ndarray:
        """(2,) float64 centre of area in body-local coordinates."""
        return self._centroid

    @property
    def parts(self) -> tuple:
        """The convex pieces (a convex shape is its own single part)."""
        return (self,)

    def mass(self, density: float | None = None) -> float:
        """Mass in kg for a density in kg/m^2 (None: the shape's own, else 1)."""
        return self._density(density) * self._area

    def inertia(self, density: float | None = None) -> float:
        """Moment of inertia about the shape's own centroid, in kg m^2 (density as for
        ``mass``)."""
        return self._density(density) * self._moment

    def _density(self, density) -> float:
        if density is None:
            return self._material.get("density", 1.0)
        return as_positive_float(density, "density")

    def aabb(self, pose=(0.0, 0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
        """Tight world bounding box at ``pose`` (x, y, angle): (lower (2,), upper (2,))."""
        pose = as_pose(pose, "pose")
        lowers, uppers = zip(*(part._part_aabb(pose) for part in self.parts))
        return np.min(lowers, axis=0), np.max(uppers, axis=0)

    @property
    def packed(self) -> PackedParts:
        """The parts in the kernel's padded array form (see ``engine.packing``)."""
        if self._packed is None:
            width = max(part._slots for part in self.parts)
            packed = concatenate([part._pack(width) for part in self.parts])
            for array in packed:
                array.flags.writeable = False
            object.__setattr__(self, "_packed", packed)
        return self._packed


class Circle(Shape):
    """A disc of ``radius`` (m) centred at ``offset`` (2,) in body-local coordinates.

    >>> Circle(0.5).area
    0.7853981633974483
    """

    __slots__ = ("_radius", "_offset")
    _slots = 1

    def __init__(self, radius: float, offset=(0.0, 0.0), *, density=None, friction=None,
                 restitution=None, sensor=None, category=None, mask=None, group=None,
                 tag=None):  # fmt: skip
        radius = as_positive_float(radius, "radius")
        offset = as_vector(offset, "offset")
        object.__setattr__(self, "_radius", radius)
        object.__setattr__(self, "_offset", _frozen(offset))
        self._finish(*circle_mass_properties(radius, offset), "radius")
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    @property
    def radius(self) -> float:
        """Radius in m."""
        return self._radius

    @property
    def offset(self) -> np.ndarray:
        """(2,) float64 centre in body-local coordinates."""
        return self._offset

    def _pack(self, width: int) -> PackedParts:
        return pack_circle(self._offset, self._radius, width)

    def _constructor_args(self) -> tuple:
        return (self._radius, tuple(self._offset.tolist()))

    def _part_aabb(self, pose: np.ndarray):
        c, s = np.cos(pose[2]), np.sin(pose[2])
        x, y = self._offset
        centre = np.array([c * x - s * y + pose[0], s * x + c * y + pose[1]])
        return centre - self._radius, centre + self._radius

    def __repr__(self) -> str:
        offset = tuple(self._offset.tolist())
        return f"Circle(radius={self._radius!r}, offset={offset!r}{self._material_repr()})"


class Polygon(Shape):
    """A convex polygon from (n, 2) ``vertices`` in body-local coordinates.

    Either winding is accepted; duplicate and collinear vertices are dropped; ``vertices``
    gives them counter-clockwise. A concave outline raises ValueError: use ConcavePolygon.

    >>> Polygon([(0, 0), (0, 1), (1, 0)]).vertices.tolist()
    [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    """

    __slots__ = ("_vertices", "_normals")

    def __init__(self, vertices, *, density=None, friction=None, restitution=None,
                 sensor=None, category=None, mask=None, group=None, tag=None):  # fmt: skip
        outline = clean_outline(vertices, "vertices")
        if not is_convex(outline):
            raise ValueError("vertices: outline is concave; use ConcavePolygon for concave shapes")
        self._set_outline(outline)
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    def _set_outline(self, outline: np.ndarray, argument: str = "vertices") -> None:
        # Extreme sizes over- or underflow here; _finish turns that into a ValueError.
        with np.errstate(all="ignore"):
            properties = polygon_mass_properties(outline)
        self._finish(*properties, argument)
        with np.errstate(all="ignore"):
            normals = edge_normals(outline)
        if not np.all(np.isfinite(normals)):
            # Edges so short that their length underflows have no direction in float64.
            raise ValueError(f"{argument}: an edge is too short to have a normal in float64")
        object.__setattr__(self, "_vertices", _frozen(outline))
        object.__setattr__(self, "_normals", _frozen(normals))

    @classmethod
    def _from_clean(cls, outline: np.ndarray) -> Polygon:
        """A Polygon from an outline already cleaned, CCW and convex (no re-validation)."""
        polygon = object.__new__(cls)
        polygon._set_outline(outline)
        return polygon

    @property
    def vertices(self) -> np.ndarray:
        """(n, 2) float64 counter-clockwise vertices."""
        return self._vertices

    @property
    def normals(self) -> np.ndarray:
        """(n, 2) float64 unit outward normals; normal i belongs to edge (i, i + 1)."""
        return self._normals

    @property
    def _slots(self) -> int:
        return len(self._vertices)

    def _constructor_args(self) -> tuple:
        return (self._vertices.tolist(),)

    def _pack(self, width: int) -> PackedParts:
        return pack_polygon(self._vertices, self._normals, width)

    def _part_aabb(self, pose: np.ndarray):
        c, s = np.cos(pose[2]), np.sin(pose[2])
        x, y = self._vertices[:, 0], self._vertices[:, 1]
        wx, wy = c * x - s * y + pose[0], s * x + c * y + pose[1]
        return np.array([wx.min(), wy.min()]), np.array([wx.max(), wy.max()])

    def __repr__(self) -> str:
        return f"Polygon({self._vertices.tolist()!r}{self._material_repr()})"


class Box(Polygon):
    """A ``width`` x ``height`` rectangle centred at ``offset``, turned by ``angle`` (rad).

    >>> Box(2, 1).vertices.tolist()
    [[-1.0, -0.5], [1.0, -0.5], [1.0, 0.5], [-1.0, 0.5]]
    """

    __slots__ = ("_width", "_height", "_box_offset", "_angle")

    def __init__(self, width: float, height: float, offset=(0.0, 0.0), angle: float = 0.0,
                 *, density=None, friction=None, restitution=None,
                 sensor=None, category=None, mask=None, group=None, tag=None):  # fmt: skip
        width = as_positive_float(width, "width")
        height = as_positive_float(height, "height")
        offset = as_vector(offset, "offset")
        angle = as_pose((0.0, 0.0, angle), "angle")[2]
        half = np.array([[-width, -height], [width, -height], [width, height], [-width, height]])
        c, s = np.cos(angle), np.sin(angle)
        rotation = np.array([[c, -s], [s, c]])
        corners = 0.5 * half @ rotation.T + offset
        object.__setattr__(self, "_width", width)
        object.__setattr__(self, "_height", height)
        object.__setattr__(self, "_box_offset", _frozen(offset))
        object.__setattr__(self, "_angle", float(angle))
        self._set_outline(corners, "width, height")
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    def _constructor_args(self) -> tuple:
        return (self._width, self._height, tuple(self._box_offset.tolist()), self._angle)

    @property
    def width(self) -> float:
        return self._width

    @property
    def height(self) -> float:
        return self._height

    def __repr__(self) -> str:
        offset = tuple(self._box_offset.tolist())
        return (
            f"Box({self._width!r}, {self._height!r}, offset={offset!r}, angle={self._angle!r}"
            f"{self._material_repr()})"
        )


class ConcavePolygon(Shape):
    """Any simple polygon, split into convex ``parts`` that cover it exactly.

    The outline is cleaned like a Polygon's (either winding, duplicates and collinear points
    dropped), triangulated by ear clipping and merged into convex pieces (Hertel-Mehlhorn).

    >>> len(ConcavePolygon([(0, 0), (2, 0), (2, 2), (1, 1), (0, 2)]).parts)
    2
    """

    __slots__ = ("_outline", "_parts")

    def __init__(self, vertices, *, density=None, friction=None, restitution=None,
                 sensor=None, category=None, mask=None, group=None, tag=None):  # fmt: skip
        outline = clean_outline(vertices, "vertices")
        parts = tuple(Polygon._from_clean(part) for part in decompose(outline))
        object.__setattr__(self, "_outline", _frozen(outline))
        object.__setattr__(self, "_parts", parts)
        area = sum(part.area for part in parts)
        centroid = sum(part.area * part.centroid for part in parts) / area
        # Parallel-axis theorem moves each part's moment to the common centroid.
        moment = sum(
            part._moment + part.area * float(np.sum((part.centroid - centroid) ** 2))
            for part in parts
        )
        self._finish(area, centroid, moment, "vertices")
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    def _constructor_args(self) -> tuple:
        return (self._outline.tolist(),)

    @property
    def outline(self) -> np.ndarray:
        """(n, 2) float64 counter-clockwise outline."""
        return self._outline

    @property
    def parts(self) -> tuple:
        """The convex Polygons that together cover the outline exactly."""
        return self._parts

    def __repr__(self) -> str:
        return f"ConcavePolygon({self._outline.tolist()!r}{self._material_repr()})"
