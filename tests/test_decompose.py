"""Tests for engine.decompose: ear clipping and Hertel-Mehlhorn convex decomposition.

The checks here do not reuse the code under test: areas, convexity, point-in-polygon and
distances to edges are computed independently in this file.
"""

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.decompose import decompose, merge_triangles, triangulate
from engine.outline import clean_outline

# --- independent geometry ----------------------------------------------------------------


def area(points):
    """Shoelace area by trapezoids, measured from the first point (positive for CCW)."""
    pts = np.asarray(points, dtype=float)
    pts = pts - pts[0]
    nxt = np.roll(pts, -1, axis=0)
    return float(np.sum((pts[:, 0] - nxt[:, 0]) * (pts[:, 1] + nxt[:, 1])) / 2.0)


def corner_crosses(points):
    """Cross product of incoming and outgoing edge at every corner, shape (n,)."""
    pts = np.asarray(points, dtype=float)
    incoming = pts - np.roll(pts, 1, axis=0)
    outgoing = np.roll(pts, -1, axis=0) - pts
    return incoming[:, 0] * outgoing[:, 1] - incoming[:, 1] * outgoing[:, 0]


def is_strictly_convex_ccw(points):
    """Every corner turns left and the corners wind around once."""
    pts = np.asarray(points, dtype=float)
    if len(pts) < 3 or not np.all(corner_crosses(pts) > 0.0):
        return False
    edges = np.roll(pts, -1, axis=0) - pts
    heading = np.unwrap(np.arctan2(edges[:, 1], edges[:, 0]))
    total_turn = heading[-1] - heading[0] + _turn(edges[-1], edges[0])
    return bool(np.isclose(total_turn, 2.0 * np.pi))


def _turn(u, v):
    return math.atan2(u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1])


def inside(samples, polygon):
    """Ray crossing test: True for samples (m, 2) strictly inside the polygon (either way)."""
    poly = np.asarray(polygon, dtype=float)
    x, y = samples[:, 0], samples[:, 1]
    result = np.zeros(len(samples), dtype=bool)
    for (x0, y0), (x1, y1) in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        straddles = (y0 > y) != (y1 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_cross = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        result ^= straddles & (x < x_cross)
    return result


def distance_to_edges(samples, polygon):
    """Distance from each sample (m, 2) to the nearest edge of polygon; shape (m,)."""
    poly = np.asarray(polygon, dtype=float)
    best = np.full(len(samples), np.inf)
    for start, end in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        edge = end - start
        t = np.clip((samples - start) @ edge / (edge @ edge), 0.0, 1.0)
        nearest = start + t[:, None] * edge
        best = np.minimum(best, np.hypot(*(samples - nearest).T))
    return best


def check_partition(outline, parts, samples=3000, seed=0):
    """Assert that parts are strictly convex CCW pieces that tile the outline exactly."""
    outline = np.asarray(outline, dtype=float)
    assert len(parts) >= 1
    total = abs(area(outline))
    assert sum(area(p) for p in parts) == pytest.approx(total, rel=1e-9)
    outline_rows = {tuple(row) for row in outline.tolist()}
    for part in parts:
        assert part.dtype == np.float64 and part.ndim == 2 and part.shape[1] == 2
        assert is_strictly_convex_ccw(part), part
        assert all(tuple(row) in outline_rows for row in part.tolist())
        assert len({tuple(row) for row in part.tolist()}) == len(part)

    # Random points away from every edge lie in exactly one part inside, none outside.
    low, high = outline.min(axis=0), outline.max(axis=0)
    extent = float(np.max(high - low))
    rng = np.random.default_rng(seed)
    pts = low + rng.random((samples, 2)) * (high - low)
    near = distance_to_edges(pts, outline) < 1e-7 * extent
    for part in parts:
        near |= distance_to_edges(pts, part) < 1e-7 * extent
    pts = pts[~near]
    in_outline = inside(pts, outline)
    counts = sum(inside(pts, part).astype(int) for part in parts)
    assert np.all(counts[in_outline] == 1)
    assert np.all(counts[~in_outline] == 0)
    assert in_outline.sum() > samples // 20  # the sampling did test the interior


# --- outlines that trip up naive ear clipping --------------------------------------------


def with_points_along_edges(corners, per_edge):
    """Outline through corners with per_edge - 1 extra points evenly along each edge."""
    corners = np.asarray(corners, dtype=float)
    out = []
    for start, end in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        for t in np.arange(per_edge) / per_edge:
            out.append(start + t * (end - start))
    return np.array(out)


L_CORNERS = [(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]
U_CORNERS = [(0, 0), (5, 0), (5, 4), (4, 4), (4, 1), (1, 1), (1, 4), (0, 4)]
ARROW = [(0, 0), (4, 0), (4, 4), (2, 2), (0, 4)]  # (2, 2) is on the diagonal (0,0)-(4,4)
NOTCHED_SQUARE = [(0, 0), (4, 0), (4, 4), (2.5, 4), (2.5, 2), (1.5, 2), (1.5, 4), (0, 4)]
V_NOTCH = [(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)]


def star(points=5, outer=1.0, inner=0.4):
    angles = np.pi / 2 + np.arange(2 * points) * np.pi / points
    radii = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])


def comb(teeth):
    """Comb with its teeth up; the gaps' bottoms all lie on the line y = 1."""
    width = 2 * teeth - 1
    pts = [(0, 0), (width, 0)]
    for i in reversed(range(teeth)):
        pts += [(2 * i + 1, 4), (2 * i, 4)]
        if i > 0:
            pts += [(2 * i, 1), (2 * i - 1, 1)]
    return np.array(pts, dtype=float)


def spiral(samples=60, turns=2.0):
    """Thick Archimedean spiral: outer edge outwards, inner edge back in."""
    theta = np.linspace(0.0, 2.0 * np.pi * turns, samples)
    inner = 0.5 + theta * 0.25 / np.pi  # the turns are 0.5 apart
    outer = inner + 0.25
    out_pts = np.column_stack([outer * np.cos(theta), outer * np.sin(theta)])
    in_pts = np.column_stack([inner * np.cos(theta), inner * np.sin(theta)])
    return np.vstack([out_pts, in_pts[::-1]])


HARD_OUTLINES = {
    "L with collinear runs": with_points_along_edges(L_CORNERS, 8),
    "U with collinear runs": with_points_along_edges(U_CORNERS, 6),
    "star": star(),
    "comb": comb(12),
    "spiral": spiral(),
    "arrow": np.array(ARROW, dtype=float),
    "notched square": np.array(NOTCHED_SQUARE, dtype=float),
    "V notch": np.array(V_NOTCH, dtype=float),
}


@pytest.mark.parametrize("name", sorted(HARD_OUTLINES))
@pytest.mark.parametrize(("scale", "offset"), [(1.0, 0.0), (1e-3, 5.0), (1e3, -2e4)])
def test_decompose_cleaned_hard_outlines(name, scale, offset):
    outline = clean_outline(HARD_OUTLINES[name] * scale + offset)
    parts = decompose(outline)
    check_partition(outline, parts)
    assert len(parts) <= len(outline) - 2


@pytest.mark.parametrize("name", sorted(HARD_OUTLINES))
def test_decompose_accepts_uncleaned_collinear_and_cw_outlines(name):
    # Straight corners stay in the outline here, and every other run is clockwise.
    raw = HARD_OUTLINES[name]
    for outline in (raw, raw[::-1].copy()):
        parts = decompose(outline)
        check_partition(outline, parts, seed=1)


@pytest.mark.parametrize("name", sorted(HARD_OUTLINES))
def test_triangulate_gives_n_minus_2_ccw_triangles(name):
    outline = HARD_OUTLINES[name]
    for pts in (outline, outline[::-1].copy()):
        triangles = triangulate(pts)
        n = len(pts)
        assert triangles.dtype == np.int64
        assert triangles.shape == (n - 2, 3)
        assert triangles.min() >= 0 and triangles.max() < n
        corners = pts[triangles]
        areas = np.array([area(tri) for tri in corners])
        assert np.all(areas > 0.0)
        # Triangles (CCW, positive area) tile the outline: the same partition check.
        check_partition(pts, list(corners), seed=2)


def test_spiral_has_many_vertices_and_few_parts():
    outline = clean_outline(spiral(samples=80))
    assert len(outline) >= 150
    parts = decompose(outline)
    check_partition(outline, parts, samples=6000)
    # Each of the 78 quadrilateral strips is convex, so about that many parts are optimal.
    assert len(parts) <= 4 * 78


def test_l_and_notched_square_give_few_parts():
    assert len(decompose(clean_outline(with_points_along_edges(L_CORNERS, 8)))) == 2
    assert len(decompose(clean_outline(NOTCHED_SQUARE))) <= 4


def test_star_parts():
    parts = decompose(clean_outline(star()))
    # A five-pointed star needs at least 3 convex parts; Hertel-Mehlhorn is within 4x.
    assert 3 <= len(parts) <= 8


def test_comb_parts_stay_near_optimal():
    teeth = 12
    parts = decompose(clean_outline(comb(teeth)))
    # One part per tooth plus the base would be optimal.
    assert len(parts) <= 4 * (teeth + 1)


def test_arrow_keeps_the_vertex_on_the_diagonal_out_of_the_big_triangle():
    outline = clean_outline(ARROW)
    parts = decompose(outline)
    check_partition(outline, parts)
    assert sorted(len(p) for p in parts) == [3, 3]


def test_convex_outline_gives_one_part():
    angles = np.linspace(0.0, 2.0 * np.pi, 17, endpoint=False)
    outline = clean_outline(np.column_stack([np.cos(angles), 0.5 * np.sin(angles)]))
    parts = decompose(outline)
    assert len(parts) == 1
    np.testing.assert_array_equal(parts[0], outline)
    assert parts[0] is not outline


def test_convex_outline_with_straight_corners_gives_one_clean_part():
    square = with_points_along_edges([(0, 0), (1, 0), (1, 1), (0, 1)], 5)
    parts = decompose(square)
    assert len(parts) == 1
    assert {tuple(row) for row in parts[0].tolist()} == {(0, 0), (1, 0), (1, 1), (0, 1)}


def test_merge_triangles_returns_ccw_index_lists():
    outline = clean_outline(U_CORNERS)
    triangles = triangulate(outline)
    parts = merge_triangles(outline, triangles)
    assert 3 <= len(parts) <= len(triangles)
    for part in parts:
        assert part.dtype == np.int64 and part.ndim == 1
        assert is_strictly_convex_ccw(outline[part])
    check_partition(outline, [outline[p] for p in parts])


def smallest_angles(triangles):
    """Smallest interior angle (radians) of each triangle in a (m, 3, 2) array."""
    to_next = np.roll(triangles, -1, axis=1) - triangles
    to_prev = np.roll(triangles, 1, axis=1) - triangles
    cosine = np.sum(to_next * to_prev, axis=2) / (
        np.linalg.norm(to_next, axis=2) * np.linalg.norm(to_prev, axis=2)
    )
    return np.arccos(np.clip(cosine, -1.0, 1.0)).min(axis=1)


def test_triangles_prefer_good_shapes():
    # A kite split along its long diagonal gives 6-degree slivers; the short one is better.
    kite = np.array([(0, 0), (10, -1), (20, 0), (10, 1)], dtype=float)
    triangles = triangulate(kite).tolist()
    used = {frozenset(pair) for a, b, c in triangles for pair in ((a, b), (b, c), (c, a))}
    assert frozenset((1, 3)) in used and frozenset((0, 2)) not in used

    # A 10 x 1 strip with points every 1 along its long sides: a zigzag of right
    # triangles is possible, while a fan from one corner would give slivers.
    strip = with_points_along_edges([(0, 0), (10, 0), (10, 1), (0, 1)], 10)
    strip = strip[np.r_[0:11, 20:31]]  # drop the points added along the short sides
    smallest = smallest_angles(strip[triangulate(strip)])
    assert smallest.min() > math.radians(40.0)


@pytest.mark.parametrize("name", sorted(HARD_OUTLINES))
def test_fallback_still_gives_n_minus_2_triangles(name, monkeypatch):
    # Pretend rounding blocks every ear, so each step takes the fallback choice.
    import engine.decompose

    monkeypatch.setattr(engine.decompose._EarClipper, "_blocked", lambda *args: True)
    outline = HARD_OUTLINES[name]
    triangles = triangulate(outline)
    assert triangles.shape == (len(outline) - 2, 3)
    areas = [area(tri) for tri in outline[triangles]]
    # Clipping always removes a left-turning corner, so no triangle is degenerate or CW.
    assert min(areas) > 0.0
    check_partition(outline, list(outline[triangles]), samples=1000)


@pytest.mark.parametrize(
    ("outline", "error"),
    [
        (None, TypeError),
        ("square", TypeError),
        ([[0, 0], [1, "a"], [0, 1]], TypeError),
        (np.zeros((2, 2)), ValueError),
        (np.zeros((4, 3)), ValueError),
        ([[0, 0], [1, math.nan], [0, 1]], ValueError),
    ],
)
def test_bad_outline_is_rejected(outline, error):
    for function in (decompose, triangulate):
        with pytest.raises(error, match="^outline: "):
            function(outline)


def test_bad_triangles_are_rejected():
    outline = np.array(ARROW, dtype=float)
    with pytest.raises(ValueError, match="^triangles: "):
        merge_triangles(outline, np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="^triangles: "):
        merge_triangles(outline, np.array([[0, 1, 9]]))


# --- property: random star-shaped polygons -----------------------------------------------


@st.composite
def star_shaped_polygons(draw):
    n = draw(st.integers(min_value=3, max_value=40))
    # Angular gaps between 1 and 1.8 units keep every gap below half a turn, so the
    # polygon is strictly star-shaped around the origin and hence simple.
    gaps = np.array(draw(st.lists(st.floats(1.0, 1.8), min_size=n, max_size=n)))
    angles = np.cumsum(gaps) / gaps.sum() * 2.0 * np.pi
    radii = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)))
    scale = 10.0 ** draw(st.floats(-2.0, 2.0))
    rotation = draw(st.floats(0.0, 2.0 * np.pi))
    angles = angles + rotation
    pts = scale * np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    pts = pts + scale * np.array(draw(st.tuples(st.floats(-3, 3), st.floats(-3, 3))))
    return pts[::-1].copy() if draw(st.booleans()) else pts


@settings(max_examples=120, deadline=None)
@given(star_shaped_polygons())
def test_random_star_shaped_polygons(points):
    outline = clean_outline(points)
    assert area(outline) > 0.0
    parts = decompose(outline)
    assert len(parts) <= len(outline) - 2
    assert sum(area(p) for p in parts) == pytest.approx(area(outline), rel=1e-9)
    for part in parts:
        assert is_strictly_convex_ccw(part)


@settings(max_examples=25, deadline=None)
@given(star_shaped_polygons(), st.integers(0, 2**32 - 1))
def test_random_star_shaped_polygons_are_tiled_exactly(points, seed):
    outline = clean_outline(points)
    check_partition(outline, decompose(outline), samples=1500, seed=seed)


# --- large outlines: memory that grows with the outline, not with its square --------------


@pytest.mark.parametrize(
    "outline",
    [star(300, 1.0, 0.7), comb(150), spiral(600, turns=3.0)],
    ids=["star of 600", "comb of 600", "spiral of 1200"],
)
def test_large_outlines_are_tiled_exactly(outline):
    cleaned = clean_outline(outline)
    check_partition(cleaned, decompose(cleaned), samples=2000)


MEMORY_PROBE = """
import resource, sys
import numpy as np
from engine import ConcavePolygon
n = int(sys.argv[1])
angle = np.arange(n) * 2 * np.pi / n
radius = np.where(np.arange(n) % 2 == 0, 1.0, 0.6)
outline = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ConcavePolygon(outline)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_a_large_concave_outline_is_built_in_memory_linear_in_its_size():
    """A 4,000-vertex star: the outline checks used to build 4,000 x 4,000 matrices (about
    250 MB here, 1 GB at 8,000 vertices); the peak must now stay near the outline's size."""
    result = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, "4000"],
        capture_output=True,
        text=True,
        check=True,
    )
    peak_growth_mb = float(result.stdout)
    assert peak_growth_mb < 60.0
