"""Named regression cases for ``collide``, each with its answer computed by hand.

Inputs are small exact binary fractions wherever possible, so the hand answers are exact up to
a few roundings: 1e-12 absolute (on sizes ~1..10) is far below any geometric mistake (>= 1e-2
here) and far above rounding (~1e-15).
"""

from __future__ import annotations

import math

import numpy as np
import oracles
import pytest

from engine import Box, Circle, ConcavePolygon, Polygon, collide

TOL = 1e-12  # see the module docstring

SQUARE_03 = Polygon([(0, 0), (3, 0), (3, 3), (0, 3)])
SQUARE_46 = Polygon([(4, 4), (6, 4), (6, 6), (4, 6)])
QUAD = Polygon([(0, 0), (0, 5), (5, 4), (3, 0)])  # given clockwise on purpose
ORIGIN = (0.0, 0.0, 0.0)


def assert_points(got, expected, tol=TOL):
    got = np.asarray(got).reshape(-1, 2)
    expected = np.asarray(expected, dtype=float).reshape(-1, 2)
    assert got.shape == expected.shape, (got, expected)
    for p in expected:
        assert np.min(np.hypot(*(got - p).T)) <= tol, (got, expected)


def gap_along(shape_spec_a, pose_a, shape_spec_b, pose_b, normal):
    return oracles.gap_along(
        oracles.world_convex(shape_spec_a, pose_a),
        oracles.world_convex(shape_spec_b, pose_b),
        normal,
    )


# --------------------------------------------------------------------------------------------
# seed 000: separated squares; a quad reaching into a square


def test_seed000_separated_squares_do_not_collide():
    hit = collide(SQUARE_03, ORIGIN, SQUARE_46, ORIGIN)
    assert not hit.intersect and not hit.will_intersect and hit.toi is None
    assert hit.depth == 0.0 and np.all(hit.mtv == 0.0)
    assert np.asarray(hit.points).shape == (0, 2)
    # gap 1 along x and along y; the true distance is corner (3,3) to corner (4,4) = sqrt 2.
    # A separating axis gives a gap between those (and exactly its own projection gap).
    assert 1.0 - TOL <= hit.separation <= math.sqrt(2.0) + TOL
    assert np.dot(hit.normal, (1.0, 1.0)) > 0  # from A towards B
    spec_a = ("polygon", np.array([(0, 0), (3, 0), (3, 3), (0, 3)], dtype=float))
    spec_b = ("polygon", np.array([(4, 4), (6, 4), (6, 6), (4, 6)], dtype=float))
    assert abs(hit.separation - gap_along(spec_a, ORIGIN, spec_b, ORIGIN, hit.normal)) <= TOL


def test_seed000_same_squares_as_boxes_at_poses():
    hit = collide(Box(3, 3), (1.5, 1.5, 0.0), Box(2, 2), (5.0, 5.0, 0.0))
    assert not hit.intersect and hit.depth == 0.0
    assert 1.0 - TOL <= hit.separation <= math.sqrt(2.0) + TOL


def test_seed000_quad_collides_with_square():
    """Quad (0,0),(0,5),(5,4),(3,0) against the square [4,6]^2.

    Overlap of the projections on each candidate axis (quad range vs square range):
      x: [0,5] vs [4,6] -> 1;  y: [0,5] vs [4,6] -> 1;
      n = (1,5)/sqrt26 (quad edge (0,5)-(5,4)): quad max 25, square min 24 -> 1/sqrt26 ~ 0.196;
      n = (2,-1)/sqrt5 (quad edge (5,4)-(3,0)): quad [-5,6], square [2,8] -> 4/sqrt5.
    So depth = 1/sqrt26 along n = (1,5)/sqrt26 and mtv = -(1,5)/26.
    Contact: reference = the quad's face (0,5)-(5,4), incident = the square's bottom edge
    (4,4)-(6,4), clipped to the face's extent -> (4,4) (1/sqrt26 below the face) and (5,4)
    (on it). Midway between the surfaces: (4,4) + n/(2 sqrt26) = (4 + 1/52, 4 + 5/52), (5,4).
    """
    hit = collide(QUAD, ORIGIN, SQUARE_46, ORIGIN)
    root26 = math.sqrt(26.0)
    assert hit.intersect and hit.will_intersect and hit.toi == 0.0
    assert hit.depth == pytest.approx(1.0 / root26, abs=TOL)
    assert hit.separation == pytest.approx(-1.0 / root26, abs=TOL)
    assert hit.normal == pytest.approx(np.array([1.0, 5.0]) / root26, abs=TOL)
    assert hit.mtv == pytest.approx(-np.array([1.0, 5.0]) / 26.0, abs=TOL)
    deep = (4.0 + 1.0 / 52.0, 4.0 + 5.0 / 52.0)
    # (5,4) touches the face exactly; keeping it is right (touching counts), dropping it by a
    # rounding is tolerated
    points = np.asarray(hit.points)
    if len(points) == 2:
        assert_points(points, [deep, (5.0, 4.0)])
    else:
        assert_points(points, [deep])
    assert not hit.a_in_b and not hit.b_in_a
    # and the other way round: same depth, opposite normal
    back = collide(SQUARE_46, ORIGIN, QUAD, ORIGIN)
    assert back.depth == pytest.approx(1.0 / root26, abs=TOL)
    assert back.normal == pytest.approx(-np.array([1.0, 5.0]) / root26, abs=TOL)


# --------------------------------------------------------------------------------------------
# seed 003: the cross


def cross_pair():
    """A: 10 x 1 bar centred at the origin (x in [-5,5], y in [-0.5,0.5]).
    B: 1 x 8 bar centred at (1,1) (x in [0.5,1.5], y in [-3,5]).
    No vertex of either lies inside the other, yet they overlap in [0.5,1.5] x [-0.5,0.5]."""
    return Box(10.0, 1.0), Box(1.0, 8.0)


def test_seed003_cross_no_vertex_inside_yet_overlapping():
    a, b = cross_pair()
    va = oracles.box_vertices(10.0, 1.0)
    vb = oracles.box_vertices(1.0, 8.0) + (1.0, 1.0)
    assert not oracles.point_in_convex(va, vb).any()
    assert not oracles.point_in_convex(vb, va).any()

    hit = collide(a, ORIGIN, b, (1.0, 1.0, 0.0))
    # x: A [-5,5] vs B [0.5,1.5]: overlap min(5 - 0.5, 1.5 + 5) = 4.5
    # y: A [-0.5,0.5] vs B [-3,5]: overlap min(0.5 + 3, 5 + 0.5) = 3.5  <- least
    # so A must move down by 3.5: mtv (0, -3.5), normal (0, 1) from A towards B.
    assert hit.intersect
    assert hit.depth == pytest.approx(3.5, abs=TOL)
    assert hit.normal == pytest.approx([0.0, 1.0], abs=TOL)
    assert hit.mtv == pytest.approx([0.0, -3.5], abs=TOL)
    # reference A's top face y = 0.5, incident B's bottom edge y = -3, x in [0.5, 1.5]:
    # midway at y = (0.5 - 3) / 2 = -1.25 (the same with B's face as the reference)
    assert_points(hit.points, [(0.5, -1.25), (1.5, -1.25)])
    assert not hit.a_in_b and not hit.b_in_a


@pytest.mark.parametrize("phi", [0.5, 2.0, -1.0])
def test_seed003_cross_rotated_as_a_whole(phi):
    a, b = cross_pair()
    r = oracles.rotation(phi)
    centre_b = r @ np.array([1.0, 1.0])
    hit = collide(a, (0.0, 0.0, phi), b, (centre_b[0], centre_b[1], phi))
    assert hit.intersect
    assert hit.depth == pytest.approx(3.5, abs=TOL)
    assert hit.normal == pytest.approx(r @ [0.0, 1.0], abs=TOL)
    assert hit.mtv == pytest.approx(r @ [0.0, -3.5], abs=TOL)
    assert_points(hit.points, [r @ (0.5, -1.25), r @ (1.5, -1.25)])


# --------------------------------------------------------------------------------------------
# seed 001's flaw: swept projections that overlap on every axis without a hit


def test_seed001_box_sliding_past_a_corner_never_hits():
    """Unit box A from centre (-4, -1.8) moving by (6, 6) in 1 s past unit box B at the
    origin. Swept x range [-4.5, 2.5] and y range [-2.3, 4.7] both cover B's, but they
    overlap only when |x_A| <= 1 and |y_A| <= 1: x_A = -4 + 6t needs 6t in [3, 5],
    y_A = -1.8 + 6t needs 6t in [0.8, 2.8]: never at once (closest gap 0.2 / sqrt 2)."""
    hit = collide(Box(1, 1), (-4.0, -1.8, 0.0), Box(1, 1), ORIGIN, velocity=(6.0, 6.0), dt=1.0)
    assert not hit.intersect
    assert not hit.will_intersect
    assert hit.toi is None


def test_seed001_box_grazing_a_corner_touches_once():
    """The same sweep from (-4, -2): 6t in [3, 5] and 6t in [1, 3] meet at t = 0.5 only,
    corner on corner; touching counts."""
    hit = collide(Box(1, 1), (-4.0, -2.0, 0.0), Box(1, 1), ORIGIN, velocity=(6.0, 6.0), dt=1.0)
    assert hit.will_intersect
    assert hit.toi == pytest.approx(0.5, abs=TOL)


def test_seed001_fast_box_tunnelling_through_is_caught():
    """A 0.2 box from x = -5 at 100 m/s for 1 s (ends at x = 95, far past the unit box B).
    Its right face x = -4.9 + 100 t meets B's left face x = -0.5 at t = 4.4 / 100."""
    a, b = Box(0.2, 0.2), Box(1, 1)
    hit = collide(a, (-5.0, 0.0, 0.0), b, ORIGIN, velocity=(100.0, 0.0), dt=1.0)
    assert not hit.intersect
    assert hit.will_intersect
    assert hit.toi == pytest.approx(0.044, abs=TOL)
    assert not collide(a, (95.0, 0.0, 0.0), b, ORIGIN).intersect  # apart at the end
    # the same with a circle of radius 0.1 off-centre by 0.3: face contact at x = -0.6
    hit = collide(Circle(0.1), (-5.0, 0.3, 0.0), b, ORIGIN, velocity=(100.0, 0.0), dt=1.0)
    assert hit.will_intersect
    assert hit.toi == pytest.approx(0.044, abs=TOL)
    # too short a dt: not yet
    hit = collide(a, (-5.0, 0.0, 0.0), b, ORIGIN, velocity=(100.0, 0.0), dt=0.04)
    assert not hit.will_intersect and hit.toi is None


# --------------------------------------------------------------------------------------------
# seed 002's flaw: a zero or non-minimal mtv for overlapping boxes


def test_seed002_overlapping_boxes_have_the_minimal_nonzero_mtv():
    # 2x2 boxes at (0,0) and (1.5,0.5): overlap 0.5 along x, 1.5 along y
    hit = collide(Box(2, 2), ORIGIN, Box(2, 2), (1.5, 0.5, 0.0))
    assert hit.intersect
    assert hit.depth == pytest.approx(0.5, abs=TOL)
    assert hit.normal == pytest.approx([1.0, 0.0], abs=TOL)
    assert hit.mtv == pytest.approx([-0.5, 0.0], abs=TOL)


def test_seed002_concentric_boxes_still_get_a_real_mtv():
    # 4x3 and 2x2 with the same centre and angle: overlap along A's x axis 2 + 1 = 3, along
    # its y axis 1.5 + 1 = 2.5 (least), so |mtv| = 2.5 along +-(-sin, cos) of the angle
    angle = 0.7
    pose = (0.3, -0.2, angle)
    hit = collide(Box(4, 3), pose, Box(2, 2), pose)
    assert hit.intersect
    assert hit.depth == pytest.approx(2.5, abs=TOL)
    assert math.hypot(*hit.mtv) == pytest.approx(2.5, abs=TOL)
    axis = np.array([-math.sin(angle), math.cos(angle)])
    assert abs(abs(float(np.dot(hit.normal, axis))) - 1.0) <= TOL
    assert hit.b_in_a and not hit.a_in_b


def test_seed002_rotated_overlap_matches_minkowski_oracle():
    pose_a, pose_b = (0.0, 0.0, 0.4), (1.2, 0.6, 0.9)
    hit = collide(Box(3, 1), pose_a, Box(2, 2), pose_b)
    spec_a = ("polygon", oracles.box_vertices(3, 1))
    spec_b = ("polygon", oracles.box_vertices(2, 2))
    pen = oracles.penetration_of(spec_a, pose_a, spec_b, pose_b)
    assert pen.signed_distance < -0.1  # well overlapping
    assert hit.depth == pytest.approx(-pen.signed_distance, abs=TOL)
    assert hit.normal == pytest.approx(pen.normal, abs=TOL)
    assert math.hypot(*hit.mtv) > 0.1


# --------------------------------------------------------------------------------------------
# Circles and boxes


def test_circle_touching_box_face_counts_as_intersecting():
    # circle radius 1 at (2, 0), box [-1,1]^2: they share the point (1, 0) only
    hit = collide(Circle(1.0), (2.0, 0.0, 0.0), Box(2, 2), ORIGIN)
    assert hit.intersect and hit.will_intersect and hit.toi == 0.0
    assert hit.depth == 0.0 and hit.separation == 0.0
    assert hit.normal == pytest.approx([-1.0, 0.0], abs=TOL)
    assert np.all(hit.mtv == 0.0)
    assert_points(hit.points, [(1.0, 0.0)])
    # a hair further and they are apart
    assert not collide(Circle(1.0), (2.0 + 1e-9, 0.0, 0.0), Box(2, 2), ORIGIN).intersect


def test_circle_touching_box_corner_counts_as_intersecting():
    # radius 5 at (4, 5): distance to the corner (1, 1) is sqrt(3^2 + 4^2) = 5 exactly
    hit = collide(Circle(5.0), (4.0, 5.0, 0.0), Box(2, 2), ORIGIN)
    assert hit.intersect
    assert hit.depth == pytest.approx(0.0, abs=TOL)
    assert hit.normal == pytest.approx([-0.6, -0.8], abs=TOL)
    assert_points(hit.points, [(1.0, 1.0)])


def test_circle_deep_inside_box():
    """Box [-5,5]^2, circle radius 1 at (1, 2): nearest face is the top (3 away), so the
    depth is 3 + 1 = 4 and the box must move down by 4: normal (0, 1), mtv (0, -4)."""
    box_pose, circle_pose = ORIGIN, (1.0, 2.0, 0.0)
    hit = collide(Box(10, 10), box_pose, Circle(1.0), circle_pose)
    assert hit.intersect and hit.b_in_a and not hit.a_in_b
    assert hit.depth == pytest.approx(4.0, abs=TOL)
    assert hit.normal == pytest.approx([0.0, 1.0], abs=TOL)
    assert hit.mtv == pytest.approx([0.0, -4.0], abs=TOL)
    box = oracles.world_convex(("polygon", oracles.box_vertices(10, 10)), box_pose)
    disk = oracles.world_convex(("circle", 1.0, (0.0, 0.0)), circle_pose)
    for p in np.asarray(hit.points):  # midway between the surfaces: within depth/2 of each
        assert oracles.distance_to_shape(p, box)[0] <= 2.0 + TOL
        assert oracles.distance_to_shape(p, disk)[0] <= 2.0 + TOL
    back = collide(Circle(1.0), circle_pose, Box(10, 10), box_pose)
    assert back.a_in_b and not back.b_in_a
    assert back.depth == pytest.approx(4.0, abs=TOL)
    assert back.normal == pytest.approx([0.0, -1.0], abs=TOL)


# --------------------------------------------------------------------------------------------
# A concave U


U_OUTLINE = [(0, 0), (6, 0), (6, 5), (4, 5), (4, 2), (2, 2), (2, 5), (0, 5)]  # notch [2,4]x[2,5]


def deepest_over_parts(concave, pose_c, spec_other, pose_other):
    """The oracle's largest depth over the concave shape's parts (negative: all apart)."""
    depths = [
        -oracles.penetration_of(
            ("polygon", np.asarray(part.vertices)), pose_c, spec_other, pose_other
        ).signed_distance
        for part in concave.parts
    ]
    return max(depths)


def test_u_shape_with_box_in_the_notch_does_not_collide():
    # box [2.5,3.5] x [3,4] sits in the notch: inside the U's hull, touching nothing
    hit = collide(ConcavePolygon(U_OUTLINE), ORIGIN, Box(1, 1), (3.0, 3.5, 0.0))
    assert not hit.intersect and not hit.will_intersect
    assert hit.depth == 0.0


def test_u_shape_box_touching_one_arm_reports_the_deepest_part():
    """Box [1.8,2.8] x [3,4] cuts 0.2 into the left arm (x <= 2): moving the U left by 0.2
    frees it, so the depth is 0.2, normal (1, 0), mtv (-0.2, 0) (no part can be deeper, and
    the part holding the arm at those heights is exactly that deep)."""
    u = ConcavePolygon(U_OUTLINE)
    pose_box = (2.3, 3.5, 0.0)
    hit = collide(u, ORIGIN, Box(1, 1), pose_box)
    assert hit.intersect
    spec_box = ("polygon", oracles.box_vertices(1, 1))
    assert hit.depth == pytest.approx(deepest_over_parts(u, ORIGIN, spec_box, pose_box), abs=TOL)
    assert hit.depth == pytest.approx(0.2, abs=TOL)
    assert hit.normal == pytest.approx([1.0, 0.0], abs=TOL)
    assert hit.mtv == pytest.approx([-0.2, 0.0], abs=TOL)
    # the box's two left corners are 0.2 inside the arm: midway points at x = 1.9
    assert_points(hit.points, [(1.9, 3.0), (1.9, 4.0)])


def test_u_shape_box_over_several_parts_reports_the_deepest():
    u = ConcavePolygon(U_OUTLINE)
    spec_box = ("polygon", oracles.box_vertices(1.5, 1.0))
    for pose_box in [(4.5, 1.0, 0.0), (1.2, 1.5, 0.3), (5.5, 2.2, -0.2)]:
        hit = collide(u, ORIGIN, Box(1.5, 1.0), pose_box)
        expected = deepest_over_parts(u, ORIGIN, spec_box, pose_box)
        assert expected > 0.1
        assert hit.intersect
        assert hit.depth == pytest.approx(expected, abs=TOL)
        back = collide(Box(1.5, 1.0), pose_box, u, ORIGIN)
        assert back.depth == pytest.approx(expected, abs=TOL)


def test_u_shape_box_dropping_into_the_notch_hits_the_bottom():
    """Box [2.5,3.5] wide falls from centre y = 8 at 6 m/s: it passes between the arms
    (whose tops at y = 5 a hull-based test would hit at t = 2.5/6) and meets the notch floor
    y = 2 when its bottom y = 7.5 - 6t reaches 2: t = 5.5/6."""
    u = ConcavePolygon(U_OUTLINE)
    hit = collide(Box(1, 1), (3.0, 8.0, 0.0), u, ORIGIN, velocity=(0.0, -6.0), dt=1.0)
    assert not hit.intersect and hit.will_intersect
    assert hit.toi == pytest.approx(5.5 / 6.0, abs=TOL)
    # a wider box catches the arms' tops first: bottom 7.5 - 6t = 5 at t = 2.5/6
    hit = collide(Box(3, 1), (3.0, 8.0, 0.0), u, ORIGIN, velocity=(0.0, -6.0), dt=1.0)
    assert hit.toi == pytest.approx(2.5 / 6.0, abs=TOL)


@pytest.mark.parametrize("offset", [2.8355226909963046e-159, 1e-170, 3e-200])
def test_circles_a_hair_apart_are_pushed_out_exactly(offset):
    # Found by test_mtv_separates_exactly: with the centres 3e-159 apart the squared
    # distance is subnormal, and the normal came out 1.1e-7 longer than one, so the
    # translation out left the circles 2.2e-7 apart instead of touching.
    hit = collide(Circle(1.0), ORIGIN, Circle(1.0), (offset, 0.0, 0.0))
    assert hit.normal[0] == 1.0 and hit.normal[1] == 0.0
    assert hit.depth == 2.0
    shifted = (hit.mtv[0], hit.mtv[1], 0.0)
    assert abs(collide(Circle(1.0), shifted, Circle(1.0), (offset, 0.0, 0.0)).separation) <= 1e-15


@pytest.mark.parametrize("offset", [2.8355226909963046e-159, 1e-170])
def test_a_circle_a_hair_off_a_corner_is_measured_from_it_exactly(offset):
    # The same subnormal length from the nearest vertex: the circle's centre lies just
    # outside the square's corner (0, 0), so its overlap is its radius, along the diagonal.
    centre = (-offset, -offset, 0.0)
    hit = collide(SQUARE_03, ORIGIN, Circle(0.5), centre)
    assert hit.intersect
    assert abs(hit.depth - 0.5) <= TOL
    assert abs(math.hypot(*hit.normal) - 1.0) <= 1e-15
