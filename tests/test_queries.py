"""World queries (query_point, query_aabb, raycast, raycast_all, shape_cast) against brute force.

Random worlds are built from specs that the oracles read directly: each body's world
geometry comes from its spec and an independently computed centroid (quadrature, see
``oracles``), never from the engine. The oracles then test every body: point in polygon by
even-odd crossing, rays by intersecting the segment with every outline edge and solving the
circle quadratic. Only query_aabb and shape_cast use the engine's public ``collide`` as the
per-pair oracle (the queries themselves do not call it), so what those tests check is the
index and the reductions.
"""

from __future__ import annotations

import ast
import copy
import math
import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import oracles
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Box,
    Circle,
    ConcavePolygon,
    Polygon,
    World,
    collide_many,
    queries,
    query_index,
    snapshot,
)
from engine import raycast as raycast_module
from engine.narrowphase import collide_parts
from engine.queries import QueryIndex, sweep_candidates
from engine.query_index import HASHED, MAX_DIRTY_PARTS, MOVED, UNLISTED
from engine.settings import MAX_COORDINATE

TOL = 1e-9


# -- random worlds ----------------------------------------------------------------------------
@dataclass
class Piece:
    """One shape of a body in its shape frame: a simple polygon outline or a circle."""

    outline: np.ndarray | None  # (n, 2), CCW
    centre: np.ndarray | None  # (2,)
    radius: float


@dataclass
class Spec:
    shapes: list  # engine shapes
    pieces: list  # matching Pieces
    position: np.ndarray
    angle: float
    kind: str


def piece_mass(piece: Piece) -> tuple[float, np.ndarray]:
    """Area and centroid by quadrature (oracles), independent of the engine's formulas."""
    if piece.outline is None:
        return oracles.disk_integrals(piece.radius)[0], piece.centre
    area, centroid, _ = oracles.polygon_integrals(piece.outline)
    return area, centroid


def random_spec(rng: np.random.Generator, extent: float) -> Spec:
    """A box, circle, convex polygon, concave star or box+circle compound at a random pose."""
    kind = rng.choice(["box", "circle", "convex", "concave", "compound"])
    if kind == "box":
        w, h = rng.uniform(0.3, 2.0, 2)
        outline = oracles.box_vertices(w, h)
        shapes, pieces = [Box(w, h)], [Piece(outline, None, 0.0)]
    elif kind == "circle":
        r = rng.uniform(0.2, 1.0)
        offset = rng.uniform(-0.5, 0.5, 2)
        shapes, pieces = [Circle(r, offset)], [Piece(None, offset, r)]
    elif kind == "convex":
        outline = oracles.convex_polygon_from(
            rng.uniform(0.3, 1.0, rng.integers(3, 9)), rng.uniform(0, 6), rng.uniform(0.3, 1.2),
            rng.uniform(0.4, 1.0), (0.0, 0.0),
        )  # fmt: skip
        shapes, pieces = [Polygon(outline)], [Piece(outline, None, 0.0)]
    elif kind == "concave":
        n = int(rng.integers(5, 10))
        radii = np.where(np.arange(n) % 2 == 0, 1.0, rng.uniform(0.3, 0.7, n))
        outline = oracles.star_polygon_from(
            rng.uniform(0.5, 1.0, n), radii, rng.uniform(0, 6), rng.uniform(0.5, 1.5)
        )
        shapes, pieces = [ConcavePolygon(outline)], [Piece(outline, None, 0.0)]
    else:
        w, h, r = rng.uniform(0.4, 1.5), rng.uniform(0.3, 1.0), rng.uniform(0.2, 0.6)
        offset = np.array([w / 2 + r * 0.5, 0.0])
        shapes = [Box(w, h), Circle(r, offset)]
        pieces = [Piece(oracles.box_vertices(w, h), None, 0.0), Piece(None, offset, r)]
    position = rng.uniform(0.0, extent, 2)
    body_kind = rng.choice(["dynamic", "dynamic", "static", "kinematic"])
    return Spec(shapes, pieces, position, float(rng.uniform(-math.pi, math.pi)), body_kind)


def build_world(seed: int, bodies: int):
    """A world of ``bodies`` random bodies plus a long static ground (a 'large' part)."""
    rng = np.random.default_rng(seed)
    extent = 2.5 * math.sqrt(bodies)
    specs = [random_spec(rng, extent) for _ in range(bodies)]
    ground = oracles.box_vertices(extent * 1.3, 1.0)
    specs.append(
        Spec([Box(extent * 1.3, 1.0)], [Piece(ground, None, 0.0)], np.array([extent / 2, -1.0]),
             0.02, "static")
    )  # fmt: skip
    world = World()
    for spec in specs:
        world.add_body(spec.shapes, position=spec.position, angle=spec.angle, kind=spec.kind)
    return world, specs, extent


def shape_poses(spec: Spec) -> list[np.ndarray]:
    """Pose of each shape of a body: shape-frame p maps to R (p - centroid) + position."""
    masses = [piece_mass(piece) for piece in spec.pieces]
    total = sum(area for area, _ in masses)
    centroid = sum(area * c for area, c in masses) / total
    shift = spec.position - oracles.rotation(spec.angle) @ centroid
    return [np.array([shift[0], shift[1], spec.angle])] * len(spec.pieces)


def world_pieces(spec: Spec) -> list[Piece]:
    """The body's pieces in world coordinates."""
    pose = shape_poses(spec)[0]
    out = []
    for piece in spec.pieces:
        if piece.outline is None:
            out.append(Piece(None, oracles.to_world([piece.centre], pose)[0], piece.radius))
        else:
            out.append(Piece(oracles.to_world(piece.outline, pose), None, 0.0))
    return out


# -- oracles ----------------------------------------------------------------------------------
def piece_contains(piece: Piece, point) -> bool:
    if piece.outline is None:
        return math.dist(piece.centre, point) <= piece.radius
    return bool(oracles.point_in_polygon([point], piece.outline)[0])


def piece_ray(piece: Piece, start, end):
    """(fraction, normal) of the first crossing of segment start -> end, or None.

    Polygons: every outline edge is intersected with the segment (two-parameter solve);
    circles: the textbook quadratic. A start inside gives (0, -direction).
    """
    d = end - start
    backwards = -d / np.hypot(*d)
    if piece_contains(piece, start):
        return 0.0, backwards
    if piece.outline is None:
        m = start - piece.centre
        a, b, c = d @ d, m @ d, m @ m - piece.radius**2
        disc = b * b - a * c
        if disc < 0 or b >= 0:
            return None
        t = (-b - math.sqrt(disc)) / a
        if t > 1:
            return None
        return t, (start + t * d - piece.centre) / piece.radius
    v = piece.outline
    best = None
    for i in range(len(v)):
        p, q = v[i], v[(i + 1) % len(v)]
        e = q - p
        denom = oracles.cross2(d, e)
        if denom == 0:
            continue
        t = oracles.cross2(p - start, e) / denom
        u = oracles.cross2(p - start, d) / denom
        if 0 <= t <= 1 and 0 <= u <= 1 and (best is None or t < best[0]):
            best = (t, np.array([e[1], -e[0]]) / np.hypot(*e))  # outward for CCW
    return best


def oracle_ray_hits(specs, start, end) -> list[tuple[int, float, np.ndarray]]:
    """(body, fraction, normal) of each body hit, nearest first."""
    hits = []
    for i, spec in enumerate(specs):
        found = [h for h in (piece_ray(p, start, end) for p in world_pieces(spec)) if h]
        if found:
            t, normal = min(found, key=lambda hit: hit[0])
            hits.append((i, t, normal))
    return sorted(hits, key=lambda hit: (hit[1], hit[0]))


def all_shapes(specs):
    """Every shape of every body with its pose and owner, for the collide-based oracles."""
    shapes, poses, owner = [], [], []
    for i, spec in enumerate(specs):
        shapes += spec.shapes
        poses += shape_poses(spec)
        owner += [i] * len(spec.shapes)
    return shapes, np.array(poses), np.array(owner)


def rows_of(world, bodies) -> list[int]:
    handles = world.bodies
    return [next(i for i, h in enumerate(handles) if h is b) for b in bodies]


# -- brute-force agreement --------------------------------------------------------------------
seeds = st.integers(0, 2**32 - 1)
sizes = st.integers(50, 300)


@settings(max_examples=8)
@given(seed=seeds, bodies=sizes)
def test_query_point_matches_brute_force(seed, bodies):
    world, specs, extent = build_world(seed, bodies)
    rng = np.random.default_rng(seed + 1)
    pieces = [world_pieces(spec) for spec in specs]
    # Half the points inside a random body's shape (its position), half anywhere.
    points = np.concatenate(
        [
            rng.uniform(-2, extent + 2, (25, 2)),
            [specs[i].position for i in rng.integers(0, len(specs), 25)],
        ]
    )
    for point in points:
        expected = [i for i, ps in enumerate(pieces) if any(piece_contains(p, point) for p in ps)]
        assert rows_of(world, world.query_point(point)) == expected


@settings(max_examples=8)
@given(seed=seeds, bodies=sizes)
def test_query_aabb_matches_collide_with_a_box(seed, bodies):
    world, specs, extent = build_world(seed, bodies)
    shapes, poses, owner = all_shapes(specs)
    rng = np.random.default_rng(seed + 2)
    for _ in range(15):
        size = rng.choice([0.1, 1.0, 5.0, 3 * extent]) * rng.uniform(0.2, 1.0, 2)
        centre = rng.uniform(-2, extent + 2, 2)
        box_pose = np.tile([centre[0], centre[1], 0.0], (len(shapes), 1))
        hits = collide_many(Box(*size), box_pose, shapes, poses).intersect
        expected = sorted(set(owner[hits].tolist()))
        assert rows_of(world, world.query_aabb(centre - size / 2, centre + size / 2)) == expected


def random_rays(rng, extent, count):
    starts = rng.uniform(-2, extent + 2, (count, 2))
    heading = rng.uniform(0, 2 * math.pi, count)
    length = rng.choice([0.5, 3.0, 10.0, 2 * extent], count)
    return starts, starts + length[:, None] * np.stack([np.cos(heading), np.sin(heading)], 1)


@settings(max_examples=8)
@given(seed=seeds, bodies=sizes)
def test_raycast_and_raycast_all_match_brute_force(seed, bodies):
    world, specs, extent = build_world(seed, bodies)
    rng = np.random.default_rng(seed + 3)
    starts, ends = random_rays(rng, extent, 12)
    for start, end in zip(starts, ends):
        expected = oracle_ray_hits(specs, start, end)
        every = world.raycast_all(start, end)
        assert rows_of(world, [h.body for h in every]) == [i for i, _, _ in expected]
        for hit, (_, fraction, normal) in zip(every, expected):
            assert hit.fraction == pytest.approx(fraction, abs=TOL)
            np.testing.assert_allclose(hit.normal, normal, atol=TOL)
            np.testing.assert_allclose(hit.point, start + fraction * (end - start), atol=1e-8)
        first = world.raycast(start, end)
        if not expected:
            assert first is None
        else:
            assert first.body is every[0].body and first.fraction == every[0].fraction


@settings(max_examples=6)
@given(seed=seeds, bodies=sizes)
def test_shape_cast_matches_collide_min_over_bodies(seed, bodies):
    world, specs, extent = build_world(seed, bodies)
    shapes, poses, owner = all_shapes(specs)
    rng = np.random.default_rng(seed + 4)
    casts = [Box(0.6, 0.4), Circle(0.3), ConcavePolygon([(0, 0), (1, 0), (1, 1), (0.5, 0.3)])]
    for _ in range(8):
        shape = casts[rng.integers(len(casts))]
        pose = np.array([*rng.uniform(-2, extent + 2, 2), rng.uniform(-3, 3)])
        motion = rng.normal(size=2) * rng.choice([0.5, 5.0, extent])
        found = collide_many(
            shape, np.tile(pose, (len(shapes), 1)), shapes, poses,
            np.tile(motion, (len(shapes), 1)), 1.0,
        )  # fmt: skip
        toi = np.where(np.isnan(found.toi), np.inf, found.toi)
        hit = world.shape_cast(shape, pose, motion)
        if not np.isfinite(toi.min()):
            assert hit is None
            continue
        assert hit.toi == pytest.approx(toi.min(), abs=TOL)
        best = owner[toi <= toi.min() + TOL]
        assert rows_of(world, [hit.body])[0] in best
        assert np.hypot(*hit.normal) == pytest.approx(1.0)
        if hit.toi > 0:
            assert hit.normal @ motion > 0  # it was approaching along the normal


def test_raycast_many_equals_one_ray_at_a_time():
    world, _, extent = build_world(7, 200)
    starts, ends = random_rays(np.random.default_rng(8), extent, 60)
    many = world.raycast_many(starts, ends)
    for i, (start, end) in enumerate(zip(starts, ends)):
        hit = world.raycast(start, end)
        if hit is None:
            assert many.body_row[i] == -1 and np.isnan(many.fraction[i])
        else:
            assert world.bodies[many.body_row[i]] is hit.body
            assert many.fraction[i] == hit.fraction
            np.testing.assert_array_equal(many.normal[i], hit.normal)


# -- exact cases ------------------------------------------------------------------------------
def simple_world():
    world = World()
    box = world.add_body(Box(2, 2), position=(0, 0), kind="static")
    ball = world.add_body(Circle(1), position=(5, 0))
    return world, box, ball


def test_touching_counts_for_points_and_boxes():
    world, box, ball = simple_world()
    assert world.query_point((1.0, 0.3)) == [box]  # on the box's face
    assert world.query_point((1.0, 1.0)) == [box]  # on its corner
    assert world.query_point((4.0, 0.0)) == [ball]  # on the circle
    assert world.query_aabb((1.0, 5.0), (4.0, 6.0)) == []
    assert world.query_aabb((1.0, -5.0), (4.0, -1.0)) == [box]  # corner touch
    assert world.query_aabb((-9, -9), (9, 9)) == [box, ball]
    # A zero-size box is a point.
    assert world.query_aabb((4.0, 0.0), (4.0, 0.0)) == [ball]


def test_circle_box_query_is_exact_not_bounding_box():
    world, _, ball = simple_world()
    # Inside the ball's bounding box near its corner, but outside the disc.
    assert world.query_aabb((5.8, 0.8), (6.0, 1.0)) == []
    assert world.query_point((5.9, 0.9)) == []


def test_ray_hits_face_with_normal_facing_the_ray():
    world, box, ball = simple_world()
    hit = world.raycast((-5.0, 0.5), (5.0, 0.5))
    assert hit.body is box and hit.fraction == pytest.approx(0.4)
    np.testing.assert_allclose(hit.point, [-1.0, 0.5])
    np.testing.assert_allclose(hit.normal, [-1.0, 0.0])
    hit = world.raycast((5.0, 9.0), (5.0, -9.0))
    assert hit.body is ball and hit.fraction == pytest.approx(8 / 18)
    np.testing.assert_allclose(hit.normal, [0.0, 1.0], atol=1e-15)


def test_ray_starting_inside_reports_fraction_zero_facing_back():
    world, box, ball = simple_world()
    hit = world.raycast((0.0, 0.0), (3.0, 4.0))
    assert hit.body is box and hit.fraction == 0.0
    np.testing.assert_allclose(hit.normal, [-0.6, -0.8])
    np.testing.assert_allclose(hit.point, [0.0, 0.0])
    every = world.raycast_all((5.0, 0.0), (-5.0, 0.0))
    assert [h.body for h in every] == [ball, box]
    assert every[0].fraction == 0.0 and every[1].fraction == pytest.approx(0.4)


def test_ray_misses_and_stops_short():
    world, _, _ = simple_world()
    assert world.raycast((-5.0, 1.5), (9.0, 1.5)) is None
    assert world.raycast((-5.0, 0.0), (-1.5, 0.0)) is None
    assert world.raycast_all((-5.0, 3.0), (9.0, 3.0)) == []


def test_mask_filters_by_category():
    world, box, ball = simple_world()
    assert world.raycast((-5.0, 0.0), (9.0, 0.0), mask=0) is None
    assert world.raycast((-5.0, 0.0), (9.0, 0.0), mask=0x0002) is None  # default is 0x0001
    assert world.raycast((-5.0, 0.0), (9.0, 0.0), mask=0x0001).body is box
    box.category, ball.category = 0x0004, 0x0002
    assert world.raycast((-5.0, 0.0), (9.0, 0.0), mask=0x0002).body is ball
    every = world.raycast_all((-5.0, 0.0), (9.0, 0.0), mask=0x0006)
    assert [h.body for h in every] == [box, ball]
    assert world.shape_cast(Circle(0.1), (-5, 0, 0), (14, 0), mask=0x0002).body is ball
    assert world.shape_cast(Circle(0.1), (-5, 0, 0), (14, 0), mask=0x0001) is None
    hits = world.raycast_many([(-5.0, 0.0), (5.0, 5.0)], [(9.0, 0.0), (5.0, -5.0)], 0x0004)
    assert hits.body_row.tolist() == [0, -1]


def test_sensors_block_no_ray_or_cast_but_are_found_by_overlap_queries():
    world, box, _ = simple_world()
    zone = world.add_body(Box(1, 4), position=(-3, 0), kind="static", sensor=True)
    assert world.raycast((-5.0, 0.0), (9.0, 0.0)).body is box
    assert zone not in [h.body for h in world.raycast_all((-5.0, 0.0), (9.0, 0.0))]
    assert world.shape_cast(Circle(0.1), (-5, 0, 0), (14, 0)).body is box
    assert world.query_point((-3.0, 1.0)) == [zone]
    assert world.query_aabb((-4.0, -1.0), (0.0, 1.0)) == [box, zone]


def test_shape_cast_reports_contact_normal_and_point():
    world, box, ball = simple_world()
    hit = world.shape_cast(Box(1, 1), (-5.0, 0.0, 0.0), (10.0, 0.0))
    assert hit.body is box and hit.toi == pytest.approx(0.35)
    np.testing.assert_allclose(hit.normal, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(hit.point, [-1.0, 0.0], atol=1e-12)
    start_inside = world.shape_cast(Circle(0.5), (0.0, 0.0, 0.0), (1.0, 0.0))
    assert start_inside.body is box and start_inside.toi == 0.0
    assert world.shape_cast(Circle(0.5), (0.0, 5.0, 0.0), (9.0, 0.0)) is None


# -- the index --------------------------------------------------------------------------------
def test_queries_see_teleports_steps_removals_and_additions():
    world, box, ball = simple_world()
    assert world.query_point((20.0, 20.0)) == []
    ball.position = (20.0, 20.0)  # teleport: the cached index must notice
    assert world.query_point((20.0, 20.0)) == [ball]
    box.angle = math.pi / 4
    assert world.query_point((1.2, 0.0)) == [box]  # the rotated box reaches sqrt(2)
    world.remove(ball)
    assert world.query_point((20.0, 20.0)) == []
    crate = world.add_body(Box(1, 1), position=(20.0, 20.0))  # same count as before removal
    assert world.query_point((20.0, 20.0)) == [crate]
    world.step()  # the crate falls
    assert world.raycast((20.0, 30.0), (20.0, 10.0)).point[1] < 20.5


@settings(max_examples=6)
@given(seed=seeds, moved=st.sampled_from([1, 5, 200]))
def test_queries_after_teleports_match_brute_force(seed, moved):
    """A few teleported bodies are patched into the index, many force a rebuild: both exact."""
    world, specs, extent = build_world(seed, 250)
    rng = np.random.default_rng(seed + 5)
    world._current_index()
    teleported = rng.choice(len(specs) - 1, moved, replace=False)
    for i in teleported:
        specs[i].position = rng.uniform(0.0, extent, 2)
        specs[i].angle = float(rng.uniform(-3, 3))
        world.bodies[i].position = specs[i].position
        world.bodies[i].angle = specs[i].angle
    pieces = [world_pieces(spec) for spec in specs]
    for point in [spec.position for spec in specs[:40]]:
        expected = [i for i, ps in enumerate(pieces) if any(piece_contains(p, point) for p in ps)]
        assert rows_of(world, world.query_point(point)) == expected
    # Rays aimed through teleported bodies, from somewhere near.
    targets = np.array([specs[i].position for i in teleported[:6]])
    starts = targets + rng.uniform(-4, 4, targets.shape)
    for start, end in zip(starts, 2 * targets - starts):
        expected = [i for i, _, _ in oracle_ray_hits(specs, start, end)]
        assert rows_of(world, [h.body for h in world.raycast_all(start, end)]) == expected


def test_index_is_reused_until_the_world_changes():
    world, box, _ = simple_world()
    first = world._current_index()
    world.query_point((0, 0))
    assert world._current_index() is first
    box.position = (0.0, 0.0)  # an equal value: nothing moved
    assert world._current_index() is first
    world.step()
    assert world._current_index() is not first


def test_candidates_stay_local_as_the_world_grows():
    """A point query looks at a few parts, not all of them, however big the world."""
    for bodies in (200, 3000):
        world, _, extent = build_world(11, bodies)
        index: QueryIndex = world._current_index()
        centres = np.random.default_rng(1).uniform(0, extent, (50, 2))
        owner, _ = sweep_candidates(index, centres, centres, np.zeros_like(centres))
        assert len(owner) / 50 < 12


def test_empty_world_and_far_away_queries():
    world = World()
    assert world.query_point((0, 0)) == [] and world.raycast((0, 0), (1, 1)) is None
    assert world.query_aabb((-1, -1), (1, 1)) == []
    assert world.shape_cast(Circle(1), (0, 0, 0), (5, 5)) is None
    world, _, _ = simple_world()
    assert world.query_point((1e300, -1e300)) == []
    assert world.raycast((-1e12, 0.0), (1e12, 0.5)) is not None


# -- bad input --------------------------------------------------------------------------------
BAD = [
    (lambda w: w.query_point((math.nan, 0)), ValueError, "point"),
    (lambda w: w.query_point((math.inf, 0)), ValueError, "point"),
    (lambda w: w.query_point("here"), TypeError, "point"),
    (lambda w: w.query_point((1, 2, 3)), ValueError, "point"),
    (lambda w: w.query_aabb((1, 1), (0, 0)), ValueError, "upper"),
    (lambda w: w.query_aabb((0, math.nan), (1, 1)), ValueError, "lower"),
    (lambda w: w.raycast((1, 1), (1, 1)), ValueError, "end"),
    (lambda w: w.raycast_all((0, 0), (0, 0)), ValueError, "end"),
    (lambda w: w.raycast((0, math.inf), (1, 1)), ValueError, "start"),
    (lambda w: w.raycast(None, (1, 1)), TypeError, "start"),
    (lambda w: w.raycast((0, 0), (1, 1), mask=0x10000), ValueError, "mask"),
    (lambda w: w.raycast((0, 0), (1, 1), mask=-1), ValueError, "mask"),
    (lambda w: w.raycast((0, 0), (1, 1), mask=1.0), TypeError, "mask"),
    (lambda w: w.raycast((0, 0), (1, 1), mask=True), TypeError, "mask"),
    (lambda w: w.raycast_many([(0, 0)], [(0, 0)]), ValueError, "ends"),
    (lambda w: w.raycast_many([(0, 0)], [(1, 1), (2, 2)]), ValueError, "ends"),
    (lambda w: w.shape_cast("box", (0, 0, 0), (1, 0)), TypeError, "shape"),
    (lambda w: w.shape_cast(Circle(1), (0, 0), (1, 0)), ValueError, "pose"),
    (lambda w: w.shape_cast(Circle(1), (0, 0, 0), (math.nan, 0)), ValueError, "motion"),
    (lambda w: w.query_aabb((0, 0), "up"), TypeError, "upper"),
]


@pytest.mark.parametrize("call, error, name", BAD)
def test_bad_input_raises_naming_the_argument(call, error, name):
    world, _, _ = simple_world()
    with pytest.raises(error, match=f"^{name}"):
        call(world)


# -- the compiled index against the same queries without a grid -------------------------------
# Every query kind, on worlds of several scales, far from the origin or not, dense or sparse,
# with long parts kept out of the grid and bodies patched in after moves: the answers through
# the grid must equal the answers of an index that lists every part for every query (the
# same exact tests, no cells), to the last bit. The oracle tests above check the exact tests.
def without_grid(index: QueryIndex) -> QueryIndex:
    """``index`` with every part unlisted and its grid entries skipped: brute force."""
    part_ints = index.part_ints.copy()
    part_ints[:, MOVED] = 1
    counts = index.counts.copy()
    counts[UNLISTED] = len(part_ints)
    unlisted = np.arange(len(part_ints), dtype=np.int64)
    return index._replace(part_ints=part_ints, counts=counts, unlisted=unlisted)


def brute_force(world, ask):
    """``ask(world)`` answered through the world's index without its grid."""
    index = world._current_index()
    cache = world._query_index
    cache.index = without_grid(index)
    try:
        return ask(world)
    finally:
        cache.index = index


def scattered_world(rng, bodies: int, scale: float, offset: float, spread: float):
    """Random bodies of size ~scale over a square of side spread * scale, at offset; a few
    long walls (parts too large for the grid), sensors and categories among them."""
    side = scale * spread
    catalog = [
        Box(1.0 * scale, 0.6 * scale),
        Circle(0.5 * scale, (0.1 * scale, 0.0)),
        Polygon([(0, 0), (scale, 0), (0.3 * scale, 0.8 * scale)]),
        ConcavePolygon(np.array([(0, 0), (2, 0), (2, 2), (1, 0.6), (0, 2)]) * scale),
        [Box(0.5 * scale, 0.5 * scale), Circle(0.3 * scale, (0.5 * scale, 0.0))],
        Box(0.01 * scale, 0.4 * scale),
    ]
    world = World()
    for _ in range(bodies):
        shape = catalog[rng.integers(len(catalog))]
        world.add_body(
            shape, position=offset + rng.uniform(0, side, 2), angle=rng.uniform(-3, 3),
            kind=str(rng.choice(["dynamic", "static", "kinematic"])),
            sensor=bool(rng.random() < 0.1), category=int(rng.choice([1, 2, 4])),
        )  # fmt: skip
    for _ in range(rng.integers(0, 3)):
        wall = Box(side * rng.uniform(0.5, 1.5), 0.5 * scale)
        world.add_body(wall, position=offset + rng.uniform(0, side, 2), angle=rng.uniform(-3, 3),
                       kind="static")  # fmt: skip
    return world, side


def every_answer(world, rng, scale: float, offset: float, side: float):
    """The answers of every query kind at points, boxes, rays and casts drawn from ``rng``."""
    low, high = offset - 2 * scale, offset + side + 2 * scale
    points = rng.uniform(low, high, (12, 2))
    answers = [[world.query_point(p) for p in points]]
    sizes = scale * rng.choice([0.0, 0.3, 3.0, 30.0], (8, 1)) * rng.uniform(0.2, 1.0, (8, 2))
    answers.append([world.query_aabb(c - s / 2, c + s / 2) for c, s in zip(points, sizes)])
    starts = rng.uniform(low, high, (10, 2))
    heading = rng.uniform(0, 2 * math.pi, 10)
    length = scale * rng.choice([0.3, 3.0, 30.0, 3 * side / scale], 10)
    ends = starts + length[:, None] * np.stack([np.cos(heading), np.sin(heading)], 1)
    masks = rng.choice([0xFFFF, 0x0002, 0x0005], 10)
    answers.append(
        [
            (world.raycast(s, e, int(m)), world.raycast_all(s, e, int(m)))
            for s, e, m in zip(starts, ends, masks)
        ]
    )
    answers.append(world.raycast_many(starts, ends))
    casts = [Box(0.6 * scale, 0.4 * scale), Circle(0.3 * scale)]
    answers.append(
        [
            world.shape_cast(casts[i % 2], (*s, rng.uniform(-3, 3)), e - s, int(m))
            for i, (s, e, m) in enumerate(zip(starts, ends, masks))
        ]
    )
    return answers


def same_answers(got, expected) -> None:
    """Equal to the last bit: bodies by identity, floats and arrays exactly."""
    if isinstance(got, (list, tuple)) and not isinstance(got, np.ndarray):
        assert type(got) is type(expected) and len(got) == len(expected)
        for a, b in zip(got, expected):
            same_answers(a, b)
    elif hasattr(got, "__dataclass_fields__"):
        assert type(got) is type(expected)
        for field in got.__dataclass_fields__:
            same_answers(getattr(got, field), getattr(expected, field))
    elif isinstance(got, np.ndarray):
        np.testing.assert_array_equal(got, expected)
    elif isinstance(got, float):
        assert got == expected or (math.isnan(got) and math.isnan(expected))
    else:
        assert got is expected or got == expected


@settings(max_examples=25)
@given(
    seed=seeds,
    bodies=st.integers(1, 160),
    scale=st.sampled_from([1e-3, 1.0, 1e3]),
    offset=st.sampled_from([0.0, -3e5, 1e6]),
    spread=st.sampled_from([5.0, 40.0, 1e5]),
)
def test_every_query_through_the_grid_equals_brute_force(seed, bodies, scale, offset, spread):
    rng = np.random.default_rng(seed)
    world, side = scattered_world(rng, bodies, scale, offset * scale, spread)
    state = rng.bit_generator.state
    fast = every_answer(world, rng, scale, offset * scale, side)
    rng.bit_generator.state = state
    slow = brute_force(world, lambda w: every_answer(w, rng, scale, offset * scale, side))
    same_answers(fast, slow)


@settings(max_examples=15)
@given(seed=seeds, moves=st.integers(1, 12), parts=st.sampled_from([1, 3, 70]))
def test_queries_after_moves_equal_a_fresh_index(seed, moves, parts):
    """move_and_slide patches the moved body into the index (or drops the index once too
    many parts have moved: 70 parts at once do): the answers equal a rebuilt index's."""
    rng = np.random.default_rng(seed)
    world, side = scattered_world(rng, 120, 1.0, 0.0, 25.0)
    shapes = [Circle(0.1, (0.25 * (k % 10), 0.25 * (k // 10))) for k in range(parts)]
    movers = [
        world.add_body(shapes, position=rng.uniform(0, side, 2), kind="kinematic") for _ in range(2)
    ]
    for m in range(moves):
        world.move_and_slide(movers[m % 2], rng.normal(size=2) * rng.choice([0.3, 3.0, 30.0]))
        if m % 3 == 2 or m == moves - 1:
            state = rng.bit_generator.state
            patched = every_answer(world, rng, 1.0, 0.0, side)
            rng.bit_generator.state = state
            world._query_index.forget()
            same_answers(patched, every_answer(world, rng, 1.0, 0.0, side))


def test_a_patched_index_is_kept_and_a_crowded_one_rebuilt():
    world, _, _ = simple_world()
    hero = world.add_body(Box(0.5, 0.5), position=(-5.0, 5.0), kind="kinematic")
    crowd = world.add_body(
        [Circle(0.05, (0.2 * k, 0.0)) for k in range(MAX_DIRTY_PARTS + 1)],
        position=(-20.0, 20.0), kind="kinematic",
    )  # fmt: skip
    index = world._current_index()
    world.move_and_slide(hero, (1.0, 0.0))
    assert world._current_index() is index  # patched, still current
    assert world.query_point((-4.0, 5.0)) == [hero]
    world.move_and_slide(crowd, (1.0, 0.0))
    rebuilt = world._current_index()
    assert rebuilt is not index
    assert world.query_point((-19.0, 20.0)) == [crowd]
    assert rebuilt.counts[UNLISTED] == rebuilt.counts[query_index.LARGE_PARTS]  # nothing patched


def test_sweep_candidates_cover_every_hit():
    """Every part a ray or a swept box truly meets is among the sweep's candidates."""
    world, _, extent = build_world(3, 300)
    rng = np.random.default_rng(4)
    starts, ends = random_rays(rng, extent, 40)
    index = world._current_index()
    owner, part = sweep_candidates(index, starts, ends, np.zeros_like(starts))
    hits = world.raycast_many(starts, ends)
    for r in np.flatnonzero(hits.body_row >= 0):
        bodies = index.part_ints[part[owner == r], query_index.BODY]
        assert hits.body_row[r] in bodies
    assert np.all(np.diff(owner * len(index.part_ints) + part) > 0)  # sorted, each once


@settings(max_examples=10)
@given(seed=seeds, bodies=st.integers(20, 200))
def test_shape_cast_is_the_narrow_phase_to_the_last_bit(seed, bodies):
    """shape_cast's toi is the least toi of the narrow phase run on the shape's parts against
    every part of the world (ties to the body added first), exactly: it runs that kernel."""
    world, _, extent = build_world(seed, bodies)
    rng = np.random.default_rng(seed + 6)
    parts = world._parts.packed()
    owner = world._parts.table.view("body")
    poses = np.column_stack([world.positions, world.angles])[owner]
    solid = ~world._bodies.view("sensor")[owner]
    for shape in (Box(0.6, 0.4), Circle(0.3), ConcavePolygon([(0, 0), (1, 0), (1, 1), (0.5, 0.3)])):
        pose = np.array([*rng.uniform(-2, extent + 2, 2), rng.uniform(-3, 3)])
        motion = rng.normal(size=2) * rng.choice([0.5, 5.0, extent])
        toi = np.full(len(owner), np.inf)
        for k in range(len(shape.parts)):
            found = collide_parts(
                shape.packed, np.full(len(owner), k), np.tile(pose, (len(owner), 1)),
                parts, np.arange(len(owner)), poses, np.tile(motion, (len(owner), 1)), 1.0,
            )  # fmt: skip
            toi = np.fmin(toi, np.where(solid, found.toi, np.inf))
        hit = world.shape_cast(shape, pose, motion)
        if not np.isfinite(toi.min()):
            assert hit is None
            continue
        assert hit.toi == toi.min()
        assert world.bodies[owner[np.flatnonzero(toi == toi.min())[0]]] is hit.body


# -- the index as the World's cache, and the functions around it ------------------------------
def test_copies_of_a_world_build_their_own_index():
    """The index is a cache the World owns: never saved, never shared with a copy."""
    world, box, ball = simple_world()
    index = world._current_index()
    assert "_query_index" in snapshot.EXCLUDED_ATTRIBUTES
    for twin in (copy.deepcopy(world), pickle.loads(pickle.dumps(world))):
        assert twin._query_index is not world._query_index
        assert twin._query_index.index is None  # built by the copy's first query
        twin_box, twin_ball = twin.bodies
        assert twin.query_point((5.0, 0.0)) == [twin_ball]
        twin_ball.position = (0.0, 0.0)  # moves the copy's ball only
        assert twin.query_point((0.0, 0.0)) == [twin_box, twin_ball]
        assert world.query_point((0.0, 0.0)) == [box]
        assert world._current_index() is index
    saved = world.snapshot()
    ball.position = (0.0, 0.0)
    assert world.query_point((0.0, 0.0)) == [box, ball]
    world.restore(saved)
    assert world.query_point((0.0, 0.0)) == [box]
    assert world.query_point((5.0, 0.0)) == [ball]


def test_a_refused_move_leaves_the_world_and_its_index_as_they_were():
    world, box, ball = simple_world()
    far = world.add_body(Box(1, 1), position=(MAX_COORDINATE - 1.0, 0.0), kind="kinematic")
    before = world._current_index()
    with pytest.raises(ValueError, match="^position"):
        world.move_and_slide(far, (10.0, 0.0))  # would end past the coordinate bound
    assert far.position[0] == MAX_COORDINATE - 1.0
    assert world._current_index() is before
    assert world.query_point((MAX_COORDINATE - 1.0, 0.0)) == [far]


def test_dense_and_hashed_grids_answer_alike():
    """A grid much larger than its entries (bodies spread far apart) is hashed; its answers
    equal the brute force's as a dense grid's do."""
    rng = np.random.default_rng(8)
    for spread, hashed in ((30.0, 0), (1e6, 1)):
        world = World()
        for _ in range(60):
            world.add_body(Box(1.0, 0.5), position=rng.uniform(0, spread, 2), kind="static")
        index = world._current_index()
        assert index.counts[HASHED] == hashed
        state = rng.bit_generator.state
        fast = every_answer(world, rng, 1.0, 0.0, spread)
        rng.bit_generator.state = state
        slow = brute_force(world, lambda w, side=spread: every_answer(w, rng, 1.0, 0.0, side))
        same_answers(fast, slow)


def test_the_query_functions_take_state_not_a_world():
    """queries, raycast, character and the index's modules never import the World: they
    take the index, the part columns and the handles, which World's methods gather."""
    engine = Path(queries.__file__).parent
    for name in ("queries", "raycast", "character", "query_index", "grid_walk", "cell_grid"):
        tree = ast.parse((engine / f"{name}.py").read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not imported & {"world", "world_base", "engine.world"}, name
    world, box, ball = simple_world()
    index, handles = world._current_index(), world._handles_by_row()
    assert queries.query_point(index, handles, (5.0, 0.0)) == [ball]
    parts = world._parts.table.columns()
    assert raycast_module.raycast(index, parts, handles, (-5, 0), (9, 0)).body is box
