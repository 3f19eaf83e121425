"""What the solver kernels take: the manifolds' and joints' columns as tuples, and the
order their passes visit the manifolds in (``engine.substep``)."""

from __future__ import annotations

import numpy as np

from .jit import kernel

# Runs of manifolds the passes interleave (see ``interleaved_order``): two give nearly all
# the speed of many, and keep the bottom-up order of a stack best.
STREAMS = 2


@kernel
def interleaved_order(m, streams):
    """0..m-1 as ``streams`` contiguous runs visited in turn: i, i + m/s, i + 2m/s, ...

    Within each run the manifolds keep their order (the broad phase's, which lists the
    parts of a stack from the bottom up, so Gauss-Seidel carries loads up the stack in one
    pass); runs far apart in that order rarely share a body, so the CPU overlaps their work
    instead of waiting for each manifold's velocities before the next.
    """
    order = np.empty(m, dtype=np.int64)
    run = (m + streams - 1) // streams
    k = 0
    for i in range(run):
        for s in range(streams):
            j = s * run + i
            if j < m:
                order[k] = j
                k += 1
    return order


def contact_columns(m) -> tuple:
    """The Manifolds columns the solver kernels take, in their order: body_a, body_b,
    count (M,), normal (M, 2), arm_a, arm_b (M, 2, 2), separation (M, 2), friction,
    restitution (M,), normal_impulse (M, 2), tangent_impulse (M,), slop (M,)."""
    return (
        m.body_a, m.body_b, m.count, m.normal, m.arm_a, m.arm_b, m.separation, m.friction,
        m.restitution, m.normal_impulse, m.tangent_impulse, m.slop,
    )  # fmt: skip


def solver_joint_columns(joints: dict) -> tuple:
    """The joint-table columns (J, ...) the solver kernels take, in their order."""
    return tuple(map(joints.__getitem__, SOLVER_JOINT_FIELDS))


SOLVER_JOINT_FIELDS = (
    "kind", "anchor_a", "anchor_b", "reference_angle", "lower", "upper", "max_motor_torque",
    "motor_speed", "length", "frequency", "damping", "max_force", "axis", "ratio",
    "rest_angle", "correction", "impulse", "motor_impulse", "lower_impulse", "upper_impulse",
    "spring_impulse",
)  # fmt: skip
