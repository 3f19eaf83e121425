"""The joints one step solves, gathered from the joint table with the arrays they act on.

Joints may hold a body to the world, which is not a body row. The step gives the world one
extra row past the N bodies in its velocity, mass and pose arrays: zero velocity, zero
inverse mass and inertia, pose (0, 0, 0). Joints then need no special case for it, and
neither does the colouring (the world row is never movable).
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC, Table
from .joint_store import JOINT_FIELDS, WORLD

# Columns the solver changes, written back to the table after the step.
IMPULSE_FIELDS = ("impulse", "motor_impulse", "lower_impulse", "upper_impulse")


def joint_slots(table: Table, row_of_id: np.ndarray, body_count: int) -> np.ndarray:
    """(J, 2) int64 body rows of every joint's slots A and B; the world is ``body_count``."""
    ids = np.column_stack([table.view("body_a"), table.view("body_b")])
    rows = row_of_id[np.maximum(ids, 0)]
    return np.where(ids == WORLD, body_count, rows)


class StepJoints:
    """The joints solved this step: those with a moving body on either side.

    rows: (J',) table rows, in colour order once ``reorder`` has run; columns: the table's
    columns at those rows (copies); slots: (J', 2) rows into the extended arrays;
    velocity: (N + 1, 3) extended velocities (the step's (N, 3) array is its first N rows);
    inv_mass, inv_inertia: (N + 1,).
    """

    def __init__(self, table: Table, rows, slots, velocity, inv_mass, inv_inertia):
        self.rows = rows
        self.slots = slots
        self.columns = {name: table.view(name)[rows] for name in JOINT_FIELDS}
        self.velocity = np.vstack([velocity, np.zeros((1, 3))])
        self.inv_mass = np.append(inv_mass, 0.0)
        self.inv_inertia = np.append(inv_inertia, 0.0)

    @classmethod
    def gather(cls, table: Table, row_of_id, active, kind, velocity, inv_mass, inv_inertia):
        """The joints with an active body (active: (N,) bool), or None if there are none."""
        if table.count == 0:
            return None
        n = len(active)
        slots = joint_slots(table, row_of_id, n)
        active = np.append(active, False)
        dynamic = np.append(kind == DYNAMIC, False)
        solved = (active[slots[:, 0]] | active[slots[:, 1]]) & (
            dynamic[slots[:, 0]] | dynamic[slots[:, 1]]
        )
        rows = np.flatnonzero(solved)
        if len(rows) == 0:
            return None
        return cls(table, rows, slots[rows], velocity, inv_mass, inv_inertia)

    def reorder(self, order: np.ndarray) -> None:
        """Put the joints in ``order`` (J',) (colour order)."""
        self.rows, self.slots = self.rows[order], self.slots[order]
        self.columns = {name: column[order] for name, column in self.columns.items()}

    def poses(self, poses: np.ndarray) -> np.ndarray:
        """(N + 1, 3) copy of ``poses`` (N, 3) with the world's zero pose appended."""
        return np.vstack([poses, np.zeros((1, 3))])

    def free(self, manifolds) -> np.ndarray:
        """(J',) bool: joints whose bodies are in none of ``manifolds``."""
        touching = np.zeros(len(self.inv_mass), dtype=bool)
        touching[manifolds.body_a] = True
        touching[manifolds.body_b] = True
        return ~(touching[self.slots[:, 0]] | touching[self.slots[:, 1]])

    def store_impulses(self, table: Table) -> None:
        """Write the accumulated impulses back to the table, for the next warm start."""
        for name in IMPULSE_FIELDS:
            table.view(name)[self.rows] = self.columns[name]
