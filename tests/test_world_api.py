"""World API: bodies and handles, views, property writes, forces, bad input and advance.

Tolerances: time and leftover fractions are sums of a few dozen floats: 1e-9 is ample for
rounding and far below one step (1/60 s). A world that refused a call must be unchanged,
which is asserted bitwise: it then steps exactly like a twin that never saw the call.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from builders import DT, hexagon, run
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, World

NAN, INF = float("nan"), float("inf")


# --------------------------------------------------------------------------- helpers


def small_scene(broadphase: str = "grid") -> World:
    """A ground, a few dynamic bodies of different shapes, and a kinematic one."""
    world = World(gravity=(0.0, -9.81), dt=DT, broadphase=broadphase)
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(1, 1), position=(-2, 0.5), angle=0.0)
    world.add_body(Box(1, 0.5), position=(-1.8, 1.4), angle=0.3, density=2.0, friction=0.3)
    world.add_body(Circle(0.4), position=(0.5, 2.0), velocity=(-1.0, 0.0), restitution=0.5)
    world.add_body(hexagon(0.5), position=(2.0, 1.0), angular_velocity=1.0, density=0.7)
    world.add_body(
        Box(2, 0.2), position=(5, 0.3), velocity=(-0.5, 0.0), kind="kinematic", angle=0.0
    )
    return world


def snapshot(world: World) -> dict:
    """Everything observable about the world's state, copied."""
    return {
        "positions": np.array(world.positions, copy=True),
        "velocities": np.array(world.velocities, copy=True),
        "angles": np.array(world.angles, copy=True),
        "bodies": list(world.bodies),
        "time": world.time,
        "angular": np.array([b.angular_velocity for b in world.bodies]),
        "masses": np.array([b.mass for b in world.bodies]),
    }


def assert_same_state(before: dict, after: dict, same_world: bool = True) -> None:
    """Bitwise equal arrays, the same time, the same body count, and (for two snapshots of
    one world) the very same body handles in the same order."""
    for key in ("positions", "velocities", "angles", "angular", "masses"):
        assert before[key].shape == after[key].shape, key
        assert np.array_equal(before[key], after[key]), key
    assert len(before["bodies"]) == len(after["bodies"])
    if same_world:
        assert all(a is b for a, b in zip(before["bodies"], after["bodies"]))
    assert before["time"] == after["time"]


def names(pattern: str):
    """A regex matching the argument's name as a word in the error message."""
    return re.compile(rf"\b({pattern})\b")


def assert_names(error: pytest.ExceptionInfo, pattern: str) -> None:
    message = str(error.value)
    assert names(pattern).search(message), f"message {message!r} does not name {pattern!r}"


# --------------------------------------------------------------------------- bodies and handles


def test_bodies_in_order_added_and_positions_match():
    world = World()
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Circle(0.5), position=(3, 1))
    c = world.add_body(Box(2, 1), position=(-4, 2), kind="static")
    assert [x is y for x, y in zip(world.bodies, (a, b, c))] == [True] * 3
    assert len(world.bodies) == 3
    assert world.positions.shape == (3, 2)
    assert world.velocities.shape == (3, 2)
    assert world.angles.shape == (3,)
    assert np.array_equal(world.positions, [[0, 0], [3, 1], [-4, 2]])
    assert a.kind == "dynamic" and c.kind == "static"


def test_remove_keeps_other_handles_valid():
    world = World(gravity=(0.0, 0.0))
    a = world.add_body(Box(1, 1), position=(0, 0), velocity=(1, 0))
    b = world.add_body(Circle(0.5), position=(10, 0), velocity=(0, 2))
    c = world.add_body(Box(2, 1), position=(20, 0), velocity=(0, -3), angular_velocity=0.5)
    d = world.add_body(Box(1, 2), position=(30, 0), angle=0.25)
    world.remove(b)
    assert len(world.bodies) == 3
    assert [x is y for x, y in zip(world.bodies, (a, c, d))] == [True] * 3
    # Each surviving handle still reads its own body (not a neighbour shifted into its slot).
    assert np.array_equal(a.position, [0, 0]) and np.array_equal(a.velocity, [1, 0])
    assert np.array_equal(c.position, [20, 0]) and np.array_equal(c.velocity, [0, -3])
    assert c.angular_velocity == 0.5
    assert d.angle == 0.25
    assert c.mass == pytest.approx(2.0, rel=1e-12)
    # Writes through a handle land in that body's row of the views.
    c.position = (21.0, 5.0)
    assert np.array_equal(world.positions[1], [21.0, 5.0])
    assert np.array_equal(world.positions[[0, 2]], [[0, 0], [30, 0]])
    world.step()
    assert np.allclose(a.position, [DT, 0], rtol=0, atol=1e-12)
    assert np.allclose(c.position, [21.0, 5.0 - 3 * DT], rtol=0, atol=1e-12)
    assert np.array_equal(world.positions, np.array([a.position, c.position, d.position]))
    # Removing the first body then adding a new one: the new one goes to the end.
    world.remove(a)
    e = world.add_body(Circle(1.0), position=(-9, -9))
    assert [x is y for x, y in zip(world.bodies, (c, d, e))] == [True] * 3
    assert np.array_equal(world.positions[2], [-9, -9])
    assert np.array_equal(world.positions[0], c.position)


def test_remove_all_then_step():
    world = World()
    bodies = [world.add_body(Box(1, 1), position=(3 * i, 0)) for i in range(4)]
    for body in bodies:
        world.remove(body)
    assert len(world.bodies) == 0
    assert world.positions.shape == (0, 2)
    world.step()
    assert world.time == pytest.approx(DT, rel=1e-12)


# --------------------------------------------------------------------------- views


def test_views_are_read_only():
    world = small_scene()
    for name in ("positions", "velocities", "angles"):
        view = getattr(world, name)
        before = np.array(view, copy=True)
        with pytest.raises(ValueError):  # numpy: "assignment destination is read-only"
            view[0] = 123.0
        with pytest.raises((AttributeError, TypeError)):
            setattr(world, name, np.zeros_like(before))
        assert np.array_equal(getattr(world, name), before)


def test_views_reflect_steps_and_writes():
    world = small_scene()
    run(world, 10)
    bodies = world.bodies
    assert np.array_equal(world.positions, np.array([b.position for b in bodies]))
    assert np.array_equal(world.velocities, np.array([b.velocity for b in bodies]))
    assert np.array_equal(world.angles, np.array([b.angle for b in bodies]))
    falling = bodies[3]  # the circle, in the air
    assert falling.velocity[1] < 0.0
    falling.position = (7.0, 9.0)
    falling.velocity = (0.5, -0.25)
    falling.angle = 1.25
    assert np.array_equal(world.positions[3], [7.0, 9.0])
    assert np.array_equal(world.velocities[3], [0.5, -0.25])
    assert world.angles[3] == 1.25


def test_property_writes_take_effect_in_the_next_step():
    world = World(gravity=(0.0, 0.0))
    body = world.add_body(Box(1, 2), position=(0, 0))
    body.position = (1.0, 2.0)
    body.velocity = (3.0, -4.0)
    body.angle = 0.5
    body.angular_velocity = -2.0
    world.step()
    # No gravity and no contacts: x += v dt, angle += w dt (up to one rounding each).
    assert np.allclose(body.position, [1.0 + 3.0 * DT, 2.0 - 4.0 * DT], rtol=0, atol=1e-14)
    assert body.angle == pytest.approx(0.5 - 2.0 * DT, abs=1e-14)
    assert np.array_equal(body.velocity, [3.0, -4.0])
    assert body.angular_velocity == -2.0
    assert isinstance(body.position, np.ndarray) and body.position.shape == (2,)
    assert body.position.dtype == np.float64 and body.velocity.shape == (2,)


def test_apply_force_acts_for_one_step():
    world = World(gravity=(0.0, 0.0))
    body = world.add_body(Box(2, 1), position=(0, 0), density=3.0)  # m = 6
    m, inertia = body.mass, body.inertia
    body.apply_force((12.0, 0.0))
    world.step()
    assert np.allclose(body.velocity, [12.0 / m * DT, 0.0], rtol=1e-12, atol=1e-15)
    world.step()  # the force was for one step only
    assert np.allclose(body.velocity, [12.0 / m * DT, 0.0], rtol=1e-12, atol=1e-15)
    # Off-centre: torque = cross(point - com, f) = 1.0 * 6.0 - 0 = +6 (CCW)
    body.velocity = (0.0, 0.0)
    com = body.position.copy()
    body.apply_force((0.0, 6.0), point=com + (1.0, 0.0))
    world.step()
    assert np.allclose(body.velocity, [0.0, 6.0 / m * DT], rtol=1e-12, atol=1e-15)
    assert body.angular_velocity == pytest.approx(6.0 / inertia * DT, rel=1e-12)


def test_apply_impulse_is_immediate():
    world = World(gravity=(0.0, 0.0))
    body = world.add_body(Box(1, 1), position=(2, 3), density=2.0)  # m = 2, I = 1/3
    body.apply_impulse((1.0, -4.0))
    assert np.allclose(body.velocity, [0.5, -2.0], rtol=1e-12, atol=0)
    assert body.angular_velocity == 0.0
    # r = (0, 0.5), j = (2, 0): cross = 0 * 0 - 0.5 * 2 = -1 -> w = -1 / (1/3) = -3
    body.apply_impulse((2.0, 0.0), point=(2.0, 3.5))
    assert np.allclose(body.velocity, [1.5, -2.0], rtol=1e-12, atol=0)
    assert body.angular_velocity == pytest.approx(-3.0, rel=1e-12)
    assert np.array_equal(body.position, [2.0, 3.0])  # no step was taken


# --------------------------------------------------------------------------- bad input

# (description, call, exception, argument-name regex). Each call gets (world, body, other)
# where body is in world and other is a body of another world.
BAD_CALLS = [
    (
        "position nan",
        lambda w, b, o: w.add_body(Box(1, 1), position=(NAN, 0)),
        ValueError,
        "position",
    ),
    (
        "position inf",
        lambda w, b, o: w.add_body(Box(1, 1), position=(0, -INF)),
        ValueError,
        "position",
    ),
    (
        "velocity inf",
        lambda w, b, o: w.add_body(Box(1, 1), velocity=(INF, 0)),
        ValueError,
        "velocity",
    ),
    (
        "velocity nan",
        lambda w, b, o: w.add_body(Box(1, 1), velocity=(0, NAN)),
        ValueError,
        "velocity",
    ),
    ("angle nan", lambda w, b, o: w.add_body(Box(1, 1), angle=NAN), ValueError, "angle"),
    (
        "angular_velocity inf",
        lambda w, b, o: w.add_body(Box(1, 1), angular_velocity=INF),
        ValueError,
        "angular_velocity",
    ),
    ("density 0", lambda w, b, o: w.add_body(Box(1, 1), density=0.0), ValueError, "density"),
    ("density -1", lambda w, b, o: w.add_body(Box(1, 1), density=-1.0), ValueError, "density"),
    ("density nan", lambda w, b, o: w.add_body(Box(1, 1), density=NAN), ValueError, "density"),
    ("density inf", lambda w, b, o: w.add_body(Box(1, 1), density=INF), ValueError, "density"),
    ("friction -0.1", lambda w, b, o: w.add_body(Box(1, 1), friction=-0.1), ValueError, "friction"),
    ("friction nan", lambda w, b, o: w.add_body(Box(1, 1), friction=NAN), ValueError, "friction"),
    (
        "restitution -0.1",
        lambda w, b, o: w.add_body(Box(1, 1), restitution=-0.1),
        ValueError,
        "restitution",
    ),
    (
        "restitution 1.01",
        lambda w, b, o: w.add_body(Box(1, 1), restitution=1.01),
        ValueError,
        "restitution",
    ),
    (
        "restitution nan",
        lambda w, b, o: w.add_body(Box(1, 1), restitution=NAN),
        ValueError,
        "restitution",
    ),
    ("kind unknown", lambda w, b, o: w.add_body(Box(1, 1), kind="wobbly"), ValueError, "kind"),
    ("shape str", lambda w, b, o: w.add_body("box"), TypeError, "shapes?"),
    ("shape None", lambda w, b, o: w.add_body(None), TypeError, "shapes?"),
    ("shape number", lambda w, b, o: w.add_body(3.0), TypeError, "shapes?"),
    (
        "shape list with a non-shape",
        lambda w, b, o: w.add_body([Box(1, 1), "x"]),
        TypeError,
        "shapes?",
    ),
    (
        "write position nan",
        lambda w, b, o: setattr(b, "position", (NAN, 1.0)),
        ValueError,
        "position",
    ),
    (
        "write velocity inf",
        lambda w, b, o: setattr(b, "velocity", (1.0, INF)),
        ValueError,
        "velocity",
    ),
    ("write angle inf", lambda w, b, o: setattr(b, "angle", INF), ValueError, "angle"),
    (
        "write angular_velocity nan",
        lambda w, b, o: setattr(b, "angular_velocity", NAN),
        ValueError,
        "angular_velocity",
    ),
    ("force nan", lambda w, b, o: b.apply_force((NAN, 0.0)), ValueError, "f|force"),
    ("force inf", lambda w, b, o: b.apply_force((0.0, INF)), ValueError, "f|force"),
    (
        "force point nan",
        lambda w, b, o: b.apply_force((1.0, 0.0), point=(NAN, 0.0)),
        ValueError,
        "point",
    ),
    ("impulse nan", lambda w, b, o: b.apply_impulse((0.0, NAN)), ValueError, "j|impulse"),
    (
        "impulse point inf",
        lambda w, b, o: b.apply_impulse((1.0, 0.0), point=(0.0, -INF)),
        ValueError,
        "point",
    ),
    ("remove from another world", lambda w, b, o: w.remove(o), ValueError, None),
    ("advance nan", lambda w, b, o: w.advance(NAN), ValueError, None),
    ("advance inf", lambda w, b, o: w.advance(INF), ValueError, None),
]


@pytest.mark.parametrize(
    "call, error, name", [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS]
)
def test_bad_input_raises_naming_argument_and_leaves_world_unchanged(call, error, name):
    world, twin = small_scene(), small_scene()
    other_world = World()
    other = other_world.add_body(Box(1, 1))
    run(world, 5)
    run(twin, 5)
    body = world.bodies[2]
    before = snapshot(world)
    with pytest.raises(error) as raised:
        call(world, body, other)
    if name is not None:
        assert_names(raised, name)
    assert_same_state(before, snapshot(world))
    # Nothing hidden changed either (a half-added body, a pending force, a broadphase
    # entry): the world steps exactly like its twin that never saw the bad call.
    run(world, 30)
    run(twin, 30)
    assert_same_state(snapshot(twin), snapshot(world), same_world=False)
    assert len(other_world.bodies) == 1


def test_remove_twice_raises_and_leaves_world_unchanged():
    world = small_scene()
    victim = world.bodies[2]
    world.remove(victim)
    before = snapshot(world)
    with pytest.raises(ValueError):
        world.remove(victim)
    assert_same_state(before, snapshot(world))


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"gravity": (NAN, -9.81)}, "gravity"),
        ({"gravity": (0.0, -INF)}, "gravity"),
        ({"dt": 0.0}, "dt"),
        ({"dt": -1.0 / 60.0}, "dt"),
        ({"dt": NAN}, "dt"),
        ({"dt": INF}, "dt"),
        ({"broadphase": "bvh"}, "broadphase"),
    ],
    ids=["gravity nan", "gravity inf", "dt 0", "dt negative", "dt nan", "dt inf", "broadphase"],
)
def test_bad_world_arguments_raise_naming_argument(kwargs, name):
    with pytest.raises(ValueError) as raised:
        World(**kwargs)
    assert_names(raised, name)


SOLVER_SETTINGS_BAD = [
    ("substeps", 0, ValueError), ("substeps", 2.5, TypeError),
    ("relax_iterations", -1, ValueError), ("contact_hertz", -1.0, ValueError),
    ("contact_damping_ratio", NAN, ValueError), ("max_contact_push_speed", -3.0, ValueError),
    ("joint_hertz", INF, ValueError), ("joint_damping_ratio", -0.5, ValueError),
    ("position_iterations", True, TypeError), ("max_steps_per_advance", 0, ValueError),
    # Past MAX_PASSES: a step would run for hours (a damaged file held 2**31 sub-steps).
    ("substeps", 1001, ValueError), ("relax_iterations", 2**31, ValueError),
    ("position_iterations", 5000, ValueError),
]  # fmt: skip


@pytest.mark.parametrize("name, value, error", SOLVER_SETTINGS_BAD)
def test_a_bad_solver_setting_is_refused_when_made_and_when_set(name, value, error):
    # Set after the world was made, a setting is checked as World() checks it (0
    # sub-steps set on a live world once stepped nothing, silently); the world keeps the
    # old value and still steps.
    with pytest.raises(error) as raised:
        World(**{name: value})
    assert_names(raised, name)
    world = World()
    box = world.add_body(Box(1, 1), position=(0, 5))
    before = getattr(world, name)
    with pytest.raises(error) as raised:
        setattr(world, name, value)
    assert_names(raised, name)
    assert getattr(world, name) == before
    world.step()
    assert box.position[1] < 5.0


def test_a_good_solver_setting_set_on_a_live_world_takes_effect():
    world = World()
    world.substeps = 2
    world.contact_hertz = 30
    assert world.substeps == 2 and isinstance(world.substeps, int)
    assert world.contact_hertz == 30.0 and isinstance(world.contact_hertz, float)


non_finite = st.sampled_from([NAN, INF, -INF])
finite = st.floats(-1e3, 1e3)


@st.composite
def bad_vector(draw):
    """A 2-vector with at least one NaN or infinity, in a random slot."""
    values = [draw(finite), draw(finite)]
    for i in draw(st.sets(st.integers(0, 1), min_size=1)):
        values[i] = draw(non_finite)
    return tuple(values)


@st.composite
def bad_add_body_argument(draw):
    """(keyword, bad value) for add_body of a dynamic body."""
    keyword = draw(
        st.sampled_from(
            [
                "position",
                "velocity",
                "angle",
                "angular_velocity",
                "density",
                "friction",
                "restitution",
            ]
        )
    )
    if keyword in ("position", "velocity"):
        value = draw(bad_vector())
    elif keyword in ("angle", "angular_velocity"):
        value = draw(non_finite)
    elif keyword == "density":  # <= 0, or not finite
        value = draw(st.floats(max_value=0.0) | non_finite)
    elif keyword == "friction":  # < 0, or not finite
        value = draw(st.floats(max_value=-1e-9) | non_finite)
    else:  # restitution outside [0, 1]
        value = draw(st.floats(max_value=-1e-9) | st.floats(min_value=1.0 + 1e-9) | non_finite)
    return keyword, value


@settings(max_examples=60)
@given(bad=bad_add_body_argument())
def test_random_bad_add_body_arguments(bad):
    keyword, value = bad
    world = small_scene()
    before = snapshot(world)
    with pytest.raises(ValueError) as raised:
        world.add_body(Box(1, 1), **{"position": (0, 10), keyword: value})
    assert_names(raised, keyword)
    assert_same_state(before, snapshot(world))


@settings(max_examples=40)
@given(keyword=st.sampled_from(["position", "velocity"]), value=bad_vector())
def test_random_bad_property_writes(keyword, value):
    world = small_scene()
    before = snapshot(world)
    with pytest.raises(ValueError) as raised:
        setattr(world.bodies[3], keyword, value)
    assert_names(raised, keyword)
    assert_same_state(before, snapshot(world))


@settings(max_examples=40)
@given(
    dt=st.floats(max_value=0.0) | non_finite,
    gravity=st.none() | bad_vector(),
)
def test_random_bad_world_arguments(dt, gravity):
    with pytest.raises(ValueError) as raised:
        World(dt=dt)
    assert_names(raised, "dt")
    if gravity is not None:
        with pytest.raises(ValueError) as raised:
            World(gravity=gravity)
        assert_names(raised, "gravity")


@settings(max_examples=40)
@given(force=bad_vector(), impulse=st.booleans())
def test_random_bad_forces_leave_world_unchanged(force, impulse):
    world, twin = small_scene(), small_scene()
    body = world.bodies[3]
    with pytest.raises(ValueError) as raised:
        if impulse:
            body.apply_impulse(force)
        else:
            body.apply_force(force)
    assert_names(raised, "j|impulse" if impulse else "f|force")
    run(world, 3)
    run(twin, 3)
    assert_same_state(snapshot(twin), snapshot(world), same_world=False)


# --------------------------------------------------------------------------- advance


def test_advance_runs_whole_steps_and_returns_leftover_fraction():
    world = small_scene()
    alpha = world.advance(0.11)  # 6.6 steps (under the cap of 8)
    assert world.time == pytest.approx(6 * DT, rel=1e-12)
    assert alpha == pytest.approx(0.6, abs=1e-9)
    alpha = world.advance(0.01)  # 0.6 + 0.6 = 1.2 steps
    assert world.time == pytest.approx(7 * DT, rel=1e-12)
    assert alpha == pytest.approx(0.2, abs=1e-9)
    # Same as stepping by hand
    twin = small_scene()
    run(twin, 7)
    assert_same_state(snapshot(twin), snapshot(world), same_world=False)


def test_advance_less_than_dt_runs_no_step():
    world = small_scene()
    before = snapshot(world)
    alpha = world.advance(0.5 * DT)
    assert alpha == pytest.approx(0.5, abs=1e-9)
    assert world.time == 0.0
    assert_same_state(before, snapshot(world))
    alpha = world.advance(0.25 * DT)
    assert alpha == pytest.approx(0.75, abs=1e-9)
    assert world.time == 0.0
    world.advance(0.5 * DT)  # 1.25 steps in total now
    assert world.time == pytest.approx(DT, rel=1e-12)


def test_advance_caps_runaway_catch_up():
    world = small_scene()
    assert world.max_steps_per_advance == 8
    alpha = world.advance(1.0)  # 60 steps owed: 8 run, the rest dropped
    assert world.time == pytest.approx(8 * DT, rel=1e-12)
    assert 0.0 <= alpha < 1.0
    # The dropped time is gone: the next call catches up at most the leftover fraction.
    alpha2 = world.advance(0.5 * DT)
    expected_steps = 8 + math.floor(alpha + 0.5 + 1e-12)
    assert world.time == pytest.approx(expected_steps * DT, rel=1e-12)
    assert 0.0 <= alpha2 < 1.0
    world.max_steps_per_advance = 3
    start = world.time
    world.advance(10.0)
    assert world.time - start == pytest.approx(3 * DT, rel=1e-9)
