"""Poses between two fixed steps, so motion looks smooth at any frame rate.

The world steps with a fixed dt; a frame usually falls between two steps. Drawing the
bodies at ``previous + alpha * (current - previous)``, with alpha the fraction of a step
already banked, hides the stepping (at the cost of showing the world up to one step late).
"""

from __future__ import annotations

import numpy as np

from engine import World

from .. import world_data


class PoseHistory:
    """Remembers the poses before the latest step and blends them with the current ones.

    Bodies are matched by id, so adding or removing bodies between steps is fine: a body
    that did not exist before the step is simply drawn where it is now.
    """

    def __init__(self) -> None:
        self._ids = np.zeros(0, dtype=np.int64)
        self._poses = np.zeros((0, 3))

    def capture(self, world: World) -> None:
        """Remember the world's poses now (call just before a step)."""
        self._ids = world_data.body_ids(world).copy()
        self._poses = current_poses(world)

    def blend(self, world: World, alpha: float) -> np.ndarray:
        """(N, 3) poses in row order: previous + alpha * (current - previous)."""
        current = current_poses(world)
        if alpha >= 1.0 or len(self._ids) == 0:
            return current
        ids = world_data.body_ids(world)
        # Ids grow with rows, so both id lists are sorted and searchsorted matches them.
        where = np.minimum(np.searchsorted(self._ids, ids), len(self._ids) - 1)
        known = self._ids[where] == ids
        previous = np.where(known[:, None], self._poses[where], current)
        # Angles blend like positions: a step never turns a body by more than half a turn.
        return previous + alpha * (current - previous)


def current_poses(world: World) -> np.ndarray:
    """(N, 3) float64 poses (x, y, angle) in row order (a copy)."""
    return np.column_stack([world.positions, world.angles])
