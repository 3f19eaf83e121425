"""Contact points and normals of a World, for the overlay and the HUD's contact count.

The World keeps the last step's touching pairs as arrays (``world.contacts`` builds a
Contact object per pair from them, about 8 ms for a thousand pairs: too slow for every
frame); the overlay reads those arrays through ``demos.world_data``. Should they move, it
falls back to ``world.contacts``, and for a World without contacts it recomputes them the
way a step finds them: part boxes at the current poses -> broad-phase pairs -> narrow
phase.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import World
from engine.broadphase import find_pairs
from engine.narrowphase import collide_parts
from engine.swept_bounds import part_bounds

from .. import world_data

# Touching within this gap counts: the solver keeps resting contacts a slop deep and makes
# speculative ones a little ahead, and both should show.
GAP = 0.02  # m


class ContactPoints(NamedTuple):
    """points: (M, 2) world contact points; normals: (M, 2) unit normals from body A to B
    (one per point); manifolds: how many touching pairs produced them (body pairs from the
    engine's table, part pairs when recomputed)."""

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
    table = world_data.contact_table(world)
    if table is not None:
        return ContactPoints(table.points, table.normal[table.pair_of_point], len(table.keys))
    public = getattr(world, "contacts", None)
    if isinstance(public, list):
        return _from_contact_list(public)
    return recompute_contacts(world)


def _from_contact_list(contacts: list) -> ContactPoints:
    """ContactPoints from the World's public list of Contact objects."""
    if not contacts:
        return ContactPoints(np.zeros((0, 2)), np.zeros((0, 2)), 0)
    points = [np.asarray(contact.points, dtype=np.float64).reshape(-1, 2) for contact in contacts]
    normals = [np.tile(contact.normal, (len(p), 1)) for contact, p in zip(contacts, points)]
    return ContactPoints(np.concatenate(points), np.concatenate(normals), len(contacts))


def contact_count(world: World) -> int | None:
    """The number of touching body pairs if the world keeps them (cheap), else None."""
    table = world_data.contact_table(world)
    return None if table is None else len(table.keys)


def recompute_contacts(world: World) -> ContactPoints:
    """Contacts found afresh at the current poses with the engine's broad and narrow phase."""
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
