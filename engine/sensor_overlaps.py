"""Which sensor shapes overlap which other shapes at the start of a step.

Sensors never push: the broad phase hands their part pairs over apart from the solid ones,
and one narrow-phase test per pair says whether they overlap now. Overlaps are kept per
shape pair, so a sensor made of several parts reports a shape once.
"""

from __future__ import annotations

import numpy as np

from .events import body_pair_keys, sensor_order, shape_pair_keys
from .narrowphase import collide_parts

# What a step without sensor overlaps finds, made once.
NO_SENSOR_KEYS = np.zeros((0, 2), dtype=np.int64)


def sensor_overlaps(parts, sensing, start, body_ids, part_sensor, part_shape):
    """Shape pairs (sensor, other) overlapping now, one per pair of shapes: keys (K, 2)
    (body-pair key, shape-pair key; sorted), body rows (K, 2) and shape indices (K, 2).

    parts: the packed parts; sensing: (4, S) rows part_a, part_b, body_a, body_b;
    start: (N + 1, 3) poses; body_ids: (N,) int64; part_sensor: (P,) bool; part_shape:
    (P,) int64 each part's shape index in its body's shapes.
    """
    if sensing.shape[1] == 0:
        return NO_SENSOR_KEYS, NO_SENSOR_KEYS, NO_SENSOR_KEYS
    part_a, part_b, body_a, body_b = sensing
    found = collide_parts(parts, part_a, start[body_a], parts, part_b, start[body_b])
    hit = found.separation <= 0.0
    pa, pb, a, b = part_a[hit], part_b[hit], body_a[hit], body_b[hit]
    # Put the sensor part first (if both are sensors, the first one speaks).
    swap = ~part_sensor[pa]
    pa, pb = np.where(swap, pb, pa), np.where(swap, pa, pb)
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    shapes = np.column_stack([part_shape[pa], part_shape[pb]])
    keys = np.column_stack([
        body_pair_keys(a, b, body_ids),
        shape_pair_keys(np.column_stack([body_ids[a], body_ids[b]]), shapes),
    ])  # fmt: skip
    rank = sensor_order(keys[:, 0], keys[:, 1])
    unique, first = np.unique(rank, return_index=True)
    return keys[first], np.column_stack([a[first], b[first]]), shapes[first]
