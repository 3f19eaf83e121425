"""Motors and angle limits of the revolute joints solved exactly in joint trees.

A revolute joint's motor and limits act on its relative angular speed. Gauss-Seidel gives
such a row the axial mass 1 / (1/I_a + 1/I_b) and applies it as a pure torque, which also
swings the pivot points apart; among rows visited again and again that converges. In a
joint tree (``engine.joint_trees``) the pivot is then solved exactly, and closing it
undoes most of the turn: a limb resting on its limit, or held by hinge friction, was
never stopped, and a ragdoll on the ground kept moving for ever, some of its limbs
spinning ever faster (12 m/s after 5 s).

Here the turn comes with the pivot impulse that leaves the pivot's speed as it was. With
K = J W J^T over the joint's two pivot rows and its angle row a = (0, 0, -1, 0, 0, 1), an
impulse lambda on the angle comes with Lambda = lambda K^-1 e_2 / (K^-1)_22 on the three
rows: the pivot rows' speeds do not change, and the relative angular speed changes by
lambda / (K^-1)_22, the row's mass being (K^-1)_22 (the axial mass when the pivot sits on
both centres, more when the bodies must swing about it).
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .joint_columns import (
    LOWER_BIAS,
    LOWER_MASS,
    MAX_MOTOR_IMPULSE,
    MOTOR_MASS,
    MOTOR_SPEED,
    PUSH,
    ROWS,
    UPPER_BIAS,
    UPPER_MASS,
)
from .joint_geometry import USED_ROWS, inverse3
from .joint_solver import LOWER, MOTOR, UPPER, _push_row, _turn
from .joint_store import REVOLUTE


@kernel
def held_turns(kind, child):
    """(J,) bool: the joints whose motor and limits are solved by ``solve_held_turns``,
    the revolute joints of the trees (child (J,) from ``joint_forest``, -1 off them)."""
    out = np.zeros(len(kind), dtype=np.bool_)
    for j in range(len(kind)):
        out[j] = child[j] >= 0 and kind[j] == REVOLUTE
    return out


@kernel(inline=True)
def solve_held_turns(j, a, b, c, accumulated, inv_inertia, velocity):
    """One visit of revolute joint j's motor, then limits (slots a, b; rows c (J,
    COLUMNS) with their masses, speeds and biases; accumulated (J, ACCUMULATED)), each
    applied with the pivot impulse that keeps the pivot's speed: velocity (N + 1, 3)
    changes in place, the pivot share goes to the main rows' accumulated impulses."""
    if c[j, MOTOR_MASS] == 0.0 and c[j, LOWER_MASS] == 0.0 and c[j, UPPER_MASS] == 0.0:
        return
    ia, ib = inv_inertia[a], inv_inertia[b]
    k = np.empty((3, 3))
    k[0, 0] = _dot(c, j, 0, 0)
    k[0, 1] = k[1, 0] = _dot(c, j, 0, 1)
    k[1, 1] = _dot(c, j, 1, 1)
    k[0, 2] = k[2, 0] = ib * c[j, ROWS + 5] - ia * c[j, ROWS + 2]
    k[1, 2] = k[2, 1] = ib * c[j, ROWS + 11] - ia * c[j, ROWS + 8]
    k[2, 2] = ia + ib
    # K^-1 e_2 by the scaled, pivoted inverse: by cofactors, a pivot far from both
    # centres lost every digit (``inverse3``).
    inverse = np.empty((3, 3))
    inverse3(k, inverse)
    if inverse[2, 2] > 0.0:
        mass = inverse[2, 2]
        share0, share1 = inverse[0, 2] / mass, inverse[1, 2] / mass
    else:
        # A singular pivot block: the turn falls back to the axial mass, a pure torque.
        mass, share0, share1 = (1.0 / k[2, 2] if k[2, 2] > 0.0 else 0.0), 0.0, 0.0
    if c[j, MOTOR_MASS] > 0.0:
        relative = velocity[b, 2] - velocity[a, 2] - c[j, MOTOR_SPEED]
        old = accumulated[j, MOTOR]
        bound = c[j, MAX_MOTOR_IMPULSE]
        new = min(max(old - mass * relative, -bound), bound)
        accumulated[j, MOTOR] = new
        _turn_held(j, a, b, c, accumulated, inv_inertia, velocity, new - old, share0, share1)
    if c[j, LOWER_MASS] > 0.0:
        _held_limit(j, a, b, c, accumulated, inv_inertia, velocity, LOWER, LOWER_BIAS, 1.0,
                    mass, share0, share1)  # fmt: skip
    if c[j, UPPER_MASS] > 0.0:
        _held_limit(j, a, b, c, accumulated, inv_inertia, velocity, UPPER, UPPER_BIAS, -1.0,
                    mass, share0, share1)  # fmt: skip


@kernel(inline=True)
def _held_limit(j, a, b, c, accumulated, inv_inertia, velocity, slot, bias, sign, mass,
                share0, share1):  # fmt: skip
    """One visit of joint j's angle limit whose impulse is accumulated[j, slot] and bias
    c[j, bias]: the lower one (sign 1) pushes the relative angle up, the upper (-1) down."""
    relative = sign * (velocity[b, 2] - velocity[a, 2])
    old = accumulated[j, slot]
    new = max(old - mass * (relative + c[j, bias]), 0.0)
    accumulated[j, slot] = new
    _turn_held(j, a, b, c, accumulated, inv_inertia, velocity, sign * (new - old), share0, share1)


@kernel(inline=True)
def _dot(c, j, r, q):
    """Joint j's row r . its push row q: (J W J^T)_rq."""
    total = 0.0
    for m in range(6):
        total += c[j, ROWS + 6 * r + m] * c[j, PUSH + 6 * q + m]
    return total


@kernel(inline=True)
def _turn_held(j, a, b, c, accumulated, inv_inertia, velocity, amount, share0, share1):
    """Apply ``amount`` on joint j's relative angle and amount * share on its pivot rows
    (added to their accumulated impulses)."""
    _turn(velocity, a, b, inv_inertia, amount)
    accumulated[j, 0] += amount * share0
    accumulated[j, 1] += amount * share1
    _push_row(velocity, a, b, c, j, 0, amount * share0)
    _push_row(velocity, a, b, c, j, 1, amount * share1)


@kernel
def engage_limits(c, kind, held, target, tolerance, inv_h, used, rows, side):
    """The rows the tree solve takes when revolute limits are engaged (within ``tolerance``
    radians of the limit or past it), written into used (J, 3) bool, the rows in use;
    rows (J, 18), the Jacobian rows of the prepared rows c (J, COLUMNS) with the engaged
    joints' third row the relative angle's; and side (J,) int64, which limit each engages
    (1 lower, -1 upper, 0 none). target (J, 3) gets the engaged rows' target speeds (the
    limit rows' biases); held (J,) bool from ``held_turns``. Returns (used, rows, side)."""
    j_count = len(kind)
    for j in range(j_count):
        side[j] = 0
        for m in range(18):
            rows[j, m] = c[j, ROWS + m]
        for r in range(3):
            used[j, r] = USED_ROWS[kind[j], r]
        if not held[j]:
            continue
        if c[j, LOWER_MASS] > 0.0 and c[j, LOWER_BIAS] <= tolerance * inv_h:
            side[j] = 1
            target[j, 2] = -c[j, LOWER_BIAS]
        elif c[j, UPPER_MASS] > 0.0 and c[j, UPPER_BIAS] <= tolerance * inv_h:
            side[j] = -1
            target[j, 2] = c[j, UPPER_BIAS]
        else:
            continue
        used[j, 2] = True
        for m in range(6):
            rows[j, 12 + m] = 0.0
        rows[j, 14] = -1.0
        rows[j, 17] = 1.0
    return used, rows, side


@kernel
def settle_limits(side, held, slots, c, accumulated, inv_inertia, velocity):
    """After the tree solve: move the impulse it put on each engaged limit's row
    (accumulated (J, ACCUMULATED), third column; side (J,) from ``engage_limits``) to the
    limit's own impulse, then visit the motor and limits of every joint ``held`` (J,) bool
    once more with ``solve_held_turns`` (slots (J, 2), rows c (J, COLUMNS), velocity
    (N + 1, 3) in place): it releases a limit the solve left pulling."""
    for j in range(len(side)):
        if side[j] == 1:
            accumulated[j, LOWER] += accumulated[j, 2]
        elif side[j] == -1:
            accumulated[j, UPPER] -= accumulated[j, 2]
        if side[j] != 0:
            accumulated[j, 2] = 0.0
        if held[j]:
            solve_held_turns(j, slots[j, 0], slots[j, 1], c, accumulated, inv_inertia, velocity)
