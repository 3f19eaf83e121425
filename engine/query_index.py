"""The query index: the parts' boxes at the current poses, on the broad phase's grid.

Every world query (points, boxes, rays, shape casts, the character controller) asks it which
parts are near before testing them exactly. The parts' padded world boxes are entered in the
grid of ``engine.cell_grid``, the structure the step's broad phase pairs its boxes on, built
by the same kernel. A query reads the parts of a cell as one run of ``slot_parts``, its
*slot*'s, found by arithmetic alone:

- in a dense grid (the usual case) the slots are the grid's own cells, and a cell's slot
  is its number, column * rows + row;
- a sparse grid (a few bodies spread very far apart) lists only its occupied cells, so its
  entries are regrouped into B hash buckets (B a power of two); several cells may share a
  bucket, and readers compare the key.

Either way locating a cell costs a multiply (and a shift), however wide or sparse the world
is, and memory stays proportional to the parts. (Bisecting the grid's sorted cell keys
instead made ray casts a third slower.)

Parts the grid leaves out (large ones: the ground, long walls) are kept in the ``unlisted``
list that every query checks directly. Bodies the World moves between steps for the queries'
own callers (``move_and_slide``) are patched in the same way: their parts join ``unlisted``
with fresh boxes, and their stale grid entries are skipped (the MOVED flag). Past
MAX_DIRTY_PARTS such parts the index is dropped instead, and the next query rebuilds it.

The World owns one :class:`QueryIndexCache` (``world._query_index``). The index is built by
the first query after the world changed and is valid while the World's stamp is unchanged:
(body count, next body id, step count, pose revision); the World bumps its pose revision on
every pose write outside ``step``. It is a cache, never saved: a restored world's stamp moves
past every earlier one, and a loaded, copied or unpickled world starts with an empty cache.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .cell_grid import AXIS_BITS, AXIS_LIMIT, LARGE, build_cells
from .jit import kernel
from .sorting import argsort_floats

# Cell side as a multiple of the median part extent: most parts then cover 1 to 4 cells.
CELL_SIZE_FACTOR = 2.0
# The grid never gets more cells than this along an axis (cell keys allow 2**30).
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
# Columns of ``part_ints``: the part's first and last grid cell and whether the grid left it
# out (large), as ``cell_grid.build_cells`` writes them; its owner row, real vertex count,
# and whether its body moved since the build.
BODY, SLOTS, MOVED = 5, 6, 7
# Columns of ``part_floats``: padded world box, radius (a circle's or capsule's; 0: none), reach.
LOW_X, LOW_Y, HIGH_X, HIGH_Y, RADIUS, REACH = range(6)
# Entries of ``grid``: the corner of cell (0, 0) and the cell side.
ORIGIN_X, ORIGIN_Y, CELL = range(3)
# Entries of ``counts``: cells per axis, unlisted parts in use, large parts (the first ones
# of ``unlisted``), whether the slots are hash buckets, and their mask (B - 1).
COLUMNS, ROWS, UNLISTED, LARGE_PARTS, HASHED, BUCKET_MASK = range(6)


class QueryIndex(NamedTuple):
    """The P parts of N bodies on a grid of E entries; kernels take its fields in order.

    frames: (N, 5) float64 x, y, angle, cos, sin of each body (moved rows patched).
    part_ints: (P, 8) int64 first and last covered cell (column, row), large flag, owner row
    (ascending: a body's parts are one run), real vertex count, moved flag.
    part_floats: (P, 6) float64 padded world box (lower x, y, upper x, y), radius, reach
    (distance from the owner's origin to the part's farthest point).
    vertices, normals: (P, K, 2) float64 the world's packed parts, body frames.
    grid: (3,) float64 origin x, y and cell side. counts: (6,) int64 columns, rows, unlisted
    parts in use, large parts (the first ones of ``unlisted``), hashed flag, bucket mask.
    slot_start: (S + 1,) int64 each slot's run of ``slot_parts`` (E,) int64, the parts of
    the grid's entries: S = columns * rows cells of a dense grid, whose runs are the grid's
    (parts ascending within a cell), or B hash buckets. slot_keys: (E,) int64 the cell key
    (column * rows + row) of each hashed entry (empty for a dense grid). unlisted:
    (L + MAX_DIRTY_PARTS,) int64 large parts, then parts of moved bodies.
    """

    frames: np.ndarray
    part_ints: np.ndarray
    part_floats: np.ndarray
    vertices: np.ndarray
    normals: np.ndarray
    grid: np.ndarray
    counts: np.ndarray
    slot_start: np.ndarray
    slot_keys: np.ndarray
    slot_parts: np.ndarray
    unlisted: np.ndarray


class QueryIndexCache:
    """A World's query index and the stamp it is valid for (see the module docstring).

    The World hands it its body table and part table (``engine.table.Table``) and its
    stamp; nothing here reads the World itself.
    """

    __slots__ = ("stamp", "index")

    def __init__(self):
        self.stamp = None
        self.index = None

    def current(self, stamp: tuple, bodies, parts) -> QueryIndex:
        """The index for ``stamp``: the cached one, or a new one built from the tables."""
        if self.index is None or self.stamp != stamp:
            self.index = build_index(bodies, parts)
            self.stamp = stamp
        return self.index

    def patch(self, index: QueryIndex, row: int, bodies, stamp: tuple) -> None:
        """Body ``row`` moved to its pose in ``bodies``, and nothing else changed, since
        ``index`` was current: move it in the index and declare the index current for
        ``stamp``. The index is dropped instead when it is no longer the cached one or too
        many parts have moved since the build (the next query rebuilds it)."""
        if self.index is not index or index is None:
            self.forget()
            return
        x, y = bodies.arrays["position"][row]
        angle = bodies.arrays["angle"][row]
        if patch_body(*index, row, float(x), float(y), float(angle)):
            self.stamp = stamp
        else:
            self.forget()

    def forget(self) -> None:
        """Drop the index: the next query rebuilds it."""
        self.stamp = None
        self.index = None


def build_index(bodies, parts) -> QueryIndex:
    """Grid the parts at their bodies' current poses (one kernel call).

    bodies, parts: the World's body table and part table (``engine.table.Table``).
    """
    vertices, normals = parts.view("vertices"), parts.view("normals")
    built = build_grid(
        bodies.view("position"), bodies.view("angle"), parts.view("body"), vertices,
        parts.view("count"), parts.view("radius"), parts.view("reach"),
    )  # fmt: skip
    frames, part_ints, part_floats, grid, counts, start, keys, slot_parts, unlisted = built
    return QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, start, keys, slot_parts,
        unlisted,
    )  # fmt: skip


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
def bucket_of(key, mask):
    """The hash bucket of a cell key: a multiplicative mix, masked to B - 1."""
    h = key ^ (key >> 16)
    h = h * 0x45D9F3B
    h = h ^ (h >> 16)
    return h & mask


@kernel(inline=True)
def _hashed_slots(keys, start, boxes, rows):
    """The slots of a sparse grid (keys (C,), runs start (C + 1,) of boxes (E,)) as hash
    buckets: slot_start (B + 1,), slot_keys (E,), slot_parts (E,) and the mask B - 1, B the
    least power of two >= 16 and the entries (a counting sort of the cells by bucket)."""
    entries = len(boxes)
    buckets = 16
    while buckets < entries:
        buckets *= 2
    mask = buckets - 1
    slot_start = np.zeros(buckets + 1, dtype=np.int64)
    for cell in range(len(keys)):
        key = (keys[cell] >> AXIS_BITS) * rows + (keys[cell] & AXIS_LIMIT)
        slot_start[bucket_of(key, mask) + 1] += start[cell + 1] - start[cell]
    for b in range(buckets):
        slot_start[b + 1] += slot_start[b]
    slot_keys = np.empty(entries, dtype=np.int64)
    slot_parts = np.empty(entries, dtype=np.int64)
    fill = slot_start[:-1].copy()
    for cell in range(len(keys)):
        key = (keys[cell] >> AXIS_BITS) * rows + (keys[cell] & AXIS_LIMIT)
        b = bucket_of(key, mask)
        for e in range(start[cell], start[cell + 1]):
            slot_keys[fill[b]], slot_parts[fill[b]] = key, boxes[e]
            fill[b] += 1
    return slot_start, slot_keys, slot_parts, mask


@kernel(inline=True)
def slot_run(index, column, row):
    """The key (column * rows + row) of cell (column, row) and the run [start, stop) of
    ``slot_parts`` of its slot: its own parts in a dense grid; in a hashed one, its bucket's
    (with those of other cells, which have other keys: see ``slot_keys``).

    Branch-free on purpose: it runs in the innermost loops of every query, and with a
    branch here (dense or hashed) numba kept reference counting the index's arrays on every
    call: ray casts ran two to three times slower.
    """
    counts = index.counts
    key = column * counts[ROWS] + row
    slot = key + counts[HASHED] * (bucket_of(key, counts[BUCKET_MASK]) - key)
    return key, index.slot_start[slot], index.slot_start[slot + 1]


@kernel(inline=True)
def _cell_size(part_floats):
    """A cell side from the median part extent, coarse enough to bound the cell count. The
    median is taken over an even sample of at most MEDIAN_SAMPLE parts: the cell size need
    only be about right."""
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
    return max(size, scene / MAX_CELLS_PER_AXIS, TINY)


@kernel
def build_grid(positions, angles, part_body, vertices, count, radius, reach):
    """Build the index arrays of P parts of N bodies.

    positions: (N, 2), angles: (N,) body poses; part_body: (P,) int64 owner rows,
    ascending; vertices: (P, K, 2) body frames; count: (P,) int64; radius, reach: (P,).
    Returns frames, part_ints, part_floats, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted (see QueryIndex).
    """
    n, p = len(angles), len(part_body)
    frames = np.empty((n, 5))
    for i in range(n):
        frames[i, X], frames[i, Y], frames[i, ANGLE] = positions[i, 0], positions[i, 1], angles[i]
        frames[i, COS], frames[i, SIN] = math.cos(angles[i]), math.sin(angles[i])
    part_floats = np.empty((p, 6))
    for i in range(p):
        fill_part_box(frames, part_body[i], vertices, count[i], radius[i], reach[i], i, part_floats)
    part_ints = np.zeros((p, 8), dtype=np.int64)
    size = _cell_size(part_floats) if p else 1.0
    lower, upper = part_floats[:, LOW_X : LOW_Y + 1], part_floats[:, HIGH_X : HIGH_Y + 1]
    cells = build_cells(lower, upper, size, part_ints)
    large = 0
    for i in range(p):
        part_ints[i, BODY], part_ints[i, SLOTS] = part_body[i], count[i]
        large += part_ints[i, LARGE]
    unlisted = np.empty(large + MAX_DIRTY_PARTS, dtype=np.int64)
    large = 0
    for i in range(p):
        if part_ints[i, LARGE]:
            unlisted[large] = i
            large += 1
    grid = np.array([cells.origin_x, cells.origin_y, cells.size])
    slot_start, slot_keys, slot_parts, mask = cells.start, cells.start[:0], cells.boxes, 0
    if not cells.dense:
        slot_start, slot_keys, slot_parts, mask = _hashed_slots(
            cells.keys, cells.start, cells.boxes, cells.rows
        )
    counts = np.array(
        [cells.columns, cells.rows, large, large, not cells.dense, mask], dtype=np.int64
    )
    return (
        frames, part_ints, part_floats, grid, counts, slot_start, slot_keys, slot_parts,
        unlisted,
    )  # fmt: skip


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


@kernel
def patch_body(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, row, x, y, angle,
):  # fmt: skip
    """Move body ``row`` to (x, y, angle) in the index (its fields, in order): new frame and
    boxes, its parts in ``unlisted`` and flagged MOVED. Returns False, changing nothing,
    when that would pass MAX_DIRTY_PARTS (the index must then be rebuilt)."""
    first, stop = parts_of_body(part_ints, row)
    fresh = 0
    for i in range(first, stop):
        fresh += part_ints[i, MOVED] == 0 and part_ints[i, LARGE] == 0
    if counts[UNLISTED] + fresh - counts[LARGE_PARTS] > MAX_DIRTY_PARTS:
        return False
    frames[row, X], frames[row, Y], frames[row, ANGLE] = x, y, angle
    frames[row, COS], frames[row, SIN] = math.cos(angle), math.sin(angle)
    for i in range(first, stop):
        fill_part_box(
            frames, row, vertices, part_ints[i, SLOTS], part_floats[i, RADIUS],
            part_floats[i, REACH], i, part_floats,
        )  # fmt: skip
        if part_ints[i, MOVED] == 0 and part_ints[i, LARGE] == 0:
            part_ints[i, MOVED] = 1
            unlisted[counts[UNLISTED]] = i
            counts[UNLISTED] += 1
    return True
