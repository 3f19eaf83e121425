"""Box2D v3's benchmark scenes (``bench/box2d_v3_scenes.py``), built small in the engine
through the bench's own builders: after two seconds of steps every body is finite and in
its container, and the sanity check itself catches a body put outside.

The bench builds the same scenes in Box2D v3 through pyb2d3, a bench extra: nothing here
imports it.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench import box2d_v3_scenes as scenes

# Each scene at tens of bodies.
SMALL = {
    "joint_grid": {"n": 8},
    "smash": {"columns": 8, "rows": 5},
    "spinner": {"count": 60},
    "tumbler": {"grid": 6},
    "many_pyramids": {"rows": 2, "columns": 2, "base": 4},
    "large_pyramid": {"base": 8},
}
STEPS = 120


def test_every_scene_has_a_small_size():
    assert set(SMALL) == set(scenes.SCENES) == set(scenes.ENGINE_BUILDERS)


@pytest.mark.parametrize("name", scenes.SCENES)
def test_small_scene_stays_finite_and_contained(name):
    scene = scenes.ENGINE_BUILDERS[name](**SMALL[name])
    assert scene.problems() == []
    for _ in range(STEPS):
        scene.step()
    assert scene.problems() == []
    world = scene.world
    assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    assert world.time == pytest.approx(STEPS * scenes.DT)


def test_joint_grid_layout_matches_box2d():
    centres, static, pairs, anchors = scenes.joint_grid_layout(40)
    assert len(centres) == 1600
    # The middle seven of the top row are static; the joints between them are left out.
    assert np.flatnonzero(static).tolist() == [k * 40 for k in range(17, 24)]
    assert len(pairs) == 2 * 40 * 39 - 6
    # Each anchor lies half-way between the two centres it joins.
    np.testing.assert_allclose(anchors, centres[pairs].mean(axis=1))


def test_layouts_hold_the_bench_sizes():
    assert len(scenes.smash_layout(60, 40)) == 2400
    assert len(scenes.tumbler_layout(30)) == 900
    assert len(scenes.many_pyramids_layout(8, 8, 10)[0]) == 3520
    assert len(scenes.large_pyramid_layout(100)) == 5050
    centres, form = scenes.spinner_layout(1500)
    assert len(centres) == 1500 and np.bincount(form).tolist() == [500, 500, 500]
    # The ring's points run clockwise: the engine's and Box2D's chains face inward.
    ring = scenes.spinner_ring()
    x, y = ring.T
    assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) < 0
    # Every spinner body starts inside the ring, every tumbler box inside the drum.
    assert np.hypot(*(centres - scenes.RING_CENTRE).T).max() < scenes.RING_RADIUS
    boxes = scenes.tumbler_layout(30) - scenes.DRUM_CENTRE
    assert np.abs(boxes).max() < scenes.DRUM_INSIDE - scenes.TUMBLER_HALF


def test_sanity_check_catches_escapes():
    tumbler = scenes.engine_tumbler(grid=3)
    box = tumbler.world.bodies[-1]
    box.position = (scenes.DRUM_CENTRE[0] + 12.0, scenes.DRUM_CENTRE[1])
    [(count, text)] = tumbler.problems()
    assert count == 1 and "outside the drum" in text

    spinner = scenes.engine_spinner(count=6)
    spinner.world.bodies[-1].position = (0.0, scenes.RING_CENTRE[1] - 41.0)
    assert [count for count, _ in spinner.problems()] == [1]

    pyramids = scenes.engine_many_pyramids(rows=2, columns=1, base=2)
    pyramids.world.bodies[-1].position = (0.0, 1.0)  # fell off the upper floor (y = 3)
    assert [count for count, _ in pyramids.problems()] == [1]

    # The engine refuses a state that is not finite, so that check is fed one directly.
    positions, velocities = np.zeros((5, 2)), np.zeros((5, 2))
    velocities[2] = np.nan
    found = scenes.scene_problems("joint_grid", {"n": 4}, positions, velocities, np.zeros(5))
    assert [count for count, _ in found] == [1]
