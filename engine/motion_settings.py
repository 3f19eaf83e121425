"""The checks of a body's own motion settings: damping and gravity scale."""

from __future__ import annotations

from .field_rules import MAX_GRAVITY_SCALE, check_number

__all__ = ["MAX_GRAVITY_SCALE", "check_damping", "check_gravity_scale"]


def check_damping(value, argument: str) -> float:
    """A damping rate, 1/s: a finite number >= 0."""
    return check_number("damping", value, argument)


def check_gravity_scale(value) -> float:
    """A gravity scale: a finite number of magnitude at most MAX_GRAVITY_SCALE."""
    return check_number("gravity_scale", value)
