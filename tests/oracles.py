"""Independent reference computations: shapes, collisions, distances and oscillations.

Nothing here imports the engine: every answer is derived from first principles with plain
numpy/python, deliberately by other routes than the engine's closed forms (quadrature instead
of shoelace moments, Minkowski-difference hulls instead of SAT, bisection instead of swept
intervals). Slow is fine.

Geometry is described by "specs" that the tests also use to build the engine's shapes, so the
oracles never read anything back from the engine:

* ``("circle", radius, (ox, oy))``
* ``("polygon", vertices)`` with vertices an (n, 2) array in body-local coordinates (convex).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# --------------------------------------------------------------------------------------------
# Small vector helpers


def rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def to_world(local_points, pose) -> np.ndarray:
    """world = R(angle) @ local + (x, y) for each row of ``local_points``."""
    pts = np.asarray(local_points, dtype=float).reshape(-1, 2)
    x, y, angle = (float(v) for v in pose)
    return pts @ rotation(angle).T + np.array([x, y])


def cross2(u, v):
    u = np.asarray(u, dtype=float)
    v = np.asarray(v, dtype=float)
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def signed_area(vertices) -> float:
    """Signed area as a sum of triangle areas from the first vertex (> 0 for CCW)."""
    v = np.asarray(vertices, dtype=float)
    return float(0.5 * np.sum(cross2(v[1:-1] - v[0], v[2:] - v[0])))


def box_vertices(width, height, offset=(0.0, 0.0), angle=0.0) -> np.ndarray:
    """Corners of a width x height rectangle rotated by angle about its centre at offset."""
    hw, hh = width / 2.0, height / 2.0
    corners = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return corners @ rotation(angle).T + np.asarray(offset, dtype=float)


# --------------------------------------------------------------------------------------------
# Convex hull (Andrew's monotone chain)


def convex_hull(points) -> np.ndarray:
    """CCW hull of a point set without collinear vertices; fewer rows when degenerate."""
    pts = np.unique(np.asarray(points, dtype=float).reshape(-1, 2), axis=0)  # sorted by x, y
    if len(pts) < 3:
        return pts

    def half(seq):
        chain: list[np.ndarray] = []
        for p in seq:
            while len(chain) >= 2 and cross2(chain[-1] - chain[-2], p - chain[-2]) <= 0.0:
                chain.pop()
            chain.append(p)
        return chain

    lower = half(pts)
    upper = half(pts[::-1])
    hull = lower[:-1] + upper[:-1]
    # Points equal but for rounding (two shapes with edges of one length give the same
    # difference twice) would leave an edge ~1e-17 long whose normal is noise, and the
    # origin's distance to that edge's line is then anything: keep one of them.
    tol = 1e-12 * float(np.max(np.ptp(pts, axis=0)))
    kept = [hull[0]]
    for p in hull[1:]:
        if math.hypot(*(p - kept[-1])) > tol:
            kept.append(p)
    if len(kept) > 1 and math.hypot(*(kept[0] - kept[-1])) <= tol:
        kept.pop()
    return np.array(kept)


# --------------------------------------------------------------------------------------------
# Mass properties by quadrature


def polygon_integrals(vertices) -> tuple[float, np.ndarray, float]:
    """Area, centroid and polar second moment about the centroid (unit density) of a simple
    polygon (convex or not, either winding).

    The polygon is split into the signed triangles (m, v_i, v_i+1) with m the vertex mean;
    the signed sum of integrals over these triangles is the integral over the polygon. Each
    triangle integral of 1, x, y and x^2 + y^2 uses the three-edge-midpoint rule, which is
    exact for polynomials up to degree 2 (so this is exact, not approximate).
    """
    v = np.asarray(vertices, dtype=float)
    ref = v.mean(axis=0)
    w = v - ref  # work about the vertex mean: no cancellation far from the origin
    p = w
    q = np.roll(w, -1, axis=0)
    tri_area = 0.5 * cross2(p, q)  # signed
    mids = np.stack([p / 2.0, (p + q) / 2.0, q / 2.0])  # (3, n, 2) edge midpoints
    area = float(np.sum(tri_area))
    first = np.sum(tri_area[:, None] / 3.0 * mids.sum(axis=0), axis=0)
    second = float(np.sum(tri_area / 3.0 * np.sum(mids**2, axis=(0, 2))))
    if area < 0:  # clockwise input
        area, first, second = -area, -first, -second
    c = first / area
    polar_about_centroid = second - area * float(c @ c)
    return area, c + ref, polar_about_centroid


def disk_integrals(radius: float, nodes: int = 6) -> tuple[float, float]:
    """Area and polar second moment about the centre of a disk by Gauss-Legendre quadrature
    over rings: A = int 2 pi s ds, I = int 2 pi s^3 ds on [0, r] (exact at 6 nodes)."""
    x, w = np.polynomial.legendre.leggauss(nodes)
    s = (x + 1.0) * radius / 2.0
    ws = w * radius / 2.0
    area = float(np.sum(ws * 2.0 * math.pi * s))
    polar = float(np.sum(ws * 2.0 * math.pi * s**3))
    return area, polar


# --------------------------------------------------------------------------------------------
# Points and convex polygons


def point_in_convex(points, vertices, tol: float = 0.0) -> np.ndarray:
    """True where a point lies inside or on (within tol) a convex polygon of either winding."""
    v = np.asarray(vertices, dtype=float)
    if signed_area(v) < 0:
        v = v[::-1]
    x = np.asarray(points, dtype=float).reshape(-1, 2)
    e = np.roll(v, -1, axis=0) - v
    elen = np.hypot(e[:, 0], e[:, 1])
    # signed distance of each point to each edge's line, > 0 on the inner side
    d = cross2(e[None, :, :], x[:, None, :] - v[None, :, :]) / elen[None, :]
    return np.all(d >= -tol, axis=1)


def point_in_polygon(points, vertices) -> np.ndarray:
    """Even-odd ray casting (ray towards +x) for a simple polygon, vectorised over points."""
    v = np.asarray(vertices, dtype=float)
    x = np.asarray(points, dtype=float).reshape(-1, 2)
    inside = np.zeros(len(x), dtype=bool)
    for i in range(len(v)):
        (x1, y1), (x2, y2) = v[i], v[(i + 1) % len(v)]
        straddles = (y1 > x[:, 1]) != (y2 > x[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            x_cross = x1 + (x[:, 1] - y1) * (x2 - x1) / (y2 - y1)
        inside ^= straddles & (x[:, 0] < x_cross)
    return inside


def segment_distance(points, a, b) -> np.ndarray:
    """Euclidean distance of each point to the segment ab."""
    x = np.asarray(points, dtype=float).reshape(-1, 2)
    a = np.asarray(a, dtype=float)
    ab = np.asarray(b, dtype=float) - a
    t = np.clip(((x - a) @ ab) / float(ab @ ab), 0.0, 1.0)
    return np.hypot(*(x - a - t[:, None] * ab).T)


def point_segment(p, a, b) -> float:
    """Euclidean distance of one point to the segment ab."""
    return float(segment_distance(p, a, b)[0])


def polygon_boundary_distance(points, vertices) -> np.ndarray:
    """Distance of each point to the boundary of a polygon (min over edge segments)."""
    v = np.asarray(vertices, dtype=float)
    return np.min(
        [segment_distance(points, v[i], v[(i + 1) % len(v)]) for i in range(len(v))], axis=0
    )


def signed_distance_convex(points, hull) -> np.ndarray:
    """Signed distance (negative inside) of points to a CCW convex hull; a hull of 1 or 2
    rows is a point or segment."""
    x = np.asarray(points, dtype=float).reshape(-1, 2)
    h = np.asarray(hull, dtype=float).reshape(-1, 2)
    if len(h) == 1:
        return np.hypot(*(x - h[0]).T)
    if len(h) == 2:
        return segment_distance(x, h[0], h[1])
    dist = polygon_boundary_distance(x, h)
    inside = point_in_convex(x, h)
    return np.where(inside, -dist, dist)


# --------------------------------------------------------------------------------------------
# World geometry of a spec and the Minkowski difference of two convex shapes


@dataclass(frozen=True)
class Convex:
    """A convex shape in world coordinates: hull(points) inflated by radius (a circle is one
    point with a radius, a polygon has radius 0)."""

    points: np.ndarray
    radius: float

    def support(self, direction) -> float:
        """max over the shape of direction . p (direction need not be unit)."""
        d = np.asarray(direction, dtype=float)
        return float(np.max(self.points @ d) + self.radius * math.hypot(*d))

    def signed_distance(self, points) -> np.ndarray:
        return signed_distance_convex(points, convex_hull(self.points)) - self.radius

    def extent(self) -> float:
        """Diameter-like size: spread of the points plus the radius."""
        spread = np.max(np.ptp(self.points, axis=0)) if len(self.points) > 1 else 0.0
        return float(spread + 2.0 * self.radius)


def world_convex(spec, pose) -> Convex:
    kind = spec[0]
    if kind == "circle":
        _, radius, offset = spec
        return Convex(to_world([offset], pose), float(radius))
    if kind == "polygon":
        return Convex(to_world(spec[1], pose), 0.0)
    raise ValueError(f"unknown spec kind {kind!r}")


@dataclass(frozen=True)
class Minkowski:
    """D = A - B = {a - b}: A and B overlap exactly when the origin lies in D.

    D = hull(P) inflated by ``radius``. If A is translated by t, D becomes D + t, so the
    smallest translation that separates them is minus the nearest boundary point of D, its
    length is the penetration depth, and the gradient of the signed distance of D at the
    origin is the contact normal (pointing from A towards B). For any unit n, the overlap of
    the projections of A and B on n equals support_D(n); the gap is -support_D(n).
    """

    hull: np.ndarray  # CCW convex hull of the a_i - b_j (1 row when both are circles)
    radius: float

    def support(self, direction) -> float:
        d = np.asarray(direction, dtype=float)
        return float(np.max(self.hull @ d) + self.radius * math.hypot(*d))

    def signed_distance(self, points) -> np.ndarray:
        return signed_distance_convex(points, self.hull) - self.radius

    def edge_normals(self) -> tuple[np.ndarray, np.ndarray]:
        """Outward unit normals of the hull edges and the offsets n . v of their lines."""
        h = self.hull
        if len(h) < 3:
            return np.zeros((0, 2)), np.zeros(0)
        e = np.roll(h, -1, axis=0) - h
        n = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
        return n, np.sum(n * h, axis=1)


def minkowski_difference(a: Convex, b: Convex) -> Minkowski:
    diffs = a.points[:, None, :] - b.points[None, :, :]
    return Minkowski(convex_hull(diffs.reshape(-1, 2)), a.radius + b.radius)


@dataclass(frozen=True)
class Penetration:
    signed_distance: float  # < 0 overlapping (= -depth), > 0 apart (Euclidean gap)
    normal: np.ndarray  # gradient of D's signed distance at the origin (A towards B)
    conditioning: float  # how well defined the normal is (a length; small = ambiguous)
    sat_gap: float  # apart polygons: largest gap over the edge normals (a lower bound)


def penetration(m: Minkowski) -> Penetration:
    """Exact signed distance and normal at the origin for D = hull inflated by radius."""
    origin = np.zeros((1, 2))
    h = m.hull
    normals, offsets = m.edge_normals()
    sat_gap = float(np.max(-offsets)) - m.radius if len(offsets) else math.nan
    if len(h) >= 3 and point_in_convex(origin, h)[0]:
        # inside the hull: distance to the boundary is the least distance to an edge line
        dist = offsets  # distance of the origin from each edge line (>= 0 inside)
        k = int(np.argmin(dist))
        best = normals[k]
        differing = np.linalg.norm(normals - best, axis=1) > 1e-6
        gap = float(np.min(dist[differing] - dist[k])) if np.any(differing) else math.inf
        return Penetration(-float(dist[k]) - m.radius, best, gap, sat_gap)
    # outside the hull (or the hull is a point/segment): nearest point of the hull
    if len(h) == 1:
        nearest = h[0]
    else:
        nearest = None
        best_d = math.inf
        for i in range(len(h)):
            a, b = h[i], h[(i + 1) % len(h)]
            ab = b - a
            t = min(max(float(-a @ ab) / float(ab @ ab), 0.0), 1.0)
            q = a + t * ab
            dq = math.hypot(*q)
            if dq < best_d:
                best_d, nearest = dq, q
    dist = math.hypot(*nearest)
    normal = -nearest / dist if dist > 0 else np.array([math.nan, math.nan])
    return Penetration(dist - m.radius, normal, dist, sat_gap)


def penetration_of(spec_a, pose_a, spec_b, pose_b) -> Penetration:
    return penetration(
        minkowski_difference(world_convex(spec_a, pose_a), world_convex(spec_b, pose_b))
    )


def gap_along(a: Convex, b: Convex, normal) -> float:
    """Signed gap between the projections of A and B on the unit normal n (A towards B):
    min over B of n.b - max over A of n.a (negative = overlap of the projections)."""
    n = np.asarray(normal, dtype=float)
    return -b.support(-n) - a.support(n)


# --------------------------------------------------------------------------------------------
# Containment (convex shapes): A inside B iff every extreme point of A is inside B


def containment_margin(a: Convex, b: Convex) -> float:
    """max over A of the signed distance to B: <= 0 means A lies inside B (touching allowed)."""
    if a.radius > 0:
        # a disk around each point of A: its farthest point from B is at sd + radius when the
        # centre is inside a polygon B (sd is then -distance to the boundary) or when B is a disk
        if b.radius > 0 or len(b.points) == 1:
            d = np.hypot(*(a.points - b.points[0]).T)
            return float(np.max(d + a.radius - b.radius))
        return float(np.max(b.signed_distance(a.points) + a.radius))
    return float(np.max(b.signed_distance(a.points)))


# --------------------------------------------------------------------------------------------
# Time of impact


@dataclass(frozen=True)
class Sweep:
    toi: float | None  # first instant of overlap in [0, dt], None if never
    min_distance: float  # min over [0, dt] of the signed distance (<= 0: they meet)
    slope: float  # -d/dt of the signed distance at toi (how transversal the crossing is)


def sweep(m: Minkowski, velocity, dt: float, scan: int = 2048) -> Sweep:
    """First t in [0, dt] with the origin in D + v t, i.e. with -v t in D.

    g(t) = signed distance of -v t to D is convex in t (a signed distance to a convex set
    along a line), so the overlap set is one interval: a dense scan brackets it, a golden
    section search finds the minimum when the scan shows no overlap, and bisection then finds
    the first crossing to the last representable bit.
    """
    v = np.asarray(velocity, dtype=float)

    def g(t):
        t = np.atleast_1d(np.asarray(t, dtype=float))
        return m.signed_distance(-t[:, None] * v[None, :])

    ts = np.linspace(0.0, dt, scan + 1)
    gs = g(ts)
    k_min = int(np.argmin(gs))
    if gs[0] <= 0.0:
        return Sweep(0.0, float(gs[k_min]), math.nan)
    below = np.nonzero(gs <= 0.0)[0]
    if len(below):
        hi = float(ts[below[0]])
        lo = float(ts[below[0] - 1])
        g_min = float(gs[k_min])
    else:
        lo = float(ts[max(k_min - 1, 0)])
        hi = float(ts[min(k_min + 1, scan)])
        inv_phi = (math.sqrt(5.0) - 1.0) / 2.0
        for _ in range(200):
            if hi - lo <= 1e-15 * max(dt, 1e-300):
                break
            x1 = hi - inv_phi * (hi - lo)
            x2 = lo + inv_phi * (hi - lo)
            if g(x1)[0] <= g(x2)[0]:
                hi = x2
            else:
                lo = x1
        t_star = 0.5 * (lo + hi)
        g_min = float(min(g(t_star)[0], gs[k_min]))
        if g(t_star)[0] > 0.0:
            return Sweep(None, g_min, math.nan)
        # every scan sample is apart, so the bracket starts apart and the crossing is unique
        lo, hi = float(ts[max(k_min - 1, 0)]), t_star
    for _ in range(400):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if g(mid)[0] <= 0.0:
            hi = mid
        else:
            lo = mid
    h = 1e-7 * dt
    if hi >= h:  # one-sided difference from the apart side
        slope = float((g(hi - h)[0] - g(hi)[0]) / h)
    else:
        slope = float((g(hi)[0] - g(hi + h)[0]) / h)
    return Sweep(hi, g_min, slope)


def circle_circle_toi(ca, ra, cb, rb, velocity, dt) -> float | None:
    """Closed form: first t in [0, dt] with |(ca + v t) - cb| <= ra + rb."""
    d = np.asarray(ca, dtype=float) - np.asarray(cb, dtype=float)
    v = np.asarray(velocity, dtype=float)
    r = ra + rb
    c = float(d @ d) - r * r
    if c <= 0.0:
        return 0.0
    a = float(v @ v)
    b = float(d @ v)  # half the linear coefficient
    if a == 0.0 or b >= 0.0:
        return None
    disc = b * b - a * c
    if disc < 0.0:
        return None
    t = c / (-b + math.sqrt(disc))  # the smaller root, in a cancellation-free form
    return t if t <= dt else None


# --------------------------------------------------------------------------------------------
# Distance of a point to a shape (0 inside), for checking contact points


def distance_to_shape(points, shape: Convex) -> np.ndarray:
    return np.maximum(shape.signed_distance(points), 0.0)


# --------------------------------------------------------------------------------------------
# Oscillations: zero crossings of a sampled signal, and symplectic Euler's period


def crossings(times: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Times where ``values`` crosses zero going down, linearly interpolated."""
    down = np.flatnonzero((values[:-1] > 0.0) & (values[1:] <= 0.0))
    fraction = values[down] / (values[down] - values[down + 1])
    return times[down] + fraction * (times[down + 1] - times[down])


def down_crossings(values: np.ndarray, dt: float) -> np.ndarray:
    """Times where ``values`` (one per step, from t = dt) cross zero going down."""
    return crossings(dt * np.arange(1, len(values) + 1), values)


def symplectic_period(omega: float, h: float) -> float:
    """The period symplectic Euler gives an undamped oscillator of angular frequency omega."""
    return 2.0 * math.pi / (2.0 / h * math.asin(omega * h / 2.0))


# --------------------------------------------------------------------------------------------
# Test-data builders (plain functions of drawn parameters; the strategies live in the tests)


def convex_polygon_from(gaps, phase, scale, aspect, offset, reverse=False, roll=0) -> np.ndarray:
    """Vertices on an ellipse (semi-axes scale, scale * aspect) at angles spaced by the
    normalised gaps, shifted by offset * scale: always strictly convex."""
    g = np.asarray(gaps, dtype=float)
    angles = phase + 2.0 * math.pi * np.cumsum(g) / np.sum(g)
    pts = np.stack([scale * np.cos(angles), scale * aspect * np.sin(angles)], axis=1)
    pts = pts + scale * np.asarray(offset, dtype=float)
    if reverse:
        pts = pts[::-1]
    return np.roll(pts, roll, axis=0)


def star_polygon_from(gaps, radii, phase, scale, offset=(0.0, 0.0)) -> np.ndarray:
    """A simple polygon star-shaped about offset * scale: vertices at increasing angles
    (normalised gaps) and the given radii (times scale); CCW."""
    g = np.asarray(gaps, dtype=float)
    angles = phase + 2.0 * math.pi * np.cumsum(g) / np.sum(g)
    r = scale * np.asarray(radii, dtype=float)
    pts = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=1)
    return pts + scale * np.asarray(offset, dtype=float)


def chord(shape: Convex, point, direction, slack: float = 0.0):
    """Where the line point + u * direction (unit) crosses a convex shape grown by slack
    (for lines that touch a vertex, which rounding could turn into a miss): (u_in, u_out,
    cos_in, cos_out) with cos_* = |cos| of the angle between the line and the boundary's
    normal at that crossing (small = grazing, ill-conditioned), or None if it misses."""
    p = np.asarray(point, dtype=float)
    n = np.asarray(direction, dtype=float)
    if shape.radius > 0:  # a disk: |p + u n - c|^2 = r^2
        (c,) = shape.points
        b = float(n @ (p - c))
        disc = b * b - (float((p - c) @ (p - c)) - (shape.radius + slack) ** 2)
        if disc < 0:
            return None
        root = math.sqrt(disc)
        return -b - root, -b + root, root / shape.radius, root / shape.radius
    h = convex_hull(shape.points)
    e = np.roll(h, -1, axis=0) - h
    m = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    room = np.sum(m * h, axis=1) + slack - m @ p  # m . x <= offset inside: u (m . n) <= room
    rate = m @ n
    u_in, u_out, cos_in, cos_out = -math.inf, math.inf, 1.0, 1.0
    for r, q in zip(room, rate, strict=True):
        if q == 0.0:
            if r < 0.0:
                return None
            continue
        with np.errstate(over="ignore"):
            u = r / q  # a face all but parallel to n gives +-inf: no bound on that side
        if q > 0 and u < u_out:
            u_out, cos_out = u, abs(q)
        elif q < 0 and u > u_in:
            u_in, cos_in = u, abs(q)
    if u_in > u_out:
        return None
    return u_in, u_out, cos_in, cos_out
