"""Segment: a line segment in body coordinates, a capsule when it has a radius.

A segment is packed as a part of two vertices (its ends) with a radius: the narrow phase
treats every part as a convex core (a point, a segment or a polygon) rounded by its radius,
so a capsule is exact against every other kind (``engine.segment_pair``).

A segment without radius is a line: it has no area, so no mass. It suits static and
kinematic bodies (walls, platforms, terrain) or a compound body whose other shapes have
area; a dynamic body of lines alone is refused (:func:`check_dynamic`).
"""

from __future__ import annotations

import numpy as np

from .mass import capsule_mass_properties
from .packing import PackedParts, pack_segment
from .shapes import Shape, _frozen
from .validation import as_finite_float, as_vector


class Segment(Shape):
    """The segment from ``a`` to ``b`` (2,) in body-local coordinates, m; with ``radius``
    > 0 (m) it is a capsule: every point within ``radius`` of the segment.

    Both sides collide. ``normal`` (2,) is the unit normal to the right of a -> b.

    >>> Segment((0, 0), (2, 0), radius=0.5).area   # 2 r L + pi r^2
    2.7853981633974483
    """

    __slots__ = ("_a", "_b", "_radius", "_normal")
    _slots = 2

    def __init__(self, a, b, radius: float = 0.0, *, density=None, friction=None,
                 restitution=None, sensor=None, category=None, mask=None, group=None,
                 tag=None):  # fmt: skip
        a = as_vector(a, "a")
        b = as_vector(b, "b")
        radius = as_finite_float(radius, "radius")
        if radius < 0.0:
            raise ValueError(f"radius: must be >= 0, got {radius}")
        with np.errstate(all="ignore"):
            length = float(np.hypot(*(b - a)))
        if not length > 0.0:
            raise ValueError(f"b: must differ from a (a segment needs a length), got {b.tolist()}")
        if not np.isfinite(length):
            raise ValueError("b: too far from a: the segment's length overflows float64")
        object.__setattr__(self, "_a", _frozen(a))
        object.__setattr__(self, "_b", _frozen(b))
        object.__setattr__(self, "_radius", radius)
        edge = (b - a) / length
        object.__setattr__(self, "_normal", _frozen([edge[1], -edge[0]]))
        with np.errstate(all="ignore"):
            properties = capsule_mass_properties(a, b, radius)
        self._finish(*properties, "radius", empty_ok=radius == 0.0)
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    @property
    def a(self) -> np.ndarray:
        """(2,) float64 first end, body-local."""
        return self._a

    @property
    def b(self) -> np.ndarray:
        """(2,) float64 second end, body-local."""
        return self._b

    @property
    def radius(self) -> float:
        """Radius in m (0: a line)."""
        return self._radius

    @property
    def normal(self) -> np.ndarray:
        """(2,) float64 unit normal to the right of a -> b."""
        return self._normal

    @property
    def length(self) -> float:
        """Distance from a to b, m."""
        return float(np.hypot(*(self._b - self._a)))

    def _pack(self, width: int) -> PackedParts:
        return pack_segment(self._a, self._b, self._normal, self._radius, width)

    def _constructor_args(self) -> tuple:
        return (tuple(self._a.tolist()), tuple(self._b.tolist()), self._radius)

    def _part_aabb(self, pose: np.ndarray):
        c, s = np.cos(pose[2]), np.sin(pose[2])
        ends = np.stack([self._a, self._b])
        wx = c * ends[:, 0] - s * ends[:, 1] + pose[0]
        wy = s * ends[:, 0] + c * ends[:, 1] + pose[1]
        r = self._radius
        return np.array([wx.min() - r, wy.min() - r]), np.array([wx.max() + r, wy.max() + r])

    def __repr__(self) -> str:
        a, b = tuple(self._a.tolist()), tuple(self._b.tolist())
        return f"Segment(a={a!r}, b={b!r}, radius={self._radius!r}{self._material_repr()})"


def check_dynamic(shapes, argument: str) -> None:
    """Refuse shapes a dynamic body cannot be made of, naming ``argument``: a one-sided
    Chain, or lines only (no area, so no mass)."""
    for shape in shapes:
        if getattr(shape, "_one_sided", False):
            raise ValueError(
                f"{argument}: a Chain is one-sided terrain for static and kinematic bodies; "
                "a dynamic body needs shapes with an inside (a Segment with a radius, a "
                "Polygon, ...)"
            )
    if sum(shape.area for shape in shapes) == 0.0:
        raise ValueError(
            f"{argument}: a dynamic body needs area for its mass, and segments without a "
            "radius have none: give a Segment a radius (a capsule), add a shape with area, "
            "or make the body static or kinematic"
        )
