"""Contacts and sensor overlaps as the game sees them, and the events between steps.

The solver works on part-pair manifolds; a game thinks in body pairs. After each step the
manifolds are summed per body pair into Contact objects, and compared with the previous
step's pairs to tell which contacts began, persist or ended; a Contact names the shapes of
its deepest manifold. Sensor overlaps are kept per shape pair (a sensor shape and a shape
it overlaps) and compared the same way. Handlers run after the step's arrays are final.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .candidate_pairs import pair_key
from .jit import kernel
from .materials import effective_tag
from .sorting import argsort_keys

EVENT_NAMES = (
    "contact_begin",
    "contact_persist",
    "contact_end",
    "sensor_begin",
    "sensor_end",
    "presolve",
)


@dataclass(frozen=True)
class Contact:
    """Two bodies touching.

    body_a, body_b: the bodies; normal: (2,) unit vector from A towards B; points: (k, 2)
    world contact points; depth: penetration depth (0 when just touching);
    normal_impulse, tangent_impulse: what the solver applied this step (N s), summed over
    the points; shape_a, shape_b: the shapes (of ``body_a.shapes``, ``body_b.shapes``)
    that touch deepest, the ones the normal belongs to (a pair touching through several
    shape pairs is still one Contact).
    """

    body_a: object
    body_b: object
    normal: np.ndarray
    points: np.ndarray
    depth: float
    normal_impulse: float
    tangent_impulse: float
    shape_a: object = None
    shape_b: object = None

    def flipped(self) -> Contact:
        """The same contact seen from B: bodies and shapes swapped, the normal reversed."""
        return Contact(
            self.body_b, self.body_a, -self.normal, self.points, self.depth,
            self.normal_impulse, self.tangent_impulse, self.shape_b, self.shape_a,
        )  # fmt: skip


@dataclass(frozen=True)
class SensorOverlap:
    """A sensor shape and a shape of another body overlapping: ``sensor`` is the body of
    the sensor shape ``sensor_shape``, ``other`` the body of ``other_shape``."""

    sensor: object
    other: object
    sensor_shape: object = None
    other_shape: object = None


@dataclass(frozen=True)
class Event:
    """One event of a step: ``name`` (one of EVENT_NAMES) and its Contact or SensorOverlap."""

    name: str
    subject: object


def body_pair_keys(a: np.ndarray, b: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """(M,) int64 key of each body pair by the bodies' stable ids (smaller id first)."""
    ia, ib = ids[a], ids[b]
    return np.minimum(ia, ib) << 32 | np.maximum(ia, ib)


def group_by_pair(keys: np.ndarray):
    """Unique keys, and for each input row the index of its key: (K,), (M,)."""
    if len(keys) == 0:
        return keys, np.zeros(0, dtype=np.int64)
    unique, inverse = np.unique(keys, return_inverse=True)
    return unique, inverse.reshape(-1)


@kernel
def began_and_ended(previous, current):
    """Which current keys are new, which persist, and which previous keys are gone.

    previous, current: sorted unique int64 keys. Returns three bool masks: (current new),
    (current persisting), (previous ended), found by one merge of the two lists.
    """
    persisting = np.zeros(len(current), dtype=np.bool_)
    ended = np.ones(len(previous), dtype=np.bool_)
    p = 0
    for c in range(len(current)):
        while p < len(previous) and previous[p] < current[c]:
            p += 1
        if p < len(previous) and previous[p] == current[c]:
            persisting[c] = True
            ended[p] = False
    return ~persisting, persisting, ended


@kernel
def touching_pairs(body_a, body_b, body_id, separation, normal_impulse, slop):
    """The manifolds (M,) whose bodies touch, their body-pair keys, and the step's sorted
    unique keys of touching pairs.

    Touching: a point within the manifold's ``slop`` (M,) at the step start, or pushed
    apart by the solver. separation, normal_impulse: (M, 2). Returns touching (M,) bool,
    keys (M,) int64 and current (K,) int64.
    """
    m = len(body_a)
    touching = np.zeros(m, dtype=np.bool_)
    keys = np.empty(m, dtype=np.int64)
    count = 0
    for i in range(m):
        keys[i] = pair_key(body_id[body_a[i]], body_id[body_b[i]])
        near = False
        for p in range(2):
            gap = separation[i, p]
            if not math.isinf(gap) and gap <= slop[i]:
                near = True
        touching[i] = near or normal_impulse[i, 0] + normal_impulse[i, 1] > 0.0
        count += touching[i]
    current = np.empty(count, dtype=np.int64)
    k = 0
    for i in range(m):
        if touching[i]:
            current[k] = keys[i]
            k += 1
    current = current[argsort_keys(current)]
    unique = 0
    for k in range(count):
        if k == 0 or current[k] != current[k - 1]:
            current[unique] = current[k]
            unique += 1
    return touching, keys, current[:unique]


@dataclass
class ContactTable:
    """One step's touching body pairs as arrays; Contact objects are built on demand.

    keys: (K,) sorted body-pair keys; handles: (K, 2) object array of the Body handles (A,
    B); normal: (K, 2) of the deepest manifold; depth, normal_impulse, tangent_impulse:
    (K,); points: (P, 2) all points, pair_of_point: (P,) int64 which pair each belongs to;
    shapes: (K, 2) int64 the index of A's and B's shape of the deepest manifold in their
    bodies' shapes.
    """

    keys: np.ndarray
    handles: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray
    points: np.ndarray
    pair_of_point: np.ndarray
    shapes: np.ndarray

    @classmethod
    def empty(cls) -> ContactTable:
        return cls(
            keys=np.zeros(0, dtype=np.int64),
            handles=np.empty((0, 2), dtype=object),
            normal=np.zeros((0, 2)),
            depth=np.zeros(0),
            normal_impulse=np.zeros(0),
            tangent_impulse=np.zeros(0),
            points=np.zeros((0, 2)),
            pair_of_point=np.zeros(0, dtype=np.int64),
            shapes=np.zeros((0, 2), dtype=np.int64),
        )

    def __len__(self) -> int:
        return len(self.keys)

    def contact(self, i: int) -> Contact:
        """Pair ``i`` as a Contact."""
        body_a, body_b = self.handles[i, 0], self.handles[i, 1]
        return Contact(
            body_a=body_a,
            body_b=body_b,
            normal=self.normal[i].copy(),
            points=self.points[self.pair_of_point == i].copy(),
            depth=float(self.depth[i]),
            normal_impulse=float(self.normal_impulse[i]),
            tangent_impulse=float(self.tangent_impulse[i]),
            shape_a=body_a.shapes[self.shapes[i, 0]],
            shape_b=body_b.shapes[self.shapes[i, 1]],
        )


def contact_table(manifolds, touching, keys, handles, shapes) -> ContactTable:
    """Sum a step's touching manifolds (mask ``touching`` (M,)) into body-pair contacts.

    keys: (M,) body-pair key of each manifold; handles: (N,) object array of Body handles;
    shapes: (M, 2) int64 the shape index of each manifold's parts in their bodies. The
    deepest manifold of a pair gives its normal, its bodies' order and its shapes.
    """
    rows = np.flatnonzero(touching)
    if len(rows) == 0:
        return ContactTable.empty()
    unique, pair = group_by_pair(keys[rows])
    separation = np.nanmin(
        np.where(np.isinf(manifolds.separation), np.nan, manifolds.separation), axis=1
    )[rows]
    # Deepest manifold per pair: sort by (pair, separation) and take each run's first.
    order = np.lexsort((separation, pair))
    first = order[np.searchsorted(pair[order], np.arange(len(unique)))]
    deepest = rows[first]
    normal_impulse = np.zeros(len(unique))
    tangent_impulse = np.zeros(len(unique))
    np.add.at(normal_impulse, pair, manifolds.normal_impulse[rows].sum(axis=1))
    np.add.at(tangent_impulse, pair, manifolds.tangent_impulse[rows])
    count = manifolds.count[rows]
    point_pair = np.repeat(pair, count)
    slot = np.arange(len(point_pair)) - np.repeat(np.cumsum(count) - count, count)
    points = manifolds.points[np.repeat(rows, count), slot]
    return ContactTable(
        keys=unique,
        handles=np.column_stack(
            [handles[manifolds.body_a[deepest]], handles[manifolds.body_b[deepest]]]
        ),
        normal=manifolds.normal[deepest],
        depth=np.maximum(-separation[first], 0.0),
        normal_impulse=normal_impulse,
        tangent_impulse=tangent_impulse,
        points=points,
        pair_of_point=point_pair,
        shapes=shapes[deepest],
    )


class TaggedHandler:
    """A handler that sees only the events between bodies of two tags (``World.on`` with
    ``between=(tag_a, tag_b)``).

    A contact is handed over with ``body_a`` the body tagged ``tag_a`` (flipped when the
    step found it the other way round), the way pymunk orders an arbiter's shapes by the
    collision types of its handler. A sensor overlap keeps its order (``sensor`` is the
    sensor), whichever tag the sensor has. For other pairs it returns None: a presolve
    handler keeps them. The tag that counts for each side is that of the shape that
    touched, if it has its own, else its body's (``engine.materials.effective_tag``).
    """

    __slots__ = ("function", "tags")

    def __init__(self, function, tags: tuple):
        self.function, self.tags = function, tags

    def __repr__(self) -> str:  # names the user's function in errors
        name = getattr(self.function, "__qualname__", repr(self.function))
        return f"{name} between {self.tags}"

    def __call__(self, subject):
        tag_a, tag_b = self.tags
        if isinstance(subject, Contact):
            first = effective_tag(subject.body_a, subject.shape_a)
            second = effective_tag(subject.body_b, subject.shape_b)
            if (first, second) == (tag_a, tag_b):
                return self.function(subject)
            if (first, second) == (tag_b, tag_a):
                return self.function(subject.flipped())
            return None
        tags = {
            effective_tag(subject.sensor, subject.sensor_shape),
            effective_tag(subject.other, subject.other_shape),
        }
        if tags == {tag_a, tag_b}:
            return self.function(subject)
        return None

    def __reduce__(self):
        return TaggedHandler, (self.function, self.tags)


def sensor_order(keys, shape_keys) -> np.ndarray:
    """(S,) int64 rank of each sensor overlap by (body-pair key, shape-pair key), both
    (S,) int64: equal pairs share a rank, and ranks follow the lexicographic order."""
    if len(keys) == 0:
        return np.zeros(0, dtype=np.int64)
    _, rank = np.unique(np.stack([keys, shape_keys], axis=1), axis=0, return_inverse=True)
    return rank.reshape(-1).astype(np.int64)


def shape_pair_keys(ids, shapes) -> np.ndarray:
    """(S,) int64 key of each overlap's shape pair: ids (S, 2) body ids (sensor, other),
    shapes (S, 2) their shapes' indices; the shape of the body with the smaller id first,
    so the key does not depend on which side is the sensor."""
    low_first = ids[:, 0] < ids[:, 1]
    first = np.where(low_first, shapes[:, 0], shapes[:, 1])
    second = np.where(low_first, shapes[:, 1], shapes[:, 0])
    return first << 32 | second
