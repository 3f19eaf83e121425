"""Contact points and normals of a World, for the overlay and the HUD's contact count.

The World keeps the last step's touching pairs as arrays, ``world.contact_arrays()``
(``world.contacts`` builds a Contact object per pair from the same table, about 8 ms for a
thousand pairs: too slow for every frame). Also every part's bounding box, for the
broad-phase overlay and the camera.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine import World
from engine.swept_bounds import part_bounds

from .. import world_data


class ContactPoints(NamedTuple):
    """points: (M, 2) world contact points; normals: (M, 2) unit normals from body A to B
    (one per point); manifolds: how many touching body pairs produced them."""

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
    """The contact points and normals of the pairs touching after the last step."""
    table = world_data.contacts(world)
    return ContactPoints(table.points, table.normal[table.pair_of_point], len(table.rows))


def contact_count(world: World) -> int:
    """The number of touching body pairs after the last step."""
    return len(world_data.contacts(world).rows)
