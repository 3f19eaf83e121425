"""The query index: a uniform grid over a world's parts, built by a kernel, cached per world.

Every world query (points, boxes, rays, shape casts, the character controller) asks it which
parts are near before testing them exactly. Each part's padded world box is entered in every
grid cell it covers. Cells are found through a hash table of B buckets (B a power of two):
locating a cell costs a multiply and a shift however wide or sparse the world is, and memory
stays proportional to the parts. A bucket's entries are one run of ``entries``, rows (part,
cell key), parts ascending within a bucket; several cells may share a bucket, so readers
compare the key.

Parts covering more than MAX_CELLS_PER_PART cells (the ground, long walls) stay out of the
grid, in the ``unlisted`` list that every query checks directly. Bodies moved between steps
by the queries' own callers (``move_and_slide``) are patched in the same way: their parts
join ``unlisted`` with fresh boxes, and their stale grid entries are skipped (the MOVED
flag). Past MAX_DIRTY_PARTS such parts the next query rebuilds the index instead.

The index is built by the first query after the world changed and cached per world. It is
valid while the world's stamp is unchanged: (body count, next body id, step count, pose
revision); the World bumps its pose revision on every pose write outside ``step``.
"""

from __future__ import annotations

import math
import weakref
from typing import NamedTuple

import numpy as np

from .jit import kernel
from .sorting import argsort_floats

# Cell side as a multiple of the median part extent: most parts then cover 1 to 4 cells.
CELL_SIZE_FACTOR = 2.0
# A part covering more cells than this is kept in ``unlisted`` instead of the grid.
MAX_CELLS_PER_PART = 16
# The grid never gets more cells than this along an axis, so cell keys fit in int64.
MAX_CELLS_PER_AXIS = 2**20
# Index boxes are grown by this fraction of their coordinates' size. The exact tests count
# a gap of up to TOUCH (2**-40) times that size as touching; rounding in the box
# computation must never cut such a part off.
BOX_PAD = 2.0**-30
# Parts of bodies moved since the build that are patched in before a rebuild is cheaper.
MAX_DIRTY_PARTS = 64
# Parts whose extents give the median extent (an even sample of the world's parts).
MEDIAN_SAMPLE = 255
# The smallest normal float64: a cell side for a world whose parts are all points.
TINY = 2.2250738585072014e-308

# Columns of ``frames``: each body's pose and the cosine and sine of its angle.
X, Y, ANGLE, COS, SIN = range(5)
# Columns of ``part_ints``: owner row, real vertex count, first and last grid cell, moved.
BODY, SLOTS, FIRST_COLUMN, FIRST_ROW, LAST_COLUMN, LAST_ROW, MOVED = range(7)
# Columns of ``part_floats``: padded world box, radius (a circle's or capsule's; 0: none), reach.
LOW_X, LOW_Y, HIGH_X, HIGH_Y, RADIUS, REACH = range(6)
# Entries of ``grid``: the corner of cell (0, 0) and the cell side.
ORIGIN_X, ORIGIN_Y, CELL = range(3)
# Entries of ``counts``: cells per axis, bucket mask, unlisted parts in use, large parts.
COLUMNS, ROWS, BUCKET_MASK, UNLISTED, LARGE = range(5)


class QueryIndex(NamedTuple):
    """A uniform grid over a world's P parts of N bodies; kernels take its fields in order.

    frames: (N, 5) float64 x, y, angle, cos, sin of each body (moved rows patched).
    part_ints: (P, 7) int64 owner row (ascending: a body's parts are one run), real vertex
    count, first and last covered cell (column, row), moved flag.
    part_floats: (P, 6) float64 padded world box (lower x, y, upper x, y), radius, reach
    (distance from the owner's origin to the part's farthest point).
    vertices, normals: (P, K, 2) float64 the world's packed parts, body frames.
    grid: (3,) float64 origin x, y and cell side. counts: (5,) int64 columns, rows, bucket
    mask (B - 1), unlisted parts in use, large parts (the first ones of ``unlisted``).
    bucket_start: (B + 1,) int64 runs of ``entries`` per bucket. entries: (E, 2) int64
    (part, cell key); key = column * rows + row. unlisted: (L + MAX_DIRTY_PARTS,) int64
    large parts, then parts of moved bodies.
    """

    frames: np.ndarray
    part_ints: np.ndarray
    part_floats: np.ndarray
    vertices: np.ndarray
    normals: np.ndarray
    grid: np.ndarray
    counts: np.ndarray
    bucket_start: np.ndarray
    entries: np.ndarray
    unlisted: np.ndarray


class _Cached:
    """A world's index and the stamp it is valid for (restamped in place after a patch)."""

    __slots__ = ("stamp", "index")

    def __init__(self, stamp: tuple, index: QueryIndex):
        self.stamp = stamp
        self.index = index


# One index per world, dropped with the world.
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def stamp(world) -> tuple:
    """What the index depends on: (body count, next body id, steps, pose revision)."""
    return (
        world._bodies.count,
        world._bodies.next_id,
        world._clock.steps,
        world._clock.pose_revision,
    )


def current_index(world) -> QueryIndex:
    """The world's query index, rebuilt first if the world changed since it was built."""
    now = stamp(world)
    cached = _CACHE.get(world)
    if cached is not None and cached.stamp == now:
        return cached.index
    index = build_index(world)
    _CACHE[world] = _Cached(now, index)
    return index


def build_index(world) -> QueryIndex:
    """Grid the world's parts at their current poses (one kernel call)."""
    bodies, parts = world._bodies, world._parts.table
    vertices, normals = parts.view("vertices"), parts.view("normals")
    built = build_grid(
        bodies.view("position"), bodies.view("angle"), parts.view("body"), vertices,
        parts.view("count"), parts.view("radius"), parts.view("reach"),
    )  # fmt: skip
    frames, part_ints, part_floats, grid, counts, bucket_start, entries, unlisted = built
    return QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, bucket_start, entries,
        unlisted,
    )  # fmt: skip


def restamp(world, index: QueryIndex) -> None:
    """Declare ``index`` current again after its caller moved a body and patched it in
    (:func:`patch_moved_body`): the move changed the world's stamp, nothing else did."""
    cached = _CACHE.get(world)
    if cached is not None and cached.index is index:
        cached.stamp = stamp(world)


def forget(world) -> None:
    """Drop the world's index: the next query rebuilds it."""
    _CACHE.pop(world, None)


# -- kernels ----------------------------------------------------------------------------------
@kernel(inline=True)
def fill_part_box(frames, body, vertices, count, radius, reach, i, part_floats):
    """Write part i's padded world box into row i of ``part_floats`` (P, 6).

    The box is grown by BOX_PAD of the part's coordinate scale, so that rounding never cuts
    off a part the exact tests call touching.
    """
    x, y, c, s = frames[body, X], frames[body, Y], frames[body, COS], frames[body, SIN]
    lo_x = lo_y = np.inf
    hi_x = hi_y = -np.inf
    for k in range(count):
        u, v = vertices[i, k, 0], vertices[i, k, 1]
        wx = c * u - s * v + x
        wy = s * u + c * v + y
        lo_x, hi_x = min(lo_x, wx), max(hi_x, wx)
        lo_y, hi_y = min(lo_y, wy), max(hi_y, wy)
    pad = radius + BOX_PAD * (math.hypot(x, y) + reach)
    part_floats[i, LOW_X], part_floats[i, LOW_Y] = lo_x - pad, lo_y - pad
    part_floats[i, HIGH_X], part_floats[i, HIGH_Y] = hi_x + pad, hi_y + pad
    part_floats[i, RADIUS], part_floats[i, REACH] = radius, reach


@kernel(inline=True)
def is_large(part_ints, i):
    """True when part i covers more than MAX_CELLS_PER_PART cells (kept out of the grid)."""
    columns = part_ints[i, LAST_COLUMN] - part_ints[i, FIRST_COLUMN] + 1
    return columns * (part_ints[i, LAST_ROW] - part_ints[i, FIRST_ROW] + 1) > MAX_CELLS_PER_PART


@kernel(inline=True)
def bucket_of(key, mask):
    """The hash bucket of a cell key: a multiplicative mix, masked to B - 1."""
    h = key ^ (key >> 16)
    h = h * 0x45D9F3B
    h = h ^ (h >> 16)
    return h & mask


@kernel(inline=True)
def _cell_size(part_floats):
    """A cell side from the median part extent, coarse enough to bound the cell count, and
    the corner of the parts' boxes. The median is taken over an even sample of at most
    MEDIAN_SAMPLE parts: the cell size need only be about right."""
    p = len(part_floats)
    stride = (p + MEDIAN_SAMPLE - 1) // MEDIAN_SAMPLE
    extent = np.empty(MEDIAN_SAMPLE)
    positive = 0
    for i in range(0, p, stride):
        width = part_floats[i, HIGH_X] - part_floats[i, LOW_X]
        height = part_floats[i, HIGH_Y] - part_floats[i, LOW_Y]
        if max(width, height) > 0.0:
            extent[positive] = max(width, height)
            positive += 1
    lo_x = lo_y = np.inf
    hi_x = hi_y = -np.inf
    for i in range(p):
        lo_x, lo_y = min(lo_x, part_floats[i, LOW_X]), min(lo_y, part_floats[i, LOW_Y])
        hi_x, hi_y = max(hi_x, part_floats[i, HIGH_X]), max(hi_y, part_floats[i, HIGH_Y])
    size = 1.0
    if positive:
        sample = extent[:positive]
        size = CELL_SIZE_FACTOR * sample[argsort_floats(sample)[positive // 2]]
    scene = max(hi_x - lo_x, hi_y - lo_y)
    return max(size, scene / MAX_CELLS_PER_AXIS, TINY), lo_x, lo_y


@kernel
def build_grid(positions, angles, part_body, vertices, count, radius, reach):
    """Build the index arrays of P parts of N bodies.

    positions: (N, 2), angles: (N,) body poses; part_body: (P,) int64 owner rows,
    ascending; vertices: (P, K, 2) body frames; count: (P,) int64; radius, reach: (P,).
    Returns frames, part_ints, part_floats, grid, counts, bucket_start, entries, unlisted
    (see QueryIndex).
    """
    n, p = len(angles), len(part_body)
    frames = np.empty((n, 5))
    for i in range(n):
        frames[i, X], frames[i, Y], frames[i, ANGLE] = positions[i, 0], positions[i, 1], angles[i]
        frames[i, COS], frames[i, SIN] = math.cos(angles[i]), math.sin(angles[i])
    part_ints = np.zeros((p, 7), dtype=np.int64)
    part_floats = np.empty((p, 6))
    for i in range(p):
        part_ints[i, BODY], part_ints[i, SLOTS] = part_body[i], count[i]
        fill_part_box(frames, part_body[i], vertices, count[i], radius[i], reach[i], i, part_floats)
    grid = np.array([0.0, 0.0, 1.0])
    if p:
        grid[CELL], grid[ORIGIN_X], grid[ORIGIN_Y] = _cell_size(part_floats)
    columns, rows, listed = _place_parts(part_ints, part_floats, grid)
    buckets = 16
    while buckets < listed:
        buckets *= 2
    bucket_start, entries, unlisted = _fill_buckets(part_ints, rows, buckets, listed)
    large = len(unlisted) - MAX_DIRTY_PARTS
    counts = np.array([columns, rows, buckets - 1, large, large], dtype=np.int64)
    return frames, part_ints, part_floats, grid, counts, bucket_start, entries, unlisted


@kernel(inline=True)
def _place_parts(part_ints, part_floats, grid):
    """Write each part's first and last cell into ``part_ints``; returns the grid's columns
    and rows and the number of (part, cell) entries of the parts kept in it."""
    size, ox, oy = grid[CELL], grid[ORIGIN_X], grid[ORIGIN_Y]
    columns = rows = 1
    listed = 0
    for i in range(len(part_ints)):
        first_x = math.floor((part_floats[i, LOW_X] - ox) / size)
        first_y = math.floor((part_floats[i, LOW_Y] - oy) / size)
        last_x = math.floor((part_floats[i, HIGH_X] - ox) / size)
        last_y = math.floor((part_floats[i, HIGH_Y] - oy) / size)
        part_ints[i, FIRST_COLUMN], part_ints[i, FIRST_ROW] = first_x, first_y
        part_ints[i, LAST_COLUMN], part_ints[i, LAST_ROW] = last_x, last_y
        columns, rows = max(columns, last_x + 1), max(rows, last_y + 1)
        if not is_large(part_ints, i):
            listed += (last_x - first_x + 1) * (last_y - first_y + 1)
    return columns, rows, listed


@kernel(inline=True)
def _fill_buckets(part_ints, rows, buckets, listed):
    """The grid's hash table: bucket_start (B + 1,), entries (E, 2) of (part, cell key) in
    bucket order, parts ascending within a bucket (a counting sort); and ``unlisted`` with
    the large parts first and room for MAX_DIRTY_PARTS more."""
    p = len(part_ints)
    mask = buckets - 1
    large = 0
    for i in range(p):
        large += is_large(part_ints, i)
    unlisted = np.empty(large + MAX_DIRTY_PARTS, dtype=np.int64)
    bucket_start = np.zeros(buckets + 1, dtype=np.int64)
    large = 0
    for i in range(p):
        if is_large(part_ints, i):
            unlisted[large] = i
            large += 1
            continue
        for cx in range(part_ints[i, FIRST_COLUMN], part_ints[i, LAST_COLUMN] + 1):
            for cy in range(part_ints[i, FIRST_ROW], part_ints[i, LAST_ROW] + 1):
                bucket_start[bucket_of(cx * rows + cy, mask) + 1] += 1
    for b in range(buckets):
        bucket_start[b + 1] += bucket_start[b]
    entries = np.empty((listed, 2), dtype=np.int64)
    fill = bucket_start[:-1].copy()
    for i in range(p):
        if is_large(part_ints, i):
            continue
        for cx in range(part_ints[i, FIRST_COLUMN], part_ints[i, LAST_COLUMN] + 1):
            for cy in range(part_ints[i, FIRST_ROW], part_ints[i, LAST_ROW] + 1):
                key = cx * rows + cy
                b = bucket_of(key, mask)
                entries[fill[b], 0], entries[fill[b], 1] = i, key
                fill[b] += 1
    return bucket_start, entries, unlisted


@kernel(inline=True)
def parts_of_body(part_ints, row):
    """The run [first, stop) of body ``row``'s parts, by bisection of the owner column."""
    first, stop = 0, len(part_ints)
    while first < stop:
        middle = (first + stop) // 2
        if part_ints[middle, BODY] < row:
            first = middle + 1
        else:
            stop = middle
    stop = first
    while stop < len(part_ints) and part_ints[stop, BODY] == row:
        stop += 1
    return first, stop


@kernel(inline=True)
def patch_moved_body(index, row, x, y, angle):
    """Move body ``row`` to (x, y, angle) in the index: new frame and boxes, its parts in
    ``unlisted`` and flagged MOVED. Returns False, changing nothing, when that would pass
    MAX_DIRTY_PARTS (the index must then be rebuilt)."""
    frames, part_ints, part_floats = index.frames, index.part_ints, index.part_floats
    vertices, counts, unlisted = index.vertices, index.counts, index.unlisted
    first, stop = parts_of_body(part_ints, row)
    fresh = 0
    for i in range(first, stop):
        fresh += part_ints[i, MOVED] == 0 and not is_large(part_ints, i)
    if counts[UNLISTED] + fresh - counts[LARGE] > MAX_DIRTY_PARTS:
        return False
    frames[row, X], frames[row, Y], frames[row, ANGLE] = x, y, angle
    frames[row, COS], frames[row, SIN] = math.cos(angle), math.sin(angle)
    for i in range(first, stop):
        fill_part_box(
            frames, row, vertices, part_ints[i, SLOTS], part_floats[i, RADIUS],
            part_floats[i, REACH], i, part_floats,
        )  # fmt: skip
        if part_ints[i, MOVED] == 0 and not is_large(part_ints, i):
            part_ints[i, MOVED] = 1
            unlisted[counts[UNLISTED]] = i
            counts[UNLISTED] += 1
    return True
