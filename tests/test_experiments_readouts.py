"""World read-outs (kinetic and potential energy, momentum, angular momentum) and the
mass and inertia views they read.

The read-outs are whole-array numpy sums; the oracle here is the plain per-body sum over
the Body handles, so a mismatch of one term or one body shows. Sums of a few dozen floats
agree to 1e-12 relative (rounding); a wrong factor (a missing 1/2, a mass in place of an
inertia) is off by far more. Static and kinematic bodies (infinite mass) are left out of
every read-out.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World


def by_hand(world: World, about=(0.0, 0.0)):
    """(kinetic, potential, momentum (2,), angular momentum) summed body by body."""
    kinetic = potential = angular = 0.0
    momentum = np.zeros(2)
    for body in world.bodies:
        if body.kind != "dynamic":
            continue
        m, inertia = body.mass, body.inertia
        v, w, r = body.velocity, body.angular_velocity, body.position
        kinetic += 0.5 * m * (v[0] ** 2 + v[1] ** 2) + 0.5 * inertia * w**2
        potential -= m * (world.gravity[0] * r[0] + world.gravity[1] * r[1])
        momentum += m * v
        arm = r - np.asarray(about)
        angular += m * (arm[0] * v[1] - arm[1] * v[0]) + inertia * w
    return kinetic, potential, momentum, angular


def test_a_single_box_by_the_textbook():
    world = World(gravity=(0.0, -10.0))
    box = world.add_body(Box(2, 1), position=(3, 4), velocity=(1, -2), angular_velocity=0.5)
    mass, inertia = 2.0, 2.0 * (4 + 1) / 12  # m (w^2 + h^2) / 12
    assert world.masses.tolist() == [mass] and world.inertias[0] == pytest.approx(inertia)
    assert world.kinetic_energy() == pytest.approx(0.5 * mass * 5 + 0.5 * inertia * 0.25)
    assert world.potential_energy() == pytest.approx(mass * 10 * 4)
    assert world.momentum().tolist() == [2.0, -4.0]
    # r x m v = 3 * -4 - 4 * 2 = -20, plus I w
    assert world.angular_momentum() == pytest.approx(-20 + inertia * 0.5)
    # about (3, 4) only the spin is left
    assert world.angular_momentum(about=(3, 4)) == pytest.approx(inertia * 0.5)
    assert box.mass == mass


def test_static_and_kinematic_bodies_are_left_out():
    world = World()
    world.add_body(Circle(0.5), position=(1, 2), velocity=(3, 0), angular_velocity=2)
    before = by_hand(world)
    readouts = (world.kinetic_energy(), world.potential_energy(), world.momentum())
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    world.add_body(
        Box(2, 0.2), position=(5, 5), kind="kinematic", velocity=(4, 1), angular_velocity=3
    )
    assert np.isinf(world.masses[1:]).all() and np.isinf(world.inertias[1:]).all()
    assert world.kinetic_energy() == readouts[0] == pytest.approx(before[0])
    assert world.potential_energy() == readouts[1]
    assert np.array_equal(world.momentum(), readouts[2])
    assert math.isfinite(world.angular_momentum(about=(7, -2)))


def test_an_empty_world_reads_zero():
    world = World()
    assert world.kinetic_energy() == 0.0 and world.potential_energy() == 0.0
    assert world.momentum().tolist() == [0.0, 0.0] and world.angular_momentum() == 0.0


def test_potential_energy_follows_the_gravity_vector():
    world = World(gravity=(3.0, -4.0))
    body = world.add_body(Circle(1.0), position=(2, 5))
    # -m g.r = -m (3 * 2 - 4 * 5) = 14 m
    assert world.potential_energy() == pytest.approx(14 * body.mass)


def test_mass_and_inertia_views_are_read_only_and_follow_removal():
    world = World()
    a = world.add_body(Box(1, 1), density=2)
    b = world.add_body(Circle(1), density=3)
    with pytest.raises(ValueError):
        world.masses[0] = 5.0
    with pytest.raises(ValueError):
        world.inertias[0] = 5.0
    assert world.masses.tolist() == [a.mass, b.mass]
    world.remove(a)
    assert world.masses.tolist() == [b.mass] and world.inertias.tolist() == [b.inertia]


def test_bad_about_names_the_argument():
    world = World()
    with pytest.raises(ValueError, match="^about"):
        world.angular_momentum(about=(0, float("nan")))
    with pytest.raises(ValueError, match="^about"):
        world.angular_momentum(about=(1, 2, 3))
    with pytest.raises(TypeError, match="^about"):
        world.angular_momentum(about="origin")


bodies = st.lists(
    st.tuples(
        st.sampled_from(["dynamic", "dynamic", "static", "kinematic"]),
        st.floats(0.2, 2.0),  # size
        st.floats(0.5, 5.0),  # density
        st.tuples(st.floats(-50, 50), st.floats(-50, 50)),  # position
        st.tuples(st.floats(-20, 20), st.floats(-20, 20)),  # velocity
        st.floats(-10, 10),  # angular velocity
        st.booleans(),  # circle or box
    ),
    max_size=12,
)


@settings(max_examples=40)
@given(
    bodies,
    st.tuples(st.floats(-20, 20), st.floats(-20, 20)),
    st.tuples(st.floats(-5, 5), st.floats(-15, 5)),
)
def test_readouts_equal_the_sum_over_bodies(specs, about, gravity):
    world = World(gravity=gravity)
    for kind, size, density, position, velocity, spin, round_shape in specs:
        shape = Circle(size / 2) if round_shape else Box(size, size / 2)
        world.add_body(
            shape,
            position=position,
            velocity=velocity,
            angular_velocity=spin,
            density=density,
            kind=kind,
        )
    kinetic, potential, momentum, angular = by_hand(world, about)
    scale = 1.0 + abs(kinetic) + abs(potential)
    assert world.kinetic_energy() == pytest.approx(kinetic, rel=1e-12, abs=1e-12 * scale)
    assert world.potential_energy() == pytest.approx(potential, rel=1e-12, abs=1e-12 * scale)
    p_scale = 1.0 + np.abs(momentum).sum()
    assert np.allclose(world.momentum(), momentum, rtol=1e-12, atol=1e-12 * p_scale)
    l_scale = 1.0 + abs(angular) + 100 * p_scale
    assert world.angular_momentum(about) == pytest.approx(angular, abs=1e-12 * l_scale)
