"""``WorldBatch``: copies of a world stepped in one compiled call, against the World.

The oracle is the World itself: each copy, given the same inputs through the batch as a
world is given through its handles, must end bit for bit where that world stepped alone
ends (every body column the step changes, the joints' impulses, the warm-start cache, the
islands, the touching pairs), whatever the number of threads.
"""

from __future__ import annotations

import copy
import io

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_whole_step import bodies, build

from engine import Box, Circle, DistanceJoint, RevoluteJoint, Segment, World, WorldBatch
from engine.solver_inputs import SOLVER_JOINT_FIELDS
from engine.step_inputs import SOLVE_BODY_FIELDS


def state_of_world(world: World) -> dict:
    """What a step changes in a World, as arrays by name."""
    body = world._bodies.columns()
    joints = world._joints.columns()
    out = {f"body.{name}": body[name].copy() for name in SOLVE_BODY_FIELDS}
    out.update({f"joint.{name}": joints[name].copy() for name in SOLVER_JOINT_FIELDS})
    out["warm.keys"] = world._warm.keys.copy()
    out["warm.normal"] = world._warm.normal.copy()
    out["warm.tangent"] = world._warm.tangent.copy()
    out["touching"] = world._event_log.contact_keys.copy()
    out["next_island"] = np.array(world._bodies.next_island)
    out["steps"] = np.array(world._clock.steps)
    return out


def state_of_copy(batch: WorldBatch, index: int) -> dict:
    """The same arrays of one copy, read from the batch's own arrays."""
    out = {f"body.{name}": column[index] for name, column in batch._body.items()}
    out.update({f"joint.{name}": column[index] for name, column in batch._joints.items()})
    keys, normal, tangent = batch._warms[index]
    out["warm.keys"], out["warm.normal"], out["warm.tangent"] = keys, normal, tangent
    out["touching"] = batch._touching[index]
    out["next_island"] = np.array(batch._next_island[index])
    out["steps"] = np.array(batch._steps[index])
    return out


def step_alike(batch: WorldBatch, worlds: list, steps: int) -> None:
    """Step the batch and each World alone ``steps`` times, then hold copy c to worlds[c]."""
    for _ in range(steps):
        batch.step()
        for world in worlds:
            world.step()
    for c, world in enumerate(worlds):
        assert_same(state_of_copy(batch, c), state_of_world(world), f"copy {c}")


def copies_now(batch: WorldBatch) -> dict:
    """Copies of every copy's state arrays, by copy: what a refused call must leave."""
    return {
        c: {name: np.copy(value) for name, value in state_of_copy(batch, c).items()}
        for c in range(batch.copies)
    }


def assert_same(copy_state: dict, world_state: dict, where: str) -> None:
    assert copy_state.keys() == world_state.keys()
    for name, expected in world_state.items():
        got = copy_state[name]
        assert got.shape == expected.shape, f"{where}: {name} shape"
        assert got.tobytes() == expected.tobytes(), f"{where}: {name} differs"


# Per copy: a velocity written to one body, an impulse at a point on one, a gravity.
inputs = st.lists(
    st.tuples(
        st.integers(0, 8),  # the body written to (taken modulo the bodies)
        st.tuples(st.floats(-6, 6), st.floats(-6, 6)),  # its new velocity
        st.tuples(st.floats(-3, 3), st.floats(-3, 3)),  # an impulse on it
        st.tuples(st.floats(-3, 3), st.floats(-12, 0)),  # gravity
        st.integers(0, 30),  # the step at which they are given
    ),
    min_size=1,
    max_size=3,
)


@pytest.mark.parametrize("threads", [1, 2])
@settings(max_examples=15, deadline=None)
@given(spec=bodies, joints=st.integers(0, 2), sleep=st.booleans(), given_inputs=inputs)
def test_each_copy_steps_as_the_world_alone_bit_for_bit(threads, spec, joints, sleep, given_inputs):
    world = build(spec, joints, sleep)
    count = len(given_inputs)
    batch = WorldBatch(world, count)
    alone = [copy.deepcopy(world) for _ in range(count)]
    rows = len(world.bodies)
    previous = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        for step in range(40):
            for c, (row, velocity, impulse, gravity, when) in enumerate(given_inputs):
                if step != when:
                    continue
                row %= rows
                body = alone[c].bodies[row]
                if body.kind != "static":
                    body.velocity = velocity
                    batch.velocities[c, row] = velocity
                body.apply_impulse(impulse, point=(0.1, 0.2))
                alone[c].gravity = gravity
                every = np.zeros((count, 2))
                every[c] = impulse
                points = np.tile([0.1, 0.2], (count, 1))
                # The other copies get a zero impulse: it wakes their body as a handle's does.
                for other in range(count):
                    if other != c:
                        alone[other].bodies[row].apply_impulse((0.0, 0.0), point=(0.1, 0.2))
                batch.apply_impulse(row, every, points)
                batch.gravity[c] = gravity
            batch.step()
            for world_alone in alone:
                world_alone.step()
    finally:
        numba.set_num_threads(previous)
    for c in range(count):
        assert_same(state_of_copy(batch, c), state_of_world(alone[c]), f"copy {c}")


def pile(seed: int) -> World:
    """Boxes and balls dropped on a ground, with a pendulum: contacts, sleep, a joint."""
    rng = np.random.default_rng(seed)
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    for i in range(8):
        shape = Box(0.6, 0.4) if i % 2 else Circle(0.3)
        world.add_body(shape, position=(rng.uniform(-2, 2), 0.5 + 0.7 * i), angle=rng.uniform(0, 1))
    arm = world.add_body(Box(1.0, 0.1), position=(5.5, 3))
    world.add_joint(RevoluteJoint(arm, None, anchor=(5, 3), lower=-1, upper=1))
    return world


def test_a_long_run_of_copies_ends_where_the_world_alone_ends():
    world = pile(3)
    batch = WorldBatch(world, 3)
    batch.velocities[1, 4] = (2.0, 0.0)
    batch.gravity[2] = (1.0, -5.0)
    alone = [copy.deepcopy(world) for _ in range(3)]
    alone[1].bodies[4].velocity = (2.0, 0.0)
    alone[2].gravity = (1.0, -5.0)
    step_alike(batch, alone, 400)
    assert not batch.awake[0].all(), "some of the pile sleeps"


def test_copies_in_which_nothing_moves_keep_step_with_the_world():
    # Boxes on a ground with a pendulum at rest fall asleep: then nothing can move, and a
    # copy takes the still path (forces cleared, joint impulses rounded, contacts kept).
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    for i in range(4):
        world.add_body(Box(0.6, 0.4), position=(-2 + 1.0 * i, 0.2))
    arm = world.add_body(Box(1.0, 0.1), position=(5.0, 2.45), angle=-np.pi / 2)
    world.add_joint(RevoluteJoint(arm, None, anchor=(5, 3)))
    batch = WorldBatch(world, 2)
    alone = copy.deepcopy(world)
    for _ in range(300):
        batch.step()
        alone.step()
    assert not alone.awake[1:].any(), "everything fell asleep"
    assert not batch.awake[0, 1:].any()
    batch.apply_force(1, np.zeros((2, 2)))  # a force on a sleeper wakes its island only
    alone.bodies[1].apply_force((0.0, 0.0))
    for _ in range(60):
        batch.step()
        alone.step()
    assert_same(state_of_copy(batch, 0), state_of_world(alone), "still copy")


def test_a_copy_taken_out_as_a_world_goes_on_as_the_copy():
    world = pile(5)
    batch = WorldBatch(world, 2)
    batch.velocities[1, 2] = (0.0, 4.0)
    batch.step(30)
    taken = batch.world(1)
    batch.step(30)
    for _ in range(30):
        taken.step()
    assert_same(state_of_copy(batch, 1), state_of_world(taken), "copy 1")
    # A new World: stepping it changed nothing in the batch.
    assert len(taken.bodies) == batch.body_count


def test_reset_puts_the_chosen_copies_back_and_leaves_the_others():
    world = pile(7)
    batch = WorldBatch(world, 4)
    batch.step(20)
    moved = copies_now(batch)
    batch.reset([1, 3])
    fresh = WorldBatch(world, 1)
    assert_same(state_of_copy(batch, 1), state_of_copy(fresh, 0), "reset copy 1")
    assert_same(state_of_copy(batch, 0), moved[0], "untouched copy 0")
    assert_same(state_of_copy(batch, 2), moved[2], "untouched copy 2")
    # From there a reset copy steps as a new copy does.
    batch.step(20)
    fresh.step(20)
    assert_same(state_of_copy(batch, 3), state_of_copy(fresh, 0), "reset copy 3, stepped")
    mask = np.array([True, False, False, False])
    batch.reset(mask)
    assert_same(state_of_copy(batch, 0), state_of_copy(WorldBatch(world, 1), 0), "mask")


def test_writes_wake_what_a_handles_write_wakes():
    world = pile(2)
    for _ in range(400):
        world.step()
    sleeping = [body for body in world.bodies if body.kind == "dynamic" and not body.awake]
    assert sleeping, "the pile fell asleep"
    batch = WorldBatch(world, 2)
    alone = copy.deepcopy(world)
    row = world.index_of(sleeping[0])
    batch.positions[0, row] = np.asarray(alone.bodies[row].position) + (0.0, 0.01)
    alone.bodies[row].position = tuple(np.asarray(alone.bodies[row].position) + (0.0, 0.01))
    assert np.array_equal(batch.awake[0], alone.awake)
    assert not np.array_equal(batch.awake[0], batch.awake[1])
    batch.awake[1, row] = True
    other = copy.deepcopy(world)
    other.bodies[row].awake = True
    assert np.array_equal(batch.awake[1], other.awake)
    for _ in range(30):
        batch.step()
        alone.step()
        other.step()
    assert_same(state_of_copy(batch, 0), state_of_world(alone), "moved")
    assert_same(state_of_copy(batch, 1), state_of_world(other), "woken")


def test_putting_a_body_to_sleep_is_the_handles_sleep():
    world = pile(4)
    batch = WorldBatch(world, 2)
    alone = copy.deepcopy(world)
    batch.step(10)
    for _ in range(10):
        alone.step()
    batch.awake[1, 3] = False
    alone.bodies[3].awake = False
    for _ in range(20):
        batch.step()
        alone.step()
    assert_same(state_of_copy(batch, 1), state_of_world(alone), "asleep by hand")


def test_reads_are_read_only_arrays_of_the_right_shapes():
    batch = WorldBatch(pile(1), 5)
    n = batch.body_count
    assert batch.positions.shape == (5, n, 2)
    assert batch.angles.shape == (5, n)
    assert batch.velocities.shape == (5, n, 2)
    assert batch.angular_velocities.shape == (5, n)
    assert batch.awake.dtype == np.bool_
    assert batch.gravity.shape == (5, 2)
    view = np.asarray(batch.positions)
    with pytest.raises(ValueError):
        view[0, 0, 0] = 1.0
    with pytest.raises(ValueError):
        batch.positions[0][0, 0] = 1.0


@pytest.mark.parametrize(
    "write, error, message",
    [
        (lambda b: b.velocities.__setitem__((0, 1), (np.nan, 0.0)), ValueError, "finite"),
        (lambda b: b.velocities.__setitem__((0, 1), (1e9, 0.0)), ValueError, "velocities"),
        (lambda b: b.velocities.__setitem__((0, 0), (1.0, 0.0)), ValueError, "static"),
        (lambda b: b.angular_velocities.__setitem__((0, 1), 1e9), ValueError, "rad/s"),
        (lambda b: b.positions.__setitem__((0, 1), "far"), TypeError, "positions"),
        (lambda b: b.positions.__setitem__((0, 1), (1.0, 2.0, 3.0)), ValueError, "shape"),
        (lambda b: b.awake.__setitem__((0, 1), 1), TypeError, "awake"),
        (lambda b: b.awake.__setitem__((0, 0), False), ValueError, "only dynamic"),
        (lambda b: b.gravity.__setitem__(0, (0.0, -1e7)), ValueError, "gravity"),
        (lambda b: b.apply_impulse(1, np.full((2, 2), 1e9)), ValueError, "impulse"),
        (lambda b: b.apply_impulse(99, np.zeros((2, 2))), ValueError, "body"),
        (lambda b: b.apply_force(1, np.zeros((3, 2))), ValueError, "force"),
        (lambda b: b.apply_torque(1, np.full(2, 1e12)), ValueError, "torque"),
        (lambda b: b.reset([5]), ValueError, "copies"),
        (lambda b: b.world(2), ValueError, "index"),
    ],
)
def test_a_refused_write_names_the_argument_and_changes_nothing(write, error, message):
    batch = WorldBatch(pile(0), 2)
    batch.step(3)
    before = copies_now(batch)
    gravity = np.copy(batch.gravity)
    with pytest.raises(error, match=message):
        write(batch)
    for c in range(2):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")
    assert np.array_equal(batch.gravity, gravity)


def test_bad_arguments_to_the_batch_itself():
    world = pile(0)
    with pytest.raises(TypeError, match="world"):
        WorldBatch("world", 2)
    with pytest.raises(TypeError, match="copies"):
        WorldBatch(world, 2.0)
    with pytest.raises(ValueError, match="copies"):
        WorldBatch(world, 0)
    world.on("presolve", lambda contact: None)
    with pytest.raises(ValueError, match="presolve"):
        WorldBatch(world, 2)


def test_the_batch_is_a_copy_of_the_world_as_it_was():
    world = pile(0)
    batch = WorldBatch(world, 2)
    world.bodies[1].velocity = (5.0, 0.0)
    for _ in range(5):
        world.step()
    assert np.array_equal(batch.velocities[0, 1], (0.0, 0.0))
    assert batch.steps.tolist() == [0, 0]


def test_reset_to_a_given_state_is_a_reset_then_those_writes():
    world = pile(8)
    batch = WorldBatch(world, 3)
    batch.step(10)
    untouched = copies_now(batch)[1]
    positions = np.asarray(batch.positions[[0, 2]]) + (0.0, 0.5)
    batch.reset([0, 2], state={"positions": positions, "angles": 0.1})
    expected = WorldBatch(world, 3)
    expected.positions[[0, 2]] = positions
    expected.angles[[0, 2]] = 0.1
    for c in (0, 2):
        assert_same(state_of_copy(batch, c), state_of_copy(expected, c), f"copy {c}")
    assert_same(state_of_copy(batch, 1), untouched, "copy 1")
    batch.step(20)
    expected.step(20)
    assert_same(state_of_copy(batch, 2), state_of_copy(expected, 2), "stepped")


@pytest.mark.parametrize(
    "state, error, message",
    [
        ({"velocities": (1.0, 0.0)}, ValueError, "static"),
        ({"spin": 1.0}, ValueError, "spin"),
        ({"positions": np.zeros((3, 1))}, ValueError, "shape"),
        ([("positions", 0.0)], TypeError, "state"),
    ],
)
def test_a_refused_reset_changes_nothing(state, error, message):
    batch = WorldBatch(pile(0), 2)
    batch.step(5)
    before = copies_now(batch)
    with pytest.raises(error, match=message):
        batch.reset([1], state=state)
    for c in range(2):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")


def hills(heights) -> list:
    """A static ground of segments through (x, height) every 2 m."""
    xs = np.arange(len(heights)) * 2.0 - 6.0
    return [Segment((xs[i], heights[i]), (xs[i + 1], heights[i + 1])) for i in range(len(xs) - 1)]


def hilly_world(heights) -> World:
    world = World()
    world.add_body(hills(heights), kind="static", origin="local")
    for i in range(3):
        world.add_body(Box(0.5, 0.4), position=(-2.0 + 2.0 * i, 3.0), angle=0.2 * i)
    world.add_body(Circle(0.3), position=(1.0, 4.0))
    return world


def test_a_reshaped_copy_steps_as_the_world_built_with_those_shapes():
    flat, bumpy = [0.0] * 7, [0.0, 0.5, 1.2, 0.3, 0.8, 0.1, 0.0]
    batch = WorldBatch(hilly_world(flat), 3)
    batch.reshape(0, hills(bumpy), [1])
    alone = {0: hilly_world(flat), 1: hilly_world(bumpy), 2: hilly_world(flat)}
    for _ in range(120):
        batch.step()
        for world in alone.values():
            world.step()
    for c, world in alone.items():
        assert_same(state_of_copy(batch, c), state_of_world(world), f"copy {c}")
    # Taken out as a World, the reshaped copy has the shapes and goes on as the copy.
    taken = batch.world(1)
    assert taken.bodies[0].shapes[2].a.tolist() == [-2.0, 1.2]
    batch.step(30)
    for _ in range(30):
        taken.step()
    assert_same(state_of_copy(batch, 1), state_of_world(taken), "taken out")
    # A reset copy gets the batch's first shapes back.
    batch.reset([1])
    fresh = WorldBatch(hilly_world(flat), 1)
    batch.step(120)
    fresh.step(120)
    assert_same(state_of_copy(batch, 1), state_of_copy(fresh, 0), "reset")


@pytest.mark.parametrize(
    "body, shapes, message",
    [
        (1, [Box(0.5, 0.4)], "static"),
        (0, [Segment((0, 0), (1, 0))], "parts"),
        (0, [Box(1, 1)] * 6, "parts"),
    ],
)
def test_a_refused_reshape_changes_nothing(body, shapes, message):
    batch = WorldBatch(hilly_world([0.0] * 7), 2)
    batch.step(3)
    before = copies_now(batch)
    vertices = batch._vertices.copy()
    with pytest.raises(ValueError, match=message):
        batch.reshape(body, shapes)
    for c in range(2):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")
    assert np.array_equal(batch._vertices, vertices)


def test_touching_reads_each_copys_contacts():
    world = hilly_world([0.0] * 7)
    batch = WorldBatch(world, 2)
    batch.positions[1, 4] = (1.0, 9.0)  # copy 1's ball starts higher
    alone = [copy.deepcopy(world), copy.deepcopy(world)]
    alone[1].bodies[4].position = (1.0, 9.0)
    pairs = [(0, 4), (0, 1), (world.bodies[1], world.bodies[2])]
    seen = set()
    for _ in range(90):
        batch.step()
        flags = batch.touching(pairs)
        for c, world_alone in enumerate(alone):
            world_alone.step()
            rows = {tuple(sorted(pair)) for pair in world_alone.contact_arrays().rows.tolist()}
            expected = [tuple(sorted((world.index_of(a) if not isinstance(a, int) else a,
                                      world.index_of(b) if not isinstance(b, int) else b)))
                        in rows for a, b in pairs]  # fmt: skip
            assert flags[c].tolist() == expected
            seen.add(tuple(expected))
    assert len(seen) > 1, "the pairs came to touch"


def test_impulses_reach_only_the_chosen_copies():
    world = pile(0)
    batch = WorldBatch(world, 3)
    batch.apply_impulse(1, np.full((3, 2), 1.0), copies=[0, 2])
    assert batch.velocities[1, 1].tolist() == [0.0, 0.0]
    assert batch.velocities[0, 1].tolist() == batch.velocities[2, 1].tolist() != [0.0, 0.0]


def wheel_world() -> World:
    """A box sliding on a ground and a wheel on a motor."""
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(0.5, 0.5), position=(-3, 0.25), velocity=(3.0, 0.0))
    wheel = world.add_body(Circle(0.4), position=(3, 0.4))
    world.add_joint(RevoluteJoint(wheel, None, anchor=(3, 0.4), motor_speed=1.0,
                                  max_motor_torque=5.0))  # fmt: skip
    return world


def test_motor_speeds_and_materials_per_copy_are_the_handles_writes():
    world = wheel_world()
    batch = WorldBatch(world, 3)
    alone = [copy.deepcopy(world) for _ in range(3)]
    batch.motor_speeds[1, 0] = -2.0
    alone[1].joints[0].motor_speed = -2.0
    batch.set_material(1, "friction", [0.1, 0.9, 0.0], copies=[0, 2])
    alone[0].bodies[1].friction = 0.1
    alone[2].bodies[1].friction = 0.0  # copy 1 keeps its own (its row of values unread)
    batch.set_material(2, "restitution", np.full(3, 0.5))
    for world_alone in alone:
        world_alone.bodies[2].restitution = 0.5
    step_alike(batch, alone, 90)
    assert batch.motor_speeds.shape == (3, 1)
    taken = batch.world(0)
    assert taken.bodies[1].shapes[0] is not None
    assert taken._parts.table.view("friction")[1] == 0.1


@pytest.mark.parametrize(
    "write, message",
    [
        (lambda b: b.motor_speeds.__setitem__((0, 0), 1e9), "motor_speed"),
        (lambda b: b.motor_speeds.__setitem__((0, 0), np.nan), "motor_speed"),
        (lambda b: b.set_material(1, "friction", np.full(3, -1.0)), "friction"),
        (lambda b: b.set_material(1, "restitution", np.full(3, 2.0)), "restitution"),
        (lambda b: b.set_material(1, "density", np.ones(3)), "name"),
    ],
)
def test_a_refused_joint_or_material_write_changes_nothing(write, message):
    batch = WorldBatch(wheel_world(), 3)
    batch.step(2)
    before = copies_now(batch)
    friction, restitution = batch._friction.copy(), batch._restitution.copy()
    with pytest.raises(ValueError, match=message):
        write(batch)
    for c in range(3):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")
    assert np.array_equal(batch._friction, friction)
    assert np.array_equal(batch._restitution, restitution)


def test_joint_limits_per_copy_are_the_handles_writes():
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    arm = world.add_body(Box(1.0, 0.1), position=(1.5, 3.0))
    world.add_joint(RevoluteJoint(arm, None, anchor=(1, 3), lower=-1.0, upper=1.0))
    batch = WorldBatch(world, 3)
    alone = [copy.deepcopy(world) for _ in range(3)]
    batch.lower_limits[1, 0] = -0.2
    alone[1].joints[0].lower = -0.2
    batch.upper_limits[2] = np.inf  # no upper limit
    alone[2].joints[0].upper = None
    batch.lower_limits[2] = -np.inf
    alone[2].joints[0].lower = None
    step_alike(batch, alone, 60)
    before = copies_now(batch)
    for write, message in [
        (lambda: batch.lower_limits.__setitem__((0, 0), 2.0), "lower: must be <= upper"),
        (lambda: batch.upper_limits.__setitem__((1, 0), -0.5), "upper: must be >= lower"),
        (lambda: batch.lower_limits.__setitem__((0, 0), np.inf), "lower"),
        (lambda: batch.upper_limits.__setitem__((0, 0), np.nan), "upper"),
    ]:
        with pytest.raises(ValueError, match=message):
            write()
    for c in range(3):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")
    roped = World()
    ball = roped.add_body(Circle(0.3), position=(0, 2))
    roped.add_joint(DistanceJoint(ball, None, (0, 2), (0, 4)))
    with pytest.raises(ValueError, match="revolute"):
        WorldBatch(roped, 2).lower_limits[0, 0] = 0.0


def test_a_saved_batch_loads_and_steps_on_as_the_saved_one():
    world = hilly_world([0.0] * 7)
    world.add_joint(RevoluteJoint(world.bodies[1], None, anchor=(-2.0, 3.0), motor_speed=1.0,
                                  max_motor_torque=2.0))  # fmt: skip
    batch = WorldBatch(world, 3)
    batch.reshape(0, hills([0.0, 0.5, 1.2, 0.3, 0.8, 0.1, 0.0]), [2])
    batch.gravity[1] = (0.5, -4.0)
    batch.motor_speeds[0, 0] = -1.5
    batch.set_mass(2, [3.0, 0.5, 1.0], copies=[0, 1])
    batch.step(40)
    buffer = io.BytesIO()
    batch.save(buffer)
    buffer.seek(0)
    loaded = WorldBatch.load(buffer)
    for c in range(3):
        assert_same(state_of_copy(loaded, c), state_of_copy(batch, c), f"loaded copy {c}")
    batch.step(60)
    loaded.step(60)
    for c in range(3):
        assert_same(state_of_copy(loaded, c), state_of_copy(batch, c), f"stepped copy {c}")
    assert loaded.world(2).bodies[0].shapes[2].a.tolist() == [-2.0, 1.2]


def damaged(batch: WorldBatch, name: str, change) -> io.BytesIO:
    """The batch's file with array ``name`` changed by ``change(array) -> array``."""
    buffer = io.BytesIO()
    batch.save(buffer)
    buffer.seek(0)
    with np.load(buffer) as archive:
        arrays = {key: archive[key] for key in archive.files}
    arrays[name] = change(arrays[name].copy())
    out = io.BytesIO()
    np.savez(out, **arrays)
    out.seek(0)
    return out


def set_first(value):
    def change(array):
        array.reshape(-1)[0] = value
        return array

    return change


@pytest.mark.parametrize(
    "name, change, message",
    [
        ("body.position", set_first(2e12), "body.position"),
        ("body.kind", set_first(0), "body.kind"),
        ("body.velocity", set_first(np.nan), "NaN"),
        ("joint.lower", set_first(5.0), "joint.lower"),
        ("warm.counts", lambda a: a + 1, "warm.counts"),
        ("restitution", set_first(3.0), "restitution"),
        ("body.inv_mass", lambda a: a * 2.0, "1 / mass"),
        ("mass.mass", lambda a: -a, "mass"),
        ("template", lambda a: a[: len(a) // 2], "template"),
        ("steps", lambda a: a[:1], "steps"),
    ],
)
def test_a_damaged_batch_file_is_refused_naming_the_array(name, change, message):
    world = pile(0)
    batch = WorldBatch(world, 2)
    batch.step(30)
    with pytest.raises(ValueError, match=message):
        WorldBatch.load(damaged(batch, name, change))


def test_a_file_that_is_not_a_batch_is_refused(tmp_path):
    path = tmp_path / "world.npz"
    pile(0).save(path)
    with pytest.raises(ValueError, match="unexpected array|WorldBatch"):
        WorldBatch.load(path)


def world_contact_events(world: World) -> tuple:
    """The World's last contact_begin and contact_end as the batch reports them: sorted
    lists of (row, row, impulse) and (row, row), lower body id first."""
    began, ended = [], []
    for event in world.events:
        contact = event.subject
        if event.name not in ("contact_begin", "contact_end"):
            continue
        a, b = sorted((contact.body_a, contact.body_b), key=lambda body: body.body_id)
        rows = (world.index_of(a), world.index_of(b))
        if event.name == "contact_begin":
            began.append((*rows, contact.normal_impulse))
        else:
            ended.append(rows)
    return sorted(began), sorted(ended)


def test_contact_events_are_the_worlds_events_copy_by_copy():
    world = pile(6)
    batch = WorldBatch(world, 2)
    batch.velocities[1, 3] = (4.0, 3.0)  # copy 1's ball is thrown: other contacts
    alone = [copy.deepcopy(world), copy.deepcopy(world)]
    alone[1].bodies[3].velocity = (4.0, 3.0)
    seen = 0
    for _ in range(150):
        batch.step()
        (began_copy, began_rows, impulses), (ended_copy, ended_rows) = batch.contact_events()
        for c, world_alone in enumerate(alone):
            world_alone.step()
            mine = (
                sorted(
                    (int(a), int(b), float(j))
                    for (a, b), j in zip(began_rows[began_copy == c], impulses[began_copy == c])
                ),
                sorted((int(a), int(b)) for a, b in ended_rows[ended_copy == c]),
            )
            assert mine == world_contact_events(world_alone)
            seen += len(mine[0]) + len(mine[1])
    assert seen > 10, "contacts began and ended"


def test_raycasts_in_every_copy_are_the_worlds_raycasts():
    world = hilly_world([0.0] * 7)
    batch = WorldBatch(world, 3)
    batch.reshape(0, hills([0.0, 0.5, 1.2, 0.3, 0.8, 0.1, 0.0]), [1])
    batch.positions[2, 4] = (-1.0, 2.0)
    batch.step(20)
    angles = np.linspace(-np.pi, 0.0, 9)
    starts = np.tile([0.0, 2.5], (3, 9, 1))
    ends = starts + 8.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)[None]
    hits = batch.raycast_many(starts, ends)
    assert hits.body_row.shape == (3, 9) and hits.point.shape == (3, 9, 2)
    for c in range(3):
        expected = batch.world(c).raycast_many(starts[c], ends[c])
        for got, want in zip(hits, expected):
            assert np.array_equal(got[c], want, equal_nan=True)
    assert (hits.body_row >= 0).sum() > 9, "rays hit the ground and the bodies"
    with pytest.raises(ValueError, match="ends"):
        batch.raycast_many(starts, starts)
    with pytest.raises(ValueError, match="starts"):
        batch.raycast_many(starts[:2], ends[:2])


def test_masses_per_copy_are_the_handles_mass_writes():
    world = wheel_world()
    batch = WorldBatch(world, 3)
    alone = [copy.deepcopy(world) for _ in range(3)]
    batch.set_mass(1, [2.0, 0.25, 9.0], copies=[0, 1])
    alone[0].bodies[1].mass = 2.0
    alone[1].bodies[1].mass = 0.25
    batch.set_mass(2, np.full(3, 4.0))
    for world_alone in alone:
        world_alone.bodies[2].mass = 4.0
    step_alike(batch, alone, 60)
    taken = batch.world(1)
    assert taken.bodies[1].mass == 0.25 and taken.bodies[1].inertia == alone[1].bodies[1].inertia
    assert taken.bodies[1].density == alone[1].bodies[1].density
    before = copies_now(batch)
    for masses, body, message in [
        (np.full(3, -1.0), 1, "mass"),
        (np.full(3, 1e-320), 1, "mass"),
        (np.ones(3), 0, "dynamic"),
    ]:
        with pytest.raises(ValueError, match=message):
            batch.set_mass(body, masses)
    for c in range(3):
        assert_same(state_of_copy(batch, c), before[c], f"copy {c}")
