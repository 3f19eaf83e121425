"""The slop a contact allows: the world's, or less between thin or small bodies.

A resting contact keeps up to a slop of overlap (see ``engine.settings.LINEAR_SLOP``). For
bodies much larger than it that is invisible; for a 5 mm marble the world's 5 mm slop would
be its whole size. So each body has its own slop, the world's ``linear_slop`` or
SLOP_FRACTION of its thickness (the smallest width of its parts) if that is less, and a
contact allows the smaller of its two bodies' slops. Bodies thicker than 50 slops (25 cm in
metres) keep the world's slop exactly.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .settings import SLOP_FRACTION


@kernel(inline=True)
def slop_of(world_slop, thickness):
    """The slop of a body ``thickness`` thick, in a world whose slop is ``world_slop``."""
    return min(world_slop, SLOP_FRACTION * thickness)


@kernel
def body_slops(thickness, world_slop):
    """(N + 1,) each body's slop from its (N,) thickness; the last row, the world's own
    (for joints to the world), is the world's slop."""
    n = len(thickness)
    slops = np.empty(n + 1)
    for i in range(n):
        slops[i] = slop_of(world_slop, thickness[i])
    slops[n] = world_slop
    return slops
