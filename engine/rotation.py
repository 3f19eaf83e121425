"""A turn's cosine and sine, cheap where the turn is small.

Most turns a step meets are small: a body's turn over a sub-step, the relative turn of two
bodies resting on each other, the angle of a box in a stack. libm's cos and sin cost more
than the rest of the arithmetic a pair or a body gets; their series, below 0.01 rad, are
as exact (the first terms left out are under 3e-21) at a quarter of the cost.
"""

from __future__ import annotations

import math

from .jit import kernel

# Below this many radians the series are used.
SERIES_LIMIT = 0.01


@kernel(inline=True)
def cos_sin(angle):
    """(cos, sin) of angle (rad): libm's, or below SERIES_LIMIT their series to the
    angle's eighth power."""
    if abs(angle) >= SERIES_LIMIT:
        return math.cos(angle), math.sin(angle)
    a2 = angle * angle
    cos = 1.0 - a2 * (0.5 - a2 * (1.0 / 24.0 - a2 * (1.0 / 720.0)))
    sin = angle * (1.0 - a2 * (1.0 / 6.0 - a2 * (1.0 / 120.0 - a2 * (1.0 / 5040.0))))
    return cos, sin
