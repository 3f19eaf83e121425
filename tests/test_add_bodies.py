"""Batches of bodies: ``add_bodies`` and ``remove_bodies`` against one body at a time.

A batch must leave the world that the same bodies added (or removed) one at a time, in
order, leave: asserted bitwise on the world's saved state (every array and header field of
a snapshot), right after the call and after stepping both worlds. A bad batch must change
nothing at all, and its error names the argument (and, for per-body arrays, the body).
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import add_ground, hexagon, run
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, ConcavePolygon, RevoluteJoint, Segment, World

NAN, INF = float("nan"), float("inf")

# Shapes a batch draws from: one part or several, of different widths, some with their own
# materials (a density of their own moves the centroid), a concave one, and a segment
# (statics and kinematics only).
CIRCLE = Circle(0.3)
BOX = Box(0.6, 0.4)
HEXAGON = hexagon(0.35)
OWN_MATERIALS = Box(0.5, 0.5, density=3.0, friction=0.1, sensor=False, category=2)
COMPOUND = [Box(0.8, 0.2), Circle(0.15, offset=(0.3, 0.1), density=2.0)]
L_SHAPE = ConcavePolygon([(0, 0), (0.8, 0), (0.8, 0.3), (0.3, 0.3), (0.3, 0.8), (0, 0.8)])
LINE = Segment((-0.5, 0.0), (0.5, 0.0))
SHAPES = [CIRCLE, BOX, HEXAGON, OWN_MATERIALS, COMPOUND, L_SHAPE]


def saved_state(world: World) -> tuple:
    snap = world.snapshot()
    return snap._header, dict(snap._arrays)


def assert_same_state(first: World, second: World) -> None:
    """The two worlds' saved states are equal, bit for bit (NaN never appears)."""
    (header_a, arrays_a), (header_b, arrays_b) = saved_state(first), saved_state(second)
    assert header_a == header_b
    assert arrays_a.keys() == arrays_b.keys()
    for name, array in arrays_a.items():
        other = arrays_b[name]
        assert array.dtype == other.dtype and array.shape == other.shape, name
        assert array.tobytes() == other.tobytes(), name


def scene(broadphase: str = "grid") -> World:
    """A ground and a box resting on it: the batches go into a world already stepped."""
    world = World(broadphase=broadphase)
    add_ground(world)
    world.add_body(Box(1, 1), position=(8, 0.5))
    run(world, 3)
    return world


@st.composite
def batches(draw):
    """(shapes, per-body keyword columns, add_bodies keywords): a random batch of B bodies.

    Each setting is given once for every body or once per body (which, at random); the
    per-body columns hold each body's add_body keywords."""
    count = draw(st.integers(1, 9))
    one_shape = draw(st.booleans())
    kinds = draw(st.lists(st.sampled_from(["dynamic", "static", "kinematic"]),
                          min_size=count, max_size=count))  # fmt: skip
    if one_shape:
        chosen = draw(st.sampled_from(SHAPES))
        shapes_each = [chosen] * count
        shapes_arg = chosen if not isinstance(chosen, list) else [chosen] * count
    else:
        shapes_each = [
            LINE if kind != "dynamic" and draw(st.integers(0, 4)) == 0
            else draw(st.sampled_from(SHAPES))
            for kind in kinds
        ]  # fmt: skip
        shapes_arg = shapes_each
    xs = draw(st.lists(st.floats(-15, 15), min_size=count, max_size=count))
    ys = draw(st.lists(st.floats(0.5, 12), min_size=count, max_size=count))
    finite = st.floats(-3, 3)
    options = {
        "angle": ("angles", finite),
        "velocity": ("velocities", st.tuples(finite, finite)),
        "angular_velocity": ("angular_velocities", finite),
        "density": ("density", st.floats(0.2, 5)),
        "friction": ("friction", st.floats(0, 1)),
        "restitution": ("restitution", st.floats(0, 1)),
        "bullet": ("bullet", st.booleans()),
        "sensor": ("sensor", st.booleans()),
        "fixed_rotation": ("fixed_rotation", st.booleans()),
        "enable_sleep": ("enable_sleep", st.booleans()),
        "category": ("category", st.integers(1, 0xFFFF)),
        "mask": ("mask", st.integers(0, 0xFFFF)),
        "group": ("group", st.integers(-3, 3)),
        "sleep_threshold": ("sleep_threshold", st.floats(0.01, 1)),
        "linear_damping": ("linear_damping", st.floats(0, 2)),
        "angular_damping": ("angular_damping", st.floats(0, 2)),
        "gravity_scale": ("gravity_scale", st.floats(-2, 2)),
        "tag": ("tag", st.sampled_from([None, "crate", "coin"])),
    }
    each = [{"position": (x, y), "kind": kind} for x, y, kind in zip(xs, ys, kinds)]
    keywords = {"kind": kinds if len(set(kinds)) > 1 else kinds[0]}
    for name in draw(st.sets(st.sampled_from(sorted(options)))):
        argument, values = options[name]
        if draw(st.booleans()):  # one value for all
            value = draw(values)
            keywords[argument] = value
            for body in each:
                body[name] = value
        else:
            column = draw(st.lists(values, min_size=count, max_size=count))
            keywords[argument] = (
                column if name in ("velocity", "tag")
                else np.array(column)
            )  # fmt: skip
            for body, value in zip(each, column):
                body[name] = value
    if draw(st.booleans()):
        data = [{"n": i} for i in range(count)]
        keywords["user_data"] = data
        for body, value in zip(each, data):
            body["user_data"] = value
    origin = draw(st.sampled_from(["centroid", "local"]))
    keywords["origin"] = origin
    for body in each:
        body["origin"] = origin
    return shapes_arg, shapes_each, np.column_stack([xs, ys]), each, keywords


@settings(max_examples=60, deadline=None)
@given(batch=batches(), broadphase=st.sampled_from(["grid", "quadtree"]))
def test_a_batch_is_the_same_as_adding_one_by_one(batch, broadphase):
    shapes_arg, shapes_each, positions, each, keywords = batch
    one_by_one, at_once = scene(broadphase), scene(broadphase)
    singles = [one_by_one.add_body(shape, **body) for shape, body in zip(shapes_each, each)]
    handles = at_once.add_bodies(shapes_arg, positions, **keywords)
    assert len(handles) == len(singles)
    for single, handle in zip(singles, handles):
        assert handle.body_id == single.body_id
        assert handle.world is at_once
        assert handle.shapes == single.shapes
        assert handle.tag == single.tag and handle.user_data == single.user_data
    assert_same_state(one_by_one, at_once)
    run(one_by_one, 40)
    run(at_once, 40)
    assert_same_state(one_by_one, at_once)


def test_one_shape_for_a_thousand_bodies_gives_them_the_same_rows():
    world, twin = scene(), scene()
    positions = np.column_stack([np.arange(1000) % 40 - 20.0, 2.0 + np.arange(1000) // 40])
    handles = world.add_bodies(CIRCLE, positions, friction=0.3)
    for position in positions:
        twin.add_body(CIRCLE, position=position, friction=0.3)
    assert [h.body_id for h in handles] == list(range(2, 1002))
    assert_same_state(world, twin)
    run(world, 5)
    run(twin, 5)
    assert_same_state(world, twin)


def test_an_empty_batch_adds_nothing():
    world, twin = scene(), scene()
    assert world.add_bodies(CIRCLE, np.zeros((0, 2))) == []
    assert_same_state(world, twin)


# --------------------------------------------------------------------------- bad batches

# (keyword, bad value for a batch of 4, exception, what the message says)
BAD_BATCHES = [
    ("positions", [(0, 1), (NAN, 1), (2, 1), (3, 1)], ValueError, "positions: must be finite"),
    ("positions", np.ones((4, 3)), ValueError, "positions: expected an array of shape (N, 2)"),
    ("positions", [(0, 1), (2e12, 0), (0, 2), (0, 3)], ValueError, "positions[1]: 2e+12 m"),
    ("positions", "four", TypeError, "positions: expected numbers"),
    ("shapes", "circle", TypeError, "shapes: expected a shape or a list"),
    ("shapes", [CIRCLE, CIRCLE], ValueError, "shapes: expected one entry per body (4)"),
    ("shapes", [CIRCLE, BOX, [], CIRCLE], ValueError, "shapes[2]: a body needs at least"),
    ("shapes", [CIRCLE, BOX, CIRCLE, [BOX, 3]], TypeError, "shapes[3]: expected shapes"),
    ("shapes", [CIRCLE, LINE, BOX, BOX], ValueError, "shapes[1]: a dynamic body needs area"),
    ("angles", [0, 0, INF, 0], ValueError, "angles: must be finite"),
    ("angles", NAN, ValueError, "angles: must be finite, got nan"),
    ("velocities", (2e6, 0), ValueError, "velocities: 2e+06 m/s is more"),
    ("velocities", [(0, 0), (0, 0), (0, 0), (0, 3e6)], ValueError, "velocities[3]: 3e+06"),
    ("angular_velocities", [0, 0, 2e6, 0], ValueError, "angular_velocities[2]: 2e+06 rad/s"),
    ("density", 0.0, ValueError, "density: must be > 0, got 0"),
    ("density", [1, 1, -2, 1], ValueError, "density[2]: must be > 0, got -2"),
    ("density", [1e-320, 1, 1, 1], ValueError, "density[0]: gives these shapes a mass of"),
    ("friction", np.array([0.5, -1, 0.5, 0.5]), ValueError, "friction[1]: must be >= 0, got -1"),
    ("friction", [0.5, 0.5, 0.5], ValueError, "friction: expected an array of shape (4,)"),
    ("friction", True, TypeError, "friction: expected a real number, got bool"),
    ("restitution", [0, 0, 0, 1.5], ValueError, "restitution[3]: must be in [0, 1], got 1.5"),
    ("kind", "wobbly", ValueError, "kind: must be one of"),
    ("kind", ["dynamic", "static", "x", "static"], ValueError, "kind[2]: must be one of"),
    ("bullet", 1, TypeError, "bullet: expected a bool, got int"),
    ("sensor", [True, False, 1, 0], TypeError, "sensor: expected bools"),
    ("category", 0x10000, ValueError, "category: must be a 16-bit value"),
    ("category", [1, 2, 3, 0x10000], ValueError, "category[3]: must be a 16-bit value"),
    ("mask", [1, True, 1, 1], TypeError, "mask: expected ints, got bool"),
    ("mask", np.array([1.0, 2, 3, 4]), TypeError, "mask: expected ints, got an array of float"),
    ("group", [0, 0, 2**40, 0], ValueError, "group[2]: must fit in 32 bits"),
    ("sleep_threshold", [0.1, 0.1, 0.0, 0.1], ValueError, "sleep_threshold[2]: must be > 0"),
    ("linear_damping", -1.0, ValueError, "linear_damping: must be >= 0, got -1"),
    ("angular_damping", [0, 0, 0, NAN], ValueError, "angular_damping: must be finite"),
    ("gravity_scale", [1, 1, 1e4, 1], ValueError, "gravity_scale[2]: must be within +-1000"),
    ("fixed_rotation", np.array([1, 0, 1, 0]), TypeError, "fixed_rotation: expected bools"),
    ("tag", ["a", "", "b", "c"], ValueError, "tag[1]: must not be empty"),
    ("tag", 3, TypeError, "tag: expected one value for every body or a list"),
    ("user_data", ["a", "b"], ValueError, "user_data: expected one entry per body (4), got 2"),
    ("user_data", "abcd", TypeError, "user_data: expected one value for every body or a list"),
    ("origin", "middle", ValueError, "origin: must be 'centroid' or 'local'"),
]


@pytest.mark.parametrize(
    "keyword, value, error, message", BAD_BATCHES, ids=[f"{row[0]}-{i}" for i, row in
                                                        enumerate(BAD_BATCHES)]
)  # fmt: skip
def test_a_bad_batch_adds_nothing_and_names_the_argument(keyword, value, error, message):
    world, twin = scene(), scene()
    arguments = {"shapes": BOX, "positions": [(0, 1), (1, 2), (2, 3), (3, 4)], keyword: value}
    with pytest.raises(error) as raised:
        world.add_bodies(**arguments)
    assert str(raised.value).startswith(message), str(raised.value)
    assert_same_state(world, twin)
    # The next body gets the id it would have had: the refused batch took none.
    assert (
        world.add_body(CIRCLE, position=(0, 5)).body_id
        == twin.add_body(CIRCLE, position=(0, 5)).body_id
    )
    run(world, 20)
    run(twin, 20)
    assert_same_state(world, twin)


def test_one_value_is_refused_with_add_bodys_own_message():
    # A value given once for every body is checked by add_body's own check: same words.
    for keyword, value in (("friction", -1.0), ("category", 1.5), ("density", INF)):
        with pytest.raises((ValueError, TypeError)) as single:
            World().add_body(BOX, **{keyword: value})
        with pytest.raises(type(single.value)) as batch:
            World().add_bodies(BOX, [(0, 0), (1, 1)], **{keyword: value})
        assert str(batch.value) == str(single.value)


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 8),
    keyword=st.sampled_from(["friction", "restitution", "density", "linear_damping"]),
    bad=st.sampled_from([-1.0, NAN, INF, -1e-9]),
    data=st.data(),
)
def test_random_bad_entries_refuse_the_whole_batch(count, keyword, bad, data):
    at = data.draw(st.integers(0, count - 1))
    column = np.full(count, 0.5)
    column[at] = bad
    world, twin = scene(), scene()
    with pytest.raises(ValueError) as raised:
        world.add_bodies(CIRCLE, np.column_stack([np.arange(count), np.ones(count)]),
                         **{keyword: column})  # fmt: skip
    message = str(raised.value)
    assert message.startswith(keyword)
    if np.isfinite(bad):  # a finite value out of range is named with its body
        assert message.startswith(f"{keyword}[{at}]: ")
    assert_same_state(world, twin)


# --------------------------------------------------------------------------- removing many


def resting_scene() -> tuple[World, list]:
    """A ground with two stacks of boxes, a static ledge with a box on it, a pendulum and
    a chain of two jointed bodies, stepped until the stacks sleep (so removing wakes
    islands, those of what the removed bodies touched too, forgets warm-start points and
    drops joints). Returns the world and every body but the ground."""
    world = World()
    add_ground(world)
    bodies = []
    for x in (-3.0, 3.0):
        bodies += [world.add_body(Box(1, 1), position=(x, 0.5 + i)) for i in range(4)]
    bob = world.add_body(Circle(0.2), position=(8, 4))
    world.add_joint(RevoluteJoint(bob, None, anchor=(8, 6)))
    link = world.add_body(Box(0.6, 0.2), position=(-8, 3))
    world.add_joint(RevoluteJoint(link, bob, anchor=(-7.7, 3), collide_connected=True))
    ledge = world.add_body(Box(2, 0.2), position=(12, 4), kind="static")
    parcel = world.add_body(Box(0.5, 0.5), position=(12, 4.35))
    bodies += [bob, link, ledge, parcel]
    run(world, 200)
    return world, bodies


@settings(max_examples=25, deadline=None)
@given(chosen=st.lists(st.integers(0, 11), min_size=1, max_size=12, unique=True))
def test_removing_many_is_the_same_as_removing_one_by_one(chosen):
    one_by_one, bodies_a = resting_scene()
    at_once, bodies_b = resting_scene()
    assert not one_by_one.awake[-1]  # the parcel sleeps: removing its ledge must wake it
    for i in chosen:
        one_by_one.remove(bodies_a[i])
    at_once.remove_bodies([bodies_b[i] for i in chosen])
    assert_same_state(one_by_one, at_once)
    assert all(bodies_b[i].world is None for i in chosen)
    run(one_by_one, 60)
    run(at_once, 60)
    assert_same_state(one_by_one, at_once)


def test_a_batch_added_then_removed_leaves_the_world_as_removing_one_by_one():
    world, twin = scene(), scene()
    positions = np.column_stack([np.linspace(-5, 5, 12), np.full(12, 3.0)])
    added = world.add_bodies([CIRCLE, BOX, HEXAGON] * 4, positions)
    twin_added = twin.add_bodies([CIRCLE, BOX, HEXAGON] * 4, positions)
    run(world, 30)
    run(twin, 30)
    world.remove_bodies(added[::2])
    for body in twin_added[::2]:
        twin.remove(body)
    assert_same_state(world, twin)
    run(world, 30)
    run(twin, 30)
    assert_same_state(world, twin)


def test_a_bad_list_of_bodies_removes_none():
    world, bodies = resting_scene()
    twin, _ = resting_scene()
    other = World().add_body(CIRCLE)
    gone = bodies[1]
    world.remove(gone)
    twin.remove(twin.bodies[2])
    cases = [
        ((bodies[0], "box"), TypeError, "bodies[1]: expected a Body, got str"),
        ((bodies[0], other), ValueError, "bodies[1]: it belongs to another world"),
        ((bodies[3], bodies[4], bodies[3]), ValueError, "bodies[2]: given twice"),
        ((bodies[0], gone), ValueError, "bodies[1]: it has already been removed"),
        (bodies[0], TypeError, "bodies: expected a list of bodies, got Body"),
    ]
    for given_bodies, error, message in cases:
        listed = list(given_bodies) if isinstance(given_bodies, tuple) else given_bodies
        with pytest.raises(error) as raised:
            world.remove_bodies(listed)
        assert str(raised.value) == message
        assert_same_state(world, twin)


def test_batches_during_a_step_wait_for_its_end_like_single_calls():
    # From a presolve handler the step's arrays are in use: both forms are queued, and
    # the world after the step is the same either way.
    def build():
        world = scene()
        return world, world.bodies[1]

    def handler_for(world, crate, batch: bool):
        done = []

        def presolve(contact):
            if done:
                return True
            done.append(True)
            positions = [(-4.0, 3.0), (-2.0, 3.0), (0.0, 3.0)]
            if batch:
                spots, friction = np.array(positions), np.full(3, 0.2)
                added = world.add_bodies(BOX, spots, friction=friction)
                spots[:], friction[:] = 9.0, 0.9  # the queued bodies keep what they were given
                world.remove_bodies([crate, added[1]])
            else:
                added = [world.add_body(BOX, position=p, friction=0.2) for p in positions]
                world.remove(crate)
                world.remove(added[1])
            assert added[0].world is world and added[1].world is None
            return True

        return presolve

    results = []
    for batch in (False, True):
        world, crate = build()
        world.on("presolve", handler_for(world, crate, batch))
        run(world, 1)
        assert crate.world is None and len(world.bodies) == 3  # ground and two added
        run(world, 20)
        results.append(world)
    assert_same_state(*results)
