"""Islands: connected components of the contact and joint graph, by union-find.

Bodies are nodes; a touching manifold or a joint between two dynamic bodies is an edge
(static and kinematic bodies do not join islands: a pile on the ground is not one island
with everything else on the ground). Union-find with path halving links each edge's two
roots, the smaller index becoming the root, so every component is labelled by its
smallest node.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel


def components(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(count,) int64 label of each node's component: the smallest node index in it.

    a, b: (E,) int64 edges.
    """
    a = np.ascontiguousarray(a, dtype=np.int64)
    b = np.ascontiguousarray(b, dtype=np.int64)
    return union_find(count, a, b, np.ones(len(a), dtype=np.bool_))


@kernel(inline=True)
def _root(parent, node):
    while parent[node] != node:
        parent[node] = parent[parent[node]]  # path halving
        node = parent[node]
    return node


@kernel
def union_find(count, a, b, linked):
    """Labels (count,) int64 of the components of the edges (a, b) (E,) with ``linked``
    (E,) set: the smallest node index of each component."""
    parent = np.arange(count)
    for e in range(len(a)):
        if not linked[e]:
            continue
        root_a = _root(parent, a[e])
        root_b = _root(parent, b[e])
        if root_a < root_b:
            parent[root_b] = root_a
        elif root_b < root_a:
            parent[root_a] = root_b
    for node in range(count):
        parent[node] = _root(parent, node)
    return parent
