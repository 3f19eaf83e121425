"""The resting parts' own grid: the step's broad phase pairs only the moving parts with
it, and with the pairs among the resting parts must find exactly the pairs of boxing and
pairing every part together; the grid is kept between steps and must follow every change
of a static body (moved, added, removed, made moving, a moving one made static, a
restore) and of the sleeping ones; the contacts among resting parts are reported as if
found every step."""

from __future__ import annotations

import copy

import numpy as np
from builders import DT, G, add_ground, run
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, Polygon, World
from engine.box_pairs import brute_force_pairs
from engine.candidate_pairs import GRID, QUADTREE, classify_pairs, find_candidates
from engine.forces import start_of_step
from engine.resting_parts import pairs_among_resting, resting_rows
from engine.settings import SPECULATIVE_SLOPS
from engine.swept_bounds import swept_bounds

KINDS = ("dynamic", "static", "kinematic")


def broad_phase(world: World, method: int) -> tuple:
    """The step's candidate pairs (solid, sensing) for the world as it stands, with the
    resting pairs (``pairs_among_resting``, filtered) added to the solid ones, and the
    same from an oracle: every part's swept box, all pairs by brute force, filtered.
    Solid pairs are compared as sorted part-pair columns."""
    body = world._bodies.columns()
    part = world._parts.table.columns()
    parts = world._parts.packed()
    owner = world._parts.table.view("body")
    velocity, start, *_ = start_of_step(
        body["position"], body["angle"], body["velocity"], body["angular_velocity"],
        body["force"], body["torque"], body["inv_mass"], body["inv_inertia"], body["kind"],
        body["awake"], body["damping"], body["gravity_scale"], world._gravity, world.dt,
    )  # fmt: skip
    speculative = SPECULATIVE_SLOPS * world._linear_slop
    filters = (
        body["kind"], part["sensor"], part["category"], part["mask"], part["group"],
        body["body_id"], world._jointed_keys(),
    )  # fmt: skip
    rows = resting_rows(owner, body["kind"], body["awake"], part["sensor"])
    resting = world._resting_parts.current(
        world._parts, parts.vertices, parts.count, parts.radius, owner, start, rows,
        speculative, 0.0,
    )  # fmt: skip
    solid, sensing = find_candidates(
        parts.vertices, parts.count, parts.radius, owner, start, velocity, body["reach"],
        world.dt, speculative, method, 0.0, *filters, resting,
    )  # fmt: skip
    among, _ = classify_pairs(pairs_among_resting(resting), owner, *filters)
    n = len(body["kind"])
    end = start.copy()
    end[:n] += velocity[:n] * world.dt
    margin = speculative + np.abs(velocity[:n, 2]) * body["reach"] * world.dt
    lower, upper = swept_bounds(
        parts.vertices, parts.count, parts.radius, owner, start, end, margin
    )  # fmt: skip
    want_solid, want_sensing = classify_pairs(brute_force_pairs(lower, upper), owner, *filters)
    # No moving pair is among the resting ones, and no resting pair is sensing.
    both = np.concatenate([solid, among], axis=1)
    both = both[:, np.lexsort((both[1], both[0]))]
    return (both, sensing), (want_solid, want_sensing)


def shape_of(code: int, size: float):
    if code == 0:
        return Box(size, 0.6 * size)
    if code == 1:
        return Circle(0.5 * size)
    return Polygon([(0, 0), (size, 0), (0.3 * size, 0.8 * size)])


bodies = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 2),  # shape
        st.floats(0.2, 3.0),  # size
        st.floats(-12, 12),
        st.floats(-12, 12),  # position
        st.floats(-3.2, 3.2),  # angle
        st.floats(-40, 40),
        st.floats(-40, 40),  # velocity (moving bodies)
        st.floats(-20, 20),  # spin
        st.booleans(),  # sensor
        st.booleans(),  # put to sleep (a dynamic body)
    ),
    min_size=1,
    max_size=60,
)


def world_of(entries, ground: bool) -> World:
    world = World()
    if ground:
        add_ground(world, width=30.0)  # a large box the grid leaves out
    for kind, code, size, x, y, angle, vx, vy, spin, sensor, asleep in entries:
        moving = kind != "static"
        body = world.add_body(
            shape_of(code, size), position=(x, y), angle=angle, kind=kind, sensor=sensor,
            velocity=(vx, vy) if moving else (0.0, 0.0), angular_velocity=spin if moving else 0.0,
        )  # fmt: skip
        if asleep and kind == "dynamic":
            body.awake = False
    return world


@settings(max_examples=60, deadline=None)
@given(bodies, st.booleans(), st.sampled_from((GRID, QUADTREE)))
def test_the_pairs_are_those_of_boxing_every_part_together(entries, ground, method):
    world = world_of(entries, ground)
    (solid, sensing), (want_solid, want_sensing) = broad_phase(world, method)
    np.testing.assert_array_equal(solid, want_solid)
    np.testing.assert_array_equal(sensing, want_sensing)


@settings(max_examples=25, deadline=None)
@given(bodies, st.integers(0, 10_000))
def test_the_grid_follows_resting_bodies_moved_added_removed_woken_and_put_to_sleep(entries, seed):
    """The kept grid, after every kind of change the World makes to its static parts,
    gives the pairs a grid built from nothing gives."""
    world = world_of(entries, ground=True)
    rng = np.random.default_rng(seed)
    world.step()
    statics = [b for b in world.bodies if b.kind == "static"]
    for body in statics[: len(statics) // 2]:
        body.position = rng.uniform(-12, 12, 2)
        body.angle = rng.uniform(-3, 3)
    world.add_body(Box(2, 1), position=tuple(rng.uniform(-12, 12, 2)), kind="static")
    world.add_bodies(Box(1, 1), rng.uniform(-12, 12, (3, 2)), kind="static")
    if len(world.bodies) > 3:
        world.remove(world.bodies[int(rng.integers(len(world.bodies)))])
    # Kinds changed by hand: a static body set moving, a dynamic one made static.
    statics = [b for b in world.bodies if b.kind == "static"]
    statics[-1].kind = "kinematic"
    dynamic = [b for b in world.bodies if b.kind == "dynamic"]
    if dynamic:
        dynamic[0].kind = "static"
    # Sleep changed by hand: one woken, one moved while asleep, others put to sleep.
    for body in dynamic[1:]:
        choice = rng.integers(3)
        if choice == 0:
            body.awake = not body.awake
        elif choice == 1 and not body.awake:
            body.position = rng.uniform(-12, 12, 2)
            body.awake = False
    for stepped in (False, True):
        if stepped:
            world.step()
        for method in (GRID, QUADTREE):
            (solid, sensing), (want_solid, want_sensing) = broad_phase(world, method)
            np.testing.assert_array_equal(solid, want_solid)
            np.testing.assert_array_equal(sensing, want_sensing)


def tile_level(width: int = 40, depth: int = 5) -> World:
    """A level of static unit tiles, its top face at y = 0."""
    world = World()
    x = np.arange(width * depth) % width - width / 2 + 0.5
    y = -(np.arange(width * depth) // width) - 0.5
    world.add_bodies(Box(1, 1), np.column_stack([x, y]), kind="static")
    return world


def test_balls_land_and_rest_on_a_level_of_static_tiles():
    world = tile_level()
    balls = world.add_bodies(
        Circle(0.25), np.column_stack([np.linspace(-15, 15, 7), np.full(7, 3)])
    )
    run(world, 180)
    for ball in balls:
        # Resting on the tiles' top face: the ball's radius above it, within the slop.
        assert abs(ball.position[1] - 0.25) < 0.006
        assert abs(ball.velocity[1]) < 1e-3


def test_a_tile_moved_by_hand_is_met_where_it_now_is():
    world = World(sleep=False)
    tile = world.add_body(Box(2, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.25), position=(5, 2))
    run(world, 5)  # the grid is built with the tile at x = 0
    tile.position = (5, -0.5)
    run(world, 90)
    assert abs(ball.position[1] - 0.25) < 0.006


def test_a_removed_tile_no_longer_holds_and_a_new_one_does():
    world = World(sleep=False)
    tiles = [world.add_body(Box(1, 1), position=(x, -0.5), kind="static") for x in (0, 3)]
    held = world.add_body(Circle(0.25), position=(0, 0.25))
    other = world.add_body(Circle(0.25), position=(3, 0.25))
    run(world, 10)
    world.remove(tiles[0])  # the other tile's part row moves up
    world.add_body(Box(1, 1), position=(-4, -0.5), kind="static")
    late = world.add_body(Circle(0.25), position=(-4, 1.0))
    run(world, 60)
    assert held.position[1] < -1.0  # fell where the tile was
    assert abs(other.position[1] - 0.25) < 0.006
    assert abs(late.position[1] - 0.25) < 0.006


def test_a_restored_world_meets_its_static_bodies_where_the_snapshot_had_them():
    world = World(sleep=False)
    tile = world.add_body(Box(2, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(Circle(0.25), position=(0, 2))
    saved = world.snapshot()
    tile.position = (10, -0.5)
    run(world, 5)  # the grid now has the tile at x = 10
    world.restore(saved)
    run(world, 90)
    assert abs(ball.position[1] - 0.25) < 0.006


def pile() -> World:
    """Twelve unit boxes in three rows on a ground, friction 0.6, sleep on."""
    world = World()
    add_ground(world)
    for i in range(12):
        world.add_body(Box(1, 1), position=(-2 + (i % 4) * 1.02, 0.5 + (i // 4)))
    return world


def impulses(world: World) -> dict:
    """The touching pairs (body ids) of the last step and their normal impulses."""
    return {(c.body_a.body_id, c.body_b.body_id): c.normal_impulse for c in world.contacts}


def test_a_pile_falling_asleep_keeps_its_contacts_and_ends_none():
    """Asleep, a pile's contacts are no longer found each step, but they are still there:
    the same touching pairs, the same impulses, no contact_end, until something wakes it."""
    world = pile()
    ended = []
    world.on("contact_end", lambda contact: ended.append(contact))
    for _ in range(600):
        before = impulses(world)
        world.step()
        if not any(body.awake for body in world.bodies[1:]):
            break
    assert not any(body.awake for body in world.bodies[1:]), "the pile never slept"
    ended.clear()
    asleep = impulses(world)
    # Every box rests on the ground or a box below: each is in the touching pairs.
    assert set(before) == set(asleep)
    assert {i for pair in asleep for i in pair} == {b.body_id for b in world.bodies}
    world.step()  # the first step asleep: its contacts found at rest, warm-started
    kept = impulses(world)
    assert kept.keys() == asleep.keys()
    for pair, impulse in kept.items():
        # The last sub-step's impulse times the sub-steps, against the step's sum of them.
        assert abs(impulse - asleep[pair]) <= 1e-9 * asleep[pair]
    run(world, 120)
    assert ended == []
    assert impulses(world) == kept  # kept whole while asleep, not found again
    # Each box's weight (m g dt per step) is carried by the contacts below it.
    weight = G * DT
    under_top_row = [v for (a, b), v in asleep.items() if {a, b} & {9, 10, 11, 12}]
    assert min(under_top_row) > 0.5 * weight


def test_a_sleeping_pile_keeps_its_warm_starts_and_stays_stacked_when_woken():
    """While a pile sleeps, the warm-start cache keeps its points' impulses unchanged (its
    contacts are not solved, but a woken pile starts from them); woken, it stays put."""
    world = pile()
    run(world, 600)
    assert not any(body.awake for body in world.bodies[1:])
    keys, normal = world._warm.keys.copy(), world._warm.normal.copy()
    # Twelve boxes, each on the ground or a box below: two loaded points each at least.
    assert np.count_nonzero(normal > 0.0) >= 24
    run(world, 60)
    np.testing.assert_array_equal(world._warm.keys, keys)
    np.testing.assert_array_equal(world._warm.normal, normal)
    rest = np.array(world.positions, copy=True)
    world.bodies[5].awake = True  # wakes its island: the whole pile
    world.step()
    assert all(body.awake or body.kind == "static" for body in world.bodies)
    run(world, 29)
    # At rest and warm-started, the pile does not sag or jump on waking.
    assert np.max(np.abs(world.positions - rest)) < 1e-9


def test_a_restored_or_copied_sleeping_pile_goes_on_bit_for_bit():
    """The resting contacts are a cache: a restored or copied world finds them again from
    its poses and warm-start cache, and goes on exactly as the original, through a wake."""
    world = pile()
    run(world, 400)
    assert not any(body.awake for body in world.bodies[1:])
    saved = world.snapshot()
    clone = copy.deepcopy(world)

    def go_on(target: World) -> np.ndarray:
        target.add_body(Circle(0.3), position=(-1.5, 6), velocity=(0, -4))
        run(target, 120)
        return np.array(target.positions, copy=True)

    first = go_on(world)
    assert first[1:13, 1].max() < 3.0  # the ball landed on the pile and woke it
    world.restore(saved)
    np.testing.assert_array_equal(go_on(world), first)
    np.testing.assert_array_equal(go_on(clone), first)
