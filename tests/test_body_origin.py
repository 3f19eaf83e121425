"""Bodies added with origin="local": the shapes stay where they were given.

The oracle is the geometry of the shapes themselves: the centre of mass sits at the
area-weighted centroid of the shapes in their own frame, turned by the body's angle and
carried to ``position``; a point given in the shapes' frame lands where that frame puts it.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World


def turned(vector, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def hammer():
    """A handle along +x from the origin with a heavy head at x = 2: centroid by hand."""
    handle, head = Box(2.0, 0.2, offset=(1.0, 0.0)), Box(0.6, 0.6, offset=(2.0, 0.0))
    centroid = (0.4 * np.array([1.0, 0.0]) + 0.36 * np.array([2.0, 0.0])) / 0.76
    return [handle, head], centroid


@settings(max_examples=50, deadline=None)
@given(
    x=st.floats(-50, 50), y=st.floats(-50, 50), angle=st.floats(-7, 7),
    local=st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
)  # fmt: skip
def test_the_shapes_frame_is_the_bodys_frame(x, y, angle, local):
    world = World()
    shapes, centroid = hammer()
    body = world.add_body(shapes, position=(x, y), angle=angle, origin="local")
    assert np.allclose(body.position, (x, y), rtol=0, atol=1e-12)
    assert np.allclose(body.center_of_mass, np.array([x, y]) + turned(centroid, angle),
                       rtol=0, atol=1e-12)  # fmt: skip
    expected = np.array([x, y]) + turned(local, angle)
    assert np.allclose(body.local_to_world(local), expected, rtol=0, atol=1e-12)
    assert np.allclose(body.world_to_local(expected), local, rtol=0, atol=1e-10)
    # The same shapes centred: the centre of mass is where both put it.
    centred = world.add_body(shapes, position=body.center_of_mass, angle=angle)
    assert np.array_equal(centred.position, centred.center_of_mass)
    assert np.allclose(centred.position, body.center_of_mass, rtol=0, atol=0)


def test_setting_angle_turns_about_the_origin_and_position_moves_the_origin():
    world = World(gravity=(0, 0))
    shapes, centroid = hammer()
    body = world.add_body(shapes, position=(1.0, 2.0), origin="local")
    body.angle = math.pi / 2
    assert np.allclose(body.position, (1.0, 2.0), atol=1e-15)
    assert np.allclose(body.center_of_mass, (1.0, 2.0 + centroid[0]), atol=1e-15)
    body.position = (5.0, 5.0)
    assert np.allclose(body.center_of_mass, (5.0, 5.0 + centroid[0]), atol=1e-15)


def test_a_spinning_body_turns_about_its_centre_of_mass_not_its_origin():
    world = World(gravity=(0, 0), sleep=False)
    shapes, centroid = hammer()
    body = world.add_body(shapes, position=(0.0, 0.0), origin="local", angular_velocity=2.0,
                          velocity=(1.0, 0.0))  # fmt: skip
    start = body.center_of_mass
    for _ in range(90):
        world.step()
    t = world.time
    assert np.allclose(body.center_of_mass, start + (t, 0.0), atol=1e-9)  # velocity: the COM's
    angle = body.angle
    assert angle == pytest.approx(2.0 * t, rel=1e-12)
    assert np.allclose(body.position, body.center_of_mass - turned(centroid, angle), atol=1e-9)


def test_origin_is_checked_and_saved():
    world = World()
    with pytest.raises(ValueError, match="origin: must be 'centroid' or 'local', got 'middle'"):
        world.add_body(Circle(1), origin="middle")
    assert world.bodies == []
    shapes, _ = hammer()
    body = world.add_body(shapes, position=(3, 4), angle=0.3, origin="local")
    plain = world.add_body(Circle(0.5, offset=(1, 1)), position=(0, 9))
    buffer = io.BytesIO()
    world.save(buffer)
    loaded = World.load(io.BytesIO(buffer.getvalue()))
    assert np.array_equal(loaded.bodies[0].position, body.position)
    assert np.array_equal(loaded.bodies[0].center_of_mass, body.center_of_mass)
    assert np.array_equal(loaded.bodies[1].position, plain.position)
    for _ in range(30):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)
    assert np.array_equal(loaded.bodies[0].position, body.position)
