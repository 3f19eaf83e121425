"""Collision filters (categories, masks and groups, as Box2D's) and tags: their checks.

Two bodies collide only if each one's category is in the other's mask. A shared non-zero
group overrides that: a positive group always collides, a negative one never does (the
step filters its pairs in ``engine.candidate_pairs``).
"""

from __future__ import annotations

from .field_rules import check_integer

ALL_CATEGORIES = 0xFFFF


def check_bits(value, argument: str) -> int:
    """A 16-bit category or mask as an int; ValueError outside [0, 0xFFFF]."""
    return check_integer("category" if argument == "category" else "mask", value, argument)


def check_group(value) -> int:
    """A collision group as an int (any sign; 0 means no group)."""
    return check_integer("group", value)


def check_tag(value, argument: str = "tag") -> str | None:
    """A body's tag: a non-empty str, or None for no tag."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{argument}: expected a str or None, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{argument}: must not be empty (use None for no tag)")
    return value
