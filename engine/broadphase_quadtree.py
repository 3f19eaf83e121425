"""Loose quadtree broad phase built from arrays, with no per-node objects.

The scene's bounding square is split ``max_depth`` times. Positions map to integer leaf
coordinates in ``[0, 2**max_depth)``; the node above a leaf at depth ``d`` is the leaf
coordinate shifted right by ``max_depth - d``.

The tree is loose by a factor of two: a node of side ``s`` holds boxes whose lower corner
lies in it and which reach at most into the next node up and to the right, i.e. which fit
in the square of side ``2 s`` anchored at the node. Each box goes to the deepest node
that holds it, found with bit arithmetic on the leaf coordinates of its two corners.
(A strict quadtree would leave every box lying across a node's centre lines at that
node, however small, and pair it with the node's whole subtree.)

A box covers at most two nodes per axis on its own level, and on any coarser level too,
so two boxes can only overlap when the node of the shallower one is within one step of
the deeper one's ancestor on that level. Candidates are found level by level, joining
each box with those 3 x 3 nodes by sort and searchsorted.
"""

from __future__ import annotations

import operator
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

# Leaf coordinates have at most this many bits.
MAX_DEPTH_LIMIT = 30
# Node keys pack (row, column) with one spare bit, so that column - 1 and column + 1 of
# any node still fall inside its row's key range.
KEY_BITS = MAX_DEPTH_LIMIT + 1


class TreeLayout(NamedTuple):
    """Where each box sits in the quadtree.

    Attributes:
        origin: ``(2,) float64`` lower-left corner of the root square.
        side: side of the root square.
        max_depth: depth of the leaves (the root is depth 0).
        depth: ``(N,) int64`` depth of each box's node.
        leaf_x: ``(N,) int64`` leaf column of each box's lower corner; the box's node
            column at depth ``d`` is ``leaf_x >> (max_depth - d)``.
        leaf_y: ``(N,) int64`` leaf row of each box's lower corner, likewise.
    """

    origin: np.ndarray
    side: float
    max_depth: int
    depth: np.ndarray
    leaf_x: np.ndarray
    leaf_y: np.ndarray


def check_max_depth(max_depth) -> int:
    """Return ``max_depth`` as an int, or raise ValueError if outside ``[0, 30]``."""
    try:
        value = operator.index(max_depth)
    except TypeError as error:
        raise ValueError(f"max_depth must be an integer, got {max_depth!r}") from error
    if not 0 <= value <= MAX_DEPTH_LIMIT:
        raise ValueError(f"max_depth must be between 0 and {MAX_DEPTH_LIMIT}, got {value}")
    return value


def choose_max_depth(boxes: BoxColumns, side: float) -> int:
    """Pick the leaf depth so that leaves are about half the typical box size.

    Boxes settle at the level matching their size whatever the leaf depth; the leaves
    only need to be fine enough for points and small boxes not to crowd into one node.

    Args:
        boxes: the corners of ``N >= 1`` boxes.
        side: side of the root square, positive.

    Returns:
        A depth in ``[0, 30]``.
    """
    extent = np.maximum(boxes.max_x - boxes.min_x, boxes.max_y - boxes.min_y)
    positive = extent[extent > 0.0]
    # With only points, aim for about one point per leaf.
    typical = float(np.median(positive)) if len(positive) else side / np.sqrt(len(extent))
    depth = int(np.ceil(np.log2(side / typical))) + 1 if typical > 0.0 else 0
    return int(np.clip(depth, 0, MAX_DEPTH_LIMIT))


def bit_length(values: np.ndarray) -> np.ndarray:
    """Bits needed for each value: ``(K,) int64`` in ``[0, 2**52)`` to ``(K,) int64``."""
    # frexp's exponent is exactly the bit length for integers float64 represents exactly.
    return np.frexp(values.astype(np.float64))[1].astype(np.int64)


def tree_layout(boxes: BoxColumns, max_depth: int | None) -> TreeLayout:
    """Place every box in the deepest loose quadtree node that holds it.

    Args:
        boxes: the corners of ``N >= 1`` boxes.
        max_depth: leaf depth, or None to choose it from the box sizes.

    Returns:
        The :class:`TreeLayout`.
    """
    origin = np.array([boxes.min_x.min(), boxes.min_y.min()])
    side = float(max(boxes.max_x.max() - origin[0], boxes.max_y.max() - origin[1]))
    side = side if side > 0.0 else 1.0
    if max_depth is None:
        max_depth = choose_max_depth(boxes, side)
    leaf_size = side / 2.0**max_depth
    last_leaf = 2**max_depth - 1

    def leaf(position: np.ndarray, axis: int) -> np.ndarray:
        # Clipping keeps the map monotone, which is all correctness needs; it only moves
        # the far edge (origin + side) into the last leaf.
        scaled = np.floor((position - origin[axis]) / leaf_size)
        return np.clip(scaled, 0, last_leaf).astype(np.int64)

    lo_x, lo_y = leaf(boxes.min_x, 0), leaf(boxes.min_y, 1)
    hi_x, hi_y = leaf(boxes.max_x, 0), leaf(boxes.max_y, 1)
    # Coarsening by `shift` bits, a box spans at most two nodes per axis once 2**shift
    # exceeds its width in leaves; one bit less works too if its corners land in
    # neighbouring nodes there. Nothing finer can work, so try just those two.
    shift = bit_length(np.maximum(hi_x - lo_x, hi_y - lo_y))
    finer = np.maximum(shift - 1, 0)
    fits_finer = ((hi_x >> finer) - (lo_x >> finer) <= 1) & ((hi_y >> finer) - (lo_y >> finer) <= 1)
    shift = np.where(fits_finer, finer, shift)
    return TreeLayout(origin, side, max_depth, max_depth - shift, lo_x, lo_y)


def node_keys(column: np.ndarray, row: np.ndarray) -> np.ndarray:
    """Pack ``(K,) int64`` node columns and rows into ``(K,) int64`` keys.

    Keys sort row by row, so the nodes of one row within a column range form one
    contiguous run of a sorted key array.
    """
    return (row << KEY_BITS) + column


def strip_ranges(
    keys: np.ndarray, column: np.ndarray, row: np.ndarray, columns: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``keys`` of the nodes in one row between two column offsets.

    Args:
        keys: ``(M,) int64`` sorted node keys of one level.
        column: ``(K,) int64`` query node columns on the same level.
        row: ``(K,) int64`` row to search for each query.
        columns: first and last column offset of the strip, e.g. ``(-1, 1)``.

    Returns:
        ``(start, stop)``, each ``(K,) int64``: the strip is ``keys[start:stop]``.
    """
    row_key = node_keys(column, row)
    start = np.searchsorted(keys, row_key + columns[0], side="left")
    stop = np.searchsorted(keys, row_key + columns[1], side="right")
    return start, stop


def candidate_pairs(layout: TreeLayout) -> tuple[np.ndarray, np.ndarray]:
    """List every pair of boxes whose nodes are neighbours on the shallower one's level.

    Loops over the occupied levels (at most ``max_depth + 1``), never over boxes. On a
    box's own level it looks forward only (later boxes of its node, the node to its
    right, the row above) so that each pair is listed once.

    Args:
        layout: the boxes' placement from :func:`tree_layout`.

    Returns:
        ``(a, b)``, each ``(P,) int64``: distinct candidate pairs, unordered within a pair.
    """
    count = len(layout.depth)
    by_depth = np.argsort(layout.depth, kind="stable")
    depth_sorted = layout.depth[by_depth]
    levels = np.unique(depth_sorted)
    level_starts = np.searchsorted(depth_sorted, levels, side="left")
    level_stops = np.append(level_starts[1:], count)

    # Per level, box ids sorted by node key go into `stored`; ranges index into it.
    stored = np.empty(count, dtype=np.int64)
    owners, starts, stops = [], [], []
    for level, first, last in zip(levels.tolist(), level_starts, level_stops, strict=True):
        shift = layout.max_depth - level
        members = by_depth[first:last]
        column = layout.leaf_x[members] >> shift
        row = layout.leaf_y[members] >> shift
        keys = node_keys(column, row)
        order = np.argsort(keys)
        keys, members, column, row = keys[order], members[order], column[order], row[order]
        stored[first:last] = members

        # Same level: the rest of my node and the node to my right, then the row above.
        right = np.searchsorted(keys, keys + 1, side="right")
        above_start, above_stop = strip_ranges(keys, column, row + 1, (-1, 1))
        owners += [members, members]
        starts += [np.arange(first + 1, last + 1), above_start + first]
        stops += [right + first, above_stop + first]

        # Deeper boxes: the 3 x 3 nodes around their ancestor on this level. Queries in
        # key order make searchsorted several times faster (cache and branch friendly).
        deeper = by_depth[last:]
        column = layout.leaf_x[deeper] >> shift
        row = layout.leaf_y[deeper] >> shift
        order = np.argsort(node_keys(column, row))
        deeper, column, row = deeper[order], column[order], row[order]
        for row_step in (-1, 0, 1):
            start, stop = strip_ranges(keys, column, row + row_step, (-1, 1))
            owners.append(deeper)
            starts.append(start + first)
            stops.append(stop + first)

    owner, position = expand_ranges(np.concatenate(starts), np.concatenate(stops))
    return np.concatenate(owners)[owner], stored[position]


def quadtree_pairs(lower, upper, max_depth: int | None = None) -> np.ndarray:
    """Find all overlapping box pairs with a loose quadtree.

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.
        max_depth: leaf depth in ``[0, 30]``; None chooses it from the box sizes.

    Returns:
        ``(M, 2) int64`` overlapping pairs ``(i, j)``, ``i < j``, sorted lexicographically.

    Raises:
        ValueError: for invalid boxes or max_depth.
    """
    lower, upper = as_boxes(lower, upper)
    max_depth = None if max_depth is None else check_max_depth(max_depth)
    if len(lower) < 2:
        return empty_pairs()
    boxes = box_columns(lower, upper)
    a, b = candidate_pairs(tree_layout(boxes, max_depth))
    keep = boxes_overlap(boxes, a, b)
    return canonical_pairs(a[keep], b[keep], len(lower))


def quadtree_nodes(lower, upper, max_depth: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return the quadtree nodes that hold at least one box, for drawing.

    The squares returned are the nodes themselves; being loose, a node holds boxes that
    may reach up to one node side beyond its upper edges.

    Args:
        lower: ``(N, 2) float64`` minimum corners.
        upper: ``(N, 2) float64`` maximum corners.
        max_depth: leaf depth in ``[0, 30]``; None chooses it as :func:`quadtree_pairs` does.

    Returns:
        ``(node_lower, node_upper)``, each ``(K, 2) float64``, one row per occupied node,
        ordered by depth then node.

    Raises:
        ValueError: for invalid boxes or max_depth.
    """
    lower, upper = as_boxes(lower, upper)
    max_depth = None if max_depth is None else check_max_depth(max_depth)
    if len(lower) == 0:
        return np.empty((0, 2)), np.empty((0, 2))
    layout = tree_layout(box_columns(lower, upper), max_depth)
    shift = layout.max_depth - layout.depth
    # A node is identified by its depth and its coordinates on that level.
    nodes = np.stack([layout.depth, layout.leaf_x >> shift, layout.leaf_y >> shift], axis=1)
    depth, column, row = np.unique(nodes, axis=0).T
    node_side = layout.side / 2.0**depth
    node_lower = layout.origin + np.stack([column, row], axis=1) * node_side[:, None]
    return node_lower, node_lower + node_side[:, None]
