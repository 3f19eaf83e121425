"""Sorting for the query kernels: a stable order by key, and sorted distinct values.

The lists sorted here are short (the parts near a query, the bodies a ray meets), and a
plain merge sort compiles in a fraction of the time numba's numpy sorts take, which every
process pays again whenever a kernel's source changes.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel


@kernel
def stable_order(keys):
    """The permutation (M,) int64 that sorts ``keys`` (M,) ascending; equal keys keep their
    order (a bottom-up merge sort)."""
    m = len(keys)
    order = np.arange(m)
    spare = np.empty(m, dtype=np.int64)
    width = 1
    while width < m:
        for low in range(0, m, 2 * width):
            middle, high = min(low + width, m), min(low + 2 * width, m)
            i, j = low, middle
            for k in range(low, high):
                # The left run wins ties: that is what keeps the sort stable.
                if i < middle and (j >= high or not keys[order[j]] < keys[order[i]]):
                    spare[k] = order[i]
                    i += 1
                else:
                    spare[k] = order[j]
                    j += 1
        order, spare = spare, order
        width *= 2
    return order


@kernel
def sorted_unique(values):
    """The distinct values (D,) of ``values`` (M,) int64, ascending."""
    ordered = values[stable_order(values)]
    kept = 0
    for v in ordered:
        if kept == 0 or v != ordered[kept - 1]:
            ordered[kept] = v
            kept += 1
    return ordered[:kept]
