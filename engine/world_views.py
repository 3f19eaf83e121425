"""A World's bulk views and read-outs: its tables as read-only arrays, and sums over bodies.

Views are rows [0, N) of the stores in the order of ``World.bodies``; they are read-only,
so that a write goes through a setter that wakes what it must (``engine.bulk_views``
describes the part, contact and joint arrays).
"""

from __future__ import annotations

import numpy as np

from .body import Body
from .body_store import KIND_CODES
from .bulk_views import (
    JOINT_KIND_CODES,
    ContactArrays,
    JointArrays,
    PartArrays,
    joint_arrays,
    part_arrays,
)


class WorldViews:
    """Read-only arrays of the world's tables and read-outs over its bodies (part of
    ``World``)."""

    # -- bulk views -----------------------------------------------------------------------
    def _read_only(self, field: str) -> np.ndarray:
        view = self._bodies.view(field).view()
        view.flags.writeable = False
        return view

    @property
    def positions(self) -> np.ndarray:
        """(N, 2) float64 read-only view of the centres of mass, in the order of ``bodies``."""
        return self._read_only("position")

    @property
    def angles(self) -> np.ndarray:
        """(N,) float64 read-only view of the angles."""
        return self._read_only("angle")

    @property
    def velocities(self) -> np.ndarray:
        """(N, 2) float64 read-only view of the velocities."""
        return self._read_only("velocity")

    @property
    def angular_velocities(self) -> np.ndarray:
        """(N,) float64 read-only view of the angular velocities."""
        return self._read_only("angular_velocity")

    @property
    def masses(self) -> np.ndarray:
        """(N,) float64 read-only view of the masses, kg (inf for static and kinematic)."""
        return self._read_only("mass")

    @property
    def inertias(self) -> np.ndarray:
        """(N,) float64 read-only view of the moments of inertia about the centres of mass,
        kg m^2 (inf for static and kinematic)."""
        return self._read_only("inertia")

    # -- read-outs of the dynamic bodies (see engine.readouts) -----------------------------
    def kinetic_energy(self) -> float:
        """Kinetic energy of the dynamic bodies, J (translation and rotation)."""
        from .readouts import kinetic_energy

        return kinetic_energy(self)

    def potential_energy(self) -> float:
        """Potential energy of the dynamic bodies in the world's gravity, J, zero at the
        origin."""
        from .readouts import potential_energy

        return potential_energy(self)

    def momentum(self) -> np.ndarray:
        """(2,) float64 linear momentum of the dynamic bodies, kg m/s."""
        from .readouts import momentum

        return momentum(self)

    def angular_momentum(self, about=(0.0, 0.0)) -> float:
        """Angular momentum of the dynamic bodies about the point ``about`` (2,), kg m^2/s."""
        from .readouts import angular_momentum

        return angular_momentum(self, about)

    # -- sleeping and the tables' public views ---------------------------------------
    @property
    def awake(self) -> np.ndarray:
        """(N,) bool read-only view: which bodies are awake (static ones count as awake)."""
        return self._read_only("awake")

    @property
    def kinds(self) -> np.ndarray:
        """(N,) int8 read-only view of the kinds as codes: ``World.KIND_CODES`` names them
        (0 dynamic, 1 static, 2 kinematic)."""
        return self._read_only("kind")

    KIND_CODES = dict(KIND_CODES)
    # Joint kind name -> the code ``joint_arrays().kind`` holds.
    JOINT_KIND_CODES = dict(JOINT_KIND_CODES)

    @property
    def sensors(self) -> np.ndarray:
        """(N,) bool read-only view: which bodies are sensors."""
        return self._read_only("sensor")

    @property
    def body_ids(self) -> np.ndarray:
        """(N,) int64 read-only view of the bodies' stable ids (``body.body_id``),
        increasing: rows keep the order bodies were added in."""
        return self._read_only("body_id")

    @property
    def cell_size(self) -> float | None:
        """The broad phase's grid cell size as given to World() (None: chosen each step)."""
        return self._cell_size

    def index_of(self, body: Body) -> int:
        """The row of ``body`` in the bulk views (its index in ``bodies``), or -1 if it is
        not in this world (removed, or another world's)."""
        if not isinstance(body, Body):
            raise TypeError(f"body: expected a Body, got {type(body).__name__}")
        return self._row_of(body) if body._world is self else -1

    def part_arrays(self) -> PartArrays:
        """Every body's convex parts as read-only arrays (see ``engine.bulk_views``):
        vertices (P, K, 2) in the owners' frames, count (P,), radius (P,), body (P,)."""
        return part_arrays(self._parts)

    def contact_arrays(self) -> ContactArrays:
        """The pairs touching after the last step as arrays (``world.contacts`` as a
        table): rows (C, 2), normal (C, 2), depth, normal_impulse, tangent_impulse (C,),
        points (Q, 2), pair_of_point (Q,). See ``engine.bulk_views``."""
        return self._event_log.contact_arrays(self._bodies.row_of_id)

    def joint_arrays(self) -> JointArrays:
        """Every joint as arrays: kind (J,), rows (J, 2) (-1: the world), anchors
        (J, 2, 2) in the bodies' frames, frequency (J,). See ``engine.bulk_views``."""
        return joint_arrays(self._joints, self._joint_slots(), self._bodies.count)

    def _handles_by_row(self) -> np.ndarray:
        """(N,) object array of the Body handles, cached until bodies change."""
        return self._bodies.handle_objects()
