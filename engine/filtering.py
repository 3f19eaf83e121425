"""Collision filtering on arrays: categories, masks and groups, as Box2D filters.

Two bodies collide only if each one's category is in the other's mask. A shared non-zero
group overrides that: a positive group always collides, a negative one never does.
"""

from __future__ import annotations

import numpy as np

ALL_CATEGORIES = 0xFFFF


def pairs_pass_filter(category, mask, group, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(M,) bool: which body pairs (a, b) may collide.

    category, mask, group: (N,) int64 per body; a, b: (M,) int64 body rows.
    """
    shared = (group[a] == group[b]) & (group[a] != 0)
    masked = ((category[a] & mask[b]) != 0) & ((category[b] & mask[a]) != 0)
    return np.where(shared, group[a] > 0, masked)


def check_bits(value, argument: str) -> int:
    """A 16-bit category or mask as an int; ValueError outside [0, 0xFFFF]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    if not 0 <= value <= ALL_CATEGORIES:
        raise ValueError(f"{argument}: must be a 16-bit value in [0, 0xFFFF], got {value}")
    return int(value)


def check_group(value) -> int:
    """A collision group as an int (any sign; 0 means no group)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"group: expected an int, got {type(value).__name__}")
    if not -(2**31) <= value < 2**31:
        raise ValueError(f"group: must fit in 32 bits, got {value}")
    return int(value)


def check_tag(value, argument: str = "tag") -> str | None:
    """A body's tag: a non-empty str, or None for no tag."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{argument}: expected a str or None, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{argument}: must not be empty (use None for no tag)")
    return value
