"""Warm starting: last step's impulses, matched to this step's contact points by feature.

A contact point is named by the two part rows and the feature id the narrow phase gave it
(which faces and edge made it). Points that keep their name from one step to the next start
the solver from last step's impulses, which is what lets stacks settle instead of sinking.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .snapshot_format import ArrayChecker
from .sorting import argsort_keys

# Part rows and the feature id share one int64 key: 20 + 20 + 22 bits.
ROW_BITS, FEATURE_BITS = 20, 22
ROW_MASK = (1 << ROW_BITS) - 1
FEATURE_MASK = (1 << FEATURE_BITS) - 1


class WarmStartCache:
    """Sorted keys (W,) int64 of last step's points with their normal and tangent
    impulses (W,) float64.

    Saved as the arrays ``warm.keys``, ``warm.normal`` and ``warm.tangent``: ``to_arrays``,
    ``validate``, ``from_arrays``.
    """

    SAVED = {
        "keys": "array warm.keys",
        "normal": "array warm.normal",
        "tangent": "array warm.tangent",
    }
    EXCLUDED: dict = {}
    _DTYPES = {"keys": np.int64, "normal": np.float64, "tangent": np.float64}

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        """Forget every point: the next step starts cold."""
        self.keys = np.zeros(0, dtype=np.int64)
        self.normal = np.zeros(0)
        self.tangent = np.zeros(0)

    def store(self, keys, normal_impulse, tangent_impulse) -> None:
        """Remember the manifolds' impulses under their point keys: keys, normal_impulse
        (M, 2), tangent_impulse (M,)."""
        self.keys, self.normal, self.tangent = _store(keys, normal_impulse, tangent_impulse)

    def forget_parts(self, first: int, count: int) -> None:
        """Drop points of part rows [first, first + count) and renumber later rows."""
        if len(self.keys):
            self.keys, self.normal, self.tangent = _forget(
                self.keys, self.normal, self.tangent, first, count
            )

    # -- saving and loading ------------------------------------------------------------
    def to_arrays(self) -> dict:
        """Copies of the keys and impulses: ``warm.keys``, ``warm.normal``, ``warm.tangent``."""
        return {f"warm.{name}": getattr(self, name).copy() for name in self._DTYPES}

    def scalars(self) -> dict:
        """No header scalars: the cache is its arrays."""
        return {}

    @classmethod
    def layout(cls) -> dict:
        """The arrays a file may hold of the cache: name -> (dims, dtype)."""
        return {f"warm.{name}": (("W",), dtype) for name, dtype in cls._DTYPES.items()}

    @classmethod
    def validate(cls, check: ArrayChecker, part_count: int) -> dict:
        """Check a snapshot's warm-start arrays: W each, finite impulses, sorted keys of
        parts below ``part_count``. Returns name -> (W,) native array."""
        arrays = {
            name: check.take_finite(f"warm.{name}", dtype, ("W",))
            for name, dtype in cls._DTYPES.items()
        }
        keys = arrays["keys"]
        check.require(keys >= 0, "array 'warm.keys' holds negative keys")
        check.require(np.diff(keys) >= 0, "array 'warm.keys' is not sorted")
        check.require(
            (keys >> (ROW_BITS + FEATURE_BITS) < part_count)
            & ((keys >> FEATURE_BITS) & ROW_MASK < part_count),
            "array 'warm.keys' names parts out of range",
        )
        return arrays

    @classmethod
    def from_arrays(cls, arrays: dict) -> WarmStartCache:
        """A cache of checked arrays (name -> (W,), as ``validate`` returns them)."""
        cache = cls()
        for name in cls._DTYPES:
            setattr(cache, name, np.array(arrays[name]))
        return cache


@kernel(inline=True)
def point_key(part_a, part_b, feature):
    """int64 key of a contact point from its part rows and feature id."""
    return (part_a << (ROW_BITS + FEATURE_BITS)) | (part_b << FEATURE_BITS) | feature


@kernel
def load_impulses(cache_keys, cache_normal, cache_tangent, part_rows, features, keys,
                  normal_impulse, tangent_impulse):  # fmt: skip
    """Name the manifolds' points and fill their impulses where last step had them.

    Cache: sorted keys (K,), normal and tangent impulses (K,). Manifolds: part_rows (M, 2),
    features (M, 2) (-1: no point); fills keys (M, 2) (-1: no point), normal_impulse
    (M, 2) and tangent_impulse (M,).

    Manifolds come in part-pair order, like the cache's keys, so one forward walk through
    the cache finds every match; a manifold out of that order starts a binary search.
    """
    at = 0
    last_prefix = -1
    for i in range(len(features)):
        prefix = point_key(part_rows[i, 0], part_rows[i, 1], 0)
        if prefix < last_prefix:
            at = np.searchsorted(cache_keys, prefix)
        last_prefix = prefix
        while at < len(cache_keys) and cache_keys[at] < prefix:
            at += 1
        # Friction acts once per manifold: take it from the first point that matched.
        tangent = 0.0
        matched = False
        for p in range(2):
            if features[i, p] < 0:
                keys[i, p] = -1
                continue
            key = prefix | features[i, p]
            keys[i, p] = key
            q = at
            while q < len(cache_keys) and cache_keys[q] < key:
                q += 1
            if q < len(cache_keys) and cache_keys[q] == key:
                normal_impulse[i, p] = cache_normal[q]
                if not matched:
                    tangent = cache_tangent[q]
                    matched = True
        tangent_impulse[i] = tangent


@kernel
def _store(keys, normal_impulse, tangent_impulse):
    """The cache's sorted keys, normal and tangent impulses from the manifolds' points."""
    count = 0
    for i in range(len(keys)):
        for p in range(2):
            if keys[i, p] >= 0:
                count += 1
    flat_keys = np.empty(count, dtype=np.int64)
    normal = np.empty(count)
    tangent = np.empty(count)
    k = 0
    in_order = True
    for i in range(len(keys)):
        for p in range(2):
            if keys[i, p] >= 0:
                flat_keys[k] = keys[i, p]
                normal[k] = normal_impulse[i, p]
                tangent[k] = tangent_impulse[i]
                in_order = in_order and (k == 0 or flat_keys[k - 1] < flat_keys[k])
                k += 1
    if in_order:  # the usual case: manifolds come in part-pair order
        return flat_keys, normal, tangent
    order = argsort_keys(flat_keys)
    return flat_keys[order], normal[order], tangent[order]


@kernel
def _forget(keys, normal, tangent, first, count):
    """The cache without points of part rows [first, first + count), later rows renumbered."""
    keep = np.zeros(len(keys), dtype=np.bool_)
    renamed = np.empty(len(keys), dtype=np.int64)
    for k in range(len(keys)):
        row_a = keys[k] >> (ROW_BITS + FEATURE_BITS)
        row_b = (keys[k] >> FEATURE_BITS) & ROW_MASK
        if first <= row_a < first + count or first <= row_b < first + count:
            continue
        keep[k] = True
        row_a = row_a - count if row_a >= first + count else row_a
        row_b = row_b - count if row_b >= first + count else row_b
        renamed[k] = point_key(row_a, row_b, keys[k] & FEATURE_MASK)
    rows = np.flatnonzero(keep)
    renamed = renamed[rows]
    order = argsort_keys(renamed)
    return renamed[order], normal[rows][order], tangent[rows][order]
