"""A shape swept or placed among the world's parts: its first impact and its deepest contact.

Both run the narrow phase's own kernel (``collide_kernel``) on the part pairs the query
index finds near, so their answers are the ones ``collide`` and the step give. The moving
shape ("the mover") is a small packed table of its own: a shape's parts for ``shape_cast``,
a body's parts for ``move_and_slide``.

Which parts block is a filter of the part row (:func:`blocks`): never a sensor shape; for
a cast (mover row -1) any part whose category shares a bit with the cast's mask; for a body
of the world, any part of another body that the collision filter lets collide with the
body's own category, mask and group (its shapes' own filters speak for them as obstacles).
"""

from __future__ import annotations

import math

import numpy as np

from .grid_walk import box_parts, sweep_parts
from .jit import kernel
from .narrowphase import collide_kernel, turns
from .query_index import ANGLE, BODY, RADIUS, REACH, SLOTS, X, Y
from .sorting import sorted_unique


def cast_filters(parts, own: tuple = (0, 0, 0)) -> tuple:
    """The ``filters`` the cast kernels take: the part table's (category, mask, group,
    sensor) (P,) from ``parts`` (its columns by name), and ``own``: the category, mask and
    group of the moved body (zeros for a cast, mover row -1)."""
    return (parts["category"], parts["mask"], parts["group"], parts["sensor"], *own)


@kernel(inline=True)
def blocks(index, p, mover, filters, mask):
    """True when part ``p`` stops the mover (see the module docstring). filters: see
    ``cast_filters``."""
    category, masks, groups, sensor, own_category, own_mask, own_group = filters
    if sensor[p] or index.part_ints[p, BODY] == mover:
        return False
    if mover < 0:
        return (category[p] & mask) != 0
    if groups[p] == own_group and own_group != 0:
        return own_group > 0
    return (category[p] & own_mask) != 0 and (own_category & masks[p]) != 0


@kernel
def mover_from_shape(vertices, normals, count, radius):
    """A writable packed table (vertices, normals, count, radius, reach) of a shape's
    read-only packed arrays; reach (S,) is each part's farthest point from the origin."""
    reach = np.empty(len(count))
    for i in range(len(count)):
        farthest = 0.0
        for k in range(vertices.shape[1]):
            x, y = vertices[i, k, 0], vertices[i, k, 1]
            farthest = max(farthest, math.sqrt(x * x + y * y))
        reach[i] = farthest + radius[i]
    return vertices.copy(), normals.copy(), count.copy(), radius.copy(), reach


@kernel
def index_parts(index, rows):
    """Parts ``rows`` (M,) of the index as a packed table (vertices, normals, count, radius,
    reach) of M contiguous rows."""
    m = len(rows)
    width = index.vertices.shape[1]
    vertices = np.empty((m, width, 2))
    normals = np.empty((m, width, 2))
    count = np.empty(m, dtype=np.int64)
    radius = np.empty(m)
    reach = np.empty(m)
    for j in range(m):
        p = rows[j]
        vertices[j] = index.vertices[p]
        normals[j] = index.normals[p]
        count[j] = index.part_ints[p, SLOTS]
        radius[j] = index.part_floats[p, RADIUS]
        reach[j] = index.part_floats[p, REACH]
    return vertices, normals, count, radius, reach


@kernel(inline=True)
def mover_box(mover, x, y, angle):
    """The mover's world box at (x, y, angle): (lower x, lower y, upper x, upper y)."""
    vertices, count, radius = mover[0], mover[2], mover[3]
    c, s = math.cos(angle), math.sin(angle)
    lo_x = lo_y = np.inf
    hi_x = hi_y = -np.inf
    for i in range(len(count)):
        for k in range(count[i]):
            u, v = vertices[i, k, 0], vertices[i, k, 1]
            wx, wy = c * u - s * v + x, s * u + c * v + y
            lo_x = min(lo_x, wx - radius[i])
            hi_x = max(hi_x, wx + radius[i])
            lo_y = min(lo_y, wy - radius[i])
            hi_y = max(hi_y, wy + radius[i])
    return lo_x, lo_y, hi_x, hi_y


@kernel(inline=True)
def _blocking(index, near, mover_row, filters, mask):
    """The parts of ``near`` (M,) whose bodies block the mover, in the same order."""
    kept = np.empty(len(near), dtype=np.int64)
    used = 0
    for p in near:
        if blocks(index, p, mover_row, filters, mask):
            kept[used] = p
            used += 1
    return kept[:used]


@kernel
def collide_with_parts(index, mover, mover_parts, near, x, y, angle, vx, vy, margin):
    """The narrow phase of every (mover part, part of ``near``) pair, mover part major.

    mover_parts: (S,) rows of the mover's table, at (x, y, angle), moving by (vx, vy) per
    unit time over [0, 1]; near: (M,) index parts. Returns collide_kernel's nine arrays for
    the S * M pairs (pair k is mover part k // M with part k % M of near). A static query
    passes no motion: the sweep then changes only toi, never the separation, normal or
    points, so every caller shares the step's specialisation of the kernel (sweep on).
    """
    s, m = len(mover_parts), len(near)
    n = s * m
    obstacles = index_parts(index, near)
    parts_a = np.empty(n, dtype=np.int64)
    parts_b = np.empty(n, dtype=np.int64)
    poses_a = np.empty((n, 3))
    poses_b = np.empty((n, 3))
    velocity = np.empty((n, 2))
    frames = index.frames
    for i in range(s):
        for j in range(m):
            k = i * m + j
            body = index.part_ints[near[j], BODY]
            parts_a[k], parts_b[k] = mover_parts[i], j
            poses_a[k, 0], poses_a[k, 1], poses_a[k, 2] = x, y, angle
            poses_b[k, 0], poses_b[k, 1] = frames[body, X], frames[body, Y]
            poses_b[k, 2] = frames[body, ANGLE]
            velocity[k, 0], velocity[k, 1] = vx, vy
    # The sweep flag is computed at run time (n >= 0 always holds): a literal True would
    # compile the narrow phase once more.
    return collide_kernel(
        mover[0], mover[1], mover[2], mover[3], mover[4], parts_a, poses_a, turns(poses_a),
        obstacles[0], obstacles[1], obstacles[2], obstacles[3], obstacles[4], parts_b, poses_b,
        turns(poses_b), velocity, n >= 0, np.ones(n), np.full(n, margin), 0.0,
    )  # fmt: skip


@kernel
def first_impact(index, mover, x, y, angle, mx, my, mover_row, filters, mask):
    """The earliest hit of the mover at (x, y, angle) translated by (mx, my).

    Returns (body row, toi in [0, 1], normal x, y from the mover towards the body, contact
    point x, y) at that instant, or body row -1 when nothing blocking is met. Ties in toi
    go to the lower body row.
    """
    lo_x, lo_y, hi_x, hi_y = mover_box(mover, x, y, angle)
    cx, cy = 0.5 * (lo_x + hi_x), 0.5 * (lo_y + hi_y)
    hx, hy = 0.5 * (hi_x - lo_x), 0.5 * (hi_y - lo_y)
    near = sweep_parts(index, cx, cy, cx + mx, cy + my, hx, hy)
    near = _blocking(index, near, mover_row, filters, mask)
    if len(near) == 0:
        return -1, np.nan, np.nan, np.nan, np.nan, np.nan
    every = np.arange(len(mover[2]))
    toi = collide_with_parts(index, mover, every, near, x, y, angle, mx, my, 0.0)[2]
    m = len(near)
    best = -1
    best_body = -1
    for k in range(len(toi)):
        if np.isnan(toi[k]):
            continue
        body = index.part_ints[near[k % m], BODY]
        if best < 0 or toi[k] < toi[best] or (toi[k] == toi[best] and body < best_body):
            best, best_body = k, body
    if best < 0:
        return -1, np.nan, np.nan, np.nan, np.nan, np.nan
    t = toi[best]
    nx, ny, px, py = _touch_at(
        index, mover, best // m, near[best % m], x + t * mx, y + t * my, angle
    )
    return best_body, t, nx, ny, px, py


@kernel(inline=True)
def _touch_at(index, mover, mover_part, part, x, y, angle):
    """Normal (from the mover) and contact point of one pair that just touches, the mover
    part at (x, y, angle): the static narrow phase, keeping every clipped point as close as
    the closest (the touching ones), averaged."""
    pair = np.array([mover_part]), np.array([part])
    found = collide_with_parts(index, mover, pair[0], pair[1], x, y, angle, 0.0, 0.0, np.inf)
    normal, points, separation = found[1], found[3], found[4]
    scale = 1.0 + max(abs(x), abs(y))
    closest = np.inf
    for q in range(2):
        if not np.isnan(separation[0, q]):
            closest = min(closest, separation[0, q])
    px = py = 0.0
    kept = 0
    for q in range(2):
        if separation[0, q] <= closest + 1e-9 * scale:
            px += points[0, q, 0]
            py += points[0, q, 1]
            kept += 1
    return normal[0, 0], normal[0, 1], px / kept, py / kept


@kernel
def deepest_contact(index, mover, x, y, angle, grow, mover_row, filters, mask):
    """The deepest touching pair of the mover at (x, y, angle) with the blocking parts whose
    boxes come within ``grow`` of it: (body row, separation <= 0, normal x, y from the
    mover), or body row -1 when nothing touches."""
    lo_x, lo_y, hi_x, hi_y = mover_box(mover, x, y, angle)
    near = sorted_unique(box_parts(index, lo_x - grow, lo_y - grow, hi_x + grow, hi_y + grow))
    near = _blocking(index, near, mover_row, filters, mask)
    if len(near) == 0:
        return -1, np.nan, np.nan, np.nan
    every = np.arange(len(mover[2]))
    found = collide_with_parts(index, mover, every, near, x, y, angle, 0.0, 0.0, 0.0)
    separation, normal = found[0], found[1]
    deepest = 0
    for k in range(1, len(separation)):
        if separation[k] < separation[deepest]:
            deepest = k
    if separation[deepest] > 0.0:
        return -1, np.nan, np.nan, np.nan
    body = index.part_ints[near[deepest % len(near)], BODY]
    return body, separation[deepest], normal[deepest, 0], normal[deepest, 1]
