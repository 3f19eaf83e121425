"""Warm starting: last step's impulses, matched to this step's contact points by feature.

A contact point is named by the two part rows and the feature id the narrow phase gave it
(which faces and edge made it). Points that keep their name from one step to the next start
the solver from last step's impulses, which is what lets stacks settle instead of sinking.
"""

from __future__ import annotations

import numpy as np

# Part rows and the feature id share one int64 key: 20 + 20 + 22 bits.
ROW_BITS, FEATURE_BITS = 20, 22
ROW_MASK = (1 << ROW_BITS) - 1


def point_keys(part_a: np.ndarray, part_b: np.ndarray, features: np.ndarray) -> np.ndarray:
    """(M,) int64 keys of contact points from part rows and feature ids."""
    return (part_a << (ROW_BITS + FEATURE_BITS)) | (part_b << FEATURE_BITS) | features


class WarmStartCache:
    """Sorted keys of last step's points with their normal and tangent impulses."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.normal = np.zeros(0)
        self.tangent = np.zeros(0)

    def load(self, manifolds, part_a, part_b, features) -> None:
        """Name the manifolds' points and fill their impulses where last step had them.

        part_a, part_b: (M,) part rows; features: (M, 2) feature ids, -1 for no point.
        Sets ``manifolds.keys`` (M, 2) (-1 for no point).
        """
        keys = point_keys(part_a[:, None], part_b[:, None], np.maximum(features, 0))
        used = features >= 0
        manifolds.keys[:] = np.where(used, keys, -1)
        if len(self.keys) == 0 or not used.any():
            return
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        found = used & (self.keys[at] == keys)
        manifolds.normal_impulse[found] = self.normal[at[found]]
        # Friction acts once per manifold: take it from the first point that matched.
        tangent = np.where(found, self.tangent[at], 0.0)
        manifolds.tangent_impulse[:] = np.where(found[:, 0], tangent[:, 0], tangent[:, 1])

    def store(self, manifolds) -> None:
        """Remember the manifolds' impulses under their point keys."""
        used = manifolds.keys >= 0
        keys = manifolds.keys[used]
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.normal = manifolds.normal_impulse[used][order]
        per_point = np.repeat(manifolds.tangent_impulse[:, None], 2, axis=1)
        self.tangent = per_point[used][order]

    def forget_parts(self, first: int, count: int) -> None:
        """Drop points of part rows [first, first + count) and renumber later rows."""
        if len(self.keys) == 0:
            return
        row_a = self.keys >> (ROW_BITS + FEATURE_BITS)
        row_b = (self.keys >> FEATURE_BITS) & ROW_MASK
        feature = self.keys & ((1 << FEATURE_BITS) - 1)
        gone = ((row_a >= first) & (row_a < first + count)) | (
            (row_b >= first) & (row_b < first + count)
        )
        keep = ~gone
        row_a = np.where(row_a >= first + count, row_a - count, row_a)[keep]
        row_b = np.where(row_b >= first + count, row_b - count, row_b)[keep]
        self.keys = point_keys(row_a, row_b, feature[keep])
        self.normal = self.normal[keep]
        self.tangent = self.tangent[keep]
