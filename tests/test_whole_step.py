"""The step as one compiled call (``engine.whole_step``) against the staged step.

A world without presolve handlers steps in one call; one with a handler runs detection,
the handlers and the solve as separate calls. The staged path is the oracle: a presolve
handler that keeps every contact changes nothing, so the same world stepped both ways
must end bit for bit the same, step after step: the whole saved state (poses,
velocities, sleep, joints' impulses, the warm-start cache, the event log) and the events.
"""

from __future__ import annotations

import io

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.step as step_module
from engine import Box, Circle, Polygon, RevoluteJoint, Segment, World


def keep_every_contact(contact) -> None:
    """A presolve handler that drops nothing: it only sends the step the staged way."""
    return None


def saved(world: World) -> bytes:
    buffer = io.BytesIO()
    world.save(buffer)
    return buffer.getvalue()


def events(world: World) -> list:
    """The last step's events: name and the two bodies' ids, with a contact's impulse."""
    out = []
    for event in world.events:
        subject = event.subject
        if event.name.startswith("sensor"):
            out.append((event.name, subject.sensor.body_id, subject.other.body_id, 0.0))
        else:
            pair = (subject.body_a.body_id, subject.body_b.body_id)
            out.append((event.name, *pair, subject.normal_impulse))
    return out


bodies = st.lists(
    st.tuples(
        st.sampled_from(["box", "circle", "hexagon"]),
        st.floats(0.2, 1.5),  # size
        st.tuples(st.floats(-4, 4), st.floats(0.2, 6)),  # position
        st.tuples(st.floats(-8, 8), st.floats(-8, 8)),  # velocity
        st.floats(-5, 5),  # angular velocity
        st.sampled_from(["dynamic", "dynamic", "dynamic", "kinematic", "static"]),
        st.booleans(),  # sensor
        st.booleans(),  # bullet
    ),
    min_size=1,
    max_size=8,
)


def shape(kind: str, size: float, sensor: bool):
    if kind == "box":
        return Box(size, size * 0.7, sensor=sensor)
    if kind == "circle":
        return Circle(size / 2, sensor=sensor)
    angles = np.arange(6) * np.pi / 3
    return Polygon(size / 2 * np.column_stack([np.cos(angles), np.sin(angles)]), sensor=sensor)


def build(spec, joints: int, sleep: bool) -> World:
    world = World(sleep=sleep)
    world.add_body(Segment((-10, 0), (10, 0)), kind="static")
    made = []
    for kind, size, position, velocity, spin, body_kind, sensor, bullet in spec:
        moving = body_kind != "static"
        made.append(
            world.add_body(
                shape(kind, size, sensor and len(made) > 0),
                position=position,
                kind=body_kind,
                velocity=velocity if moving else (0.0, 0.0),
                angular_velocity=spin if moving else 0.0,
                bullet=bullet and body_kind == "dynamic",
            )
        )
    dynamic = [body for body in made if body.kind == "dynamic"]
    for a, b in list(zip(dynamic, dynamic[1:]))[:joints]:
        world.add_joint(RevoluteJoint(a, b, tuple((np.add(a.position, b.position)) / 2)))
    return world


@settings(max_examples=40, deadline=None)
@given(spec=bodies, joints=st.integers(0, 2), sleep=st.booleans())
def test_the_one_call_step_is_the_staged_step_bit_for_bit(spec, joints, sleep):
    fused = build(spec, joints, sleep)
    staged = build(spec, joints, sleep)
    staged.on("presolve", keep_every_contact)
    for _ in range(60):
        fused.step()
        staged.step()
        assert events(fused) == events(staged)
    assert saved(fused) == saved(staged)


def test_a_world_without_presolve_handlers_steps_in_one_call(monkeypatch):
    calls = {"whole": 0, "detect": 0}
    whole, detect = step_module.whole_step, step_module.detect_stage

    def counted_whole(*args):
        calls["whole"] += 1
        return whole(*args)

    def counted_detect(*args):
        calls["detect"] += 1
        return detect(*args)

    monkeypatch.setattr(step_module, "whole_step", counted_whole)
    monkeypatch.setattr(step_module, "detect_stage", counted_detect)
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Circle(0.5), position=(0, 2))
    for _ in range(10):
        world.step()
    assert calls == {"whole": 10, "detect": 0}
    world.on("presolve", keep_every_contact)
    world.step()
    assert calls == {"whole": 10, "detect": 1}


def test_sensor_overlaps_are_reported_alike_on_both_paths():
    worlds = []
    for staged in (False, True):
        world = World()
        world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
        world.add_body(Box(2, 2, sensor=True), position=(0, 1), kind="static")
        world.add_body(Circle(0.3), position=(0, 4))
        if staged:
            world.on("presolve", keep_every_contact)
        worlds.append(world)
    seen = [[], []]
    for _ in range(120):
        for k, world in enumerate(worlds):
            world.step()
            seen[k].append(events(world))
    assert seen[0] == seen[1]
    assert any(event[0] == "sensor_begin" for step in seen[0] for event in step)
    assert saved(worlds[0]) == saved(worlds[1])
