"""Events: contacts, sensors, presolve and handlers, as the game sees them.

What the tests hold the engine to, and why the tolerances are what they are:

- Event timing and bookkeeping (begin once, persist while touching, end once, ``world.events``
  equal to what handlers got, handlers seeing the final arrays) is exact: it is counting and
  comparing bits, not physics.
- A resting contact must carry the impulse that cancels gravity over one step: m g dt along
  the normal (on a ramp m g cos(theta) dt along the normal and m g sin(theta) dt along the
  surface). Once the box is at rest its momentum no longer changes, so the contact impulse is
  the gravity impulse up to the solver's residual; 2 % is far below any real error (a missing
  dt, a doubled warm start, the wrong body's mass: factors of 2 or more).
- A sensor must not change anything: a box falling through one follows, bit for bit, the same
  trajectory as in the world without the sensor.
- Resting heights allow a few mm: the solver leaves contacts up to LINEAR_SLOP (5 mm) deep.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest
from builders import DT, SLOP, G, ground_world, run
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, Contact, Event, HandlerError, SensorOverlap, World

POST_STEP_EVENTS = ("contact_begin", "contact_persist", "contact_end", "sensor_begin", "sensor_end")


# --------------------------------------------------------------------------- helpers


def bodies_of(subject) -> tuple:
    if isinstance(subject, Contact):
        return subject.body_a, subject.body_b
    return subject.sensor, subject.other


def pair(subject) -> frozenset:
    """Which two bodies an event is about, order-free."""
    return frozenset(id(body) for body in bodies_of(subject))


def signature(name: str, subject) -> tuple:
    """Everything an event says, as a hashable tuple (the bodies by identity)."""
    if isinstance(subject, Contact):
        return (
            name,
            id(subject.body_a),
            id(subject.body_b),
            tuple(np.asarray(subject.normal, dtype=float).tolist()),
            tuple(map(tuple, np.asarray(subject.points, dtype=float).tolist())),
            float(subject.depth),
            float(subject.normal_impulse),
            float(subject.tangent_impulse),
        )
    assert isinstance(subject, SensorOverlap)
    return (name, id(subject.sensor), id(subject.other))


class Recorder:
    """Registers a handler on every post-step event and keeps what they receive per step.

    ``alive`` records, per event, whether both bodies were still in the world when the
    handler ran (snapshotted before any later handler can act).
    """

    def __init__(self, world: World):
        self.world = world
        self.current: list = []
        for name in POST_STEP_EVENTS:
            world.on(name, self._make(name))

    def _make(self, name):
        def record(subject):
            alive = all(body.world is not None for body in bodies_of(subject))
            self.current.append((name, subject, alive))

        record.__name__ = f"record_{name}"
        return record

    def take(self) -> list:
        out, self.current = self.current, []
        return out


# --------------------------------------------------------------------------- timing


def test_handlers_see_the_final_arrays_of_the_step():
    world, ground = ground_world()
    box = world.add_body(Box(1, 1), position=(0.3, 2.0), angle=0.2)
    seen = []

    @world.on("contact_begin")
    def snapshot(contact):
        seen.append(
            {
                "a": contact.body_a.position,
                "b": contact.body_b.position,
                "box_velocity": box.velocity,
                "box_angle": box.angle,
                "positions": np.array(world.positions, copy=True),
                "velocities": np.array(world.velocities, copy=True),
                "angles": np.array(world.angles, copy=True),
                "time": world.time,
            }
        )

    steps_taken = 0
    while not seen and steps_taken < 300:
        world.step()
        steps_taken += 1
    assert len(seen) == 1, "the box never touched the ground"
    got = seen[0]
    # Inside the handler everything already equals what the world shows after step().
    np.testing.assert_array_equal(got["positions"], world.positions)
    np.testing.assert_array_equal(got["velocities"], world.velocities)
    np.testing.assert_array_equal(got["angles"], world.angles)
    assert got["time"] == world.time == steps_taken * world.dt
    assert {tuple(got["a"]), tuple(got["b"])} == {tuple(ground.position), tuple(box.position)}
    np.testing.assert_array_equal(got["box_velocity"], box.velocity)
    assert got["box_angle"] == box.angle


def test_begin_once_then_persist_every_step_then_end_once_after_lifting():
    world, ground = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 3))
    recorder = Recorder(world)

    per_step = []
    for _ in range(150):  # falls 2.5 m in ~0.7 s, then rests
        world.step()
        per_step.append(recorder.take())

    names = [[name for name, _, _ in step] for step in per_step]
    begins = [i for i, step in enumerate(names) if "contact_begin" in step]
    assert len(begins) == 1, names
    first = begins[0]
    assert all(step == [] for step in names[:first])
    assert names[first] == ["contact_begin"]
    # Persist on every following step while resting, one per step, nothing else.
    assert all(step == ["contact_persist"] for step in names[first + 1 :])
    for step in per_step[first:]:
        (_, contact, alive) = step[0]
        assert alive and pair(contact) == {id(ground), id(box)}
    assert box.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)

    # Lift the box well clear: the very next step ends the contact, and only that.
    box.position = (0.0, 5.0)
    box.velocity = (0.0, 0.0)
    world.step()
    ended = recorder.take()
    assert [name for name, _, _ in ended] == ["contact_end"]
    assert pair(ended[0][1]) == {id(ground), id(box)}
    assert world.contacts == []
    # While it is in the air nothing more happens ...
    for _ in range(30):  # 30 steps fall 1.3 m from 4.5 m above the ground
        world.step()
        assert recorder.take() == []
    # ... and when it lands again a new contact begins.
    run(world, 120)
    again = [name for name, _, _ in recorder.take()]
    assert again.count("contact_begin") == 1 and "contact_end" not in again


def test_contact_reports_bodies_normal_points_and_depth_of_a_resting_box():
    world, ground = ground_world()
    box = world.add_body(Box(2, 1), position=(1.0, 0.6))
    run(world, 120)
    (contact,) = world.contacts
    assert {id(contact.body_a), id(contact.body_b)} == {id(ground), id(box)}
    normal = np.asarray(contact.normal)
    assert normal.shape == (2,)
    assert np.linalg.norm(normal) == pytest.approx(1.0, abs=1e-12)
    # From A towards B: up if the ground is A, down if the box is A.
    direction = contact.body_b.position - contact.body_a.position
    assert float(normal @ direction) > 0.0
    np.testing.assert_allclose(np.abs(normal), [0.0, 1.0], atol=1e-9)
    # The box's bottom face on the ground's top face: points at y ~ 0, spanning x in [0, 2].
    points = np.asarray(contact.points)
    assert points.ndim == 2 and points.shape[1] == 2 and 1 <= len(points) <= 2
    np.testing.assert_allclose(points[:, 1], 0.0, atol=2 * SLOP)
    assert np.all(points[:, 0] >= -1e-6) and np.all(points[:, 0] <= 2.0 + 1e-6)
    assert 0.0 <= contact.depth <= 2 * SLOP


@pytest.mark.parametrize(
    "shape, density",
    [(Box(1, 1), 1.0), (Box(2, 0.5), 3.0), (Box(0.4, 0.8), 0.5), (Circle(0.5), 2.0)],
    ids=["unit-box", "heavy-plank", "light-tall-box", "disc"],
)
@pytest.mark.parametrize("dt", [1 / 60, 1 / 120])
def test_resting_normal_impulse_cancels_gravity_over_one_step(shape, density, dt):
    world, _ = ground_world(dt=dt)
    half_height = 0.5 if isinstance(shape, Circle) else shape.height / 2
    body = world.add_body(shape, position=(0, half_height + 0.2), density=density)
    run(world, round(2.0 / dt))
    (contact,) = world.contacts
    expected = body.mass * G * dt  # the impulse gravity gives the body in one step
    assert contact.normal_impulse == pytest.approx(expected, rel=1e-9)
    assert abs(contact.tangent_impulse) <= 1e-3 * expected


def test_a_compound_body_on_the_ground_is_one_contact_carrying_its_whole_weight():
    world, ground = ground_world()
    # Two separate 1 x 0.4 feet (both on the ground) and a post on the left one: three parts.
    # Centre of mass at local (-0.2, 0.7 / 3), so the feet's bottoms are 0.7/3 + 0.2 below it.
    parts = [
        Box(1, 0.4, offset=(-0.6, 0.0)),
        Box(1, 0.4, offset=(0.6, 0.0)),
        Box(0.4, 1.0, offset=(-0.6, 0.7)),
    ]
    table = world.add_body(parts, position=(0, 0.45))
    run(world, 120)
    assert table.position[1] == pytest.approx(0.2 + 0.7 / 3, abs=SLOP + 1e-3)
    (contact,) = world.contacts  # one per body pair, however many parts touch
    assert {id(contact.body_a), id(contact.body_b)} == {id(ground), id(table)}
    # Points from both feet: some left of the gap between them, some right of it.
    xs = np.asarray(contact.points)[:, 0] - table.position[0]
    assert np.any(xs < -0.2 - 0.05) and np.any(xs > -0.2 + 0.05)
    assert contact.normal_impulse == pytest.approx(table.mass * G * DT, rel=1e-9)


@pytest.mark.parametrize("theta_deg", [10.0, 20.0])
def test_box_held_on_a_ramp_by_friction_splits_gravity_into_normal_and_tangent(theta_deg):
    theta = math.radians(theta_deg)
    world = World()
    world.add_body(Box(20, 1), position=(0, 0), angle=theta, kind="static")
    # Sit the box on the ramp's top face: 0.5 + 0.5 along the ramp's normal.
    normal = np.array([-math.sin(theta), math.cos(theta)])
    box = world.add_body(Box(1, 1), position=tuple(1.0 * normal), angle=theta)
    run(world, 120)
    assert np.linalg.norm(box.velocity) < 1e-3, "friction (mu 0.6 > tan theta) must hold it"
    (contact,) = world.contacts
    weight_impulse = box.mass * G * DT
    assert contact.normal_impulse == pytest.approx(weight_impulse * math.cos(theta), rel=1e-9)
    assert abs(contact.tangent_impulse) == pytest.approx(weight_impulse * math.sin(theta), rel=1e-9)
    np.testing.assert_allclose(np.abs(contact.normal), np.abs(normal), atol=1e-6)


def test_world_events_lists_what_the_handlers_received_in_a_busy_scene():
    world, ground = ground_world()
    rng = np.random.default_rng(7)
    bodies = []
    for i in range(12):
        shape = Box(0.6, 0.6) if i % 2 else Circle(0.3)
        bodies.append(world.add_body(shape, position=(rng.uniform(-3, 3), 1 + 0.8 * i)))
    zone = world.add_body(Box(3, 1), position=(0, 2.5), kind="static", sensor=True)
    recorder = Recorder(world)
    seen_names = Counter()
    for k in range(240):
        if k == 150:  # throw two bodies back up so that contacts end and sensors fire
            for body in bodies[:2]:
                body.velocity = (0.0, 8.0)
        world.step()
        received = recorder.take()
        polled = world.events
        assert all(isinstance(event, Event) for event in polled)
        assert Counter(signature(name, subject) for name, subject, _ in received) == Counter(
            signature(event.name, event.subject) for event in polled
        )
        seen_names.update(event.name for event in polled)
        # A sensor is never a contact, and world.contacts is one entry per touching pair.
        contact_pairs = [pair(contact) for contact in world.contacts]
        assert len(contact_pairs) == len(set(contact_pairs))
        assert all(id(zone) not in p for p in contact_pairs)
    # The scene must actually have exercised every post-step event.
    assert all(seen_names[name] > 0 for name in POST_STEP_EVENTS), seen_names


@settings(max_examples=8)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(2, 10),
    lift_step=st.integers(30, 120),
)
def test_contact_events_follow_begin_persist_end_and_agree_with_world_contacts(
    seed, count, lift_step
):
    """Per body pair: begin only when not touching, persist/end only when touching; the
    touching pairs after each step are exactly world.contacts, with identical data."""
    world, _ = ground_world()
    rng = np.random.default_rng(seed)
    bodies = []
    for i in range(count):
        if rng.random() < 0.5:
            shape = Box(rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0))
        else:
            shape = Circle(rng.uniform(0.2, 0.5))
        position = (rng.uniform(-2, 2), rng.uniform(0.6, 4.0) + 0.8 * i)
        bodies.append(world.add_body(shape, position=position, angle=rng.uniform(-1, 1)))
    recorder = Recorder(world)
    touching: dict = {}
    for k in range(150):
        if k == lift_step:
            for body in bodies[::2]:
                body.position = body.position + (0.0, 6.0)
                body.velocity = (0.0, 0.0)
        world.step()
        for name, contact, _ in recorder.take():
            if not name.startswith("contact"):
                continue
            key = pair(contact)
            if name == "contact_begin":
                assert key not in touching, "begin for a pair already touching"
                touching[key] = contact
            elif name == "contact_persist":
                assert key in touching, "persist for a pair that never began"
                touching[key] = contact
            else:
                assert key in touching, "end for a pair that was not touching"
                del touching[key]
        current = {pair(contact): contact for contact in world.contacts}
        assert current.keys() == touching.keys()
        for key, contact in current.items():
            assert signature("c", contact) == signature("c", touching[key])


# --------------------------------------------------------------------------- handlers


def test_registration_by_decorator_and_direct_call_and_off():
    world, ground = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 0.5))
    calls = []

    @world.on("contact_persist")
    def decorated(contact):
        calls.append("decorated")

    assert callable(decorated)  # the decorator hands the function back

    def direct(contact):
        calls.append("direct")

    world.on("contact_persist", direct)
    run(world, 3)
    # Order registered, once per step per handler (the first step is the begin).
    assert calls == ["decorated", "direct"] * 2
    world.off("contact_persist", decorated)
    calls.clear()
    run(world, 2)
    assert calls == ["direct", "direct"]
    world.off("contact_persist", direct)
    calls.clear()
    run(world, 2)
    assert calls == []
    with pytest.raises(ValueError):
        world.off("contact_persist", direct)  # no longer registered
    assert box.world is world and ground.world is world


@pytest.mark.parametrize("name", ["contact_start", "Contact_begin", "collision", "", "presolve "])
def test_unknown_event_names_are_rejected_naming_the_event(name):
    world, _ = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 0.6))
    before = np.array(world.positions, copy=True)
    calls = []
    with pytest.raises(ValueError, match=re.escape(name) or "''"):
        world.on(name, calls.append)
    with pytest.raises(ValueError, match=re.escape(name) or "''"):
        world.on(name)
    with pytest.raises(ValueError, match=re.escape(name) or "''"):
        world.off(name, calls.append)
    # Nothing registered, nothing changed.
    assert len(world.bodies) == 2
    np.testing.assert_array_equal(world.positions, before)
    run(world, 30)  # the box lands: every real event fires, and calls stays empty
    assert box.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)
    assert world.contacts and calls == []


@pytest.mark.parametrize(
    "handler", [3, "print", [print], 1.5, object()], ids=["3", "str", "list", "1.5", "object"]
)
def test_non_callable_handlers_are_rejected_with_type_error(handler):
    world, _ = ground_world()
    world.add_body(Box(1, 1), position=(0, 0.5))
    before = np.array(world.positions, copy=True)
    with pytest.raises(TypeError):
        world.on("contact_begin", handler)
    with pytest.raises(TypeError):
        world.on("sensor_end")(handler)
    assert len(world.bodies) == 2
    np.testing.assert_array_equal(world.positions, before)
    run(world, 2)  # nothing bad was registered: stepping dispatches fine


def twin_worlds():
    """Two identical worlds: a box about to land on the ground."""
    out = []
    for _ in range(2):
        world, ground = ground_world()
        box = world.add_body(Box(1, 1), position=(0.2, 0.503), velocity=(0.5, -1.0))
        out.append((world, ground, box))
    return out


def test_a_raising_handler_completes_the_step_propagates_handler_error_and_world_goes_on():
    (world, _, box), (twin, _, twin_box) = twin_worlds()
    state = {"raised": 0, "after": 0}

    def explode_on_landing(contact):
        state["raised"] += 1
        raise KeyError("boom")

    def later_handler(contact):
        state["after"] += 1

    world.on("contact_begin", explode_on_landing)
    world.on("contact_persist", later_handler)
    with pytest.raises(HandlerError) as caught:
        world.step()
    twin.step()
    error = caught.value
    assert isinstance(error, RuntimeError)
    assert "explode_on_landing" in str(error)
    assert isinstance(error.__cause__, KeyError)
    # The step had completed: time advanced and the arrays are the twin's, bit for bit.
    assert world.time == twin.time == world.dt
    np.testing.assert_array_equal(world.positions, twin.positions)
    np.testing.assert_array_equal(world.velocities, twin.velocities)
    np.testing.assert_array_equal(world.angles, twin.angles)
    assert world.contacts and len(world.contacts) == len(twin.contacts)
    # The world keeps working: the next steps run handlers and match the twin.
    for _ in range(30):
        world.step()
        twin.step()
    assert state == {"raised": 1, "after": 30}
    np.testing.assert_array_equal(world.positions, twin.positions)
    assert world.time == pytest.approx(31 * DT)
    assert box.position[1] == pytest.approx(0.5, abs=2 * SLOP)
    assert twin_box.position[1] == box.position[1]


def test_a_raising_sensor_handler_is_a_handler_error_too():
    world = World()
    zone = world.add_body(Box(2, 2), position=(0, 0), kind="static", sensor=True)
    world.add_body(Box(0.5, 0.5), position=(0, 1.2))

    def grumpy_zone(overlap):
        raise ValueError("no entry")

    world.on("sensor_begin", grumpy_zone)
    time_before = world.time
    with pytest.raises(HandlerError, match="grumpy_zone"):
        for _ in range(60):
            world.step()
    assert world.time > time_before
    assert zone.world is world
    world.off("sensor_begin", grumpy_zone)
    run(world, 60)
    assert np.all(np.isfinite(world.positions))


def test_a_raising_presolve_handler_also_leaves_a_completed_step():
    """The contract for every handler: the step is complete when HandlerError propagates."""
    (world, _, _), (twin, _, _) = twin_worlds()

    def bad_filter(contact):
        raise ZeroDivisionError("oops")

    world.on("presolve", bad_filter)
    with pytest.raises(HandlerError, match="bad_filter"):
        world.step()
    world.off("presolve", bad_filter)
    twin.step()
    assert world.time == twin.time, "the step was abandoned half way"
    np.testing.assert_array_equal(world.positions, twin.positions)
    np.testing.assert_array_equal(world.velocities, twin.velocities)
    # The world keeps working: next steps match the twin and handlers run again.
    persisted = []
    world.on("contact_persist", persisted.append)
    for _ in range(5):
        world.step()
        twin.step()
    np.testing.assert_array_equal(world.positions, twin.positions)
    assert len(persisted) == 5


# --------------------------------------------------------------------------- adding and removing


def test_pickup_sensor_removed_in_its_own_sensor_begin_handler():
    world, _ = ground_world()
    coins = [
        world.add_body(Circle(0.2), position=(x, 0.5), kind="static", sensor=True)
        for x in (1.0, 2.0, 3.0, 4.0)
    ]
    player = world.add_body(
        Box(0.6, 0.8), position=(0.0, 0.45), velocity=(3.0, 0.0), kind="kinematic"
    )
    collected = []
    violations = []

    @world.on("sensor_begin")
    def pick_up(overlap):
        if overlap.sensor.world is None or overlap.other.world is None:
            violations.append(overlap)
        if overlap.other is player and overlap.sensor in coins:
            collected.append(overlap.sensor)
            world.remove(overlap.sensor)

    for _ in range(120):  # 2 s at 3 m/s: the player passes every coin
        world.step()
        assert len(world.bodies) == len(world.positions) == len(world.velocities)
    assert violations == []
    assert [id(c) for c in collected] == [id(c) for c in coins]  # each once, in order
    assert all(coin.world is None for coin in coins)
    assert world.bodies == [world.bodies[0], player]
    # The kinematic player was never pushed: it moved at its velocity throughout.
    assert player.position[0] == pytest.approx(120 * DT * 3.0, abs=1e-9)


def test_body_removed_by_a_handler_is_skipped_for_the_rest_of_the_dispatch():
    """Two players touch one coin in the same step: the coin is collected exactly once."""
    world = World(gravity=(0, 0))
    coin = world.add_body(Circle(0.3), position=(0, 0), kind="static", sensor=True)
    left = world.add_body(Box(0.5, 0.5), position=(-0.4, 0), kind="kinematic")
    right = world.add_body(Box(0.5, 0.5), position=(0.4, 0), kind="kinematic")
    received = []

    @world.on("sensor_begin")
    def collect(overlap):
        received.append((overlap.sensor.world is not None, overlap.other.world is not None))
        world.remove(overlap.sensor)  # a second call would raise: already removed

    world.step()
    assert received == [(True, True)]
    assert coin.world is None
    assert world.bodies == [left, right]
    assert len(world.positions) == 2
    run(world, 5)


def test_a_second_handler_of_the_same_event_does_not_see_a_body_the_first_removed():
    world = World(gravity=(0, 0))
    coin = world.add_body(Circle(0.3), position=(0, 0), kind="static", sensor=True)
    world.add_body(Box(0.5, 0.5), position=(0.4, 0), kind="kinematic")
    seen_by_second = []

    @world.on("sensor_begin")
    def first_collects(overlap):
        world.remove(overlap.sensor)

    @world.on("sensor_begin")
    def second_sparkles(overlap):
        # (Reading a removed body's position would raise: game code would crash here.)
        seen_by_second.append(overlap.sensor.world is not None)

    world.step()
    assert coin.world is None
    assert all(seen_by_second), "a later handler was handed a removed body"


def test_ball_spawns_a_body_on_contact_and_it_takes_part_from_the_next_step():
    world, ground = ground_world()
    ball = world.add_body(Circle(0.5), position=(0, 3), restitution=0.0)
    spawned = []

    @world.on("contact_begin")
    def spawn(contact):
        if ball in (contact.body_a, contact.body_b) and not spawned:
            spawned.append(world.add_body(Box(0.4, 0.4), position=(0.0, 2.0)))
            # Inside the handler the new body is there and consistent.
            assert len(world.bodies) == len(world.positions) == 3

    steps_taken = 0
    while not spawned and steps_taken < 200:
        world.step()
        steps_taken += 1
    assert spawned
    new = spawned[0]
    np.testing.assert_array_equal(new.position, [0.0, 2.0])
    assert world.bodies == [ground, ball, new]
    # Next step it is an ordinary body: it free-falls one step exactly, on its parabola.
    world.step()
    assert new.velocity[1] == pytest.approx(-G * DT, rel=1e-12)
    assert new.position[1] == pytest.approx(2.0 - G * DT * DT / 2, rel=1e-12)
    # ... and lands on the ball, which rests on the ground.
    run(world, 180)
    assert ball.position[1] == pytest.approx(0.5, abs=2 * SLOP)
    assert new.position[1] == pytest.approx(1.2, abs=3 * SLOP)
    assert abs(new.position[0]) < 0.3


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(8, 30))
def test_removing_and_spawning_inside_handlers_in_a_busy_scene(seed, count):
    world, ground = ground_world()
    rng = np.random.default_rng(seed)
    for i in range(count):
        shape = Box(0.5, 0.5) if rng.random() < 0.5 else Circle(0.25)
        world.add_body(shape, position=(rng.uniform(-4, 4), 0.4 + 0.6 * i))
    world.add_body(Box(6, 1), position=(0, 1.5), kind="static", sensor=True)
    removed: set = set()
    bad = []
    decisions = np.random.default_rng(seed + 1)

    def check_alive(name, subject):
        if not name.endswith("_end") and not all(b.world is world for b in bodies_of(subject)):
            bad.append((name, world.time))

    def on_begin(contact):
        check_alive("contact_begin", contact)
        for body in (contact.body_a, contact.body_b):
            if body is ground or body.world is None:
                continue
            roll = decisions.random()
            if roll < 0.3:
                removed.add(body)
                world.remove(body)
            elif roll < 0.4 and len(world.bodies) < 60:
                world.add_body(Circle(0.2), position=(decisions.uniform(-4, 4), 6.0))

    def on_persist(contact):
        check_alive("contact_persist", contact)
        if decisions.random() < 0.01 and contact.body_b is not ground:
            if contact.body_b.world is not None:
                removed.add(contact.body_b)
                world.remove(contact.body_b)

    def on_sensor(overlap):
        check_alive("sensor_begin", overlap)
        if decisions.random() < 0.2 and overlap.other.world is not None:
            removed.add(overlap.other)
            world.remove(overlap.other)

    world.on("contact_begin", on_begin)
    world.on("contact_persist", on_persist)
    world.on("sensor_begin", on_sensor)
    for _ in range(150):
        gone_before = set(removed)
        world.step()
        assert bad == []
        bodies = world.bodies
        n = len(bodies)
        assert len(world.positions) == len(world.velocities) == len(world.angles) == n
        assert np.all(np.isfinite(world.positions)) and np.all(np.isfinite(world.velocities))
        assert all(body.world is world for body in bodies)
        assert not removed & set(bodies)
        for i, body in enumerate(bodies):  # handles still point at their own rows
            np.testing.assert_array_equal(body.position, world.positions[i])
        # Nothing falls through the ground or gets launched by a stale warm start.
        dynamic = np.array([body.kind == "dynamic" for body in bodies])
        assert np.all(world.positions[dynamic, 1] > -0.1)
        assert np.all(np.abs(world.velocities) < 30.0)
        # Bodies removed before this step show up in no contact and no begin/persist.
        for contact in world.contacts:
            assert not gone_before & {contact.body_a, contact.body_b}
        for event in world.events:
            if not event.name.endswith("_end"):
                assert not gone_before & set(bodies_of(event.subject))
    assert removed, "the scene should have removed something"


def _free_fall_scene(extra: int):
    """Ground, a box resting on it (so presolve runs), ``extra`` free-falling boxes far away."""
    world, ground = ground_world()
    resting = world.add_body(Box(1, 1), position=(0, 0.5))
    fallers = [world.add_body(Box(0.5, 0.5), position=(30 + 2 * i, 20 + i)) for i in range(extra)]
    return world, ground, resting, fallers


@pytest.mark.parametrize("where", ["presolve", "contact_persist"])
def test_removing_a_body_inside_a_handler_keeps_every_other_body_on_its_own_row(where):
    world, _, _, fallers = _free_fall_scene(6)
    twin, _, _, twin_fallers = _free_fall_scene(6)
    run(world, 5)
    run(twin, 5)
    victim, twin_victim = fallers[1], twin_fallers[1]
    done = []

    def remove_victim(contact):
        if not done:
            done.append(True)
            world.remove(victim)

    world.on(where, remove_victim)
    twin.remove(twin_victim)  # the twin simply loses it before the step
    world.step()
    twin.step()
    assert done and victim.world is None
    assert len(world.bodies) == len(world.positions) == len(twin.bodies)
    # Free fall does not depend on the victim: every other faller matches its twin exactly.
    for body, twin_body in zip(fallers, twin_fallers):
        if body is victim:
            continue
        np.testing.assert_array_equal(body.position, twin_body.position)
        np.testing.assert_array_equal(body.velocity, twin_body.velocity)
    np.testing.assert_array_equal(world.positions, twin.positions)
    run(world, 3)
    run(twin, 3)
    np.testing.assert_array_equal(world.positions, twin.positions)


@pytest.mark.parametrize("where", ["presolve", "contact_persist"])
def test_adding_a_body_inside_a_handler_does_not_lose_the_step(where):
    # 2 + 14 = 16 bodies: adding one more grows the storage.
    world, _, resting, fallers = _free_fall_scene(14)
    twin, _, twin_resting, twin_fallers = _free_fall_scene(14)
    run(world, 5)
    run(twin, 5)
    added = []

    def spawn(contact):
        if not added:
            added.append(world.add_body(Circle(0.3), position=(-10.0, 10.0)))

    world.on(where, spawn)
    world.step()
    twin.step()
    assert len(added) == 1 and len(world.bodies) == len(world.positions) == 17
    assert world.time == twin.time
    for body, twin_body in zip([resting, *fallers], [twin_resting, *twin_fallers]):
        np.testing.assert_array_equal(body.position, twin_body.position)
        np.testing.assert_array_equal(body.velocity, twin_body.velocity)
    # The new body is where it was put and free-falls from the next step on.
    assert added[0].position[1] <= 10.0
    before = added[0].position[1]
    world.step()
    assert added[0].position[1] < before


# --------------------------------------------------------------------------- presolve


def one_way_scene():
    world, ground = ground_world()
    platform = world.add_body(Box(6, 0.2), position=(0, 3.0), kind="static")
    platform_top = 3.1
    # rises 9^2 / (2 g) = 4.1 m: its bottom clears the platform top by ~1 m.
    jumper = world.add_body(Box(1, 1), position=(-1.5, 0.5), velocity=(0.0, 9.0))
    stayer = world.add_body(Box(1, 1), position=(1.5, 0.5))
    return world, ground, platform, platform_top, jumper, stayer


def test_one_way_platform_lets_a_jumper_through_from_below_and_holds_it_on_landing():
    world, ground, platform, top, jumper, stayer = one_way_scene()
    decisions = []

    @world.on("presolve")
    def one_way(contact):
        assert isinstance(contact, Contact)
        if platform not in (contact.body_a, contact.body_b):
            return True
        other = contact.body_b if contact.body_a is platform else contact.body_a
        bottom = other.position[1] - 0.5
        moving_up = other.velocity[1] > 0.0
        below = bottom < top - 0.05
        decisions.append(not (moving_up or below))
        return False if (moving_up or below) else True

    heights = []
    for _ in range(240):
        world.step()
        heights.append(jumper.position[1])
    apex = max(heights)
    assert apex == pytest.approx(0.5 + 81 / (2 * G), abs=0.1), "the platform slowed the jump"
    assert False in decisions and True in decisions  # it was ignored, then kept
    assert jumper.position[1] == pytest.approx(top + 0.5, abs=SLOP + 1e-3)
    assert abs(jumper.velocity[1]) < 0.05
    assert stayer.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)
    touching = {pair(contact) for contact in world.contacts}
    assert touching == {
        frozenset((id(platform), id(jumper))),
        frozenset((id(ground), id(stayer))),
    }


def test_presolve_returning_false_lets_the_body_fall_through_as_if_the_floor_were_absent():
    world, ground = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 2))
    free = World()
    free_box = free.add_body(Box(1, 1), position=(0, 2))
    asked = []

    @world.on("presolve")
    def ignore_everything(contact):
        asked.append(pair(contact))
        return False

    for _ in range(60):
        world.step()
        free.step()
        np.testing.assert_array_equal(box.position, free_box.position)
    assert asked and set(asked) == {frozenset((id(ground), id(box)))}
    assert box.position[1] < -1.0
    assert world.contacts == []


def test_presolve_returning_none_or_true_keeps_the_contact():
    world, _ = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 2))
    world.on("presolve", lambda contact: None)
    world.on("presolve", lambda contact: True)
    run(world, 120)
    assert box.position[1] == pytest.approx(0.5, abs=2 * SLOP)


def test_presolve_decision_is_per_step():
    """Ignore the floor for 10 steps once the box rests: it sinks, then is pushed back."""
    world, _ = ground_world()
    box = world.add_body(Box(1, 1), position=(0, 0.5))
    run(world, 30)
    ignore = {"steps": 10}

    @world.on("presolve")
    def trapdoor(contact):
        if ignore["steps"] > 0:
            ignore["steps"] -= 1
            return False
        return True

    run(world, 10)
    # 10 steps of free fall from rest, on the parabola: g (10 dt)^2 / 2 = 50 g dt^2.
    assert box.position[1] == pytest.approx(0.5 - 50 * G * DT * DT, abs=SLOP + 1e-3)
    run(world, 120)
    assert box.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)


# --------------------------------------------------------------------------- sensors


def falling_through_zone(with_sensor: bool):
    world = World()
    box = world.add_body(Box(1, 1), position=(0.3, 4.0), angle=0.1, angular_velocity=0.5)
    zone = None
    if with_sensor:
        zone = world.add_body(Box(4, 1), position=(0, 0), kind="static", sensor=True)
    return world, box, zone


def test_box_falls_through_a_sensor_zone_exactly_as_in_free_fall_with_one_begin_and_end():
    world, box, zone = falling_through_zone(True)
    free, free_box, _ = falling_through_zone(False)
    recorder = Recorder(world)
    log = []
    overlapping = []
    for k in range(90):  # 1.5 s: falls 11 m, right through the zone at y in [-0.5, 0.5]
        world.step()
        free.step()
        np.testing.assert_array_equal(box.position, free_box.position)
        np.testing.assert_array_equal(box.velocity, free_box.velocity)
        assert box.angle == free_box.angle
        assert box.angular_velocity == free_box.angular_velocity
        log += [(k, name, subject) for name, subject, _ in recorder.take()]
        # The zone spans the box's whole x range, so they overlap exactly when the box's
        # y extent (half height 0.5 (|cos a| + |sin a|) when turned by a) meets [-0.5, 0.5].
        a = box.angle
        half = 0.5 * (abs(math.cos(a)) + abs(math.sin(a)))
        overlapping.append(abs(box.position[1]) < 0.5 + half)
        assert world.contacts == []
    names = [name for _, name, _ in log]
    assert names == ["sensor_begin", "sensor_end"]
    for _, _, subject in log:
        assert isinstance(subject, SensorOverlap)
        assert subject.sensor is zone and subject.other is box
    begin_step, end_step = log[0][0], log[1][0]
    first_in = overlapping.index(True)
    first_out = overlapping.index(False, first_in)
    assert all(overlapping[first_in:first_out]) and not any(overlapping[first_out:])
    # Raised when the box enters and leaves, at most one step after the positions show it.
    assert first_in <= begin_step <= first_in + 1
    assert first_out <= end_step <= first_out + 1


def test_kinematic_character_walks_through_a_static_pickup_zone_unhindered():
    def scene(with_pickup):
        world = World()
        pickup = None
        if with_pickup:
            pickup = world.add_body(Box(1, 1), position=(3, 1), kind="static", sensor=True)
        hero = world.add_body(Box(0.5, 1.8), position=(0, 1), velocity=(2.0, 0.0), kind="kinematic")
        return world, pickup, hero

    world, pickup, hero = scene(True)
    plain, _, plain_hero = scene(False)
    recorder = Recorder(world)
    events = []
    for _ in range(180):  # 3 s at 2 m/s: from x = 0 to 6, through the pickup at 3
        world.step()
        plain.step()
        events += recorder.take()
        np.testing.assert_array_equal(hero.position, plain_hero.position)
        assert world.contacts == []
    assert [name for name, _, _ in events] == ["sensor_begin", "sensor_end"]
    assert all(s.sensor is pickup and s.other is hero for _, s, _ in events)


def test_a_sensor_never_appears_in_world_contacts_even_when_resting_bodies_are_inside():
    world, ground = ground_world()
    zone = world.add_body(Box(6, 3), position=(0, 1), kind="static", sensor=True)
    boxes = [world.add_body(Box(1, 1), position=(x, 0.5)) for x in (-2, 0, 2)]
    recorder = Recorder(world)
    sensed = set()
    for _ in range(60):
        world.step()
        for contact in world.contacts:
            assert zone not in (contact.body_a, contact.body_b)
        for name, subject, _ in recorder.take():
            if name.startswith("contact"):
                assert zone not in (subject.body_a, subject.body_b)
            else:
                assert subject.sensor is zone
                sensed.add(id(subject.other))
    assert {id(b) for b in boxes} <= sensed
    assert {pair(c) for c in world.contacts} == {frozenset((id(ground), id(b))) for b in boxes}


def test_a_dynamic_sensor_falls_through_the_ground_and_reports_it():
    world, ground = ground_world()
    probe = world.add_body(Box(0.5, 0.5), position=(0, 1), sensor=True)
    recorder = Recorder(world)
    events = []
    for _ in range(90):
        world.step()
        events += [(name, subject) for name, subject, _ in recorder.take()]
        assert world.contacts == []
    assert probe.position[1] < -2.0  # went right through
    assert [name for name, _ in events] == ["sensor_begin", "sensor_end"]
    assert all(s.sensor is probe and s.other is ground for _, s in events)


@pytest.mark.parametrize("rest_steps", [10, 120], ids=["just-landed", "long-at-rest"])
def test_switching_a_body_to_sensor_and_back_takes_effect_from_the_next_step(rest_steps):
    """Whether the box has rested a moment or for a long while (long enough for the engine
    to stop simulating it), removing its support by making it a sensor must drop it."""
    world, ground = ground_world()
    block = world.add_body(Box(2, 1), position=(0, 2.5), kind="static")  # top at 3
    box = world.add_body(Box(1, 1), position=(0, 3.5))
    recorder = Recorder(world)
    run(world, rest_steps)
    recorder.take()
    assert box.position[1] == pytest.approx(3.5, abs=SLOP + 1e-3)
    assert block.sensor is False

    block.sensor = True
    assert block.sensor is True
    assert box.position[1] == pytest.approx(3.5, abs=SLOP + 1e-3)  # nothing moves yet
    world.step()
    names = sorted(name for name, _, _ in recorder.take())
    assert names == ["contact_end", "sensor_begin"]
    run(world, 40)  # drops ~2.2 m: through the block, which no longer holds it
    assert box.position[1] < 2.0
    assert all(block not in (c.body_a, c.body_b) for c in world.contacts)

    # Back to solid for a second box dropped onto it later.
    world.remove(box)
    block.sensor = False
    second = world.add_body(Box(1, 1), position=(0, 5))
    run(world, 120)
    assert second.position[1] == pytest.approx(3.5, abs=SLOP + 1e-3)
    with pytest.raises(TypeError):
        block.sensor = 1
    assert block.sensor is False


def test_a_body_made_a_sensor_passes_through_and_made_solid_again_lands():
    world, ground = ground_world()
    block = world.add_body(Box(2, 1), position=(0, 2.5), kind="static")  # from y = 2 to 3
    box = world.add_body(Box(1, 1), position=(0, 3.5))
    recorder = Recorder(world)
    run(world, 120)
    recorder.take()
    box.sensor = True
    world.step()
    got = recorder.take()
    assert sorted(name for name, _, _ in got) == ["contact_end", "sensor_begin"]
    (overlap,) = [subject for name, subject, _ in got if name == "sensor_begin"]
    assert overlap.sensor is box and overlap.other is block
    steps_taken = 0
    while box.position[1] > 1.2 and steps_taken < 120:  # below the block, above the ground
        world.step()
        steps_taken += 1
    assert box.position[1] <= 1.2
    assert [name for name, _, _ in recorder.take()] == ["sensor_end"]
    box.sensor = False
    run(world, 90)
    assert box.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)
    assert {pair(c) for c in world.contacts} == {frozenset((id(ground), id(box)))}
