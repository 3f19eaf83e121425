"""Positional correction of rigid joints: remove the drift the velocity solve leaves.

Velocities that satisfy a joint exactly still let its anchors drift apart over a step (the
bodies move along tangents of curved paths). After positions are integrated, each rigid
joint's error C is measured at the bodies' current poses and removed by a position
impulse  -K^-1 C  (non-linear Gauss-Seidel, as Box2D 2.x does), colour by colour, so
each correction sees the ones before it. Pivots and welds are corrected fully; a rod by at
most MAX_CORRECTION per pass; a revolute limit by at most MAX_ANGULAR_CORRECTION, leaving
ANGULAR_SLOP so that a joint resting on its limit does not jitter. Springs and mouse joints
are soft by design and are not corrected.
"""

from __future__ import annotations

import numpy as np

from .joint_geometry import USED_ROWS, effective_mass, inverse3, joint_rows_at, slot_scale
from .joint_store import DISTANCE, MOUSE, REVOLUTE
from .settings import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION, MAX_CORRECTION


def correct_joint_positions(
    joints: dict, slots, spans, poses, inv_mass, inv_inertia, passes, carry=None
):
    """Move ``poses`` (N + 1, 3) (x, y, angle) in place to close the joints' errors.

    joints: joint-table columns in colour order; slots: (J, 2) rows of slot A and B in
    ``poses`` (the world: the last row, kept at zero); spans: the slice of each colour;
    inv_mass, inv_inertia: (N + 1,).

    carry: optional (start_poses (N + 1, 3), velocities (N + 1, 3), dt, free (J,) bool).
    Then only the free joints (whose bodies touch nothing) are corrected, only for the
    drift of the step's curved motion, C_end - C_start - dt J_start v, and each move also
    changes the velocities by move / dt (SHAKE): the bodies leave the step moving the way
    they moved, and a swinging pendulum keeps its energy. The rest of the error (a solve
    that has not converged, a contact pushing) is left to the position-only correction:
    carried into velocities, it would feed back into the contacts and keep a pile of
    joined limbs jittering.
    """
    kind = joints["kind"]
    rigid = (kind != MOUSE) & ((kind != DISTANCE) | (joints["frequency"] == 0.0))
    limited = (kind == REVOLUTE) & (np.isfinite(joints["lower"]) | np.isfinite(joints["upper"]))
    spans = [s for s in spans if rigid[s].any()]
    if carry is not None:
        # Each colour's rows and error at the step start: the moves go along the start
        # rows (as SHAKE does), which is what keeps a swinging pendulum's energy.
        start_poses, velocities, dt, free = carry
        rigid = rigid & free
        spans = [s for s in spans if rigid[s].any()]
        before = {}
        for s in spans:
            a, b = slots[s, 0], slots[s, 1]
            start_rows, start_error, _ = joint_rows_at(joints, s, start_poses[a], start_poses[b])
            pair_v = np.concatenate([velocities[a], velocities[b]], axis=1)
            linear = dt * np.einsum("mij,mj->mi", start_rows, pair_v)
            before[s.start] = start_rows, start_error + linear
    for _ in range(passes):
        for s in spans:
            a, b = slots[s, 0], slots[s, 1]
            pair = np.concatenate([poses[a], poses[b]], axis=1)
            scale = slot_scale(inv_mass, inv_inertia, a, b)
            if limited[s].any() and carry is None:
                _correct_limits(joints, s, pair, scale)
            rows, error, _ = joint_rows_at(joints, s, pair[:, :3], pair[:, 3:])
            used = USED_ROWS[kind[s]] & rigid[s, None]
            if carry is not None:
                start_rows, start_error = before[s.start]
                error = error - start_error
            error = np.where(used, error, 0.0)
            error[:, 0] = np.where(
                kind[s] == DISTANCE,
                np.clip(error[:, 0], -MAX_CORRECTION, MAX_CORRECTION),
                error[:, 0],
            )
            k, push = effective_mass(rows, scale, used)
            if carry is not None:
                # Newton on C along the start rows: K = J_now M^-1 J_start^T. Where a body
                # turned so far that the start rows barely reach C any more (K_now^-1 K
                # far from the identity), the move goes along the rows now instead.
                start_push = start_rows * scale[:, None, :]
                mixed = np.einsum("mik,mjk->mij", rows, start_push)
                mixed[:, [0, 1, 2], [0, 1, 2]] += ~used
                ratio = np.diagonal(inverse3(k) @ mixed, axis1=1, axis2=2)
                along_start = (ratio > 0.5).all(axis=1)
                k = np.where(along_start[:, None, None], mixed, k)
                push = np.where(along_start[:, None, None], start_push, push)
            impulse = -np.einsum("mij,mj->mi", inverse3(k), error)
            move = np.einsum("mi,mij->mj", impulse, push)
            pair += move
            poses[a], poses[b] = pair[:, :3], pair[:, 3:]
            if carry is not None:
                pair_v = np.concatenate([velocities[a], velocities[b]], axis=1) + move / dt
                velocities[a], velocities[b] = pair_v[:, :3], pair_v[:, 3:]


def _correct_limits(joints: dict, s: slice, pair: np.ndarray, scale: np.ndarray) -> None:
    """Turn joints past their angle limits back towards them (in place on ``pair``)."""
    angle = pair[:, 5] - pair[:, 2] - joints["reference_angle"][s]
    # A missing limit is +-inf: its side clips to no error.
    below = np.clip(angle - joints["lower"][s] + ANGULAR_SLOP, -MAX_ANGULAR_CORRECTION, 0.0)
    above = np.clip(angle - joints["upper"][s] - ANGULAR_SLOP, 0.0, MAX_ANGULAR_CORRECTION)
    error = below + above
    axial = scale[:, 2] + scale[:, 5]
    with np.errstate(divide="ignore", invalid="ignore"):
        impulse = np.where(axial > 0.0, -error / axial, 0.0)
    impulse = np.where(joints["kind"][s] == REVOLUTE, impulse, 0.0)
    pair[:, 2] -= scale[:, 2] * impulse
    pair[:, 5] += scale[:, 5] * impulse
