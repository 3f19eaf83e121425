"""World queries: which bodies contain a point, overlap a box, or stop a swept shape.

Every query first asks a spatial index which parts are near, then tests only those exactly,
all on whole arrays. The index is a uniform grid of the parts' bounding boxes, stored as
sorted cell keys with each cell's run of parts (a CSR layout): finding the parts of k cells
is one ``searchsorted`` of k keys, so a query costs O(k + candidates), whatever the size of
the world. Parts covering more than MAX_CELLS_PER_PART cells (walls, the ground) are kept
out of the grid in a short ``large`` list that every query checks directly.

The index is built lazily, by the first query after the world changed, and cached per
world. "Changed" is decided by a stamp: the body count, the next body id (so removing one
body and adding another is seen), the step count and the poses. Poses are checked in one
of two ways:

* if the World keeps an int ``_pose_revision`` that it bumps on every pose write outside
  ``step`` (``Body.position``/``Body.angle`` setters), the stamp includes it and the check
  is O(1);
* otherwise every query compares the cached poses with the live ones: exact (a teleported
  body is always seen, whichever way it was moved), but O(N) at memory speed, about 10 us
  for 20,000 bodies.

A few bodies moved outside ``step`` (a character moved by ``move_and_slide``, a teleport)
are patched in rather than rebuilt: their parts join a short ``dirty`` list that every query
checks directly, like the large parts, with their boxes recomputed. Past MAX_DIRTY_PARTS
a rebuild is cheaper.

Filtering: a ray or shape cast hits a body when its category shares a bit with the query's
``mask``; sensors are never hit (a trigger zone should not block a line of sight).
query_point and query_aabb report every body there, sensors included.

``engine.raycast`` and ``engine.character`` build on :func:`current_index`,
:func:`sweep_candidates` and :func:`first_impact`.
"""

from __future__ import annotations

import math
import numbers
import weakref
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .body import Body
from .narrowphase import TOUCH, collide_parts, part_reach
from .packing import PackedParts
from .shapes import Shape
from .swept_bounds import part_bounds
from .validation import as_pose, as_vector

ALL_CATEGORIES = 0xFFFF
DEFAULT_CATEGORY = 0x0001

# Cell side as a multiple of the median part extent: most parts then cover 1 to 4 cells.
CELL_SIZE_FACTOR = 2.0
# A part covering more cells than this is kept in the ``large`` list instead of the grid.
MAX_CELLS_PER_PART = 16
# The grid never gets more cells than this along an axis, so cell keys fit in int64.
MAX_CELLS_PER_AXIS = 2**20
# Index boxes are grown by this fraction of their coordinates' size. The exact tests count
# a gap of up to TOUCH (2**-40) times that size as touching; rounding in the box
# computation must never cut such a part off.
BOX_PAD = 2.0**-30
# Slack, in cells, added around query sweeps: rounding in the cell walk must not miss a cell.
CELL_SLACK = 1e-7
# Parts of bodies moved since the build that are patched in before a rebuild is cheaper.
MAX_DIRTY_PARTS = 64


def expand_ranges(starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every integer of the half-open ranges [starts[k], stops[k]): (owner, value), (T,)."""
    lengths = np.maximum(stops - starts, 0)
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    first_slot = np.cumsum(lengths) - lengths
    value = np.arange(total, dtype=np.int64) + np.repeat(starts - first_slot, lengths)
    return owner, value


class QueryIndex(NamedTuple):
    """A uniform grid over a world's parts, valid while ``stamp`` matches the world.

    stamp: tuple (body count, next id, steps, pose revision or None). positions: (N, 2)
    and angles: (N,) float64 copies of the poses it was built from; poses: (N, 3) the same
    as (x, y, angle). handles: (N,) object array of the Body handles. parts: the world's
    PackedParts (P parts, body frames); part_body: (P,) int64 owner row (sorted, since a
    body's parts are one contiguous run); reach: (P,) float64 distance from the owner's
    origin to the part's farthest point. lower, upper: (P, 2) padded world boxes.
    cell_size: float; origin: (2,) corner of cell (0, 0); dims: (2,) int64 cells per axis.
    cell_keys: (C,) int64 sorted occupied cells (key = column * dims[1] + row);
    cell_start: (C + 1,) int64 runs of ``entry_part`` per cell; entry_part: (E,) int64.
    large: (L,) int64 parts kept out of the grid. dirty: (D,) int64 parts of bodies moved
    since the build: their boxes and poses here are current, their grid cells stale.
    """

    stamp: tuple
    positions: np.ndarray
    angles: np.ndarray
    poses: np.ndarray
    handles: np.ndarray
    parts: PackedParts
    part_body: np.ndarray
    reach: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    cell_size: float
    origin: np.ndarray
    dims: np.ndarray
    cell_keys: np.ndarray
    cell_start: np.ndarray
    entry_part: np.ndarray
    large: np.ndarray
    dirty: np.ndarray


@dataclass(frozen=True, eq=False)
class ShapeHit:
    """The first body a swept shape meets (see :func:`shape_cast`).

    body: the Body hit. toi: fraction of the motion in [0, 1] at which they first touch
    (0 when overlapping at the start). normal: (2,) unit vector from the cast shape towards
    the body at that instant. point: (2,) world contact point at that instant.
    """

    body: Body
    toi: float
    normal: np.ndarray
    point: np.ndarray


# One index per world, dropped with the world.
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# -- the index --------------------------------------------------------------------------------
def current_index(world) -> QueryIndex:
    """The world's query index, patched or rebuilt first if the world changed."""
    stamp = _stamp(world)
    index = _CACHE.get(world)
    if index is not None and index.stamp != stamp:
        index = None
    if index is not None and stamp[-1] is None:
        index = _follow_moves(index, world, _moved_rows(index, world))
    if index is None:
        index = build_index(world, stamp)
    _CACHE[world] = index
    return index


def note_moves(world, index: QueryIndex, rows: np.ndarray) -> None:
    """Patch ``index`` (the world's current one) after the caller moved bodies ``rows`` (M,).

    For a World with a pose revision, whose stamp the move changed: the caller knows that
    its own writes were the only change since ``index`` was current.
    """
    if _CACHE.get(world) is not index:
        return
    patched = _follow_moves(index, world, rows)
    if patched is None:
        del _CACHE[world]
    else:
        _CACHE[world] = patched._replace(stamp=_stamp(world))


def _stamp(world) -> tuple:
    revision = getattr(world, "_pose_revision", None)
    return (world._bodies.count, world._next_id, world._steps, revision)


def _moved_rows(index: QueryIndex, world) -> np.ndarray:
    """(M,) body rows whose pose differs from the index's copy (exact, O(N))."""
    positions, angles = world._bodies.view("position"), world._bodies.view("angle")
    # The common case, nothing moved, costs one memory-speed comparison and no allocation.
    if np.array_equal(index.positions, positions) and np.array_equal(index.angles, angles):
        return np.zeros(0, np.int64)
    return np.flatnonzero((index.positions != positions).any(axis=1) | (index.angles != angles))


def _follow_moves(index: QueryIndex, world, rows: np.ndarray) -> QueryIndex | None:
    """``index`` with bodies ``rows`` at their current poses, or None when too many moved.

    Their parts become dirty: every query tests them directly, with their new boxes.
    """
    if len(rows) == 0:
        return index
    first = np.searchsorted(index.part_body, rows)
    stop = np.searchsorted(index.part_body, rows + 1)
    dirty = np.union1d(index.dirty, expand_ranges(first, stop)[1])
    if len(dirty) > MAX_DIRTY_PARTS:
        return None
    index.positions[rows] = world._bodies.view("position")[rows]
    index.angles[rows] = world._bodies.view("angle")[rows]
    index.poses[rows] = np.column_stack([index.positions[rows], index.angles[rows]])
    parts = subset_parts(index.parts, dirty)
    lower, upper = _padded_bounds(parts, index.poses[index.part_body[dirty]], index.reach[dirty])
    index.lower[dirty], index.upper[dirty] = lower, upper
    return index._replace(dirty=dirty)


def build_index(world, stamp: tuple) -> QueryIndex:
    """Grid the world's parts at their current poses: O(P log P), once per world change."""
    positions = world._bodies.view("position").copy()
    angles = world._bodies.view("angle").copy()
    poses = np.column_stack([positions, angles])
    parts = world._parts.packed()
    part_body = world._parts.table.view("body").copy()
    reach = part_reach(parts)
    lower, upper = _padded_bounds(parts, poses[part_body], reach)
    handles = np.empty(len(world._handles), dtype=object)
    handles[:] = world._handles
    grid = _grid(lower, upper)
    return QueryIndex(
        stamp, positions, angles, poses, handles, parts, part_body, reach, lower, upper, *grid,
        np.zeros(0, np.int64),
    )  # fmt: skip


def _padded_bounds(parts: PackedParts, poses: np.ndarray, reach: np.ndarray):
    """World boxes (lower, upper), each (P, 2), of parts at ``poses`` (P, 3), grown by BOX_PAD
    of their scale so that rounding never cuts off a part the exact tests call touching."""
    lower, upper = part_bounds(parts, poses)
    pad = BOX_PAD * (np.hypot(poses[:, 0], poses[:, 1]) + reach)
    return lower - pad[:, None], upper + pad[:, None]


def _grid(lower: np.ndarray, upper: np.ndarray) -> tuple:
    """(cell_size, origin, dims, cell_keys, cell_start, entry_part, large) for P boxes."""
    if len(lower) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return 1.0, np.zeros(2), np.ones(2, np.int64), empty, np.zeros(1, np.int64), empty, empty
    size = _cell_size(lower, upper)
    origin = lower.min(axis=0)
    first = np.floor((lower - origin) / size).astype(np.int64)
    last = np.floor((upper - origin) / size).astype(np.int64)
    dims = last.max(axis=0) + 1
    span = last - first + 1
    large = span[:, 0] * span[:, 1] > MAX_CELLS_PER_PART
    gridded = np.flatnonzero(~large)
    # One entry per (part, covered cell): walk each part's block of cells row by row.
    owner, slot = expand_ranges(np.zeros(len(gridded), np.int64), span[gridded].prod(axis=1))
    part = gridded[owner]
    row, column = np.divmod(slot, span[part, 1])
    keys = (first[part, 0] + row) * dims[1] + first[part, 1] + column
    order = np.argsort(keys, kind="stable")  # stable: parts stay in order within a cell
    keys = keys[order]
    new_cell = np.ones(len(keys), dtype=bool)
    new_cell[1:] = keys[1:] != keys[:-1]
    starts = np.flatnonzero(new_cell)
    cell_start = np.append(starts, len(keys)).astype(np.int64)
    return size, origin, dims, keys[starts], cell_start, part[order], np.flatnonzero(large)


def _cell_size(lower: np.ndarray, upper: np.ndarray) -> float:
    """A cell side from the median part extent, coarse enough to bound the cell count."""
    extent = (upper - lower).max(axis=1)
    positive = extent[extent > 0.0]
    size = CELL_SIZE_FACTOR * float(np.median(positive)) if len(positive) else 1.0
    scene = float((upper.max(axis=0) - lower.min(axis=0)).max())
    return max(size, scene / MAX_CELLS_PER_AXIS, np.finfo(float).tiny)


# -- which parts are near ---------------------------------------------------------------------
def box_candidates(index: QueryIndex, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Sorted parts (M,) int64 whose padded boxes overlap the box ``lower``..``upper`` (2,).

    The one-box case of :func:`sweep_candidates`, on Python scalars where it can: point
    and box queries are single boxes, and per-call overhead is most of their cost. No
    slack is needed: an axis-aligned box maps to cells by the same monotone floor as the
    parts did.
    """
    size, (ox, oy), (nx, ny) = index.cell_size, index.origin, index.dims
    x0, x1 = _scalar_cells((lower[0] - ox) / size, (upper[0] - ox) / size, nx)
    y0, y1 = _scalar_cells((lower[1] - oy) / size, (upper[1] - oy) / size, ny)
    cells = max(x1 - x0 + 1, 0) * max(y1 - y0 + 1, 0)
    if cells > max(len(index.entry_part), 16):
        near = np.arange(len(index.part_body))  # cheaper to test every part
    else:
        columns = np.arange(x0, x1 + 1, dtype=np.int64)[:, None] * ny
        keys = (columns + np.arange(y0, y1 + 1, dtype=np.int64)).ravel()
        _, gridded = _cell_entries(index, np.zeros(len(keys), np.int64), keys)
        near = np.concatenate([gridded, index.large, index.dirty])
    touching = (index.lower[near] <= upper).all(axis=1) & (lower <= index.upper[near]).all(axis=1)
    return np.unique(near[touching])


def _scalar_cells(low: float, high: float, dims: int) -> tuple[int, int]:
    """First and last cell of a coordinate range in cell units, clipped to [0, dims - 1]."""
    first = math.floor(min(max(low, -1.0), dims))
    last = math.floor(min(max(high, -1.0), dims))
    return max(first, 0), min(last, int(dims) - 1)


def sweep_candidates(index: QueryIndex, start, end, half) -> tuple[np.ndarray, np.ndarray]:
    """Parts near R boxes of half-size ``half`` swept from centre ``start`` to ``end``.

    start, end, half: (R, 2) float64 (a box query is a sweep with start == end; a ray has
    half == 0). Returns (owner (M,), part (M,)) int64, sorted by owner then part, each pair
    once: a superset of the parts that touch the swept region, every one with its padded box
    overlapping the sweep's bounding box. Cost: O(cells crossed + candidates) per sweep; a
    sweep crossing more cells than the grid has entries is tested against all parts instead.
    """
    walk = _walk(index, start, end, half)
    first, last = _columns(walk)
    brute = _too_many_cells(walk, first, last, len(index.entry_part))
    pairs = [_grid_candidates(index, walk, np.where(brute, last + 1, first), last)]
    always = np.concatenate([index.large, index.dirty])  # parts no grid cell lists (right)
    if len(always):
        pairs.append(_all_pairs(np.arange(len(start)), always))
    if brute.any():
        gridded = np.setdiff1d(np.arange(len(index.part_body)), index.large)
        pairs.append(_all_pairs(np.flatnonzero(brute), gridded))
    owner = np.concatenate([pair[0] for pair in pairs])
    part = np.concatenate([pair[1] for pair in pairs])
    low, high = np.minimum(start, end) - half, np.maximum(start, end) + half
    keep = _boxes_touch(index, owner, part, low, high)
    # One sort both removes the duplicates (a part in several crossed cells) and orders.
    stride = max(len(index.part_body), 1)
    return np.divmod(np.unique(owner[keep] * stride + part[keep]), stride)


def _all_pairs(owners: np.ndarray, parts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.repeat(owners, len(parts)), np.tile(parts, len(owners))


def _boxes_touch(index, owner, part, lower, upper) -> np.ndarray:
    """(M,) bool: part boxes overlap (closed) the boxes ``lower[owner]``..``upper[owner]``."""
    return (index.lower[part] <= upper[owner]).all(axis=1) & (
        lower[owner] <= index.upper[part]
    ).all(axis=1)


class _Walk(NamedTuple):
    """Sweeps in grid units along their major axis u (the other is v), as (R,) arrays."""

    swap: np.ndarray  # True where u is y
    u0: np.ndarray
    v0: np.ndarray
    slope: np.ndarray  # dv/du, |slope| <= 1
    u_lo: np.ndarray  # the range of the sweep's centre along u
    u_hi: np.ndarray
    hu: np.ndarray  # half-size in cells, with slack
    hv: np.ndarray
    dims_u: np.ndarray
    dims_v: np.ndarray


def _walk(index: QueryIndex, start, end, half) -> _Walk:
    """Express sweeps in grid units, each along the axis it moves most on.

    Walking columns of the major axis keeps every column's run of rows short (|slope| <= 1),
    so the cells listed are the cells crossed plus O(1) per column.
    """
    g0 = (start - index.origin) / index.cell_size
    g1 = (end - index.origin) / index.cell_size
    h = half / index.cell_size + CELL_SLACK * (1.0 + np.abs(g0) + np.abs(g1))
    d = g1 - g0
    swap = np.abs(d[:, 1]) > np.abs(d[:, 0])
    axis_u, axis_v = swap.astype(np.intp), 1 - swap.astype(np.intp)
    rows = np.arange(len(start))
    du, dv = d[rows, axis_u], d[rows, axis_v]
    slope = np.divide(dv, du, out=np.zeros_like(du), where=du != 0.0)
    u0, u1 = g0[rows, axis_u], g1[rows, axis_u]
    return _Walk(
        swap, u0, g0[rows, axis_v], slope, np.minimum(u0, u1), np.maximum(u0, u1),
        h[rows, axis_u], h[rows, axis_v], index.dims[axis_u], index.dims[axis_v],
    )  # fmt: skip


def _cell_range(low, high, dims) -> tuple[np.ndarray, np.ndarray]:
    """First and last cell (int64) of coordinate ranges, clipped to [0, dims - 1].

    Clipping happens in float first, so huge coordinates never overflow int64; the range is
    empty (last < first) when it misses the grid.
    """
    first = np.floor(np.clip(low, -1.0, dims)).astype(np.int64)
    last = np.floor(np.clip(high, -1.0, dims)).astype(np.int64)
    return np.maximum(first, 0), np.minimum(last, dims - 1)


def _columns(walk: _Walk) -> tuple[np.ndarray, np.ndarray]:
    """First and last column (along u) of each sweep, (R,) int64 each."""
    return _cell_range(walk.u_lo - walk.hu, walk.u_hi + walk.hu, walk.dims_u)


def _too_many_cells(walk: _Walk, first, last, entries: int) -> np.ndarray:
    """(R,) bool: sweeps whose cells outnumber the grid's entries (cheaper to test all)."""
    rows_per_column = np.abs(walk.slope) + 2.0 * walk.hv + 2.0
    return np.maximum(last - first + 1, 0) * rows_per_column > max(entries, 16)


def _grid_candidates(index: QueryIndex, walk: _Walk, first, last) -> tuple:
    """(owner, part) for the grid entries of the cells of columns first..last of each sweep."""
    if len(index.cell_keys) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    sweep, column = expand_ranges(first, last + 1)
    row_first, row_last = _rows_of_columns(walk, sweep, column)
    cell_of, row = expand_ranges(row_first, row_last + 1)
    sweep, column = sweep[cell_of], column[cell_of]
    swap = walk.swap[sweep]
    cx, cy = np.where(swap, row, column), np.where(swap, column, row)
    return _cell_entries(index, sweep, cx * index.dims[1] + cy)


def _rows_of_columns(walk: _Walk, sweep, column) -> tuple[np.ndarray, np.ndarray]:
    """First and last row (along v) that sweep ``sweep`` covers in column ``column``.

    The box's centre is in column ``column`` or within ``hu`` of it for u in [a, b]; over
    that stretch v runs linearly, and the box adds ``hv`` either side.
    """
    hu, hv = walk.hu[sweep], walk.hv[sweep]
    a = np.maximum(column - hu, walk.u_lo[sweep])
    b = np.maximum(np.minimum(column + 1.0 + hu, walk.u_hi[sweep]), a)
    va = walk.v0[sweep] + (a - walk.u0[sweep]) * walk.slope[sweep]
    vb = walk.v0[sweep] + (b - walk.u0[sweep]) * walk.slope[sweep]
    return _cell_range(np.minimum(va, vb) - hv, np.maximum(va, vb) + hv, walk.dims_v[sweep])


def _cell_entries(index: QueryIndex, owner, keys) -> tuple[np.ndarray, np.ndarray]:
    """(owner, part) for every entry of the occupied cells among ``keys`` (M,)."""
    if len(index.cell_keys) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    at = np.searchsorted(index.cell_keys, keys)
    at_clipped = np.minimum(at, len(index.cell_keys) - 1)
    occupied = index.cell_keys[at_clipped] == keys
    at, owner = at_clipped[occupied], owner[occupied]
    which, entry = expand_ranges(index.cell_start[at], index.cell_start[at + 1])
    return owner[which], index.entry_part[entry]


# -- shared checks and helpers ----------------------------------------------------------------
def check_world(world) -> None:
    """TypeError unless ``world`` is a World."""
    from .world import World  # here, not at the top: world.py imports this module's users

    if not isinstance(world, World):
        raise TypeError(f"world: expected a World, got {type(world).__name__}")


def check_mask(mask) -> int:
    """A 16-bit category mask as an int: TypeError for a non-int, ValueError out of range."""
    if isinstance(mask, bool) or not isinstance(mask, numbers.Integral):
        raise TypeError(f"mask: expected an int, got {type(mask).__name__}")
    if not 0 <= int(mask) <= ALL_CATEGORIES:
        raise ValueError(f"mask: must be in [0, 0xFFFF], got {mask}")
    return int(mask)


def check_body(world, body) -> int:
    """The row of ``body`` in ``world``: TypeError for a non-Body, ValueError otherwise."""
    if not isinstance(body, Body):
        raise TypeError(f"body: expected a Body, got {type(body).__name__}")
    if body._world is not world:
        raise ValueError("body: it belongs to another world")
    row = world._row_of(body)
    if row < 0:
        raise ValueError("body: it has been removed from its world")
    return row


def body_passes(world, rows: np.ndarray, mask: int) -> np.ndarray:
    """(M,) bool: bodies ``rows`` whose category shares a bit with ``mask``.

    A World without categories counts every body as category 0x0001.
    """
    category = world._bodies.arrays.get("category")
    if category is None:
        return np.full(len(rows), bool(mask & DEFAULT_CATEGORY))
    return (category[rows].astype(np.int64) & mask) != 0


def solid(world, rows: np.ndarray) -> np.ndarray:
    """(M,) bool: bodies ``rows`` that are not sensors (sensors block no ray or sweep)."""
    sensor = world._bodies.arrays.get("sensor")
    return np.ones(len(rows), dtype=bool) if sensor is None else ~sensor[rows]


def cast_filter(world, mask: int):
    """Which bodies a ray or shape cast may hit: rows (M,) -> (M,) bool.

    Solid bodies whose category passes ``mask``. A callable, not an (N,) array, so that a
    query only ever looks at its candidates.
    """
    return lambda rows: body_passes(world, rows, mask) & solid(world, rows)


def to_local(points: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """World points (M, 2) in the body frames ``poses`` (M, 3)."""
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    dx, dy = points[:, 0] - poses[:, 0], points[:, 1] - poses[:, 1]
    return np.stack([c * dx + s * dy, -s * dx + c * dy], axis=1)


def rotate(vectors: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Vectors (..., 2) turned by ``angles`` (...,) counter-clockwise."""
    c, s = np.cos(angles), np.sin(angles)
    x, y = vectors[..., 0], vectors[..., 1]
    return np.stack([c * x - s * y, s * x + c * y], axis=-1)


def padded_slots(parts: PackedParts, rows: np.ndarray) -> np.ndarray:
    """(M, K) bool: slots of parts ``rows`` that only repeat a real vertex (packing rule)."""
    return np.arange(parts.width)[None, :] >= parts.count[rows, None]


def bodies_of(index: QueryIndex, rows: np.ndarray) -> list:
    """The Body handles of body rows (M,), in that order (a gather, no Python loop)."""
    return index.handles[rows].tolist()


# -- query_point ------------------------------------------------------------------------------
def query_point(world, point) -> list:
    """Bodies whose shapes contain ``point`` (2,); touching counts. Returned in body order.

    Exact for polygons and circles. Raises TypeError for a non-World or non-numeric point,
    ValueError for a point of the wrong shape or with NaN/infinity.
    """
    check_world(world)
    point = as_vector(point, "point")
    index = current_index(world)
    parts = box_candidates(index, point, point)
    inside = parts_contain_point(index, parts, point)
    return bodies_of(index, np.unique(index.part_body[parts[inside]]))


def parts_contain_point(index: QueryIndex, parts: np.ndarray, point: np.ndarray) -> np.ndarray:
    """(M,) bool: which parts (M,) contain ``point`` (2,), within the touching tolerance."""
    poses = index.poses[index.part_body[parts]]
    local = to_local(np.broadcast_to(point, (len(parts), 2)), poses)
    vertices, normals = index.parts.vertices[parts], index.parts.normals[parts]
    # Signed distance of the point outside each face: inside means <= 0 for every face.
    outside = np.einsum("mkd,mkd->mk", normals, local[:, None, :] - vertices)
    outside[padded_slots(index.parts, parts)] = -np.inf
    gap_polygon = outside.max(axis=1, initial=-np.inf)
    gap_circle = np.hypot(*(local - vertices[:, 0]).T) - index.parts.radius[parts]
    gap = np.where(index.parts.radius[parts] > 0.0, gap_circle, gap_polygon)
    tolerance = TOUCH * (np.hypot(poses[:, 0], poses[:, 1]) + np.hypot(*point) + index.reach[parts])
    return gap <= tolerance


# -- query_aabb -------------------------------------------------------------------------------
def query_aabb(world, lower, upper) -> list:
    """Bodies whose shapes overlap the box ``lower``..``upper`` (each (2,)); touching counts.

    Exact (separating axes: the box's two and each polygon's faces; circles by the distance
    from the centre to the box), not just a bounding-box test. A zero-width box is allowed.
    Returned in body order. ValueError when ``upper < lower`` on an axis.
    """
    check_world(world)
    lower, upper = as_vector(lower, "lower"), as_vector(upper, "upper")
    if np.any(upper < lower):
        raise ValueError(f"upper: must be >= lower on both axes, got {upper} < {lower}")
    index = current_index(world)
    parts = box_candidates(index, lower, upper)
    touching = parts_touch_box(index, parts, lower, upper)
    return bodies_of(index, np.unique(index.part_body[parts[touching]]))


def parts_touch_box(index: QueryIndex, parts, lower: np.ndarray, upper: np.ndarray):
    """(M,) bool: which parts (M,) overlap the axis-aligned box, within the touch tolerance."""
    poses = index.poses[index.part_body[parts]]
    centre, half = 0.5 * (lower + upper), 0.5 * (upper - lower)
    tolerance = TOUCH * (
        np.hypot(poses[:, 0], poses[:, 1])
        + np.hypot(*centre)
        + np.hypot(*half)
        + index.reach[parts]
    )
    world_vertices = rotate(index.parts.vertices[parts], poses[:, 2, None]) + poses[:, None, :2]
    polygon = _polygon_touches_box(index, parts, poses, world_vertices, centre, half, tolerance)
    circle_centre = world_vertices[:, 0]
    nearest = np.clip(circle_centre, lower, upper)
    circle_gap = np.hypot(*(circle_centre - nearest).T) - index.parts.radius[parts]
    return np.where(index.parts.radius[parts] > 0.0, circle_gap <= tolerance, polygon)


def _polygon_touches_box(index, parts, poses, world_vertices, centre, half, tolerance):
    """(M,) bool separating-axis test of convex parts against the box (centre, half)."""
    # The box's axes: the parts' own bounding boxes against the box.
    low, high = world_vertices.min(axis=1), world_vertices.max(axis=1)
    box_axes = np.all((low <= centre + half + tolerance[:, None]), axis=1) & np.all(
        high >= centre - half - tolerance[:, None], axis=1
    )
    # Each face: the box's nearest corner to the face lies at n.(c - v) - |n| . half.
    normals = rotate(index.parts.normals[parts], poses[:, 2, None])
    gap = np.einsum("mkd,mkd->mk", normals, centre - world_vertices) - np.abs(normals) @ half
    gap[padded_slots(index.parts, parts)] = -np.inf
    return box_axes & (gap.max(axis=1) <= tolerance)


# -- shape_cast -------------------------------------------------------------------------------
def shape_cast(world, shape, pose, motion, mask: int = ALL_CATEGORIES) -> ShapeHit | None:
    """The first body ``shape`` at ``pose`` (x, y, angle) meets when translated by ``motion``.

    shape: any Shape, in its own frame; pose: (3,); motion: (2,) m. Exact for translations
    (the swept separating-axis kernel). Sensors and bodies whose category shares no bit
    with ``mask`` are ignored. Returns None when nothing is hit, toi 0 when the shape
    already overlaps or touches a body. Ties in toi go to the body added first.
    """
    check_world(world)
    if not isinstance(shape, Shape):
        raise TypeError(f"shape: expected a shape, got {type(shape).__name__}")
    pose = as_pose(pose, "pose")
    motion = as_vector(motion, "motion")
    mask = check_mask(mask)
    table = shape.packed
    parts = np.arange(len(table.count))
    hit = first_impact(current_index(world), table, parts, pose, motion, cast_filter(world, mask))
    if hit is None:
        return None
    row, toi, normal, point = hit
    return ShapeHit(world._handles[row], toi, normal, point)


class Impact(NamedTuple):
    """First impact of a sweep: body row, toi in [0, 1], normal (2,) towards it, point (2,)."""

    row: int
    toi: float
    normal: np.ndarray
    point: np.ndarray


def first_impact(index: QueryIndex, table, parts_a, pose, motion, admits) -> Impact | None:
    """The earliest hit of parts ``parts_a`` (S,) of ``table`` at ``pose`` (3,) swept by
    ``motion`` (2,) over the world's parts of the bodies ``admits`` (body rows (M,) -> (M,)
    bool) lets through; None if none.
    """
    near = _cast_candidates(index, table, parts_a, pose, motion, admits)
    if len(near) == 0:
        return None
    # The narrow phase reads whole tables (slot layout, reaches): hand it only the parts
    # involved, or every cast would cost O(P).
    mover, obstacles = subset_parts(table, parts_a), subset_parts(index.parts, near)
    pair_a = np.repeat(np.arange(len(parts_a)), len(near))
    pair_b = np.tile(np.arange(len(near)), len(parts_a))
    n = len(pair_a)
    poses_b = index.poses[index.part_body[near[pair_b]]]
    # A sliding motion can shrink to a few ulps: the kernel's 1/rate then overflows to inf,
    # which it reads correctly as "never crosses".
    with np.errstate(over="ignore"):
        found = collide_parts(
            mover, pair_a, np.broadcast_to(pose, (n, 3)), obstacles, pair_b, poses_b,
            np.broadcast_to(motion, (n, 2)), 1.0,
        )  # fmt: skip
    toi = np.where(np.isnan(found.toi), np.inf, found.toi)
    best = np.lexsort((index.part_body[near[pair_b]], toi))[0]
    if not np.isfinite(toi[best]):
        return None
    at = pose.copy()
    at[:2] += toi[best] * motion
    normal, point = _contact_at(mover, pair_a[best], at, obstacles, pair_b[best], poses_b[best])
    return Impact(int(index.part_body[near[pair_b[best]]]), float(toi[best]), normal, point)


def _cast_candidates(index, table, parts_a, pose, motion, admits) -> np.ndarray:
    """World parts (M,) near the sweep of the bounding box of A's parts along ``motion``."""
    poses = np.broadcast_to(pose, (len(parts_a), 3))
    lower, upper = part_bounds(subset_parts(table, parts_a), poses)
    low, high = lower.min(axis=0), upper.max(axis=0)
    centre, half = 0.5 * (low + high), 0.5 * (high - low)
    if not motion.any():
        near = box_candidates(index, low, high)
    else:
        _, near = sweep_candidates(index, centre[None], (centre + motion)[None], half[None])
    return near[admits(index.part_body[near])]


def subset_parts(table: PackedParts, rows: np.ndarray) -> PackedParts:
    """Rows (S,) of a PackedParts as a PackedParts."""
    return PackedParts(*(field[rows] for field in table))


def _contact_at(table_a, part_a, pose_a, table_b, part_b, pose_b):
    """Normal (2,) from A to B and contact point (2,) of one part pair (a static SAT query),
    used at the time of impact, when the two just touch."""
    found = collide_parts(
        table_a, np.array([part_a]), pose_a[None], table_b, np.array([part_b]), pose_b[None],
        margin=np.inf,
    )  # fmt: skip
    separation = found.point_separation[0]
    # Of the (up to two) manifold points keep those as close as the closest: the touching ones.
    scale = 1.0 + np.abs(pose_a[:2]).max()
    keep = separation <= np.nanmin(separation) + 1e-9 * scale
    return found.normal[0], found.points[0][keep].mean(axis=0)
