"""Collision filtering: 16-bit categories and masks, and groups that override them.

The rule (as in Box2D): two bodies collide only if each one's category is in the other's
mask; a shared non-zero group overrides the masks, a positive one always collides and a
negative one never does. The truth below is written bit by bit in the test, not taken from
the engine, and checked by dropping one box on another: "collide" means the upper box ends
resting on the lower one, "no collision" means it falls through untouched (bit-for-bit free
fall, no contact events, never in ``world.contacts``).

Tolerances: resting heights within LINEAR_SLOP (5 mm, the penetration the solver leaves)
plus 1 mm; a box that falls through is 0.5 m or more away from that height, so the two
outcomes cannot be confused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from builders import DT, SLOP, G
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, World

BITS = 16


@dataclass(frozen=True)
class Filter:
    category: int = 0x0001
    mask: int = 0xFFFF
    group: int = 0

    def kwargs(self) -> dict:
        return {"category": self.category, "mask": self.mask, "group": self.group}


def accepts(mask: int, category: int) -> bool:
    """Does ``mask`` contain any bit of ``category``? Bit by bit, on purpose."""
    return any((mask >> bit) & 1 and (category >> bit) & 1 for bit in range(BITS))


def should_collide(a: Filter, b: Filter) -> bool:
    """The filtering rule, as documented in docs/games.md."""
    if a.group == b.group and a.group != 0:
        return a.group > 0
    return accepts(a.mask, b.category) and accepts(b.mask, a.category)


def test_truth_table_helper_itself():
    # Sanity of the oracle on cases worked out by hand.
    assert accepts(0xFFFF, 0x0001) and not accepts(0xFFFE, 0x0001)
    assert accepts(0x00F0, 0x0010) and not accepts(0x00F0, 0x0F00)
    assert not accepts(0xFFFF, 0x0000)
    assert should_collide(Filter(), Filter())
    assert not should_collide(Filter(mask=0), Filter(mask=0xFFFF))
    assert should_collide(Filter(mask=0, group=2), Filter(mask=0, group=2))
    assert not should_collide(Filter(group=-2), Filter(group=-2))


# --------------------------------------------------------------------------- the drop


UPPER_START = 2.3  # the static lower box's top is at 1.0: the upper falls 0.8 m to land


def drop_on_static(upper: Filter, lower: Filter, steps: int = 60):
    """Drop a 1 m box on a static 2 x 1 box (top at y = 1); returns world, bodies, events."""
    world = World()
    low = world.add_body(Box(2, 1), position=(0, 0.5), kind="static", **lower.kwargs())
    up = world.add_body(Box(1, 1), position=(0.2, UPPER_START), **upper.kwargs())
    names = []
    for event in ("contact_begin", "contact_persist", "contact_end"):
        world.on(event, lambda contact, event=event: names.append(event))
    trajectory = []
    for _ in range(steps):
        world.step()
        trajectory.append(up.position[1])
    return world, low, up, names, np.array(trajectory)


def free_fall_heights(y0: float, steps: int) -> np.ndarray:
    """From rest, a body nothing holds flies its exact parabola: y_k = y0 - g (k dt)^2 / 2."""
    k = np.arange(1, steps + 1)
    return y0 - G * (k * DT) ** 2 / 2


def check_drop(upper: Filter, lower: Filter) -> None:
    world, low, up, names, trajectory = drop_on_static(upper, lower)
    if should_collide(upper, lower):
        assert up.position[1] == pytest.approx(1.5, abs=SLOP + 1e-3), "did not land on it"
        assert abs(up.velocity[1]) < 0.05
        assert names.count("contact_begin") == 1 and "contact_end" not in names
        (contact,) = world.contacts
        assert {id(contact.body_a), id(contact.body_b)} == {id(low), id(up)}
    else:
        np.testing.assert_allclose(trajectory, free_fall_heights(UPPER_START, len(trajectory)))
        assert up.position[1] < 0.0, "it should have fallen through"
        assert names == [] and world.contacts == []
        assert world.events == []


category_bits = st.one_of(
    st.sampled_from([0x0000, 0x0001, 0x0002, 0x0004, 0x0003, 0x00F0, 0x8000, 0xFFFE, 0xFFFF]),
    st.integers(0, 0xFFFF),
)
group_ids = st.sampled_from([0, 0, 1, -1, 3, -3, 2**31 - 1, -(2**31)])
filters = st.builds(Filter, category=category_bits, mask=category_bits, group=group_ids)


@settings(max_examples=60)
@given(upper=filters, lower=filters)
def test_drop_on_static_box_follows_the_truth_table(upper, lower):
    check_drop(upper, lower)


@settings(max_examples=30)
@given(
    category=category_bits,
    mask=category_bits,
    group=group_ids,
    other_category=category_bits,
    other_mask=category_bits,
)
def test_shared_group_overrides_masks_whatever_they_say(
    category, mask, group, other_category, other_mask
):
    """Same group on both: masks are irrelevant; the sign alone decides."""
    upper = Filter(category, mask, group)
    lower = Filter(other_category, other_mask, group)
    check_drop(upper, lower)
    if group != 0:
        world, _, up, _, _ = drop_on_static(upper, lower)
        landed = abs(up.position[1] - 1.5) < 0.01
        assert landed == (group > 0)


def test_filtering_is_symmetric_in_which_box_falls():
    rng = np.random.default_rng(3)
    for _ in range(12):
        a = Filter(int(rng.integers(0, 8)), int(rng.integers(0, 8)), int(rng.integers(-1, 2)))
        b = Filter(int(rng.integers(0, 8)), int(rng.integers(0, 8)), int(rng.integers(-1, 2)))
        first = drop_on_static(a, b)[2].position[1]
        second = drop_on_static(b, a)[2].position[1]
        assert (abs(first - 1.5) < 0.01) == (abs(second - 1.5) < 0.01) == should_collide(a, b)


# One row per rule of the filter, worked out by hand (expected, upper, lower).
HAND_TABLE = [
    (True, Filter(), Filter()),  # defaults collide
    (False, Filter(0x0002, 0xFFFF ^ 0x0004), Filter(0x0004, 0xFFFF)),  # upper ignores lower
    (False, Filter(0x0004, 0xFFFF), Filter(0x0002, 0xFFFF ^ 0x0004)),  # lower ignores upper
    (False, Filter(0x0001, 0x0002), Filter(0x0002, 0x0000)),  # one-sided is not enough
    (True, Filter(0x0001, 0x0002), Filter(0x0002, 0x0001)),  # each in the other's mask
    (True, Filter(0x0003, 0x0100), Filter(0x0100, 0x0002)),  # any shared bit counts
    (False, Filter(0x0000, 0xFFFF), Filter(0x0001, 0xFFFF)),  # no category, no collision
    (True, Filter(0x0001, 0x0000, 5), Filter(0x0001, 0x0000, 5)),  # positive group wins
    (True, Filter(0x0000, 0x0000, 5), Filter(0x0000, 0x0000, 5)),  # ... even with nothing
    (False, Filter(group=-5), Filter(group=-5)),  # negative group never, masks say yes
    (True, Filter(group=-5), Filter(group=5)),  # different groups: the masks decide
    (True, Filter(group=-5), Filter(group=-6)),
    (False, Filter(0x0001, 0x0000, 7), Filter(0x0001, 0xFFFF, 8)),  # ... and here say no
    (True, Filter(group=4), Filter(group=0)),  # group 0 is "no group"
    (False, Filter(0x0001, 0x0000, 0), Filter(0x0001, 0x0000, 0)),  # zero groups not shared
]


@pytest.mark.parametrize("expected, upper, lower", HAND_TABLE)
def test_hand_written_truth_table(expected, upper, lower):
    assert should_collide(upper, lower) == expected  # the oracle agrees with the hand
    check_drop(upper, lower)


# --------------------------------------------------------------------------- dynamic pairs


def drop_on_dynamic(upper: Filter, lower: Filter):
    """A dynamic 2 x 1 box on the ground (which collides with both), a 1 m box dropped on it."""
    world = World()
    world.add_body(Box(20, 1), position=(0, -0.5), kind="static", category=0xFFFF, mask=0xFFFF)
    low = world.add_body(Box(2, 1), position=(0, 0.5), **lower.kwargs())
    up = world.add_body(Box(1, 1), position=(0.2, 2.2), **upper.kwargs())
    pair = frozenset((id(low), id(up)))
    pair_events = []
    for event in ("contact_begin", "contact_persist", "contact_end"):

        def record(contact, event=event):
            if frozenset((id(contact.body_a), id(contact.body_b))) == pair:
                pair_events.append(event)

        world.on(event, record)
    for _ in range(90):
        world.step()
    return world, low, up, pair_events


nonzero_bits = st.one_of(
    st.sampled_from([0x0001, 0x0002, 0x0004, 0x0003, 0x8000, 0xFFFF]), st.integers(1, 0xFFFF)
)
nonzero_filters = st.builds(Filter, category=nonzero_bits, mask=nonzero_bits, group=group_ids)


@settings(max_examples=25)
@given(upper=nonzero_filters, lower=nonzero_filters)
def test_two_dynamic_boxes_follow_the_truth_table(upper, lower):
    world, low, up, pair_events = drop_on_dynamic(upper, lower)
    assert low.position[1] == pytest.approx(0.5, abs=SLOP + 1e-3)  # on the ground either way
    if should_collide(upper, lower):
        assert up.position[1] == pytest.approx(1.5, abs=2 * SLOP), "should rest on the lower"
        assert pair_events.count("contact_begin") == 1
    else:
        # Through the lower box, onto the ground, overlapping the lower box untouched.
        assert up.position[1] == pytest.approx(0.5, abs=2 * SLOP), "should reach the ground"
        assert pair_events == []
        touching = {frozenset((id(c.body_a), id(c.body_b))) for c in world.contacts}
        assert frozenset((id(low), id(up))) not in touching


# --------------------------------------------------------------------------- run-time changes


def resting_on_block(rest_steps: int, **box_filter):
    world = World()
    block = world.add_body(Box(2, 1), position=(0, 0.5), kind="static")
    box = world.add_body(Box(1, 1), position=(0, 1.5), **box_filter)
    events = []
    for event in ("contact_begin", "contact_persist", "contact_end"):
        world.on(event, lambda contact, event=event: events.append(event))
    for _ in range(rest_steps):
        world.step()
    return world, block, box, events


REST = pytest.mark.parametrize(
    "rest_steps",
    [10, 120],
    ids=["just-landed", "long-at-rest"],  # a moment, or long enough for the engine to rest it
)


@REST
@pytest.mark.parametrize("who", ["box", "block"])
@pytest.mark.parametrize("field, value", [("mask", 0x0000), ("mask", 0xFFFE), ("category", 0)])
def test_disabling_collision_at_run_time_drops_the_box_from_the_next_step(
    field, value, who, rest_steps
):
    """Either body's filter may change; the pair stops colliding from the next step."""
    world, block, box, events = resting_on_block(rest_steps)
    assert box.position[1] == pytest.approx(1.5, abs=SLOP + 1e-3)
    changed = box if who == "box" else block
    contacts_before = world.contacts
    setattr(changed, field, value)
    assert getattr(changed, field) == value
    # Nothing changes until the next step.
    assert len(world.contacts) == len(contacts_before) == 1
    y = box.position[1]
    events.clear()
    world.step()
    assert events == ["contact_end"]
    assert world.contacts == []
    assert box.position[1] < y, "not falling on the step after the change"
    for _ in range(40):
        world.step()
    assert box.position[1] < 0.0, "it should have fallen through the block"
    assert events == ["contact_end"]


@REST
@pytest.mark.parametrize("last", ["box", "block"])
def test_sharing_a_negative_group_at_run_time_drops_the_box(last, rest_steps):
    """One body already has group -4 (alone it changes nothing: not shared); then the other
    joins it, and the pair stops colliding."""
    first_kwargs = {"group": -4} if last == "block" else {}
    world, block, box, events = resting_on_block(rest_steps, **first_kwargs)
    if last == "box":
        block.group = -4
        for _ in range(5):
            world.step()
    assert box.position[1] == pytest.approx(1.5, abs=SLOP + 1e-3)
    events.clear()
    (box if last == "box" else block).group = -4  # now shared and negative
    for _ in range(40):
        world.step()
    assert events[:1] == ["contact_end"] and "contact_begin" not in events
    assert box.position[1] < 0.0


def test_enabling_collision_at_run_time_catches_a_falling_box():
    world = World()
    block = world.add_body(Box(2, 1), position=(0, 0.5), kind="static", group=-2)
    box = world.add_body(Box(1, 1), position=(0, 4.0), mask=0x0000)
    for _ in range(20):  # 20 steps fall ~0.57 m: still well above the block
        world.step()
    assert box.position[1] > 3.0
    box.mask = 0xFFFF
    for _ in range(90):
        world.step()
    assert box.position[1] == pytest.approx(1.5, abs=SLOP + 1e-3)

    # A shared positive group makes even empty masks collide.
    other = world.add_body(Box(1, 1), position=(-0.4, 6.0), mask=0x0000, group=9)
    for _ in range(20):
        world.step()
    block.group, block.mask = 9, 0x0000
    for _ in range(120):
        world.step()
    assert other.position[1] > 1.4  # on the block or on the box, not through them


def test_changing_group_mid_fall_from_shared_negative_to_none_catches_the_box():
    world = World()
    world.add_body(Box(2, 1), position=(0, 0.5), kind="static", group=-3)
    box = world.add_body(Box(1, 1), position=(0, 4.0), group=-3)
    for _ in range(20):
        world.step()
    box.group = 0
    assert box.group == 0
    for _ in range(90):
        world.step()
    assert box.position[1] == pytest.approx(1.5, abs=SLOP + 1e-3)


# --------------------------------------------------------------------------- bad input

BAD_BITS = [
    (-1, ValueError),
    (0x10000, ValueError),
    (2**40, ValueError),
    (1.0, TypeError),
    ("1", TypeError),
    (None, TypeError),
    (True, TypeError),
    (np.float64(2.0), TypeError),
]


def world_with_box():
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    box = world.add_body(Box(1, 1), position=(0, 2), category=0x0002, mask=0x00FF, group=3)
    world.step()
    return world, box


def snapshot(world: World):
    return (
        len(world.bodies),
        np.array(world.positions, copy=True),
        np.array(world.velocities, copy=True),
        world.time,
    )


def assert_unchanged(world: World, before) -> None:
    count, positions, velocities, time = before
    assert len(world.bodies) == count == len(world.positions)
    np.testing.assert_array_equal(world.positions, positions)
    np.testing.assert_array_equal(world.velocities, velocities)
    assert world.time == time


@pytest.mark.parametrize("argument", ["category", "mask"])
@pytest.mark.parametrize("value, error", BAD_BITS, ids=repr)
def test_bad_category_or_mask_is_rejected_by_add_body_naming_the_argument(argument, value, error):
    world, _ = world_with_box()
    before = snapshot(world)
    with pytest.raises(error, match=argument):
        world.add_body(Box(1, 1), position=(3, 3), **{argument: value})
    assert_unchanged(world, before)
    world.step()  # and the world still works
    assert len(world.bodies) == len(world.positions) == 2


@pytest.mark.parametrize("argument", ["category", "mask"])
@pytest.mark.parametrize("value, error", BAD_BITS, ids=repr)
def test_bad_category_or_mask_is_rejected_by_the_setter_leaving_the_body_as_it_was(
    argument, value, error
):
    world, box = world_with_box()
    before = snapshot(world)
    old = getattr(box, argument)
    with pytest.raises(error, match=argument):
        setattr(box, argument, value)
    assert getattr(box, argument) == old
    assert_unchanged(world, before)


BAD_GROUPS = [
    (2**31, ValueError),
    (-(2**31) - 1, ValueError),
    (1.5, TypeError),
    ("2", TypeError),
    (False, TypeError),
]


@pytest.mark.parametrize("value, error", BAD_GROUPS, ids=repr)
def test_bad_group_is_rejected_naming_the_argument(value, error):
    world, box = world_with_box()
    before = snapshot(world)
    with pytest.raises(error, match="group"):
        world.add_body(Box(1, 1), position=(3, 3), group=value)
    with pytest.raises(error, match="group"):
        box.group = value
    assert box.group == 3
    assert_unchanged(world, before)


@pytest.mark.parametrize(
    "value", [0, 0xFFFF, 0x8000, np.uint16(0xFFFF), np.int64(0x0010), np.int32(1)], ids=repr
)
def test_every_16_bit_value_is_accepted_including_numpy_integers(value):
    world, box = world_with_box()
    body = world.add_body(Box(1, 1), position=(3, 3), category=value, mask=value)
    assert body.category == int(value) and body.mask == int(value)
    assert type(body.category) is int and type(body.mask) is int
    box.category = value
    box.mask = value
    assert box.category == int(value) and box.mask == int(value)
    world.step()
    assert np.all(np.isfinite(world.positions))


@given(upper=filters)
@settings(max_examples=30)
def test_filter_values_read_back_as_written(upper):
    world = World()
    body = world.add_body(Box(1, 1), **upper.kwargs())
    assert (body.category, body.mask, body.group) == (upper.category, upper.mask, upper.group)
    body.category, body.mask, body.group = upper.mask, upper.category, ~upper.group
    assert (body.category, body.mask, body.group) == (upper.mask, upper.category, ~upper.group)
