"""Regressions at the World API boundary, each named for the defect it pins down.

Every test here uses the public API only and checks behaviour: what queries return, what
a body's state is after a step, how many steps ran, which error is raised.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import ground_world
from hypothesis import example, given
from hypothesis import strategies as st

from engine import Box, Circle, HandlerError, RevoluteJoint, WeldJoint, World


def resting_box(world: World, x: float = 0.0):
    """A box resting on the floor (already touching it, so presolve runs for it)."""
    return world.add_body(Box(1, 1), position=(x, 0.5))


# -- queries after restore --------------------------------------------------------------------
def test_queries_after_restoring_one_snapshot_twice_see_what_was_removed_since():
    world = World(gravity=(0, 0))
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(3, 0))
    mover = world.add_body(Circle(0.2), position=(-3, 0), kind="kinematic")
    saved = world.snapshot()

    world.restore(saved)
    world.remove(a)
    assert world.query_aabb((-10, -10), (10, 10)) == [b, mover]

    world.restore(saved)
    world.remove(b)
    assert world.query_aabb((-10, -10), (10, 10)) == [a, mover]
    assert world.raycast((-2, 0), (10, 0)).body is a
    assert world.shape_cast(Circle(0.1), (5, 0, 0), (-6, 0)).body is a
    assert world.query_point((3, 0)) == []
    # move_and_slide shares the index: the mover stops at a, not at the removed b.
    result = world.move_and_slide(mover, (10, 0))
    assert [body for body, _ in result.contacts] == [a]
    assert result.position[0] < -0.5


def test_queries_see_bodies_added_and_removed_between_them():
    world = World(gravity=(0, 0))
    first = world.add_body(Box(1, 1), position=(0, 0))
    assert world.query_point((0, 0)) == [first]
    world.remove(first)
    second = world.add_body(Box(1, 1), position=(0, 0))
    assert world.query_point((0, 0)) == [second]


# -- re-entrant stepping ----------------------------------------------------------------------
@pytest.mark.parametrize("call", ["step", "advance"])
def test_stepping_from_presolve_is_refused_and_time_stays_one_step(call):
    world, _ = ground_world()
    resting_box(world)
    refusals = []

    def reenter(contact):
        try:
            world.step() if call == "step" else world.advance(1.0)
        except RuntimeError as error:
            refusals.append(str(error))

    world.on("presolve", reenter)
    world.step()
    assert refusals and all(message.startswith(call + ": not possible") for message in refusals)
    assert world.time == pytest.approx(world.dt)


def test_stepping_from_an_event_handler_is_refused():
    world, _ = ground_world()
    resting_box(world)
    for event in ("contact_begin", "contact_persist"):
        world.on(event, lambda contact: world.step())
    for _ in range(2):  # the box's contact begins, then persists
        with pytest.raises(HandlerError, match="step: not possible while the world is"):
            world.step()
    assert world.time == pytest.approx(2 * world.dt)


# -- writes inside presolve -------------------------------------------------------------------
def test_writes_inside_presolve_are_applied_when_the_step_ends():
    world, _ = ground_world()
    box = resting_box(world)
    ball = world.add_body(Circle(0.5), position=(5, 0.5))
    world.step()
    done = []

    @world.on("presolve")
    def write(contact):
        if done:
            return
        done.append(True)
        box.position = (0, 5)
        box.angle = 0.25
        box.velocity = (2, 0)
        box.angular_velocity = 1.5
        ball.apply_impulse((3, 0))  # 3 N s on a ball of mass pi / 4
        ball.friction = 0.1

    world.step()
    assert box.position.tolist() == [0, 5]
    assert box.angle == 0.25
    assert box.velocity.tolist() == [2, 0] and box.angular_velocity == 1.5
    assert ball.velocity[0] == pytest.approx(3 / (math.pi * 0.25))
    assert ball.friction == 0.1
    # and they took effect from the next step: the box falls freely from 5 m
    world.off("presolve", write)
    world.step()
    assert box.position[0] == pytest.approx(2 * world.dt)


def test_a_force_applied_inside_presolve_acts_in_the_next_step():
    world, _ = ground_world(gravity=(0, 0))
    box = resting_box(world)
    world.step()
    world.on("presolve", lambda contact: box.apply_force((60, 0)))  # mass 1
    world.step()
    assert box.velocity[0] == 0.0
    world.off("presolve", world._event_log.handlers["presolve"][0])
    world.step()
    assert box.velocity[0] == pytest.approx(60 * world.dt)


def test_writes_to_a_body_added_inside_presolve_apply_after_it_is_added():
    world, _ = ground_world()
    resting_box(world)
    world.step()
    spawned = []

    @world.on("presolve")
    def spawn(contact):
        if not spawned:
            body = world.add_body(Circle(0.2), position=(3, 3))
            assert body.position.tolist() == [3, 3]  # readable before the step ends
            body.velocity = (0, 4)
            spawned.append(body)

    world.step()
    assert spawned[0].velocity.tolist() == [0, 4]


# -- body.world during presolve ---------------------------------------------------------------
def test_a_body_removed_in_presolve_reports_no_world_for_its_next_contacts():
    world, _ = ground_world()
    doomed = world.add_body(Box(1, 1), position=(0, 0.5))
    world.add_body(Box(1, 1), position=(1.0, 0.5))  # a second contact for the doomed box
    world.step()
    removed = []

    @world.on("presolve")
    def remove_on_touch(contact):
        for body in (contact.body_a, contact.body_b):
            if body is doomed and body.world is not None:
                world.remove(body)
                removed.append(body)

    world.step()  # must not raise HandlerError
    assert removed == [doomed] and doomed.world is None and doomed not in world.bodies
    with pytest.raises(ValueError, match="removed"):
        doomed.position = (0, 0)


def test_a_write_to_a_body_removed_in_presolve_is_refused():
    world, _ = ground_world()
    box = resting_box(world)
    world.step()
    errors = []

    @world.on("presolve")
    def remove_then_write(contact):
        if box.world is None:
            return
        world.remove(box)
        try:
            box.velocity = (1, 0)
        except ValueError as error:
            errors.append(str(error))

    world.step()
    assert errors == ["body: it has been removed from its world"]


# -- advance ----------------------------------------------------------------------------------
def test_advance_counts_a_step_whose_handler_raised_once():
    def run(raising: bool) -> int:
        world, _ = ground_world()
        resting_box(world)
        world.step()
        calls = []

        def fail(contact):
            calls.append(1)
            if raising and len(calls) == 1:
                raise RuntimeError("boom")

        world.on("contact_persist", fail)
        try:
            world.advance(3 * world.dt)
        except HandlerError:
            assert raising
        world.advance(0.0)
        return round(world.time / world.dt)

    assert run(raising=True) == run(raising=False) == 4


@pytest.mark.parametrize(("dt", "seconds"), [(1 / 60, 0.85), (1 / 30, 0.3), (1 / 60, 0.025)])
def test_advance_returns_a_fraction_below_one(dt, seconds):
    alpha = World(dt=dt).advance(seconds)
    assert 0.0 <= alpha < 1.0


@example(dt=1 / 60, seconds=[0.85], cap=8)
@example(dt=1 / 30, seconds=[0.3], cap=8)
@given(
    dt=st.floats(1e-4, 1.0),
    seconds=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=6),
    cap=st.integers(1, 10),
)
def test_advance_fraction_stays_in_range_and_steps_follow_the_time(dt, seconds, cap):
    world = World(dt=dt, max_steps_per_advance=cap)
    banked_steps = 0
    for value in seconds:
        before = round(world.time / dt)
        alpha = world.advance(value)
        ran = round(world.time / dt) - before
        assert 0.0 <= alpha < 1.0
        assert 0 <= ran <= cap
        banked_steps += ran
    assert banked_steps == round(world.time / dt)


# -- numbers are real numbers, within what the step represents --------------------------------
@pytest.mark.parametrize(
    "value", [["1", "2"], (True, False), np.array([True, False]), (1 + 0j, 2), [None, 1]]
)
def test_vectors_of_anything_but_real_numbers_are_refused(value):
    world = World()
    with pytest.raises(TypeError, match="position: expected real numbers"):
        world.add_body(Box(1, 1), position=value)
    body = world.add_body(Box(1, 1))
    with pytest.raises(TypeError, match="velocity: expected real numbers"):
        body.velocity = value
    assert body.velocity.tolist() == [0, 0]


@pytest.mark.parametrize("kind", ["static", "kinematic", "dynamic"])
@pytest.mark.parametrize("density", [-5.0, 0.0])
def test_density_must_be_positive_for_every_kind(kind, density):
    with pytest.raises(ValueError, match="density: must be > 0"):
        World().add_body(Box(1, 1), kind=kind, density=density)


def test_a_density_whose_mass_float64_cannot_invert_is_refused():
    with pytest.raises(ValueError, match="density: gives these shapes a mass"):
        World().add_body(Box(1e-160, 1e-160), density=1e-10)


@pytest.mark.parametrize(
    ("make", "argument"),
    [
        (lambda: World(dt=1e300), "dt"),
        (lambda: World(gravity=(0, -1e300)), "gravity"),
        (lambda: World().add_body(Box(1, 1), position=(0, 1.7e308)), "position"),
        (lambda: World().add_body(Box(1, 1), velocity=(2e11, 0)), "velocity"),
        (lambda: World().add_body(Box(1, 1), angular_velocity=1e300), "angular_velocity"),
    ],
)
def test_values_the_step_cannot_represent_are_refused_where_given(make, argument):
    with pytest.raises(ValueError, match=f"^{argument}: .* is more than the step represents"):
        make()


def test_impulses_and_forces_beyond_what_the_step_represents_are_refused():
    world = World()
    body = world.add_body(Box(1, 1))
    with pytest.raises(ValueError, match="^impulse: "):
        body.apply_impulse((1e300, 0))
    with pytest.raises(ValueError, match="^force: "):
        body.apply_force((1e300, 0))
    with pytest.raises(ValueError, match="^point: "):
        body.apply_impulse((1, 0), point=(0, 1e300))
    assert body.velocity.tolist() == [0, 0]
    world.step()
    assert body.velocity[0] == 0.0


def test_joint_anchors_beyond_the_representable_coordinates_are_refused():
    world = World()
    body = world.add_body(Box(1, 1))
    with pytest.raises(ValueError, match="^anchor: "):
        RevoluteJoint(body, None, (0, 1.7e308))


@pytest.mark.slow
def test_bodies_welded_at_the_largest_speed_and_far_apart_stay_finite():
    """Bodies at the speed limit, flung apart and then welded across the distance: the
    joint solver must stay finite (it used to turn them NaN within steps)."""
    world = World(gravity=(0, 0))
    a = world.add_body(Box(1, 1), velocity=(7e5, -7e5), angular_velocity=5)
    b = world.add_body(Box(0.5, 2), position=(3, 0), velocity=(-7e5, 7e5))
    for _ in range(40):
        world.step()
    world.add_joint(WeldJoint(a, b, a.position))
    for _ in range(120):
        world.step()
        assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
        assert np.isfinite(world.angular_velocities).all()
