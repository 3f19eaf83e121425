"""Shapes: area, centroid, inertia, bounding boxes and argument checks, against oracles.

Tolerances: the engine's closed forms and the quadrature oracles round differently, each to
about 1e-15 of the scale involved. We allow 1e-9 relative, a million times that, while a
formula error (a wrong factor, a missing parallel-axis term, a sign) is at least 1e-3.
"""

from __future__ import annotations

import math

import numpy as np
import oracles
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, ConcavePolygon, Polygon

REL = 1e-9  # see the module docstring

sizes = st.floats(-2.0, 2.0).map(lambda e: 10.0**e)  # 1e-2 .. 1e2, log-uniform
densities = st.floats(-1.0, 3.0).map(lambda e: 10.0**e)
angles = st.floats(-10.0, 10.0)
positions = st.floats(-100.0, 100.0)


@st.composite
def convex_vertices(draw):
    n = draw(st.integers(3, 8))
    return oracles.convex_polygon_from(
        gaps=draw(st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n)),
        phase=draw(st.floats(0.0, 2.0 * math.pi)),
        scale=draw(sizes),
        aspect=draw(st.floats(0.25, 1.0)),
        offset=(draw(st.floats(-2.0, 2.0)), draw(st.floats(-2.0, 2.0))),
        reverse=draw(st.booleans()),
        roll=draw(st.integers(0, n - 1)),
    )


@st.composite
def star_vertices(draw):
    n = draw(st.integers(4, 10))
    # gaps >= half the largest keep every angular gap below pi: the outline is simple
    return oracles.star_polygon_from(
        gaps=draw(st.lists(st.floats(0.5, 1.0), min_size=n, max_size=n)),
        radii=draw(st.lists(st.floats(0.3, 1.0), min_size=n, max_size=n)),
        phase=draw(st.floats(0.0, 2.0 * math.pi)),
        scale=draw(sizes),
        offset=(draw(st.floats(-2.0, 2.0)), draw(st.floats(-2.0, 2.0))),
    )


def reach(vertices, centre) -> float:
    """Largest distance of a vertex from centre: the length scale of an inertia."""
    return float(np.max(np.hypot(*(np.asarray(vertices) - centre).T)))


def assert_same_cycle_set(got, expected, tol):
    """Every expected vertex appears among got (within tol) and the counts match."""
    got = np.asarray(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    for p in expected:
        assert np.min(np.hypot(*(got - p).T)) <= tol, (p, got)


# --------------------------------------------------------------------------------------------
# Oracle self-checks (so that a wrong oracle cannot pass a wrong engine)


def test_oracle_quadrature_known_values():
    # unit square: A = 1, centroid (0.5, 0.5), polar moment 1/6; right triangle legs 3, 4:
    # centroid (1, 4/3), Ix = b h^3 / 36 = 3 * 64 / 36, Iy = h b^3 / 36 = 4 * 27 / 36
    a, c, i = oracles.polygon_integrals([(0, 0), (1, 0), (1, 1), (0, 1)])
    assert (a, i) == pytest.approx((1.0, 1.0 / 6.0), rel=1e-14)
    assert c == pytest.approx([0.5, 0.5], abs=1e-14)
    a, c, i = oracles.polygon_integrals([(0, 0), (0, 4), (3, 0)])  # clockwise on purpose
    assert a == pytest.approx(6.0, rel=1e-14)
    assert c == pytest.approx([1.0, 4.0 / 3.0], abs=1e-14)
    assert i == pytest.approx((3 * 64 + 4 * 27) / 36.0, rel=1e-14)
    a, i = oracles.disk_integrals(2.0)
    assert (a, i) == pytest.approx((4.0 * math.pi, math.pi * 16.0 / 2.0), rel=1e-14)


def test_oracle_quadrature_matches_monte_carlo():
    # an irregular pentagon: 200k uniform samples; 6 standard errors bound the MC noise
    verts = np.array([(0.3, -1.0), (2.0, -0.4), (2.2, 1.1), (0.5, 1.9), (-1.2, 0.2)])
    area, centroid, polar = oracles.polygon_integrals(verts)
    rng = np.random.default_rng(12345)
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    pts = rng.uniform(lo, hi, size=(200_000, 2))
    inside = oracles.point_in_convex(pts, verts)
    box = float(np.prod(hi - lo))
    frac = inside.mean()
    assert abs(frac * box - area) <= 6 * box * math.sqrt(frac * (1 - frac) / len(pts))
    sample = np.where(inside, np.sum((pts - centroid) ** 2, axis=1), 0.0)
    mc_polar = box * sample.mean()
    assert abs(mc_polar - polar) <= 6 * box * sample.std() / math.sqrt(len(pts))


# --------------------------------------------------------------------------------------------
# Convex polygons, boxes, circles


@settings(max_examples=150, deadline=None)
@given(convex_vertices(), densities)
def test_polygon_mass_properties(verts, density):
    poly = Polygon(verts)
    area, centroid, polar = oracles.polygon_integrals(verts)
    s = reach(verts, centroid)
    assert abs(poly.area - area) <= REL * area
    assert np.all(np.abs(poly.centroid - centroid) <= REL * s)
    assert abs(poly.mass(density) - density * area) <= REL * density * area
    assert abs(poly.inertia(density) - density * polar) <= REL * density * area * s * s
    # stored CCW, same corners
    assert oracles.signed_area(poly.vertices) > 0
    assert_same_cycle_set(poly.vertices, verts, 1e-12 * s + 1e-12 * np.abs(verts).max())
    assert poly.parts == (poly,)


@settings(max_examples=100, deadline=None)
@given(sizes, sizes, st.floats(-5.0, 5.0), st.floats(-5.0, 5.0), angles, densities)
def test_box_mass_properties(w, h, ox, oy, angle, density):
    box = Box(w, h, offset=(ox, oy), angle=angle)
    assert isinstance(box, Polygon)
    m = density * w * h
    assert abs(box.area - w * h) <= REL * w * h
    assert np.all(np.abs(box.centroid - (ox, oy)) <= REL * (w + h + abs(ox) + abs(oy)))
    assert abs(box.mass(density) - m) <= REL * m
    # I = m (w^2 + h^2) / 12 about the centre, whatever the offset and angle
    assert abs(box.inertia(density) - m * (w * w + h * h) / 12.0) <= REL * m * (w * w + h * h)
    corners = oracles.box_vertices(w, h, (ox, oy), angle)
    assert_same_cycle_set(box.vertices, corners, 1e-12 * (w + h + abs(ox) + abs(oy)))
    assert oracles.signed_area(box.vertices) > 0


@settings(max_examples=100, deadline=None)
@given(sizes, st.floats(-100.0, 100.0), st.floats(-100.0, 100.0), densities)
def test_circle_mass_properties(r, ox, oy, density):
    circle = Circle(r, offset=(ox, oy))
    area, polar = oracles.disk_integrals(r)
    assert circle.radius == r
    assert np.array_equal(circle.offset, [ox, oy])
    assert abs(circle.area - area) <= REL * area
    assert np.array_equal(circle.centroid, [ox, oy])  # the centre, exactly
    assert abs(circle.mass(density) - density * area) <= REL * density * area
    # I = m r^2 / 2 about its own centre: the offset must not add a parallel-axis term
    assert abs(circle.inertia(density) - density * polar) <= REL * density * polar
    assert circle.parts == (circle,)


# --------------------------------------------------------------------------------------------
# Concave polygons


@settings(max_examples=60, deadline=None)
@given(star_vertices(), densities)
def test_concave_mass_properties_match_outline(verts, density):
    shape = ConcavePolygon(verts)
    area, centroid, polar = oracles.polygon_integrals(verts)
    s = reach(verts, centroid)
    assert abs(shape.area - area) <= REL * area
    assert np.all(np.abs(shape.centroid - centroid) <= REL * s)
    assert abs(shape.mass(density) - density * area) <= REL * density * area
    assert abs(shape.inertia(density) - density * polar) <= REL * density * area * s * s
    assert oracles.signed_area(shape.outline) > 0
    assert_same_cycle_set(shape.outline, verts, 1e-12 * (s + np.abs(verts).max()))

    # the parts: convex polygons whose moments add up (parallel axis) to the outline's
    parts = shape.parts
    assert len(parts) >= 1
    part_area = 0.0
    part_polar = 0.0
    for part in parts:
        assert isinstance(part, Polygon)
        pv = np.asarray(part.vertices)
        assert len(oracles.convex_hull(pv)) == len(pv)  # convex, no collinear leftovers
        a_i, c_i, i_i = oracles.polygon_integrals(pv)
        part_area += a_i
        part_polar += i_i + a_i * float((c_i - centroid) @ (c_i - centroid))
    assert abs(part_area - area) <= REL * area
    assert abs(part_polar - polar) <= REL * area * s * s


@settings(max_examples=25, deadline=None)
@given(star_vertices())
def test_concave_parts_tile_the_outline_on_a_grid(verts):
    """Every grid point clearly inside the outline is in exactly one part, every point
    clearly outside in none; the grid's midpoint-rule area and moment agree with the
    engine within their rigorous error bound."""
    shape = ConcavePolygon(verts)
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    g = 160
    h = (hi - lo) / g
    xs = lo[0] + (np.arange(g) + 0.5) * h[0]
    ys = lo[1] + (np.arange(g) + 0.5) * h[1]
    pts = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    in_outline = oracles.point_in_polygon(pts, verts)
    size = float(np.max(hi - lo))
    margin = 1e-9 * size
    clear = oracles.polygon_boundary_distance(pts, verts) > margin
    count = np.zeros(len(pts), dtype=int)
    for part in shape.parts:
        pv = np.asarray(part.vertices)
        clear &= oracles.polygon_boundary_distance(pts, pv) > margin
        count += oracles.point_in_convex(pts, pv)
    assert np.array_equal(count[clear], in_outline[clear].astype(int))

    # midpoint rule on the indicator: only cells crossed by the outline are in error, each
    # by at most one cell area; a segment of length l crosses at most sqrt2 l / h_min + 3
    cell = float(h[0] * h[1])
    edges = np.roll(verts, -1, axis=0) - verts
    crossed = np.sum(math.sqrt(2.0) * np.hypot(*edges.T) / float(np.min(h)) + 3.0)
    grid_area = cell * np.count_nonzero(in_outline)
    assert abs(grid_area - shape.area) <= crossed * cell
    # the moment: crossed cells err by at most cell * (largest r^2 a cell can see); whole
    # cells by exactly cell * (hx^2 + hy^2) / 12 each (midpoint rule on r^2)
    c = shape.centroid
    r2 = np.sum((pts[in_outline] - c) ** 2, axis=1)
    far = math.sqrt(float(np.max(np.sum((verts - c) ** 2, axis=1)))) + float(np.hypot(*h))
    bound = crossed * cell * far**2 + shape.area * float(np.sum(h**2)) / 12.0
    assert abs(cell * r2.sum() - shape.inertia(1.0)) <= bound


def test_concave_u_shape_known_values():
    u = [(0, 0), (6, 0), (6, 5), (4, 5), (4, 2), (2, 2), (2, 5), (0, 5)]
    shape = ConcavePolygon(u)
    # 6 x 5 block minus the 2 x 3 notch: area 24; centroid y = (30 * 2.5 - 6 * 3.5) / 24
    assert shape.area == pytest.approx(24.0, rel=1e-12)
    assert shape.centroid == pytest.approx([3.0, 54.0 / 24.0], abs=1e-12)
    # polar moment about the centroid: block minus notch, each (w h (w^2 + h^2) / 12 +
    # A d^2) about the combined centroid
    cy = 54.0 / 24.0
    block = 30.0 * (36 + 25) / 12.0 + 30.0 * (2.5 - cy) ** 2
    notch = 6.0 * (4 + 9) / 12.0 + 6.0 * (3.5 - cy) ** 2
    assert shape.inertia(2.0) == pytest.approx(2.0 * (block - notch), rel=1e-12)
    assert len(shape.parts) >= 2


# --------------------------------------------------------------------------------------------
# Bounding boxes


def aabb_tol(vertices, pose):
    return 1e-12 * (abs(pose[0]) + abs(pose[1]) + float(np.abs(vertices).max()))


@settings(max_examples=100, deadline=None)
@given(convex_vertices(), positions, positions, angles)
def test_polygon_aabb(verts, x, y, angle):
    pose = (x, y, angle)
    lower, upper = Polygon(verts).aabb(pose)
    world = oracles.to_world(verts, pose)
    tol = aabb_tol(verts, pose)
    assert np.all(np.abs(lower - world.min(axis=0)) <= tol)
    assert np.all(np.abs(upper - world.max(axis=0)) <= tol)


@settings(max_examples=100, deadline=None)
@given(sizes, st.floats(-50.0, 50.0), st.floats(-50.0, 50.0), positions, positions, angles)
def test_circle_aabb(r, ox, oy, x, y, angle):
    pose = (x, y, angle)
    lower, upper = Circle(r, offset=(ox, oy)).aabb(pose)
    centre = oracles.to_world([(ox, oy)], pose)[0]
    tol = 1e-12 * (abs(x) + abs(y) + abs(ox) + abs(oy) + r)
    assert np.all(np.abs(lower - (centre - r)) <= tol)
    assert np.all(np.abs(upper - (centre + r)) <= tol)


@settings(max_examples=100, deadline=None)
@given(sizes, sizes, st.floats(-5.0, 5.0), st.floats(-5.0, 5.0), angles, positions, angles)
def test_box_aabb(w, h, ox, oy, box_angle, x, angle):
    pose = (x, -x / 3.0, angle)
    lower, upper = Box(w, h, offset=(ox, oy), angle=box_angle).aabb(pose)
    # a rectangle of half sizes (a, b) at total angle t has half extents
    # (a|cos t| + b|sin t|, a|sin t| + b|cos t|) about its world centre
    t = box_angle + angle
    half = np.array(
        [
            w / 2 * abs(math.cos(t)) + h / 2 * abs(math.sin(t)),
            w / 2 * abs(math.sin(t)) + h / 2 * abs(math.cos(t)),
        ]
    )
    centre = oracles.to_world([(ox, oy)], pose)[0]
    tol = 1e-12 * (abs(x) + w + h + abs(ox) + abs(oy)) * 4
    assert np.all(np.abs(lower - (centre - half)) <= tol)
    assert np.all(np.abs(upper - (centre + half)) <= tol)


@settings(max_examples=40, deadline=None)
@given(star_vertices(), positions, positions, angles)
def test_concave_aabb(verts, x, y, angle):
    pose = (x, y, angle)
    lower, upper = ConcavePolygon(verts).aabb(pose)
    world = oracles.to_world(verts, pose)
    tol = aabb_tol(verts, pose)
    assert np.all(np.abs(lower - world.min(axis=0)) <= tol)
    assert np.all(np.abs(upper - world.max(axis=0)) <= tol)


# --------------------------------------------------------------------------------------------
# Bad input

NAN, INF = math.nan, math.inf
SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]
ARROW = [(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)]  # concave at (2, 1)
BOWTIE = [(0, 0), (2, 2), (2, 0), (0, 2)]

BAD_VALUES = {
    "circle radius 0": lambda: Circle(0.0),
    "circle radius < 0": lambda: Circle(-1.0),
    "circle radius nan": lambda: Circle(NAN),
    "circle radius inf": lambda: Circle(INF),
    "circle offset nan": lambda: Circle(1.0, offset=(NAN, 0.0)),
    "circle offset inf": lambda: Circle(1.0, offset=(0.0, -INF)),
    "circle offset 3 numbers": lambda: Circle(1.0, offset=(0.0, 1.0, 2.0)),
    "polygon 2 points": lambda: Polygon([(0, 0), (1, 0)]),
    "polygon 2 distinct points": lambda: Polygon([(0, 0), (1, 0), (1, 0), (0, 0)]),
    "polygon collinear": lambda: Polygon([(0, 0), (1, 1), (3, 3)]),
    "polygon nan": lambda: Polygon([(0, 0), (1, 0), (NAN, 1)]),
    "polygon inf": lambda: Polygon([(0, 0), (1, 0), (0, INF)]),
    "polygon bowtie": lambda: Polygon(BOWTIE),
    "polygon 3 columns": lambda: Polygon([(0, 0, 0), (1, 0, 0), (0, 1, 0)]),
    "box zero width": lambda: Box(0.0, 1.0),
    "box negative height": lambda: Box(1.0, -2.0),
    "box nan": lambda: Box(NAN, 1.0),
    "box inf angle": lambda: Box(1.0, 1.0, angle=INF),
    "box nan offset": lambda: Box(1.0, 1.0, offset=(NAN, 0.0)),
    "concave 2 points": lambda: ConcavePolygon([(0, 0), (1, 0)]),
    "concave collinear": lambda: ConcavePolygon([(0, 0), (1, 0), (2, 0), (3, 0)]),
    "concave repeated": lambda: ConcavePolygon([(0, 0), (1, 0), (0, 0), (1, 0)]),
    "concave bowtie": lambda: ConcavePolygon(BOWTIE),
    "concave crossing edges": lambda: ConcavePolygon([(0, 0), (4, 0), (4, 3), (1, -1), (0, 3)]),
    "concave nan": lambda: ConcavePolygon([(0, 0), (4, 0), (2, NAN), (0, 4)]),
}


@pytest.mark.parametrize("build", BAD_VALUES.values(), ids=BAD_VALUES.keys())
def test_bad_values_raise_value_error_with_message(build):
    with pytest.raises(ValueError) as info:
        build()
    assert str(info.value).strip()


def test_concave_outline_given_to_polygon_points_to_concave_polygon():
    with pytest.raises(ValueError, match="ConcavePolygon"):
        Polygon(ARROW)
    assert ConcavePolygon(ARROW).area == pytest.approx(16.0 - 0.5 * 4 * 3, rel=1e-12)


BAD_KINDS = {
    "circle None": lambda: Circle(None),
    "circle str": lambda: Circle("one"),
    "circle object": lambda: Circle(object()),
    "circle offset None": lambda: Circle(1.0, offset=None),
    "polygon None": lambda: Polygon(None),
    "polygon str": lambda: Polygon("square"),
    "polygon objects": lambda: Polygon([(object(), 0), (1, 0), (0, 1)]),
    "box str": lambda: Box("1", 1.0),
    "box None": lambda: Box(1.0, None),
    "concave None": lambda: ConcavePolygon(None),
    "concave str": lambda: ConcavePolygon("U"),
}


@pytest.mark.parametrize("build", BAD_KINDS.values(), ids=BAD_KINDS.keys())
def test_wrong_kinds_raise_type_error(build):
    with pytest.raises(TypeError) as info:
        build()
    assert str(info.value).strip()


scalar_junk = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1e308, 1e308),
    st.integers(-(10**400), 10**400),
    st.integers(-5, 5),
    st.text(max_size=4),
    st.none(),
    st.booleans(),
    st.complex_numbers(max_magnitude=10),
    st.just(object()),
)
junk = st.recursive(
    scalar_junk,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=2), inner, max_size=2),
    ),
    max_leaves=16,
)
point_lists = st.lists(st.lists(scalar_junk, min_size=2, max_size=2), max_size=7)


def built_or_rejected(build):
    """Run a constructor: success must give a sane shape, failure only ValueError/TypeError."""
    try:
        shape = build()
    except (ValueError, TypeError) as error:
        assert str(error).strip()
        return
    assert math.isfinite(shape.area) and shape.area > 0
    assert np.all(np.isfinite(shape.centroid))


@settings(max_examples=300, deadline=None)
@given(junk, junk, junk, junk)
def test_junk_raises_only_value_or_type_error(a, b, c, d):
    built_or_rejected(lambda: Circle(a))
    built_or_rejected(lambda: Circle(a, offset=b))
    built_or_rejected(lambda: Polygon(a))
    built_or_rejected(lambda: ConcavePolygon(b))
    built_or_rejected(lambda: Box(a, b))
    built_or_rejected(lambda: Box(a, b, offset=c, angle=d))


@settings(max_examples=300, deadline=None)
@given(point_lists, scalar_junk, scalar_junk)
def test_junk_vertex_lists_raise_only_value_or_type_error(points, w, h):
    built_or_rejected(lambda: Polygon(points))
    built_or_rejected(lambda: ConcavePolygon(points))
    built_or_rejected(lambda: Box(w, h))
    built_or_rejected(lambda: Circle(w, offset=(h, h)))
