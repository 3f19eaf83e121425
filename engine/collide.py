"""Public narrow phase: ``collide`` for one pair of shapes, ``collide_many`` for N at once.

Both run the same batched kernels (``engine.narrowphase``), so they give the same numbers.
A concave shape takes part through its convex parts: every part pair is tested, and the
answer for the shape pair is the deepest part pair (for points, normal and depth) and the
earliest (for time of impact).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .narrowphase import collide_parts
from .packing import PackedParts, concatenate
from .shapes import Shape
from .validation import as_finite_array, as_finite_float


@dataclass(frozen=True)
class Collision:
    """The answer of ``collide`` for one pair (A, B).

    intersect: overlapping now (touching counts). will_intersect: overlapping at some instant
    of [0, dt]. toi: that first instant in seconds (0.0 when overlapping now), or None.
    normal: (2,) unit vector from A towards B: the axis of least overlap, or when apart a
    separating axis. depth: penetration depth, 0 when apart. separation: signed distance
    along the normal (-depth when overlapping; when apart a lower bound on the gap).
    mtv: (2,) the smallest translation of A that separates them, ``-normal * depth``.
    points: (k, 2) world contact points, k = 0 when apart, else 1 or 2.
    a_in_b, b_in_a: containment.
    """

    intersect: bool
    will_intersect: bool
    toi: float | None
    normal: np.ndarray
    depth: float
    separation: float
    mtv: np.ndarray
    points: np.ndarray
    a_in_b: bool
    b_in_a: bool


@dataclass(frozen=True)
class CollisionBatch:
    """The answers of ``collide_many`` for N pairs, as arrays.

    intersect, will_intersect, a_in_b, b_in_a: (N,) bool. toi: (N,) float64, NaN where they
    do not meet within dt. normal, mtv: (N, 2) float64. depth, separation: (N,) float64.
    points: (N, 2, 2) float64 NaN-padded; point_count: (N,) int64.
    """

    intersect: np.ndarray
    will_intersect: np.ndarray
    toi: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    separation: np.ndarray
    mtv: np.ndarray
    points: np.ndarray
    point_count: np.ndarray
    a_in_b: np.ndarray
    b_in_a: np.ndarray

    def __len__(self) -> int:
        return len(self.intersect)

    def __getitem__(self, i: int) -> Collision:
        """Pair ``i`` as a Collision."""
        toi = float(self.toi[i])
        return Collision(
            intersect=bool(self.intersect[i]),
            will_intersect=bool(self.will_intersect[i]),
            toi=None if np.isnan(toi) else toi,
            normal=self.normal[i].copy(),
            depth=float(self.depth[i]),
            separation=float(self.separation[i]),
            mtv=self.mtv[i].copy(),
            points=self.points[i, : self.point_count[i]].copy(),
            a_in_b=bool(self.a_in_b[i]),
            b_in_a=bool(self.b_in_a[i]),
        )


def collide(shape_a, pose_a, shape_b, pose_b, velocity=(0.0, 0.0), dt: float = 1.0) -> Collision:
    """Collide ``shape_a`` at ``pose_a`` with ``shape_b`` at ``pose_b``.

    pose: (x, y, angle). velocity: (2,) velocity of A relative to B, held for ``dt`` s.

    >>> from engine import Box
    >>> hit = collide(Box(2, 2), (0, 0, 0), Box(2, 2), (1.5, 0, 0))
    >>> hit.intersect, hit.depth, hit.mtv.tolist()
    (True, 0.5, [-0.5, -0.0])
    """
    for name, shape in (("shape_a", shape_a), ("shape_b", shape_b)):
        if not isinstance(shape, Shape):
            raise TypeError(f"{name}: expected a shape, got {type(shape).__name__}")
    pose_a = as_finite_array(pose_a, (3,), "pose_a")
    pose_b = as_finite_array(pose_b, (3,), "pose_b")
    velocity = as_finite_array(velocity, (2,), "velocity")
    if len(shape_a.parts) > 1 or len(shape_b.parts) > 1:
        return collide_many(shape_a, pose_a[None], shape_b, pose_b[None], velocity[None], dt)[0]
    # One convex pair: the same kernel, without the bookkeeping of a batch of shapes.
    dt = as_finite_float(dt, "dt")
    if dt < 0.0:
        raise ValueError(f"dt: must be >= 0, got {dt}")
    first = np.zeros(1, dtype=np.int64)
    found = collide_parts(
        shape_a.packed, first, pose_a[None], shape_b.packed, first, pose_b[None],
        velocity[None], dt,
    )  # fmt: skip
    return _batch(found)[0]


def collide_many(shapes_a, poses_a, shapes_b, poses_b, velocities=None, dt: float = 1.0):
    """Collide N pairs at once.

    shapes_a, shapes_b: a sequence of N shapes, or one shape used for every pair.
    poses_a, poses_b: (N, 3) float64 (x, y, angle). velocities: (N, 2) velocity of A relative
    to B, or None for none. dt: sweep duration in seconds (>= 0). Returns a CollisionBatch.

    >>> import numpy as np
    >>> from engine import Circle
    >>> poses = np.array([[0.0, 0, 0], [3.0, 0, 0]])
    >>> collide_many(Circle(1), poses, Circle(1), np.zeros((2, 3))).intersect.tolist()
    [True, False]
    """
    poses_a = as_finite_array(poses_a, (-1, 3), "poses_a")
    n = len(poses_a)
    poses_b = as_finite_array(poses_b, (n, 3), "poses_b")
    if velocities is not None:
        velocities = as_finite_array(velocities, (n, 2), "velocities")
    dt = as_finite_float(dt, "dt")
    if dt < 0.0:
        raise ValueError(f"dt: must be >= 0, got {dt}")
    catalog_a, which_a = _catalog(shapes_a, n, "shapes_a")
    catalog_b, which_b = _catalog(shapes_b, n, "shapes_b")

    table_a, first_a, count_a = _part_table(catalog_a)
    table_b, first_b, count_b = _part_table(catalog_b)
    per_pair_a, per_pair_b = count_a[which_a], count_b[which_b]
    expanded = per_pair_a * per_pair_b
    pair = np.repeat(np.arange(n), expanded)
    # Index of each part pair within its shape pair, split into (part of A, part of B).
    within = np.arange(len(pair)) - np.repeat(np.cumsum(expanded) - expanded, expanded)
    parts_a = first_a[which_a][pair] + within // per_pair_b[pair]
    parts_b = first_b[which_b][pair] + within % per_pair_b[pair]

    found = collide_parts(
        table_a,
        parts_a,
        poses_a[pair],
        table_b,
        parts_b,
        poses_b[pair],
        None if velocities is None else velocities[pair],
        dt,
    )
    if len(pair) != n:
        found = _deepest_per_pair(found, pair, n, per_pair_a, per_pair_b)

    return _batch(found)


def _batch(found) -> CollisionBatch:
    """The public answers from the kernels' Contacts."""
    depth = np.maximum(-found.separation, 0.0)
    return CollisionBatch(
        intersect=found.separation <= 0.0,
        will_intersect=~np.isnan(found.toi),
        toi=found.toi,
        normal=found.normal,
        depth=depth,
        separation=found.separation,
        mtv=-found.normal * depth[:, None],
        points=found.points,
        point_count=found.point_count,
        a_in_b=found.a_in_b,
        b_in_a=found.b_in_a,
    )


def _catalog(shapes, n: int, argument: str) -> tuple[list, np.ndarray]:
    """Distinct shapes and, for each of the N pairs, which of them it uses."""
    if isinstance(shapes, Shape):
        return [shapes], np.zeros(n, dtype=np.int64)
    if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__len__"):
        raise TypeError(f"{argument}: expected a shape or a sequence of shapes")
    if len(shapes) != n:
        raise ValueError(f"{argument}: expected {n} shapes (one per pose), got {len(shapes)}")
    try:
        uids = np.fromiter((shape._uid for shape in shapes), dtype=np.int64, count=n)
    except AttributeError:
        bad = next(s for s in shapes if not isinstance(s, Shape))
        raise TypeError(f"{argument}: expected shapes, got {type(bad).__name__}") from None
    distinct, first_seen, which = np.unique(uids, return_index=True, return_inverse=True)
    return [shapes[i] for i in first_seen], which.reshape(n)


def _part_table(catalog: list) -> tuple[PackedParts, np.ndarray, np.ndarray]:
    """All convex parts of the catalogued shapes in one table, with each shape's rows."""
    table = concatenate([shape.packed for shape in catalog])
    count = np.array([len(shape.packed.count) for shape in catalog], dtype=np.int64)
    first = np.cumsum(count) - count
    return table, first, count


def _deepest_per_pair(found, pair: np.ndarray, n: int, per_pair_a, per_pair_b):
    """Reduce part-pair answers to one per shape pair: the deepest, and the earliest toi."""
    order = np.lexsort((found.separation, pair))
    starts = np.searchsorted(pair[order], np.arange(n))
    deepest = order[starts]
    reduced = type(found)(*(field[deepest] for field in found))
    earliest = np.fmin.reduceat(found.toi[order], starts)
    # A is inside B when each part of A lies inside some part of B (exact for convex B).
    expanded = per_pair_a * per_pair_b
    within = np.arange(len(pair)) - np.repeat(np.cumsum(expanded) - expanded, expanded)
    a_in_b = _every_part_inside(found.a_in_b, pair, within // per_pair_b[pair], per_pair_a)
    b_in_a = _every_part_inside(found.b_in_a, pair, within % per_pair_b[pair], per_pair_b)
    return reduced._replace(toi=earliest, a_in_b=a_in_b, b_in_a=b_in_a)


def _every_part_inside(inside, pair, part, parts_per_pair):
    """(N,) bool: for each shape pair, every one of its parts has some part pair ``inside``."""
    first = np.cumsum(parts_per_pair) - parts_per_pair
    anywhere = np.zeros(int(parts_per_pair.sum()), dtype=bool)
    np.logical_or.at(anywhere, first[pair] + part, inside)
    return np.logical_and.reduceat(anywhere, first)
