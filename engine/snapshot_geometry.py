"""Checking a snapshot's parts and bodies against the shapes they were made from.

Loading builds each body's shapes from the file's header and asks that the parts, reaches,
thicknesses, part materials and mass properties be those ``add_body`` and the setters make
from them: a file cannot hold parts its shapes do not make.
"""

from __future__ import annotations

import numpy as np

from .body_geometry import body_geometry
from .body_store import DYNAMIC
from .materials import part_shapes
from .packing import concatenate, widen
from .snapshot_format import ArrayChecker
from .snapshot_materials import (
    check_part_materials,
    fill_parts_from_bodies,
    shape_densities_of_parts,
)

# How far a recomputed centre of mass may be from the saved one, relative to the body's
# size, for bodies whose shapes have different densities (see ``check_geometry``): a few
# thousand units in the last place, far below anything a file could change by it.
RECOMPUTED_CENTROID = 1e-12


def check_geometry(
    check: ArrayChecker,
    shapes: tuple,
    bodies: dict,
    parts: dict,
    k: int,
    has_thickness: bool,
    has_density: bool,
) -> None:
    """The parts, reaches, thicknesses, materials and mass properties that ``add_body``
    makes from the shapes.

    shapes: the N live bodies' shapes (tuples); bodies, parts: the checked arrays; k: the
    part width K; has_thickness, has_density: the file holds body.thickness, body.density
    and the part materials (else they are filled in here). Parts must match bit for bit
    (they were computed by the same code), except for bodies whose shapes have different
    densities: their centre of mass is recomputed from densities a new ``mass`` may have
    scaled, which rounds differently, so their parts and origin offset may differ from it
    by RECOMPUTED_CENTROID (relative to the body's size). A dynamic body's mass must be
    what its part densities give, to rounding; before density was saved (and inertia could
    be set by hand), inertia over mass had to equal the shapes' moment over area (one
    density).
    """
    n = len(shapes)
    owner = parts["body"]
    first = np.searchsorted(owner, np.arange(n))
    last = np.searchsorted(owner, np.arange(n), side="right")
    for row in range(n):
        if len(part_shapes(shapes[row])) != last[row] - first[row]:
            check.fail(f"body row {row}: its shapes have other parts than array 'part.body' says")
    if not has_density:
        fill_parts_from_bodies(shapes, bodies, parts)  # densities are set below
    else:
        check_part_materials(check, shapes, bodies, parts, first, last)
    made: dict = {}
    expected = []
    ratio, area, mass = np.ones(n), np.ones(n), np.ones(n)
    centroid = np.zeros((n, 2))
    reach, thickness, tolerance = np.zeros(n), np.zeros(n), np.zeros(n)
    for row in range(n):
        densities = shape_densities_of_parts(parts, slice(first[row], last[row]), len(shapes[row]))
        key = (tuple(id(shape) for shape in shapes[row]), tuple(densities.tolist()))
        if key not in made:
            made[key] = body_geometry(shapes[row], densities if has_density else None)
        geometry = made[key]
        if geometry.parts.width > k:
            check.fail(f"body row {row}: its shapes have other parts than array 'part.body' says")
        expected.append(widen(geometry.parts, k))
        reach[row] = geometry.reach
        thickness[row] = geometry.thickness
        # A body of lines alone has no area (and is never dynamic): its ratio is not read.
        ratio[row] = geometry.moment / geometry.area if geometry.area > 0.0 else 1.0
        area[row], mass[row] = geometry.area, geometry.mass
        centroid[row] = geometry.centroid
        if len(set(densities.tolist())) > 1:
            size = geometry.reach + float(np.abs(geometry.centroid).max())
            tolerance[row] = RECOMPUTED_CENTROID * size
    if n == 0:
        return
    packed = concatenate(expected)
    for name in ("normals", "count", "radius"):
        check.require(
            np.array_equal(getattr(packed, name), parts[name]),
            f"array 'part.{name}' differs from the parts of the header's shapes",
        )
    check.require(
        np.abs(packed.vertices - parts["vertices"]) <= tolerance[owner][:, None, None],
        "array 'part.vertices' differs from the parts of the header's shapes",
    )
    # Reaches and thicknesses follow from the saved parts, exactly.
    part_reach = np.sqrt((parts["vertices"] ** 2).sum(axis=2)).max(axis=1) + parts["radius"]
    check.require(
        np.array_equal(part_reach, parts["reach"]), "array 'part.reach' is not the parts'"
    )
    exact = tolerance == 0.0
    check.require(
        np.abs(bodies["reach"] - reach) <= 2 * tolerance,
        "array 'body.reach' is not the reach of its shapes",
    )
    check.require(
        bodies["reach"] == np.maximum.reduceat(part_reach, first), "array 'body.reach' is not "
        "the reach of its parts",
    )  # fmt: skip
    if not has_thickness:
        bodies["thickness"][:] = thickness
    check.require(
        np.abs(bodies["thickness"] - thickness) <= 2 * tolerance,
        "array 'body.thickness' is not its shapes' thickness",
    )
    offset = bodies["origin_offset"]
    check.require(
        (offset == 0.0).all(axis=1)
        | (offset == -centroid).all(axis=1)
        | (~exact & (np.abs(offset + centroid) <= tolerance[:, None]).all(axis=1)),
        "array 'body.origin_offset' is neither 0 nor the way from the shapes' centroid to "
        "their origin",
    )
    dynamic = bodies["kind"] == DYNAMIC
    if not has_density:
        bodies["density"][dynamic] = bodies["mass"][dynamic] / area[dynamic]
        parts["density"][:] = bodies["density"][owner]
        with np.errstate(over="ignore", invalid="ignore"):
            relative = (bodies["inertia"] / bodies["mass"]) / ratio - 1.0
        check.require(
            np.abs(relative[dynamic]) <= 1e-12,
            "arrays 'body.mass' and 'body.inertia' do not fit the shapes with one density",
        )
        return
    with np.errstate(over="ignore", invalid="ignore"):
        relative = bodies["mass"] / mass - 1.0
    check.require(
        np.abs(relative[dynamic]) <= 1e-12,
        "arrays 'body.mass' and 'part.density' do not fit the shapes' areas",
    )
