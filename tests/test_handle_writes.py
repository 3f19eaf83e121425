"""Handle reads and writes between steps: the quick way into a row must do what the general
way does.

Between steps a handle writes straight into its row, and its arguments are checked by
fast paths for the usual types; these tests hold both to the general way: the same values
accepted and the same errors, bitwise the same rows, the same islands woken (the world
remembers whether anything sleeps), and rows found again after the tables grew or moved.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from builders import add_ground, run, run_for
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, RevoluteJoint, World
from engine.settings import MAX_COORDINATE, MAX_SPEED
from engine.validation import as_bounded_vector, as_finite_float, bounded_components

NAN, INF = float("nan"), float("inf")


def outcome(check, *args):
    """What ``check(*args)`` gives: ("value", result as a list) or ("error", type,
    message)."""
    try:
        result = check(*args)
    except (TypeError, ValueError) as error:
        return "error", type(error), str(error)
    return "value", [float(v) for v in np.atleast_1d(result)]


LIMITS = [MAX_SPEED, MAX_COORDINATE, sys.float_info.max]


def around(limit: float):
    """Lengths near ``limit``: within a millionth of it, and within a few bits of it."""
    top = min(limit * (1 + 1e-6), sys.float_info.max)
    return st.floats(limit * (1 - 1e-6), top) | st.integers(-4, 4).map(
        lambda bits: min(limit + bits * math.ulp(limit), sys.float_info.max)
    )


# Numbers around the limits: their vectors' lengths are judged at the last bit.
near_limits = st.sampled_from(LIMITS).flatmap(around)
entries = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    near_limits,
    st.integers(-(2**70), 2**70),
    st.booleans(),
    st.just("x"),
    st.none(),
)


@st.composite
def vectors(draw):
    """Anything a program may pass as a 2-vector, good or bad."""
    form = draw(st.sampled_from(["tuple", "list", "float64", "float32", "int", "three", "slanted"]))
    if form == "slanted":  # a length near a limit along any direction
        length, turn = draw(near_limits), draw(st.floats(0, 2 * math.pi))
        return (length * math.cos(turn), length * math.sin(turn))
    if form in ("tuple", "list"):
        pair = [draw(entries), draw(entries)]
        return tuple(pair) if form == "tuple" else pair
    if form == "three":
        return (draw(entries), draw(entries), draw(entries))
    if form == "float64":
        return np.array([draw(st.floats(-1e7, 1e7) | near_limits), draw(st.floats(-1e7, 1e7))])
    values = [draw(st.floats(-1e7, 1e7)), draw(st.floats(-1e7, 1e7))]
    return np.array(values).astype(np.float32 if form == "float32" else np.int64)


@settings(max_examples=400)
@given(value=vectors(), limit=st.sampled_from(LIMITS))
def test_the_fast_vector_check_agrees_with_the_full_one(value, limit):
    with np.errstate(over="ignore"):  # numpy's hypot of two huge entries overflows to inf
        full = outcome(as_bounded_vector, value, "v", limit, "m")
        assert outcome(bounded_components, value, "v", limit, "m") == full


@settings(max_examples=300)
@given(value=entries)
def test_the_fast_number_check_agrees_with_the_full_one(value):
    def full(number, argument):  # the check as it was: every value the long way
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise TypeError(f"{argument}: expected a real number, got {type(number).__name__}")
        try:
            result = float(number)
        except OverflowError:
            raise ValueError(
                f"{argument}: must be finite, got a number too large for float64"
            ) from None
        if not math.isfinite(result):
            raise ValueError(f"{argument}: must be finite, got {result}")
        return result

    assert outcome(as_finite_float, value, "x") == outcome(full, value, "x")


def resting_parcel(kind: str = "static"):
    """(world, ledge, parcel): a parcel asleep on a ledge of ``kind``."""
    world = World()
    add_ground(world)
    ledge = world.add_body(Box(2, 0.2), position=(0, 3), kind=kind)
    parcel = world.add_body(Box(0.5, 0.5), position=(0, 3.35))
    run_for(world, 2.0)
    assert not parcel.awake and ledge.awake
    return world, ledge, parcel


@pytest.mark.parametrize(
    "write",
    [
        lambda ledge: setattr(ledge, "friction", 0.2),
        lambda ledge: setattr(ledge, "position", (0.0, 3.0)),
        lambda ledge: setattr(ledge, "angle", 0.0),
        lambda ledge: setattr(ledge, "category", 2),
        lambda ledge: setattr(ledge, "velocity", (0.5, 0.0)),
    ],
    ids=["friction", "position", "angle", "category", "velocity"],
)
def test_a_write_to_an_awake_body_wakes_the_sleeper_it_touches(write):
    # The ledge never sleeps (it is not dynamic), so only what it touched can wake.
    world, ledge, parcel = resting_parcel("kinematic")
    write(ledge)
    assert parcel.awake


def test_a_body_put_to_sleep_by_hand_is_woken_by_a_write_to_what_it_touches():
    # Nothing sleeps, the world remembers that; then a body is put to sleep by hand and
    # the next write to its ledge must still wake it.
    world = World(sleep=False)
    add_ground(world)
    ledge = world.add_body(Box(2, 0.2), position=(0, 3), kind="kinematic")
    parcel = world.add_body(Box(0.5, 0.5), position=(0, 3.35))
    run(world, 60)
    ledge.velocity = (0.0, 0.0)  # a write while nothing sleeps
    parcel.awake = False
    ledge.velocity = (0.1, 0.0)
    assert parcel.awake


@settings(max_examples=60, deadline=None)
@given(
    impulse=st.tuples(st.floats(-5, 5), st.floats(-5, 5)),
    point=st.none() | st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
    fixed=st.booleans(),
)
def test_an_impulse_between_steps_adds_exactly_what_the_formula_gives(impulse, point, fixed):
    world = World()
    add_ground(world)
    body = world.add_body(Box(1, 0.5), position=(0.3, 2.0), angle=0.4, fixed_rotation=fixed)
    run(world, 3)
    v, w = np.array(body.velocity), body.angular_velocity
    c = np.array(body.position)
    inv_mass = 1.0 / body.mass
    inv_inertia = 0.0 if fixed else 1.0 / body.inertia
    j = np.array(impulse, dtype=np.float64)
    arm = (np.array(point, dtype=np.float64) - c) if point is not None else np.zeros(2)
    angular = float(arm[0] * j[1] - arm[1] * j[0]) if point is not None else 0.0
    body.apply_impulse(impulse, point=point)
    assert np.array_equal(body.velocity, v + j * inv_mass)
    assert body.angular_velocity == w + angular * inv_inertia


def test_writes_find_their_rows_after_the_tables_grew_and_moved():
    world = World()
    add_ground(world)
    first = world.add_body(Circle(0.5), position=(-5, 3))
    wheel = world.add_body(Circle(0.3), position=(5, 3))
    spare = world.add_joint(RevoluteJoint(first, None, anchor=(-5, 4)))
    motor = world.add_joint(RevoluteJoint(wheel, None, anchor=(5, 3), max_motor_torque=5.0))
    first.apply_impulse((1.0, 0.0))  # the rows' cells are made now...
    world.add_bodies(Circle(0.2), np.column_stack([np.arange(100.0), np.full(100, 20.0)]))
    world.remove(world.bodies[0])  # ...and the tables grow, then every row moves up one
    world.remove_joint(spare)  # the motor's row moves too
    first.apply_impulse((1.0, 0.0))
    first.velocity = (first.velocity[0], 2.0)
    motor.motor_speed = 3.0
    row = world.bodies.index(first)
    assert world.velocities[row].tolist() == [2.0 / first.mass, 2.0]
    assert world.snapshot()._arrays["joint.motor_speed"].tolist() == [3.0]
    assert motor.motor_speed == 3.0


# Forces and impulses from tiny to far past what a step takes.
pushes = st.floats(-1e3, 1e3) | st.floats(-1e9, 1e9)


@settings(max_examples=150, deadline=None)
@given(
    push=st.tuples(pushes, pushes),
    edge=st.none() | st.tuples(st.integers(-6, 6), st.floats(0, 2 * math.pi)),
    before=st.just((0.0, 0.0)) | st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)),
    impulse=st.booleans(),
)
def test_a_push_between_steps_does_what_the_general_way_does(push, edge, before, impulse):
    # A push at local point (0, 0), the centre of mass, goes the general way: the quick
    # way must accept and refuse the same pushes, with the same words, to the same sums.
    # ``edge``: a push whose result lands within a few bits of the step's limit instead.
    results = []
    for quick in (True, False):
        world = World()
        body = world.add_body(Box(1, 0.7), position=(0.3, 2.0), angle=0.4)  # 0.7 kg
        method = body.apply_impulse if impulse else body.apply_force
        method(before)  # something already pushed
        if edge is not None:
            bits, turn = edge
            per_unit = 1.0 / body.mass * (1.0 if impulse else world.dt)  # m/s per N (s)
            size = MAX_SPEED / per_unit
            size += bits * math.ulp(size)
            push = (size * math.cos(turn), size * math.sin(turn))
        try:
            method(push) if quick else method(push, local_point=(0.0, 0.0))
        except ValueError as error:
            results.append(("error", str(error)))
            continue
        snap = world.snapshot()._arrays
        results.append([snap[f"body.{name}"].tobytes() for name in
                        ("velocity", "angular_velocity", "force", "torque")])  # fmt: skip
    assert results[0] == results[1]
