"""The exact solve over a forest of constraint edges (``engine.tree_forest``): joints
(``engine.joint_trees``) or contact manifolds (``engine.contact_trees``), each with up to
three rows.

(K + C) lambda = t with K = J W J^T is solved in time linear in the edges, with no
fill-in: edges are eliminated leaves first, each folding its child body's effective
inverse mass and free velocity into its parent's (a block Schur complement per body),
then solved back root first. C adds each edge's own compliance block: a soft row's
spring, zero for a rigid one.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .joint_geometry import inverse3

# No compliance: every row rigid.
RIGID = np.zeros((0, 3, 3))


@kernel
def tree_workspace(n, t):
    """Room for ``solve_trees`` over t tree edges among n bodies, reusable by every solve
    of the same forest in a step (a solve's dozen arrays were most of a small jointed
    world's allocations): per body W (n, 3, 3), u and the impulses to apply (n, 3, zero
    between solves), per edge K^-1 (t, 3, 3), the residual (t, 3) and G (t, 3, 3), and
    four 3 x 3 and one 3 scratch blocks."""
    return (
        np.zeros((n, 3, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((t, 3, 3)),
        np.zeros((t, 3)), np.zeros((t, 3, 3)), np.zeros((4, 3, 3)), np.zeros(3),
    )  # fmt: skip


@kernel
def solve_trees(order, child, parent, child_side, used, rows, offset, target, inv_mass,
                inv_inertia, base, impulses, compliance, work):  # fmt: skip
    """Solve (J W J^T + C) lambda = target - J base exactly over the tree edges, then
    base += W J^T lambda and impulses[:, :3] += lambda.

    order, child, parent, child_side: from ``joint_forest``; used (J, 3) bool: the rows
    each joint solves (``USED_ROWS`` of its kind, or more: an engaged angle limit,
    ``engine.tree_turns``); rows (J, >= offset + 18): each joint's three Jacobian rows
    (3, 6) row-major from column offset (slot A's vx, vy, w, then B's); target (J, 3)
    (ignored in unused rows); inv_mass, inv_inertia (N + 1,); base (N + 1, 3), velocities
    (or displacements) changed in place; impulses (J, >= 3). W is diag(inv_mass,
    inv_mass, inv_inertia). compliance (J, 3, 3): C, each edge's own block added to its
    rows (soft rows, ``engine.contact_trees``), or (0, 3, 3) for none. work: a
    ``tree_workspace`` for at least len(inv_mass) bodies and len(order) edges.
    """
    t_count = len(order)
    if t_count == 0:
        return
    w, u, push, inverse, residual, g, blocks, y = work
    k, jc, jp, a = blocks[0], blocks[1], blocks[2], blocks[3]
    for s in range(t_count):
        for body in (child[order[s]], parent[order[s]]):
            w[body, :, :] = 0.0
            w[body, 0, 0] = w[body, 1, 1] = inv_mass[body]
            w[body, 2, 2] = inv_inertia[body]
            for q in range(3):
                u[body, q] = base[body, q]
    # Leaves first: each joint folds its child's (already reduced) W and u into its parent.
    soft = len(compliance) > 0
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
                for q in range(3):
                    g[s, r, q] = 0.0  # the way back reads it (the workspace holds old ones)
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
                    if soft:
                        total += compliance[j, r, q]
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
