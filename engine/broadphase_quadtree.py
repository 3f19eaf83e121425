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
the deeper one's ancestor on that level. Pairs are found level by level in a compiled
loop: each level's boxes sorted by node key, each box's neighbours found by binary search.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .box_pairs import as_boxes, boxes_overlap, canonical_pairs, empty_pairs, grown
from .jit import kernel
from .sorting import argsort_keys, median

# Leaf coordinates have at most this many bits.
MAX_DEPTH_LIMIT = 30
# Node keys pack (row, column) with one spare bit, so that column - 1 and column + 1 of
# any node still fall inside its row's key range.
KEY_BITS = MAX_DEPTH_LIMIT + 1


def check_max_depth(max_depth) -> int:
    """``max_depth`` as an int; ValueError if it is not an integer in ``[0, 30]``."""
    try:
        value = operator.index(max_depth)
    except TypeError as error:
        raise ValueError(f"max_depth must be an integer, got {max_depth!r}") from error
    if not 0 <= value <= MAX_DEPTH_LIMIT:
        raise ValueError(f"max_depth must be between 0 and {MAX_DEPTH_LIMIT}, got {value}")
    return value


@kernel
def choose_max_depth(lower, upper, side):
    """The leaf depth that makes leaves about half the typical box size: (N, 2) corners,
    N >= 1, and the root square's side.

    Boxes settle at the level matching their size whatever the leaf depth; the leaves only
    need to be fine enough for points and small boxes not to crowd into one node.
    """
    n = len(lower)
    extent = np.empty(n)
    positive = 0
    for i in range(n):
        size = max(upper[i, 0] - lower[i, 0], upper[i, 1] - lower[i, 1])
        if size > 0.0:
            extent[positive] = size
            positive += 1
    # With only points, aim for about one point per leaf.
    typical = median(extent[:positive]) if positive else side / math.sqrt(n)
    depth = int(math.ceil(math.log2(side / typical))) + 1 if typical > 0.0 else 0
    return min(max(depth, 0), MAX_DEPTH_LIMIT)


@kernel
def _root(lower, upper):
    """The root square: its lower-left corner (x, y) and its side."""
    ox, oy = lower[:, 0].min(), lower[:, 1].min()
    side = max(upper[:, 0].max() - ox, upper[:, 1].max() - oy)
    return ox, oy, (side if side > 0.0 else 1.0)


def quadtree_pairs(lower, upper, max_depth: int | None = None) -> np.ndarray:
    """All overlapping box pairs, found with a loose quadtree.

    lower, upper: ``(N, 2) float64`` corners; max_depth: leaf depth in ``[0, 30]``, None to
    choose it from the box sizes. Returns ``(M, 2) int64`` pairs ``(i, j)``, ``i < j``,
    sorted. Raises ValueError for invalid boxes or max_depth.
    """
    lower, upper = as_boxes(lower, upper)
    max_depth = None if max_depth is None else check_max_depth(max_depth)
    return quadtree_pairs_checked(lower, upper, max_depth)


def quadtree_pairs_checked(lower: np.ndarray, upper: np.ndarray, max_depth: int | None):
    """``quadtree_pairs`` for corners already checked: C-contiguous finite (N, 2) float64."""
    if len(lower) < 2:
        return empty_pairs()
    return quadtree_kernel(lower, upper, -1 if max_depth is None else max_depth)


@kernel
def quadtree_kernel(lower, upper, max_depth):
    """Canonical overlapping pairs (M, 2) of N >= 2 boxes, (N, 2) corners; max_depth < 0
    chooses the leaf depth from the box sizes."""
    ox, oy, side = _root(lower, upper)
    if max_depth < 0:
        max_depth = choose_max_depth(lower, upper, side)
    depth, leaf = _layout(lower, upper, ox, oy, side, max_depth)
    return _pairs_kernel(lower, upper, depth, leaf, max_depth)


def quadtree_nodes(lower, upper, max_depth: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The quadtree nodes that hold at least one box, for drawing: (K, 2) lower and upper
    corners, ordered by depth then node. Being loose, a node holds boxes that may reach up
    to one node side beyond its upper edges."""
    lower, upper = as_boxes(lower, upper)
    max_depth = None if max_depth is None else check_max_depth(max_depth)
    if len(lower) == 0:
        return np.empty((0, 2)), np.empty((0, 2))
    ox, oy, side = _root(lower, upper)
    if max_depth is None:
        max_depth = choose_max_depth(lower, upper, side)
    depth, leaf = _layout(lower, upper, ox, oy, side, max_depth)
    origin = np.array([ox, oy])
    shift = max_depth - depth
    # A node is identified by its depth and its coordinates on that level.
    nodes = np.stack([depth, leaf[:, 0] >> shift, leaf[:, 1] >> shift], axis=1)
    depth, column, row = np.unique(nodes, axis=0).T
    node_side = side / 2.0**depth
    node_lower = origin + np.stack([column, row], axis=1) * node_side[:, None]
    return node_lower, node_lower + node_side[:, None]


@kernel
def _layout(lower, upper, ox, oy, side, max_depth):
    """Depth (N,) int64 of each box's node and leaf coordinates (N, 2) int64 of its lower
    corner; its node's column at depth d is ``leaf[:, 0] >> (max_depth - d)``."""
    n = len(lower)
    leaf_size = side / 2.0**max_depth
    last_leaf = 2**max_depth - 1
    depth = np.empty(n, dtype=np.int64)
    leaf = np.empty((n, 2), dtype=np.int64)
    for i in range(n):
        # Clipping keeps the map monotone, which is all correctness needs; it only moves
        # the far edge (origin + side) into the last leaf.
        lo_x = _leaf(lower[i, 0], ox, leaf_size, last_leaf)
        lo_y = _leaf(lower[i, 1], oy, leaf_size, last_leaf)
        hi_x = _leaf(upper[i, 0], ox, leaf_size, last_leaf)
        hi_y = _leaf(upper[i, 1], oy, leaf_size, last_leaf)
        # Coarsening by `shift` bits, a box spans at most two nodes per axis once 2**shift
        # exceeds its width in leaves; one bit less works too if its corners land in
        # neighbouring nodes there. Nothing finer can work, so try just those two.
        widest = max(hi_x - lo_x, hi_y - lo_y)
        shift = 0
        while (widest >> shift) > 0:
            shift += 1
        finer = max(shift - 1, 0)
        if (hi_x >> finer) - (lo_x >> finer) <= 1 and (hi_y >> finer) - (lo_y >> finer) <= 1:
            shift = finer
        depth[i] = max_depth - shift
        leaf[i, 0], leaf[i, 1] = lo_x, lo_y
    return depth, leaf


@kernel(inline=True)
def _leaf(position, origin, leaf_size, last_leaf):
    scaled = np.floor((position - origin) / leaf_size)
    return int(min(max(scaled, 0.0), float(last_leaf)))


@kernel
def _pairs_kernel(lower, upper, depth, leaf, max_depth):
    """Canonical overlapping pairs (M, 2), level by level.

    On a box's own level it looks forward only (later boxes of its node, the node to its
    right, the row above) so that each pair is listed once; deeper boxes look at the 3 x 3
    nodes around their ancestor on the level.
    """
    n = len(depth)
    by_depth = argsort_keys(depth)
    buffer = np.empty((2 * n + 16, 2), dtype=np.int64)
    count = np.int64(0)  # not a literal 0: the calls below compile once
    first = 0
    while first < n:
        level = depth[by_depth[first]]
        last = first
        while last < n and depth[by_depth[last]] == level:
            last += 1
        shift = max_depth - level
        members = by_depth[first:last]
        keys = np.empty(len(members), dtype=np.int64)
        for k in range(len(members)):
            box = members[k]
            keys[k] = ((leaf[box, 1] >> shift) << KEY_BITS) + (leaf[box, 0] >> shift)
        order = argsort_keys(keys)
        keys = keys[order]
        members = members[order]
        # The buffer is not reassigned inside the level's loops (that costs reference
        # counting on every iteration): when it fills, the level is paired again into a
        # buffer twice as large.
        while True:
            added = _level_pairs(
                lower, upper, leaf, shift, keys, members, by_depth[last:], buffer, count
            )
            if added >= 0:
                count = added
                break
            buffer = grown(buffer, count)
        first = last
    return canonical_pairs(buffer, count, n)


@kernel
def _level_pairs(lower, upper, leaf, shift, keys, members, deeper, buffer, count):
    """Write one level's pairs after row ``count`` of ``buffer``; the new count, or -1 if
    they do not fit. keys, members: the level's node keys, sorted, and boxes; deeper: the
    boxes of deeper levels."""
    for k in range(len(members)):
        a = members[k]
        column = leaf[a, 0] >> shift
        row = leaf[a, 1] >> shift
        # The rest of my node and the node to my right, then the row above.
        stop = np.searchsorted(keys, keys[k] + 1, side="right")
        count = _strip(lower, upper, members, a, k + 1, stop, buffer, count)
        start, stop = _strip_range(keys, column, row + 1)
        count = _strip(lower, upper, members, a, start, stop, buffer, count)
        if count < 0:
            return -1
    for k in range(len(deeper)):
        a = deeper[k]
        column = leaf[a, 0] >> shift
        row = leaf[a, 1] >> shift
        for step in range(-1, 2):
            start, stop = _strip_range(keys, column, row + step)
            count = _strip(lower, upper, members, a, start, stop, buffer, count)
        if count < 0:
            return -1
    return count


@kernel(inline=True)
def _strip_range(keys, column, row):
    """Where the nodes (column - 1 .. column + 1, row) are in a level's sorted keys."""
    base = (row << KEY_BITS) + column
    return np.searchsorted(keys, base - 1, side="left"), np.searchsorted(
        keys, base + 1, side="right"
    )


@kernel(inline=True)
def _strip(lower, upper, members, a, start, stop, buffer, count):
    """Pair box ``a`` with members[start:stop] into ``buffer`` after row ``count``; returns
    the new count, or -1 (and stays -1) once the buffer is full."""
    if count < 0:
        return count
    for q in range(start, stop):
        b = members[q]
        if boxes_overlap(lower, upper, a, b):
            if count == len(buffer):
                return -1
            buffer[count, 0], buffer[count, 1] = a, b
            count += 1
    return count
