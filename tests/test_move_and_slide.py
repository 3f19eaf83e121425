"""move_and_slide: walls, slopes, floors, moving platforms, and never overlapping or tunnelling.

Overlap is judged with the public ``collide`` on the body's shapes at its final pose, against
every other body: the controller must never leave the body deeper than SKIN in anything.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, Polygon, World, collide
from engine.settings import CHARACTER_SKIN as SKIN  # these worlds are in metres

CHARACTER = Box(1.0, 2.0)  # 1 m wide, 2 m tall: its centre is 1 m above its feet


def shape_pose(body, position=None) -> tuple[float, float, float]:
    """Pose of the body's shapes: shape-frame p maps to R (p - centroid) + position."""
    areas = np.array([shape.area for shape in body.shapes])
    centroid = (areas[:, None] * [shape.centroid for shape in body.shapes]).sum(0) / areas.sum()
    c, s = math.cos(body.angle), math.sin(body.angle)
    position = body.position if position is None else position
    x, y = position - np.array([[c, -s], [s, c]]) @ centroid
    return (x, y, body.angle)


def separations(world, body, velocity=(0.0, 0.0)) -> list[float]:
    """Signed distance from ``body`` to every other body (negative: overlap depth)."""
    return [hit.separation for hit in pair_collisions(world, body, velocity)]


def pair_collisions(world, body, velocity=(0.0, 0.0), position=None):
    pose_a = shape_pose(body, position)
    return [
        collide(shape_a, pose_a, shape_b, shape_pose(other), velocity, 1.0)
        for other in world.bodies
        if other is not body
        for shape_a in body.shapes
        for shape_b in other.shapes
    ]


def floor_world(**character):
    world = World()
    ground = world.add_body(Box(200, 1), position=(0, -0.5), kind="static")
    body = world.add_body(CHARACTER, position=(0, 1 + SKIN), kind="kinematic", **character)
    return world, ground, body


def ramp(world, degrees: float, start_x: float, length: float = 20.0):
    """A static right triangle rising to the right from (start_x, 0) at ``degrees``."""
    rise = length * math.tan(math.radians(degrees))
    outline = np.array([(0.0, 0.0), (length, 0.0), (length, rise)])
    centroid = outline.mean(axis=0)  # the centroid of a triangle is its vertex mean
    return world.add_body(
        Polygon(outline - centroid), position=centroid + [start_x, 0.0], kind="static"
    )


# -- walls, floors, slopes --------------------------------------------------------------------
def test_walking_into_a_wall_at_an_angle_slides_along_it():
    world, _, body = floor_world()
    wall = world.add_body(Box(1, 20), position=(5.5, 10), kind="static")  # face at x = 5
    result = world.move_and_slide(body, (8.0, 3.0))
    # Stopped SKIN short of the wall, and the tangential (vertical) motion is all kept.
    assert result.position[0] == pytest.approx(4.5 - SKIN, abs=1e-9)
    assert result.position[1] == pytest.approx(1 + SKIN + 3.0, abs=1e-9)
    np.testing.assert_array_equal(body.position, result.position)
    assert [c[0] for c in result.contacts] == [wall]
    np.testing.assert_allclose(result.contacts[0][1], [-1.0, 0.0], atol=1e-12)
    assert not result.on_floor


def test_sliding_along_a_tilted_wall_keeps_the_tangential_motion():
    world = World()
    angle = math.radians(30)
    normal = np.array([-math.cos(angle), -math.sin(angle)])  # the face towards us, turned 30 deg
    tangent = np.array([normal[1], -normal[0]])
    wall = world.add_body(Box(1, 30), position=(6.0, 0.0), angle=angle, kind="static")
    body = world.add_body(Circle(0.5), position=(0.0, 0.0), kind="kinematic")
    motion = np.array([10.0, 1.0])
    result = world.move_and_slide(body, motion)
    travelled = result.position
    # The move along the wall is the motion's (the slide drops only the part into the wall).
    assert travelled @ tangent == pytest.approx(motion @ tangent, abs=1e-9)
    gap = min(separations(world, body))
    assert SKIN * 0.5 <= gap <= SKIN * 1.5
    assert result.contacts[0][0] is wall
    np.testing.assert_allclose(result.contacts[0][1], normal, atol=1e-9)


def test_landing_on_a_floor():
    world = World()
    ground = world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    body = world.add_body(CHARACTER, position=(0, 6), kind="kinematic")
    result = world.move_and_slide(body, (0.0, -20.0))
    assert result.position[1] == pytest.approx(1.0 + SKIN, abs=1e-9)
    assert result.on_floor and result.contacts[0][0] is ground
    np.testing.assert_allclose(result.contacts[0][1], [0.0, 1.0], atol=1e-12)
    # Standing there, a downward push finds the floor again at once and does not move.
    again = world.move_and_slide(body, (0.0, -0.1))
    assert again.on_floor and again.position[1] == pytest.approx(1.0 + SKIN, abs=1e-9)


def test_walking_up_a_gentle_slope():
    world = World()
    ramp(world, 20.0, start_x=0.0)
    body = world.add_body(Box(0.5, 1.0), position=(5.0, 10.0), kind="kinematic")
    landed = world.move_and_slide(body, (0.0, -20.0))
    assert landed.on_floor
    start = body.position
    for _ in range(10):
        result = world.move_and_slide(body, (0.2, -0.05))  # walk right, with a bit of gravity
        assert result.on_floor
    rise = body.position[1] - start[1]
    run = body.position[0] - start[0]
    assert run > 1.0 and rise == pytest.approx(run * math.tan(math.radians(20)), abs=0.01)
    assert min(separations(world, body)) >= 0.0


def test_a_steep_slope_is_a_wall_that_gives_no_height():
    world, _, body = floor_world()
    steep = ramp(world, 70.0, start_x=3.0)
    start_y = body.position[1]
    for _ in range(40):
        result = world.move_and_slide(body, (0.2, -0.05))
        assert body.position[1] <= start_y + 1e-9  # never climbs the steep face
        assert result.on_floor  # still standing on the ground
    # It walked up to the slope's foot and stopped there.
    assert body.position[0] == pytest.approx(
        3.0 - 0.5 - SKIN / math.sin(math.radians(70)), abs=1e-3
    )
    steep_contacts = [n for b, n in result.contacts if b is steep]
    assert steep_contacts and steep_contacts[0][1] < math.cos(math.radians(45))
    assert min(separations(world, body)) >= 0.0
    # A lower floor_angle would count even the gentle ground as a wall: still no climbing.
    world.move_and_slide(body, (1.0, 0.0), floor_angle=0.0)
    assert body.position[1] <= start_y + 1e-9


def test_standing_on_a_moving_kinematic_platform():
    world = World()
    platform = world.add_body(Box(4, 0.5), position=(0, 0), kind="kinematic")
    body = world.add_body(CHARACTER, position=(0.5, 0.25 + 1 + SKIN), kind="kinematic")
    offset = body.position - platform.position
    gravity_drop = np.array([0.0, -9.81 * world.dt * world.dt * 3])
    for frame in range(180):
        t = frame * world.dt
        platform.velocity = (2.0 * math.cos(t), 1.5 * math.sin(3 * t))
        result = world.move_and_slide(body, platform.velocity * world.dt + gravity_drop)
        assert result.on_floor
        assert min(separations(world, body)) >= 0.0
        world.step()
        drift = body.position - platform.position - offset
        # Rides along: at most one step behind, never falling off or sinking in.
        assert abs(drift[0]) < 1e-6
        assert -2 * 1.5 * world.dt - SKIN <= drift[1] <= 2 * 1.5 * world.dt + SKIN


def test_a_body_starting_inside_another_is_pushed_out():
    world = World()
    block = world.add_body(Box(2, 2), position=(0, 0), kind="static")
    body = world.add_body(Box(1, 1), position=(1.2, 0.3), kind="kinematic")  # 0.3 deep
    result = world.move_and_slide(body, (0.0, 0.0))
    assert result.position[0] == pytest.approx(1.5 + SKIN, abs=1e-9)
    assert result.contacts[0][0] is block
    assert min(separations(world, body)) > 0.0


def test_huge_motion_does_not_tunnel_through_a_thin_wall():
    world = World()
    wall = world.add_body(Box(0.01, 10), position=(5, 0), kind="static")
    body = world.add_body(Circle(0.25), position=(0, 0), kind="kinematic")
    result = world.move_and_slide(body, (1e6, 0.0))
    assert result.position[0] == pytest.approx(5 - 0.005 - 0.25 - SKIN, abs=1e-6)
    assert result.contacts[0][0] is wall


def test_sensors_and_filtered_bodies_do_not_block():
    world, _, body = floor_world(category=0x0002, mask=0xFFFF ^ 0x0004)
    world.add_body(Box(1, 4), position=(3, 2), kind="static", sensor=True)
    world.add_body(Box(1, 4), position=(5, 2), kind="static", category=0x0004)
    stop = world.add_body(Box(1, 4), position=(7, 2), kind="static")
    result = world.move_and_slide(body, (10.0, 0.0))
    assert [c[0] for c in result.contacts] == [stop]
    assert result.position[0] == pytest.approx(6.0 - SKIN, abs=1e-9)


def test_queries_see_the_moved_body():
    world, _, body = floor_world()
    world.move_and_slide(body, (10.0, 0.0))
    assert world.query_point((10.0, 1.0)) == [body]


# -- never overlapping ------------------------------------------------------------------------
motions = st.lists(
    st.tuples(st.floats(-8, 8), st.floats(-8, 8)).map(np.array), min_size=1, max_size=6
)


@settings(max_examples=50)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from([Box(0.8, 1.6), Circle(0.4), Polygon([(0, 0), (1, 0), (0.2, 0.9)])]),
    moves=motions,
)
def test_never_ends_overlapping_or_passes_through(seed, shape, moves):
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(25):
        size = rng.uniform(0.05, 3.0, 2)  # thin walls included
        world.add_body(
            Box(*size), position=rng.uniform(-8, 8, 2), angle=rng.uniform(0, 3), kind="static"
        )
    body = world.add_body(shape, position=(0, 0), kind="kinematic")
    # Start somewhere free: drop the boxes the start would touch.
    for other in world.bodies[:-1]:
        pose = shape_pose(other)
        if collide(shape, shape_pose(body), other.shapes[0], pose).separation <= SKIN:
            world.remove(other)
    for motion in moves:
        before = body.position
        result = world.move_and_slide(body, motion)
        assert min(separations(world, body), default=1.0) >= -SKIN
        if not result.contacts:
            # Nothing met: it moved all the way, and the sweep of that move is free.
            np.testing.assert_allclose(result.position - before, motion, atol=1e-9)
            sweeps = pair_collisions(world, body, motion, position=before)
            assert not any(hit.will_intersect for hit in sweeps)


# -- bad input --------------------------------------------------------------------------------
def test_bad_input():
    world, ground, body = floor_world()
    other_world, _, stranger = floor_world()
    with pytest.raises(ValueError, match="^body"):
        world.move_and_slide(stranger, (1, 0))
    with pytest.raises(TypeError, match="^body"):
        world.move_and_slide("me", (1, 0))
    with pytest.raises(TypeError, match="^max_slides"):
        world.move_and_slide(body, (1, 0), max_slides=True)
    with pytest.raises(ValueError, match="^motion"):
        world.move_and_slide(body, (math.nan, 0))
    with pytest.raises(ValueError, match="^max_slides"):
        world.move_and_slide(body, (1, 0), max_slides=0)
    with pytest.raises(TypeError, match="^max_slides"):
        world.move_and_slide(body, (1, 0), max_slides=2.0)
    with pytest.raises(ValueError, match="^floor_angle"):
        world.move_and_slide(body, (1, 0), floor_angle=4.0)
    with pytest.raises(ValueError, match="^floor_angle"):
        world.move_and_slide(body, (1, 0), floor_angle=math.inf)
    np.testing.assert_array_equal(body.position, (0, 1 + SKIN))  # nothing half-applied
    world.remove(body)
    with pytest.raises(ValueError, match="^body"):
        world.move_and_slide(body, (1, 0))


def test_a_body_falling_against_a_steep_slope_slides_down_it():
    """Falling onto a 70 degree face: the slide along it descends (slower than a free fall),
    it must not hang on the face."""
    world = World()
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    steep = math.radians(70)
    width, height = 2 / math.tan(steep), 2.0
    world.add_body(
        Polygon([(0, 0), (width, 0), (width, height)]),
        kind="static",
        position=(2 * width / 3, height / 3),
    )
    body = world.add_body(Box(0.4, 0.4), position=(0.6 * width - 0.35, 1.6), kind="kinematic")
    start = body.position.copy()
    for _ in range(40):
        world.move_and_slide(body, (0.0, -0.05))
    assert body.position[1] < start[1] - 0.5  # it came down the face
    assert body.position[0] < start[0]  # pushed away from the face as it slid
