"""Warm start: last step's contact impulses carried to this step's points by feature key.

A contact point is named by its two part rows and the feature id the narrow phase gave it;
a point that keeps its name starts the next step's solve from the impulses it ended the
last one with (per step: the sub-steps share them out). The cache (``world._warm``: sorted
keys with their normal and tangent impulses) is read directly.

Tolerances: a settled contact carries the weight impulse of what rests on it, k m g dt,
to rounding (measured 1e-15 relative); 1e-9 is far below any lost or misplaced impulse.

A stack's contacts form a tree, which the step solves exactly in each pass: it carries
its rest impulses from the first step, warm start or not.
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import G, add_ground, run, stack, steps

from engine import Box, Segment, World
from engine.warm_start import FEATURE_BITS, ROW_BITS

REST = 1e-9  # relative: see the module docstring


def key_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two part rows each warm-start key names."""
    return keys >> (ROW_BITS + FEATURE_BITS), (keys >> FEATURE_BITS) & ((1 << ROW_BITS) - 1)


def worst_rest_error(world: World, boxes: list) -> float:
    """The largest relative difference, over the contacts of a stack ``boxes`` (bottom
    first), between a contact's normal impulse and the weight impulse of the k boxes above
    it, k m g dt. Every contact of the stack must be there."""
    level = {id(box): i for i, box in enumerate(boxes)}
    weight = boxes[0].mass * G * world.dt
    worst, seen = 0.0, 0
    for contact in world.contacts:
        rows = (level.get(id(contact.body_a), -1), level.get(id(contact.body_b), -1))
        if max(rows) < 0:
            continue  # not this stack's
        above = len(boxes) - 1 - min(rows)  # the ground is level -1: all of them
        worst = max(worst, abs(contact.normal_impulse / (above * weight) - 1.0))
        seen += 1
    assert seen == len(boxes)
    return worst


def settle(count: int = 5, seconds: float = 2.0):
    """A stack of ``count`` boxes run for ``seconds``. Returns the world and the boxes."""
    world = World(sleep=False)
    add_ground(world)
    boxes = stack(world, count)
    run(world, steps(seconds))
    return world, boxes


# --------------------------------------------------------------------------- resting stacks


def test_a_sub_stepped_stack_carries_its_rest_impulses_from_the_first_step():
    """Five boxes placed touching: their contacts are a tree, solved exactly, so every
    contact carries exactly the weight above it from the first step on, and nothing moves
    (measured: 2.2e-16 relative, speeds 3e-30 m/s)."""
    world = World(sleep=False)
    add_ground(world)
    boxes = stack(world, 5)
    for _ in range(steps(2.0)):
        world.step()
        assert worst_rest_error(world, boxes) < REST
    assert max(abs(box.velocity[1]) for box in boxes) < 1e-12


def test_the_cache_holds_what_each_step_applied_under_the_same_keys():
    """Once settled, each step's cache has the keys of the step before and the impulses
    this step's contacts report (sums over a pair's points agree to rounding), and they
    are the impulses of the step before: the solve started from them and had nothing to
    add."""
    world, boxes = settle()
    keys, normal = world._warm.keys.copy(), world._warm.normal.copy()
    weight = boxes[0].mass * G * world.dt
    for _ in range(30):
        world.step()
        cache = world._warm
        np.testing.assert_array_equal(cache.keys, keys)
        reported = sum(contact.normal_impulse for contact in world.contacts)
        assert float(cache.normal.sum()) == pytest.approx(reported, rel=1e-12)
        np.testing.assert_allclose(cache.normal, normal, rtol=0, atol=REST * weight)
        np.testing.assert_allclose(cache.tangent, 0.0, rtol=0, atol=REST * weight)
        normal = cache.normal.copy()


def test_a_sliding_box_keeps_its_keys_and_carries_the_coulomb_impulses():
    """A box sliding on flat ground keeps the same two points (face on face) every step,
    and the cache carries Coulomb's impulses: the tangent impulse is mu m g dt against the
    motion, and the normal impulses split 1/4 : 3/4 between the trailing and the leading
    edge (friction at the bottom face, 0.5 below the centre, tips the load forwards:
    (N1 - N0) 0.5 = mu (N0 + N1) 0.5 with mu = 0.5)."""
    mu = 0.5
    world = World(sleep=False)
    add_ground(world, friction=mu)
    box = world.add_body(Box(1, 1), position=(0, 0.5), velocity=(5.0, 0.0), friction=mu)
    weight = box.mass * G * world.dt
    world.step()
    keys = world._warm.keys.copy()
    assert len(keys) == 2
    sliding = 0
    while box.velocity[0] > 0.1:  # about 1 s of sliding (measured: 59 steps)
        world.step()
        sliding += 1
        cache = world._warm
        np.testing.assert_array_equal(cache.keys, keys)
        # Coulomb every step (the manifold's one tangent impulse, kept on both points).
        np.testing.assert_allclose(cache.tangent, -mu * cache.normal.sum(), rtol=REST)
        # The load shifts as the box tips into its contact springs (the leading edge takes
        # more): 2.2e-3 off the split at the first step, 3e-6 at the sixth, then steady at
        # 1.29e-5: the box tilts 6.4e-6 rad into its springs, moving its arms 3.2e-6 m.
        if sliding >= 20:
            normal = np.sort(cache.normal)
            np.testing.assert_allclose(normal, [weight / 4, 3 * weight / 4], rtol=2e-5)
    assert sliding > 50


def test_a_settled_stack_holds_on_one_sub_step_without_relaxing():
    """The carried impulses are the whole answer for a stack at rest: down to one sub-step
    a step and no relax pass it keeps its rest impulses and does not move (measured:
    2.2e-15 relative, 1e-16 m)."""
    world, boxes = settle()
    top = boxes[-1].position.copy()
    world.substeps, world.relax_iterations = 1, 0
    for _ in range(steps(2.0)):
        world.step()
        assert worst_rest_error(world, boxes) < REST
    np.testing.assert_allclose(boxes[-1].position, top, rtol=0, atol=1e-9)


# --------------------------------------------------------------------------- removed bodies


def test_removing_a_body_drops_its_keys_and_renumbers_the_rest():
    """Two settled stacks; the top box of the first (one part, so its part row is its body
    row) is removed. Its two points leave the cache, every later part row moves down by
    one with its impulses, and the second stack's next step starts from them: it keeps its
    exact rest impulses (measured: 4e-16 relative; with the cache lost it is 43 % off)."""
    world = World(sleep=False)
    add_ground(world)
    first, second = stack(world, 5, x=-3.0), stack(world, 5, x=3.0)
    run(world, steps(2.0))
    assert worst_rest_error(world, second) < REST
    gone = next(row for row, body in enumerate(world.bodies) if body is first[-1])
    rows_a, rows_b = key_rows(world._warm.keys)
    expected = {}
    for key, a, b, normal in zip(world._warm.keys, rows_a, rows_b, world._warm.normal):
        if gone in (a, b):
            continue
        a, b = a - (a > gone), b - (b > gone)
        feature = key & ((1 << FEATURE_BITS) - 1)
        expected[(a << (ROW_BITS + FEATURE_BITS)) | (b << FEATURE_BITS) | feature] = normal
    assert len(expected) == len(world._warm.keys) - 2
    world.remove(first[-1])
    cache = world._warm
    assert dict(zip(cache.keys.tolist(), cache.normal.tolist())) == {
        int(key): float(normal) for key, normal in expected.items()
    }
    assert np.all(np.concatenate(key_rows(cache.keys)) < len(world.bodies))
    world.step()
    assert worst_rest_error(world, second) < REST
    assert worst_rest_error(world, first[:-1]) < 0.5  # lighter now: it settles again


def test_removing_a_supporting_body_lets_the_one_above_fall():
    """A box resting on another: remove the lower one and the upper one falls to the ground
    (no stale contact keeps it up) and comes to rest on it (5 mm: contact slop)."""
    world = World()
    world.add_body(Box(40, 1), position=(0, -0.5), kind="static")
    lower = world.add_body(Box(1, 1), position=(0, 0.5))
    upper = world.add_body(Box(1, 1), position=(0, 1.5))
    run(world, 60)
    assert upper.position[1] == pytest.approx(1.5, abs=5e-3)
    world.remove(lower)
    world.step()
    assert upper.velocity[1] < 0.0  # it falls at once
    run(world, 120)
    assert upper.position[1] == pytest.approx(0.5, abs=5e-3)
    assert len(world.bodies) == 2


def test_a_capsule_against_box_corners_keeps_warm_start_keys_in_range():
    """Vertex-to-vertex contact points (a capsule's end on a box's corner) once got
    feature ids past their 22 bits, which spilled into the part rows of the warm-start
    keys: a saved world then named parts that do not exist (found by the world fuzzer)."""
    import copy

    from engine.warm_start import FEATURE_BITS, ROW_BITS

    world = World(broadphase="grid")
    world.add_body(Box(16, 1), position=(0, -0.5), kind="static")
    for _ in range(3):
        world.add_body(Box(0.5, 0.5), position=(1.488, 0.3))
    for _ in range(8):
        world.step()
    capsule = Segment((-0.168, 0.0), (0.168, 0.3), 0.084)
    world.add_body(capsule, position=(0.0, 1.0236), velocity=(11.892, 5.097), density=8.69,
                   restitution=0.593)  # fmt: skip
    for _ in range(5):
        world.step()
        keys = world._warm.keys
        rows = np.concatenate([keys >> (ROW_BITS + FEATURE_BITS),
                               (keys >> FEATURE_BITS) & ((1 << ROW_BITS) - 1)])  # fmt: skip
        assert np.all(rows < world._parts.count)
    copy.deepcopy(world)  # loads its own snapshot, which checks the keys
