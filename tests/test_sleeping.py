"""Sleeping islands: piles at rest leave the solver, and wake when something reaches them."""

from __future__ import annotations

import numpy as np
import pytest
from builders import add_ground, run_for, stack

from engine import Box, Circle, World
from engine.body_store import DYNAMIC, STATIC
from engine.sleep import fall_asleep


def test_a_settled_pyramid_falls_asleep_and_stays_put():
    world = World()
    add_ground(world, width=60.0)
    boxes = []
    for row in range(8):
        for i in range(8 - row):
            boxes.append(
                world.add_body(Box(1, 1), position=((i - (7 - row) / 2) * 1.125, 0.5 + row))
            )
    run_for(world, 3.0)
    assert not world.awake[1:].any()  # every box sleeps; the time to sleep is 0.5 s of rest
    before = np.array(world.positions)
    run_for(world, 2.0)
    np.testing.assert_array_equal(world.positions, before)  # asleep: exactly still
    assert np.all(world.velocities[1:] == 0.0)


def test_world_without_sleep_never_sleeps():
    world = World(sleep=False)
    add_ground(world, width=60.0)
    stack(world, 3)
    run_for(world, 3.0)
    assert world.awake.all()


def test_a_ball_hitting_a_sleeping_stack_wakes_it_and_the_stack_reacts():
    world = World()
    add_ground(world, width=60.0)
    boxes = stack(world, 5)
    run_for(world, 2.0)
    assert not any(box.awake for box in boxes)
    resting = np.array([box.position for box in boxes])
    ball = world.add_body(Circle(0.3), position=(-6, 3.5), velocity=(25, 0), density=20)
    run_for(world, 0.5)
    assert all(box.awake for box in boxes[2:])  # the whole island woke, not just the one hit
    moved = np.hypot(*(np.array([box.position for box in boxes]) - resting).T)
    assert moved[3] > 0.2  # the box struck (at height 3.5) was knocked away
    assert ball.velocity[0] < 25


def test_a_sleeping_body_on_a_removed_floor_wakes_and_falls():
    world = World()
    world.add_body(Box(60, 1), position=(0, -5.5), kind="static")
    floor = world.add_body(Box(4, 0.5), position=(0, 0.25), kind="static")
    box = world.add_body(Box(1, 1), position=(0, 1.0))
    run_for(world, 2.0)
    assert not box.awake
    world.remove(floor)
    assert box.awake
    run_for(world, 0.5)
    # Free fall for about 0.5 s: it dropped over a metre (0.5 g t^2 = 1.23 m).
    assert box.position[1] < 1.0 - 1.0


@pytest.mark.parametrize(
    "poke",
    [
        lambda body: body.apply_force((0.0, 50.0)),
        lambda body: body.apply_impulse((1.0, 0.0)),
        lambda body: setattr(body, "velocity", (1.0, 0.0)),
        lambda body: setattr(body, "position", (0.2, 0.5)),
        lambda body: setattr(body, "awake", True),
    ],
    ids=["force", "impulse", "velocity", "position", "awake"],
)
def test_a_force_impulse_or_a_write_wakes_the_island(poke):
    world = World()
    add_ground(world, width=60.0)
    boxes = stack(world, 3)
    run_for(world, 2.0)
    assert not boxes[0].awake
    poke(boxes[0])
    assert all(box.awake for box in boxes)


def test_putting_a_body_to_sleep_by_hand_stops_it():
    world = World(gravity=(0.0, 0.0))
    body = world.add_body(Circle(0.5), velocity=(3.0, 0.0))
    body.awake = False
    world.step()
    assert not body.awake and body.position[0] == 0.0 and body.velocity[0] == 0.0
    with pytest.raises(TypeError, match="awake"):
        body.awake = "no"


def test_the_awake_view_is_read_only():
    world = World()
    world.add_body(Box(1, 1))
    with pytest.raises(ValueError):
        world.awake[0] = False


@pytest.mark.parametrize("gap", [0.025, 0.04])
def test_neighbours_settling_at_different_times_both_fall_asleep(gap):
    # The dropped box comes to rest later than the one already on the ground, a few cm
    # away: near enough to reach it (a candidate pair), too far to join its island. Each,
    # while awake, wakes the other when it falls asleep; neither must lose its time at rest.
    world = World()
    add_ground(world, width=60.0)
    world.add_body(Box(1, 1), position=(0, 0.5))
    world.add_body(Box(1, 1), position=(1 + gap, 1.0))
    run_for(world, 2.0)
    assert not world.awake[1:].any()


def test_a_soft_bridge_resting_at_its_springs_sag_falls_asleep():
    # Soft contacts hold a load at a depth (load / (effective mass omega^2)): with springs
    # this soft (1 Hz, 2 Hz on the ground) a plank on two boxes rests more than two slops
    # deep. That is where the springs hold still, not an overlap being pushed out. (Its
    # contacts close a loop through the ground: a contact tree, such as a column, holds
    # its load at touching instead, ``engine.soft_contacts.hold_loads_at_touching``.)
    world = World(substeps=4, contact_hertz=1.0)
    add_ground(world, width=60.0)
    for x in (-1.5, 1.5):
        world.add_body(Box(1, 1), position=(x, 0.5))
    plank = world.add_body(Box(5, 0.5), position=(0, 1.25))
    deepest = 0.0
    for _ in range(120):
        world.step()
        deepest = max(deepest, float(world.contact_arrays().depth.max()))
    assert deepest > 2.0 * world.linear_slop  # the premise: deeper than sleep's overlap test
    assert not world.awake[1:].any()
    # It rests level and in place (Gauss-Seidel visits its two supports one after the other:
    # 3.5 micrometres sideways before it sleeps).
    assert abs(plank.position[0]) < 1e-4 and abs(plank.angle) < 1e-4


def test_a_soft_overlap_being_pushed_out_stays_awake_until_out():
    # A box placed 6 cm into the ground moves slower than the sleep speed at the end of a
    # step (the relax passes take the push's speed away) yet must not sleep until out.
    world = World(substeps=4)
    add_ground(world, width=60.0)
    box = world.add_body(Box(1, 1), position=(0, 0.5 - 0.06))
    for _ in range(300):
        world.step()
        if not box.awake:
            break
    assert not box.awake
    assert box.position[1] - 0.5 > -2.0 * world.linear_slop


def test_a_ball_wedged_between_two_walls_falls_asleep_where_it_is_stuck():
    # Placed 20 cm into each of two walls: their springs push it both ways, at most
    # max_contact_push_speed, and nothing opens. An overlap that does not open is not
    # being pushed out, so it sleeps (kept awake, it held a whole pile awake for ever).
    world = World(substeps=4)
    add_ground(world, width=60.0)
    for side in (-1.0, 1.0):
        world.add_body(Box(1, 3), position=(side * 0.8, 1.5), kind="static")
    ball = world.add_body(Circle(0.5), position=(0, 0.5))
    run_for(world, 2.0)
    assert world.contact_arrays().depth.max() > 0.15  # the premise: still wedged deep
    assert not ball.awake


def _settle(end_speed, start_speed, steps: int) -> bool:
    """Whether a box on the ground falls asleep within ``steps`` steps of 1/60 s when its
    velocity at each step's end is end_speed(k) along x, and start_speed(k) at its start
    (the sleep kernel alone: the solver can leave a body under a pile alternating)."""
    kind = np.array([STATIC, DYNAMIC], dtype=np.int8)
    awake = np.array([False, True])
    reach, sleep_time, island = np.array([10.0, 0.7]), np.zeros(2), np.full(2, -1)
    pushed, own = np.zeros(2, dtype=np.bool_), np.zeros(2)
    body_a, body_b = np.array([0]), np.array([1])
    separation, opening, slop = np.zeros((1, 2)), np.zeros(1), np.full(1, 0.005)
    slots = np.zeros((0, 2), dtype=np.int64)
    for k in range(steps):
        velocity = np.array([[0.0, 0.0], [end_speed(k), 0.0]])
        start = np.array([[0.0, 0.0], [start_speed(k), 0.0]])
        fall_asleep(
            kind, awake, velocity, np.zeros(2), start, np.zeros(2), reach, sleep_time,
            island, pushed, own, np.ones(2, dtype=np.bool_), body_a, body_b, separation,
            opening, slop, slots,
            1.0 / 60.0, 0.05, 0.5, 0,
        )  # fmt: skip
        if not awake[1]:
            return True
    return False


def test_speed_is_judged_at_the_middle_of_the_step():
    # Alternating between +-8 cm/s at the ends of steps, a body moves no further than a
    # millimetre and a half, back and forth: it rests. Moving on at 8 cm/s, it does not.
    alternating = lambda k: 0.08 * (-1) ** k  # noqa: E731
    assert _settle(alternating, lambda k: alternating(k - 1), 60)
    assert not _settle(lambda k: 0.08, lambda k: 0.08, 600)
    assert not _settle(lambda k: 0.12, lambda k: 0.0, 600)  # speeding up from rest


# -- enable_sleep ---------------------------------------------------------------------------


def _resting_pair(enable_sleep: bool):
    """A box on the ground with another on top of it, the lower one's enable_sleep given;
    and a lone box beside them."""
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    lower = world.add_body(Box(1, 1), position=(0, 0.5), enable_sleep=enable_sleep)
    upper = world.add_body(Box(1, 1), position=(0, 1.5))
    lone = world.add_body(Box(1, 1), position=(5, 0.5))
    return world, lower, upper, lone


def test_a_body_that_may_not_sleep_keeps_its_island_awake():
    world, lower, upper, lone = _resting_pair(enable_sleep=False)
    for _ in range(300):
        world.step()
    assert not lone.awake, "the lone box sleeps"
    assert lower.awake and upper.awake, "the pair on the body that may not sleep does not"
    assert np.hypot(*upper.velocity) < 0.01  # at rest all the same
    lower.enable_sleep = True
    for _ in range(120):
        world.step()
    assert not lower.awake and not upper.awake


def test_switching_sleep_off_wakes_a_sleeping_body_and_it_stays_awake():
    world, lower, upper, lone = _resting_pair(enable_sleep=True)
    for _ in range(300):
        world.step()
    assert not lone.awake
    lone.enable_sleep = False
    assert lone.awake and not lone.enable_sleep
    for _ in range(300):
        world.step()
    assert lone.awake
    with pytest.raises(TypeError, match="enable_sleep"):
        lone.enable_sleep = 1
    with pytest.raises(TypeError, match="enable_sleep"):
        world.add_body(Box(1, 1), position=(9, 0.5), enable_sleep="no")
