"""Ray casts against a world: first hit, every hit, and many rays at once.

A ray is the segment from ``start`` to ``end``; hits are reported as the fraction of that
segment. Candidate parts come from the query index (``engine.queries``): the grid cells the
segment crosses are listed by walking its major axis. Each (ray, part) pair is then solved
exactly, all pairs at once:

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
from .queries import (
    ALL_CATEGORIES,
    QueryIndex,
    cast_filter,
    check_mask,
    check_world,
    current_index,
    padded_slots,
    rotate,
    sweep_candidates,
    to_local,
)
from .validation import as_finite_array, as_vector


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


class _PairHits(NamedTuple):
    """Exact hits of (ray, part) pairs: ray, part, body (M,) int64; fraction (M,);
    point, normal (M, 2)."""

    ray: np.ndarray
    part: np.ndarray
    body: np.ndarray
    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray


# -- public API -------------------------------------------------------------------------------
def raycast(world, start, end, mask: int = ALL_CATEGORIES) -> RayHit | None:
    """The first body the segment ``start`` -> ``end`` (each (2,)) meets, or None.

    Sensors and bodies whose category shares no bit with ``mask`` are ignored. Ties in
    fraction go to the body added first. ValueError when start == end (a ray needs a direction).
    """
    check_world(world)
    start, end = _check_segment(start, end)
    hits = raycast_many(world, start[None], end[None], mask)
    if hits.body_row[0] < 0:
        return None
    return RayHit(
        world._handles[hits.body_row[0]], hits.point[0], hits.normal[0], float(hits.fraction[0])
    )


def raycast_all(world, start, end, mask: int = ALL_CATEGORIES) -> list:
    """Every body the segment ``start`` -> ``end`` meets: its first hit, nearest first.

    Returns a list of RayHit (ties in fraction in body order). See :func:`raycast`.
    """
    check_world(world)
    start, end = _check_segment(start, end)
    mask = check_mask(mask)
    index = current_index(world)
    found = ray_hits(world, index, start[None], end[None], mask)
    # First hit per body: sort by body then fraction and keep each body's first row.
    order = np.lexsort((found.fraction, found.body))
    first = order[np.unique(found.body[order], return_index=True)[1]]
    first = first[np.lexsort((found.body[first], found.fraction[first]))]
    return list(
        map(
            RayHit,
            index.handles[found.body[first]],
            found.point[first],
            found.normal[first],
            found.fraction[first].tolist(),
        )
    )


def raycast_many(world, starts, ends, mask: int = ALL_CATEGORIES) -> RayHits:
    """First hits of R rays at once, as arrays (see :class:`RayHits`).

    starts, ends: (R, 2) float64. The same rules as :func:`raycast`; one call solves all
    rays together, which is much faster than R calls.
    """
    check_world(world)
    starts = as_finite_array(starts, (-1, 2), "starts")
    ends = as_finite_array(ends, (len(starts), 2), "ends")
    if np.any(np.all(starts == ends, axis=1)):
        raise ValueError("ends: every ray needs end != start (a zero-length ray has no direction)")
    mask = check_mask(mask)
    found = ray_hits(world, current_index(world), starts, ends, mask)
    return _nearest_per_ray(found, len(starts))


# -- the work ---------------------------------------------------------------------------------
def _check_segment(start, end) -> tuple[np.ndarray, np.ndarray]:
    start, end = as_vector(start, "start"), as_vector(end, "end")
    if np.array_equal(start, end):
        raise ValueError("end: must differ from start (a zero-length ray has no direction)")
    return start, end


def ray_hits(world, index: QueryIndex, starts, ends, mask: int) -> _PairHits:
    """Every (ray, part) hit of R rays (R, 2) on solid bodies whose category passes ``mask``."""
    ray, part = sweep_candidates(index, starts, ends, np.zeros_like(starts))
    keep = cast_filter(world, mask)(index.part_body[part])
    ray, part = ray[keep], part[keep]
    hit, fraction, normal = segment_part(index, part, starts[ray], ends[ray])
    ray, part, fraction, normal = ray[hit], part[hit], fraction[hit], normal[hit]
    point = starts[ray] + fraction[:, None] * (ends[ray] - starts[ray])
    return _PairHits(ray, part, index.part_body[part], fraction, point, normal)


def _nearest_per_ray(found: _PairHits, rays: int) -> RayHits:
    """Reduce pair hits to each ray's nearest (ties: lowest body row)."""
    result = RayHits(
        np.full(rays, -1, dtype=np.int64),
        np.full(rays, np.nan),
        np.full((rays, 2), np.nan),
        np.full((rays, 2), np.nan),
    )
    order = np.lexsort((found.body, found.fraction, found.ray))
    ray_sorted = found.ray[order]
    first = order[np.unique(ray_sorted, return_index=True)[1]]
    hit_rays = found.ray[first]
    result.body_row[hit_rays] = found.body[first]
    result.fraction[hit_rays] = found.fraction[first]
    result.point[hit_rays] = found.point[first]
    result.normal[hit_rays] = found.normal[first]
    return result


def segment_part(index: QueryIndex, parts, starts, ends):
    """Exact segment tests of M (segment, part) pairs.

    parts: (M,) int64 part rows; starts, ends: (M, 2) world segments. Returns hit (M,) bool,
    fraction (M,) in [0, 1] and normal (M, 2) unit world normal facing the segment
    (``-direction`` where the segment starts inside); fraction and normal mean something
    only where hit.
    """
    poses = index.poses[index.part_body[parts]]
    local_start = to_local(starts, poses)
    local_direction = rotate(ends - starts, -poses[:, 2])
    polygon = _segment_polygon(index, parts, local_start, local_direction)
    circle = _segment_circle(index, parts, local_start, local_direction)
    round_part = index.parts.radius[parts] > 0.0
    hit, fraction, normal, inside = (
        _choose(round_part, of_circle, of_polygon) for of_polygon, of_circle in zip(polygon, circle)
    )
    direction = ends - starts
    backwards = -direction / np.hypot(direction[:, 0], direction[:, 1])[:, None]
    normal = np.where(inside[:, None], backwards, rotate(normal, poses[:, 2]))
    return hit, fraction, normal


def _choose(condition: np.ndarray, yes: np.ndarray, no: np.ndarray) -> np.ndarray:
    """Rows of ``yes`` where ``condition`` (M,), else of ``no``; (M,) or (M, 2) arrays."""
    return np.where(condition if yes.ndim == 1 else condition[:, None], yes, no)


def _segment_polygon(index: QueryIndex, parts, start, direction):
    """Slab clipping of segments (body frame) against convex parts' half-planes.

    Inside face i means n_i . (x - v_i) <= 0. Along x = s + t d that is t (n.d) <= n.(v - s):
    faces with n.d < 0 bound t from below (entering), with n.d > 0 from above (exiting);
    a face parallel to the segment (n.d == 0) passes everything or nothing.
    Returns hit, fraction, local normal of the entering face, and starts-inside, (M,) each.
    """
    vertices, normals = index.parts.vertices[parts], index.parts.normals[parts]
    room = np.einsum("mkd,mkd->mk", normals, vertices - start[:, None, :])
    rate = np.einsum("mkd,md->mk", normals, direction)
    padded = padded_slots(index.parts, parts)
    room[padded], rate[padded] = np.inf, 0.0  # padding repeats a real face: no constraint
    # A face almost parallel to the segment (a subnormal rate) crosses at +-inf: never.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        crossing = room / rate
    entering = np.where(rate < 0.0, crossing, -np.inf)
    enter = entering.max(axis=1)
    leave = np.where(rate > 0.0, crossing, np.inf).min(axis=1)
    blocked = ((rate == 0.0) & (room < 0.0)).any(axis=1)
    hit = ~blocked & (enter <= leave) & (leave >= 0.0) & (enter <= 1.0)
    face = entering.argmax(axis=1)
    normal = np.take_along_axis(normals, face[:, None, None], axis=1)[:, 0]
    # enter < 0: every entering face was crossed before the start, so the start is inside.
    return hit, np.maximum(enter, 0.0), normal, enter < 0.0


def _segment_circle(index: QueryIndex, parts, start, direction):
    """Segments (body frame) against circle parts: the smaller root of |m + t d| = r.

    With m = s - c, b = m.d, g = |m|^2 - r^2: t = g / (-b + sqrt(b^2 - |d|^2 g)), the
    cancellation-free form of (-b - sqrt(.)) / |d|^2. Returns hit, fraction, local normal
    and starts-inside, (M,) each.
    """
    offset = start - index.parts.vertices[parts, 0]
    radius = index.parts.radius[parts]
    b = np.einsum("md,md->m", offset, direction)
    gap = np.einsum("md,md->m", offset, offset) - radius * radius
    discriminant = b * b - np.einsum("md,md->m", direction, direction) * gap
    with np.errstate(divide="ignore", invalid="ignore"):
        t = gap / (-b + np.sqrt(discriminant))
    # On the circle and heading out counts as inside: there is no surface ahead to report.
    inside = (gap < 0.0) | ((gap == 0.0) & (b >= 0.0))
    approaching = (b < 0.0) & (discriminant >= 0.0) & (t <= 1.0)
    fraction = np.where(inside, 0.0, np.where(approaching, t, 0.0))
    surface = offset + fraction[:, None] * direction
    length = np.hypot(surface[:, 0], surface[:, 1])
    normal = surface / np.where(length > 0.0, length, 1.0)[:, None]
    return inside | approaching, fraction, normal, inside
