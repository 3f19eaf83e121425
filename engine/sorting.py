"""Sorting inside kernels: one stable radix argsort for every sort the engine makes.

numba compiles each of its own sorts (quicksort, mergesort, the selection behind median)
anew for every kernel that uses one, and they are among the slowest things to compile. One
small least-significant-digit radix sort serves integer keys and float keys (through an
order-preserving map to integers); it is stable, and linear in the keys. A median takes a
radix select on the same keys instead, one digit at a time from the top.
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
    return argsort_bits(float_keys(values))


@kernel
def median(values):
    """The median of ``values`` (N,) float64, finite, N >= 1 (the mean of the middle two
    when N is even, as numpy's)."""
    keys = float_keys(values)
    n = len(values)
    low = values[_position_of(keys, select_key(keys, (n - 1) // 2))]
    if n % 2:
        return low
    return 0.5 * (low + values[_position_of(keys, select_key(keys, n // 2))])


@kernel
def float_keys(values):
    """(N,) uint64 keys that order as the finite ``values`` (N,) float64 do."""
    bits = values.view(np.uint64)
    keys = np.empty(len(values), dtype=np.uint64)
    sign = np.uint64(1) << np.uint64(63)
    for i in range(len(values)):
        # Positive floats order as their bits do once the sign bit is set; negative ones
        # order backwards, so all their bits flip.
        keys[i] = ~bits[i] if bits[i] & sign else bits[i] | sign
    return keys


@kernel
def select_key(keys, k):
    """The k-th smallest (0-based) of ``keys`` (N,) uint64: a radix select, a digit at a
    time from the top, each pass counting only the keys that share the digits found so
    far (a median need not sort the whole array)."""
    count = np.empty(DIGITS, dtype=np.int64)
    mask = np.uint64(DIGITS - 1)
    prefix = np.uint64(0)
    rank = k
    shift = (63 // DIGIT_BITS) * DIGIT_BITS  # the top digit's, which may be narrower
    while shift >= 0:
        at = np.uint64(shift)
        above = shift + DIGIT_BITS  # the bits from here up are the digits found so far
        count[:] = 0
        for key in keys:
            if above >= 64 or (key >> np.uint64(above)) == (prefix >> np.uint64(above)):
                count[(key >> at) & mask] += 1
        digit = 0
        while rank >= count[digit]:
            rank -= count[digit]
            digit += 1
        prefix |= np.uint64(digit) << at
        shift -= DIGIT_BITS
    return prefix


@kernel
def _position_of(keys, key):
    """The first position of ``key`` in ``keys``."""
    for i in range(len(keys)):
        if keys[i] == key:
            return i
    return -1


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
