"""The narrow phase over a batch of convex part pairs of any kinds, as one compiled loop.

Each pair is solved in a frame that keeps its arithmetic small: a polygon pair in A's body
frame (A's vertices need no transform there), a polygon-circle pair in the polygon's frame,
a circle pair in the world, a pair with a segment or capsule in A's frame
(``engine.segment_pair``). The answers are turned back into world coordinates. Circle-
polygon pairs run as polygon-circle with A and B swapped, and their answers are swapped
back. ``collide``, ``collide_many``, the World, continuous collision, sensors and the queries
all call :func:`collide_parts`, so they agree to the last bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .chain_pair import chain_pair
from .jit import kernel
from .packing import PackedParts
from .polygon_pair import polygon_pair
from .rotation import cos_sin
from .round_pair import circle_circle, polygon_circle
from .segment_pair import rounded_pair

# Relative size of a gap that is only rounding: about 4000 units in the last place of the
# pair's largest coordinate. Far below any physical scale, far above float64 noise.
TOUCH = 2.0**-40


class Collisions(NamedTuple):
    """Narrow-phase answers for N pairs (A, B).

    separation: (N,) signed distance along ``normal`` (negative: penetration depth).
    normal: (N, 2) unit, from A towards B; the axis of least overlap when overlapping, a
        separating axis otherwise (``separation`` is then a lower bound on the gap).
    toi: (N,) first instant in [0, dt] at which they overlap while A translates by
        velocity * t; 0 when overlapping now, NaN when they do not meet.
    points: (N, 2, 2) contact points midway between the surfaces, NaN-padded.
    point_separation: (N, 2) separation at each point, NaN-padded.
    point_count: (N,) int64, 0..2: points whose separation is within the margin.
    features: (N, 2) int64 ids of the features that made each point, -1 padded.
    a_in_b, b_in_a: (N,) bool containment.
    """

    separation: np.ndarray
    normal: np.ndarray
    toi: np.ndarray
    points: np.ndarray
    point_separation: np.ndarray
    point_count: np.ndarray
    features: np.ndarray
    a_in_b: np.ndarray
    b_in_a: np.ndarray


def collide_parts(
    table_a: PackedParts,
    parts_a: np.ndarray,
    poses_a: np.ndarray,
    table_b: PackedParts,
    parts_b: np.ndarray,
    poses_b: np.ndarray,
    velocity: np.ndarray | None = None,
    dt=0.0,
    margin=0.0,
    flip_tolerance: float = 0.0,
    reach: tuple | None = None,
) -> Collisions:
    """Collide N convex part pairs.

    table_a, table_b: packed part tables (may be the same object); parts_a, parts_b: (N,)
    int64 rows of them; poses_a, poses_b: (N, 3) float64 body poses (x, y, angle);
    velocity: (N, 2) velocity of A relative to B, or None for no sweep; dt: float or (N,).
    margin: float or (N,): keep contact points up to this gap. flip_tolerance: B's face is
    the reference only when it beats A's by more than this. reach: optional ((P_a,),
    (P_b,)) ``part_reach`` of the two tables, when the caller keeps them cached.
    """
    n = len(parts_a)
    if reach is None:
        reach = (part_reach(table_a), part_reach(table_b))
    sweep = velocity is not None
    velocity = np.zeros((n, 2)) if velocity is None else _ready(velocity, np.float64)
    poses_a, poses_b = _ready(poses_a, np.float64), _ready(poses_b, np.float64)
    found = collide_kernel(
        *_table(table_a), _ready(reach[0], np.float64), _ready(parts_a, np.int64), poses_a,
        turns(poses_a),
        *_table(table_b), _ready(reach[1], np.float64), _ready(parts_b, np.int64), poses_b,
        turns(poses_b),
        velocity, sweep, _per_pair(dt, n), _per_pair(margin, n), float(flip_tolerance),
    )  # fmt: skip
    return Collisions(*found)


@kernel
def turns(poses):
    """(N, 2) cos and sin of the angles of poses (N, 3)."""
    out = np.empty((len(poses), 2))
    for i in range(len(poses)):
        out[i, 0], out[i, 1] = cos_sin(poses[i, 2])
    return out


def _ready(array, dtype) -> np.ndarray:
    """A writable C-contiguous array of ``dtype``: the one layout the kernels compile for."""
    array = np.asarray(array)
    if array.dtype != dtype or not array.flags.c_contiguous or not array.flags.writeable:
        array = np.array(array, dtype=dtype, order="C")
    return array


def _table(table: PackedParts) -> tuple:
    return (
        _ready(table.vertices, np.float64),
        _ready(table.normals, np.float64),
        _ready(table.count, np.int64),
        _ready(table.radius, np.float64),
    )


def _per_pair(value, n: int) -> np.ndarray:
    """(n,) float64 from a float or an (n,) array."""
    if np.ndim(value) == 0:
        return np.full(n, float(value))
    return _ready(value, np.float64)


def part_reach(table: PackedParts) -> np.ndarray:
    """(P,) distance from the body origin to the farthest point of each part."""
    return np.sqrt((table.vertices**2).sum(axis=2)).max(axis=1) + table.radius


@kernel(inline=True)
def empty_collisions(n):
    """Output arrays for n pairs, every field at its 'nothing' value (NaN, 0, -1, False)."""
    return (
        np.full(n, np.nan),
        np.full((n, 2), np.nan),
        np.full(n, np.nan),
        np.full((n, 2, 2), np.nan),
        np.full((n, 2), np.nan),
        np.zeros(n, dtype=np.int64),
        np.full((n, 2), -1, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
        np.zeros(n, dtype=np.bool_),
    )


@kernel
def collide_kernel(
    vertices_a, normals_a, count_a, radius_a, reach_a, parts_a, poses_a, turns_a,
    vertices_b, normals_b, count_b, radius_b, reach_b, parts_b, poses_b, turns_b,
    velocity, sweep, dt, margin, flip_tolerance,
):  # fmt: skip
    """The loop behind :func:`collide_parts`: tables (P, K, 2) vertices and normals, (P,)
    counts, radii and reaches; (N,) part rows, (N, 3) poses and (N, 2) (cos, sin) of the
    poses' angles, of A and B; (N, 2) velocity of A relative to B; (N,) dt and margin.
    Returns the nine Collisions arrays.

    The turns come from the caller so that a step can take each body's cos and sin once,
    not once per pair; every rotation below is built from them.
    """
    n = len(parts_a)
    out = empty_collisions(n)
    separation, normal, toi, points, point_separation, count, features, a_in_b, b_in_a = out
    width = max(vertices_a.shape[1], vertices_b.shape[1])
    hull_a = np.empty((4, width))
    hull_b = np.empty((4, width))
    for i in range(n):
        pa, pb = parts_a[i], parts_b[i]
        xa, ya, ca, sa = poses_a[i, 0], poses_a[i, 1], turns_a[i, 0], turns_a[i, 1]
        xb, yb, cb, sb = poses_b[i, 0], poses_b[i, 1], turns_b[i, 0], turns_b[i, 1]
        vx, vy = velocity[i, 0], velocity[i, 1]
        # Gaps this small are rounding of the pair's coordinates, not gaps. (|x| + |y| bounds
        # the coordinates as well as their hypot does, at a fraction of the cost.)
        scale = abs(xa) + abs(ya) + abs(xb) + abs(yb) + reach_a[pa] + reach_b[pb]
        touch = TOUCH * scale
        keep = margin[i] + touch
        # A segment or capsule (two vertices) goes with the polygons, as a rounded core.
        segment = count_a[pa] == 2 or count_b[pb] == 2
        round_a = radius_a[pa] > 0.0 and not segment
        round_b = radius_b[pb] > 0.0 and not segment
        swapped = False
        if round_a and round_b:
            # Circle pairs in the world frame.
            ox, oy = vertices_a[pa, 0, 0], vertices_a[pa, 0, 1]
            cxa, cya = ca * ox - sa * oy + xa, sa * ox + ca * oy + ya
            ox, oy = vertices_b[pb, 0, 0], vertices_b[pb, 0, 1]
            cxb, cyb = cb * ox - sb * oy + xb, sb * ox + cb * oy + yb
            answer = circle_circle(
                cxa, cya, radius_a[pa], cxb, cyb, radius_b[pb], vx, vy, sweep, dt[i], keep
            )
            c, s, x, y = 1.0, 0.0, 0.0, 0.0
        elif round_a or round_b:
            # The polygon's frame; a circle-polygon pair runs swapped and is swapped back.
            swapped = round_a
            if round_b:
                k = _local_hull(vertices_a, normals_a, count_a, pa, hull_a)
                c, s, x, y = ca, sa, xa, ya
                rx, ry, cr, sr = _relative_pose(
                    ca, sa, xa, ya, poses_a[i, 2], xb, yb, poses_b[i, 2]
                )
                ox, oy, radius = vertices_b[pb, 0, 0], vertices_b[pb, 0, 1], radius_b[pb]
                lvx, lvy = ca * vx + sa * vy, -sa * vx + ca * vy
            else:
                k = _local_hull(vertices_b, normals_b, count_b, pb, hull_a)
                c, s, x, y = cb, sb, xb, yb
                rx, ry, cr, sr = _relative_pose(
                    cb, sb, xb, yb, poses_b[i, 2], xa, ya, poses_a[i, 2]
                )
                ox, oy, radius = vertices_a[pa, 0, 0], vertices_a[pa, 0, 1], radius_a[pa]
                lvx, lvy = -1.0 * (cb * vx + sb * vy), -1.0 * (-sb * vx + cb * vy)
            cx, cy = cr * ox - sr * oy + rx, sr * ox + cr * oy + ry
            answer = polygon_circle(hull_a, k, cx, cy, radius, lvx, lvy, sweep, dt[i], keep)
        else:
            # Polygon and segment pairs in A's body frame, where A's vertices need no
            # transform.
            na = _local_hull(vertices_a, normals_a, count_a, pa, hull_a)
            rx, ry, cr, sr = _relative_pose(ca, sa, xa, ya, poses_a[i, 2], xb, yb, poses_b[i, 2])
            nb = count_b[pb]
            for j in range(nb):
                u, v = vertices_b[pb, j, 0], vertices_b[pb, j, 1]
                hull_b[0, j], hull_b[1, j] = cr * u - sr * v + rx, sr * u + cr * v + ry
                u, v = normals_b[pb, j, 0], normals_b[pb, j, 1]
                hull_b[2, j], hull_b[3, j] = cr * u - sr * v, sr * u + cr * v
            one_a = segment and _one_sided(normals_a, count_a, pa)
            one_b = segment and _one_sided(normals_b, count_b, pb)
            if one_a != one_b:
                # A chain's link, in its own frame: the other core turned into it.
                swapped = one_b
                if one_b:
                    k = _local_hull(vertices_b, normals_b, count_b, pb, hull_a)
                    c, s, x, y = cb, sb, xb, yb
                    rx, ry, cr, sr = _relative_pose(
                        cb, sb, xb, yb, poses_b[i, 2], xa, ya, poses_a[i, 2]
                    )
                    nb = _turned_hull(vertices_a, normals_a, count_a, pa, rx, ry, cr, sr, hull_b)
                    lvx, lvy = -1.0 * (cb * vx + sb * vy), -1.0 * (-sb * vx + cb * vy)
                    ghosts, ro = vertices_b[pb], radius_a[pa]
                else:
                    c, s, x, y = ca, sa, xa, ya
                    lvx, lvy = ca * vx + sa * vy, -sa * vx + ca * vy
                    ghosts, ro = vertices_a[pa], radius_b[pb]
                answer = chain_pair(
                    hull_a, ghosts[2, 0], ghosts[2, 1], ghosts[3, 0], ghosts[3, 1], hull_b, nb,
                    ro, lvx, lvy, sweep, dt[i], keep, flip_tolerance,
                )  # fmt: skip
            elif segment:
                answer = rounded_pair(
                    hull_a, na, radius_a[pa], hull_b, nb, radius_b[pb], ca * vx + sa * vy,
                    -sa * vx + ca * vy, sweep, dt[i], keep, flip_tolerance,
                )  # fmt: skip
            else:
                answer = polygon_pair(
                    hull_a, na, hull_b, nb, ca * vx + sa * vy, -sa * vx + ca * vy, sweep,
                    dt[i], keep, flip_tolerance,
                )  # fmt: skip
            if one_a == one_b:
                c, s, x, y = ca, sa, xa, ya
        (gap, nx, ny, first, kept, x0, y0, s0, f0, x1, y1, s1, f1, inside_a, inside_b) = answer
        # Back to the world, and for a swapped pair to A's point of view.
        sign = -1.0 if swapped else 1.0
        normal[i, 0] = sign * (c * nx - s * ny)
        normal[i, 1] = sign * (s * nx + c * ny)
        a_in_b[i], b_in_a[i] = (inside_b, inside_a) if swapped else (inside_a, inside_b)
        count[i] = kept
        if kept > 0:
            points[i, 0, 0] = c * x0 - s * y0 + x
            points[i, 0, 1] = s * x0 + c * y0 + y
            point_separation[i, 0] = s0
            features[i, 0] = f0
        if kept > 1:
            points[i, 1, 0] = c * x1 - s * y1 + x
            points[i, 1, 1] = s * x1 + c * y1 + y
            point_separation[i, 1] = s1
            features[i, 1] = f1
        # Shapes moved apart by their own MTV must still count as touching, and the rounding
        # of that move leaves a separation of either sign of order 1e-16 times the coordinates.
        separation[i] = 0.0 if abs(gap) <= touch else gap
        toi[i] = 0.0 if abs(gap) <= touch else first
        for p in range(2):
            if abs(point_separation[i, p]) <= touch:
                point_separation[i, p] = 0.0
    return out


@kernel(inline=True)
def _local_hull(vertices, normals, count, part, hull):
    """Copy a part's vertices and normals into ``hull`` (4, K); returns its vertex count."""
    k = count[part]
    for j in range(k):
        hull[0, j], hull[1, j] = vertices[part, j, 0], vertices[part, j, 1]
        hull[2, j], hull[3, j] = normals[part, j, 0], normals[part, j, 1]
    return k


@kernel(inline=True)
def _one_sided(normals, count, part):
    """True for a chain's link: two vertices with the front normal in both normal slots."""
    return (
        count[part] == 2
        and normals[part, 1, 0] == normals[part, 0, 0]
        and normals[part, 1, 1] == normals[part, 0, 1]
    )


@kernel(inline=True)
def _turned_hull(vertices, normals, count, part, rx, ry, cr, sr, hull):
    """Copy a part into ``hull`` (4, K), turned by (cr, sr) and moved by (rx, ry)."""
    k = count[part]
    for j in range(k):
        u, v = vertices[part, j, 0], vertices[part, j, 1]
        hull[0, j], hull[1, j] = cr * u - sr * v + rx, sr * u + cr * v + ry
        u, v = normals[part, j, 0], normals[part, j, 1]
        hull[2, j], hull[3, j] = cr * u - sr * v, sr * u + cr * v
    return k


@kernel(inline=True)
def _relative_pose(c, s, x, y, angle, xo, yo, angle_o):
    """The pose (xo, yo, angle_o) seen from the frame (x, y, angle) turned by (c, s) =
    (cos, sin): its position and the (cos, sin) of the relative turn.

    The turn's cos and sin come from the angle difference, not from the two turns' product
    formula: a resting pair's relative turn is then exact where it should be (equal angles,
    a half turn), so ties between faces break the same way every time.
    """
    dx, dy = xo - x, yo - y
    cos, sin = cos_sin(angle_o - angle)
    return c * dx + s * dy, -s * dx + c * dy, cos, sin
