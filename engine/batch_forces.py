"""Forces, torques and impulses on one body in many copies of a ``WorldBatch`` at once,
as the body's handle applies them in each."""

from __future__ import annotations

import numpy as np

from .batch_checks import (
    check_lengths,
    check_sizes,
    real_array,
)
from .body_forces import LARGEST
from .body_store import DYNAMIC
from .settings import (
    MAX_ANGULAR_SPEED,
    MAX_COORDINATE,
    MAX_SPEED,
)


class BatchForces:
    """``apply_impulse``, ``apply_force`` and ``apply_torque`` per copy (part of ``WorldBatch``)."""

    # -- forces and impulses ---------------------------------------------------------------
    def apply_impulse(self, body, impulses, points=None, copies=None) -> None:
        """Change ``body``'s momentum now in the chosen copies (a (C,) bool mask, indices,
        or None for all) by impulses (C, 2), N s, at world points (C, 2), m (default: the
        centre of mass), as ``Body.apply_impulse`` does in each (static and kinematic
        bodies are not affected); the other copies' rows of impulses and points are not
        read."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        impulse = real_array(impulses, "impulse", (self._copies, 2))[chosen]
        check_lengths(impulse, "impulse", LARGEST, "N s")
        cells = self._body
        angular = np.zeros(len(chosen))
        if points is not None:
            point = real_array(points, "point", (self._copies, 2))[chosen]
            check_lengths(point, "point", MAX_COORDINATE, "m")
            position = cells["position"][chosen, row]
            angular = (point[:, 0] - position[:, 0]) * impulse[:, 1] - (
                point[:, 1] - position[:, 1]
            ) * impulse[:, 0]
        if self._inputs.body["kind"][row] != DYNAMIC:
            return
        inv_mass = cells["inv_mass"][chosen, row]
        velocity = cells["velocity"][chosen, row]
        vx = velocity[:, 0] + impulse[:, 0] * inv_mass
        vy = velocity[:, 1] + impulse[:, 1] * inv_mass
        spin = cells["angular_velocity"][chosen, row] + angular * cells["inv_inertia"][chosen, row]
        check_lengths(np.stack([vx, vy], axis=1), "impulse", MAX_SPEED, "m/s of resulting speed")
        check_sizes(spin, "point", MAX_ANGULAR_SPEED, "rad/s of resulting spin")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["velocity"][chosen, row, 0] = vx
        cells["velocity"][chosen, row, 1] = vy
        cells["angular_velocity"][chosen, row] = spin

    def apply_force(self, body, forces, points=None, copies=None) -> None:
        """Add forces (C, 2), N, to ``body`` for the next step in the chosen copies (a (C,)
        bool mask, indices, or None for all), at world points (C, 2), m (default: the
        centre of mass), as ``Body.apply_force`` does in each."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        force = real_array(forces, "force", (self._copies, 2))[chosen]
        check_lengths(force, "force", LARGEST, "N")
        cells = self._body
        torque = np.zeros(len(chosen))
        if points is not None:
            point = real_array(points, "point", (self._copies, 2))[chosen]
            check_lengths(point, "point", MAX_COORDINATE, "m")
            position = cells["position"][chosen, row]
            torque = (point[:, 0] - position[:, 0]) * force[:, 1] - (
                point[:, 1] - position[:, 1]
            ) * force[:, 0]
        total = cells["force"][chosen, row] + force
        total_torque = cells["torque"][chosen, row] + torque
        dt = self._template._dt
        gain = np.hypot(total[:, 0], total[:, 1]) * cells["inv_mass"][chosen, row] * dt
        check_sizes(gain, "force", MAX_SPEED, "m/s of speed gained in a step")
        spin = np.abs(total_torque) * cells["inv_inertia"][chosen, row] * dt
        check_sizes(spin, "point", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["force"][chosen, row] = total
        cells["torque"][chosen, row] = total_torque

    def apply_torque(self, body, torques, copies=None) -> None:
        """Add torques (C,), N m, to ``body`` for the next step in the chosen copies (a (C,)
        bool mask, indices, or None for all), as ``Body.apply_torque`` does in each."""
        row = self.index_of(body)
        chosen = np.flatnonzero(self._chosen(copies))
        torque = real_array(torques, "torque", (self._copies,))[chosen]
        cells = self._body
        total = cells["torque"][chosen, row] + torque
        spin = np.abs(total) * cells["inv_inertia"][chosen, row] * self._template._dt
        check_sizes(spin, "torque", MAX_ANGULAR_SPEED, "rad/s of spin gained in a step")
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        cells["torque"][chosen, row] = total
