"""Sorting inside kernels: one stable radix argsort for every sort the engine makes.

numba compiles each of its own sorts (quicksort, mergesort, the selection behind median)
anew for every kernel that uses one, and they are among the slowest things to compile. One
small least-significant-digit radix sort serves integer keys, float keys (through an
order-preserving map to integers) and medians; it is stable, and linear in the keys.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel

DIGIT_BITS = 11
DIGITS = 1 << DIGIT_BITS


@kernel
def argsort_keys(keys):
    """Positions (N,) int64 that sort ``keys`` (N,) int64, all >= 0; stable."""
    return argsort_bits(keys.view(np.uint64))


@kernel
def argsort_bits(keys):
    """Positions (N,) int64 that sort ``keys`` (N,) uint64; stable."""
    n = len(keys)
    order = np.arange(n)
    # Keys often come already in order (a step's pairs are found in key order): one
    # look saves the passes.
    ordered = True
    for i in range(1, n):
        if keys[i] < keys[i - 1]:
            ordered = False
            break
    if ordered:
        return order
    largest = keys.max()
    other = np.empty(n, dtype=np.int64)
    count = np.empty(DIGITS + 1, dtype=np.int64)
    mask = np.uint64(DIGITS - 1)
    shift = np.uint64(0)
    while shift < np.uint64(64) and (largest >> shift) > np.uint64(0):
        count[:] = 0
        for i in range(n):
            count[((keys[order[i]] >> shift) & mask) + np.uint64(1)] += 1
        for d in range(DIGITS):
            count[d + 1] += count[d]
        for i in range(n):
            digit = (keys[order[i]] >> shift) & mask
            other[count[digit]] = order[i]
            count[digit] += 1
        order, other = other, order
        shift += np.uint64(DIGIT_BITS)
    return order


@kernel
def argsort_floats(values):
    """Positions (N,) int64 that sort the finite ``values`` (N,) float64; stable."""
    bits = values.view(np.uint64)
    keys = np.empty(len(values), dtype=np.uint64)
    sign = np.uint64(1) << np.uint64(63)
    for i in range(len(values)):
        # Positive floats order as their bits do once the sign bit is set; negative ones
        # order backwards, so all their bits flip.
        keys[i] = ~bits[i] if bits[i] & sign else bits[i] | sign
    return argsort_bits(keys)


@kernel
def median(values):
    """The median of ``values`` (N,) float64, N >= 1 (the mean of the middle two when N is
    even, as numpy's)."""
    order = argsort_floats(values)
    n = len(values)
    if n % 2:
        return values[order[n // 2]]
    return 0.5 * (values[order[n // 2 - 1]] + values[order[n // 2]])


@kernel
def sorted_unique(values):
    """The distinct values (D,) of ``values`` (M,) int64, all >= 0, ascending."""
    ordered = values[argsort_keys(values)]
    kept = 0
    for v in ordered:
        if kept == 0 or v != ordered[kept - 1]:
            ordered[kept] = v
            kept += 1
    return ordered[:kept]
