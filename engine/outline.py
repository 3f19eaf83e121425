"""Cleaning and validating polygon outlines.

An outline is the boundary of a simple polygon given as its corners in order. The engine
stores outlines as (n, 2) float64 arrays, counter-clockwise (CCW, y up), with no repeated
points and no "straight" corners where the path carries on in the same direction.

Every geometric decision here is made on a copy of the points that is translated to the
origin and scaled to unit extent, so that the tolerances are relative to the size of the
outline and so that huge or tiny coordinates neither overflow nor underflow.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np

# Points closer than this (as a fraction of the outline's extent) are the same point.
POINT_TOLERANCE = 1e-9
# Corners whose turn has a sine smaller than this are straight (or a spike).
SINE_TOLERANCE = 1e-9


def signed_area(points: np.ndarray) -> float:
    """Area enclosed by a closed path, positive when the path runs counter-clockwise.

    points: (n, 2) array-like of float64 corners in path order, n >= 0; the path closes from
    the last point back to the first. Returns a Python float (shoelace formula).
    """
    pts = np.asarray(points, dtype=np.float64)
    if len(pts) < 3:
        return 0.0
    # Measuring from the first point avoids cancellation far from the origin.
    rel = pts - pts[0]
    x, y = rel[:, 0], rel[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def is_convex(outline: np.ndarray) -> bool:
    """True iff every corner of a cleaned CCW outline turns strictly left.

    outline: (n, 2) float64, as returned by clean_outline (so it is simple and CCW).
    """
    pts = as_outline_array(outline)
    before = pts - np.roll(pts, 1, axis=0)
    after = np.roll(pts, -1, axis=0) - pts
    turns = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    return bool(np.all(turns > 0.0))


def as_outline_array(outline, argument: str = "outline") -> np.ndarray:
    """outline as a new finite (n, 2) float64 array with n >= 3.

    A light check for functions that expect an already cleaned outline: it does not test
    winding, repeats or simplicity (clean_outline does). Raises TypeError for objects that
    are not arrays of numbers and ValueError for a wrong shape or non-finite values.
    """
    if outline is None or isinstance(outline, str | bytes):
        raise TypeError(f"{argument}: expected an (n, 2) array, got {type(outline).__name__}")
    try:
        pts = np.array(outline, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{argument}: expected an (n, 2) array of numbers ({error})") from None
    if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < 3:
        raise ValueError(f"{argument}: expected an (n, 2) array with n >= 3, got shape {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"{argument}: coordinates must be finite")
    return pts


def normalise(points: np.ndarray) -> np.ndarray:
    """Translate and scale points so that their bounding box is centred with extent 1.

    points: (n, 2) finite float64, n >= 1. Returns a new (n, 2) float64 array; the
    largest side of the bounding box becomes 1 (points that all coincide are only
    translated). Safe for coordinates near the float64 limits.
    """
    # Halving first keeps max - min finite even for coordinates of about 1e308.
    half = points * 0.5
    low, high = half.min(axis=0), half.max(axis=0)
    centre = low + (high - low) * 0.5
    extent = float(np.max(high - low))
    shifted = half - centre
    return shifted / extent if extent > 0.0 else shifted


def clean_outline(vertices, argument: str = "vertices") -> np.ndarray:
    """Validate a polygon outline and return it in the engine's canonical form.

    vertices: a sequence of (x, y) pairs of real numbers or an (n, 2) numeric array, in
    either winding. Consecutive repeated points (including a last point that repeats the
    first) and straight corners are dropped. Returns an (n, 2) float64 CCW array, n >= 3.

    Raises TypeError if vertices is not a sequence of pairs of numbers, and ValueError
    (message starting with `argument`) if the coordinates are not finite, fewer than 3
    distinct points remain, the area is zero, the path doubles back on itself (a spike),
    the outline touches or intersects itself, or its area is not a finite float64.
    """
    points = _as_points(vertices, argument)
    if len(points) == 0:
        raise ValueError(f"{argument}: outline has fewer than 3 distinct points (got none)")
    unit = normalise(points)
    ids = _drop_repeated_points(unit)
    if len(ids) < 3:
        raise ValueError(f"{argument}: outline has fewer than 3 distinct points")
    if _all_collinear(unit[ids]):
        raise ValueError(f"{argument}: outline has zero area (all points are collinear)")
    _check_no_revisits(unit, ids, argument)
    ids = _drop_straight_corners(unit, ids, argument)
    _check_simple(unit, ids, argument)
    if abs(signed_area(unit[ids])) <= POINT_TOLERANCE**2:
        raise ValueError(f"{argument}: outline has zero area")
    result = points[ids]
    _check_area_representable(result, argument)
    # All checks ran in input order so that messages use the caller's indices.
    if signed_area(unit[ids]) < 0.0:
        result = result[::-1]
    return np.ascontiguousarray(result, dtype=np.float64)


def _check_area_representable(points: np.ndarray, argument: str) -> None:
    """Reject outlines whose true area underflows to 0 or overflows to infinity in float64.

    Masses and inertias are computed from the area later, so it must be a usable number.
    """
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        area = abs(signed_area(points))
    if area == 0.0:
        raise ValueError(f"{argument}: outline has zero area (too small for float64)")
    if not np.isfinite(area):
        raise ValueError(f"{argument}: outline area must be finite (coordinates too large)")


def _as_points(vertices, argument: str) -> np.ndarray:
    """Convert vertices to a finite (n, 2) float64 array or raise TypeError/ValueError."""
    if isinstance(vertices, np.ndarray) and vertices.dtype.kind in "iuf":
        points = vertices.astype(np.float64)
        if points.ndim != 2 or points.shape[1] != 2:
            raise ValueError(f"{argument}: must have shape (n, 2), got {vertices.shape}")
    else:
        points = np.array(_pairs_from_sequence(vertices, argument), dtype=np.float64)
        points = points.reshape(-1, 2)
    if not np.all(np.isfinite(points)):
        raise ValueError(f"{argument}: coordinates must be finite (found NaN or infinity)")
    return points


def _pairs_from_sequence(vertices, argument: str) -> list[tuple[float, float]]:
    """Read a sequence of (x, y) pairs of real numbers into a list of float tuples."""
    if isinstance(vertices, str | bytes) or not isinstance(vertices, Iterable):
        raise TypeError(
            f"{argument}: expected a sequence of (x, y) points, got {type(vertices).__name__}"
        )
    pairs = []
    for index, point in enumerate(vertices):
        if isinstance(point, str | bytes) or not isinstance(point, Iterable):
            raise TypeError(
                f"{argument}: point {index} must be an (x, y) pair, got {type(point).__name__}"
            )
        coords = list(point)
        if len(coords) != 2:
            raise ValueError(
                f"{argument}: must have shape (n, 2), but point {index} has {len(coords)} values"
            )
        pairs.append(tuple(_coordinate(value, index, argument) for value in coords))
    return pairs


def _coordinate(value, index: int, argument: str) -> float:
    """One coordinate as a float; bool and non-real values are not coordinates."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{argument}: point {index} must hold real numbers, got {type(value).__name__}"
        )
    try:
        return float(value)
    except OverflowError:
        # Integers beyond the float range are as unusable as infinity.
        raise ValueError(
            f"{argument}: coordinates must be finite (point {index} is too large)"
        ) from None


def _drop_repeated_points(unit: np.ndarray) -> list[int]:
    """Indices of unit-scaled points left after merging consecutive repeats (cyclically)."""
    ids = [0]
    for i in range(1, len(unit)):
        if np.hypot(*(unit[i] - unit[ids[-1]])) > POINT_TOLERANCE:
            ids.append(i)
    # A closed ring repeats its first point at the end.
    while len(ids) > 1 and np.hypot(*(unit[ids[-1]] - unit[ids[0]])) <= POINT_TOLERANCE:
        ids.pop()
    return ids


def _all_collinear(unit: np.ndarray) -> bool:
    """True if all unit-scaled points lie within tolerance of one line."""
    offsets = unit - unit[0]
    far = offsets[np.argmax(np.hypot(offsets[:, 0], offsets[:, 1]))]
    direction = far / np.hypot(*far)
    distances = np.abs(offsets[:, 0] * direction[1] - offsets[:, 1] * direction[0])
    return bool(np.max(distances) <= POINT_TOLERANCE)


def _check_no_revisits(unit: np.ndarray, ids: list[int], argument: str) -> None:
    """Reject a path that comes back to a point it visited before (not consecutively).

    Memory and time O(n log n): points are hashed into square cells whose diagonal is the
    tolerance, so two points in one cell coincide, and a point can only coincide with
    points at most two cells away in each direction.
    """
    points = unit[ids]
    cell = POINT_TOLERANCE / math.sqrt(2.0)
    # unit lies in [-0.5, 0.5]; shifted by 0.75 every cell index is positive and < 2**31.
    cx, cy = (np.floor((points + 0.75) / cell).astype(np.int64)).T
    keys = (cx << 32) | cy
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    first, second = [], []
    same = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    first.append(order[same])
    second.append(order[same + 1])
    if len(same) == 0:  # every cell holds one point: look at the cells around each
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                if (dx, dy) <= (0, 0):  # each unordered pair of cells once
                    continue
                wanted = ((cx + dx) << 32) | (cy + dy)
                at = np.minimum(np.searchsorted(sorted_keys, wanted), len(keys) - 1)
                found = np.flatnonzero(sorted_keys[at] == wanted)
                other = order[at[found]]
                close = np.hypot(*(points[found] - points[other]).T) <= POINT_TOLERANCE
                first.append(found[close])
                second.append(other[close])
    first, second = np.concatenate(first), np.concatenate(second)
    if len(first):
        low, high = np.minimum(first, second), np.maximum(first, second)
        k = np.lexsort((high, low))[0]  # the first pair in the caller's order
        a, b = ids[low[k]], ids[high[k]]
        raise ValueError(f"{argument}: outline touches itself (points {a} and {b} coincide)")


def _corner_turn(unit: np.ndarray, before: int, at: int, after: int) -> tuple[float, float]:
    """Sine and cosine of the turn at point `at` on the path before -> at -> after."""
    incoming = unit[at] - unit[before]
    outgoing = unit[after] - unit[at]
    lengths = np.hypot(*incoming) * np.hypot(*outgoing)
    cross = incoming[0] * outgoing[1] - incoming[1] * outgoing[0]
    dot = incoming @ outgoing
    return float(cross / lengths), float(dot / lengths)


def _drop_straight_corners(unit: np.ndarray, ids: list[int], argument: str) -> list[int]:
    """Remove straight corners until none remain; a corner that turns back is an error."""
    ids = list(ids)
    changed = True
    while changed and len(ids) >= 3:
        changed = False
        i = 0
        while i < len(ids) and len(ids) >= 3:
            sine, cosine = _corner_turn(unit, ids[i - 1], ids[i], ids[(i + 1) % len(ids)])
            if abs(sine) > SINE_TOLERANCE:
                i += 1
            elif cosine < 0.0:
                raise ValueError(
                    f"{argument}: outline doubles back on itself at point {ids[i]} (a spike)"
                )
            else:
                # Removing a corner changes its neighbours' turns: rescan afterwards.
                del ids[i]
                changed = True
    if len(ids) < 3:
        raise ValueError(f"{argument}: outline has fewer than 3 distinct points")
    return ids


def _check_simple(unit: np.ndarray, ids: list[int], argument: str) -> None:
    """Raise ValueError naming two edges if any two edges of the outline meet wrongly.

    Non-adjacent edges must keep apart by more than the point tolerance; adjacent edges
    may share only their common end point (no overlap along a line).
    """
    pair = _first_bad_edge_pair(unit[ids])
    if pair is None:
        return
    i, j, kind = pair
    verb = "intersects" if kind == "cross" else "touches"
    # Edge k runs from the caller's point ids[k] to the next kept point.
    raise ValueError(f"{argument}: outline {verb} itself (edges {ids[i]} and {ids[j]} {kind})")


def _first_bad_edge_pair(pts: np.ndarray) -> tuple[int, int, str] | None:
    """First pair (i, j, kind) of edges i < j that cross, touch or overlap, or None.

    pts: (m, 2) unit-scaled outline; edge k runs from pts[k] to pts[(k + 1) % m].
    kind is "cross" for a proper crossing, "touch" or "overlap" otherwise. Memory stays
    O(m + PAIR_CHUNK): the candidate pairs are tested a chunk at a time.
    """
    best = None
    for first, second in _pairs_with_overlapping_boxes(pts):
        found = _bad_edge_pairs(pts, first, second)
        if found is not None and (best is None or found[:2] < best[:2]):
            best = found
    return best


def _bad_edge_pairs(pts: np.ndarray, first: np.ndarray, second: np.ndarray):
    """The first (i, j, kind) among candidate edge pairs first[k] < second[k], or None."""
    m = len(pts)
    adjacent = (second == first + 1) | ((first == 0) & (second == m - 1))
    starts, ends = pts, np.roll(pts, -1, axis=0)
    a0, a1, b0, b1 = starts[first], ends[first], starts[second], ends[second]

    side_b0, side_b1 = _cross(a1 - a0, b0 - a0), _cross(a1 - a0, b1 - a0)
    side_a0, side_a1 = _cross(b1 - b0, a0 - b0), _cross(b1 - b0, a1 - b0)
    crossing = (side_b0 * side_b1 < 0.0) & (side_a0 * side_a1 < 0.0) & ~adjacent

    # Closest approach of two segments that do not cross is at an end point of one.
    gap = np.minimum.reduce(
        [
            _point_segment_distance(b0, a0, a1),
            _point_segment_distance(b1, a0, a1),
            _point_segment_distance(a0, b0, b1),
            _point_segment_distance(a1, b0, b1),
        ]
    )
    touching = (gap <= POINT_TOLERANCE) & ~adjacent
    # Adjacent edges share one end; they overlap if the other far end lies on the other edge.
    far_gap = np.minimum(
        _point_segment_distance(np.where(second[:, None] == first[:, None] + 1, b1, b0), a0, a1),
        _point_segment_distance(np.where(second[:, None] == first[:, None] + 1, a0, a1), b0, b1),
    )
    overlapping = adjacent & (far_gap <= POINT_TOLERANCE)
    bad = np.flatnonzero(crossing | touching | overlapping)
    if len(bad) == 0:
        return None
    k = bad[np.lexsort((second[bad], first[bad]))[0]]
    kind = "cross" if crossing[k] else ("overlap" if overlapping[k] else "touch")
    return int(first[k]), int(second[k]), kind


# Candidate edge pairs tested at once by the simplicity check (bounds its memory).
PAIR_CHUNK = 1 << 16


def _pairs_with_overlapping_boxes(pts: np.ndarray):
    """Yield chunks (i, j) of index arrays, i < j, of the edges whose padded boxes overlap.

    Only such edges can come within the tolerance of each other, so the exact tests run
    on these pairs alone. A sweep along x: with the edges sorted by the left side of their
    boxes, each edge meets the edges that start before its box ends (a searchsorted), and
    the pairs are expanded a chunk at a time, so memory stays O(m + PAIR_CHUNK).
    """
    ends = np.roll(pts, -1, axis=0)
    low = np.minimum(pts, ends) - POINT_TOLERANCE
    high = np.maximum(pts, ends) + POINT_TOLERANCE
    order = np.argsort(low[:, 0], kind="stable")
    left = low[order, 0]
    # Edge order[k] meets edges order[k + 1 : stop[k]] along x.
    stop = np.searchsorted(left, high[order, 0], side="right")
    count = np.maximum(stop - np.arange(len(pts)) - 1, 0)
    total = np.cumsum(count)
    start = 0
    while start < len(pts):
        # Whole edges per chunk, at least one, about PAIR_CHUNK pairs.
        base = total[start - 1] if start else 0
        end = max(int(np.searchsorted(total, base + PAIR_CHUNK, side="right")), start + 1)
        rows = np.arange(start, end)
        owner = np.repeat(rows, count[rows])
        offset = np.arange(len(owner)) - np.repeat(
            np.cumsum(count[rows]) - count[rows], count[rows]
        )
        i, j = order[owner], order[owner + 1 + offset]
        both = (low[i, 1] <= high[j, 1]) & (low[j, 1] <= high[i, 1])
        i, j = i[both], j[both]
        yield np.minimum(i, j), np.maximum(i, j)
        start = end


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise 2D cross product of (k, 2) arrays, shape (k,)."""
    return u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]


def _point_segment_distance(p: np.ndarray, s0: np.ndarray, s1: np.ndarray) -> np.ndarray:
    """Row-wise distance from points p to segments s0-s1, all (k, 2); shape (k,)."""
    seg = s1 - s0
    length_sq = np.einsum("ij,ij->i", seg, seg)
    t = np.einsum("ij,ij->i", p - s0, seg) / np.where(length_sq > 0.0, length_sq, 1.0)
    nearest = s0 + np.clip(t, 0.0, 1.0)[:, None] * seg
    return np.hypot(*(p - nearest).T)
