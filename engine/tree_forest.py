"""Which edges of a constraint graph on the bodies form trees, and in what order an
exact solve eliminates them (``engine.tree_solve``).

The edges are joints or contact manifolds between two body rows. Bodies of zero inverse
mass and inertia (static, kinematic, the world's row) couple nothing, so an edge to one
is a leaf; for finding loops they count as one node, the ground: a component held by two
such edges (a bridge pinned at both ends, a box wedged between two walls) is a loop
through the ground, over-constrained when taut, and is left out, as is any component
whose graph has a cycle. Asked for spanning trees instead, each component keeps the
edges that join something new (the ground counted as one node) and leaves out only the
edges that close a loop: those are solved around the tree.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel


@kernel(inline=True)
def _find(root, i):
    """The representative of slot i in the union-find forest ``root`` (halving paths)."""
    while root[i] != i:
        root[i] = root[root[i]]
        i = root[i]
    return i


@kernel
def tree_forest(slot_a, slot_b, eligible, inv_mass, inv_inertia, spanning=False):
    """The edges of the trees and their elimination order.

    slot_a, slot_b (E,): each edge's bodies' rows in the (N + 1,) arrays inv_mass and
    inv_inertia (the world: the last row); eligible (E,) bool: the edges that may join a
    tree.
    Returns order (T,) int64, the tree edges in elimination order (leaves first); child
    and parent (E,) int64, the slot eliminated by each tree edge and the one it folds into
    (-1 off the trees); child_side (E,) int64: 0 when the child is slot A, 1 when B; and
    tree_of (N + 1,) int64, the tree each body is in (a slot number; -1 for none).
    spanning: keep a spanning tree of every component (in edge order, the ground one
    node) rather than leave out the components that loop.
    """
    e_count = len(slot_a)
    n = len(inv_mass)
    node = np.empty(n, dtype=np.bool_)
    for i in range(n):
        node[i] = inv_mass[i] > 0.0 or inv_inertia[i] > 0.0
    linked = np.zeros(e_count, dtype=np.bool_)
    root = np.arange(n)
    looped = np.zeros(n, dtype=np.bool_)
    for j in range(e_count):
        a, b = slot_a[j], slot_b[j]
        if not eligible[j] or not (node[a] or node[b]):
            continue
        linked[j] = True
        if node[a] and node[b]:
            ra, rb = _find(root, a), _find(root, b)
            if ra == rb:
                looped[a] = True  # moved to the component's root below
            else:
                root[max(ra, rb)] = min(ra, rb)
    cyclic = np.zeros(n, dtype=np.bool_)
    anchors = np.zeros(n, dtype=np.int64)
    for i in range(n):
        # Flattened: from here each body's entry is its component's root.
        root[i] = _find(root, i)
        if looped[i]:
            cyclic[root[i]] = True
    for j in range(e_count):
        a, b = slot_a[j], slot_b[j]
        if linked[j] and not (node[a] and node[b]):
            anchors[root[a if node[a] else b]] += 1
    tree = np.zeros(e_count, dtype=np.bool_)
    degree = np.zeros(n + 1, dtype=np.int64)
    any_tree = False
    # With the ground as node n, for spanning trees: an edge joins the tree when it joins
    # two parts not yet joined.
    spans = np.arange(n + 1)
    for j in range(e_count):
        if linked[j]:
            a, b = slot_a[j], slot_b[j]
            if spanning:
                ra = _find(spans, a if node[a] else n)
                rb = _find(spans, b if node[b] else n)
                tree[j] = ra != rb
                spans[max(ra, rb)] = min(ra, rb)
            else:
                r = root[a if node[a] else b]
                tree[j] = not cyclic[r] and anchors[r] <= 1
            any_tree = any_tree or tree[j]
            if tree[j] and node[a] and node[b]:
                degree[a + 1] += 1
                degree[b + 1] += 1
    if not any_tree:
        # Every component loops (a pile, a pyramid): no tree, and nothing more to find.
        none = np.full(e_count, -1, dtype=np.int64)
        return (np.empty(0, dtype=np.int64), none, none.copy(), np.zeros(e_count, np.int64),
                np.full(n, -1, dtype=np.int64))  # fmt: skip
    # Adjacency of the bodies over the tree edges, compressed rows.
    start = np.cumsum(degree)
    fill = start[:-1].copy()
    adjacent = np.empty(start[-1], dtype=np.int64)
    for j in range(e_count):
        a, b = slot_a[j], slot_b[j]
        if tree[j] and node[a] and node[b]:
            adjacent[fill[a]] = j
            fill[a] += 1
            adjacent[fill[b]] = j
            fill[b] += 1
    child = np.full(e_count, -1, dtype=np.int64)
    parent = np.full(e_count, -1, dtype=np.int64)
    child_side = np.zeros(e_count, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    leaves = np.empty(e_count, dtype=np.int64)
    found = np.empty(e_count, dtype=np.int64)
    leaf_count = found_count = 0
    # Anchored components grow from their anchored body, the rest from their first body.
    for sweep in range(2):
        for j in range(e_count):
            if not tree[j]:
                continue
            a, b = slot_a[j], slot_b[j]
            anchored = not (node[a] and node[b])
            if anchored != (sweep == 0):
                continue
            if anchored:
                # The ground side is the child: its W is zero, it folds in a pin.
                child_side[j] = 0 if node[b] else 1
                child[j], parent[j] = (a, b) if node[b] else (b, a)
                leaves[leaf_count] = j
                leaf_count += 1
            body = parent[j] if anchored else a
            if seen[body]:
                continue
            seen[body] = True
            queue[0] = body
            head, tail = 0, 1
            while head < tail:
                here = queue[head]
                head += 1
                for k in range(start[here], start[here + 1]):
                    edge = adjacent[k]
                    there = slot_a[edge] + slot_b[edge] - here
                    if seen[there]:
                        continue
                    seen[there] = True
                    queue[tail] = there
                    tail += 1
                    child[edge], parent[edge] = there, here
                    child_side[edge] = 0 if slot_a[edge] == there else 1
                    found[found_count] = edge
                    found_count += 1
    tree_of = np.full(n, -1, dtype=np.int64)
    for j in range(e_count):
        if tree[j]:
            for body in (slot_a[j], slot_b[j]):
                if node[body]:
                    tree_of[body] = root[body]
    order = np.empty(leaf_count + found_count, dtype=np.int64)
    order[:leaf_count] = leaves[:leaf_count]
    for k in range(found_count):
        order[leaf_count + k] = found[found_count - 1 - k]
    return order, child, parent, child_side, tree_of
