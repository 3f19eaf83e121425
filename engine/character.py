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
is how a horizontal walk goes up a gentle ramp). Sliding along a wall never gains height:
where the true slide would rise more than the motion itself (a steep slope facing up), the
wall is treated as vertical, so only the horizontal push into it is removed and the motion
keeps its own vertical part. A horizontal walk therefore stops at the foot of a steep slope
(and gravity still finds the ground there), while sliding along vertical walls and
overhangs is the plain projection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .filtering import pairs_pass_filter
from .narrowphase import collide_parts
from .queries import (
    QueryIndex,
    box_candidates,
    check_body,
    check_world,
    current_index,
    first_impact,
    note_moves,
    solid,
    subset_parts,
)
from .settings import MAX_COORDINATE
from .swept_bounds import part_bounds
from .validation import as_bounded_vector, as_finite_float

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

    Any kind of body may be moved; it is not turned and its velocity is left alone. Bodies
    it would not collide with in a step (itself, sensors, bodies its collision filter
    excludes) do not block it. max_slides: int >= 1, the most sweeps (motion left after the
    last one is dropped). floor_angle: radians in [0, pi]. It never ends overlapping another
    body, nor passes through one, unless it starts wedged between several (the push-out
    then gives up after DEPENETRATION_PASSES passes).
    """
    check_world(world)
    row = check_body(world, body)
    motion = as_bounded_vector(motion, "motion", MAX_COORDINATE, "m")
    max_slides = _check_slides(max_slides)
    floor_cos = math.cos(_check_floor_angle(floor_angle))
    index = current_index(world)
    parts = _parts_of(index, row)
    pose = index.poses[row].copy()
    admits = _obstacles_of(world, row)
    contacts: list = []

    pose[:2] = _push_out(world, index, parts, pose, admits, contacts)
    remaining = motion
    for _ in range(max_slides):
        if not remaining.any():
            break
        hit = first_impact(index, index.parts, parts, pose, remaining, admits)
        if hit is None:
            pose[:2] += remaining
            break
        travel = _travel_before(hit.toi, hit.normal, remaining)
        pose[:2] += travel * remaining
        contacts.append((world._handles[hit.row], -hit.normal))
        wall = float(-hit.normal @ UP) < floor_cos
        remaining = _slide((1.0 - travel) * remaining, hit.normal, wall)

    if not np.array_equal(pose[:2], index.positions[row]):
        body.position = pose[:2]  # validated, like any write (and only when it moved)
        # Patch the moved body into the index, so that the next query need not rebuild it.
        note_moves(world, index, np.array([row]))
    on_floor = any(float(normal @ UP) >= floor_cos for _, normal in contacts)
    return SlideResult(pose[:2].copy(), contacts, on_floor)


def _obstacles_of(world, row: int):
    """Which bodies block body ``row``: rows (M,) -> (M,) bool.

    The same rule as the step's: not itself, no sensors, and the collision filter
    (category, mask, group) must let the pair collide.
    """
    arrays = world._bodies.arrays
    if "category" not in arrays:
        return lambda rows: (rows != row) & solid(world, rows)

    def admits(rows: np.ndarray) -> np.ndarray:
        passes = pairs_pass_filter(
            arrays["category"], arrays["mask"], arrays["group"], np.full_like(rows, row), rows
        )
        return (rows != row) & solid(world, rows) & passes

    return admits


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

    The part heading into the surface is removed. Along a wall that faces upward (a steep
    slope) that slide would climb: there the wall is treated as vertical instead, removing
    only the horizontal push, so the slide keeps exactly the motion's own vertical part
    (gravity still pulls down along the slope's foot, a jump still rises, nothing more).
    """
    into = float(remaining @ normal)
    if into <= 0.0:
        return remaining.copy()
    slid = remaining - normal * into
    # Climbing is what a wall must not give: a slide that ends higher than the motion asked
    # (and higher than level). Sliding down a steep face while falling stays allowed.
    if wall and slid[1] > max(remaining[1], 0.0) and normal[0] != 0.0:
        slid = np.array([0.0, remaining[1]])
    return slid


def _push_out(world, index, parts, pose, admits, contacts) -> np.ndarray:
    """The body's position after pushing it out of whatever it touches or overlaps.

    Each pass moves it along the minimum translation of its deepest contact, to SKIN
    beyond touching, and records the contact. A body wedged between several others may
    still touch one after DEPENETRATION_PASSES passes.
    """
    position = pose[:2].copy()
    for _ in range(DEPENETRATION_PASSES):
        deepest = _deepest_contact(index, parts, np.append(position, pose[2]), admits)
        if deepest is None:
            break
        other, separation, normal = deepest
        position -= normal * (SKIN - separation)
        contacts.append((world._handles[other], -normal))
    return position


def _deepest_contact(index: QueryIndex, parts, pose, admits):
    """(body row, separation, normal from the body) of its deepest touching pair, or None."""
    lower, upper = part_bounds(
        subset_parts(index.parts, parts), np.broadcast_to(pose, (len(parts), 3))
    )
    near = box_candidates(index, lower.min(axis=0) - SKIN, upper.max(axis=0) + SKIN)
    near = near[admits(index.part_body[near])]
    if len(near) == 0:
        return None
    # Tables of just these parts: the narrow phase's set-up is O(table), not O(pairs).
    pair_a = np.repeat(np.arange(len(parts)), len(near))
    pair_b = np.tile(np.arange(len(near)), len(parts))
    found = collide_parts(
        subset_parts(index.parts, parts), pair_a, np.broadcast_to(pose, (len(pair_a), 3)),
        subset_parts(index.parts, near), pair_b, index.poses[index.part_body[near[pair_b]]],
    )  # fmt: skip
    deepest = int(np.argmin(found.separation))
    if found.separation[deepest] > 0.0:
        return None
    other = int(index.part_body[near[pair_b[deepest]]])
    return other, float(found.separation[deepest]), found.normal[deepest]
