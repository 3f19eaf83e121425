"""The step's kept inputs (``engine.step_inputs``) against a fresh gathering.

The step keeps the table views and the joints' body rows it passes its kernels until a
table's layout changes. Whatever sequence of adds, removes, batch adds, kind changes and
restores a game makes between steps, what it kept must be what it would gather anew, and
its views must be the tables' own memory, so that values written in place reach the step.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, RevoluteJoint, WeldJoint, World
from engine.step_inputs import StepInputs

OPERATIONS = ("add", "remove", "add_joint", "remove_joint", "add_bodies", "restore", "kind")


def _same_arrays(kept, fresh) -> bool:
    """Equal values, shapes and dtypes throughout two (nested) tuples of arrays."""
    if isinstance(fresh, tuple):
        return len(kept) == len(fresh) and all(map(_same_arrays, kept, fresh))
    return kept.dtype == fresh.dtype and kept.shape == fresh.shape and np.array_equal(kept, fresh)


def _check(world: World) -> None:
    kept = world._step_inputs.current(world)
    fresh = StepInputs().current(world)
    for name in ("detect_body", "solve_body", "table", "part_columns", "filters", "slots",
                 "joints"):  # fmt: skip
        assert _same_arrays(getattr(kept, name), getattr(fresh, name)), name
    # The kept views are the tables' memory: a velocity written in place shows in them.
    bodies = world._bodies
    for field, column in zip(("position", "velocity"), (kept.detect_body[0], kept.detect_body[2])):
        assert np.shares_memory(column, bodies.arrays[field]) or bodies.count == 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(OPERATIONS), min_size=1, max_size=12), st.randoms())
def test_kept_step_inputs_match_a_fresh_gathering(operations, rng):
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    bodies = [world.add_body(Circle(0.3), position=(0, 1))]
    joints = []
    saved = world.snapshot()
    for operation in operations:
        world.step()
        if operation == "add":
            bodies.append(world.add_body(Box(0.4, 0.3), position=(rng.uniform(-5, 5), 2)))
        elif operation == "remove" and bodies:
            body = bodies.pop(rng.randrange(len(bodies)))
            joints = [j for j in joints if body not in (j.body_a, j.body_b)]
            world.remove(body)
        elif operation == "add_joint" and len(bodies) >= 2:
            a, b = rng.sample(bodies, 2)
            kind = RevoluteJoint if rng.random() < 0.5 else WeldJoint
            joints.append(world.add_joint(kind(a, b, anchor=tuple(a.position))))
        elif operation == "remove_joint" and joints:
            world.remove_joint(joints.pop(rng.randrange(len(joints))))
        elif operation == "add_bodies":
            positions = np.column_stack([np.linspace(-4, 4, 5), np.full(5, 3.0)])
            bodies += world.add_bodies([Circle(0.2)] * 5, positions)
        elif operation == "restore":
            world.restore(saved)
            bodies = [b for b in world.bodies if b.kind != "static"]
            joints = list(world.joints)
        elif operation == "kind" and bodies:
            body = rng.choice(bodies)
            body.kind = "kinematic" if body.kind == "dynamic" else "dynamic"
        _check(world)
    world.step()
    _check(world)


def test_a_joint_added_between_steps_stops_its_bodies_colliding():
    """Two boxes spawned into each other part; jointed after a step (collide_connected
    off), their contact must go with the next step, as the kept filters now hold the pair."""
    world = World(gravity=(0, 0))
    a = world.add_body(Box(1, 1), position=(0, 0))
    b = world.add_body(Box(1, 1), position=(0.5, 0))
    world.step()
    assert world.contacts, "the overlapping boxes touch"
    world.add_joint(WeldJoint(a, b, anchor=(0.25, 0)))
    world.step()
    assert not world.contacts
