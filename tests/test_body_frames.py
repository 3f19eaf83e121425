"""Body frames and helpers: local_to_world, world_to_local, velocity_at, apply_torque, and
forces and impulses at a point in the body's frame.

Checked against rigid-body kinematics written here: a point fixed in the body moves with
it (its world position after a step is where the body carried it), the velocity of the
material at a point is v + w x r, and a torque T held for one step changes the spin by
T dt / I.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World

coordinate = st.floats(-50.0, 50.0)
angle = st.floats(-10.0, 10.0)
speed = st.floats(-20.0, 20.0)


def free_body(position, body_angle, velocity=(0.0, 0.0), spin=0.0):
    world = World(gravity=(0.0, 0.0), sleep=False)
    body = world.add_body(
        [Box(2.0, 1.0), Circle(0.4, offset=(1.5, 0.3))],
        position=position, angle=body_angle, velocity=velocity, angular_velocity=spin,
    )  # fmt: skip
    return world, body


def rotate(points, theta):
    c, s = math.cos(theta), math.sin(theta)
    points = np.atleast_2d(points)
    return np.stack([c * points[:, 0] - s * points[:, 1], s * points[:, 0] + c * points[:, 1]], 1)


@settings(max_examples=100, deadline=None)
@given(x=coordinate, y=coordinate, theta=angle, px=coordinate, py=coordinate)
def test_local_and_world_are_each_others_inverse_and_a_rotation_plus_shift(x, y, theta, px, py):
    _, body = free_body((x, y), theta)
    local = np.array([px, py])
    world = body.local_to_world(local)
    assert world.shape == (2,)
    expected = rotate(local, theta)[0] + (x, y)
    assert np.allclose(
        world, expected, rtol=0, atol=1e-12 * (1 + abs(px) + abs(py) + abs(x) + abs(y))
    )
    back = body.world_to_local(world)
    assert np.allclose(back, local, rtol=0, atol=1e-12 * (1 + abs(px) + abs(py) + abs(x) + abs(y)))
    # Distances are kept: it is a rigid motion.
    many = np.array([[px, py], [0.0, 0.0], [1.0, -2.0]])
    moved = body.local_to_world(many)
    assert moved.shape == (3, 2)
    assert np.allclose(np.hypot(*(moved[0] - moved[2])), np.hypot(*(many[0] - many[2])))


def test_the_body_frame_is_the_centre_of_mass_frame_of_the_shapes():
    """add_body centres the shapes on their common centroid: a shape's own point p is at
    p - centroid in the body's frame."""
    world = World(gravity=(0.0, 0.0))
    body = world.add_body([Box(2, 2), Box(2, 2, offset=(2, 0))], position=(5, 5), angle=0.3)
    # The centroid of the two boxes is (1, 0): the first box's centre is at (-1, 0).
    centre_of_first = body.local_to_world((-1.0, 0.0))
    hit = world.query_point(centre_of_first)
    assert hit == [body]
    assert np.allclose(body.local_to_world((0.0, 0.0)), body.position)


@settings(max_examples=60, deadline=None)
@given(vx=speed, vy=speed, spin=st.floats(-5.0, 5.0), px=st.floats(-3, 3), py=st.floats(-3, 3))
def test_velocity_at_is_how_fast_a_point_fixed_in_the_body_moves(vx, vy, spin, px, py):
    world, body = free_body((0.0, 0.0), 0.4, (vx, vy), spin)
    local = np.array([px, py])
    before = body.local_to_world(local)
    v = body.velocity_at(before)
    assert np.allclose(v, (vx - spin * (before[1]), vy + spin * before[0]), atol=1e-12)
    # Over a short step the point moves by v dt, up to the curvature of its path.
    world.step()
    after = body.local_to_world(local)
    r = math.hypot(px, py)
    assert np.allclose((after - before) / world.dt, v, atol=spin * spin * r * world.dt + 1e-9)
    # Many points at once: the same as one at a time.
    points = np.array([before, (1.0, 2.0)])
    assert np.allclose(body.velocity_at(points)[1], body.velocity_at((1.0, 2.0)))


def test_a_torque_changes_the_spin_by_torque_dt_over_inertia_and_is_cleared():
    world, body = free_body((0.0, 0.0), 0.0)
    body.apply_torque(3.0)
    body.apply_torque(-1.0)
    world.step()
    assert body.angular_velocity == pytest.approx(2.0 * world.dt / body.inertia, rel=1e-12)
    assert np.allclose(body.velocity, 0.0)
    spin = body.angular_velocity
    world.step()
    assert body.angular_velocity == spin


@settings(max_examples=60, deadline=None)
@given(theta=angle, jx=speed, jy=speed, px=st.floats(-3, 3), py=st.floats(-3, 3))
def test_a_local_point_acts_as_its_world_point(theta, jx, jy, px, py):
    results = []
    for use_local in (True, False):
        world, body = free_body((1.0, -2.0), theta)
        if use_local:
            body.apply_impulse((jx, jy), local_point=(px, py))
            body.apply_force((jy, jx), local_point=(px, py))
        else:
            point = body.local_to_world((px, py))
            body.apply_impulse((jx, jy), point)
            body.apply_force((jy, jx), point)
        world.step()
        results.append((body.velocity, body.angular_velocity))
    assert np.allclose(results[0][0], results[1][0], atol=1e-12)
    assert results[0][1] == pytest.approx(results[1][1], abs=1e-12)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda b: b.local_to_world("here"), TypeError, "points"),
        (lambda b: b.local_to_world([1.0, 2.0, 3.0]), ValueError, "points"),
        (lambda b: b.world_to_local([[1.0, math.nan]]), ValueError, "points"),
        (lambda b: b.velocity_at(None), TypeError, "points"),
        (lambda b: b.apply_torque("spin"), TypeError, "torque"),
        (lambda b: b.apply_torque(math.inf), ValueError, "torque"),
        (lambda b: b.apply_torque(1e300), ValueError, "torque"),
        (lambda b: b.apply_impulse((1, 0), (0, 0), local_point=(0, 0)), ValueError, "local_point"),
        (lambda b: b.apply_force((1, 0), local_point=(math.nan, 0)), ValueError, "local_point"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_by_name_and_change_nothing(call, error, match):
    world, body = free_body((0.0, 0.0), 0.0, (1.0, 0.0), 0.5)
    before = world.snapshot()
    with pytest.raises(error, match=match):
        call(body)
    after = world.snapshot()
    assert all(np.array_equal(before._arrays[k], after._arrays[k]) for k in before._arrays)
    world.step()
    assert body.angular_velocity == 0.5
