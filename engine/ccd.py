"""Continuous collision: stop fast bodies at their time of impact so nothing tunnels.

Speculative contacts stop most fast bodies at the surface already. What they cannot see is
an approach along an axis that was not the best one at the start of the step, or a sweep
through a body that the solver turned towards. So after the velocity solve, every body
moving more than a fraction of its own size in the step is swept again with its final
velocity against the static and kinematic parts near its path (and, for bullets, against
dynamic ones too), with the exact time of impact of the swept SAT kernel. A body that would
hit something within the step is moved only up to that instant, a slop short of contact.
"""

from __future__ import annotations

import numpy as np

from .body_store import DYNAMIC
from .narrowphase import collide_parts
from .settings import CCD_FRACTION, LINEAR_SLOP


def fast_bodies(speed: np.ndarray, spin: np.ndarray, reach: np.ndarray, dynamic, dt: float):
    """(N,) bool: dynamic bodies whose motion this step exceeds CCD_FRACTION of their size."""
    travel = (speed + np.abs(spin) * reach) * dt
    return dynamic & (travel > CCD_FRACTION * reach)


def clamp_to_impact(
    parts, part_a, part_b, body_a, body_b, kinds, bullet, fast, start, velocity, dt
):
    """First instant in [0, dt] each fast body may move to without tunnelling.

    parts: the world's PackedParts; part_a, part_b, body_a, body_b: (M,) broad-phase pairs;
    kinds, bullet, fast: (N,) per body; start: (N, 3) poses at the step start; velocity:
    (N, 3) final (vx, vy, w). Returns (N,) float64 allowed time, dt for unclamped bodies.
    """
    allowed = np.full(len(kinds), dt)
    dynamic = kinds == DYNAMIC
    # A sweeps against B: A fast, B not dynamic, or A a fast bullet and B anything.
    forward = fast[body_a] & (~dynamic[body_b] | bullet[body_a])
    backward = fast[body_b] & (~dynamic[body_a] | bullet[body_b])
    mover = np.concatenate([body_a[forward], body_b[backward]])
    if len(mover) == 0:
        return allowed
    other = np.concatenate([body_b[forward], body_a[backward]])
    mover_part = np.concatenate([part_a[forward], part_b[backward]])
    other_part = np.concatenate([part_b[forward], part_a[backward]])
    relative = velocity[mover, :2] - velocity[other, :2]
    found = collide_parts(
        parts, mover_part, start[mover], parts, other_part, start[other], relative, dt
    )
    closing = np.einsum("ij,ij->i", relative, found.normal)
    # A sweep that ends less than a slop past the surface is a landing, not a tunnel: the
    # contact handles it next step, and the body keeps its full motion along the surface.
    overshoot = closing * (dt - np.nan_to_num(found.toi, nan=dt))
    hit = (found.separation > 0.0) & ~np.isnan(found.toi) & (overshoot > LINEAR_SLOP)
    if not hit.any():
        return allowed
    # Stop a slop short of contact along the normal, so the next step starts apart.
    with np.errstate(divide="ignore"):
        stop = np.maximum(found.toi[hit] - LINEAR_SLOP / closing[hit], 0.0)
    np.minimum.at(allowed, mover[hit], stop)
    return allowed
