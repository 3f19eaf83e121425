"""What touches and what a ray meets in every copy of a ``WorldBatch``: touching pairs,
contact begin and end as arrays, ray casts."""

from __future__ import annotations

import numpy as np

from .batch_checks import (
    real_array,
)
from .batch_queries import raycast_copies
from .batch_step import gathered_events, touching_flags
from .candidate_pairs import pair_key
from .queries import check_mask
from .raycast import RayHits


class BatchContacts:
    """``touching``, ``contact_events`` and ``raycast_many`` per copy (part of ``WorldBatch``)."""

    def contact_events(self) -> tuple:
        """The last step's contact begin and end in every copy, as arrays (the
        ``contact_begin`` and ``contact_end`` events a World of each copy reports):
        ((copies (B,) int64, rows (B, 2) int64, impulses (B,)), (copies (E,), rows (E,
        2))). rows: the pair's two bodies, the one of lower body id first; impulses: the
        normal impulse of the step the pair began touching, N s (``Contact``'s)."""
        (began_copy, began, impulses), (ended_copy, ended) = gathered_events(self._events)
        return (began_copy, self._pair_rows(began), impulses), (ended_copy, self._pair_rows(ended))

    def _pair_rows(self, keys: np.ndarray) -> np.ndarray:
        """(K, 2) int64 body rows of body-pair keys (K,)."""
        row_of_id = self._template._bodies.row_of_id
        return np.column_stack([row_of_id[keys >> 32], row_of_id[keys & 0xFFFFFFFF]]).astype(
            np.int64
        )

    def raycast_many(self, starts, ends, mask: int = 0xFFFF) -> RayHits:
        """R rays in each copy at once (a lidar per copy): starts, ends (C, R, 2). Returns
        RayHits of (C, R) arrays: body_row (-1: no hit), fraction, point and normal (C, R,
        2) (NaN: no hit), each copy's as ``world.raycast_many`` gives them in a World of
        that copy. ValueError for a ray whose end is its start."""
        count = self._copies
        starts = np.ascontiguousarray(real_array(starts, "starts", np.shape(starts)))
        if starts.ndim != 3 or starts.shape[0] != count or starts.shape[2] != 2:
            raise ValueError(f"starts: expected ({count}, R, 2), got {starts.shape}")
        ends = np.ascontiguousarray(real_array(ends, "ends", starts.shape))
        if np.any(np.all(starts == ends, axis=2)):
            raise ValueError(
                "ends: every ray needs end != start (a zero-length ray has no direction)"
            )
        mask = check_mask(mask)
        part = self._inputs.part
        hits = raycast_copies(
            self._body["position"], self._body["angle"], part["body"], self._vertices,
            self._normals, self._inputs.table[2], self._inputs.table[3], self._reach,
            part["category"], part["sensor"], mask, starts, ends,
        )  # fmt: skip
        return RayHits(*hits)

    def touching(self, pairs) -> np.ndarray:
        """(C, K) bool: whether each of the body pairs (K, 2) (Bodies of the template world
        or rows) touched in each copy after its last step, as ``world.contacts`` lists a
        touching pair."""
        pairs = np.asarray(pairs, dtype=object)
        if pairs.ndim != 2 or pairs.shape[1] != 2:
            raise ValueError(f"pairs: expected K pairs of bodies (K, 2), got shape {pairs.shape}")
        ids = self._inputs.body["body_id"]
        keys = np.array(
            [pair_key(int(ids[self.index_of(a)]), int(ids[self.index_of(b)])) for a, b in pairs],
            dtype=np.int64,
        )
        return touching_flags(self._touching, keys.reshape(-1))
