"""Public narrow phase: ``collide`` for one pair of shapes, ``collide_many`` for N at once.

Both run the same kernels (``engine.shape_pairs`` over ``engine.narrowphase``), so they give
the same numbers. A concave shape takes part through its convex parts: every part pair is
tested, and the answer for the shape pair is the deepest part pair (for points, normal and
depth) and the earliest (for time of impact).

Python checks the arguments, makes one kernel call and builds the answer: a ``collide``
call costs a few microseconds, and ``collide_many`` reads each element of its shape
sequences once (its identity, to find the distinct shapes) and leaves every loop over pairs
to the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .call_args import finite_float, kernel_layout, pose_floats, vector_floats
from .packing import concatenate
from .shape_pairs import batch_answers, collide_one_pair, collide_shape_pairs, distinct_ids
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
    if not isinstance(shape_a, Shape):
        raise TypeError(f"shape_a: expected a shape, got {type(shape_a).__name__}")
    if not isinstance(shape_b, Shape):
        raise TypeError(f"shape_b: expected a shape, got {type(shape_b).__name__}")
    xa, ya, angle_a = pose_floats(pose_a, "pose_a")
    xb, yb, angle_b = pose_floats(pose_b, "pose_b")
    vx, vy = vector_floats(velocity, "velocity")
    dt = finite_float(dt, "dt")
    if dt < 0.0:
        raise ValueError(f"dt: must be >= 0, got {dt}")
    a, b = shape_a.packed, shape_b.packed
    separation, toi, normal, depth, mtv, points, a_in_b, b_in_a = collide_one_pair(
        a.vertices, a.normals, a.count, a.radius, xa, ya, angle_a,
        b.vertices, b.normals, b.count, b.radius, xb, yb, angle_b, vx, vy, True, dt,
    )  # fmt: skip
    return Collision(
        separation <= 0.0, toi == toi, None if toi != toi else toi, normal, depth, separation,
        mtv, points, a_in_b, b_in_a,
    )  # fmt: skip


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
    poses_a = kernel_layout(as_finite_array(poses_a, (-1, 3), "poses_a"))
    n = len(poses_a)
    poses_b = kernel_layout(as_finite_array(poses_b, (n, 3), "poses_b"))
    sweep = velocities is not None
    if sweep:
        velocities = kernel_layout(as_finite_array(velocities, (n, 2), "velocities"))
    else:
        velocities = np.zeros((n, 2))
    dt = as_finite_float(dt, "dt")
    if dt < 0.0:
        raise ValueError(f"dt: must be >= 0, got {dt}")
    table_a, first_a, parts_a, which_a = shape_table(shapes_a, n, "shapes_a")
    table_b, first_b, parts_b, which_b = shape_table(shapes_b, n, "shapes_b")
    found = collide_shape_pairs(
        *table_a, first_a, parts_a, which_a, poses_a, *table_b, first_b, parts_b, which_b,
        poses_b, velocities, sweep, dt,
    )  # fmt: skip
    separation, normal, toi, points, _, point_count, _, a_in_b, b_in_a = found
    intersect, will_intersect, depth, mtv = batch_answers(separation, normal, toi)
    return CollisionBatch(
        intersect, will_intersect, toi, normal, depth, separation, mtv, points, point_count,
        a_in_b, b_in_a,
    )  # fmt: skip


def shape_table(shapes, n: int, argument: str):
    """The distinct shapes of ``shapes`` (one shape, or a sequence of N) as one packed table.

    Returns (vertices, normals, count, radius) of all their parts, (D,) int64 first row and
    part count of each distinct shape, and (N,) int64 which distinct shape each pair uses.
    The sequence is read once, at C speed (each element's identity); finding the distinct
    ones is a kernel's loop.
    """
    if isinstance(shapes, Shape):
        catalog, which = [shapes], np.zeros(n, dtype=np.int64)
    else:
        if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__len__"):
            raise TypeError(f"{argument}: expected a shape or a sequence of shapes")
        if len(shapes) != n:
            raise ValueError(f"{argument}: expected {n} shapes (one per pose), got {len(shapes)}")
        first, which = distinct_ids(np.fromiter(map(id, shapes), dtype=np.int64, count=n))
        catalog = [shapes[i] for i in first.tolist()]
        for shape in catalog:  # the distinct elements, in the order first seen
            if not isinstance(shape, Shape):
                raise TypeError(f"{argument}: expected shapes, got {type(shape).__name__}")
    packed = [shape.packed for shape in catalog]
    if not packed:  # an empty sequence: no pairs, no parts
        table = (np.zeros((0, 1, 2)), np.zeros((0, 1, 2)), np.zeros(0, np.int64), np.zeros(0))
        return table, np.zeros(0, np.int64), np.zeros(0, np.int64), which
    parts = np.fromiter(map(len, (table.count for table in packed)), np.int64, len(packed))
    return _joined(packed), np.cumsum(parts) - parts, parts, which


def _joined(packed: list) -> tuple:
    """Packed tables joined into one (vertices, normals, count, radius), writable."""
    widths = {table.vertices.shape[1] for table in packed}
    if len(widths) > 1:
        packed = [concatenate(packed)]  # pads the narrower tables to the widest
    return tuple(np.concatenate(field) for field in zip(*packed))
