"""One convex polygon pair: separating axes, swept time of impact and clipped contact points.

For convex A and B the candidate axes are the edge normals of both. Along A's face i the
separation is ``min_j n_i . (b_j - a_i)``: how far B's nearest vertex lies outside that face.
The largest separation over all faces of both is the signed distance along the best axis:
positive means a separating axis, negative is minus the exact penetration depth, because the
Minkowski difference A - B is bounded by exactly these faces.

Under a relative translation ``velocity * t`` each face's separation changes linearly, so
the set of instants at which all of them are <= 0 is an interval: its start is the exact time
of impact. (Checking each axis's swept projections separately, instead of intersecting the
intervals, reports hits for bodies that pass each other.)

Contact points: the face of the best axis is the reference face; the edge of the other
polygon whose normal opposes it most is the incident edge. Cut to the strip beside the
reference face, it leaves up to two points, each reported midway between the incident point
and the reference face. That is what a box lying on a box needs: a point at each end.

Both polygons are given in one frame (A's body frame: A needs no transform there) as
vertex and normal coordinate arrays; ``polygon_pair`` writes row ``i`` of the output arrays.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel

# Features are packed into one integer so that solvers can match contact points across
# steps: which shape owns the reference face, the face, the incident edge and its end.
FEATURE_FLIP = 1 << 21
FEATURE_FACE = 1 << 11
FEATURE_EDGE = 2


@kernel(inline=True)
def _face_scan(fx, fy, fnx, fny, nf, px, py, np_, vx, vy, dt, sign, sweep):
    """Separations of the point set p from the faces f, and the faces' overlap window.

    Returns (best separation, its first face, greatest far distance (containment), window
    start, window end). A face closes at ``sign * v . n`` (A's faces: +1, B's faces: -1).
    """
    best = -np.inf
    best_face = 0
    far_most = -np.inf
    start = -np.inf
    end = np.inf
    never = False
    for i in range(nf):
        nx = fnx[i]
        ny = fny[i]
        offset = nx * fx[i] + ny * fy[i]
        nearest = nx * px[0] + ny * py[0]
        farthest = nearest
        for j in range(1, np_):
            along = nx * px[j] + ny * py[j]
            if along < nearest:
                nearest = along
            if along > farthest:
                farthest = along
        nearest -= offset
        farthest -= offset
        if nearest > best:
            best = nearest
            best_face = i
        if farthest > far_most:
            far_most = farthest
        if sweep:
            rate = sign * (vx * nx + vy * ny)
            # A face closing in (rate > 0) must have been crossed: t >= crossing. A face
            # opening (rate < 0) must not be crossed yet: t <= crossing. A still face must
            # be closed already.
            if rate > 0.0:
                crossing = nearest / rate
                if crossing > start:
                    start = crossing
            elif rate < 0.0:
                crossing = nearest / rate
                if crossing < end:
                    end = crossing
            elif nearest > 0.0:
                never = True
    start = max(start, 0.0)
    end = min(end, dt)
    if never:
        end = -np.inf
    return best, best_face, far_most, start, end


@kernel(inline=True)
def _most_opposed_edge(hnx, hny, count, nx, ny):
    """The first edge of a hull whose normal points most against (nx, ny)."""
    least = np.inf
    slot = 0
    for k in range(count):
        alignment = hnx[k] * nx + hny[k] * ny
        if alignment < least:
            least = alignment
            slot = k
    return slot


@kernel
def polygon_pair(
    ax, ay, anx, any_, na, bx, by, bnx, bny, nb, vx, vy, sweep, dt, margin, flip_tolerance,
    i, separation_out, normal_out, toi_out, points_out, point_separation_out, count_out,
    features_out, a_in_b_out, b_in_a_out,
):  # fmt: skip
    """Collide polygon A (ax, ay, anx, any_: (na,) vertices and unit outward normals of edge
    (k, k+1)) with polygon B (nb vertices) in one frame; A moves by (vx, vy) t relative to B
    for t in [0, dt] when ``sweep``. Writes row ``i`` of the outputs, in that frame (see
    ``engine.narrowphase.Contacts``). flip_tolerance: B's face is the reference only when
    its separation beats A's by more than this, so a resting pair keeps its features."""
    sep_a, face_a, far_a, start_a, end_a = _face_scan(
        ax, ay, anx, any_, na, bx, by, nb, vx, vy, dt, 1.0, sweep
    )
    sep_b, face_b, far_b, start_b, end_b = _face_scan(
        bx, by, bnx, bny, nb, ax, ay, na, vx, vy, dt, -1.0, sweep
    )
    flip = sep_b > sep_a + flip_tolerance
    if flip:
        separation = sep_b
        nx = -bnx[face_b]
        ny = -bny[face_b]
    else:
        separation = sep_a
        nx = anx[face_a]
        ny = any_[face_a]
    separation_out[i] = separation
    normal_out[i, 0] = nx
    normal_out[i, 1] = ny
    a_in_b_out[i] = far_b <= 0.0
    b_in_a_out[i] = far_a <= 0.0
    if separation <= 0.0:
        toi_out[i] = 0.0
    elif sweep:
        start = max(start_a, start_b)
        toi_out[i] = start if start <= min(end_a, end_b) else np.nan
    else:
        toi_out[i] = np.nan
    if separation <= margin:
        _clip(
            ax, ay, anx, any_, na, bx, by, bnx, bny, nb, face_a, face_b, flip, margin,
            i, points_out, point_separation_out, count_out, features_out,
        )  # fmt: skip


@kernel(inline=True)
def _clip(
    ax, ay, anx, any_, na, bx, by, bnx, bny, nb, face_a, face_b, flip, margin,
    i, points_out, point_separation_out, count_out, features_out,
):  # fmt: skip
    """Clip the incident edge against the reference face: up to two points in row ``i``."""
    if flip:
        nx, ny = bnx[face_b], bny[face_b]
        face = face_b
        edge = _most_opposed_edge(anx, any_, na, nx, ny)
        r1x, r1y = bx[face], by[face]
        nxt = face + 1 if face + 1 < nb else 0
        r2x, r2y = bx[nxt], by[nxt]
        i1x, i1y = ax[edge], ay[edge]
        nxt = edge + 1 if edge + 1 < na else 0
        i2x, i2y = ax[nxt], ay[nxt]
    else:
        nx, ny = anx[face_a], any_[face_a]
        face = face_a
        edge = _most_opposed_edge(bnx, bny, nb, nx, ny)
        r1x, r1y = ax[face], ay[face]
        nxt = face + 1 if face + 1 < na else 0
        r2x, r2y = ax[nxt], ay[nxt]
        i1x, i1y = bx[edge], by[edge]
        nxt = edge + 1 if edge + 1 < nb else 0
        i2x, i2y = bx[nxt], by[nxt]

    # Positions along the face's tangent (-ny, nx): the face spans [lower, upper].
    lower = nx * r1y - ny * r1x
    upper = nx * r2y - ny * r2x
    s1 = nx * i1y - ny * i1x
    run = nx * i2y - ny * i2x - s1
    if run == 0.0:
        # An incident edge square to the face lies wholly inside the strip or wholly out.
        inside = s1 >= lower and s1 <= upper
        at_lower = 0.0 if inside else 1.0
        at_upper = 1.0 if inside else 0.0
    else:
        at_lower = (lower - s1) / run
        at_upper = (upper - s1) / run
    lo = max(min(at_lower, at_upper), 0.0)
    hi = min(max(at_lower, at_upper), 1.0)
    if lo > hi:
        # Rounding can leave no part of the incident edge beside the face in deep, skewed
        # overlaps: then the single point is the incident vertex deepest along the normal.
        lo = 1.0 if nx * (i2x - i1x) + ny * (i2y - i1y) < 0.0 else 0.0
        hi = lo

    dx, dy = i2x - i1x, i2y - i1y
    x0, y0 = i1x + lo * dx, i1y + lo * dy
    x1, y1 = i1x + hi * dx, i1y + hi * dy
    depth0 = nx * (x0 - r1x) + ny * (y0 - r1y)
    depth1 = nx * (x1 - r1x) + ny * (y1 - r1y)
    keep0 = depth0 <= margin
    keep1 = depth1 <= margin and hi > lo  # one point, not two, when the clip collapses
    ids = FEATURE_FLIP * flip + face * FEATURE_FACE + edge * FEATURE_EDGE
    count = 0
    if keep0 or keep1:
        # A lone second point moves to the first slot: kept points always come first.
        lone = keep1 and not keep0
        fx, fy, fd = (x1, y1, depth1) if lone else (x0, y0, depth0)
        half = 0.5 * fd
        points_out[i, 0, 0] = fx - half * nx
        points_out[i, 0, 1] = fy - half * ny
        point_separation_out[i, 0] = fd
        features_out[i, 0] = ids + lone
        count = 1
        if keep0 and keep1:
            half = 0.5 * depth1
            points_out[i, 1, 0] = x1 - half * nx
            points_out[i, 1, 1] = y1 - half * ny
            point_separation_out[i, 1] = depth1
            features_out[i, 1] = ids + 1
            count = 2
    count_out[i] = count
