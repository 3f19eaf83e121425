"""Body kind, mass and inertia: from its shapes, after a change of kind or a set value.

Mass and inertia from shapes are closed forms (a handful of float operations each), so
they must match the hand formulas to 1e-12 relative; a formula error (a missing
parallel-axis term, a wrong factor of 12) is at least 1e-2. The read-only state a body
returns is checked here too.

Made dynamic, a body takes mass = density x area and inertia = density x (second moment of
area) from its shapes, the way ``add_body`` does; it then falls the discrete free fall of
semi-implicit Euler, y_n = y_0 - g dt^2 n (n + 1) / 2. A torque tau on an inertia I turns it
by dw = tau dt / I per step.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from builders import G
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, ConcavePolygon, World


def free_fall_drop(dt: float, steps: int) -> float:
    """How far a body nothing holds falls from rest in ``steps``: its exact parabola."""
    return G * (dt * steps) ** 2 / 2


def test_reading_state_gives_read_only_arrays():
    world = World()
    body = world.add_body(Box(1, 1), position=(1.0, 2.0), velocity=(3.0, 4.0))
    for name in ("position", "velocity"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(body, name)[0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        world.gravity[1] = 0.0
    assert body.position.tolist() == [1.0, 2.0] and body.velocity.tolist() == [3.0, 4.0]
    # The copies are the caller's to keep: stepping does not change them.
    held = body.position
    world.step()
    assert held.tolist() == [1.0, 2.0] and body.position[1] != 2.0


def test_step_refuses_a_dt_and_says_where_it_is_set():
    world = World(dt=1 / 120)
    with pytest.raises(TypeError, match=r"takes no dt.*fixed dt = 0\.00833.*World\(dt=") as error:
        world.step(1 / 60)
    assert "advance(seconds)" in str(error.value)
    assert world.time == 0.0


def test_a_static_body_made_dynamic_takes_its_shapes_mass_and_falls_freely():
    world = World(sleep=False)
    shelf = world.add_body(Box(2.0, 0.5), position=(0.0, 10.0), kind="static", density=3.0)
    assert shelf.mass == math.inf and shelf.density == 3.0
    shelf.kind = "dynamic"
    assert shelf.kind == "dynamic"
    assert shelf.mass == pytest.approx(3.0 * 1.0, rel=1e-15)
    assert shelf.inertia == pytest.approx(3.0 * (2.0 * 0.5) * (4.0 + 0.25) / 12, rel=1e-14)
    for _ in range(30):
        world.step()
    assert shelf.position[1] == pytest.approx(10.0 - free_fall_drop(world.dt, 30), rel=1e-12)


def test_a_dynamic_body_made_static_stops_and_holds_what_rests_on_it():
    world = World()
    world.add_body(Box(20, 1), kind="static")
    plank = world.add_body(Box(4.0, 0.2), position=(0.0, 3.0), angular_velocity=1.0)
    for _ in range(5):
        world.step()
    plank.kind = "static"
    assert plank.velocity.tolist() == [0.0, 0.0] and plank.angular_velocity == 0.0
    assert plank.mass == math.inf and plank.inertia == math.inf
    where, angle = plank.position, plank.angle
    crate = world.add_body(Box(0.5, 0.5), position=(0.0, 4.0))
    for _ in range(120):
        world.step()
    assert plank.position.tolist() == where.tolist() and plank.angle == angle
    assert abs(crate.velocity[1]) < 1e-3 and crate.position[1] > where[1]


def test_kinematic_keeps_its_velocity_and_ignores_gravity():
    world = World()
    lift = world.add_body(Box(2, 0.2), velocity=(0.0, 1.0))
    lift.kind = "kinematic"
    for _ in range(60):
        world.step()
    assert lift.velocity.tolist() == [0.0, 1.0]
    assert lift.position[1] == pytest.approx(60 * world.dt, rel=1e-12)


def test_making_the_floor_dynamic_wakes_what_sleeps_on_it():
    world = World()
    floor = world.add_body(Box(4, 0.5), kind="static")
    crate = world.add_body(Box(0.5, 0.5), position=(0.0, 0.5))
    for _ in range(240):
        world.step()
    assert not crate.awake
    floor.kind = "dynamic"
    assert crate.awake and floor.awake
    start = crate.position[1]
    for _ in range(30):
        world.step()
    # Both fall together (the crate rests on the floor it falls with).
    assert crate.position[1] < start - 0.5 * free_fall_drop(world.dt, 30)


def test_a_set_mass_survives_a_trip_through_static():
    world = World()
    body = world.add_body(Circle(0.5), density=2.0)
    body.mass = 5.0
    assert body.density == pytest.approx(5.0 / (math.pi * 0.25), rel=1e-14)
    body.kind = "static"
    body.kind = "dynamic"
    assert body.mass == pytest.approx(5.0, rel=1e-14)


def test_bad_kinds_are_refused_and_change_nothing():
    world = World()
    body = world.add_body(Box(1, 1))
    before = world.snapshot()
    with pytest.raises(ValueError, match=r"kind: must be one of \['dynamic', 'kinematic'"):
        body.kind = "floating"
    huge = world.add_body(Box(1e10, 1e10), kind="static", density=1e300)
    with pytest.raises(ValueError, match="kind: a dynamic body of these shapes and density"):
        huge.kind = "dynamic"
    assert huge.kind == "static" and body.kind == "dynamic"
    world.remove(huge)
    assert np.array_equal(world.snapshot()._arrays["body.mass"], before._arrays["body.mass"])


@settings(max_examples=60, deadline=None)
@given(
    inertia=st.floats(1e-3, 1e3),
    torque=st.floats(-50.0, 50.0),
    steps=st.integers(1, 30),
)
def test_a_set_inertia_sets_the_angular_acceleration(inertia, torque, steps):
    world = World(gravity=(0.0, 0.0), sleep=False)
    wheel = world.add_body(Circle(0.5))
    wheel.inertia = inertia
    assert wheel.inertia == inertia
    spin = 0.0
    for _ in range(steps):
        wheel.apply_torque(torque)
        world.step()
        spin += torque * world.dt / inertia
    assert wheel.angular_velocity == pytest.approx(spin, rel=1e-12, abs=1e-300)


def test_inertia_setting_rules():
    world = World()
    wall = world.add_body(Box(1, 1), kind="static")
    with pytest.raises(ValueError, match="inertia: only a dynamic body"):
        wall.inertia = 2.0
    ball = world.add_body(Circle(0.5))
    for bad in (0.0, -1.0, 1e-320):
        with pytest.raises(ValueError, match="inertia: must be > 0"):
            ball.inertia = bad
    with pytest.raises(ValueError, match="inertia"):
        ball.inertia = math.inf
    ball.fixed_rotation = True
    ball.inertia = 3.0
    assert ball.inertia == 3.0 and world._bodies.view("inv_inertia")[1] == 0.0
    ball.fixed_rotation = False
    assert world._bodies.view("inv_inertia")[1] == 1 / 3.0
    ball.mass = 2 * ball.mass  # scales the inertia set by hand, as it scales the shapes'
    assert ball.inertia == pytest.approx(6.0, rel=1e-15)


def test_kind_inertia_and_density_are_saved_and_continue_bitwise():
    world = World()
    world.add_body(Box(10, 1), kind="static")
    pieces = [world.add_body(Box(0.5, 0.5), position=(x, 2.0)) for x in (-1.0, 0.0, 1.0)]
    pieces[0].kind = "kinematic"
    pieces[1].inertia = 0.7
    pieces[2].kind = "static"
    pieces[2].kind = "dynamic"
    buffer = io.BytesIO()
    world.save(buffer)
    loaded = World.load(io.BytesIO(buffer.getvalue()))
    assert [b.kind for b in loaded.bodies] == ["static", "kinematic", "dynamic", "dynamic"]
    assert loaded.bodies[2].inertia == 0.7
    for _ in range(60):
        world.step()
        loaded.step()
    assert np.array_equal(world.positions, loaded.positions)
    assert np.array_equal(world.angles, loaded.angles)


# --------------------------------------------------------------------------- mass and inertia


def test_box_mass_and_inertia():
    world = World()
    w, h, rho = 2.0, 0.5, 3.0
    body = world.add_body(Box(w, h), position=(1, 1), density=rho)
    m = rho * w * h
    assert body.mass == pytest.approx(m, rel=1e-12)
    assert body.inertia == pytest.approx(m * (w * w + h * h) / 12.0, rel=1e-12)


def test_circle_mass_and_inertia():
    world = World()
    body = world.add_body(Circle(0.5), position=(1, 1), density=4.0)
    m = 4.0 * math.pi * 0.25
    assert body.mass == pytest.approx(m, rel=1e-12)
    assert body.inertia == pytest.approx(0.5 * m * 0.25, rel=1e-12)


def test_compound_two_boxes_side_by_side_uses_parallel_axis():
    world = World()
    rho = 2.5
    body = world.add_body(
        [Box(1, 1, offset=(-0.5, 0)), Box(1, 1, offset=(0.5, 0))], position=(0, 5), density=rho
    )
    part_m = rho * 1.0
    # Each part: own m (1 + 1) / 12 plus m d^2 with d = 0.5 from the common centre of mass.
    expected = 2 * (part_m * 2.0 / 12.0 + part_m * 0.25)
    assert body.mass == pytest.approx(2 * part_m, rel=1e-12)
    assert body.inertia == pytest.approx(expected, rel=1e-12)
    # The same as one 2 x 1 box
    assert expected == pytest.approx(2 * part_m * (4 + 1) / 12.0, rel=1e-15)


def test_compound_l_shape_matches_hand_value_and_concave_polygon():
    world = World()
    rho = 2.0
    # L: a 2x1 box at (0, 0) and a 1x1 box at (0.5, 1). Centre of mass (1/6, 1/3);
    # I = rho * (10/12 + 2 * 5/36 + 2/12 + 5/9) = rho * 11/6 (see the parallel-axis sums).
    compound = world.add_body(
        [Box(2, 1), Box(1, 1, offset=(0.5, 1.0))], position=(0, 5), density=rho
    )
    assert compound.mass == pytest.approx(3 * rho, rel=1e-12)
    assert compound.inertia == pytest.approx(rho * 11.0 / 6.0, rel=1e-12)
    outline = [(-1, -0.5), (1, -0.5), (1, 1.5), (0, 1.5), (0, 0.5), (-1, 0.5)]
    concave = world.add_body(ConcavePolygon(outline), position=(10, 5), density=rho)
    assert concave.mass == pytest.approx(3 * rho, rel=1e-12)
    assert concave.inertia == pytest.approx(rho * 11.0 / 6.0, rel=1e-12)


def test_static_and_kinematic_mass_are_infinite():
    world = World()
    ground = world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    mover = world.add_body(Box(1, 1), position=(0, 5), kind="kinematic", velocity=(1, 0))
    for body in (ground, mover):
        assert body.mass == math.inf
        assert body.inertia == math.inf
    assert mover.kind == "kinematic" and ground.kind == "static"
