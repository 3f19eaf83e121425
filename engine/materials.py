"""Material and role of a body's shapes: one check per property, and each part's values.

A shape may set its own ``density``, ``friction``, ``restitution``, ``sensor``,
``category``, ``mask``, ``group`` and ``tag``; what it leaves unset (None) comes from its
body (``World.add_body``'s arguments, or the body setters later). Each property has one
check, used by the shapes, ``add_body`` and the body setters alike, so the rules and the
messages are the same everywhere.

The part table holds the resolved values of every convex part (the shape's own, else the
body's), so the step's kernels read per-part columns: filtering, the sensor/solid split
and material mixing work per part pair.
"""

from __future__ import annotations

import numpy as np

from .field_rules import check_number
from .filtering import check_bits, check_group, check_tag


def check_density(value, argument: str = "density") -> float:
    """A density in kg/m^2: finite and > 0 (for every kind of body)."""
    return check_number("density", value, argument)


def check_friction(value, argument: str = "friction") -> float:
    """A friction coefficient: finite and >= 0."""
    return check_number("friction", value, argument)


def check_restitution(value, argument: str = "restitution") -> float:
    """A restitution coefficient in [0, 1]."""
    return check_number("restitution", value, argument)


def check_flag(value, argument: str) -> bool:
    """A bool (numpy's too); anything else is a TypeError."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argument}: expected a bool, got {type(value).__name__}")
    return bool(value)


# Property -> its check, in the order the shapes' keyword arguments take them.
MATERIAL_CHECKS = {
    "density": check_density,
    "friction": check_friction,
    "restitution": check_restitution,
    "sensor": lambda value: check_flag(value, "sensor"),
    "category": lambda value: check_bits(value, "category"),
    "mask": lambda value: check_bits(value, "mask"),
    "group": check_group,
    "tag": check_tag,
}
MATERIAL_NAMES = tuple(MATERIAL_CHECKS)
# The properties every part carries in the part table (a tag is read from the shape).
PART_MATERIALS = {
    "density": np.float64,
    "friction": np.float64,
    "restitution": np.float64,
    "sensor": bool,
    "category": np.int64,
    "mask": np.int64,
    "group": np.int64,
}


def check_material(values: dict) -> dict:
    """The properties of ``values`` (name -> value or None) that are set, each checked.

    Raises TypeError for an unknown name, and the property's own error for a bad value.
    """
    unknown = sorted(set(values) - set(MATERIAL_CHECKS))
    if unknown:
        raise TypeError(f"{unknown[0]}: not a shape property (one of {', '.join(MATERIAL_NAMES)})")
    return {
        name: MATERIAL_CHECKS[name](values[name])
        for name in MATERIAL_NAMES
        if name in values and values[name] is not None
    }


def shape_densities(shapes, density: float) -> list:
    """Each shape's density: its own, else the body's ``density``."""
    return [shape._material.get("density", density) for shape in shapes]


def part_shapes(shapes) -> np.ndarray:
    """(S,) int64: the index in ``shapes`` of each of their convex parts, in part order."""
    counts = [len(shape.packed.count) for shape in shapes]
    return np.repeat(np.arange(len(shapes), dtype=np.int64), counts)


def own_values(shapes, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Per part (S,): whether its shape sets ``name`` (bool), and the value it sets (0
    where unset), as the part table's dtype."""
    shape_of_part = part_shapes(shapes)
    owned = np.array([name in shape._material for shape in shapes], dtype=bool)
    values = np.array(
        [shape._material.get(name, 0) for shape in shapes], dtype=PART_MATERIALS[name]
    )
    return owned[shape_of_part], values[shape_of_part]


def part_materials(shapes, body_values: dict) -> dict:
    """The part-table columns of a body's parts: name -> (S,) array for each of
    PART_MATERIALS (the shape's own value, else ``body_values[name]``) and ``shape``
    (S,) int64, the index of each part's shape in ``shapes``."""
    columns = {"shape": part_shapes(shapes)}
    for name in PART_MATERIALS:
        owned, values = own_values(shapes, name)
        columns[name] = np.where(owned, values, body_values[name]).astype(PART_MATERIALS[name])
    return columns


def effective_tag(body, shape) -> str | None:
    """The tag that counts for ``shape`` of ``body``: the shape's own, else the body's."""
    own = shape._material.get("tag") if shape is not None else None
    return own if own is not None else body.tag
