"""Islands: connected components of the contact (and joint) graph, found on arrays.

Bodies are nodes; a touching manifold between two dynamic bodies is an edge (static and
kinematic bodies do not join islands: a pile on the ground is not one island with
everything else on the ground). Components come from repeated hooking and pointer jumping
on a label array: each round every edge pulls both ends to the smaller label, then every
label jumps to its label's label. The rounds are a loop over O(log N)-ish passes, never
over bodies or edges.
"""

from __future__ import annotations

import numpy as np


def components(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(count,) int64 label of each node's component: the smallest node index in it.

    a, b: (E,) int64 edges.
    """
    label = np.arange(count)
    if len(a) == 0:
        return label
    while True:
        low = np.minimum(label[a], label[b])
        before = label.copy()
        # Hook: each edge pulls the root of both ends down to the smaller label.
        np.minimum.at(label, label[a], low)
        np.minimum.at(label, label[b], low)
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        # Shortcut: jump to the label's label until every chain is one hop.
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(label, before):
            return label
