"""Warm start: last step's contact impulses carried to this step's points by feature key."""

from __future__ import annotations

import numpy as np
import pytest
from builders import run

from engine import Box, Segment, World


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
