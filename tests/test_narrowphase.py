"""Narrow phase: the compiled kernel against the earlier numpy batch implementation, field by field.

``tests/numpy_reference`` holds the narrow phase as it was written before the kernels: numpy
operations on whole batches, proven against the independent oracles of ``tests/oracles.py``.
The kernel must give the same answers for every kind of pair (polygon-polygon of any vertex
counts, polygon-circle both ways round, circle-circle), every pose, velocity, margin and
flip tolerance. The two perform the same float operations in the same order (but for the
cos and sin of small turns, which the kernel takes from their series, ``engine.rotation``),
so floats are held to 1e-12 of the pair's scale and counts, features and containment must
be equal.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numpy_reference.narrowphase import collide_parts as reference
from test_collide_properties import shapes

from engine.narrowphase import collide_parts
from engine.packing import concatenate

coordinates = st.floats(-3.0, 3.0)


@st.composite
def batches(draw):
    """Shapes of one scale, N pairs of them at random poses and velocities, and settings."""
    scale = draw(st.floats(-1.0, 1.0).map(lambda e: 10.0**e))
    cases = draw(st.lists(shapes(scale=scale), min_size=2, max_size=5))
    n = draw(st.integers(1, 40))

    def column(values, count=n):
        return np.array(draw(st.lists(values, min_size=count, max_size=count)))

    def poses():
        xy = scale * column(coordinates, 2 * n).reshape(n, 2)
        return np.column_stack([xy, column(st.floats(-7.0, 7.0))])

    rows = st.integers(0, len(cases) - 1)
    return (
        [case.shape for case in cases],
        column(rows),
        poses(),
        column(rows),
        poses(),
        scale * column(st.floats(-60.0, 60.0), 2 * n).reshape(n, 2),
        draw(st.sampled_from([0.0, 1 / 60, 0.5])),
        scale * draw(st.sampled_from([0.0, 0.02, 0.3])),
        scale * draw(st.sampled_from([0.0, 5e-4])),
        draw(st.booleans()),
    )


@given(batches())
def test_kernel_equals_the_numpy_reference(batch):
    shapes_list, rows_a, poses_a, rows_b, poses_b, velocity, dt, margin, flip, sweep = batch
    table = concatenate([shape.packed for shape in shapes_list])
    # Each shape's first part: one convex part per row.
    first = np.cumsum([len(s.packed.count) for s in shapes_list]) - [
        len(s.packed.count) for s in shapes_list
    ]
    parts_a, parts_b = first[rows_a], first[rows_b]
    v = velocity if sweep else None
    got = collide_parts(table, parts_a, poses_a, table, parts_b, poses_b, v, dt, margin, flip)
    want = reference(table, parts_a, poses_a, table, parts_b, poses_b, v, dt, margin, flip)
    scale = 1.0 + np.abs(poses_a[:, :2]).max() + np.abs(poses_b[:, :2]).max()
    for name, mine, theirs in zip(got._fields, got, want):
        if mine.dtype.kind == "f":
            both_nan = np.isnan(mine) & np.isnan(theirs)
            assert np.array_equal(np.isnan(mine), np.isnan(theirs)), name
            close = np.isclose(mine, theirs, rtol=0.0, atol=1e-12 * scale * max(1.0, dt * 60))
            assert (close | both_nan).all(), name
        else:
            assert np.array_equal(mine, theirs), name


def test_kernel_handles_an_empty_batch():
    table = concatenate([shape.packed for shape in shapes_list_example()])
    none = np.zeros(0, dtype=np.int64)
    found = collide_parts(table, none, np.zeros((0, 3)), table, none, np.zeros((0, 3)))
    assert all(len(field) == 0 for field in found)


def shapes_list_example():
    from engine import Box, Circle

    return [Box(1, 1), Circle(0.5)]


def test_touch_tolerance_snaps_a_pair_moved_apart_by_its_own_mtv():
    from engine import Box, collide

    pose_b = (0.7, 0.3, math.pi / 7)
    hit = collide(Box(1, 1), (0, 0, 0.2), Box(1, 1), pose_b)
    moved = np.array([*hit.mtv, 0.0]) + (0, 0, 0.2)
    again = collide(Box(1, 1), moved, Box(1, 1), pose_b)
    assert again.separation == 0.0 and again.intersect
