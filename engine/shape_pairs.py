"""Shape pairs through the narrow phase: part pairs expanded, collided, reduced per shape pair.

The kernels behind ``collide`` and ``collide_many``. Shapes come as packed part tables (see
``engine.packing``): each shape is a run of rows, ``first`` and ``parts`` per shape, and each
pair names its two shapes. A pair of convex shapes is one part pair and goes straight to
``collide_kernel``. A pair with a concave shape expands into every pair of their parts, and
the answers are reduced to one per shape pair: the deepest part pair speaks for normal,
depth and points, the earliest time of impact is the pair's, and A is inside B when each
part of A lies inside some part of B (exact when B is convex).
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .narrowphase import collide_kernel, turns

# Slots of the first hash table that ``distinct_ids`` tries (room for 32 distinct shapes).
SMALL_TABLE = 64


@kernel(inline=True)
def table_reach(vertices, radius):
    """(P,) distance from the origin to the farthest point of each packed part (the same
    arithmetic as ``engine.narrowphase.part_reach``)."""
    reach = np.empty(len(radius))
    for i in range(len(radius)):
        farthest = 0.0
        for k in range(vertices.shape[1]):
            x, y = vertices[i, k, 0], vertices[i, k, 1]
            farthest = max(farthest, math.sqrt(x * x + y * y))
        reach[i] = farthest + radius[i]
    return reach


@kernel
def collide_shape_pairs(
    vertices_a, normals_a, count_a, radius_a, first_a, parts_a, which_a, poses_a,
    vertices_b, normals_b, count_b, radius_b, first_b, parts_b, which_b, poses_b,
    velocity, sweep, dt,
):  # fmt: skip
    """The narrow phase of N shape pairs: A is shape which_a[i] of table A at poses_a[i].

    vertices, normals: (P, K, 2) packed tables; count: (P,) int64; radius: (P,); first,
    parts: (D,) int64 each shape's first row and part count; which: (N,) int64; poses:
    (N, 3); velocity: (N, 2) of A relative to B, swept over dt when ``sweep``. Returns the
    nine ``Collisions`` arrays, one row per shape pair.
    """
    n = len(which_a)
    reach_a, reach_b = table_reach(vertices_a, radius_a), table_reach(vertices_b, radius_b)
    convex = True
    for i in range(n):
        convex = convex and parts_a[which_a[i]] == 1 and parts_b[which_b[i]] == 1
    if convex:
        return collide_kernel(
            vertices_a, normals_a, count_a, radius_a, reach_a, first_a[which_a], poses_a,
            turns(poses_a),
            vertices_b, normals_b, count_b, radius_b, reach_b, first_b[which_b], poses_b,
            turns(poses_b),
            velocity, sweep, np.full(n, dt), np.zeros(n), 0.0,
        )  # fmt: skip
    # Part pairs of pair i are rows start[i]..start[i + 1], part of A major.
    start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        start[i + 1] = start[i] + parts_a[which_a[i]] * parts_b[which_b[i]]
    total = start[n]
    rows_a = np.empty(total, dtype=np.int64)
    rows_b = np.empty(total, dtype=np.int64)
    pair_poses_a = np.empty((total, 3))
    pair_poses_b = np.empty((total, 3))
    pair_velocity = np.empty((total, 2))
    for i in range(n):
        k = start[i]
        for pa in range(parts_a[which_a[i]]):
            for pb in range(parts_b[which_b[i]]):
                rows_a[k], rows_b[k] = first_a[which_a[i]] + pa, first_b[which_b[i]] + pb
                pair_poses_a[k], pair_poses_b[k] = poses_a[i], poses_b[i]
                pair_velocity[k] = velocity[i]
                k += 1
    found = collide_kernel(
        vertices_a, normals_a, count_a, radius_a, reach_a, rows_a, pair_poses_a,
        turns(pair_poses_a),
        vertices_b, normals_b, count_b, radius_b, reach_b, rows_b, pair_poses_b,
        turns(pair_poses_b),
        pair_velocity, sweep, np.full(total, dt), np.zeros(total), 0.0,
    )  # fmt: skip
    return _reduce(found, start, parts_a[which_a], parts_b[which_b])


@kernel(inline=True)
def _reduce(found, start, parts_a, parts_b):
    """One row per shape pair from the part pairs rows start[i]..start[i + 1] (see the
    module docstring); parts_a, parts_b: (N,) part counts of each pair's shapes."""
    separation, normal, toi, points, point_separation, count, features, a_in_b, b_in_a = found
    n = len(parts_a)
    out_separation = np.empty(n)
    out_normal = np.empty((n, 2))
    out_toi = np.empty(n)
    out_points = np.empty((n, 2, 2))
    out_point_separation = np.empty((n, 2))
    out_count = np.empty(n, dtype=np.int64)
    out_features = np.empty((n, 2), dtype=np.int64)
    out_a_in_b = np.empty(n, dtype=np.bool_)
    out_b_in_a = np.empty(n, dtype=np.bool_)
    for i in range(n):
        first, na, nb = start[i], parts_a[i], parts_b[i]
        deepest = first
        earliest = np.nan
        for k in range(first, start[i + 1]):
            if separation[k] < separation[deepest]:
                deepest = k
            if not np.isnan(toi[k]) and not toi[k] >= earliest:
                earliest = toi[k]  # the least toi; NaN (no impact) only when all are
        out_separation[i] = separation[deepest]
        out_normal[i] = normal[deepest]
        out_toi[i] = earliest
        out_points[i] = points[deepest]
        out_point_separation[i] = point_separation[deepest]
        out_count[i] = count[deepest]
        out_features[i] = features[deepest]
        every_a = True
        for pa in range(na):
            inside = False
            for pb in range(nb):
                inside = inside or a_in_b[first + pa * nb + pb]
            every_a = every_a and inside
        every_b = True
        for pb in range(nb):
            inside = False
            for pa in range(na):
                inside = inside or b_in_a[first + pa * nb + pb]
            every_b = every_b and inside
        out_a_in_b[i], out_b_in_a[i] = every_a, every_b
    return (
        out_separation, out_normal, out_toi, out_points, out_point_separation, out_count,
        out_features, out_a_in_b, out_b_in_a,
    )  # fmt: skip


@kernel
def batch_answers(separation, normal, toi):
    """The public fields derived from the narrow phase's: intersect, will_intersect (N,)
    bool, depth (N,) and mtv (N, 2) (``-normal * depth``)."""
    n = len(separation)
    intersect = np.empty(n, dtype=np.bool_)
    will_intersect = np.empty(n, dtype=np.bool_)
    depth = np.empty(n)
    mtv = np.empty((n, 2))
    for i in range(n):
        intersect[i] = separation[i] <= 0.0
        will_intersect[i] = not np.isnan(toi[i])
        d = -separation[i]
        depth[i] = d if d >= 0.0 or np.isnan(d) else 0.0
        mtv[i, 0], mtv[i, 1] = -normal[i, 0] * depth[i], -normal[i, 1] * depth[i]
    return intersect, will_intersect, depth, mtv


@kernel
def collide_one_pair(
    vertices_a, normals_a, count_a, radius_a, xa, ya, angle_a,
    vertices_b, normals_b, count_b, radius_b, xb, yb, angle_b, vx, vy, sweep, dt,
):  # fmt: skip
    """``collide`` of two shapes given by their (read-only) packed arrays and poses.

    sweep: True, from the caller: as a run-time bool it shares ``collide_many``'s
    specialisation of the kernels instead of compiling one for the constant.

    Returns (separation, toi or NaN, normal (2,), depth, mtv (2,), points (k, 2),
    a_in_b, b_in_a).
    """
    va, na, ca, ra = vertices_a.copy(), normals_a.copy(), count_a.copy(), radius_a.copy()
    vb, nb, cb, rb = vertices_b.copy(), normals_b.copy(), count_b.copy(), radius_b.copy()
    poses_a, poses_b = np.array([[xa, ya, angle_a]]), np.array([[xb, yb, angle_b]])
    velocity = np.array([[vx, vy]])
    first = np.zeros(1, dtype=np.int64)
    if len(ca) == 1 and len(cb) == 1:  # one convex pair: no shape-pair bookkeeping
        found = collide_kernel(
            va, na, ca, ra, table_reach(va, ra), first, poses_a, turns(poses_a),
            vb, nb, cb, rb, table_reach(vb, rb), first, poses_b, turns(poses_b),
            velocity, sweep, np.full(1, dt), np.zeros(1), 0.0,
        )  # fmt: skip
    else:
        found = collide_shape_pairs(
            va, na, ca, ra, first, np.array([len(ca)]), first, poses_a,
            vb, nb, cb, rb, first, np.array([len(cb)]), first, poses_b,
            velocity, sweep, dt,
        )  # fmt: skip
    separation, normal, toi, points, count = found[0][0], found[1], found[2][0], found[3], found[5]
    d = -separation
    depth = d if d >= 0.0 or np.isnan(d) else 0.0  # as batch_answers
    mtv = np.array([-normal[0, 0] * depth, -normal[0, 1] * depth])
    return (
        separation, toi, normal[0].copy(), depth, mtv, points[0, : count[0]].copy(),
        found[7][0], found[8][0],
    )  # fmt: skip


@kernel
def distinct_ids(ids):
    """The distinct values of ``ids`` (N,) int64, in the order first seen.

    Returns (first (D,) int64 index of each one's first occurrence, which (N,) int64 the
    rank of each id among them), from a hash table (open addressing). Batches usually hold
    a few distinct shapes: a small table is tried first, and only when it fills up is a
    table sized for N used.
    """
    n = len(ids)
    which = np.empty(n, dtype=np.int64)
    slots = SMALL_TABLE
    while True:
        keys = np.empty(slots, dtype=np.int64)
        rank = np.full(slots, -1, dtype=np.int64)
        first = np.empty(slots // 2, dtype=np.int64)
        distinct = _rank_ids(ids, keys, rank, first, which)
        if distinct >= 0:
            return first[:distinct], which
        while slots < 2 * n + 2:
            slots *= 2


@kernel(inline=True)
def _rank_ids(ids, keys, rank, first, which):
    """Fill ``which`` (N,) and ``first`` with the ranks of ``ids`` in a table of ``keys`` and
    ``rank`` (S,) kept at most half full; the number of distinct ids, or -1 when they do
    not fit."""
    mask = len(keys) - 1
    distinct = 0
    for i in range(len(ids)):
        key = ids[i]
        h = key ^ (key >> 17)
        slot = ((h * 0x45D9F3B) ^ (h >> 29)) & mask
        while rank[slot] >= 0 and keys[slot] != key:
            slot = (slot + 1) & mask
        if rank[slot] < 0:
            if 2 * (distinct + 1) > len(keys):
                return -1
            keys[slot], rank[slot], first[distinct] = key, distinct, i
            distinct += 1
        which[i] = rank[slot]
    return distinct
