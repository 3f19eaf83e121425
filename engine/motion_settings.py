"""The checks of a body's own motion settings: damping and gravity scale."""

from __future__ import annotations

from .validation import as_finite_float

# The largest gravity scale a body may have: a thousand times the world's gravity is far
# beyond any use, and keeps the step's arithmetic as far from overflow as MAX_GRAVITY does.
MAX_GRAVITY_SCALE = 1000.0


def check_damping(value, argument: str) -> float:
    """A damping rate, 1/s: a finite number >= 0."""
    rate = as_finite_float(value, argument)
    if rate < 0.0:
        raise ValueError(f"{argument}: must be >= 0, got {rate}")
    return rate


def check_gravity_scale(value) -> float:
    """A gravity scale: a finite number of magnitude at most MAX_GRAVITY_SCALE."""
    scale = as_finite_float(value, "gravity_scale")
    if abs(scale) > MAX_GRAVITY_SCALE:
        raise ValueError(f"gravity_scale: must be within +-{MAX_GRAVITY_SCALE:g}, got {scale:g}")
    return scale
