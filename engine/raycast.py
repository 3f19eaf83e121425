"""Ray casts against a world: first hit, every hit, and many rays at once.

A ray is the segment from ``start`` to ``end``; hits are reported as the fraction of that
segment. The kernels (``engine.ray_kernels``) walk the query index's cells along the ray and
solve each part they meet exactly:

* a convex polygon by clipping the segment against its faces' half-planes (slab test): the
  ray enters at the latest entering face and leaves at the earliest exiting one;
* a circle by the smaller root of |s + t d - c| = r, in the cancellation-free form.

Sensors are never hit, nor bodies whose category shares no bit with the ray's ``mask``.
A ray that starts inside (or on) a shape hits it at fraction 0; inside, the normal is
``-direction`` (there is no surface to report), on the surface it is that face's normal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .body import Body
from .call_args import kernel_layout, vector_floats
from .queries import ALL_CATEGORIES, check_mask
from .query_index import QueryIndex
from .ray_kernels import raycast_every, raycast_one, raycast_rays
from .validation import as_finite_array


@dataclass(frozen=True, eq=False)
class RayHit:
    """Where a ray first meets a body.

    body: the Body. point: (2,) world point of the hit. normal: (2,) unit surface normal
    there, facing the ray (``-direction`` for a ray that starts inside). fraction: position
    of the hit along start -> end, in [0, 1].
    """

    body: Body
    point: np.ndarray
    normal: np.ndarray
    fraction: float


class RayHits(NamedTuple):
    """Hits of R rays as arrays: body_row (R,) int64 (-1: no hit), fraction (R,) float64
    (NaN: no hit), point (R, 2) and normal (R, 2) float64 (NaN: no hit)."""

    body_row: np.ndarray
    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray


def raycast(
    index: QueryIndex, parts: dict, handles: np.ndarray, start, end, mask: int = ALL_CATEGORIES
) -> RayHit | None:
    """The first body the segment ``start`` -> ``end`` (each (2,)) meets, or None.

    index: the world's QueryIndex at its current poses; parts: the part table's columns
    (its category (P,) int64 and sensor (P,) bool are read: each part's own); handles: (N,)
    object array, the Body of each body row. Sensors and bodies whose category shares no
    bit with ``mask`` are ignored. Ties in fraction go to the body added first. ValueError
    when start == end (a ray needs a direction).
    """
    sx, sy, ex, ey = _segment(start, end)
    mask = check_mask(mask)
    row, fraction, px, py, nx, ny = raycast_one(
        *index, parts["category"], parts["sensor"], mask, sx, sy, ex, ey
    )
    if row < 0:
        return None
    return RayHit(handles[row], np.array([px, py]), np.array([nx, ny]), fraction)


def raycast_all(
    index: QueryIndex, parts: dict, handles: np.ndarray, start, end, mask: int = ALL_CATEGORIES
) -> list:
    """Every body the segment ``start`` -> ``end`` meets: its first hit, nearest first.

    Returns a list of RayHit (ties in fraction in body order). See :func:`raycast`.
    """
    sx, sy, ex, ey = _segment(start, end)
    mask = check_mask(mask)
    rows, fraction, point, normal = raycast_every(
        *index, parts["category"], parts["sensor"], mask, sx, sy, ex, ey
    )
    return list(map(RayHit, handles[rows].tolist(), point, normal, fraction.tolist()))


def raycast_many(
    index: QueryIndex, parts: dict, starts, ends, mask: int = ALL_CATEGORIES
) -> RayHits:
    """First hits of R rays at once, as arrays (see :class:`RayHits`).

    index, parts: as for :func:`raycast`; starts, ends: (R, 2) float64. The same rules as
    :func:`raycast`; one call solves all rays together, which is much faster than R calls.
    """
    starts = kernel_layout(as_finite_array(starts, (-1, 2), "starts"))
    ends = kernel_layout(as_finite_array(ends, (len(starts), 2), "ends"))
    if np.any(np.all(starts == ends, axis=1)):
        raise ValueError("ends: every ray needs end != start (a zero-length ray has no direction)")
    mask = check_mask(mask)
    return RayHits(*raycast_rays(*index, parts["category"], parts["sensor"], mask, starts, ends))


def _segment(start, end) -> tuple[float, float, float, float]:
    sx, sy = vector_floats(start, "start")
    ex, ey = vector_floats(end, "end")
    if sx == ex and sy == ey:
        raise ValueError("end: must differ from start (a zero-length ray has no direction)")
    return sx, sy, ex, ey
