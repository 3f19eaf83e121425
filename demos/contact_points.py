"""Contact points and normals of a World, for the overlay and the HUD's contact count.

The World keeps its manifolds inside ``step`` and publishes no contact list yet, so this
recomputes them the way a step does: part boxes at the current poses -> broad-phase pairs
-> narrow phase. When the engine gains ``world.contacts`` it is used instead.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import World
from engine.broadphase import find_pairs
from engine.narrowphase import collide_parts
from engine.swept_bounds import part_bounds

from . import world_data

# Touching within this gap counts: the solver keeps resting contacts a slop deep and makes
# speculative ones a little ahead, and both should show.
GAP = 0.02  # m


class ContactPoints(NamedTuple):
    """points: (M, 2) world contact points; normals: (M, 2) unit normals from body A to B
    (one per point); manifolds: how many touching part pairs produced them."""

    points: np.ndarray
    normals: np.ndarray
    manifolds: int


def part_boxes(world: World, margin: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Every part's world bounding box at the current poses: lower, upper (P, 2)."""
    packed, owner = world_data.parts(world)
    poses = np.column_stack([world.positions, world.angles])[owner]
    lower, upper = part_bounds(packed, poses)
    return lower - margin, upper + margin


def find_contacts(world: World) -> ContactPoints:
    """The world's current contacts (see the module docstring)."""
    published = getattr(world, "contacts", None)
    if hasattr(published, "points") and hasattr(published, "normals"):
        return _from_published(published)
    packed, owner = world_data.parts(world)
    empty = ContactPoints(np.zeros((0, 2)), np.zeros((0, 2)), 0)
    if len(owner) < 2:
        return empty
    lower, upper = part_boxes(world, GAP)
    pairs = find_pairs(lower, upper, world.broadphase, world_data.cell_size(world))
    part_a, part_b = pairs[:, 0], pairs[:, 1]
    body_a, body_b = owner[part_a], owner[part_b]
    dynamic = world_data.kinds(world) == world_data.DYNAMIC
    # The same pairs a step keeps: different bodies, at least one of them dynamic.
    keep = (body_a != body_b) & (dynamic[body_a] | dynamic[body_b])
    part_a, part_b, body_a, body_b = part_a[keep], part_b[keep], body_a[keep], body_b[keep]
    if len(part_a) == 0:
        return empty
    poses = np.column_stack([world.positions, world.angles])
    found = collide_parts(packed, part_a, poses[body_a], packed, part_b, poses[body_b], margin=GAP)
    touching = found.point_count > 0
    count = found.point_count[touching]
    slot = np.arange(2)[None, :] < count[:, None]  # which of the two point slots are real
    points = found.points[touching][slot]
    normals = np.repeat(found.normal[touching], count, axis=0)
    return ContactPoints(points, normals, int(touching.sum()))


def _from_published(contacts) -> ContactPoints:
    """Adapt a future ``world.contacts`` (points and normals as arrays) to ContactPoints."""
    points = np.asarray(contacts.points, dtype=np.float64).reshape(-1, 2)
    normals = np.asarray(contacts.normals, dtype=np.float64).reshape(-1, 2)
    return ContactPoints(points, normals, len(points))
