"""World queries: which bodies contain a point, overlap a box, or stop a swept shape.

Every query asks the world's query index (``engine.query_index``: the parts on the broad
phase's grid, cached by the World until it changes) which parts are near, then tests only
those exactly. Python checks the arguments, makes one kernel call and builds the answer, so
a query costs a few microseconds plus what is near it, whatever the size of the world.

The functions take the state they read, never the World: the index, the part table's
columns (``Table.columns()``: (P,) arrays by name) where a filter applies, and the Body
handles by row ((N,) object array) to turn body rows into bodies. ``World.query_point`` and
the other methods gather that state and call them.

Filtering: a ray or shape cast hits a body when its category shares a bit with the query's
``mask``; sensors are never hit (a trigger zone should not block a line of sight).
query_point and query_aabb report every body there, sensors included.

``engine.raycast`` and ``engine.character`` build on the same index and checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .body import Body
from .call_args import pose_floats, vector_floats
from .cast_kernels import cast_filters, first_impact, mover_from_shape
from .filtering import ALL_CATEGORIES, check_bits
from .grid_walk import box_parts, sweep_parts
from .jit import kernel
from .part_checks import contains_point, touches_box
from .query_index import BODY, QueryIndex
from .shapes import Shape
from .sorting import sorted_unique


@dataclass(frozen=True, eq=False)
class ShapeHit:
    """The first body a swept shape meets (see :func:`shape_cast`).

    body: the Body hit. toi: fraction of the motion in [0, 1] at which they first touch
    (0 when overlapping at the start). normal: (2,) unit vector from the cast shape towards
    the body at that instant. point: (2,) world contact point at that instant.
    """

    body: Body
    toi: float
    normal: np.ndarray
    point: np.ndarray


# -- shared checks ----------------------------------------------------------------------------
def check_mask(mask) -> int:
    """A 16-bit category mask as an int: TypeError for a non-int, ValueError out of range."""
    # A plain int in range, the usual mask, skips the general check (queries are hot).
    if type(mask) is int and 0 <= mask <= ALL_CATEGORIES:
        return mask
    return check_bits(mask, "mask")


def check_body(world, body) -> int:
    """The row of ``body`` in ``world``: TypeError for a non-Body, ValueError otherwise."""
    row = world.index_of(body)  # TypeError, naming ``body``, for a non-Body
    if row < 0:
        if body._world is not world:
            raise ValueError("body: it belongs to another world")
        raise ValueError("body: it has been removed from its world")
    return row


# -- query_point ------------------------------------------------------------------------------
def query_point(index: QueryIndex, handles: np.ndarray, point) -> list:
    """Bodies whose shapes contain ``point`` (2,); touching counts. Returned in body order.

    index: the world's QueryIndex at its current poses; handles: (N,) object array, the
    Body of each body row. Exact for polygons and circles. Raises TypeError for a
    non-numeric point, ValueError for a point of the wrong shape or with NaN/infinity.
    """
    x, y = vector_floats(point, "point")
    return handles[point_bodies(*index, x, y)].tolist()


@kernel
def point_bodies(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, x, y,
):  # fmt: skip
    """Body rows (M,) int64, ascending, whose parts contain the point (x, y)."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    near = box_parts(index, x, y, x, y)
    rows = np.empty(len(near), dtype=np.int64)
    found = 0
    for p in near:
        if contains_point(index, p, x, y):
            rows[found] = part_ints[p, BODY]
            found += 1
    return sorted_unique(rows[:found])


# -- query_aabb -------------------------------------------------------------------------------
def query_aabb(index: QueryIndex, handles: np.ndarray, lower, upper) -> list:
    """Bodies whose shapes overlap the box ``lower``..``upper`` (each (2,)); touching counts.

    index, handles: as for :func:`query_point`. Exact (separating axes: the box's two and
    each polygon's faces; circles by the distance from the centre to the box), not just a
    bounding-box test. A zero-width box is allowed. Returned in body order. ValueError when
    ``upper < lower`` on an axis.
    """
    lo_x, lo_y = vector_floats(lower, "lower")
    hi_x, hi_y = vector_floats(upper, "upper")
    if hi_x < lo_x or hi_y < lo_y:
        low, high = np.array([lo_x, lo_y]), np.array([hi_x, hi_y])
        raise ValueError(f"upper: must be >= lower on both axes, got {high} < {low}")
    return handles[box_bodies(*index, lo_x, lo_y, hi_x, hi_y)].tolist()


@kernel
def box_bodies(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, lo_x, lo_y, hi_x, hi_y,
):  # fmt: skip
    """Body rows (M,) int64, ascending, whose parts overlap the box lo..hi."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    near = box_parts(index, lo_x, lo_y, hi_x, hi_y)
    rows = np.empty(len(near), dtype=np.int64)
    found = 0
    for p in near:
        if touches_box(index, p, lo_x, lo_y, hi_x, hi_y):
            rows[found] = part_ints[p, BODY]
            found += 1
    return sorted_unique(rows[:found])


# -- shape_cast -------------------------------------------------------------------------------
def shape_cast(
    index: QueryIndex, parts: dict, handles: np.ndarray, shape, pose, motion,
    mask: int = ALL_CATEGORIES,
) -> ShapeHit | None:  # fmt: skip
    """The first body ``shape`` at ``pose`` (x, y, angle) meets when translated by ``motion``.

    index, handles: as for :func:`query_point`; parts: the part table's columns (its
    category (P,) int64 and sensor (P,) bool are read). shape: any Shape but a Chain
    (ValueError), in its own frame; pose: (3,); motion: (2,) m. Exact for translations (the
    swept separating-axis kernel). Sensors and bodies whose category shares no bit with
    ``mask`` are ignored. Returns None when nothing is hit, toi 0 when the shape already
    overlaps or touches a body. Ties in toi go to the body added first.
    """
    if not isinstance(shape, Shape):
        raise TypeError(f"shape: expected a shape, got {type(shape).__name__}")
    if getattr(shape, "_one_sided", False):
        raise ValueError(
            "shape: a Chain is one-sided terrain and cannot be cast; cast a Segment or a "
            "shape with an inside"
        )
    x, y, angle = pose_floats(pose, "pose")
    mx, my = vector_floats(motion, "motion")
    mask = check_mask(mask)
    packed = shape.packed
    row, toi, nx, ny, px, py = cast_shape(
        *index, -1, cast_filters(parts), mask,
        packed.vertices, packed.normals, packed.count, packed.radius, x, y, angle, mx, my,
    )  # fmt: skip
    if row < 0:
        return None
    return ShapeHit(handles[row], toi, np.array([nx, ny]), np.array([px, py]))


@kernel
def cast_shape(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, no_row, filters, mask, shape_vertices, shape_normals,
    shape_count, shape_radius, x, y, angle, mx, my,
):  # fmt: skip
    """The first impact (body row or -1, toi, normal x, y, point x, y) of a shape's packed
    parts (read-only arrays, (S, K, 2) and (S,)) at (x, y, angle) swept by (mx, my).

    no_row: -1, the mover's body row in the filter (a cast is no body of the world).
    """
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    mover = mover_from_shape(shape_vertices, shape_normals, shape_count, shape_radius)
    return first_impact(index, mover, x, y, angle, mx, my, no_row, filters, mask)


# -- candidates, for tests and tools ----------------------------------------------------------
def sweep_candidates(index: QueryIndex, start, end, half) -> tuple[np.ndarray, np.ndarray]:
    """Parts near R boxes of half-size ``half`` swept from centre ``start`` to ``end``.

    start, end, half: (R, 2) float64 (a box query is a sweep with start == end; a ray has
    half == 0). Returns (owner (M,), part (M,)) int64, sorted by owner then part, each pair
    once: a superset of the parts that touch the swept region.
    """
    arrays = [np.ascontiguousarray(a, dtype=np.float64) for a in (start, end, half)]
    return sweeps_parts(*index, *arrays)


@kernel
def sweeps_parts(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, start, end, half,
):  # fmt: skip
    """(owner, part) of every part near each of R sweeps (see :func:`sweep_candidates`)."""
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    parts = []
    total = 0
    for r in range(len(start)):
        near = sweep_parts(
            index, start[r, 0], start[r, 1], end[r, 0], end[r, 1], half[r, 0], half[r, 1]
        )
        parts.append(near)
        total += len(near)
    owner = np.empty(total, dtype=np.int64)
    part = np.empty(total, dtype=np.int64)
    at = 0
    for r in range(len(parts)):
        owner[at : at + len(parts[r])] = r
        part[at : at + len(parts[r])] = parts[r]
        at += len(parts[r])
    return owner, part
