"""The shapes' own materials in saved worlds: the part columns and the shape indices.

Loading checks what ``World.add_body`` and the body setters establish: each part's
friction, restitution, sensor flag, category, mask and group are its shape's own value,
else its body's; its shape index is that of the shape that made it; a shape's parts share
one density, parts of shapes without their own have the body's, and the body's mass is
what the part densities give. Files older than the part columns (versions 1 to 3) give
every part its body's values.
"""

from __future__ import annotations

import numpy as np

from .field_rules import RULES, column_message
from .materials import PART_MATERIALS, own_values, part_shapes

# The part columns a version 1-3 file lacks (filled in from its bodies).
PART_COLUMNS = (*PART_MATERIALS, "shape")


def fill_parts_from_bodies(shapes: tuple, bodies: dict, parts: dict) -> None:
    """Give the parts of an old file (without material columns) their bodies' values and
    their shape indices, in place. shapes: the N live bodies' shapes; parts: (P,) columns.
    A file older than the shapes' own settings holds shapes without any."""
    owner = parts["body"]
    parts["shape"] = np.concatenate(
        [part_shapes(body_shapes) for body_shapes in shapes] or [np.zeros(0, np.int64)]
    )
    for name, dtype in PART_MATERIALS.items():
        parts[name] = bodies[name][owner].astype(dtype)


def shape_densities_of_parts(parts: dict, rows: slice, count: int) -> np.ndarray:
    """(count,) the density of each of a body's ``count`` shapes, read at the shape's first
    part; rows: the body's part rows (their shape indices were checked)."""
    at = np.searchsorted(parts["shape"][rows], np.arange(count))
    return parts["density"][rows][at]


def check_part_materials(check, shapes: tuple, bodies: dict, parts: dict, first, last) -> None:
    """The part columns against the shapes and the bodies' values (see the module doc).

    check: the loader's _Checker; shapes: the N live bodies' shapes; first, last: (N,) each
    body's part rows [first, last) (their count was checked against the shapes)."""
    n = len(shapes)
    owner = parts["body"]
    expected_shape = np.concatenate(
        [part_shapes(body_shapes) for body_shapes in shapes] or [np.zeros(0, np.int64)]
    )
    check.require(
        np.array_equal(parts["shape"], expected_shape),
        "array 'part.shape' is not the index of each part's shape",
    )
    for name in PART_MATERIALS:
        owned = np.concatenate(
            [own_values(body_shapes, name)[0] for body_shapes in shapes] or [np.zeros(0, bool)]
        )
        values = np.concatenate(
            [own_values(body_shapes, name)[1] for body_shapes in shapes]
            or [np.zeros(0, PART_MATERIALS[name])]
        )
        column = parts[name]
        if name == "density":
            check.require(
                RULES["density"].holds(column) & np.isfinite(column),
                column_message("part", "density"),
            )
            # A new mass scales every density, so only the unset ones are known exactly.
            check.require(
                column[~owned] == bodies["density"][owner][~owned],
                "array 'part.density' differs from the body's for shapes without their own",
            )
            continue
        check.require(
            column == np.where(owned, values, bodies[name][owner]),
            f"array 'part.{name}' is neither its shape's own value nor its body's",
        )
    # A shape's parts (a ConcavePolygon's) share one density.
    for row in range(n):
        rows = slice(first[row], last[row])
        shape_of_part = parts["shape"][rows]
        density = parts["density"][rows]
        starts = np.searchsorted(shape_of_part, shape_of_part)
        check.require(density == density[starts], "array 'part.density' differs within one shape")


def check_shape_indices(check, shape_counts: np.ndarray, ids, shapes, name: str) -> None:
    """Shape indices (K, 2) of events name shapes their bodies have: ids (K, 2) body ids,
    shape_counts: (I,) number of shapes of each body id (0: unknown id)."""
    check.require(
        (shapes >= 0) & (shapes < shape_counts[ids]), f"array {name!r} names shapes out of range"
    )
