"""A body's own damping and gravity scale, against their closed forms.

Damping divides the velocities after the forces by 1 + h c each sub-step h = dt / n (drag
taken implicitly), so with no other force v_k = v_0 / (1 + h c)^(n k) after k steps, which
tends to v_0 exp(-c t) as h shrinks. A gravity scale s makes a free fall the world's with
gravity s g: a body nothing holds flies its exact parabola, y = y_0 - s g t^2 / 2.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World


@settings(max_examples=50, deadline=None)
@given(linear=st.floats(0.0, 20.0), angular=st.floats(0.0, 20.0), steps=st.integers(1, 120))
def test_damping_decays_speed_and_spin_geometrically(linear, angular, steps):
    world = World(gravity=(0.0, 0.0), sleep=False)
    body = world.add_body(
        Box(1, 1), velocity=(3.0, -4.0), angular_velocity=2.0,
        linear_damping=linear, angular_damping=angular,
    )  # fmt: skip
    for _ in range(steps):
        world.step()
    h, divisions = world.dt / world.substeps, world.substeps * steps
    assert np.allclose(body.velocity, np.array([3.0, -4.0]) / (1 + h * linear) ** divisions,
                       rtol=1e-12, atol=1e-300)  # fmt: skip
    assert body.angular_velocity == pytest.approx(2.0 / (1 + h * angular) ** divisions, rel=1e-12)


def test_damping_approaches_exponential_decay_as_dt_shrinks():
    for dt, tolerance in ((1 / 60, 0.05), (1 / 600, 0.005)):
        world = World(gravity=(0.0, 0.0), dt=dt, sleep=False)
        body = world.add_body(Circle(0.5), velocity=(1.0, 0.0), linear_damping=2.0)
        for _ in range(round(1.0 / dt)):
            world.step()
        assert body.velocity[0] == pytest.approx(math.exp(-2.0), rel=tolerance)


@pytest.mark.parametrize("scale", [0.0, 0.5, 1.0, 2.0, -1.0])
def test_gravity_scale_scales_the_free_fall(scale):
    world = World(sleep=False)
    body = world.add_body(Circle(0.5), position=(0.0, 100.0), gravity_scale=scale)
    other = world.add_body(Circle(0.5), position=(10.0, 100.0))
    steps = 30
    for _ in range(steps):
        world.step()
    t, g = steps * world.dt, 9.81
    assert body.position[1] == pytest.approx(100.0 - scale * g * t * t / 2, rel=1e-12)
    assert other.position[1] == pytest.approx(100.0 - g * t * t / 2, rel=1e-12)
    assert body.gravity_scale == scale


def test_settings_are_read_written_and_saved(tmp_path):
    world = World()
    body = world.add_body(Box(1, 1), position=(0, 5))
    assert (body.linear_damping, body.angular_damping, body.gravity_scale) == (0.0, 0.0, 1.0)
    body.linear_damping = 0.3
    body.angular_damping = 1.5
    body.gravity_scale = 0.25
    assert (body.linear_damping, body.angular_damping, body.gravity_scale) == (0.3, 1.5, 0.25)
    world.save(tmp_path / "w.npz")
    loaded = World.load(tmp_path / "w.npz")
    twin = loaded.bodies[0]
    assert (twin.linear_damping, twin.angular_damping, twin.gravity_scale) == (0.3, 1.5, 0.25)
    for _ in range(30):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)


@pytest.mark.parametrize(
    "name, value, error",
    [("linear_damping", -0.1, ValueError), ("angular_damping", math.inf, ValueError),
     ("linear_damping", "slow", TypeError), ("gravity_scale", math.nan, ValueError),
     ("gravity_scale", 1e4, ValueError), ("gravity_scale", True, TypeError)],
)  # fmt: skip
def test_bad_values_are_refused_by_name_and_change_nothing(name, value, error):
    world = World()
    body = world.add_body(Box(1, 1), linear_damping=0.2, gravity_scale=0.5)
    with pytest.raises(error, match=name):
        setattr(body, name, value)
    assert (body.linear_damping, body.angular_damping, body.gravity_scale) == (0.2, 0.0, 0.5)
    with pytest.raises(error, match=name):
        world.add_body(Box(1, 1), **{name: value})
    assert len(world.bodies) == 1


def test_kinematic_bodies_are_not_damped():
    world = World()
    platform = world.add_body(Box(2, 0.2), kind="kinematic", velocity=(1.0, 0.0),
                              linear_damping=5.0, gravity_scale=3.0)  # fmt: skip
    for _ in range(10):
        world.step()
    assert platform.velocity.tolist() == [1.0, 0.0]


def test_a_fixed_rotation_body_is_not_turned_by_an_off_centre_hit_or_torque():
    """A box struck off its centre: with fixed rotation it only translates, and takes the
    whole impulse as momentum, J / m; without, it also spins by J x r / I."""
    results = {}
    for fixed in (False, True):
        world = World(gravity=(0.0, 0.0), sleep=False)
        box = world.add_body(Box(2, 1), fixed_rotation=fixed)
        box.apply_impulse((0.0, 3.0), point=(1.0, 0.0))
        box.apply_torque(5.0)
        world.step()
        results[fixed] = (box.velocity.copy(), box.angular_velocity, box.angle)
        assert box.fixed_rotation is fixed
    assert np.allclose(results[True][0], (0.0, 3.0 / 2.0))
    assert results[True][1] == 0.0 and results[True][2] == 0.0
    assert results[False][1] > 0.0


def test_fixing_rotation_stops_the_spin_and_survives_save_and_load(tmp_path):
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    box = world.add_body(Box(1, 1), position=(0, 3), angular_velocity=4.0)
    box.fixed_rotation = True
    assert box.angular_velocity == 0.0
    world.save(tmp_path / "w.npz")
    loaded = World.load(tmp_path / "w.npz")
    assert loaded.bodies[1].fixed_rotation
    for _ in range(60):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)
    assert box.angle == 0.0
    box.fixed_rotation = False
    box.position = (0.0, 10.0)  # in the air: nothing but the torque turns it
    box.apply_torque(1.0)
    world.step()
    assert box.angular_velocity == pytest.approx(world.dt / box.inertia, rel=1e-9)
    with pytest.raises(TypeError, match="fixed_rotation"):
        box.fixed_rotation = 1


def test_setting_the_mass_scales_the_inertia_and_is_refused_where_it_cannot_be():
    world = World(gravity=(0.0, 0.0))
    box = world.add_body(Box(2, 1), density=1.0)
    inertia = box.inertia
    box.mass = 8.0
    assert box.mass == 8.0 and box.inertia == pytest.approx(4.0 * inertia, rel=1e-15)
    box.apply_impulse((4.0, 0.0))
    assert box.velocity[0] == pytest.approx(0.5)
    ground = world.add_body(Box(10, 1), position=(0, -5), kind="static")
    for target, value, error in ((box, 0.0, ValueError), (box, -1.0, ValueError),
                                 (box, "heavy", TypeError), (ground, 3.0, ValueError)):  # fmt: skip
        with pytest.raises(error, match="mass"):
            target.mass = value
    assert box.mass == 8.0 and ground.mass == np.inf
    # The saved world checks inertia over mass against the shapes: a set mass passes.
    twin = World.load(io_round_trip(world))
    assert twin.bodies[0].mass == 8.0


def io_round_trip(world):
    import io

    buffer = io.BytesIO()
    world.save(buffer)
    buffer.seek(0)
    return buffer
