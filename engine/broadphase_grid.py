"""Uniform-grid broad phase (a spatial hash keyed by integer cell coordinates).

Each box is inserted into every grid cell it covers; boxes sharing a cell are candidate
pairs. Cells are keyed by one int64 per cell and grouped by sorting the keys, so the
whole pass is a handful of numpy sorts, searches, gathers and comparisons.

Two boxes that overlap share several cells when their intersection spans several. Each
pair is listed only in the cell holding the lower-left corner of the two boxes'
intersection, and that rule is applied before pairs are generated (see
:func:`partner_ranges`), so no duplicate is ever built.

Boxes covering many cells (a huge wall, or every box when the cells are tiny) would blow
up the number of cell entries. They are left out of the grid and instead paired by a
sweep against all boxes (see :func:`large_box_pairs`), so memory stays proportional to
the boxes and their candidate pairs, not to the area they cover.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.broadphase import (
    BoxColumns,
    as_boxes,
    box_columns,
    boxes_overlap,
    canonical_pairs,
    empty_pairs,
    expand_ranges,
)

# A box covering more cells than this is paired by the sweep instead of the grid.
MAX_CELLS_PER_BOX = 16
# Cell coordinates stay below 2**30: (column, row, entry class) packs into one int64.
AXIS_BITS = 30
AXIS_LIMIT = 2**AXIS_BITS - 1
CLASS_BITS = 2
# The automatic cell size never makes the scene wider than this many cells.
MAX_AUTO_CELLS_PER_AXIS = 2**20
# Automatic cell side as a multiple of the median box extent.
CELL_SIZE_FACTOR = 1.5

# Entry classes, in their order within a cell, by whether the entry's box has its lower
# corner in this cell's column (x) and row (y): neither, x only, both, y only.
NEITHER, X_ONLY, BOTH, Y_ONLY = 0, 1, 2, 3
ENTRY_CLASS = np.array([[NEITHER, Y_ONLY], [X_ONLY, BOTH]])  # [starts on x, starts on y]


class GridLayout(NamedTuple):
    """Where each box sits in the grid.

    Attributes:
        cell_size: side of a square cell.
        origin: ``(2,) float64`` world position of the corner of cell ``(0, 0)``.
        large: ``(N,) bool`` boxes left out of the grid (too many cells).
        entry_key: ``(E,) int64`` one per (box, covered cell): the packed cell, then the
            entry class (see :data:`ENTRY_CLASS`) in the low bits.
        entry_box: ``(E,) int64`` box index of each entry.
    """

    cell_size: float
    origin: np.ndarray
    large: np.ndarray
    entry_key: np.ndarray
    entry_box: np.ndarray


def check_cell_size(cell_size) -> float:
    """Return ``cell_size`` as a float, or raise ValueError if it is not positive and finite."""
    try:
        value = float(cell_size)
    except (TypeError, ValueError) as error:
        raise ValueError(f"cell_size must be a number, got {cell_size!r}") from error
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"cell_size must be positive and finite, got {cell_size!r}")
    return value


def choose_cell_size(boxes: BoxColumns) -> float:
    """Pick a cell side from the box sizes.

    A cell a bit larger than the typical box keeps most boxes in 1 to 4 cells. Zero-size
    boxes are ignored when taking the median; if every box is a point, the mean spacing
    of the scene is used instead.

    Args:
        boxes: the corners of ``N >= 1`` boxes.

    Returns:
        A positive, finite cell side.
    """
    extent = np.maximum(boxes.max_x - boxes.min_x, boxes.max_y - boxes.min_y)
    positive = extent[extent > 0.0]
    scene = max(boxes.max_x.max() - boxes.min_x.min(), boxes.max_y.max() - boxes.min_y.min())
    if len(positive):
        size = CELL_SIZE_FACTOR * float(np.median(positive))
    else:
        size = scene / np.sqrt(len(extent))
    # Too fine a grid over a wide scene would overflow the cell coordinates.
    size = max(size, scene / MAX_AUTO_CELLS_PER_AXIS)
    return float(size) if size > 0.0 else 1.0


def grid_layout(boxes: BoxColumns, cell_size: float) -> GridLayout:
    """Assign boxes to cells and list one entry per (box, covered cell).

    Cell coordinates are taken relative to the lowest corner of the scene, so scenes far
    from the origin still get small integer coordinates. Only monotonicity of the
    position-to-cell map matters for correctness: overlapping boxes always share a cell.

    Args:
        boxes: the corners of ``N >= 1`` boxes.
        cell_size: positive cell side.

    Returns:
        The :class:`GridLayout`.
    """
    origin = np.array([boxes.min_x.min(), boxes.min_y.min()])
    lo_x = np.floor((boxes.min_x - origin[0]) / cell_size)
    lo_y = np.floor((boxes.min_y - origin[1]) / cell_size)
    hi_x = np.floor((boxes.max_x - origin[0]) / cell_size)
    hi_y = np.floor((boxes.max_y - origin[1]) / cell_size)
    # Counted in float64: a huge box may cover more cells than int64 can hold.
    covered = (hi_x - lo_x + 1.0) * (hi_y - lo_y + 1.0)
    large = (covered > MAX_CELLS_PER_BOX) | (hi_x > AXIS_LIMIT) | (hi_y > AXIS_LIMIT)

    in_grid = np.flatnonzero(~large)
    span_x = (hi_x[in_grid] - lo_x[in_grid]).astype(np.int64) + 1
    span_y = (hi_y[in_grid] - lo_y[in_grid]).astype(np.int64) + 1
    owner, slot = expand_ranges(np.zeros(len(in_grid), np.int64), span_x * span_y)
    # Walk each box's covered block row by row: slot -> (row, column) offsets.
    row, column = np.divmod(slot, span_x[owner])
    entry_box = in_grid[owner]
    cell_x = lo_x[entry_box].astype(np.int64) + column
    cell_y = lo_y[entry_box].astype(np.int64) + row
    starts_x = (column == 0).astype(np.intp)
    starts_y = (row == 0).astype(np.intp)
    entry_class = ENTRY_CLASS[starts_x, starts_y]
    entry_key = (((cell_x << AXIS_BITS) | cell_y) << CLASS_BITS) | entry_class
    return GridLayout(cell_size, origin, large, entry_key, entry_box)


def partner_ranges(sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each sorted entry, the run of later entries it forms a pair with.

    A pair is listed in the cell holding the lower-left corner of the two boxes'
    intersection, which is the larger of their lower-corner cells on each axis. So it
    belongs to this cell when, on each axis, at least one of the two boxes starts here.
    With entries ordered by class within the cell, each entry's partners are contiguous:
    NEITHER pairs with BOTH; X_ONLY with BOTH and Y_ONLY; BOTH with the BOTH after it and
    Y_ONLY; Y_ONLY with nothing further.

    Args:
        sorted_keys: ``(E,) int64`` sorted entry keys from :func:`grid_layout`.

    Returns:
        ``(start, stop)``, each ``(E,) int64``: entry ``p`` pairs with entries
        ``start[p]`` to ``stop[p] - 1``.
    """
    entry_class = sorted_keys & (2**CLASS_BITS - 1)
    cell = sorted_keys >> CLASS_BITS
    # Runs of equal cells: where each starts and ends, and which run each entry is in.
    new_cell = np.ones(len(cell), dtype=bool)
    new_cell[1:] = cell[1:] != cell[:-1]
    cell_start = np.flatnonzero(new_cell)
    cell_end = np.append(cell_start[1:], len(cell))
    run = np.cumsum(new_cell) - 1
    # Class boundaries inside each cell, from per-cell class counts.
    both_start = cell_start + np.bincount(run, entry_class < BOTH).astype(np.int64)
    y_only_start = cell_end - np.bincount(run, entry_class == Y_ONLY).astype(np.int64)

    after_self = np.arange(1, len(sorted_keys) + 1)
    start = np.where(entry_class == BOTH, after_self, both_start[run])
    stop = np.where(entry_class == NEITHER, y_only_start[run], cell_end[run])
    stop = np.where(entry_class == Y_ONLY, start, stop)
    return start, stop


def sweep_ranges(
    low: np.ndarray, high: np.ndarray, large: np.ndarray, big: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Plan a sweep of the ``big`` boxes against all boxes along one axis.

    Boxes are sorted by their low coordinate. A box ``b`` not in ``large`` that overlaps
    a large box ``a`` on this axis starts no further back than ``a``'s low coordinate
    minus the longest such box, so its candidates are one contiguous run of that order.

    Args:
        low: ``(N,) float64`` lower coordinate of every box on the axis.
        high: ``(N,) float64`` upper coordinate of every box on the axis.
        large: ``(N,) bool`` boxes paired by the sweep.
        big: ``(L,) int64`` indices of the ``large`` boxes.

    Returns:
        ``(order, start, stop)``: ``(N,) int64`` boxes sorted by ``low``, and ``(L,) int64``
        ranges into it; big box ``k``'s candidates are ``order[start[k]:stop[k]]``.
    """
    order = np.argsort(low)
    sorted_low = low[order]
    reach = float((high - low)[~large].max(initial=0.0))
    # Pad the reach generously so rounding never cuts off a touching box; the exact
    # overlap test discards the few extra candidates.
    big_low = low[big]
    start = np.searchsorted(sorted_low, big_low - reach - 1e-12 * (np.abs(big_low) + reach))
    stop = np.searchsorted(sorted_low, high[big], side="right")
    return order, start, stop


def large_box_pairs(boxes: BoxColumns, large: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Find every overlapping pair that involves at least one ``large`` box.

    Sweeps along x or y, whichever gives fewer candidates (counting them is cheap, and
    it avoids the quadratic case of boxes stacked along one axis). A pair of two large
    boxes is kept only from the one that comes first in the sweep order, so each pair
    appears once.

    Args:
        boxes: the corners of all ``N`` boxes.
        large: ``(N,) bool`` boxes to pair against all boxes.

    Returns:
        ``(a, b)``, each ``(P,) int64``: distinct overlapping pairs, unordered within a pair.
    """
    big = np.flatnonzero(large)
    if len(big) == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    plans = [
        sweep_ranges(boxes.min_x, boxes.max_x, large, big),
        sweep_ranges(boxes.min_y, boxes.max_y, large, big),
    ]
    order, start, stop = min(plans, key=lambda plan: int((plan[2] - plan[1]).sum()))
    owner, position = expand_ranges(start, stop)
    a = big[owner]
    b = order[position]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    keep = (~large[b] | (position > rank[a])) & boxes_overlap(boxes, a, b)
    return a[keep], b[keep]


def grid_pairs(lower, upper, cell_size: float | None = None) -> np.ndarray:
    """Find all overlapping box pairs with a uniform grid.

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.
        cell_size: cell side; None chooses one from the box sizes.

    Returns:
        ``(M, 2) int64`` overlapping pairs ``(i, j)``, ``i < j``, sorted lexicographically.

    Raises:
        ValueError: for invalid boxes or a cell_size that is not positive and finite.
    """
    lower, upper = as_boxes(lower, upper)
    cell_size = None if cell_size is None else check_cell_size(cell_size)
    count = len(lower)
    if count < 2:
        return empty_pairs()
    boxes = box_columns(lower, upper)
    layout = grid_layout(boxes, choose_cell_size(boxes) if cell_size is None else cell_size)

    order = np.argsort(layout.entry_key)
    start, stop = partner_ranges(layout.entry_key[order])
    first, second = expand_ranges(start, stop)
    sorted_box = layout.entry_box[order]
    a, b = sorted_box[first], sorted_box[second]
    keep = boxes_overlap(boxes, a, b)

    big_a, big_b = large_box_pairs(boxes, layout.large)
    return canonical_pairs(
        np.concatenate([a[keep], big_a]), np.concatenate([b[keep], big_b]), count
    )


def grid_cells(lower, upper, cell_size: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return the occupied grid cells as boxes, for drawing.

    Boxes that cover too many cells are not stored in the grid (they are paired by a
    sweep), so the cells they alone cover are not listed.

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.
        cell_size: cell side; None chooses one as :func:`grid_pairs` does.

    Returns:
        ``(cell_lower, cell_upper)``, each ``(K, 2) float64``, one row per occupied cell.

    Raises:
        ValueError: for invalid boxes or a cell_size that is not positive and finite.
    """
    lower, upper = as_boxes(lower, upper)
    cell_size = None if cell_size is None else check_cell_size(cell_size)
    if len(lower) == 0:
        return np.empty((0, 2)), np.empty((0, 2))
    boxes = box_columns(lower, upper)
    layout = grid_layout(boxes, choose_cell_size(boxes) if cell_size is None else cell_size)
    keys = np.unique(layout.entry_key >> CLASS_BITS)
    cells = np.stack([keys >> AXIS_BITS, keys & AXIS_LIMIT], axis=1)
    cell_lower = layout.origin + cells * layout.cell_size
    return cell_lower, cell_lower + layout.cell_size
