"""A world in which nothing moves steps without running its stages (``engine.step.still``).

The stages are the oracle: the same worlds stepped with the shortcut switched off must
end bitwise where the shortcut leaves them, step after step, through falling asleep,
resting, being woken and settling again: poses, velocities, sleep, the joints' impulses,
the warm-start cache, contacts and events.
"""

from __future__ import annotations

import numpy as np
import pytest

import engine.step as step_module
from engine import Box, Circle, RevoluteJoint, World

COLUMNS = ("position", "angle", "velocity", "angular_velocity", "awake", "sleep_time",
           "island", "force", "torque")  # fmt: skip
JOINT_COLUMNS = step_module.JOINT_IMPULSES


def _resting_scene(substeps: int, seed: int) -> tuple[World, list]:
    """A ground, a column of boxes, a hinged pair of planks and a ball, dropped to rest."""
    rng = np.random.default_rng(seed)
    world = World(substeps=substeps)
    world.add_body(Box(30, 1), position=(0, -0.5), kind="static")
    bodies = [
        world.add_body(Box(1, 1), position=(rng.uniform(-0.1, 0.1), 0.5 + 1.0 * i))
        for i in range(4)
    ]
    left = world.add_body(Box(2, 0.2), position=(4, 0.2 + rng.uniform(0, 0.3)))
    right = world.add_body(Box(2, 0.2), position=(6, 0.2))
    world.add_joint(RevoluteJoint(left, right, (5, 0.2)))
    bodies += [left, right, world.add_body(Circle(0.3), position=(-4, 0.3))]
    return world, bodies


def _state(world: World) -> dict:
    state = {name: world._bodies.view(name).copy() for name in COLUMNS}
    state.update({f"joint.{name}": world._joints.view(name).copy() for name in JOINT_COLUMNS})
    state["warm.keys"] = world._warm.keys.copy()
    state["warm.normal"] = world._warm.normal.copy()
    state["warm.tangent"] = world._warm.tangent.copy()
    state["contacts"] = np.array(
        [(c.body_a.body_id, c.body_b.body_id) for c in world.contacts], dtype=np.int64
    ).reshape(-1, 2)
    state["events"] = np.array([event.name for event in world.events], dtype=str)
    return state


def _run(substeps: int, seed: int, shortcut: bool, monkeypatch) -> tuple[list, int]:
    """Each step's state over a drop to rest, a force on the ground, a wake by an impulse
    and a second rest; and how many steps took the shortcut."""
    world, bodies = _resting_scene(substeps, seed)
    taken = 0
    real_still = step_module.still

    def counted_still(*args):
        nonlocal taken
        answer = shortcut and real_still(*args)
        taken += answer
        return answer

    monkeypatch.setattr(step_module, "still", counted_still)
    states = []
    for i in range(900):
        if i == 400:
            # A force on the static ground wakes nothing; the step clears it all the same.
            world.bodies[0].apply_force((3.0, 1.0))
            world.bodies[0].apply_torque(2.0)
        if i == 450:
            bodies[2].apply_impulse((0.5, 0.0))  # a box of the column, woken
        if i == 455:
            bodies[-1].apply_force((1.0, 0.0))  # on the sleeping ball: woken, pushed
        world.step()
        states.append(_state(world))
    return states, taken


@pytest.mark.parametrize("substeps, seed", [(4, 0), (3, 1), (1, 2)])
def test_a_world_at_rest_steps_bitwise_as_its_stages_would(substeps, seed, monkeypatch):
    fast, taken = _run(substeps, seed, True, monkeypatch)
    slow, never = _run(substeps, seed, False, monkeypatch)
    assert never == 0
    assert taken > 300, "the scene must spend steps at rest for the shortcut to be tested"
    for step, (mine, theirs) in enumerate(zip(fast, slow)):
        for name, value in theirs.items():
            assert mine[name].shape == value.shape, (step, name)
            # Bitwise: the same bits, -0.0 against 0.0 included.
            assert mine[name].tobytes() == value.tobytes(), (step, name)


def _count_still_steps(world: World, steps: int, monkeypatch) -> int:
    taken = 0
    real_still = step_module.still

    def counted_still(*args):
        nonlocal taken
        answer = real_still(*args)
        taken += answer
        return answer

    monkeypatch.setattr(step_module, "still", counted_still)
    for _ in range(steps):
        world.step()
    monkeypatch.setattr(step_module, "still", real_still)
    return taken


def test_only_a_world_with_every_body_at_rest_takes_the_shortcut(monkeypatch):
    world, bodies = _resting_scene(4, 0)
    assert _count_still_steps(world, 400, monkeypatch) > 0
    assert not any(body.awake for body in bodies)
    assert _count_still_steps(world, 10, monkeypatch) == 10
    bodies[0].awake = True  # awake, and it stays so for a while at least
    assert _count_still_steps(world, 10, monkeypatch) == 0
    # A kinematic body, moving or not, is never a resting part: never still.
    world, bodies = _resting_scene(4, 0)
    world.add_body(Box(1, 1), position=(10, 5), kind="kinematic", velocity=(0.0, 0.0))
    assert _count_still_steps(world, 400, monkeypatch) == 0
    assert not any(body.awake for body in bodies)
