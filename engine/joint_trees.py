"""Exact solves of the rigid joints' main blocks over joint graphs that are trees.

Gauss-Seidel passes a joint's correction along a chain one link per pass, and the soft
springs of ``engine.soft_joints`` are as stiff as the links they join, not as the load
they carry: a chain under a heavy weight, or whipping at speed, stretches. The rigid main
blocks (the equality rows of revolute, weld, prismatic, wheel and rigid distance joints)
form a graph on the bodies. Over a spanning tree of each component of that graph
(``engine.tree_forest``, the ground one node), K lambda = t with K = J W J^T is solved
exactly in time linear in the joints (``engine.tree_solve``); the joints that close a
loop (through the ground too) are solved as springs around it.

This module chooses the joints that join trees, aims the biased pass (the error the
sub-step would end with, closed) and moves bodies back onto their joints after it (one
Newton step on positions); ``engine.substep`` runs them.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .joint_geometry import USED_ROWS, main_rows
from .joint_store import PRISMATIC, REVOLUTE, WELD, WHEEL
from .tree_forest import tree_forest
from .tree_solve import RIGID, solve_trees

# Joint kinds whose main block holds equalities only. Rigid distance joints (rods) hold
# one too, but stay springs: aimed at the error their end-of-sub-step poses would have, a
# rod on an anchor far outside a light body spun it up without bound (a 6 cm box on a
# 1.25 m lever reached 10^14 rad/s in 50 steps), where the springs keep its energy.
TREE_KINDS = np.zeros(len(USED_ROWS), dtype=np.bool_)
for _kind in (REVOLUTE, WELD, PRISMATIC, WHEEL):
    TREE_KINDS[_kind] = True


@kernel
def joint_forest(kind, slots, solve, inv_mass, inv_inertia):
    """Which joints are solved exactly and in what order: a spanning ``tree_forest`` over
    the solved joints whose main block holds equalities only (``TREE_KINDS``). The joints
    that close a loop (a bridge's second pier, a body pinned twice) are left to the
    springs around the exact tree: left out whole, such a component was Gauss-Seidel's
    alone, and a light body on a long lever in it took warm-start kicks one pass could not
    take back (a 0.02 kg disc welded 2.1 m away to a disc pinned twice spun up to 1e7 rad/s
    in five steps).

    kind (J,): the joints' kinds; slots (J, 2) their bodies' rows in the
    (N + 1,) arrays inv_mass and inv_inertia (the world: the last row); solve (J,) bool.
    Returns order (T,), child, parent, child_side (J,) and tree_of (N + 1,) as
    ``tree_forest`` does.
    """
    eligible = np.empty(len(kind), dtype=np.bool_)
    for j in range(len(kind)):
        eligible[j] = solve[j] and TREE_KINDS[kind[j]]
    return tree_forest(slots[:, 0], slots[:, 1], eligible, inv_mass, inv_inertia, True)


@kernel
def project_trees(order, child, parent, child_side, kind, anchor_a, anchor_b, axis, length,
                  reference_angle, ratio, slots, poses, inv_mass, inv_inertia, linear,
                  angular, work):  # fmt: skip
    """One Newton step on the tree joints' positions: solve J W J^T dlambda = -C' at
    poses (N + 1, 3) and return the displacements (N + 1, 3) W J^T dlambda (velocities
    are not touched). C' is the error beyond a tolerance: linear (m) on rows 0 and 1,
    angular (rad) on row 2. Forest arrays from ``joint_forest``; joint columns (J,) /
    (J, 2); work: the forest's ``engine.tree_solve.tree_workspace``.

    Only the error past the tolerance moves: moving bodies without their velocities
    costs energy (a small disc swinging on a long arm loses a tenth of its swing in 10 s
    when every sub-step's error is moved away), and the velocity passes hold gentle
    motion well within it; a whipping chain's pivots are pulled back to it.
    """
    j_count = len(kind)
    n = len(poses)
    moved = np.zeros((n, 3))
    if len(order) == 0:
        return moved
    rows = np.zeros((j_count, 18))
    target = np.zeros((j_count, 3))
    block = np.zeros((3, 6))
    error = np.zeros(3)
    beyond = False
    for s in range(len(order)):
        j = order[s]
        a, b = slots[j, 0], slots[j, 1]
        main_rows(
            kind[j], anchor_a[j], anchor_b[j], axis[j], poses[a], poses[b], length[j],
            reference_angle[j], ratio[j], block, error,
        )  # fmt: skip
        for r in range(3):
            tolerance = angular if r == 2 else linear
            if error[r] > tolerance:
                target[j, r] = tolerance - error[r]
            elif error[r] < -tolerance:
                target[j, r] = -tolerance - error[r]
            beyond = beyond or target[j, r] != 0.0
            for q in range(6):
                rows[j, 6 * r + q] = block[r, q]
    if not beyond:
        return moved  # nothing past the tolerance: nothing moves
    lam = np.zeros((j_count, 3))
    solve_trees(
        order, child, parent, child_side, USED_ROWS[kind], rows, 0, target, inv_mass,
        inv_inertia, moved, lam, RIGID, work,
    )  # fmt: skip
    return moved


@kernel
def predicted_targets(order, kind, anchor_a, anchor_b, axis, length, reference_angle, ratio,
                      slots, poses, velocity, rows, offset, h):  # fmt: skip
    """The biased pass's targets (J, 3): J v - C(poses + h v) / h for the tree joints,
    J v their rows (rows (J, >= offset + 18), as ``solve_trees`` reads them) times
    velocity (N + 1, 3), C their errors at the poses (N + 1, 3) the velocities would reach
    over the sub-step h. Solved to it, a joint ends the sub-step closed to second order.

    velocity is the bodies' motion at the sub-step's start, before the warm start: the
    target's part linear in v is the same for any v, but its curvature is not, and the
    warm start's kick is not a motion the joint will keep. Extrapolated with it, a 2 cm
    box welded to a heavy one by an anchor 3.6 m away was kicked to spin at 31 rad/s and
    then 1,474 within one step; the predicted error grew with the spin, the solve drove
    the bodies apart to close it, and the spin reached 3e10 rad/s in the third step.

    Aiming at the predicted error, not at the error now, splits the turn of a swinging
    joint between this pass (along the rows at the sub-step's start) and the relax pass
    (along the rows at its end): the velocity turns about the mean row and keeps its
    size, where removing the whole turn along the end rows would lose (v h / L)^2 of the
    energy every sub-step (a fifth of a pendulum's swing in 10 s).
    """
    target = np.zeros((len(kind), 3))
    block = np.zeros((3, 6))
    error = np.zeros(3)
    ahead_a = np.zeros(3)
    ahead_b = np.zeros(3)
    for s in range(len(order)):
        j = order[s]
        a, b = slots[j, 0], slots[j, 1]
        for q in range(3):
            ahead_a[q] = poses[a, q] + h * velocity[a, q]
            ahead_b[q] = poses[b, q] + h * velocity[b, q]
        main_rows(
            kind[j], anchor_a[j], anchor_b[j], axis[j], ahead_a, ahead_b, length[j],
            reference_angle[j], ratio[j], block, error,
        )  # fmt: skip
        for r in range(3):
            if USED_ROWS[kind[j], r]:
                speed = 0.0
                for q in range(3):
                    speed += rows[j, offset + 6 * r + q] * velocity[a, q]
                    speed += rows[j, offset + 6 * r + 3 + q] * velocity[b, q]
                target[j, r] = speed - error[r] / h
    return target
