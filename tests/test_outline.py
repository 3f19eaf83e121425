"""Tests for engine.outline: cleaning and validating polygon outlines."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.outline import clean_outline, is_convex, signed_area


def shoelace(points):
    """Reference area by summing trapezoids under each edge (positive for CCW)."""
    total = 0.0
    n = len(points)
    ox, oy = points[0]
    for i in range(n):
        x0, y0 = points[i][0] - ox, points[i][1] - oy
        x1, y1 = points[(i + 1) % n][0] - ox, points[(i + 1) % n][1] - oy
        total += (x0 - x1) * (y0 + y1)
    return total / 2.0


def same_cycle(result, expected):
    """True if result lists the same points as expected in the same cyclic order."""
    result = np.asarray(result, dtype=float)
    expected = np.asarray(expected, dtype=float)
    if result.shape != expected.shape:
        return False
    return any(np.allclose(np.roll(result, k, axis=0), expected) for k in range(len(result)))


SQUARE_CCW = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]


# --- clean_outline: canonical form -------------------------------------------------------


def test_ccw_input_is_kept():
    result = clean_outline(SQUARE_CCW)
    assert result.dtype == np.float64
    assert result.shape == (4, 2)
    assert same_cycle(result, SQUARE_CCW)


def test_cw_input_comes_back_ccw():
    result = clean_outline(SQUARE_CCW[::-1])
    assert same_cycle(result, SQUARE_CCW)
    assert shoelace(result) > 0.0


def test_array_input_and_closed_ring():
    ring = np.array([*SQUARE_CCW, SQUARE_CCW[0]], dtype=np.int32)
    assert same_cycle(clean_outline(ring), SQUARE_CCW)


def test_midpoints_and_repeated_corner_are_removed():
    messy = [
        (0, 0),
        (0, 0),
        (1, 0),
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 2),
        (1, 2),
        (0, 2),
        (0, 1),
        (0, 0),
    ]
    result = clean_outline(messy)
    assert same_cycle(result, SQUARE_CCW)


def test_long_collinear_runs_and_near_duplicates_are_removed():
    # Many points along each side, with a near duplicate far below the tolerance.
    side = np.linspace(0.0, 1000.0, 40, endpoint=False)
    bottom = [(x, 0.0) for x in side]
    right = [(1000.0, y) for y in side]
    top = [(1000.0 - x, 1000.0) for x in side]
    left = [(0.0, 1000.0 - y) for y in side]
    # The tolerance is relative: 1e-7 next to (0, 0) is a repeat at this scale.
    points = bottom[:1] + [(1e-7, 1e-7)] + bottom[1:] + right + top + left
    result = clean_outline(points)
    assert same_cycle(result, [(0, 0), (1000, 0), (1000, 1000), (0, 1000)])


def test_chain_of_straight_corners_needs_repeated_removal():
    # Removing one straight corner makes the next one straight as well.
    points = [(0, 0), (1, 0), (2, 0), (3, 0), (3, 3), (2, 2), (1, 1)]
    assert same_cycle(clean_outline(points), [(0, 0), (3, 0), (3, 3)])


def test_concave_outline_keeps_its_reflex_corner():
    notch = [(0, 0), (4, 0), (4, 4), (2, 2), (0, 4)]
    result = clean_outline(notch)
    assert same_cycle(result, notch)
    assert not is_convex(result)


def test_scale_invariance_for_tiny_and_huge_outlines():
    for scale in (1e-6, 1e6, 1e150, 1e-150):
        points = [(x * scale, y * scale) for x, y in [(0, 0), (1, 0), (2, 0), (2, 1), (0, 1)]]
        result = clean_outline(points)
        assert result.shape == (4, 2)
        assert shoelace(result / scale) == pytest.approx(2.0)


def test_small_but_real_corner_is_kept():
    # A 1e-6 relative bump is far above the tolerance, so it is a real corner.
    points = [(0, 0), (1, -1e-6), (2, 0), (2, 1), (0, 1)]
    assert clean_outline(points).shape == (5, 2)


# --- clean_outline: errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("vertices", "error", "words"),
    [
        (None, TypeError, "sequence"),
        ("abcdef", TypeError, "sequence"),
        (12.5, TypeError, "sequence"),
        ([1.0, 2.0, 3.0], TypeError, "pair"),
        ([(0, 0), (1, "x"), (0, 1)], TypeError, "real numbers"),
        ([(0, 0), (1, None), (0, 1)], TypeError, "real numbers"),
        ([(0, 0), (1, 1j), (0, 1)], TypeError, "real numbers"),
        ([(0, 0), (1, 0, 0), (0, 1)], ValueError, "shape"),
        (np.zeros((3, 3)), ValueError, "shape"),
        (np.zeros(6), ValueError, "shape"),
        ([(0, 0), (1, math.nan), (0, 1)], ValueError, "must be finite"),
        ([(0, 0), (math.inf, 0), (0, 1)], ValueError, "must be finite"),
        ([(0, 0), (10**400, 0), (0, 1)], ValueError, "must be finite"),
        ([], ValueError, "fewer than 3 distinct points"),
        ([(1, 1), (1, 1), (1, 1), (1, 1)], ValueError, "fewer than 3 distinct points"),
        ([(0, 0), (1, 0), (0, 0)], ValueError, "fewer than 3 distinct points"),
        ([(0, 0), (1, 1), (2, 2), (3, 3)], ValueError, "zero area"),
        ([(0, 0), (2, 0), (1, 0), (1, 1)], ValueError, "spike"),
        ([(0, 0), (1e-300, 0), (0, 1e-300)], ValueError, "zero area"),
        ([(0, 0), (1e200, 0), (0, 1e200)], ValueError, "area must be finite"),
        ([(0, 0), (2, 0), (2, 2), (0, 2), (0, 1), (-1, 1), (0.5, 1)], ValueError, "spike"),
        ([(0, 0), (2, 0), (2, 2), (0, 2), (0, 1), (-1, 1), (0, 1)], ValueError, "touches"),
    ],
)
def test_bad_input_is_rejected(vertices, error, words):
    with pytest.raises(error) as caught:
        clean_outline(vertices, argument="shape_points")
    message = str(caught.value)
    assert message.startswith("shape_points:")
    assert words in message


def test_default_argument_name_is_vertices():
    with pytest.raises(ValueError, match=r"^vertices: "):
        clean_outline([(0, 0), (1, 1)])


def test_bow_tie_names_the_crossing_edges():
    with pytest.raises(ValueError, match=r"^vertices: outline intersects itself \(edges 0 and 2"):
        clean_outline([(0, 0), (2, 2), (2, 0), (0, 2)])


def test_pentagram_is_self_intersecting():
    star = [
        (math.cos(math.pi / 2 + 4 * math.pi * k / 5), math.sin(math.pi / 2 + 4 * math.pi * k / 5))
        for k in range(5)
    ]
    with pytest.raises(ValueError, match="intersects itself"):
        clean_outline(star)


def test_figure_eight_touching_at_a_point():
    # The path comes back to (2, 0) after leaving it.
    figure_eight = [(0, 0), (2, 0), (4, 0), (4, 1), (2, 0), (0, 1)]
    with pytest.raises(ValueError, match=r"^vertices: outline touches itself \(points 1 and 4"):
        clean_outline(figure_eight)


def test_vertex_touching_another_edge():
    # Vertex (2, 0) of the notch lies on the bottom edge from (0, 0) to (4, 0).
    touching = [(0, 0), (4, 0), (4, 3), (2, 0), (0, 3)]
    with pytest.raises(ValueError, match=r"touches itself \(edges \d+ and \d+ touch\)"):
        clean_outline(touching)


def test_edge_indices_refer_to_the_callers_points():
    # Point 1 is a duplicate; edges are numbered by the input point they start from.
    bow_tie = [(0, 0), (0, 0), (2, 2), (2, 0), (0, 2)]
    with pytest.raises(ValueError, match=r"\(edges 0 and 3 cross\)"):
        clean_outline(bow_tie)


def test_crossing_in_a_large_outline_is_found():
    # A 300-point circle whose last point is pulled across the outline.
    angles = np.linspace(0.0, 2.0 * np.pi, 300, endpoint=False)
    circle = np.column_stack([np.cos(angles), np.sin(angles)])
    assert clean_outline(circle).shape == (300, 2)
    circle[150] = (1.5, 0.2)
    with pytest.raises(ValueError, match="intersects itself"):
        clean_outline(circle)


def dense_star(n: int) -> np.ndarray:
    """A star of n points whose edges overlap along x by the million: the simplicity
    check meets its candidate pairs in many chunks."""
    angle = np.arange(n) * 2 * np.pi / n
    radius = np.where(np.arange(n) % 2 == 0, 1.0, 0.6)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def test_a_crossing_found_in_a_late_chunk_is_the_first_one():
    star = dense_star(4000)
    assert clean_outline(star).shape == (4000, 2)
    # Two far-apart crossings; the message names the first edge pair in the caller's order.
    star[[1000, 1002]] = star[[1002, 1000]]
    star[[3000, 3002]] = star[[3002, 3000]]
    with pytest.raises(ValueError, match=r"intersects itself \(edges 999 and 1001 cross\)"):
        clean_outline(star)


def test_a_revisited_point_in_a_large_outline_is_named():
    star = dense_star(4000)
    star[2500] = star[400]  # the path comes back to a point it visited long before
    star[3700] = star[1200]
    with pytest.raises(ValueError, match=r"touches itself \(points 400 and 2500 coincide\)"):
        clean_outline(star)


# --- signed_area and is_convex -----------------------------------------------------------


def test_signed_area_matches_reference():
    rng = np.random.default_rng(7)
    for _ in range(20):
        points = rng.normal(size=(int(rng.integers(3, 12)), 2)) * 100.0 + 1e4
        assert signed_area(points) == pytest.approx(shoelace(points.tolist()), rel=1e-9)


def test_signed_area_sign_and_value():
    assert signed_area(np.array(SQUARE_CCW)) == pytest.approx(4.0)
    assert signed_area(np.array(SQUARE_CCW[::-1])) == pytest.approx(-4.0)


def test_is_convex():
    assert is_convex(clean_outline(SQUARE_CCW))
    hexagon = [(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    assert is_convex(clean_outline(hexagon))
    assert not is_convex(clean_outline([(0, 0), (4, 0), (4, 4), (2, 2), (0, 4)]))


def test_is_convex_rejects_wrong_shape():
    with pytest.raises(ValueError, match="^outline:"):
        is_convex(np.zeros((2, 2)))


# --- property: only ValueError or TypeError ----------------------------------------------

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-300, max_value=1e-300),
    st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0]),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.integers(min_value=-5, max_value=5),
)
junk = st.one_of(st.none(), st.text(max_size=3), st.booleans(), st.complex_numbers(), numbers)
points = st.one_of(
    st.tuples(numbers, numbers),
    st.lists(numbers, max_size=3),
    st.lists(st.lists(numbers, max_size=2), max_size=2),
    junk,
)
anything = st.one_of(
    junk,
    st.lists(points, max_size=8),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=8),
    st.lists(st.tuples(numbers, numbers), max_size=8),
    st.recursive(junk, lambda inner: st.lists(inner, max_size=4), max_leaves=12),
)


@settings(max_examples=400, deadline=None)
@given(anything)
def test_arbitrary_input_raises_only_value_or_type_error(vertices):
    try:
        result = clean_outline(vertices)
    except (ValueError, TypeError) as error:
        assert str(error).startswith("vertices: ")
        return
    assert result.dtype == np.float64
    assert result.ndim == 2 and result.shape[1] == 2 and len(result) >= 3
    assert np.all(np.isfinite(result))
    extent = np.ptp(result, axis=0).max()
    assert shoelace(((result - result.min(axis=0)) / extent).tolist()) > 0.0
    assert 0.0 < shoelace(result.tolist()) < math.inf


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=3, max_size=9),
    st.booleans(),
)
def test_integer_grid_outlines_are_canonical_when_accepted(points, reverse):
    if reverse:
        points = points[::-1]
    try:
        result = clean_outline(points)
    except ValueError:
        return
    assert shoelace(result.tolist()) > 0.0
    n = len(result)
    for i in range(n):
        ax, ay = result[i - 1]
        bx, by = result[i]
        cx, cy = result[(i + 1) % n]
        # No straight or repeated corner: the turn has a nonzero cross product.
        assert (bx - ax) * (cy - by) - (by - ay) * (cx - bx) != 0.0
    assert abs(shoelace(result.tolist())) == pytest.approx(abs(shoelace(points)))
