"""One pair with a circle: polygon-circle and circle-circle, with sweep and contact point.

A circle against a convex polygon is exact with the polygon's face normals plus one more
axis, from the polygon vertex nearest the centre to the centre: whichever Voronoi region of
the polygon holds the centre, its closest-feature direction is among these.

Time of impact is a ray cast of the centre (moving relative to the polygon) against the
polygon grown by the radius: the first touch is on a shifted face or on a vertex's circle.

A polygon is a (4, K) hull, rows x, y, nx, ny (see ``engine.polygon_pair``); both routines
return the pair's answer as scalars, like ``polygon_pair``.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .polygon_pair import FEATURE_FACE


@kernel(inline=True)
def first_root(offset_dot_velocity, offset_sq, reach_sq, speed_sq):
    """Earliest t >= 0 with |offset - velocity t| = reach, NaN if never.

    Uses the cancellation-free form of the smaller root.
    """
    gap = offset_sq - reach_sq
    discriminant = offset_dot_velocity * offset_dot_velocity - speed_sq * gap
    if offset_dot_velocity > 0.0 and discriminant >= 0.0 and gap >= 0.0:
        return gap / (offset_dot_velocity + math.sqrt(discriminant))
    return np.nan


@kernel
def polygon_circle(a, na, cx, cy, r, vx, vy, sweep, dt, margin):
    """Collide polygon A (hull a, na vertices) with the circle of centre (cx, cy) and
    radius r, in A's frame; A moves by (vx, vy) t relative to the circle when ``sweep``.
    The normal points from the polygon to the circle. Returns the pair's answer."""
    face = 0
    face_separation = -np.inf
    corner = 0
    corner_sq = np.inf
    farthest_sq = -np.inf
    for k in range(na):
        dx = cx - a[0, k]
        dy = cy - a[1, k]
        gap = a[2, k] * dx + a[3, k] * dy - r
        if gap > face_separation:
            face_separation = gap
            face = k
        dist_sq = dx * dx + dy * dy
        if dist_sq < corner_sq:
            corner_sq = dist_sq
            corner = k
        if dist_sq > farthest_sq:
            farthest_sq = dist_sq
    corner_dist = _length(cx - a[0, corner], cy - a[1, corner])
    on_corner = corner_dist == 0.0
    safe = 1.0 if on_corner else corner_dist
    ux = (cx - a[0, corner]) / safe
    uy = (cy - a[1, corner]) / safe
    # The polygon's reach along u beyond the nearest vertex: exactly 0 when that vertex is
    # the support (the usual case), so the separation is then |c - v| - r to the last bit.
    excess = -np.inf
    for k in range(na):
        along = ux * (a[0, k] - a[0, corner]) + uy * (a[1, k] - a[1, corner])
        if along > excess:
            excess = along
    corner_separation = -np.inf if on_corner else corner_dist - r - excess

    if corner_separation > face_separation:
        separation = corner_separation
        nx, ny = ux, uy
        half = r + 0.5 * separation
        px = cx - nx * half
        py = cy - ny * half
        point_separation = separation
        feature = FEATURE_FACE + corner
    else:
        separation = face_separation
        nx, ny = a[2, face], a[3, face]
        px, py, point_separation = _face_point(a, na, face, nx, ny, cx, cy, r, separation)
        feature = face
    if separation <= 0.0:
        toi = 0.0
    elif sweep:
        toi = _polygon_circle_sweep(a, na, cx, cy, r, vx, vy)
        toi = toi if toi <= dt else np.nan
    else:
        toi = np.nan
    count = 0
    if point_separation <= margin:
        count = 1
    else:
        px, py, point_separation, feature = np.nan, np.nan, np.nan, -1
    return (
        separation, nx, ny, toi, count, px, py, point_separation, feature, np.nan, np.nan,
        np.nan, -1, farthest_sq <= r * r, face_separation <= -2.0 * r,
    )  # fmt: skip


@kernel(inline=True)
def _face_point(a, na, face, nx, ny, cx, cy, r, separation):
    """Contact point on the reference face: midway between the face and the circle.

    Usually the centre projects onto the face and the point lies on the line through the
    centre. A circle that swallows the polygon may project beyond the face's ends; the point
    is then kept beside the face (clamped to its ends), on a line that crosses both shapes.
    Returns (x, y, separation along the normal).
    """
    following = face + 1 if face + 1 < na else 0
    sx, sy = a[0, face], a[1, face]
    ex, ey = a[0, following] - sx, a[1, following] - sy
    along = ((cx - sx) * ex + (cy - sy) * ey) / (ex * ex + ey * ey)
    clamped = min(max(along, 0.0), 1.0)
    ox, oy = sx + clamped * ex, sy + clamped * ey
    tx, ty = cx - ox, cy - oy
    height = tx * nx + ty * ny
    if along == clamped:
        gap = separation
    else:
        sideways_sq = max(tx * tx + ty * ty - height * height, 0.0)
        # Where the line from the face point along the normal meets the circle's near side.
        gap = height - math.sqrt(max(r * r - sideways_sq, 0.0))
    return ox + nx * (0.5 * gap), oy + ny * (0.5 * gap), gap


@kernel(inline=True)
def _polygon_circle_sweep(a, na, cx, cy, r, vx, vy):
    """First instant the centre, moving by -(vx, vy) t, comes within r of the polygon."""
    first = np.inf
    speed_sq = vx * vx + vy * vy
    for k in range(na):
        dx = cx - a[0, k]
        dy = cy - a[1, k]
        closing = a[2, k] * vx + a[3, k] * vy  # the face gap shrinks at this rate
        if closing > 0.0:
            t_face = (a[2, k] * dx + a[3, k] * dy - r) / closing
            if t_face >= 0.0:
                # Where the centre crosses the shifted face line, it must lie beside the edge.
                following = k + 1 if k + 1 < na else 0
                ex = a[0, following] - a[0, k]
                ey = a[1, following] - a[1, k]
                length_sq = ex * ex + ey * ey
                if length_sq > 0.0:
                    hit_x = cx - vx * t_face - a[0, k]
                    hit_y = cy - vy * t_face - a[1, k]
                    along = (ex * hit_x + ey * hit_y) / length_sq
                    if along >= 0.0 and along <= 1.0 and t_face < first:
                        first = t_face
        t_corner = first_root(dx * vx + dy * vy, dx * dx + dy * dy, r * r, speed_sq)
        if t_corner < first:
            first = t_corner
    return first if first < np.inf else np.nan


@kernel(inline=True)
def _length(x, y):
    """|(x, y)|: from the sum of squares, as the rest of the narrow phase measures, unless
    that sum is subnormal or underflows (a vector below about 1e-150), where it keeps too
    few bits: two circles 3e-159 apart had a normal 1.1e-7 longer than one, and their
    translation out left them 2e-7 apart. hypot is exact there."""
    squared = x * x + y * y
    return math.sqrt(squared) if squared > 1e-300 else math.hypot(x, y)


@kernel
def circle_circle(ax, ay, ra, bx, by, rb, vx, vy, sweep, dt, margin):
    """Collide the circle at (ax, ay) of radius ra with the one at (bx, by), rb; A moves by
    (vx, vy) t relative to B when ``sweep``. Returns the pair's answer."""
    ox, oy = bx - ax, by - ay
    dist = _length(ox, oy)
    if dist == 0.0:
        # Centres on top of each other: any axis is right; a fixed one keeps results
        # deterministic.
        nx, ny = 0.0, 1.0
    else:
        nx, ny = ox / dist, oy / dist
    reach = ra + rb
    separation = dist - reach
    if separation <= 0.0:
        toi = 0.0
    elif sweep:
        # B's centre seen from A drifts by -velocity * t.
        toi = first_root(ox * vx + oy * vy, dist * dist, reach * reach, vx * vx + vy * vy)
        toi = toi if toi <= dt else np.nan
    else:
        toi = np.nan
    if separation <= margin:
        half = ra + 0.5 * separation
        count, px, py, point_separation, feature = 1, ax + nx * half, ay + ny * half, separation, 0
    else:
        count, px, py, point_separation, feature = 0, np.nan, np.nan, np.nan, -1
    return (
        separation, nx, ny, toi, count, px, py, point_separation, feature, np.nan, np.nan,
        np.nan, -1, dist + ra <= rb, dist + rb <= ra,
    )  # fmt: skip
