"""Whole-world arrays (parts, contacts, joints, kinds, ids) agree with the per-body API.

The oracle for each view is the public per-object API it summarises: the shapes' own
vertices placed by ``body.local_to_world``, ``world.contacts``, the joints' ``anchor_a`` and
``anchor_b``, and each body's ``kind``, ``sensor`` and ``body_id``.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import Box, Circle, ConcavePolygon, DistanceJoint, RevoluteJoint, World


def scene():
    world = World(cell_size=2.0)
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static")
    crate = world.add_body(Box(1, 0.5), position=(0, 0.3), angle=0.2)
    ball = world.add_body(Circle(0.3), position=(2, 0.3))
    ell = world.add_body(
        ConcavePolygon([(0, 0), (2, 0), (2, 0.5), (0.5, 0.5), (0.5, 2), (0, 2)]), position=(-4, 1)
    )
    world.add_body(Box(1, 1), position=(5, 3), kind="kinematic", sensor=True)
    world.add_joint(RevoluteJoint(crate, ball, anchor=(1, 0.3)))
    world.add_joint(DistanceJoint(ell, None, (-4, 1.5), (-4, 4), frequency=2.0))
    return world


def test_part_arrays_place_every_shape_where_its_body_is():
    world = scene()
    for _ in range(20):
        world.step()
    parts = world.part_arrays()
    assert parts.vertices.shape[0] == len(parts.count) == len(parts.radius) == len(parts.body)
    assert np.all(np.diff(parts.body) >= 0)  # a body's parts are consecutive
    for row, body in enumerate(world.bodies):
        mine = np.flatnonzero(parts.body == row)
        shape = body.shapes[0]
        if isinstance(shape, Circle):
            centre = body.local_to_world(parts.vertices[mine[0], 0])
            assert np.allclose(centre, body.position) and parts.radius[mine[0]] == 0.3
            continue
        placed = np.concatenate(
            [body.local_to_world(parts.vertices[p, : parts.count[p]]) for p in mine]
        )
        # Every placed corner is a corner of the shape itself, placed at the body's pose.
        outline = shape.outline if isinstance(shape, ConcavePolygon) else shape.vertices
        centroid = shape.centroid
        c, s = np.cos(body.angle), np.sin(body.angle)
        expected = (outline - centroid) @ np.array([[c, s], [-s, c]]) + body.position
        distance = np.hypot(*(placed[:, None, :] - expected[None, :, :]).transpose(2, 0, 1))
        assert distance.min(axis=1).max() < 1e-12
    with pytest.raises(ValueError, match="read-only"):
        parts.vertices[0, 0, 0] = 1.0


def test_contact_arrays_are_world_contacts_as_a_table():
    world = scene()
    for _ in range(30):
        world.step()
    table, contacts = world.contact_arrays(), world.contacts
    assert len(table.rows) == len(contacts) > 0
    bodies = world.bodies
    for i, contact in enumerate(contacts):
        a, b = table.rows[i]
        assert (bodies[a], bodies[b]) == (contact.body_a, contact.body_b)
        assert np.array_equal(table.normal[i], contact.normal)
        assert np.array_equal(table.points[table.pair_of_point == i], contact.points)
        assert table.normal_impulse[i] == contact.normal_impulse
        assert table.depth[i] == contact.depth
    # A body removed since the step shows as row -1.
    world.remove(contacts[0].body_b)
    assert -1 in world.contact_arrays().rows[0]


def test_joint_arrays_place_the_anchors_where_the_handles_say():
    world = scene()
    for _ in range(15):
        world.step()
    arrays, joints = world.joint_arrays(), world.joints
    assert arrays.kind.tolist() == [World.JOINT_KIND_CODES[k] for k in ("revolute", "distance")]
    assert arrays.frequency.tolist() == [0.0, 2.0]
    bodies = world.bodies
    assert arrays.rows.tolist() == [[1, 2], [-1, 3]]  # the world takes slot A (joint_store)
    for j, joint in enumerate(joints):
        ends = (joint.anchor_a, joint.anchor_b)
        if arrays.rows[j, 0] < 0:
            ends = ends[::-1]  # the user gave the body first
        for end, expected in enumerate(ends):
            row = arrays.rows[j, end]
            point = arrays.anchors[j, end]
            placed = point if row < 0 else bodies[row].local_to_world(point)
            assert np.allclose(placed, expected, rtol=0, atol=1e-12)


def test_kinds_sensors_ids_and_rows():
    world = scene()
    bodies = world.bodies
    codes = World.KIND_CODES
    assert world.kinds.tolist() == [codes[body.kind] for body in bodies]
    assert world.sensors.tolist() == [body.sensor for body in bodies]
    assert world.body_ids.tolist() == [body.body_id for body in bodies]
    assert [world.index_of(body) for body in bodies] == list(range(len(bodies)))
    assert world.cell_size == 2.0
    gone = bodies[1]
    world.remove(gone)
    assert world.index_of(gone) == -1 and world.index_of(bodies[2]) == 1
    assert World().index_of(bodies[2]) == -1
    with pytest.raises(TypeError, match="body: expected a Body, got str"):
        world.index_of("crate")
    with pytest.raises(ValueError, match="read-only"):
        world.kinds[0] = 0
