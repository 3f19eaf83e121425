"""Sequential-impulse contact solver, run colour by colour on whole arrays.

Every contact manifold (one or two points between two bodies) carries non-penetration rows
along the normal (impulse >= 0) and Coulomb friction rows along the tangent (|impulse| <=
mu times the normal impulse). Gauss-Seidel needs each manifold to see the velocities its
neighbours just produced, so manifolds are coloured: no two of one colour share a dynamic
body, and each colour is solved as one numpy batch.

The two normal rows of a manifold are solved together, exactly, as a 2x2 linear
complementarity problem (the block solver of Box2D 2.x): solving them one after the other
lets a box resting on two points rock, and a stack sway.

Velocities are one (N, 3) array of rows (vx, vy, w) so one gather fetches a body's whole
velocity; Jacobian rows are (3,) vectors to match.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .settings import RESTITUTION_THRESHOLD

# The block solve is skipped (rows solved one by one) when the 2x2 effective-mass matrix is
# this badly conditioned, as for two points very close together.
MAX_CONDITION = 1000.0


def _cross(r: np.ndarray, n: np.ndarray) -> np.ndarray:
    """z of r x n over the last axis (..., 2)."""
    return r[..., 0] * n[..., 1] - r[..., 1] * n[..., 0]


@dataclass
class Manifolds:
    """One step's contact manifolds; M of them, two point slots each.

    body_a, body_b: (M,) body rows; count: (M,) 1 or 2 points; normal: (M, 2) from A to B;
    arm_a, arm_b: (M, 2, 2) from each centre of mass to each point; separation: (M, 2)
    (+inf in an unused slot); friction, restitution: (M,) mixed; normal_impulse,
    tangent_impulse: (M, 2) accumulated, warm-started.
    """

    body_a: np.ndarray
    body_b: np.ndarray
    count: np.ndarray
    normal: np.ndarray
    arm_a: np.ndarray
    arm_b: np.ndarray
    separation: np.ndarray
    friction: np.ndarray
    restitution: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray

    def __len__(self) -> int:
        return len(self.body_a)


@dataclass
class Batch:
    """One colour's manifolds with everything the passes reuse, gathered once per step.

    index: (m,) manifold rows; a, b: (m,) bodies; jn_a, jn_b, jt_a, jt_b: (m, 2, 3) normal
    and tangent Jacobian rows per point for A and B; pn_a, ... the same scaled by inverse
    mass and inertia; k: (m, 3) entries k11, k12, k22 of the normal effective-mass matrix;
    mt: (m, 2) tangent masses; target: (m, 2) least allowed normal velocity; pair: (m,)
    bool, True for two-point manifolds solved as a block; second: (m,) bool, a second point.
    """

    index: np.ndarray
    a: np.ndarray
    b: np.ndarray
    jn_a: np.ndarray
    jn_b: np.ndarray
    jt_a: np.ndarray
    jt_b: np.ndarray
    pn_a: np.ndarray
    pn_b: np.ndarray
    pt_a: np.ndarray
    pt_b: np.ndarray
    k: np.ndarray
    mt: np.ndarray
    friction: np.ndarray
    target: np.ndarray
    pair: np.ndarray
    second: np.ndarray


def _rows(axis, arm, sign, inv_mass, inv_inertia):
    """Jacobian rows (M, 2, 3) along ``axis`` (M, 2) for arms (M, 2, 2), and their pushes."""
    lever = _cross(arm, axis[:, None, :])
    m = len(axis)
    jac = np.empty((m, 2, 3))
    jac[:, :, 0] = sign * axis[:, None, 0]
    jac[:, :, 1] = sign * axis[:, None, 1]
    jac[:, :, 2] = sign * lever
    push = jac * np.stack([inv_mass, inv_mass, inv_inertia], axis=1)[:, None, :]
    return jac, push, lever


def _dot(v: np.ndarray, jac: np.ndarray) -> np.ndarray:
    """Row-wise v . j for v (m, 3) and j (m, 3)."""
    return v[:, 0] * jac[:, 0] + v[:, 1] * jac[:, 1] + v[:, 2] * jac[:, 2]


class ContactSolver:
    """Solves one step's manifolds; ``colours`` lists the manifold rows of each colour.

    velocities: (N, 3) float64 (vx, vy, w), changed in place.
    """

    def __init__(self, manifolds: Manifolds, colours: list, velocities, inv_mass, inv_inertia, dt):
        self.m = manifolds
        self.velocities = velocities
        n = manifolds.normal
        t = np.stack([n[:, 1], -n[:, 0]], axis=1)
        a, b = manifolds.body_a, manifolds.body_b
        ima, imb, iia, iib = inv_mass[a], inv_mass[b], inv_inertia[a], inv_inertia[b]
        jn_a, pn_a, ln_a = _rows(n, manifolds.arm_a, -1.0, ima, iia)
        jn_b, pn_b, ln_b = _rows(n, manifolds.arm_b, 1.0, imb, iib)
        jt_a, pt_a, lt_a = _rows(t, manifolds.arm_a, -1.0, ima, iia)
        jt_b, pt_b, lt_b = _rows(t, manifolds.arm_b, 1.0, imb, iib)
        used = np.arange(2)[None, :] < manifolds.count[:, None]
        # An unused slot gets zero rows: no velocity, no impulse.
        for rows in (jn_a, jn_b, jt_a, jt_b, pn_a, pn_b, pt_a, pt_b):
            rows[~used] = 0.0
        linear = (ima + imb)[:, None]
        k11 = linear[:, 0] + iia * ln_a[:, 0] ** 2 + iib * ln_b[:, 0] ** 2
        k22 = linear[:, 0] + iia * ln_a[:, 1] ** 2 + iib * ln_b[:, 1] ** 2
        k12 = linear[:, 0] + iia * ln_a[:, 0] * ln_a[:, 1] + iib * ln_b[:, 0] * ln_b[:, 1]
        kt = linear + iia[:, None] * lt_a**2 + iib[:, None] * lt_b**2
        with np.errstate(divide="ignore", invalid="ignore"):
            mt = np.where(used & (kt > 0), 1.0 / kt, 0.0)
        k12 = np.where(manifolds.count == 2, k12, 0.0)
        k = np.stack([k11, k12, k22], axis=1)
        well_posed = k11 * k11 < MAX_CONDITION * (k11 * k22 - k12 * k12)
        pair = (manifolds.count == 2) & well_posed
        # Speculative points (a gap ahead) may close the gap within the step and no more;
        # touching points must not approach. Overlap is left to positional correction.
        gap = np.where(used, manifolds.separation, 0.0)
        target = np.where(gap > 0.0, -gap / dt, 0.0)
        self.approach = self._normal_velocity_all(jn_a, jn_b)
        self.batches = [
            Batch(
                index=r, a=a[r], b=b[r],
                jn_a=jn_a[r], jn_b=jn_b[r], jt_a=jt_a[r], jt_b=jt_b[r],
                pn_a=pn_a[r], pn_b=pn_b[r], pt_a=pt_a[r], pt_b=pt_b[r],
                k=k[r], mt=mt[r], friction=manifolds.friction[r], target=target[r],
                pair=pair[r], second=manifolds.count[r] == 2,
            )
            for r in colours
        ]  # fmt: skip
        self._all = (jn_a, jn_b, jt_a, jt_b, pn_a, pn_b, pt_a, pt_b, used)

    def _normal_velocity_all(self, jn_a, jn_b) -> np.ndarray:
        """(M, 2) relative normal velocity at each point before the solve."""
        v = self.velocities
        va, vb = v[self.m.body_a], v[self.m.body_b]
        return np.einsum("mk,mpk->mp", va, jn_a) + np.einsum("mk,mpk->mp", vb, jn_b)

    def warm_start(self) -> None:
        """Apply last step's impulses (already in the manifolds) to the velocities."""
        jn_a, jn_b, jt_a, jt_b, pn_a, pn_b, pt_a, pt_b, used = self._all
        pn = self.m.normal_impulse[:, :, None]
        pt = self.m.tangent_impulse[:, :, None]
        np.add.at(self.velocities, self.m.body_a, (pn_a * pn + pt_a * pt).sum(axis=1))
        np.add.at(self.velocities, self.m.body_b, (pn_b * pn + pt_b * pt).sum(axis=1))

    def iterate(self, passes: int) -> None:
        """Gauss-Seidel passes over every colour batch."""
        v = self.velocities
        normal_impulse, tangent_impulse = self.m.normal_impulse, self.m.tangent_impulse
        for _ in range(passes):
            for batch in self.batches:
                va, vb = v[batch.a], v[batch.b]
                pn = normal_impulse[batch.index]
                pt = tangent_impulse[batch.index]
                # Friction first, point by point, bounded by the current normal impulses.
                for p in (0, 1):
                    vt = _dot(va, batch.jt_a[:, p]) + _dot(vb, batch.jt_b[:, p])
                    limit = batch.friction * pn[:, p]
                    new = np.clip(pt[:, p] - batch.mt[:, p] * vt, -limit, limit)
                    step = (new - pt[:, p])[:, None]
                    va += batch.pt_a[:, p] * step
                    vb += batch.pt_b[:, p] * step
                    pt[:, p] = new
                # Then both normal rows together.
                vn0 = _dot(va, batch.jn_a[:, 0]) + _dot(vb, batch.jn_b[:, 0])
                vn1 = _dot(va, batch.jn_a[:, 1]) + _dot(vb, batch.jn_b[:, 1])
                new0, new1 = _block_solve(
                    pn[:, 0], pn[:, 1], vn0 - batch.target[:, 0], vn1 - batch.target[:, 1],
                    batch.k, batch.pair,
                )  # fmt: skip
                new1 = np.where(batch.second, new1, 0.0)
                d0 = (new0 - pn[:, 0])[:, None]
                d1 = (new1 - pn[:, 1])[:, None]
                va += batch.pn_a[:, 0] * d0 + batch.pn_a[:, 1] * d1
                vb += batch.pn_b[:, 0] * d0 + batch.pn_b[:, 1] * d1
                pn[:, 0], pn[:, 1] = new0, new1
                normal_impulse[batch.index] = pn
                tangent_impulse[batch.index] = pt
                v[batch.a] = va
                v[batch.b] = vb

    def restitute(self) -> None:
        """Bounce: points that approached fast and were pushed leave at -e times that speed.

        One pass, point by point as Box2D does: the bounce is a velocity target, not a
        constraint that needs converging.
        """
        m, v = self.m, self.velocities
        bouncing = (
            (self.approach < -RESTITUTION_THRESHOLD)
            & (m.restitution[:, None] > 0.0)
            & (m.normal_impulse > 0.0)
        )
        if not bouncing.any():
            return
        target = -m.restitution[:, None] * self.approach
        for batch in self.batches:
            use = bouncing[batch.index]
            if not use.any():
                continue
            va, vb = v[batch.a], v[batch.b]
            pn = m.normal_impulse[batch.index]
            for p, diagonal in ((0, batch.k[:, 0]), (1, batch.k[:, 2])):
                vn = _dot(va, batch.jn_a[:, p]) + _dot(vb, batch.jn_b[:, p])
                with np.errstate(divide="ignore", invalid="ignore"):
                    pushed = np.maximum(pn[:, p] - (vn - target[batch.index, p]) / diagonal, 0.0)
                new = np.where(use[:, p], pushed, pn[:, p])
                step = (new - pn[:, p])[:, None]
                va += batch.pn_a[:, p] * step
                vb += batch.pn_b[:, p] * step
                pn[:, p] = new
            m.normal_impulse[batch.index] = pn
            v[batch.a] = va
            v[batch.b] = vb


def _block_solve(x0, x1, b0, b1, k, pair):
    """New accumulated normal impulses for one or two rows.

    x0, x1: (m,) accumulated impulses; b0, b1: (m,) normal velocity minus target at the
    current velocities; k: (m, 3) k11, k12, k22; pair: (m,) bool, solve the two rows as a
    block (else one after the other). keep: (m, 2) bool rows to leave unchanged, or None.
    Solves the complementarity problem  v = K x + b', x >= 0, v >= 0, x . v = 0  with
    b' = b - K x_old by trying its four cases (both pushing, only one, neither).
    """
    k11, k12, k22 = k[:, 0], k[:, 1], k[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        m11 = np.where(k11 > 0, 1.0 / k11, 0.0)
        m22 = np.where(k22 > 0, 1.0 / k22, 0.0)
        # Rows one by one: the first, then the second seeing the first's change.
        s0 = np.maximum(x0 - m11 * b0, 0.0)
        s1 = np.maximum(x1 - m22 * (b1 + k12 * (s0 - x0)), 0.0)
        # The block: work with b' = b - K x_old so that v = K x + b'.
        c0 = b0 - (k11 * x0 + k12 * x1)
        c1 = b1 - (k12 * x0 + k22 * x1)
        det = k11 * k22 - k12 * k12
        both0 = (k12 * c1 - k22 * c0) / det
        both1 = (k12 * c0 - k11 * c1) / det
        only0 = -c0 * m11
        only1 = -c1 * m22
    case_both = (both0 >= 0) & (both1 >= 0)
    case_first = ~case_both & (only0 >= 0) & (k12 * only0 + c1 >= 0)
    case_second = ~case_both & ~case_first & (only1 >= 0) & (k12 * only1 + c0 >= 0)
    case_none = ~case_both & ~case_first & ~case_second & (c0 >= 0) & (c1 >= 0)
    # When rounding leaves no case standing, keep the old impulses (as Box2D does).
    y0 = np.select([case_both, case_first, case_second, case_none], [both0, only0, 0.0, 0.0], x0)
    y1 = np.select([case_both, case_first, case_second, case_none], [both1, 0.0, only1, 0.0], x1)
    return np.where(pair, y0, s0), np.where(pair, y1, s1)
