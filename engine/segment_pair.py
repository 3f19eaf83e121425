"""One pair of rounded convex cores: any pair with a segment or a capsule in it.

Every part is a convex *core* (a point: a circle's centre; a segment; a polygon) grown by
its radius (0 for a polygon or a line). Two rounded shapes are the Minkowski difference of
their cores grown by the sum of the radii, so:

- Cores overlapping: the cores' separating axes give the cores' exact penetration, and the
  shapes' separation is that minus the radii. The axes are the faces of both cores (a
  segment has two, one per side) and, so that a point beside a segment's end or two
  collinear segments are not taken for overlapping, a segment's two end caps (its
  direction), which never win while the cores overlap.
- Cores apart: the exact distance between them, the least over every vertex of one and
  edge of the other (both are convex, so a closest pair of points has a vertex in it).
  When that pair is a vertex and the inside of a face, the face is a reference face as for
  polygons, and its clipped incident edge gives up to two points (a box lying on a capsule,
  two parallel capsules); when it is two vertices, one point along the line joining them.
- Contact points are midway between the two rounded surfaces.
- Time of impact: the first instant the translating cores come within the radii, the least
  over every (vertex, edge) pair of a point swept against a capsule (two shifted lines and
  two circles). The rounded Minkowski difference is the union of those capsules, so the
  earliest hit among them is the exact time of impact.

Cores are (4, K) hulls in one frame, rows x, y, nx, ny, with n vertices (1, 2 or >= 3), as
``engine.polygon_pair`` reads them; ``rounded_pair`` returns the pair's answer as scalars.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .polygon_pair import FEATURE_EDGE, FEATURE_FACE, FEATURE_FLIP, _most_opposed_edge
from .round_pair import first_root

# Feature ids of a point made by two vertices (no reference face), apart from clipped ones:
# the flip bit with face 1023 (no part has that many faces), the vertex pair in the edge
# field. Warm starting keeps feature ids in FEATURE_BITS (22) bits beside the part rows, so
# every id must stay below 1 << 22.
FEATURE_VERTICES = FEATURE_FLIP + 1023 * FEATURE_FACE
# Closest vertices nearer than this share of the pair's size count as one point.
ROUNDING = 1e-12


@kernel(inline=True)
def _edges(n):
    """Distinct edges of a core of n vertices: a point has one of length 0, a segment one."""
    return 1 if n <= 2 else n


@kernel(inline=True)
def _face_separation(f, nf, p, np_):
    """Greatest separation of core p's vertices from core f's faces (-inf for a point) and
    from a segment's end caps: (faces' best, its first face, caps' best)."""
    best = -np.inf
    face = 0
    if nf >= 2:
        for i in range(nf):
            nx, ny = f[2, i], f[3, i]
            nearest = np.inf
            for j in range(np_):
                nearest = min(nearest, nx * (p[0, j] - f[0, i]) + ny * (p[1, j] - f[1, i]))
            if nearest > best:
                best, face = nearest, i
    cap = -np.inf
    if nf == 2:
        # The caps' outward directions are -n's and n's tangents: along b - a at b, back at a.
        ux, uy = -f[3, 0], f[2, 0]
        beyond_b = np.inf
        beyond_a = np.inf
        for j in range(np_):
            beyond_b = min(beyond_b, ux * (p[0, j] - f[0, 1]) + uy * (p[1, j] - f[1, 1]))
            beyond_a = min(beyond_a, -ux * (p[0, j] - f[0, 0]) - uy * (p[1, j] - f[1, 0]))
        cap = max(beyond_a, beyond_b)
    return best, face, cap


@kernel(inline=True)
def _point_edge(px, py, x0, y0, x1, y1):
    """Squared distance from p to the edge x0-x1, the closest point, and the edge's end that
    is closest (0, 1) or -1 when the point projects onto the edge (inclusive)."""
    ex, ey = x1 - x0, y1 - y0
    length_sq = ex * ex + ey * ey
    along = 0.0 if length_sq == 0.0 else ((px - x0) * ex + (py - y0) * ey) / length_sq
    end = -1 if length_sq > 0.0 and 0.0 <= along <= 1.0 else (0 if along <= 0.0 else 1)
    t = min(max(along, 0.0), 1.0)
    qx, qy = x0 + t * ex, y0 + t * ey
    return (px - qx) ** 2 + (py - qy) ** 2, qx, qy, end


@kernel(inline=True)
def _closest(a, na, b, nb):
    """The closest points of two disjoint cores: (squared distance, point on A, point on B,
    whether they are two vertices, A's vertex, B's vertex). On ties a vertex-face pair wins."""
    best = np.inf
    pax = pay = pbx = pby = 0.0
    vertices = True
    va = vb = 0
    for side in range(2):
        f, nf, p, np_ = (b, nb, a, na) if side == 0 else (a, na, b, nb)
        for i in range(np_):
            for j in range(_edges(nf)):
                k = j + 1 if j + 1 < nf else 0
                d2, qx, qy, end = _point_edge(p[0, i], p[1, i], f[0, j], f[1, j], f[0, k], f[1, k])
                two = end >= 0
                if d2 < best or (d2 == best and vertices and not two):
                    best, vertices = d2, two
                    on_f = j if end <= 0 else k
                    if side == 0:
                        pax, pay, pbx, pby, va, vb = p[0, i], p[1, i], qx, qy, i, on_f
                    else:
                        pax, pay, pbx, pby, va, vb = qx, qy, p[0, i], p[1, i], on_f, i
    return best, pax, pay, pbx, pby, vertices, va, vb


@kernel(inline=True)
def _capsule_hit(px, py, vx, vy, x0, y0, x1, y1, reach):
    """Earliest t >= 0 at which p + v t comes within ``reach`` of the edge x0-x1, for a p
    farther than that at t = 0; inf if never. The two lines beside the edge, then the
    circles around its ends."""
    first = np.inf
    ex, ey = x1 - x0, y1 - y0
    length_sq = ex * ex + ey * ey
    if length_sq > 0.0:
        length = math.sqrt(length_sq)
        mx, my = ey / length, -ex / length
        height = mx * (px - x0) + my * (py - y0)
        rate = mx * vx + my * vy
        if height < 0.0:
            height, rate = -height, -rate
        if rate < 0.0 and height >= reach:
            t = (height - reach) / -rate
            along = (ex * (px + vx * t - x0) + ey * (py + vy * t - y0)) / length_sq
            if 0.0 <= along <= 1.0:
                first = t
    speed_sq = vx * vx + vy * vy
    ox, oy = x0 - px, y0 - py
    t = first_root(ox * vx + oy * vy, ox * ox + oy * oy, reach * reach, speed_sq)
    if t < first:
        first = t
    ox, oy = x1 - px, y1 - py
    t = first_root(ox * vx + oy * vy, ox * ox + oy * oy, reach * reach, speed_sq)
    if t < first:
        first = t
    return first


@kernel(inline=True)
def _sweep(a, na, b, nb, reach, vx, vy):
    """First instant at which core A, moving by (vx, vy) t, comes within ``reach`` of core
    B, for cores farther apart than that at t = 0; NaN if never."""
    first = np.inf
    for side in range(2):
        f, nf, p, np_ = (b, nb, a, na) if side == 0 else (a, na, b, nb)
        sign = 1.0 if side == 0 else -1.0  # B's vertices move by -v relative to A
        for i in range(np_):
            for j in range(_edges(nf)):
                k = j + 1 if j + 1 < nf else 0
                t = _capsule_hit(
                    p[0, i], p[1, i], sign * vx, sign * vy, f[0, j], f[1, j], f[0, k], f[1, k],
                    reach,
                )  # fmt: skip
                first = min(first, t)
    return first if first < np.inf else np.nan


@kernel(inline=True)
def _signed_distance(h, n, px, py):
    """Signed distance from p to core h (negative inside a polygon)."""
    if n >= 3:
        inside = -np.inf
        for k in range(n):
            inside = max(inside, h[2, k] * (px - h[0, k]) + h[3, k] * (py - h[1, k]))
        if inside <= 0.0:
            return inside
    best = np.inf
    for j in range(_edges(n)):
        k = j + 1 if j + 1 < n else 0
        best = min(best, _point_edge(px, py, h[0, j], h[1, j], h[0, k], h[1, k])[0])
    return math.sqrt(best)


@kernel(inline=True)
def _inside(p, np_, rp, h, nh, rh):
    """True when rounded core p lies inside rounded core h: each vertex of p lies within
    rh - rp of h (exact: the distance to a convex set is convex along p's edges)."""
    for j in range(np_):
        if _signed_distance(h, nh, p[0, j], p[1, j]) + rp > rh:
            return False
    return True


@kernel(inline=True)
def _rounded_clip(ref, n_ref, face, r_ref, inc, n_inc, r_inc, flip, margin):
    """Clip the incident edge of core inc (a point: itself) to the strip beside face
    ``face`` of core ref: (count, x0, y0, separation0, feature0, x1, y1, separation1,
    feature1), each point midway between the rounded surfaces."""
    nx, ny = ref[2, face], ref[3, face]
    edge = 0 if n_inc == 1 else _most_opposed_edge(inc, n_inc, nx, ny)
    nxt = edge + 1 if edge + 1 < n_inc else 0
    r1x, r1y = ref[0, face], ref[1, face]
    following = face + 1 if face + 1 < n_ref else 0
    i1x, i1y = inc[0, edge], inc[1, edge]
    i2x, i2y = inc[0, nxt], inc[1, nxt]
    # Positions along the face's tangent (-ny, nx): the face spans [lower, upper].
    lower = nx * r1y - ny * r1x
    upper = nx * ref[1, following] - ny * ref[0, following]
    s1 = nx * i1y - ny * i1x
    run = nx * i2y - ny * i2x - s1
    lo, hi = 0.0, 1.0
    if run != 0.0:
        at_lower, at_upper = (lower - s1) / run, (upper - s1) / run
        lo = max(min(at_lower, at_upper), 0.0)
        hi = min(max(at_lower, at_upper), 1.0)
    if lo > hi or n_inc == 1:
        # A point, or (rounding in deep skewed overlaps) nothing beside the face: the
        # incident vertex deepest along the normal.
        lo = 1.0 if nx * (i2x - i1x) + ny * (i2y - i1y) < 0.0 else 0.0
        hi = lo
    ids = FEATURE_FLIP * flip + face * FEATURE_FACE + edge * FEATURE_EDGE
    x0, y0 = i1x + lo * (i2x - i1x), i1y + lo * (i2y - i1y)
    x1, y1 = i1x + hi * (i2x - i1x), i1y + hi * (i2y - i1y)
    depth0 = nx * (x0 - r1x) + ny * (y0 - r1y) - r_ref - r_inc
    depth1 = nx * (x1 - r1x) + ny * (y1 - r1y) - r_ref - r_inc
    keep0 = depth0 <= margin
    keep1 = depth1 <= margin and hi > lo
    # Midway between the surfaces: the incident surface lies r_inc below the core point.
    shift0, shift1 = r_inc + 0.5 * depth0, r_inc + 0.5 * depth1
    if keep0 and keep1:
        return (
            2, x0 - shift0 * nx, y0 - shift0 * ny, depth0, ids, x1 - shift1 * nx,
            y1 - shift1 * ny, depth1, ids + 1,
        )  # fmt: skip
    if keep0:
        return 1, x0 - shift0 * nx, y0 - shift0 * ny, depth0, ids, np.nan, np.nan, np.nan, -1
    if keep1:
        return 1, x1 - shift1 * nx, y1 - shift1 * ny, depth1, ids + 1, np.nan, np.nan, np.nan, -1
    return 0, np.nan, np.nan, np.nan, -1, np.nan, np.nan, np.nan, -1


@kernel(inline=True)
def _extent(a, na, b, nb, radii):
    """The pair's size: the farthest vertex coordinate of either core, plus the radii."""
    far = radii
    for k in range(na):
        far = max(far, abs(a[0, k]) + radii, abs(a[1, k]) + radii)
    for k in range(nb):
        far = max(far, abs(b[0, k]) + radii, abs(b[1, k]) + radii)
    return far


@kernel
def rounded_pair(a, na, ra, b, nb, rb, vx, vy, sweep, dt, margin, flip_tolerance):
    """Collide rounded core A (hull a, na vertices, radius ra) with B (b, nb, rb) in one
    frame; A moves by (vx, vy) t relative to B for t in [0, dt] when ``sweep``. Returns the
    pair's answer in that frame (see ``engine.polygon_pair``). flip_tolerance: B's face is
    the reference only when its separation beats A's by more than this."""
    sep_a, face_a, cap_a = _face_separation(a, na, b, nb)
    sep_b, face_b, cap_b = _face_separation(b, nb, a, na)
    radii = ra + rb
    two_vertices = False
    if max(sep_a, sep_b, cap_a, cap_b) > 0.0:
        d2, pax, pay, pbx, pby, two_vertices, va, vb = _closest(a, na, b, nb)
        distance = math.sqrt(d2)
        # Vertices that meet but for rounding have no direction between them: the faces
        # give the exact axis (a circle centred on a segment's end, 1e-38 off it, took
        # the normal of that noise and overlapped 1.48 along it, not 1).
        two_vertices = two_vertices and distance > ROUNDING * _extent(a, na, b, nb, radii)
    if two_vertices:
        # Closest at two vertices: the normal joins them.
        nx, ny = (pbx - pax) / distance, (pby - pay) / distance
        separation = distance - radii
        count, x0, y0, s0, f0 = 0, np.nan, np.nan, np.nan, -1
        if separation <= margin:
            half = ra + 0.5 * separation
            count, x0, y0, s0 = 1, pax + nx * half, pay + ny * half, separation
            f0 = FEATURE_VERTICES + ((va * 64 + vb) % 1024) * FEATURE_EDGE
        x1, y1, s1, f1 = np.nan, np.nan, np.nan, -1
    else:
        # A face is the reference: exact for overlapping cores and for a vertex facing it.
        flip = sep_b > sep_a + flip_tolerance
        separation = (sep_b if flip else sep_a) - radii
        nx, ny = (-b[2, face_b], -b[3, face_b]) if flip else (a[2, face_a], a[3, face_a])
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
            ref, n_ref, face, r_ref, inc, n_inc, r_inc = (
                (b, nb, face_b, rb, a, na, ra) if flip else (a, na, face_a, ra, b, nb, rb)
            )
            count, x0, y0, s0, f0, x1, y1, s1, f1 = _rounded_clip(
                ref, n_ref, face, r_ref, inc, n_inc, r_inc, flip, margin
            )
    if separation <= 0.0:
        toi = 0.0
    elif sweep:
        toi = _sweep(a, na, b, nb, radii, vx, vy)
        toi = toi if toi <= dt else np.nan
    else:
        toi = np.nan
    return (
        separation, nx, ny, toi, count, x0, y0, s0, f0, x1, y1, s1, f1,
        _inside(a, na, ra, b, nb, rb), _inside(b, nb, rb, a, na, ra),
    )  # fmt: skip
