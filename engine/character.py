"""A kinematic character controller: move a body and slide it along what it hits.

``move_and_slide`` moves a body (usually kinematic) by a requested motion without ever
passing through or ending inside another body:

1. If the body starts touching or overlapping something (a platform moved into it, or it
   was placed there), it is pushed out along the minimum translation, to SKIN away.
2. Up to ``max_slides`` times: sweep the body's parts along the remaining motion (the exact
   swept separating-axis kernel, so thin walls cannot be tunnelled). With no hit it moves
   the whole way. Otherwise it moves up to the hit, stopping SKIN short of the surface
   (backing up along its own path, which is known to be free), and the rest of the motion
   loses its component into the surface: it slides.

The skin gap matters: the swept kernel reports an impact at once for shapes that touch,
even when moving apart, so a body left exactly touching could never leave.

Floors and walls: a contact whose surface normal (from the obstacle to the body) is within
``floor_angle`` of up is a floor; any other is a wall. Sliding along a floor may climb (that
is how a horizontal walk goes up a gentle ramp). Sliding along a wall never climbs higher
than the motion itself asked for: the upward part of the slide is removed, so a horizontal
walk stops at a steep slope instead of creeping up it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .narrowphase import collide_parts
from .queries import (
    ALL_CATEGORIES,
    QueryIndex,
    check_body,
    check_world,
    current_index,
    first_impact,
    subset_parts,
    sweep_candidates,
)
from .swept_bounds import part_bounds
from .validation import as_finite_float, as_vector

# Gap kept between the moved body and what it touches, m.
SKIN = 1e-3
# Push-out passes when the body starts overlapping several bodies at once.
DEPENETRATION_PASSES = 4
UP = np.array([0.0, 1.0])


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
    world, body, motion, max_slides: int = 4, floor_angle: float = math.radians(45)
) -> SlideResult:
    """Move ``body`` by ``motion`` (2,), sliding along what it hits; sets ``body.position``.

    Any kind of body may be moved (it is not turned). max_slides: int >= 1, the most sweeps
    (the motion left after the last one is dropped). floor_angle: radians in [0, pi].
    The body never ends closer than about SKIN to another body unless it was wedged
    between several at the start (see the module notes).
    """
    check_world(world)
    row = check_body(world, body)
    motion = as_vector(motion, "motion")
    max_slides = _check_slides(max_slides)
    floor_cos = math.cos(_check_floor_angle(floor_angle))
    index = current_index(world)
    parts = _parts_of(index, row)
    pose = index.poses[row].copy()
    contacts: list = []

    pose[:2] = _push_out(world, index, parts, pose, row, contacts)
    remaining = motion
    for _ in range(max_slides):
        if not remaining.any():
            break
        hit = first_impact(world, index, index.parts, parts, pose, remaining, ALL_CATEGORIES, row)
        if hit is None:
            pose[:2] += remaining
            break
        travel = _travel_before(hit.toi, hit.normal, remaining)
        pose[:2] += travel * remaining
        contacts.append((world._handles[hit.row], -hit.normal))
        wall = float(-hit.normal @ UP) < floor_cos
        remaining = _slide((1.0 - travel) * remaining, hit.normal, wall)

    body.position = pose[:2]
    on_floor = any(float(normal @ UP) >= floor_cos for _, normal in contacts)
    return SlideResult(pose[:2].copy(), contacts, on_floor)


def _check_slides(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"max_slides: expected an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"max_slides: must be >= 1, got {value}")
    return int(value)


def _check_floor_angle(value) -> float:
    value = as_finite_float(value, "floor_angle")
    if not 0.0 <= value <= math.pi:
        raise ValueError(f"floor_angle: must be in [0, pi], got {value}")
    return value


def _parts_of(index: QueryIndex, row: int) -> np.ndarray:
    """(S,) part rows of body ``row``: one contiguous run, found by bisection."""
    first, stop = np.searchsorted(index.part_body, [row, row + 1])
    return np.arange(first, stop)


def _travel_before(toi: float, normal: np.ndarray, motion: np.ndarray) -> float:
    """Fraction of ``motion`` to move so as to stop SKIN short of a surface hit at ``toi``.

    Backing up along the motion (not along the normal) retraces a path the sweep found free,
    so it cannot push the body into something else.
    """
    closing = float(normal @ motion)  # how fast the gap shrinks per unit fraction
    if closing <= 0.0:
        return 0.0
    return max(0.0, toi - SKIN / closing)


def _slide(remaining: np.ndarray, normal: np.ndarray, wall: bool) -> np.ndarray:
    """The rest of the motion after meeting a surface whose normal (into it) is ``normal``.

    The part heading into the surface is removed. Along a wall the slide may not rise more
    than ``remaining`` itself did; when lowering it would point it back into the wall, the
    sideways part is cut back to run along the wall at that height.
    """
    into = float(remaining @ normal)
    slid = remaining - normal * into if into > 0.0 else remaining.copy()
    if not wall:
        return slid
    rise = max(float(remaining[1]), 0.0)
    if slid[1] > rise:
        slid[1] = rise
        if slid @ normal > 0.0 and normal[0] != 0.0:
            slid[0] = -rise * normal[1] / normal[0]
    return slid


def _push_out(world, index, parts, pose, row, contacts) -> np.ndarray:
    """The body's position after pushing it out of whatever it touches or overlaps.

    Each pass moves it along the minimum translation of its deepest contact, to SKIN
    beyond touching, and records the contact. A body wedged between several others may
    still touch one after DEPENETRATION_PASSES passes.
    """
    position = pose[:2].copy()
    for _ in range(DEPENETRATION_PASSES):
        deepest = _deepest_contact(world, index, parts, np.append(position, pose[2]), row)
        if deepest is None:
            break
        other, separation, normal = deepest
        position -= normal * (SKIN - separation)
        contacts.append((world._handles[other], -normal))
    return position


def _deepest_contact(world, index: QueryIndex, parts, pose, row):
    """(body row, separation, normal from the body) of its deepest touching pair, or None."""
    lower, upper = part_bounds(
        subset_parts(index.parts, parts), np.broadcast_to(pose, (len(parts), 3))
    )
    low, high = lower.min(axis=0) - SKIN, upper.max(axis=0) + SKIN
    centre = 0.5 * (low + high)
    _, near = sweep_candidates(index, centre[None], centre[None], 0.5 * (high - low)[None])
    near = near[index.part_body[near] != row]
    pair_a, pair_b = np.repeat(parts, len(near)), np.tile(near, len(parts))
    if len(pair_a) == 0:
        return None
    found = collide_parts(
        index.parts, pair_a, np.broadcast_to(pose, (len(pair_a), 3)),
        index.parts, pair_b, index.poses[index.part_body[pair_b]],
    )  # fmt: skip
    deepest = int(np.argmin(found.separation))
    if found.separation[deepest] > 0.0:
        return None
    other = int(index.part_body[pair_b[deepest]])
    return other, float(found.separation[deepest]), found.normal[deepest]
