"""Joints given Box2D's frames: ``local_anchor_a``, ``local_anchor_b`` and
``reference_angle`` instead of one world anchor.

The oracles are the definitions. A local anchor is a point in its body's frame (the frame
``local_to_world`` uses: the shapes' origin for ``origin="local"``, else the centre of
mass), so anchors given as ``world_to_local`` of a world point make the joint the world
point would. Anchors apart in the world make a joint that starts open, and the solve
pulls it shut, keeping the free bodies' momentum. The reference angle is the relative
angle (body_b's angle less body_a's; with body_b None, body_a's angle) at which the
joint angle reads 0 and a weld holds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Box,
    Circle,
    DistanceJoint,
    PrismaticJoint,
    RevoluteJoint,
    RopeJoint,
    WeldJoint,
    WheelJoint,
    World,
)

ORIGINS = ("centroid", "local")


def _joint(kind, a, b, **anchors):
    if kind == "revolute":
        return RevoluteJoint(a, b, **anchors)
    if kind == "weld":
        return WeldJoint(a, b, **anchors)
    if kind == "prismatic":
        return PrismaticJoint(a, b, axis=(0.6, 0.8), **anchors)
    return WheelJoint(a, b, axis=(0.0, 1.0), **anchors)


@st.composite
def placed_boxes(draw):
    """A box whose shapes' origin lies away from its centroid, its origin and pose."""
    shape = Box(draw(st.floats(0.3, 2.0)), draw(st.floats(0.3, 2.0)),
                offset=(draw(st.floats(-2, 2)), draw(st.floats(-2, 2))))  # fmt: skip
    pose = (draw(st.floats(-20, 20)), draw(st.floats(-20, 20)), draw(st.floats(-4, 4)))
    return shape, draw(st.sampled_from(ORIGINS)), pose


@settings(max_examples=120, deadline=None)
@given(
    kind=st.sampled_from(("revolute", "weld", "prismatic", "wheel")),
    first=placed_boxes(),
    second=placed_boxes(),
    to_world=st.booleans(),
    point=st.tuples(st.floats(-5, 5), st.floats(-5, 5)),
)
def test_local_anchors_of_a_world_point_make_the_joint_the_point_makes(
    kind, first, second, to_world, point
):
    rows = []
    for form in ("world", "local"):
        world = World(gravity=(0, 0))
        bodies = [world.add_body(shape, position=pose[:2], angle=pose[2], origin=origin)
                  for shape, origin, pose in (first, second)]  # fmt: skip
        a, b = bodies[0], None if to_world else bodies[1]
        if form == "world":
            joint = _joint(kind, a, b, anchor=point)
        else:
            local_b = point if b is None else b.world_to_local(point)
            joint = _joint(kind, a, b, local_anchor_a=a.world_to_local(point),
                           local_anchor_b=local_b)  # fmt: skip
        world.add_joint(joint)
        rows.append({name: world._joints.view(name)[0].copy()
                     for name in ("anchor_a", "anchor_b", "reference_angle", "axis")})  # fmt: skip
        assert np.allclose(joint.anchor_a, point, rtol=0, atol=1e-9)
        assert np.allclose(joint.anchor_b, point, rtol=0, atol=1e-9)
    for name, value in rows[0].items():
        np.testing.assert_allclose(rows[1][name], value, rtol=0, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("origin", ORIGINS)
def test_a_hinge_made_open_is_pulled_shut_keeping_momentum(origin):
    """Two boxes hinged at their facing edges' midpoints, which lie apart: the hinge
    closes, and the pair's momentum stays zero (no gravity, nothing else)."""
    world = World(gravity=(0, 0))
    a = world.add_body(Box(1, 1, offset=(0.3, 0.2)), position=(0, 0), origin=origin)
    b = world.add_body(Box(1, 1), position=(2, 0.5), density=3.0)
    edge_a = a.world_to_local(a.center_of_mass + (0.5, 0.0))
    hinge = world.add_joint(RevoluteJoint(a, b, local_anchor_a=edge_a, local_anchor_b=(-0.5, 0.0)))
    assert math.dist(hinge.anchor_a, hinge.anchor_b) > 0.7  # it starts open
    for _ in range(60):
        world.step()
        momentum = a.mass * a.velocity + b.mass * b.velocity
        assert np.abs(momentum).max() < 1e-9
    assert math.dist(hinge.anchor_a, hinge.anchor_b) < world.linear_slop


@pytest.mark.parametrize("reference", [0.5, -1.2])
def test_a_weld_holds_its_reference_angle(reference):
    world = World(gravity=(0, 0))
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(1, 0))
    world.add_joint(WeldJoint(a, b, anchor=(0.5, 0), reference_angle=reference))
    for _ in range(120):
        world.step()
    assert b.angle - a.angle == pytest.approx(reference, abs=1e-3)


def test_a_revolute_joint_reads_its_angle_from_its_reference():
    """A pendulum pinned to the world with limits [0, 0] about reference 0.3: the joint
    angle reads 0 where body_a has turned 0.3 (with body_b None, the reference is body_a's
    angle at rest)."""
    world = World(gravity=(0, 0))
    arm = world.add_body(Box(2, 0.2), position=(1, 0))
    pin = world.add_joint(RevoluteJoint(arm, None, local_anchor_a=(-1, 0),
                                        local_anchor_b=(0, 0), reference_angle=0.3,
                                        lower=0.0, upper=0.0))  # fmt: skip
    assert pin.angle == pytest.approx(-0.3)
    for _ in range(120):
        world.step()
    assert arm.angle == pytest.approx(0.3, abs=1e-3)
    assert pin.angle == pytest.approx(0.0, abs=1e-3)
    assert np.allclose(pin.anchor_a, (0.0, 0.0), atol=1e-3)


@pytest.mark.parametrize("kind", [DistanceJoint, RopeJoint])
def test_a_span_given_local_anchors_takes_its_length_from_where_they_are(kind):
    world = World(gravity=(0, 0))
    a = world.add_body(Circle(0.2), position=(0, 0))
    b = world.add_body(Box(1, 1, offset=(1, 0)), position=(3, 4), origin="local")
    joint = world.add_joint(kind(a, b, local_anchor_a=(0, 0), local_anchor_b=(0, 0)))
    assert joint.length == pytest.approx(5.0)
    assert np.allclose(joint.anchor_b, (3.0, 4.0), atol=1e-12)


BAD = [
    (lambda a, b: RevoluteJoint(a, b), TypeError,
     "anchor: a world point is needed (or local_anchor_a and local_anchor_b)"),
    (lambda a, b: RevoluteJoint(a, b, (0, 0), local_anchor_a=(0, 0), local_anchor_b=(0, 0)),
     ValueError, "anchor: give the world anchor or local_anchor_a and local_anchor_b, not both"),
    (lambda a, b: WeldJoint(a, b, local_anchor_a=(0, 0)), TypeError,
     "local_anchor_b: needed with local_anchor_a (a point in its body's frame)"),
    (lambda a, b: DistanceJoint(a, b, local_anchor_b=(0, 0)), TypeError,
     "local_anchor_a: needed with local_anchor_b (a point in its body's frame)"),
    (lambda a, b: RevoluteJoint(a, b, (0, 0), reference_angle=math.nan), ValueError,
     "reference_angle: must be finite, got nan"),
    (lambda a, b: PrismaticJoint(a, b, (0, 0)), TypeError,
     "axis: a direction is needed, (2,) in the world"),
    (lambda a, b: RevoluteJoint(a, b, local_anchor_a=(0, 0), local_anchor_b=("x", 0)),
     TypeError, "local_anchor_b"),
]  # fmt: skip


@pytest.mark.parametrize("make, error, message", BAD)
def test_bad_frames_are_refused_naming_the_argument(make, error, message):
    world = World()
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(2, 0))
    with pytest.raises(error) as raised:
        make(a, b)
    assert str(raised.value).startswith(message)
    assert len(world.joints) == 0
