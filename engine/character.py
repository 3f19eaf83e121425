"""A kinematic character controller: move a body and slide it along what it hits.

``move_and_slide`` moves a body (usually kinematic) by a requested motion without ever
passing through or ending inside another body:

1. If the body starts touching or overlapping something (a platform moved into it, or it
   was placed there), it is pushed out along the minimum translation, to a skin away (1 mm
   times the world's ``units_per_meter``).
2. Up to ``max_slides`` times: sweep the body's parts along the remaining motion (the exact
   swept separating-axis kernel, so thin walls cannot be tunnelled). With no hit it moves
   the whole way. Otherwise it moves up to the hit, stopping a skin short of the surface
   (backing up along its own path, which is known to be free), and the rest of the motion
   loses its component into the surface: it slides.

The skin gap matters: the swept kernel reports an impact at once for shapes that touch,
even when moving apart, so a body left exactly touching could never leave.

Floors and walls: a contact whose surface normal (from the obstacle to the body) is within
``floor_angle`` of up is a floor; any other is a wall. Sliding along a floor may climb (that
is how a horizontal walk goes up a gentle ramp). Sliding along a wall never gains height:
where the true slide would rise more than the motion itself (a steep slope facing up), the
wall is treated as vertical, so only the horizontal push into it is removed and the motion
keeps its own vertical part. A horizontal walk therefore stops at the foot of a steep slope
(and gravity still finds the ground there), while sliding along vertical walls and
overhangs is the plain projection.

The whole move, push-out and slides, is one kernel call on the world's query index, which
it only reads. ``World.move_and_slide`` then writes the body's new position (the write any
program makes, validated) and patches the moved body into the index, so that the next query
need not rebuild it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .call_args import finite_float, vector_floats
from .cast_kernels import cast_filters, deepest_contact, first_impact, index_parts
from .filtering import ALL_CATEGORIES
from .jit import kernel
from .query_index import ANGLE, QueryIndex, X, Y, parts_of_body
from .settings import CHARACTER_SKIN, MAX_COORDINATE
from .validation import check_bound

# Push-out passes when the body starts overlapping several bodies at once.
DEPENETRATION_PASSES = 4
# Steepest surface that is still a floor, by default.
FLOOR_ANGLE = math.radians(45)


@dataclass(frozen=True, eq=False)
class SlideResult:
    """The outcome of :func:`move_and_slide`.

    position: (2,) the body's new position (centre of mass). contacts: list of
    (Body, normal) for every surface met, in the order met; normal (2,) is the unit surface
    normal pointing from that body towards the moved one. on_floor: True when any contact's
    normal is within ``floor_angle`` of up.
    """

    position: np.ndarray
    contacts: list
    on_floor: bool


def move_and_slide(
    index: QueryIndex, parts: dict, bodies: dict, handles: np.ndarray, row: int, motion,
    max_slides: int = 4, floor_angle: float | None = None, units_per_meter: float = 1.0,
) -> tuple[SlideResult, bool]:  # fmt: skip
    """Where body ``row`` ends when moved by ``motion`` (2,), sliding along what it hits.

    Returns its SlideResult and whether it moves at all. Nothing is written: the caller sets
    the body's position to the result's (``World.move_and_slide`` does, and then patches the
    index). index: the world's QueryIndex at its current poses; parts: the part table's
    columns (category, mask, group (P,) int64 and sensor (P,) bool are read); bodies: the
    body table's columns (the moved body's category, mask, group, angle and origin_offset
    are read); handles: (N,) object array, the Body of each body row. units_per_meter: the
    world's, which scales the skin kept from surfaces (CHARACTER_SKIN m).

    Any kind of body may be moved; it is not turned and its velocity is left alone. Bodies
    it would not collide with in a step (itself, sensors, bodies its collision filter
    excludes) do not block it. max_slides: int >= 1, the most sweeps (motion left after the
    last one is dropped). floor_angle: radians in [0, pi] (None: FLOOR_ANGLE). It never ends
    overlapping another body, nor passes through one, unless it starts wedged between
    several (the push-out then gives up after DEPENETRATION_PASSES passes).
    """
    mx, my = vector_floats(motion, "motion")
    check_bound(math.hypot(mx, my), "motion", MAX_COORDINATE, "m")
    max_slides = _check_slides(max_slides)
    floor_cos = math.cos(_check_floor_angle(FLOOR_ANGLE if floor_angle is None else floor_angle))
    own = tuple(int(bodies[name][row]) for name in ("category", "mask", "group"))
    x, y, rows, normals, on_floor, moved = slide_body(
        *index, row, cast_filters(parts, own), ALL_CATEGORIES, mx, my, max_slides, floor_cos,
        CHARACTER_SKIN * units_per_meter,
    )  # fmt: skip
    # The kernel moves the centre of mass; ``position`` is the shapes' origin for a body
    # added with origin="local".
    ox, oy = bodies["origin_offset"][row]
    if ox or oy:
        angle = float(bodies["angle"][row])
        c, s = math.cos(angle), math.sin(angle)
        x, y = x + c * ox - s * oy, y + s * ox + c * oy
    contacts = list(zip(handles[rows].tolist(), normals))
    return SlideResult(np.array([x, y]), contacts, on_floor), moved


def _check_slides(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"max_slides: expected an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"max_slides: must be >= 1, got {value}")
    return int(value)


def _check_floor_angle(value) -> float:
    value = finite_float(value, "floor_angle")
    if not 0.0 <= value <= math.pi:
        raise ValueError(f"floor_angle: must be in [0, pi], got {value}")
    return value


@kernel
def slide_body(
    frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
    slot_parts, unlisted, row, filters, mask, mx, my, max_slides, floor_cos, skin,
):  # fmt: skip
    """The move of body ``row`` by (mx, my) (see the module docstring). What blocks it is the
    collision filter's call (``cast_kernels.blocks``; ``mask`` is unused for a body); the
    body's sensor shapes do not move it into anything (unless all its shapes sense).

    Returns its new position x, y; the contacts met, in order: body rows (C,) int64 and unit
    normals (C, 2) from each obstacle towards the body; whether any normal is within the
    floor angle of up (its y >= floor_cos); and whether it moved. The index is only read.
    """
    index = QueryIndex(
        frames, part_ints, part_floats, vertices, normals, grid, counts, slot_start, slot_keys,
        slot_parts, unlisted,
    )  # fmt: skip
    first, stop = parts_of_body(part_ints, row)
    rows = np.arange(first, stop)
    solid = rows[~filters[3][first:stop]]
    mover = index_parts(index, solid if len(solid) else rows)
    x, y, angle = frames[row, X], frames[row, Y], frames[row, ANGLE]
    met = np.empty(DEPENETRATION_PASSES + max_slides, dtype=np.int64)
    met_normal = np.empty((DEPENETRATION_PASSES + max_slides, 2))
    count = 0
    # 1. Out of whatever it touches: along the deepest contact's normal, to a skin beyond.
    for _ in range(DEPENETRATION_PASSES):
        other, separation, nx, ny = deepest_contact(
            index, mover, x, y, angle, skin, row, filters, mask
        )
        if other < 0:
            break
        x -= nx * (skin - separation)
        y -= ny * (skin - separation)
        met[count], met_normal[count, 0], met_normal[count, 1] = other, -nx, -ny
        count += 1
    # 2. Sweep, stop short of the first hit, slide the rest along it.
    rx, ry = mx, my
    for _ in range(max_slides):
        if rx == 0.0 and ry == 0.0:
            break
        other, toi, nx, ny, _, _ = first_impact(
            index, mover, x, y, angle, rx, ry, row, filters, mask
        )
        if other < 0:
            x += rx
            y += ry
            break
        travel = travel_before(toi, nx, ny, rx, ry, skin)
        x += travel * rx
        y += travel * ry
        met[count], met_normal[count, 0], met_normal[count, 1] = other, -nx, -ny
        count += 1
        rx, ry = slide((1.0 - travel) * rx, (1.0 - travel) * ry, nx, ny, -ny < floor_cos)
    on_floor = False
    for k in range(count):
        on_floor = on_floor or met_normal[k, 1] >= floor_cos
    moved = x != frames[row, X] or y != frames[row, Y]
    return x, y, met[:count], met_normal[:count], on_floor, moved


@kernel(inline=True)
def travel_before(toi, nx, ny, rx, ry, skin):
    """Fraction of the motion (rx, ry) to move so as to stop ``skin`` short of a surface hit at
    ``toi`` with normal (nx, ny) (from the body into the surface).

    Backing up along the motion (not along the normal) retraces a path the sweep found free,
    so it cannot push the body into something else.
    """
    closing = nx * rx + ny * ry  # how fast the gap shrinks per unit fraction
    if closing <= 0.0:
        return 0.0
    return max(0.0, toi - skin / closing)


@kernel(inline=True)
def slide(rx, ry, nx, ny, wall):
    """The rest (rx, ry) of the motion after meeting a surface whose normal into it is
    (nx, ny).

    The part heading into the surface is removed. Along a wall that faces upward (a steep
    slope) that slide would climb: there the wall is treated as vertical instead, removing
    only the horizontal push, so the slide keeps exactly the motion's own vertical part
    (gravity still pulls down along the slope's foot, a jump still rises, nothing more).
    """
    into = rx * nx + ry * ny
    if into <= 0.0:
        return rx, ry
    sx, sy = rx - nx * into, ry - ny * into
    # Climbing is what a wall must not give: a slide that ends higher than the motion asked
    # (and higher than level). Sliding down a steep face while falling stays allowed.
    if wall and sy > max(ry, 0.0) and nx != 0.0:
        return 0.0, ry
    return sx, sy
