"""A body's mass properties and kind: mass, inertia, density, fixed rotation, kind.

``Body`` takes these properties from ``BodyMass``. A change keeps the body's row consistent
(inverse mass and inertia, the parts' densities) and wakes what it touches.
"""

from __future__ import annotations

import numpy as np

from .body_geometry import body_geometry
from .body_store import DYNAMIC, KIND_CODES, KIND_NAMES, STATIC
from .segments import check_dynamic
from .validation import as_finite_float


class BodyMass:
    """Mass, inertia, density, fixed rotation and kind (a part of ``Body``)."""

    __slots__ = ()

    @property
    def mass(self) -> float:
        """Mass in kg (inf for static and kinematic bodies)."""
        return float(self._get("mass"))

    @mass.setter
    def mass(self, value) -> None:
        """Set a dynamic body's mass, kg: its inertia scales with it, as if every density
        (the body's and each shape's) were multiplied by one factor."""
        mass = as_finite_float(value, "mass")
        if self._get("kind") != DYNAMIC:
            raise ValueError("mass: only a dynamic body has a mass to set")
        old_mass, old_inertia = float(self._get("mass")), float(self._get("inertia"))
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            inertia = old_inertia * (mass / old_mass)
            usable = mass > 0.0 and 0.0 < inertia < np.inf and 1.0 / mass < np.inf
            usable = usable and 1.0 / inertia < np.inf
        if not usable:
            raise ValueError(f"mass: must be > 0 and give a mass and inertia float64 can "
                             f"invert, got {mass:g}")  # fmt: skip
        world = self._world

        def weigh(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            # Every density scales by one factor: the body's and each part's.
            factor = mass / bodies["mass"][row]
            bodies["density"][row] *= factor
            world._parts.table.arrays["density"][world._parts.rows_of(row)] *= factor
            bodies["mass"][row], bodies["inertia"][row] = mass, inertia
            bodies["inv_mass"][row] = 1.0 / mass
            bodies["inv_inertia"][row] = 0.0 if bodies["fixed_rotation"][row] else 1.0 / inertia

        world._change_body(self, weigh)

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass, kg m^2 (inf unless dynamic).

        A dynamic body's can be set (> 0, finite); a new ``mass`` scales it, a new ``kind``
        recomputes it from the shapes."""
        return float(self._get("inertia"))

    @inertia.setter
    def inertia(self, value) -> None:
        inertia = as_finite_float(value, "inertia")
        if self._get("kind") != DYNAMIC:
            raise ValueError("inertia: only a dynamic body has an inertia to set")
        with np.errstate(over="ignore", divide="ignore"):
            usable = inertia > 0.0 and 1.0 / inertia < np.inf
        if not usable:
            raise ValueError(f"inertia: must be > 0 and invertible in float64, got {inertia:g}")
        world = self._world

        def turn(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["inertia"][row] = inertia
            bodies["inv_inertia"][row] = 0.0 if bodies["fixed_rotation"][row] else 1.0 / inertia

        world._change_body(self, turn)

    @property
    def density(self) -> float:
        """The body's density, kg/m^2: that of its shapes that set none (for every kind: it
        gives the mass a static or kinematic body takes when it is made dynamic). A new
        ``mass`` scales it with the shapes' own densities."""
        return float(self._get("density"))

    @property
    def fixed_rotation(self) -> bool:
        """True: nothing turns the body (its inverse inertia is 0); setting it also stops
        its spin. ``inertia`` still reports what the shapes have."""
        return bool(self._get("fixed_rotation"))

    @fixed_rotation.setter
    def fixed_rotation(self, value) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"fixed_rotation: expected a bool, got {type(value).__name__}")
        fixed = bool(value)
        world = self._world

        def fix(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            bodies["fixed_rotation"][row] = fixed
            if bodies["kind"][row] == DYNAMIC:
                bodies["inv_inertia"][row] = 0.0 if fixed else 1.0 / bodies["inertia"][row]
            if fixed:
                bodies["angular_velocity"][row] = 0.0

        world._change_body(self, fix)

    @property
    def kind(self) -> str:
        """ "dynamic", "static" or "kinematic"; assign one to change it.

        Made dynamic, a body takes its mass and inertia from its shapes and their densities
        (each shape's own, else ``density``; an inertia set by hand is not kept); made
        static, it stops; made kinematic, it keeps its velocity and moves as told. Bodies
        touching it wake.
        """
        return KIND_NAMES[int(self._get("kind"))]

    @kind.setter
    def kind(self, value) -> None:
        if value not in KIND_CODES:
            raise ValueError(f"kind: must be one of {sorted(KIND_CODES)}, got {value!r}")
        code = KIND_CODES[value]
        mass = inertia = np.inf
        if code == DYNAMIC:
            check_dynamic(self._shapes, "kind")
            # Each shape's density as its parts hold it (a ConcavePolygon's parts share one).
            densities = self._world._part_column(self, "density")
            shape_of_part = self._world._part_column(self, "shape")
            first = np.searchsorted(shape_of_part, np.arange(len(self._shapes)))
            geometry = body_geometry(self._shapes, densities[first])
            mass, inertia = geometry.mass, geometry.inertia
            with np.errstate(over="ignore", divide="ignore"):
                for name, amount in (("mass", mass), ("inertia", inertia)):
                    if not (0.0 < amount < np.inf and 1.0 / amount < np.inf):
                        raise ValueError(
                            f"kind: a dynamic body of these shapes and density gets a {name} "
                            f"of {amount:g}, which float64 cannot invert"
                        )
        world = self._world

        def change(row: int) -> None:
            bodies = world._bodies.arrays
            world._wake_rows(row)
            world._wake_touching(self._id)
            if STATIC in (code, bodies["kind"][row]):
                world._resting_parts.invalidate()  # the resting parts' grid gains or loses it
            bodies["kind"][row] = code
            bodies["mass"][row], bodies["inertia"][row] = mass, inertia
            dynamic = code == DYNAMIC
            bodies["inv_mass"][row] = 1.0 / mass if dynamic else 0.0
            turning = dynamic and not bodies["fixed_rotation"][row]
            bodies["inv_inertia"][row] = 1.0 / inertia if turning else 0.0
            if code == STATIC:
                bodies["velocity"][row] = 0.0
                bodies["angular_velocity"][row] = 0.0
            # Only dynamic bodies sleep or count resting time.
            bodies["awake"][row] = True
            bodies["sleep_time"][row] = 0.0
            bodies["island"][row] = -1

        world._change_body(self, change)
