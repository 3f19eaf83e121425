"""The separating axis test laid out for drawing: axes, shadows, overlaps, the MTV.

Pure numpy, no window: the SAT explorer scene draws what these functions return, and the
tests check them against projections worked out by hand.

For two convex polygons the candidate axes are the unit normals of both polygons' edges.
Each polygon's shadow on an axis is the interval [min, max] of its vertices' dot products
with the axis. If some axis has shadows that do not overlap, it separates the polygons;
if every axis overlaps, they intersect, and the axis of least overlap gives the minimum
translation vector (MTV): the shortest push that separates them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class AxisReport(NamedTuple):
    """One candidate axis: ``axis`` (2,) unit vector, ``owner`` "A" or "B", ``edge`` index
    in the owner, the shadows ``a`` and ``b`` as (min, max), and ``overlap`` (their common
    length; negative = the width of the gap between them)."""

    axis: np.ndarray
    owner: str
    edge: int
    a: tuple[float, float]
    b: tuple[float, float]
    overlap: float


class SatResult(NamedTuple):
    """The whole test: every axis, and either a separating axis or the MTV.

    separating: index into ``axes`` of the axis with the widest gap, or None if they
    intersect. mtv_axis: index of the axis needing the shortest push when they intersect,
    else None. mtv: (2,) that push for A, which separates them (zero when apart).
    """

    axes: list[AxisReport]
    separating: int | None
    mtv_axis: int | None
    mtv: np.ndarray


def transform(local, position, angle: float) -> np.ndarray:
    """Polygon vertices (n, 2) in their own frame -> world, turned by ``angle`` then moved."""
    local = np.asarray(local, dtype=np.float64)
    c, s = np.cos(angle), np.sin(angle)
    return local @ np.array([[c, s], [-s, c]]) + np.asarray(position, dtype=np.float64)


def edge_normals(vertices) -> np.ndarray:
    """Unit outward normals (n, 2) of a counter-clockwise polygon; normal i is of edge
    (i, i + 1)."""
    vertices = np.asarray(vertices, dtype=np.float64)
    edges = np.roll(vertices, -1, axis=0) - vertices
    normals = np.column_stack([edges[:, 1], -edges[:, 0]])
    return normals / np.linalg.norm(normals, axis=1, keepdims=True)


def project(vertices, axis) -> tuple[float, float]:
    """The shadow of a polygon on ``axis``: (min, max) of vertex . axis."""
    dots = np.asarray(vertices, dtype=np.float64) @ np.asarray(axis, dtype=np.float64)
    return float(dots.min()), float(dots.max())


def overlap(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Length shared by intervals a and b; negative: the gap between them."""
    return min(a[1], b[1]) - max(a[0], b[0])


def overlap_interval(a, b) -> tuple[float, float] | None:
    """The shared part of intervals a and b, or None if they are apart."""
    low, high = max(a[0], b[0]), min(a[1], b[1])
    return (low, high) if high >= low else None


def is_convex(vertices) -> bool:
    """True if the polygon turns left (strictly) at every corner: convex and CCW."""
    v = np.asarray(vertices, dtype=np.float64)
    edge = np.roll(v, -1, axis=0) - v
    turn = (
        edge[:, 0] * np.roll(edge, -1, axis=0)[:, 1] - edge[:, 1] * np.roll(edge, -1, axis=0)[:, 0]
    )
    return bool(np.all(turn > 0.0))


def sat(a, b) -> SatResult:
    """Run the test on world-space convex CCW polygons ``a`` and ``b`` (n, 2) and (m, 2)."""
    reports = []
    for owner, polygon in (("A", a), ("B", b)):
        for edge, axis in enumerate(edge_normals(polygon)):
            shadow_a, shadow_b = project(a, axis), project(b, axis)
            reports.append(
                AxisReport(axis, owner, edge, shadow_a, shadow_b, overlap(shadow_a, shadow_b))
            )
    overlaps = np.array([report.overlap for report in reports])
    if overlaps.min() < 0.0:
        return SatResult(reports, int(np.argmin(overlaps)), None, np.zeros(2))
    pushes = [push(report.a, report.b) for report in reports]
    best = int(np.argmin([abs(distance) for distance in pushes]))
    return SatResult(reports, None, best, pushes[best] * reports[best].axis)


def push(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The shortest move of interval a along its axis that leaves it clear of b (signed).

    Equal to the overlap unless one interval contains the other: then a must travel past
    the nearer end of b, which is further.
    """
    forward = b[1] - a[0]  # move a up until its min passes b's max
    backward = a[1] - b[0]  # move a down until its max passes b's min
    return forward if forward < backward else -backward


def distinct_axes(reports: list[AxisReport], tolerance: float = 1e-9) -> list[int]:
    """Indices of the axes that are not parallel to an earlier one (a box's four edge
    normals give only two distinct axes: opposite normals cast the same shadows)."""
    kept: list[int] = []
    for i, report in enumerate(reports):
        if all(abs(_cross(report.axis, reports[j].axis)) > tolerance for j in kept):
            kept.append(i)
    return kept


def shadow_segment(interval, axis, wall_point) -> np.ndarray:
    """Where the shadow ``interval`` on ``axis`` falls on the line through ``wall_point``
    parallel to the axis: (2, 2) world endpoints. Dropping perpendiculars from a polygon
    onto that line covers exactly this segment."""
    axis = np.asarray(axis, dtype=np.float64)
    wall_point = np.asarray(wall_point, dtype=np.float64)
    base = float(wall_point @ axis)
    return np.array([wall_point + (t - base) * axis for t in interval])


def _cross(u, v) -> float:
    return float(u[0] * v[1] - u[1] * v[0])
