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
        angular = self._moment(points, chosen, row, impulse)
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
        torque = self._moment(points, chosen, row, force)
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

    def _moment(self, points, chosen: np.ndarray, row: int, vector: np.ndarray) -> np.ndarray:
        """(K,) the moment about the body's centre of mass in each chosen copy (K,) of
        ``vector`` (K, 2) acting at the world ``points`` (C, 2), checked; zeros for None
        (the centre of mass), as a handle computes it."""
        if points is None:
            return np.zeros(len(chosen))
        point = real_array(points, "point", (self._copies, 2))[chosen]
        check_lengths(point, "point", MAX_COORDINATE, "m")
        position = self._body["position"][chosen, row]
        return (point[:, 0] - position[:, 0]) * vector[:, 1] - (
            point[:, 1] - position[:, 1]
        ) * vector[:, 0]

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

    def set_mass(self, body, masses, copies=None) -> None:
        """Set a dynamic ``body``'s mass, kg, in the chosen copies (a (C,) bool mask,
        indices, or None for all) to masses (C,), as ``body.mass = ...`` does in each: its
        inertia scales with it, as if every density were multiplied by one factor, and its
        island wakes. ValueError for a body that is not dynamic or a mass that is not > 0
        or gives a mass or inertia float64 cannot invert; the other copies' values are not
        read."""
        row = self.index_of(body)
        if self._inputs.body["kind"][row] != DYNAMIC:
            raise ValueError("mass: only a dynamic body has a mass to set")
        chosen = np.flatnonzero(self._chosen(copies))
        mass = real_array(masses, "mass", (self._copies,))[chosen]
        kept = self._mass
        old_mass, old_inertia = kept["mass"][chosen, row], kept["inertia"][chosen, row]
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            inertia = old_inertia * (mass / old_mass)
            usable = (mass > 0.0) & (0.0 < inertia) & (inertia < np.inf) & (1.0 / mass < np.inf)
            usable &= 1.0 / inertia < np.inf
        if not usable.all():
            bad = float(mass[~usable][0])
            raise ValueError(
                f"mass: must be > 0 and give a mass and inertia float64 can invert, got {bad:g}"
            )
        self._wake(chosen, np.full(len(chosen), row), touching_too=False)
        factor = mass / old_mass
        kept["density"][chosen, row] *= factor
        run = self._template._parts.rows_of(row)
        kept["part_density"][chosen, run.start : run.stop] *= factor[:, None]
        kept["mass"][chosen, row], kept["inertia"][chosen, row] = mass, inertia
        body_columns = self._body
        body_columns["inv_mass"][chosen, row] = 1.0 / mass
        fixed = bool(self._template._bodies.columns()["fixed_rotation"][row])
        body_columns["inv_inertia"][chosen, row] = 0.0 if fixed else 1.0 / inertia
