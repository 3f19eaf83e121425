"""Segments and capsules: shapes, narrow phase against independent oracles, queries, world.

The oracles here read nothing from the engine: a shape is given by its core points (a
circle's centre, a segment's ends, a polygon's corners) and its radius, and the signed
distance between two rounded convex shapes is the greatest, over directions u, of
``min_b b.u - max_a a.u`` minus the radii (the support functions of the cores), sampled
over dense directions: the exact gap when apart, minus the exact depth when overlapping.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from oracles import point_segment

from engine import Box, Circle, Polygon, Segment, World, collide, collide_many

ANGLES = np.linspace(0, 2 * np.pi, 7200, endpoint=False)
STEP = ANGLES[1]


# -- oracles -----------------------------------------------------------------------------------
def world_core(spec, pose):
    """(n, 2) world core points and the radius of a spec ("segment", a, b, r) /
    ("circle", r, c) / ("polygon", points)."""
    if spec[0] == "segment":
        points, radius = np.array([spec[1], spec[2]], dtype=float), spec[3]
    elif spec[0] == "circle":
        points, radius = np.array([spec[2]], dtype=float), spec[1]
    else:
        points, radius = np.array(spec[1], dtype=float), 0.0
    c, s = math.cos(pose[2]), math.sin(pose[2])
    return points @ np.array([[c, s], [-s, c]]) + np.array(pose[:2]), radius


def oracle_separation(spec_a, pose_a, spec_b, pose_b):
    """Signed distance between the rounded shapes, by support functions over directions:
    the best of dense samples, each local best refined by ternary search (the gap has a
    kink at its best, so sampling alone is only first-order accurate)."""
    a, ra = world_core(spec_a, pose_a)
    b, rb = world_core(spec_b, pose_b)

    def gap(theta):
        u = np.stack([np.cos(theta), np.sin(theta)], axis=-1)
        return (b @ u.T).min(axis=0) - (a @ u.T).max(axis=0)

    gaps = gap(ANGLES)
    peaks = np.flatnonzero((gaps >= np.roll(gaps, 1)) & (gaps >= np.roll(gaps, -1)))
    best = -np.inf
    for k in peaks[np.argsort(gaps[peaks])[-4:]]:
        lo, hi = ANGLES[k] - STEP, ANGLES[k] + STEP
        for _ in range(100):
            m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
            if gap(np.array([m1]))[0] < gap(np.array([m2]))[0]:
                lo = m1
            else:
                hi = m2
        best = max(best, gap(np.array([0.5 * (lo + hi)]))[0], gaps[k])
    return float(best) - ra - rb


def signed_distance(spec, pose, p):
    """Signed distance from world point p to the rounded shape (negative inside)."""
    core, radius = world_core(spec, pose)
    if len(core) == 1:
        return float(np.hypot(*(p - core[0]))) - radius
    if len(core) == 2:
        return point_segment(p, core[0], core[1]) - radius
    edges = [point_segment(p, core[i], core[(i + 1) % len(core)]) for i in range(len(core))]
    # Inside a CCW polygon: left of every edge.
    rel = core - p
    turns = rel[:, 0] * np.roll(rel, -1, axis=0)[:, 1] - rel[:, 1] * np.roll(rel, -1, axis=0)[:, 0]
    return -min(edges) if np.all(turns >= 0) else min(edges)


def make(spec):
    if spec[0] == "segment":
        return Segment(spec[1], spec[2], radius=spec[3])
    if spec[0] == "circle":
        return Circle(spec[1], offset=spec[2])
    return Polygon(spec[1])


# -- strategies --------------------------------------------------------------------------------
coordinate = st.floats(-1.5, 1.5)
point = st.tuples(coordinate, coordinate)
radius = st.one_of(st.just(0.0), st.floats(0.02, 0.8))


@st.composite
def segments(draw):
    a, b = draw(point), draw(point)
    assume(math.dist(a, b) > 0.05)
    return ("segment", a, b, draw(radius))


@st.composite
def polygons(draw):
    width, height = draw(st.floats(0.1, 2.5)), draw(st.floats(0.1, 2.5))
    angle = draw(st.floats(-math.pi, math.pi))
    corners = Box(width, height, angle=angle).vertices
    if draw(st.booleans()):
        return ("polygon", corners.tolist())
    # A general convex polygon: the box with one corner cut.
    cut = draw(st.floats(0.1, 0.9))
    k = draw(st.integers(0, 3))
    p, q, r = corners[k - 1], corners[k], corners[(k + 1) % 4]
    points = [*corners[:k], q + cut * (p - q), q + cut * (r - q), *corners[k + 1 :]]
    return ("polygon", np.array(points).tolist())


circles = st.builds(lambda r, c: ("circle", r, c), st.floats(0.05, 1.0), point)
others = st.one_of(segments(), polygons(), circles)
pose = st.tuples(st.floats(-2, 2), st.floats(-2, 2), st.floats(-math.pi, math.pi))


# -- shapes ------------------------------------------------------------------------------------
def test_capsule_mass_properties_match_a_fine_polygon():
    a, b, r = np.array([0.3, -0.2]), np.array([1.9, 0.7]), 0.45
    capsule = Segment(a, b, radius=r)
    # The stadium as a polygon of many sides, and its moment by triangle fans (shoelace).
    heading = math.atan2(*(b - a)[::-1])
    theta = heading + np.linspace(-np.pi / 2, np.pi / 2, 20001)
    arc = r * np.stack([np.cos(theta), np.sin(theta)], axis=1)
    outline = np.concatenate([b + arc, a - arc])
    p, q = outline, np.roll(outline, -1, axis=0)
    cross = p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0]
    area = cross.sum() / 2
    centroid = ((p + q) * cross[:, None]).sum(axis=0) / (6 * area)
    moment = (cross * ((p * p).sum(1) + (p * q).sum(1) + (q * q).sum(1))).sum() / 12
    moment -= area * centroid @ centroid
    assert capsule.area == pytest.approx(2 * r * math.dist(a, b) + math.pi * r * r, rel=1e-15)
    assert capsule.area == pytest.approx(area, rel=1e-8)
    assert np.allclose(capsule.centroid, centroid, atol=1e-9)
    assert capsule.inertia(2.0) == pytest.approx(2.0 * moment, rel=1e-8)


def test_a_line_has_no_area_and_its_repr_rebuilds_it():
    line = Segment((0, 0), (3, 4))
    assert line.area == 0.0 and line.length == 5.0 and line.mass() == 0.0
    assert np.array_equal(line.normal, [0.8, -0.6])  # to the right of a -> b
    again = eval(repr(Segment((1, 2), (3, 4), radius=0.5)))
    assert (again.a.tolist(), again.b.tolist(), again.radius) == ([1, 2], [3, 4], 0.5)
    assert pickle.loads(pickle.dumps(line)).b.tolist() == [3.0, 4.0]
    lower, upper = Segment((0, 0), (2, 0), radius=0.5).aabb((1, 1, math.pi / 2))
    assert np.allclose(lower, [0.5, 0.5]) and np.allclose(upper, [1.5, 3.5])


@pytest.mark.parametrize(
    "args, kind, message",
    [
        (((1, 1), (1, 1)), ValueError, "b: must differ from a"),
        (((0, 0), (1, 0), -0.1), ValueError, "radius: must be >= 0"),
        (((0, 0), (1, 0), math.nan), ValueError, "radius: must be finite"),
        (((0, 0), (1, 0), math.inf), ValueError, "radius: must be finite"),
        (((0, 0), (math.nan, 0)), ValueError, "b:"),
        (((0, 0), (1, 0), "1"), TypeError, "radius:"),
    ],
)
def test_bad_segments_are_refused_naming_the_argument(args, kind, message):
    with pytest.raises(kind, match=message):
        Segment(*args)


def test_a_dynamic_body_of_lines_is_refused_and_the_world_is_unchanged():
    world = World()
    world.add_body(Segment((-5, 0), (5, 0)), kind="static")
    saved = world.snapshot()
    with pytest.raises(ValueError, match="shapes: a dynamic body needs area"):
        world.add_body(Segment((0, 1), (1, 1)))
    assert len(world.bodies) == 1
    platform = world.add_body(Segment((0, 1), (1, 1)), kind="kinematic")
    with pytest.raises(ValueError, match="kind: a dynamic body needs area"):
        platform.kind = "dynamic"
    assert platform.kind == "kinematic"
    # With a shape of area the line is part of a compound body.
    body = world.add_body([Box(1, 1), Segment((0.5, 0), (2, 0))], position=(0, 3))
    assert body.mass == pytest.approx(1.0)
    del saved


# -- narrow phase ------------------------------------------------------------------------------
@given(segments(), pose, others, pose, st.booleans())
# A circle centred on a segment's end but for rounding (1e-38 off it).
@example(
    ("segment", (0.0, 1.0), (0.0, -1.175494351e-38), 0.0), (0.0, 0.0, 0.0),
    ("circle", 1.0, (0.0, -1.175494351e-38)), (0.0, 0.0, 1.0), False,
)  # fmt: skip
def test_separation_normal_and_mtv_match_the_oracle(segment, pose_a, other, pose_b, swap):
    spec_a, spec_b = (other, segment) if swap else (segment, other)
    hit = collide(make(spec_a), pose_a, make(spec_b), pose_b)
    expected = oracle_separation(spec_a, pose_a, spec_b, pose_b)
    assert hit.separation == pytest.approx(expected, abs=1e-9)
    assert math.hypot(*hit.normal) == pytest.approx(1.0, abs=1e-12)
    # Along the normal the shapes are exactly that far apart (it is the best axis).
    a, ra = world_core(spec_a, pose_a)
    b, rb = world_core(spec_b, pose_b)
    along = (b @ hit.normal).min() - (a @ hit.normal).max() - ra - rb
    assert along == pytest.approx(hit.separation, abs=1e-9)
    if hit.depth > 1e-6:
        moved = (pose_a[0] + hit.mtv[0], pose_a[1] + hit.mtv[1], pose_a[2])
        assert oracle_separation(spec_a, moved, spec_b, pose_b) > -1e-9
        short = (pose_a[0] + 0.99 * hit.mtv[0], pose_a[1] + 0.99 * hit.mtv[1], pose_a[2])
        assert oracle_separation(spec_a, short, spec_b, pose_b) < 0.0


# Poses close together, so that most pairs overlap (the test is about overlapping ones).
near_pose = st.tuples(st.floats(-0.5, 0.5), st.floats(-0.5, 0.5), st.floats(-math.pi, math.pi))


@given(segments(), near_pose, others, near_pose, st.booleans())
def test_contact_points_lie_between_both_surfaces(segment, pose_a, other, pose_b, swap):
    spec_a, spec_b = (other, segment) if swap else (segment, other)
    hit = collide(make(spec_a), pose_a, make(spec_b), pose_b)
    assume(hit.intersect)
    assert 1 <= len(hit.points) <= 2
    distances = np.array(
        [[signed_distance(spec, pose_, p) for spec, pose_ in ((spec_a, pose_a), (spec_b, pose_b))]
         for p in hit.points]
    )  # fmt: skip
    # No point lies outside either shape by more than half the depth, and one lies midway
    # between the surfaces. (In a deep overlap a second point clipped from an edge square
    # to the reference face may lie deeper inside a capsule than its radius says.)
    assert distances.max() <= 0.5 * hit.depth + 1e-9
    assert np.abs(distances).max(axis=1).min() <= 0.5 * hit.depth + 1e-9


@given(segments(), pose, others, pose, st.floats(-8, 8), st.floats(-8, 8), st.booleans())
def test_time_of_impact_is_the_first_touch(segment, pose_a, other, pose_b, vx, vy, swap):
    spec_a, spec_b = (other, segment) if swap else (segment, other)
    hit = collide(make(spec_a), pose_a, make(spec_b), pose_b, velocity=(vx, vy), dt=1.0)
    start = oracle_separation(spec_a, pose_a, spec_b, pose_b)
    assume(start > 1e-6)

    def gap(t):
        moved = (pose_a[0] + vx * t, pose_a[1] + vy * t, pose_a[2])
        return oracle_separation(spec_a, moved, spec_b, pose_b)

    samples = np.linspace(0, 1, 101)
    gaps = np.array([gap(t) for t in samples])
    if hit.toi is None:
        assert gaps.min() > -1e-8
    else:
        assert abs(gap(hit.toi)) < 1e-7
        before = samples[samples < hit.toi - 1e-6]
        assert all(gap(t) > -1e-8 for t in before)


def test_two_points_for_flat_boxes_and_parallel_capsules():
    line = Segment((-2, 0), (2, 0))
    capsule = Segment((-2, 0), (2, 0), radius=0.25)
    cases = [
        (Box(1, 1), (0.3, 0.499, 0), line, 0.001),
        (Box(1, 1), (0.3, 0.749, 0), capsule, 0.001),
        (Segment((-1, 0), (1, 0), 0.1), (0.5, 0.34, 0), capsule, 0.01),
        (capsule, (0.0, 0.25, 0), line, 0.0),  # resting exactly: touching counts
    ]
    for shape, pose_a, ground, depth in cases:
        for hit, flip in ((collide(shape, pose_a, ground, (0, 0, 0)), 1),
                          (collide(ground, (0, 0, 0), shape, pose_a), -1)):  # fmt: skip
            assert hit.intersect and hit.depth == pytest.approx(depth, abs=1e-12)
            assert np.allclose(hit.normal, [0, -flip], atol=1e-15)
            assert len(hit.points) == 2


def test_collide_many_agrees_with_collide():
    rng = np.random.default_rng(3)
    shapes_b = [Segment((-1, 0), (1, 0.5), 0.2), Box(1, 0.5), Circle(0.4), Segment((0, 0), (0, 1))]
    poses_a = np.column_stack([rng.uniform(-1.5, 1.5, (40, 2)), rng.uniform(-3, 3, 40)])
    poses_b = np.zeros((40, 3))
    chosen = [shapes_b[i % 4] for i in range(40)]
    capsule = Segment((-0.5, 0), (0.5, 0), 0.3)
    batch = collide_many(capsule, poses_a, chosen, poses_b)
    for i in range(40):
        one = collide(capsule, poses_a[i], chosen[i], poses_b[i])
        assert batch[i].separation == one.separation
        assert np.array_equal(batch[i].points, one.points)


# -- queries -----------------------------------------------------------------------------------
def test_rays_points_and_boxes_find_segments_and_capsules():
    world = World(gravity=(0, 0))
    wall = world.add_body(Segment((0, -1), (0, 1)), kind="static", origin="local")
    pill = world.add_body(Segment((3, -1), (3, 1), 0.5), kind="static", origin="local")
    hit = world.raycast((-2, 0.5), (6, 0.5))
    assert (
        hit.body is wall
        and hit.fraction == pytest.approx(2 / 8)
        and np.allclose(hit.normal, [-1, 0])
    )
    hit = world.raycast((6, 0.5), (2.9, 0.5))
    assert (
        hit.body is pill
        and hit.point == pytest.approx([3.5, 0.5])
        and np.allclose(hit.normal, [1, 0])
    )
    # Past the end of the capsule's core, the ray meets its round cap.
    hit = world.raycast((3.3, 5), (3.3, 0))
    assert hit.body is pill
    assert hit.point[1] == pytest.approx(1 + math.sqrt(0.25 - 0.09))
    assert world.raycast((0.5, 1.01), (-0.5, 1.01)) is None  # above the wall's end
    assert world.query_point((3.4, 1.3)) == [pill]
    assert world.query_point((3.4, 1.5)) == []
    assert world.query_aabb((-0.1, 0.9), (0.1, 2)) == [wall]
    assert world.query_aabb((3.4, 1.4), (4, 2)) == []  # beside the cap, inside its box
    assert world.query_aabb((3.3, 1.3), (4, 2)) == [pill]


# -- world -------------------------------------------------------------------------------------
def test_box_resting_on_a_static_line_has_two_points_and_sleeps():
    world = World()
    world.add_body(Segment((-5, 0), (5, 0)), kind="static")
    crate = world.add_body(Box(1, 1), position=(0.7, 0.6))
    for _ in range(150):
        world.step()
    (contact,) = world.contacts
    assert len(contact.points) == 2
    assert crate.position[1] == pytest.approx(0.5, abs=world.linear_slop)
    assert not crate.awake


def test_frictionless_capsule_slides_down_a_slope_at_g_sin_theta():
    theta = 0.4
    world = World(gravity=(0, -9.81))
    down = np.array([math.cos(theta), -math.sin(theta)])
    world.add_body(Segment(-20 * down, 20 * down), kind="static", friction=0.0)
    up = np.array([math.sin(theta), math.cos(theta)])
    capsule = world.add_body(
        Segment(-0.5 * down, 0.5 * down, 0.2), position=-5 * down + 0.2 * up, friction=0.0
    )
    energy = world.kinetic_energy() + world.potential_energy()
    for _ in range(60):
        world.step()
    speed = float(capsule.velocity @ down)
    assert speed == pytest.approx(9.81 * math.sin(theta) * 1.0, rel=1e-3)
    assert abs(capsule.velocity @ up) < 1e-3
    assert abs(capsule.angular_velocity) < 1e-6
    # Symplectic Euler's drop is half a step ahead of the speed: at most g sin^2 dt t.
    drift = world.kinetic_energy() + world.potential_energy() - energy
    assert abs(drift) <= capsule.mass * 9.81**2 * math.sin(theta) ** 2 / 60 * 1.0


@pytest.mark.parametrize("heading", [0.0, 0.3, -0.6])
def test_a_fast_ball_does_not_pass_a_thin_static_line(heading):
    world = World(gravity=(0, 0))
    world.add_body(Segment((0, -3), (0, 3)), kind="static")
    speed = 200.0
    ball = world.add_body(
        Circle(0.05), position=(-1.5, -1.5 * math.tan(heading)),
        velocity=(speed * math.cos(heading), speed * math.sin(heading)),
    )  # fmt: skip
    for _ in range(30):
        world.step()
        assert ball.position[0] < 0.0


def test_a_world_with_segments_saves_and_continues_bitwise(tmp_path):
    def build():
        world = World()
        world.add_body(Segment((-5, 0), (5, -0.5)), kind="static")
        world.add_body(Segment((-0.5, 0), (0.5, 0), 0.2), position=(0, 2), angle=0.3)
        world.add_body([Box(0.5, 0.5), Segment((0, 0), (1, 0))], position=(1, 3))
        return world

    world = build()
    for _ in range(20):
        world.step()
    world.save(tmp_path / "segments.npz")
    loaded = World.load(tmp_path / "segments.npz")
    assert repr(loaded.bodies[1].shapes[0]) == "Segment(a=(-0.5, 0.0), b=(0.5, 0.0), radius=0.2)"
    for _ in range(40):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)


def test_segments_and_chains_carry_their_own_settings_through_a_file():
    import io

    from engine import Chain

    world = World()
    ground = Chain([(10, 0), (0, 0), (-10, 1)], friction=0.1, tag="ground")
    world.add_body(ground, kind="static", friction=0.8)
    board = Segment((0, 0), (1, 0), 0.2, friction=0.9, restitution=0.3)
    world.add_body([board, Circle(0.3, offset=(0.5, 0.5), sensor=True)], position=(0, 2))
    assert ground.material == {"friction": 0.1, "tag": "ground"}
    assert "friction=0.9" in repr(board)
    for _ in range(30):
        world.step()
    buffer = io.BytesIO()
    world.save(buffer)
    loaded = World.load(io.BytesIO(buffer.getvalue()))
    assert [s.material for s in loaded.bodies[0].shapes] == [ground.material]
    assert loaded.bodies[1].shapes[0].material == {"friction": 0.9, "restitution": 0.3}
    for _ in range(30):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)
