"""Chains: one-sided, smooth polylines for static terrain, against physics and geometry."""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracles import point_segment

from engine import Box, Chain, Circle, Segment, World


def line_points(angle: float) -> np.ndarray:
    """101 collinear points 0.5 m apart along a line at ``angle`` through the origin,
    running towards the origin (right to left for angle 0: the front is up)."""
    along = np.arange(50.0, -0.01, -0.5)
    return np.column_stack([along * math.cos(angle), along * math.sin(angle)])


def slide_box(ground, angle: float = 0.0) -> float:
    """Largest speed off the line (along its normal) of a frictionless box sliding at
    5 m/s along ``ground``, a line at ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    world = World()
    world.add_body(ground, kind="static", friction=0.0, origin="local")
    box = world.add_body(Box(1, 0.5), position=(48 * c - 0.26 * s, 48 * s + 0.26 * c),
                         angle=angle, friction=0.0)  # fmt: skip
    for _ in range(60):
        world.step()
    box.velocity = (-5.0 * c, -5.0 * s)
    normal = np.array([-s, c])
    fastest = 0.0
    while box.position @ np.array([c, s]) > 1.0:  # until it reaches the last link
        world.step()
        fastest = max(fastest, abs(box.velocity @ normal))
    return fastest


@pytest.mark.parametrize("angle", [0.0, 0.1, 0.3])
def test_a_box_slides_across_a_hundred_collinear_links_without_catching(angle):
    points = line_points(angle)
    # Measured: at most 1e-8 m/s off the line. On a tilted line the joins are collinear
    # only to rounding, and separate two-sided segments catch the box's corner there:
    # 1.5 m/s off the line.
    assert slide_box(Chain(points), angle) < 1e-3
    if angle > 0.0:
        segments = [Segment(points[i], points[i + 1]) for i in range(len(points) - 1)]
        assert slide_box(segments, angle) > 0.5


def roll_ball(ground, points):
    """(largest |distance to the terrain - radius|, largest speed along the terrain's
    normal) of a ball rolling down and across a bumpy terrain."""
    world = World()
    world.add_body(ground, kind="static", origin="local")
    radius = 0.25
    x0 = 1.0
    ball = world.add_body(Circle(radius), position=(x0, 0.3 * math.sin(x0 / 2) + radius + 0.004))
    ball.velocity = (3.0, 0.0)
    worst_gap = worst_normal = 0.0
    for step in range(300):
        world.step()
        centre = ball.position
        distances = [
            point_segment(centre, points[i], points[i + 1]) for i in range(len(points) - 1)
        ]
        k = int(np.argmin(distances))
        a, b = points[k], points[k + 1]
        if step > 30:
            worst_gap = max(worst_gap, abs(distances[k] - radius))
            q = a + np.clip(np.dot(centre - a, b - a) / np.dot(b - a, b - a), 0, 1) * (b - a)
            normal = (centre - q) / np.hypot(*(centre - q))
            worst_normal = max(worst_normal, float(ball.velocity @ normal))
    assert 8.0 < ball.position[0] < 38.0
    return worst_gap, worst_normal


def test_a_ball_rolls_over_bumpy_terrain_without_hopping_at_the_joins():
    xs = np.arange(40.0, -0.01, -0.5)  # right to left: the front is up
    points = np.column_stack([xs, 0.3 * np.sin(xs / 2)])
    gap, lift = roll_ball(Chain(points), points[::-1])
    # It stays within the slop (5 mm) of the terrain's offset curve, also across the
    # valleys' concave joins (measured: 0.6 mm), and never moves off the terrain faster
    # than 5.3 cm/s. Separate two-sided segments kick it off at the joins at 19 cm/s.
    assert gap < World().linear_slop
    assert lift < 0.06
    two_sided = [Segment(points[i], points[i + 1]) for i in range(len(points) - 1)]
    assert roll_ball(two_sided, points[::-1])[1] > 0.15


def test_a_body_from_behind_passes_through():
    world = World()
    world.add_body(Chain([(5, 0), (-5, 0)]), kind="static")
    rising = world.add_body(Circle(0.2), position=(0, -1), velocity=(0, 8), gravity_scale=0.0)
    falling = world.add_body(Box(0.4, 0.4), position=(2, 1))
    for _ in range(60):
        world.step()
    assert rising.position[1] > 4.0
    assert falling.position[1] == pytest.approx(0.2, abs=world.linear_slop)


def test_a_loop_closes_and_its_winding_picks_the_solid_side():
    square = [(-2, -2), (2, -2), (2, 2), (-2, 2)]  # counter-clockwise: solid inside
    block = Chain(square, loop=True)
    assert len(block.parts) == 4 and np.allclose(block.parts[3].b, [-2, -2])
    room = Chain(square[::-1], loop=True)  # clockwise: a room
    world = World()
    world.add_body(room, kind="static")
    ball = world.add_body(Circle(0.3), position=(0, 0), velocity=(30, 17), restitution=1.0)
    world.add_body(block, kind="static", position=(20, 0))
    crate = world.add_body(Box(1, 1), position=(20, 3))
    for _ in range(240):
        world.step()
        assert np.all(np.abs(ball.position) < 2.0)
    assert crate.position[1] == pytest.approx(2.5, abs=world.linear_slop)


def test_rays_hit_a_link_from_the_front_only():
    world = World()
    ground = world.add_body(Chain([(5, 0), (0, 0), (-5, 1)]), kind="static", origin="local")
    hit = world.raycast((1, 3), (1, -3))
    assert (
        hit.body is ground
        and hit.fraction == pytest.approx(0.5)
        and np.allclose(hit.normal, [0, 1])
    )
    assert world.raycast((1, -3), (1, 3)) is None


def test_chains_are_refused_for_dynamic_bodies_and_bad_points():
    world = World()
    with pytest.raises(ValueError, match="shapes: a Chain is one-sided terrain"):
        world.add_body(Chain([(1, 0), (0, 0)]))
    assert len(world.bodies) == 0
    with pytest.raises(ValueError, match="points: point 1 and the next are equal"):
        Chain([(0, 0), (1, 0), (1, 0)])
    with pytest.raises(ValueError, match="points: a loop needs at least 3"):
        Chain([(0, 0), (1, 0)], loop=True)
    with pytest.raises(TypeError, match="loop:"):
        Chain([(0, 0), (1, 0)], loop=1)
    assert repr(Chain([(1, 0), (0, 0)])) == "Chain([[1.0, 0.0], [0.0, 0.0]], loop=False)"


def test_a_world_with_a_chain_saves_and_continues_bitwise(tmp_path):
    world = World()
    world.add_body(Chain([(5, 0), (0, -1), (-5, 0)]), kind="static")
    world.add_body([Circle(0.3), Segment((0, 0), (1, 0), 0.1)], position=(1, 2))
    for _ in range(20):
        world.step()
    world.save(tmp_path / "chain.npz")
    loaded = World.load(tmp_path / "chain.npz")
    for _ in range(40):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)


def test_a_large_body_is_measured_against_the_link_not_its_line():
    """A wide box across the end of a tilted link: where the box's corner would be a
    ghost, the link's front face answers, but only for the part of the box beside the
    link (found by the world fuzzer: the whole box against the link's line gave 7.7 m of
    overlap where the gap is 0.53 m)."""
    from engine import collide

    chain = Chain([(3.75, -0.1429), (0.0, 0.0), (-3.75, 0.1429)])
    pose = (0.0, 4.0, 2.0)
    ground = Box(20, 1)
    found = collide(chain, pose, ground, (0, -0.5, 0)).separation
    links = [collide(Segment(p.a, p.b), pose, ground, (0, -0.5, 0)).separation
             for p in chain.parts]  # fmt: skip
    assert found == pytest.approx(min(links), rel=1e-9)
    assert collide(ground, (0, -0.5, 0), chain, pose).separation == pytest.approx(found)
