"""Ray casts in every copy of a ``WorldBatch`` at once (a lidar per copy).

Each copy's parts are gridded at its own poses and with its own geometry, as a World's
query index grids them (``engine.query_index.build_grid``), and its rays take the World's
first-hit walk (``engine.ray_kernels.first_hit``): copy c's hits are those
``batch.world(c).raycast_many`` gives, to the bit. The copies are spread over threads.
"""

from __future__ import annotations

import numba
import numpy as np

from .jit import kernel
from .query_index import QueryIndex, build_grid
from .ray_kernels import first_hit


@kernel(parallel=True)
def raycast_copies(positions, angles, part_body, vertices, normals, count, radius, reach,
                   category, sensor, mask, starts, ends):  # fmt: skip
    """First hits of R rays in each of C copies.

    positions (C, N, 2), angles (C, N): the copies' body poses; part_body (P,) int64,
    count (P,), radius (P,), category (P,) int64, sensor (P,) bool: shared; vertices,
    normals (C, P, K, 2), reach (C, P): each copy's geometry; mask: the rays' category
    mask; starts, ends (C, R, 2). Returns body_row (C, R) int64 (-1: no hit), fraction
    (C, R), point (C, R, 2), normal (C, R, 2) (NaN: no hit).
    """
    copies, rays = starts.shape[0], starts.shape[1]
    body_row = np.empty((copies, rays), dtype=np.int64)
    fraction = np.empty((copies, rays))
    point = np.empty((copies, rays, 2))
    normal = np.empty((copies, rays, 2))
    for c in numba.prange(copies):
        # A prange index is unsigned; the copy index is an int64 like every row index.
        raycast_copy(np.int64(c), positions, angles, part_body, vertices, normals, count,
                     radius, reach, category, sensor, mask, starts, ends, body_row, fraction,
                     point, normal)  # fmt: skip
    return body_row, fraction, point, normal


@kernel
def raycast_copy(c, positions, angles, part_body, vertices, normals, count, radius, reach,
                 category, sensor, mask, starts, ends, body_row, fraction, point,
                 normal):  # fmt: skip
    """Copy ``c``'s rays into row c of the outputs (``raycast_copies``)."""
    frames, part_ints, part_floats, grid, counts, start, keys, slot_parts, unlisted = build_grid(
        positions[c], angles[c], part_body, vertices[c], count, radius, reach[c]
    )
    index = QueryIndex(
        frames, part_ints, part_floats, vertices[c], normals[c], grid, counts, start, keys,
        slot_parts, unlisted,
    )  # fmt: skip
    for i in range(starts.shape[1]):
        hit = first_hit(
            index, category, sensor, mask, starts[c, i, 0], starts[c, i, 1], ends[c, i, 0],
            ends[c, i, 1],
        )  # fmt: skip
        body_row[c, i], fraction[c, i] = hit[0], hit[1]
        point[c, i, 0], point[c, i, 1], normal[c, i, 0], normal[c, i, 1] = (
            hit[2], hit[3], hit[4], hit[5],
        )  # fmt: skip
