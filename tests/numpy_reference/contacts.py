"""The batched result of the narrow phase, shared by every pair kernel, and slot helpers.

Kernels work slot-major: a batch of N convex polygons is a set of (K, N) arrays, one row per
vertex slot, so that every arithmetic step runs on long contiguous rows of pairs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# Features are packed into one integer so that solvers can match contact points across
# steps: which shape owns the reference face, the face, the incident edge and its end.
FEATURE_FLIP = 1 << 21
FEATURE_FACE = 1 << 11
FEATURE_EDGE = 2


class Hulls(NamedTuple):
    """N convex polygons in one frame, slot-major.

    data: (4, K, N) float64 rows x, y, nx, ny: vertices (padded as in ``engine.packing``) and
    unit outward normals of edge (i, i + 1). count: (N,) int64 real vertices. Keeping the
    four fields in one array lets one fancy index gather all of them.
    """

    data: np.ndarray
    count: np.ndarray

    @property
    def x(self) -> np.ndarray:
        return self.data[0]

    @property
    def y(self) -> np.ndarray:
        return self.data[1]

    @property
    def nx(self) -> np.ndarray:
        return self.data[2]

    @property
    def ny(self) -> np.ndarray:
        return self.data[3]

    @property
    def width(self) -> int:
        """K, the number of vertex slots."""
        return self.data.shape[1]


class Discs(NamedTuple):
    """N circles in world coordinates: centre (N, 2) float64, radius (N,) float64."""

    centre: np.ndarray
    radius: np.ndarray


class Contacts(NamedTuple):
    """Narrow-phase answers for N pairs (A, B).

    separation: (N,) signed distance along ``normal`` (negative: penetration depth).
    normal: (N, 2) unit, from A towards B; the axis of least overlap when overlapping, a
        separating axis otherwise (``separation`` is then a lower bound on the gap).
    toi: (N,) first instant in [0, dt] at which they overlap while A translates by
        velocity * t; 0 when overlapping now, NaN when they do not meet.
    points: (N, 2, 2) contact points midway between the surfaces, NaN-padded.
    point_separation: (N, 2) separation at each point, NaN-padded.
    point_count: (N,) int64, 0..2: points whose separation is within the margin.
    features: (N, 2) int64 ids of the features that made each point, -1 padded.
    a_in_b, b_in_a: (N,) bool containment.
    """

    separation: np.ndarray
    normal: np.ndarray
    toi: np.ndarray
    points: np.ndarray
    point_separation: np.ndarray
    point_count: np.ndarray
    features: np.ndarray
    a_in_b: np.ndarray
    b_in_a: np.ndarray


def pick(rows: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """Entry ``rows[slot[n], n]`` for every column n. rows: (K, N); slot: (N,) -> (N,)."""
    n = rows.shape[-1]
    return np.take(rows.reshape(-1), slot * n + np.arange(n))


def pick_fields(data: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """Entries ``data[:, slot[n], n]``. data: (F, K, N); slot: (N,) -> (F, N)."""
    fields, _, n = data.shape
    return np.take(data.reshape(fields, -1), slot * n + np.arange(n), axis=1)


def first_best(rows: np.ndarray, best: np.ndarray) -> np.ndarray:
    """First slot whose row equals ``best`` in each column. rows: (K, N); best: (N,).

    With ``best = rows.max(axis=0)`` this is ``rows.argmax(axis=0)``, but runs as K
    whole-row passes, several times faster than numpy's strided arg-reduction over axis 0.
    """
    slot = np.full(rows.shape[1], rows.shape[0] - 1)
    for k in range(rows.shape[0] - 2, -1, -1):
        slot = np.where(rows[k] == best, k, slot)
    return slot


def real_slot(slot: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Map a padded slot back to the last real one it copies. slot, count: (N,) -> (N,)."""
    return np.minimum(slot, count - 1)


def next_slot(slot: np.ndarray, width: int) -> np.ndarray:
    """The slot of the vertex after ``slot`` (padding repeats vertex 0, so wrap at K)."""
    following = slot + 1
    following[following == width] = 0
    return following
