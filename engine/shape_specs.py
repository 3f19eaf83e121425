"""Shapes as data: the JSON-ready spec a world file holds for each shape, and back.

A spec is the shape's type name and constructor arguments, plus the shape's own settings
(``Shape.material``) as further keys. Reading one back checks its form before anything is
built, and lets the shape's own constructor check its values.
"""

from __future__ import annotations

from .chain import Chain
from .materials import MATERIAL_NAMES
from .segments import Segment
from .shapes import Box, Circle, ConcavePolygon, Polygon

SHAPE_TYPES = {
    "Box": Box,
    "Circle": Circle,
    "Polygon": Polygon,
    "ConcavePolygon": ConcavePolygon,
    "Segment": Segment,
    "Chain": Chain,
}


def shape_spec(shape) -> dict:
    """A shape as its type name and constructor arguments (JSON-ready), with its own
    settings (``Shape.material``) as further keys."""
    return {**geometry_spec(shape), **shape.material}


def geometry_spec(shape) -> dict:
    kind = type(shape)
    if kind is Box:
        return {
            "type": "Box",
            "width": shape._width,
            "height": shape._height,
            "offset": shape._box_offset.tolist(),
            "angle": shape._angle,
        }
    if kind is Circle:
        return {"type": "Circle", "radius": shape._radius, "offset": shape._offset.tolist()}
    if kind is Polygon:
        return {"type": "Polygon", "vertices": shape._vertices.tolist()}
    if kind is ConcavePolygon:
        return {"type": "ConcavePolygon", "vertices": shape._outline.tolist()}
    if kind is Chain:
        return {"type": "Chain", "points": shape._points.tolist(), "loop": shape._loop}
    if kind is Segment:
        return {"type": "Segment", "a": shape._a.tolist(), "b": shape._b.tolist(),
                "radius": shape._radius}  # fmt: skip
    raise TypeError(f"cannot save a shape of type {kind.__name__}")


SHAPE_ARGUMENTS = {
    "Box": ("width", "height", "offset", "angle"),
    "Circle": ("radius", "offset"),
    "Polygon": ("vertices",),
    "ConcavePolygon": ("vertices",),
    "Segment": ("a", "b", "radius"),
    "Chain": ("points", "loop"),
}


def spec_vertex_count(spec, index: int, where: str) -> int:
    """Outline vertices a shape spec asks for (0 for a Box, Circle or Segment), checking
    its form."""
    kind = spec.get("type") if isinstance(spec, dict) else None
    if (
        not isinstance(kind, str)
        or kind not in SHAPE_ARGUMENTS
        or not {"type", *SHAPE_ARGUMENTS[kind]} <= set(spec)
        or not set(spec) <= {"type", *SHAPE_ARGUMENTS[kind], *MATERIAL_NAMES}
    ):
        raise ValueError(f"{where}: header 'shapes'[{index}] is not a shape: {short(spec)}")
    name = "points" if kind == "Chain" else "vertices"
    if name not in spec:
        return 0
    if not isinstance(spec[name], list):
        raise ValueError(f"{where}: header 'shapes'[{index}] {name} must be a list")
    return len(spec[name])


def short(value, limit: int = 200) -> str:
    """repr of a header value, cut short: a damaged file may hold a huge one."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def shape_from_spec(spec, index: int, where: str):
    kind = spec["type"]  # the form was checked by spec_vertex_count
    values = {name: spec[name] for name in SHAPE_ARGUMENTS[kind]}
    numbers = [v for name, v in values.items() if name != "loop"]
    if any(isinstance(v, (bool, str, dict)) or v is None for v in numbers):
        raise ValueError(
            f"{where}: header 'shapes'[{index}] has a non-numeric value: {short(spec)}"
        )
    material = {name: spec[name] for name in MATERIAL_NAMES if name in spec}
    try:
        return SHAPE_TYPES[kind](**values, **material)
    except Exception as error:  # the shape's own checks (and any failure of a bad outline)
        raise ValueError(f"{where}: header 'shapes'[{index}] ({kind}): {error}") from None
