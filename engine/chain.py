"""Chain: a polyline of one-sided segments, for static and kinematic terrain and walls.

Each link is a segment whose front is the side its normal points to, to the right of the
direction of travel, as Box2D's chain shape and as a counter-clockwise polygon's edges: a
ground whose top is the front runs right to left, a counter-clockwise loop is solid inside
and a clockwise loop is a room. A body whose centre is behind a link passes through it.

Smooth: each link also keeps its neighbours' far ends (the ghost vertices), and a contact
normal that points into a neighbour's region is replaced by the link's own normal (or
left to the neighbour), so bodies slide across joins without catching on them
(``engine.chain_pair``).
"""

from __future__ import annotations

import numpy as np

from .packing import PackedParts
from .segments import Segment
from .shapes import Shape, _frozen
from .validation import as_finite_array


class _Link(Segment):
    """One link of a Chain: a line from a to b with the neighbours' far ends (ghosts; a
    free end's ghost is the end itself). Packed in 4 slots: a, b, ghost before a, ghost
    after b, with the front normal in every normal slot (what marks it one-sided)."""

    __slots__ = ("_before", "_after")
    _slots = 4

    def __init__(self, a, b, before, after):
        super().__init__(a, b)
        object.__setattr__(self, "_before", _frozen(before))
        object.__setattr__(self, "_after", _frozen(after))

    def _pack(self, width: int) -> PackedParts:
        vertices = np.empty((1, width, 2))
        vertices[0, :] = self._a
        vertices[0, 1], vertices[0, 2], vertices[0, 3] = self._b, self._before, self._after
        normals = np.broadcast_to(self._normal, (1, width, 2)).copy()
        return PackedParts(vertices, normals, np.array([2]), np.zeros(1))

    def _constructor_args(self) -> tuple:
        return (*super()._constructor_args()[:2], self._before.tolist(), self._after.tolist())


class Chain(Shape):
    """Segments through ``points`` (n, 2) in body-local coordinates, m; with ``loop`` the
    last point joins the first. One-sided (the front is to the right of the direction of
    travel) and without area: for static and kinematic bodies only.

    >>> ground = Chain([(10, 0), (0, 0), (-10, 1)])   # right to left: the front is up
    >>> len(ground.parts), ground.parts[0].normal.tolist()
    (2, [0.0, 1.0])
    """

    __slots__ = ("_points", "_loop", "_parts")
    _one_sided = True

    def __init__(self, points, loop: bool = False, *, density=None, friction=None,
                 restitution=None, sensor=None, category=None, mask=None, group=None,
                 tag=None):  # fmt: skip
        points = as_finite_array(points, (-1, 2), "points")
        if not isinstance(loop, (bool, np.bool_)):
            raise TypeError(f"loop: expected a bool, got {type(loop).__name__}")
        least = 3 if loop else 2
        if len(points) < least:
            raise ValueError(f"points: a {'loop' if loop else 'chain'} needs at least {least}")
        ends = np.roll(points, -1, axis=0) if loop else points[1:]
        same = np.flatnonzero(np.all(ends == points[: len(ends)], axis=1))
        if len(same):
            i = int(same[0])
            raise ValueError(f"points: point {i} and the next are equal: a link needs a length")
        n = len(ends)
        starts = points[:n]
        # Ghosts: the neighbouring links' far ends; a free end of an open chain has none.
        before = np.roll(starts, 1, axis=0) if loop else np.concatenate([starts[:1], starts[:-1]])
        after = np.roll(ends, -1, axis=0) if loop else np.concatenate([ends[1:], ends[-1:]])
        parts = tuple(_Link(starts[i], ends[i], before[i], after[i]) for i in range(n))
        object.__setattr__(self, "_points", _frozen(points))
        object.__setattr__(self, "_loop", bool(loop))
        object.__setattr__(self, "_parts", parts)
        centroid = np.mean([0.5 * (part.a + part.b) for part in parts], axis=0)
        self._finish(0.0, centroid, 0.0, "points", empty_ok=True)
        self._keep_material(density, friction, restitution, sensor, category, mask, group, tag)

    @property
    def points(self) -> np.ndarray:
        """(n, 2) float64 points, body-local."""
        return self._points

    @property
    def loop(self) -> bool:
        """True when the last point joins the first."""
        return self._loop

    @property
    def parts(self) -> tuple:
        """The links, as one-sided Segments (a, b, normal)."""
        return self._parts

    def _constructor_args(self) -> tuple:
        return (self._points.tolist(), self._loop)

    def __repr__(self) -> str:
        return f"Chain({self._points.tolist()!r}, loop={self._loop!r}{self._material_repr()})"
