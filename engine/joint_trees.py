"""Exact solves of the rigid joints' main blocks over joint graphs that are trees.

Gauss-Seidel passes a joint's correction along a chain one link per pass, and the soft
springs of ``engine.soft_joints`` are as stiff as the links they join, not as the load
they carry: a chain under a heavy weight, or whipping at speed, stretches. The rigid main
blocks (the equality rows of revolute, weld, prismatic, wheel and rigid distance joints)
form a graph on the bodies. Where that graph is a tree, K lambda = t with K = J W J^T is
solved exactly in time linear in the joints, with no fill-in: joints are eliminated
leaves first, each folding its child body's effective inverse mass and free velocity into
its parent's (a block Schur complement per body), then solved back root first.

Bodies of zero inverse mass and inertia (static, kinematic, the world's row) couple
nothing in K, so a joint to one is a leaf. For finding loops they count as one node, the
ground: a component held by two such joints (a bridge pinned at both ends) is a loop
through the ground, over-constrained when taut, and stays with Gauss-Seidel, as does any
component whose graph has a cycle.

This module owns the forest (which joints are solved exactly, in what order), the solve,
the biased pass's targets (the error the sub-step would end with, closed) and the
position step that moves bodies back onto their joints; ``engine.substep`` runs them.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .joint_columns import INVERSE
from .joint_geometry import USED_ROWS, inverse3, main_rows
from .joint_store import PRISMATIC, REVOLUTE, WELD, WHEEL

# Joint kinds whose main block holds equalities only. Rigid distance joints (rods) hold
# one too, but stay springs: aimed at the error their end-of-sub-step poses would have, a
# rod on an anchor far outside a light body spun it up without bound (a 6 cm box on a
# 1.25 m lever reached 10^14 rad/s in 50 steps), where the springs keep its energy.
TREE_KINDS = np.zeros(len(USED_ROWS), dtype=np.bool_)
for _kind in (REVOLUTE, WELD, PRISMATIC, WHEEL):
    TREE_KINDS[_kind] = True


@kernel(inline=True)
def _find(root, i):
    """The representative of slot i in the union-find forest ``root`` (halving paths)."""
    while root[i] != i:
        root[i] = root[root[i]]
        i = root[i]
    return i


@kernel
def joint_forest(kind, slots, solve, inv_mass, inv_inertia):
    """Which joints are solved exactly and in what order.

    kind (J,): the joints' kinds; slots (J, 2) their bodies' rows in the
    (N + 1,) arrays inv_mass and inv_inertia (the world: the last row); solve (J,) bool.
    Returns order (T,) int64, the tree joints in elimination order (leaves first); child
    and parent (J,) int64, the slot eliminated by each tree joint and the one it folds into
    (-1 off the trees); child_side (J,) int64: 0 when the child is slot A, 1 when B; and
    tree_of (N + 1,) int64, the tree each body is in (a slot number; -1 for none).
    """
    j_count = len(kind)
    n = len(inv_mass)
    node = np.empty(n, dtype=np.bool_)
    for i in range(n):
        node[i] = inv_mass[i] > 0.0 or inv_inertia[i] > 0.0
    rigid = np.zeros(j_count, dtype=np.bool_)
    root = np.arange(n)
    looped = np.zeros(n, dtype=np.bool_)
    for j in range(j_count):
        a, b = slots[j, 0], slots[j, 1]
        knd = kind[j]
        if not solve[j] or not TREE_KINDS[knd]:
            continue
        if not (node[a] or node[b]):
            continue
        rigid[j] = True
        if node[a] and node[b]:
            ra, rb = _find(root, a), _find(root, b)
            if ra == rb:
                looped[a] = True  # moved to the component's root below
            else:
                root[max(ra, rb)] = min(ra, rb)
    cyclic = np.zeros(n, dtype=np.bool_)
    anchors = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if looped[i]:
            cyclic[_find(root, i)] = True
    for j in range(j_count):
        a, b = slots[j, 0], slots[j, 1]
        if rigid[j] and not (node[a] and node[b]):
            anchors[_find(root, a if node[a] else b)] += 1
    tree = np.zeros(j_count, dtype=np.bool_)
    degree = np.zeros(n + 1, dtype=np.int64)
    for j in range(j_count):
        if rigid[j]:
            a, b = slots[j, 0], slots[j, 1]
            r = _find(root, a if node[a] else b)
            tree[j] = not cyclic[r] and anchors[r] <= 1
            if tree[j] and node[a] and node[b]:
                degree[a + 1] += 1
                degree[b + 1] += 1
    # Adjacency of the bodies over the tree joints, compressed rows.
    start = np.cumsum(degree)
    fill = start[:-1].copy()
    adjacent = np.empty(start[-1], dtype=np.int64)
    for j in range(j_count):
        a, b = slots[j, 0], slots[j, 1]
        if tree[j] and node[a] and node[b]:
            adjacent[fill[a]] = j
            fill[a] += 1
            adjacent[fill[b]] = j
            fill[b] += 1
    child = np.full(j_count, -1, dtype=np.int64)
    parent = np.full(j_count, -1, dtype=np.int64)
    child_side = np.zeros(j_count, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    leaves = np.empty(j_count, dtype=np.int64)
    found = np.empty(j_count, dtype=np.int64)
    leaf_count = found_count = 0
    # Anchored components grow from their anchored body, the rest from their first body.
    for sweep in range(2):
        for j in range(j_count):
            if not tree[j]:
                continue
            a, b = slots[j, 0], slots[j, 1]
            anchored = not (node[a] and node[b])
            if anchored != (sweep == 0):
                continue
            if anchored:
                # The ground side is the child: its W is zero, it folds in a pin.
                child_side[j] = 0 if node[b] else 1
                child[j], parent[j] = (a, b) if node[b] else (b, a)
                leaves[leaf_count] = j
                leaf_count += 1
            body = parent[j] if anchored else a
            if seen[body]:
                continue
            seen[body] = True
            queue[0] = body
            head, tail = 0, 1
            while head < tail:
                here = queue[head]
                head += 1
                for k in range(start[here], start[here + 1]):
                    joint = adjacent[k]
                    there = slots[joint, 0] + slots[joint, 1] - here
                    if seen[there]:
                        continue
                    seen[there] = True
                    queue[tail] = there
                    tail += 1
                    child[joint], parent[joint] = there, here
                    child_side[joint] = 0 if slots[joint, 0] == there else 1
                    found[found_count] = joint
                    found_count += 1
    tree_of = np.full(n, -1, dtype=np.int64)
    for j in range(j_count):
        if tree[j]:
            for body in (slots[j, 0], slots[j, 1]):
                if node[body]:
                    tree_of[body] = _find(root, body)
    order = np.empty(leaf_count + found_count, dtype=np.int64)
    order[:leaf_count] = leaves[:leaf_count]
    for k in range(found_count):
        order[leaf_count + k] = found[found_count - 1 - k]
    return order, child, parent, child_side, tree_of


@kernel
def solve_trees(order, child, parent, child_side, used, rows, offset, target, inv_mass,
                inv_inertia, base, impulses):  # fmt: skip
    """Solve J W J^T lambda = target - J base exactly over the tree joints, then
    base += W J^T lambda and impulses[:, :3] += lambda.

    order, child, parent, child_side: from ``joint_forest``; used (J, 3) bool: the rows
    each joint solves (``USED_ROWS`` of its kind, or more: an engaged angle limit,
    ``engine.tree_turns``); rows (J, >= offset + 18): each joint's three Jacobian rows
    (3, 6) row-major from column offset (slot A's vx, vy, w, then B's); target (J, 3)
    (ignored in unused rows); inv_mass, inv_inertia (N + 1,); base (N + 1, 3), velocities
    (or displacements) changed in place; impulses (J, >= 3). W is diag(inv_mass,
    inv_mass, inv_inertia).
    """
    t_count = len(order)
    if t_count == 0:
        return
    n = len(inv_mass)
    w = np.zeros((n, 3, 3))
    u = np.zeros((n, 3))
    push = np.zeros((n, 3))
    inverse = np.zeros((t_count, 3, 3))
    residual = np.zeros((t_count, 3))
    g = np.zeros((t_count, 3, 3))
    k = np.zeros((3, 3))
    jc = np.zeros((3, 3))
    jp = np.zeros((3, 3))
    a = np.zeros((3, 3))
    y = np.zeros(3)
    for s in range(t_count):
        for body in (child[order[s]], parent[order[s]]):
            w[body, :, :] = 0.0
            w[body, 0, 0] = w[body, 1, 1] = inv_mass[body]
            w[body, 2, 2] = inv_inertia[body]
            for q in range(3):
                u[body, q] = base[body, q]
    # Leaves first: each joint folds its child's (already reduced) W and u into its parent.
    for s in range(t_count):
        j = order[s]
        c, p = child[j], parent[j]
        _split_rows(rows, j, offset, child_side[j], jc, jp)
        use = used[j]
        # k = Jc Wc Jc^T + Jp Wp Jp^T over the used rows (an unused row: k_rr = 1, its
        # impulse stays 0), with g = Jp Wp kept for the way back (zero in unused rows).
        k[:, :] = 0.0
        for r in range(3):
            if not use[r]:
                k[r, r] = 1.0
                residual[s, r] = 0.0
                continue
            for q in range(3):
                a[r, q] = jc[r, 0] * w[c, 0, q] + jc[r, 1] * w[c, 1, q] + jc[r, 2] * w[c, 2, q]
                g[s, r, q] = jp[r, 0] * w[p, 0, q] + jp[r, 1] * w[p, 1, q] + jp[r, 2] * w[p, 2, q]
            speed = 0.0
            for m in range(3):
                speed += jc[r, m] * u[c, m] + jp[r, m] * u[p, m]
            residual[s, r] = target[j, r] - speed
        for r in range(3):
            for q in range(r, 3):
                if use[r] and use[q]:
                    total = 0.0
                    for m in range(3):
                        total += a[r, m] * jc[q, m] + g[s, r, m] * jp[q, m]
                    k[r, q] = k[q, r] = total
        inverse3(k, inverse[s])
        # The parent now carries the child: u_p += G^T K^-1 r, W_p -= G^T K^-1 G.
        for r in range(3):
            y[r] = 0.0
            if use[r]:
                for q in range(3):
                    y[r] += inverse[s, r, q] * residual[s, q]
                for m in range(3):
                    u[p, m] += g[s, r, m] * y[r]
        for r in range(3):
            for q in range(3):
                a[r, q] = 0.0
                if use[r]:
                    for m in range(3):
                        a[r, q] += inverse[s, r, m] * g[s, m, q]
        for m in range(3):
            for q in range(m, 3):
                total = 0.0
                for r in range(3):
                    if use[r]:
                        total += g[s, r, m] * a[r, q]
                w[p, m, q] -= total
                if q != m:
                    w[p, q, m] = w[p, m, q]
    # Root first: lambda_j = K^-1 (r - G f_p), f_p the impulses on p solved already.
    for s in range(t_count - 1, -1, -1):
        j = order[s]
        c, p = child[j], parent[j]
        _split_rows(rows, j, offset, child_side[j], jc, jp)
        for r in range(3):
            y[r] = residual[s, r]
            for m in range(3):
                y[r] -= g[s, r, m] * push[p, m]
        for r in range(3):
            lam = 0.0
            for q in range(3):
                lam += inverse[s, r, q] * y[q]
            impulses[j, r] += lam
            for m in range(3):
                push[p, m] += jp[r, m] * lam
                push[c, m] += jc[r, m] * lam
    for s in range(t_count):
        for body in (child[order[s]], parent[order[s]]):
            # Each body once: its total impulse is applied, then cleared.
            base[body, 0] += inv_mass[body] * push[body, 0]
            base[body, 1] += inv_mass[body] * push[body, 1]
            base[body, 2] += inv_inertia[body] * push[body, 2]
            push[body, :] = 0.0


@kernel(inline=True)
def _split_rows(rows, j, offset, child_side, jc, jp):
    """Fill jc, jp (3, 3) with joint j's rows on its child's and its parent's slot."""
    cc = offset + 3 * child_side
    cp = offset + 3 * (1 - child_side)
    for r in range(3):
        for q in range(3):
            jc[r, q] = rows[j, cc + 6 * r + q]
            jp[r, q] = rows[j, cp + 6 * r + q]


@kernel
def without_tree_mains(c, child):
    """A copy of prepared joint rows c (J, COLUMNS) whose tree joints (child (J,) >= 0)
    have no main block for Gauss-Seidel (their inverse is cleared): the tree solve owns it,
    their motors, limits and axis rows stay."""
    out = c.copy()
    for j in range(len(child)):
        if child[j] >= 0:
            for q in range(9):
                out[j, INVERSE + q] = 0.0
    return out


@kernel
def project_trees(order, child, parent, child_side, kind, anchor_a, anchor_b, axis, length,
                  reference_angle, ratio, slots, poses, inv_mass, inv_inertia, linear,
                  angular):  # fmt: skip
    """One Newton step on the tree joints' positions: solve J W J^T dlambda = -C' at
    poses (N + 1, 3) and return the displacements (N + 1, 3) W J^T dlambda (velocities
    are not touched). C' is the error beyond a tolerance: linear (m) on rows 0 and 1,
    angular (rad) on row 2. Forest arrays from ``joint_forest``; joint columns (J,) /
    (J, 2).

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
        inv_inertia, moved, lam,
    )  # fmt: skip
    return moved


@kernel
def predicted_targets(order, kind, anchor_a, anchor_b, axis, length, reference_angle, ratio,
                      slots, poses, velocity, rows, offset, h):  # fmt: skip
    """The biased pass's targets (J, 3): J v - C(poses + h v) / h for the tree joints,
    J v their rows (rows (J, >= offset + 18), as ``solve_trees`` reads them) times
    velocity (N + 1, 3), C their errors at the poses (N + 1, 3) the velocities would reach
    over the sub-step h. Solved to it, a joint ends the sub-step closed to second order.

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
