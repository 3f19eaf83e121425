"""The solve works on the bodies that take part only (``engine.substep.solve_rows``).

A step's sub-steps gather the rows of the bodies that move and of every body their
contacts and joints reach, solve those, and write them back; the rest of the world (a
level of static tiles, a sleeping pile far away) is never visited. The oracle is the
same scene without the rest: a body's motion depends only on what it touches, so the
scene's bodies must move bit for bit alike with any number of unrelated bodies in
between their rows, and those bodies must not change at all.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, RevoluteJoint, World

scene_bodies = st.lists(
    st.tuples(
        st.sampled_from(["box", "circle"]),
        st.floats(0.2, 1.2),  # size
        st.tuples(st.floats(-4, 4), st.floats(0.3, 5)),  # position
        st.tuples(st.floats(-6, 6), st.floats(-6, 6)),  # velocity
        st.sampled_from(["dynamic", "dynamic", "dynamic", "kinematic"]),
    ),
    min_size=1,
    max_size=6,
)


def add_unrelated(world: World, where: float, sleeping: bool) -> list:
    """A few static tiles, and with ``sleeping`` a box put to sleep, near x = where (far
    from the scene, touching nothing of it)."""
    made = [
        world.add_body(Box(1.0, 1.0), position=(where + i, -40.0), kind="static") for i in range(3)
    ]
    if sleeping:
        box = world.add_body(Box(0.5, 0.5), position=(where, -30.0))
        box.awake = False
        made.append(box)
    return made


def build(spec, hinge: bool, unrelated: bool):
    """The scene (a floor, the bodies of spec, a hinge between the first two if asked),
    with unrelated bodies added before and between the scene's if ``unrelated``."""
    world = World()
    others = []
    if unrelated:
        others += add_unrelated(world, 1000.0, sleeping=True)
    world.add_body(Box(20.0, 1.0), position=(0.0, -0.5), kind="static")
    scene = []
    for i, (kind, size, position, velocity, body_kind) in enumerate(spec):
        if unrelated:
            others += add_unrelated(world, 2000.0 + 100.0 * i, sleeping=i % 2 == 0)
        shape = Box(size, 0.7 * size) if kind == "box" else Circle(size / 2)
        scene.append(world.add_body(shape, position=position, velocity=velocity, kind=body_kind))
    if hinge and len(scene) > 1 and "dynamic" in (scene[0].kind, scene[1].kind):
        world.add_joint(RevoluteJoint(scene[0], scene[1], scene[0].position))
    return world, scene, others


def state(bodies: list) -> np.ndarray:
    return np.array(
        [(*b.position, b.angle, *b.velocity, b.angular_velocity, b.awake) for b in bodies]
    )


@settings(max_examples=25, deadline=None)
@given(scene_bodies, st.booleans())
def test_unrelated_bodies_change_neither_the_scene_nor_themselves(spec, hinge):
    alone, alone_scene, _ = build(spec, hinge, unrelated=False)
    crowded, crowded_scene, others = build(spec, hinge, unrelated=True)
    before = state(others)
    for _ in range(40):
        alone.step()
        crowded.step()
        assert np.array_equal(state(alone_scene), state(crowded_scene))
    assert np.array_equal(state(others), before)
