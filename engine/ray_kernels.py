"""Ray casts through the query index, as kernels: first hit of one or many rays, every hit.

A ray is the segment from s to e. Its first hit walks the grid's columns in the order the
ray reaches them and stops at the first column the ray enters after its best hit so far:
a long ray pays for the cells up to what it hits, not for its whole length. Large and moved
parts (``unlisted``) are tested first, so a ray towards the ground stops early too.

A hit is the least (fraction, part): ties in fraction go to the lower part row, so to the
body added first. Sensors are never hit, nor bodies whose category shares no bit with the
ray's mask.
"""

from __future__ import annotations

import numpy as np

from .grid_walk import (
    column_at,
    column_entry,
    column_parts,
    column_room,
    sweep_entry,
    sweep_parts,
    sweep_walk,
    walk_is_long,
)
from .jit import kernel
from .part_checks import segment_hit
from .query_index import BODY, UNLISTED, QueryIndex
from .sorting import argsort_floats


@kernel(inline=True)
def ray_admits(index, category, sensor, mask, p):
    """True when a ray with ``mask`` may hit part p: not a sensor, its category (both (P,),
    the part's own: its shape's, else its body's) in the mask."""
    return not sensor[p] and (category[p] & mask) != 0


@kernel(inline=True)
def _better_hit(index, category, sensor, mask, p, sx, sy, dx, dy, best):
    """``best`` (fraction, part, normal x, normal y) updated with part p's hit, if nearer."""
    if not ray_admits(index, category, sensor, mask, p):
        return best
    if sweep_entry(index.part_floats, p, sx, sy, dx, dy, 0.0, 0.0) > best[0]:
        return best
    hit, fraction, nx, ny = segment_hit(index, p, sx, sy, dx, dy)
    if hit and (fraction < best[0] or (fraction == best[0] and p < best[1])):
        return (fraction, p, nx, ny)
    return best


@kernel
def first_hit(index, category, sensor, mask, sx, sy, ex, ey):
    """The first hit of the ray s -> e: (body row or -1, fraction, point x, y, normal x, y),
    NaN where nothing is hit. Each part is tested at most once."""
    dx, dy = ex - sx, ey - sy
    parts = len(index.part_ints)
    best = (np.inf, parts, 0.0, 0.0)
    walk = sweep_walk(index.grid, index.counts, sx, sy, ex, ey, 0.0, 0.0)
    long = walk_is_long(walk, len(index.slot_parts))
    # Batches of candidates: every part for a long ray; else the unlisted parts, then the
    # columns in the order the ray reaches them, until one starts after the best hit.
    if long:
        found = np.arange(parts)
        used = parts
    else:
        used = index.counts[UNLISTED]
        found = np.empty(max(used, 32), dtype=np.int64)
        found[:used] = index.unlisted[:used]
    step = 0
    while True:
        for j in range(used):
            best = _better_hit(index, category, sensor, mask, found[j], sx, sy, dx, dy, best)
        if long or step > walk.last - walk.first:
            break
        column = column_at(walk, step)
        if column_entry(walk, column) > best[0]:
            break  # every cell from here on is reached after the best hit
        room = column_room(index, walk, column)
        if room > len(found):
            found = np.empty(2 * room, dtype=np.int64)
        used = column_parts(index, walk, column, found, 0)
        step += 1
    fraction, p, nx, ny = best
    if p == parts:
        return -1, np.nan, np.nan, np.nan, np.nan, np.nan
    return index.part_ints[p, BODY], fraction, sx + fraction * dx, sy + fraction * dy, nx, ny


@kernel
def raycast_one(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, category, sensor, mask, sx, sy, ex, ey,
):  # fmt: skip
    """:func:`first_hit` of one ray, on the index's arrays (see QueryIndex)."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    return first_hit(index, category, sensor, mask, sx, sy, ex, ey)


@kernel
def raycast_rays(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, category, sensor, mask, starts, ends,
):  # fmt: skip
    """:func:`first_hit` of R rays, starts and ends (R, 2). Returns body_row (R,) int64
    (-1: no hit), fraction (R,), point (R, 2), normal (R, 2) (NaN: no hit)."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    r = len(starts)
    body_row = np.empty(r, dtype=np.int64)
    fraction = np.empty(r)
    point = np.empty((r, 2))
    normal = np.empty((r, 2))
    for i in range(r):
        hit = first_hit(
            index, category, sensor, mask, starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1]
        )
        body_row[i], fraction[i] = hit[0], hit[1]
        point[i, 0], point[i, 1], normal[i, 0], normal[i, 1] = hit[2], hit[3], hit[4], hit[5]
    return body_row, fraction, point, normal


@kernel
def raycast_every(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, category, sensor, mask, sx, sy, ex, ey,
):  # fmt: skip
    """Every body the ray s -> e hits, at its first hit (least fraction, then part), sorted
    by (fraction, body). Returns body (M,) int64, fraction (M,), point (M, 2), normal (M, 2)."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    dx, dy = ex - sx, ey - sy
    # Each part the segment's box sweep touches, once, ascending: the lower part wins a tie.
    near = sweep_parts(index, sx, sy, ex, ey, 0.0, 0.0)
    hit_part = np.empty(len(near), dtype=np.int64)
    hit_fraction = np.empty(len(near))
    hit_normal = np.empty((len(near), 2))
    hits = 0
    for p in near:
        if not ray_admits(index, category, sensor, mask, p):
            continue
        hit, t, nx, ny = segment_hit(index, p, sx, sy, dx, dy)
        if hit:
            hit_part[hits], hit_fraction[hits] = p, t
            hit_normal[hits, 0], hit_normal[hits, 1] = nx, ny
            hits += 1
    first = _first_per_body(part_ints, hit_part[:hits], hit_fraction[:hits])
    bodies = len(first)
    # Nearest first; bodies are in ascending order already, and the sort is stable.
    first = first[argsort_floats(hit_fraction[first])]
    body_out = np.empty(bodies, dtype=np.int64)
    fraction_out = np.empty(bodies)
    point_out = np.empty((bodies, 2))
    normal_out = np.empty((bodies, 2))
    for k in range(bodies):
        j = first[k]
        t = hit_fraction[j]
        body_out[k], fraction_out[k] = part_ints[hit_part[j], BODY], t
        point_out[k, 0], point_out[k, 1] = sx + t * dx, sy + t * dy
        normal_out[k, 0], normal_out[k, 1] = hit_normal[j, 0], hit_normal[j, 1]
    return body_out, fraction_out, point_out, normal_out


@kernel(inline=True)
def _first_per_body(part_ints, hit_part, hit_fraction):
    """Of hits (M,) on parts ascending, the index of each body's first hit: its least
    fraction, the lower part on a tie. A body's parts are one ascending run of rows."""
    first = np.empty(len(hit_part), dtype=np.int64)
    bodies = 0
    for j in range(len(hit_part)):
        body = part_ints[hit_part[j], BODY]
        if bodies and part_ints[hit_part[first[bodies - 1]], BODY] == body:
            if hit_fraction[j] < hit_fraction[first[bodies - 1]]:
                first[bodies - 1] = j
        else:
            first[bodies] = j
            bodies += 1
    return first[:bodies]
