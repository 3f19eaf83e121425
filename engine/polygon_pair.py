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
(4, K) hulls, rows x, y, nx, ny: vertices and unit outward normals of edge (k, k + 1).
``polygon_pair`` returns its answer as scalars (see ``Answer``): a helper in a per-pair loop
that takes or writes many arrays pays for each of them on every call.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel

# Features are packed into one integer so that solvers can match contact points across
# steps: which shape owns the reference face, the face, the incident edge and its end.
FEATURE_FLIP = 1 << 21
FEATURE_FACE = 1 << 11
FEATURE_EDGE = 2

# A pair's answer, as the per-pair routines return it: (separation, nx, ny, toi, count,
# x0, y0, separation0, feature0, x1, y1, separation1, feature1, a_in_b, b_in_a), the
# fields of ``engine.narrowphase.Collisions`` for one pair; unused points hold NaN and -1.


@kernel(inline=True)
def _face_scan(f, nf, p, np_, vx, vy, dt, sign, sweep):
    """Separations of the vertices of hull p (np_ of them) from the faces of hull f (nf),
    and the faces' overlap window.

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
        nx = f[2, i]
        ny = f[3, i]
        offset = nx * f[0, i] + ny * f[1, i]
        nearest = nx * p[0, 0] + ny * p[1, 0]
        farthest = nearest
        for j in range(1, np_):
            along = nx * p[0, j] + ny * p[1, j]
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
def _most_opposed_edge(h, count, nx, ny):
    """The first edge of hull h whose normal points most against (nx, ny)."""
    least = np.inf
    slot = 0
    for k in range(count):
        alignment = h[2, k] * nx + h[3, k] * ny
        if alignment < least:
            least = alignment
            slot = k
    return slot


@kernel
def polygon_pair(a, na, b, nb, vx, vy, sweep, dt, margin, flip_tolerance):
    """Collide polygon A (hull a, na vertices) with polygon B (hull b, nb vertices) in one
    frame; A moves by (vx, vy) t relative to B for t in [0, dt] when ``sweep``. Returns the
    pair's answer in that frame (see above). flip_tolerance: B's face is the reference only
    when its separation beats A's by more than this, so a resting pair keeps its features.
    """
    sep_a, face_a, far_a, start_a, end_a = _face_scan(a, na, b, nb, vx, vy, dt, 1.0, sweep)
    sep_b, face_b, far_b, start_b, end_b = _face_scan(b, nb, a, na, vx, vy, dt, -1.0, sweep)
    flip = sep_b > sep_a + flip_tolerance
    if flip:
        separation = sep_b
        nx = -b[2, face_b]
        ny = -b[3, face_b]
    else:
        separation = sep_a
        nx = a[2, face_a]
        ny = a[3, face_a]
    if separation <= 0.0:
        toi = 0.0
    elif sweep:
        start = max(start_a, start_b)
        toi = start if start <= min(end_a, end_b) else np.nan
    else:
        toi = np.nan
    count, x0, y0, s0, f0, x1, y1, s1, f1 = (
        0,
        np.nan,
        np.nan,
        np.nan,
        -1,
        np.nan,
        np.nan,
        np.nan,
        -1,
    )
    if separation <= margin:
        # The reference face's hull and the incident one: one call site, compiled once.
        ref, n_ref, face, inc, n_inc = (b, nb, face_b, a, na) if flip else (a, na, face_a, b, nb)
        count, x0, y0, s0, f0, x1, y1, s1, f1 = _clip(ref, n_ref, face, inc, n_inc, flip, margin)
    return (
        separation, nx, ny, toi, count, x0, y0, s0, f0, x1, y1, s1, f1, far_b <= 0.0,
        far_a <= 0.0,
    )  # fmt: skip


@kernel(inline=True)
def _clip(ref, n_ref, face, inc, n_inc, flip, margin):
    """Clip the incident edge of hull inc against face ``face`` of hull ref (the reference
    face): (count, x0, y0, separation0, feature0, x1, y1, separation1, feature1)."""
    nx, ny = ref[2, face], ref[3, face]
    edge = _most_opposed_edge(inc, n_inc, nx, ny)
    r1x, r1y = ref[0, face], ref[1, face]
    nxt = face + 1 if face + 1 < n_ref else 0
    r2x, r2y = ref[0, nxt], ref[1, nxt]
    i1x, i1y = inc[0, edge], inc[1, edge]
    nxt = edge + 1 if edge + 1 < n_inc else 0
    i2x, i2y = inc[0, nxt], inc[1, nxt]

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
    if not (keep0 or keep1):
        return 0, np.nan, np.nan, np.nan, -1, np.nan, np.nan, np.nan, -1
    # Each point is reported midway between the incident point and the reference face; a
    # lone second point moves to the first slot, so kept points always come first.
    if keep0 and keep1:
        h0, h1 = 0.5 * depth0, 0.5 * depth1
        return (
            2, x0 - h0 * nx, y0 - h0 * ny, depth0, ids, x1 - h1 * nx, y1 - h1 * ny, depth1,
            ids + 1,
        )  # fmt: skip
    if keep0:
        h0 = 0.5 * depth0
        return 1, x0 - h0 * nx, y0 - h0 * ny, depth0, ids, np.nan, np.nan, np.nan, -1
    h1 = 0.5 * depth1
    return 1, x1 - h1 * nx, y1 - h1 * ny, depth1, ids + 1, np.nan, np.nan, np.nan, -1
