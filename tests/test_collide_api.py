"""The public collide and collide_many calls: argument forms, bad input, and batches of many
distinct shapes.

``collide`` reads plain tuples, lists and 1-D arrays straight into floats and hands the
rest to the general validation; both routes must give the same answers and the same errors.
``collide_many`` finds the distinct shapes of its sequences and leaves the pairs to kernels;
every row must equal the one-pair ``collide`` of that pair.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, ConcavePolygon, Polygon, collide, collide_many

U_SHAPE = ConcavePolygon([(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)])
CATALOG = [
    Box(1.5, 1.0),
    Circle(0.6, (0.2, -0.1)),
    Polygon([(0, 0), (1.2, 0.1), (0.4, 0.9)]),
    U_SHAPE,
    Box(0.3, 2.0, offset=(0.5, 0.2), angle=0.4),
]


def same_collision(got, expected) -> None:
    for field in expected.__dataclass_fields__:
        a, b = getattr(got, field), getattr(expected, field)
        if isinstance(b, np.ndarray):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == np.float64
        else:
            assert a == b and type(a) is type(b), field


def test_every_argument_form_gives_the_same_answer():
    expected = collide(Box(2, 1), (0.3, 0.1, 0.2), Circle(1), (1.5, 0.4, 0.0), (2.0, -1.0), 0.5)
    forms = [
        ([0.3, 0.1, 0.2], [1.5, 0.4, 0.0], [2.0, -1.0], 0.5),
        (np.array([0.3, 0.1, 0.2]), np.array([1.5, 0.4, 0.0]), np.array([2.0, -1.0]), 0.5),
        (
            np.array([0.3, 0.1, 0.2]).view(),
            (np.float64(1.5), np.float64(0.4), 0),
            (2, -1),
            np.float64(0.5),
        ),
        (np.array([[0.3, 0.1, 0.2]])[0], np.array([1.5, 0.4, 0.0])[::1], [2, -1.0], 0.5),
    ]
    read_only = np.array([0.3, 0.1, 0.2])
    read_only.flags.writeable = False
    forms.append((read_only, (1.5, 0.4, 0.0), np.array([2.0, -1.0], dtype=np.float32), 0.5))
    for pose_a, pose_b, velocity, dt in forms:
        same_collision(collide(Box(2, 1), pose_a, Circle(1), pose_b, velocity, dt), expected)


BAD = [
    # A number is a real number: no strings, no bools (the general route refuses them).
    (lambda: collide(Box(1, 1), ("0.3", "0.1", "0.2"), Box(1, 1), (0, 0, 0)), TypeError, "pose_a"),
    (lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (1.5, 0.4, False)), TypeError, "pose_b"),
    (lambda: collide("box", (0, 0, 0), Box(1, 1), (0, 0, 0)), TypeError, "shape_a"),
    (lambda: collide(Box(1, 1), (0, 0, 0), None, (0, 0, 0)), TypeError, "shape_b"),
    (lambda: collide(Box(1, 1), (0, 0), Box(1, 1), (0, 0, 0)), ValueError, "pose_a"),
    (lambda: collide(Box(1, 1), (0, 0, math.nan), Box(1, 1), (0, 0, 0)), ValueError, "pose_a"),
    (lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, math.inf, 0)), ValueError, "pose_b"),
    (lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), "here"), TypeError, "pose_b"),
    (lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (10**400, 0, 0)), ValueError, "pose_b"),
    (lambda: collide(Box(1, 1), [[0, 0, 0]], Box(1, 1), (0, 0, 0)), ValueError, "pose_a"),
    (
        lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, 0, 0), (1, 2, 3)),
        ValueError,
        "velocity",
    ),  # fmt: skip
    # None is not a number (numpy would read it as NaN)
    (
        lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, 0, 0), (1, None)),
        TypeError,
        "velocity",
    ),  # fmt: skip
    (
        lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, 0, 0), (1, 0), -1.0),
        ValueError,
        "dt",
    ),  # fmt: skip
    (
        lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, 0, 0), (1, 0), math.nan),
        ValueError,
        "dt",
    ),  # fmt: skip
    (lambda: collide(Box(1, 1), (0, 0, 0), Box(1, 1), (0, 0, 0), (1, 0), "1"), TypeError, "dt"),
    (lambda: collide(U_SHAPE, (0, 0, 0), Box(1, 1), (0, 0, 0), (1, 0), -2), ValueError, "dt"),
    (
        lambda: collide_many([Box(1, 1), "box"], np.zeros((2, 3)), Box(1, 1), np.zeros((2, 3))),
        TypeError,
        "shapes_a",
    ),  # fmt: skip
    (
        lambda: collide_many(Box(1, 1), np.zeros((2, 3)), [Box(1, 1), [1]], np.zeros((2, 3))),
        TypeError,
        "shapes_b",
    ),  # fmt: skip
    (
        lambda: collide_many([Box(1, 1)], np.zeros((2, 3)), Box(1, 1), np.zeros((2, 3))),
        ValueError,
        "shapes_a",
    ),  # fmt: skip
    (
        lambda: collide_many(Box(1, 1), np.zeros((2, 3)), Box(1, 1), np.zeros((3, 3))),
        ValueError,
        "poses_b",
    ),  # fmt: skip
    (
        lambda: collide_many(Box(1, 1), np.zeros((2, 3)), Box(1, 1), np.zeros((2, 3)), dt=-1.0),
        ValueError,
        "dt",
    ),  # fmt: skip
]


@pytest.mark.parametrize("call, error, name", BAD)
def test_bad_input_raises_naming_the_argument(call, error, name):
    with pytest.raises(error, match=f"^{name}:"):
        call()


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 60), swept=st.booleans())
def test_batches_of_many_distinct_shapes_equal_one_pair_at_a_time(seed, n, swept):
    """Sequences mixing shared and fresh shapes (convex and concave), read-only poses."""
    rng = np.random.default_rng(seed)
    fresh = [Box(*rng.uniform(0.2, 2.0, 2)) for _ in range(4)] + [Circle(rng.uniform(0.2, 1))]
    pool = CATALOG + fresh
    shapes_a = [pool[i] for i in rng.integers(0, len(pool), n)]
    shapes_b = [pool[i] for i in rng.integers(0, len(pool), n)]
    poses_a = np.column_stack([rng.uniform(-2, 2, (n, 2)), rng.uniform(-3, 3, n)])
    poses_b = np.column_stack([rng.uniform(-2, 2, (n, 2)), rng.uniform(-3, 3, n)])
    poses_b.flags.writeable = False
    velocities = rng.normal(size=(n, 2)) * 3 if swept else None
    batch = collide_many(shapes_a, poses_a, tuple(shapes_b), poses_b, velocities, 0.5)
    assert len(batch) == n
    for i in range(n):
        velocity = (0.0, 0.0) if velocities is None else velocities[i]
        one = collide(shapes_a[i], poses_a[i], shapes_b[i], poses_b[i], velocity, 0.5)
        row = batch[i]
        for field in ("intersect", "normal", "depth", "separation", "mtv", "points", "a_in_b",
                      "b_in_a"):  # fmt: skip
            np.testing.assert_array_equal(getattr(row, field), getattr(one, field))
        if velocities is not None:
            assert row.toi == one.toi and row.will_intersect == one.will_intersect


def test_an_empty_batch():
    batch = collide_many([], np.zeros((0, 3)), Box(1, 1), np.zeros((0, 3)))
    assert len(batch) == 0 and batch.normal.shape == (0, 2) and batch.points.shape == (0, 2, 2)
