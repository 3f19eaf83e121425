"""Joint anchors land where they were given, whatever the origin of the bodies' frames.

The oracle is the definition: a joint made with world anchor ``p`` holds each body at the
material point that sat at ``p`` when the joint was added. Read back right after adding,
``anchor_a`` and ``anchor_b`` are ``p``; after the bodies move, each anchor is the same
material point, which ``body.local_to_world`` of its body-frame coordinates gives
independently of the joint table.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import (
    Box,
    DistanceJoint,
    MotorJoint,
    MouseJoint,
    PrismaticJoint,
    RevoluteJoint,
    RopeJoint,
    WeldJoint,
    WheelJoint,
    World,
)

ORIGINS = ("centroid", "local")
KINDS = ("revolute", "weld", "distance", "rope", "prismatic", "wheel", "mouse")


def make_joint(kind, body_a, body_b, point_a, point_b):
    """A joint of ``kind`` holding body_a at point_a and body_b (None: the world) at point_b."""
    if kind == "revolute":
        return RevoluteJoint(body_a, body_b, point_a)
    if kind == "weld":
        return WeldJoint(body_a, body_b, point_a)
    if kind == "distance":
        return DistanceJoint(body_a, body_b, point_a, point_b)
    if kind == "rope":
        return RopeJoint(body_a, body_b, point_a, point_b, 2.0 + math.dist(point_a, point_b))
    if kind == "prismatic":
        return PrismaticJoint(body_a, body_b, point_a, (1.0, 0.0))
    if kind == "wheel":
        return WheelJoint(body_a, body_b, point_a, (0.0, 1.0))
    return MouseJoint(body_a, point_b, anchor=point_a)


def single_point(kind):
    return kind in ("revolute", "weld", "prismatic", "wheel")


@st.composite
def off_centre_bodies(draw):
    """A box whose shapes' origin lies away from its centroid, at a random pose."""
    width, height = draw(st.floats(0.3, 2.0)), draw(st.floats(0.3, 2.0))
    offset = (draw(st.floats(-2, 2)), draw(st.floats(-2, 2)))
    pose = (draw(st.floats(-20, 20)), draw(st.floats(-20, 20)), draw(st.floats(-4, 4)))
    return Box(width, height, offset=offset), pose


def point_draw():
    return st.tuples(st.floats(-5, 5), st.floats(-5, 5))


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    origin_a=st.sampled_from(ORIGINS),
    origin_b=st.sampled_from(ORIGINS),
    first=off_centre_bodies(),
    second=off_centre_bodies(),
    to_world=st.booleans(),
    point_a=point_draw(),
    point_b=point_draw(),
)
def test_anchors_read_back_as_given_for_every_origin(
    kind, origin_a, origin_b, first, second, to_world, point_a, point_b
):
    world = World(gravity=(0, 0))
    (shape_a, pose_a), (shape_b, pose_b) = first, second
    a = world.add_body(shape_a, position=pose_a[:2], angle=pose_a[2], origin=origin_a)
    b = world.add_body(shape_b, position=pose_b[:2], angle=pose_b[2], origin=origin_b)
    if kind == "mouse" or to_world:
        b = None
    if single_point(kind):
        point_b = point_a
    elif kind != "mouse":
        assume(math.dist(point_a, point_b) > 0.1)  # a span needs two apart
    joint = world.add_joint(make_joint(kind, a, b, point_a, point_b))
    assert np.allclose(joint.anchor_a, point_a, rtol=0, atol=1e-9)
    if kind != "mouse":
        assert np.allclose(joint.anchor_b, point_b, rtol=0, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(KINDS[:-1]),
    origin=st.sampled_from(ORIGINS),
    body=off_centre_bodies(),
    point=point_draw(),
    spin=st.floats(-3, 3),
    push=st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
)
def test_a_moved_body_carries_its_anchor_as_material(kind, origin, body, point, spin, push):
    world = World(gravity=(0, 0), sleep=False)
    shape, pose = body
    a = world.add_body(shape, position=pose[:2], angle=pose[2], origin=origin)
    ground = world.add_body(Box(1, 1), position=(40, 40), kind="static")
    point_b = (point[0] + 1.0, point[1]) if not single_point(kind) else point
    joint = world.add_joint(make_joint(kind, a, ground, point, point_b))
    material = a.world_to_local(point)
    a.position = (pose[0] + push[0], pose[1] + push[1])
    a.angle = pose[2] + spin
    assert np.allclose(joint.anchor_a, a.local_to_world(material), rtol=0, atol=1e-9)


def test_a_corner_origin_square_pivots_where_the_anchor_was_given():
    # A unit square whose frame's origin is its lower-left corner, pinned to the world at
    # (0.2, 0.3) in that frame: the pin stays there while the square swings.
    world = World(sleep=False)
    square = world.add_body(Box(1.0, 1.0, offset=(0.5, 0.5)), position=(0, 0), origin="local")
    pin = world.add_joint(RevoluteJoint(square, None, (0.2, 0.3)))
    assert np.allclose(pin.anchor_a, (0.2, 0.3), rtol=0, atol=1e-12)
    material = square.world_to_local((0.2, 0.3))
    for _ in range(120):
        world.step()
        assert np.allclose(square.local_to_world(material), (0.2, 0.3), atol=2e-3)
    assert abs(square.angle) > 0.1  # it swung about the pin
    # The centre of mass hangs below the pin, at the lever it had.
    lever = math.dist(square.center_of_mass, (0.2, 0.3))
    assert math.isclose(lever, math.hypot(0.3, 0.2), rel_tol=1e-3)


def test_a_motor_joint_holds_the_centres_of_mass_as_they_were():
    world = World(gravity=(0, 0), sleep=False)
    a = world.add_body(Box(1, 1, offset=(0.5, 0.5)), position=(0, 0), origin="local")
    b = world.add_body(Box(1, 1, offset=(-0.7, 0.2)), position=(3, 1), origin="local")
    start = b.center_of_mass - a.center_of_mass
    world.add_joint(MotorJoint(a, b))
    for _ in range(60):
        world.step()
    assert np.allclose(b.center_of_mass - a.center_of_mass, start, atol=1e-9)
    assert np.allclose(b.velocity, 0.0, atol=1e-9)
