"""Sequential-impulse contact solver, run colour by colour on whole arrays.

Every contact manifold (one or two points between two bodies) carries non-penetration rows
along the normal (impulse >= 0) and a Coulomb friction row along the tangent (|impulse| <=
mu times the normal impulse). Gauss-Seidel needs each manifold to see the velocities its
neighbours just produced, so manifolds are coloured: no two of one colour share a dynamic
body, and each colour is solved as one numpy batch.

- The two normal rows of a manifold are solved together, exactly, as a 2x2 linear
  complementarity problem (the block solver of Box2D 2.x): solving them one after the
  other lets a box resting on two points rock, and a stack sway.
- The two points of a manifold lie on one face, so their tangent rows have the same
  Jacobian up to the small depth difference: one friction row at their centre, bounded by
  mu times the sum of the normal impulses, applies the same force and torque.

A batch gathers the velocities of its two bodies as one (m, 6) array (vx, vy, w of A, then
of B), so each row is a (6,) vector and each velocity update is one multiply-add.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .settings import RESTITUTION_THRESHOLD

# The block solve falls back to one row after the other when the 2x2 effective-mass matrix
# is this badly conditioned (two points nearly on top of each other).
MAX_CONDITION = 1000.0


@dataclass
class Manifolds:
    """One step's contact manifolds; M of them, two point slots each.

    body_a, body_b: (M,) body rows; count: (M,) 1 or 2 points; normal: (M, 2) from A to B;
    arm_a, arm_b: (M, 2, 2) from each centre of mass to each point; separation: (M, 2)
    (+inf in an unused slot); friction, restitution: (M,) mixed; normal_impulse: (M, 2)
    and tangent_impulse: (M,) accumulated, warm-started; points: (M, 2, 2) world points
    at the step start (NaN in an unused slot); keys: (M, 2) int64 warm-start names of the
    points (-1 in an unused slot).
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
    points: np.ndarray
    keys: np.ndarray

    def __len__(self) -> int:
        return len(self.body_a)

    def subset(self, rows: np.ndarray) -> Manifolds:
        """The manifolds at ``rows`` (M',) as a new Manifolds."""
        return Manifolds(**{name: value[rows] for name, value in vars(self).items()})


def _cross(r: np.ndarray, n: np.ndarray) -> np.ndarray:
    """z of r x n over the last axis (..., 2)."""
    return r[..., 0] * n[..., 1] - r[..., 1] * n[..., 0]


def jacobian_row(axis: np.ndarray, arm_a: np.ndarray, arm_b: np.ndarray) -> np.ndarray:
    """(M, 6) Jacobian row along ``axis`` (M, 2) for points at arms (M, 2) from A and B."""
    return np.column_stack([-axis, -_cross(arm_a, axis), axis, _cross(arm_b, axis)])


@dataclass
class Batch:
    """One colour's manifolds with what every pass reuses, gathered once per step.

    index: the batch's slice of the colour-ordered manifolds; bodies: (m, 2) rows of A
    and B; normal0, normal1, tangent: (m, 6) Jacobian rows; push_*: the same scaled by
    inverse mass and inertia (velocity change per unit impulse); inverse: (m, 3) entries
    of the inverse 2x2 normal mass (i11, i12, i22); k: (m, 3) the normal mass matrix (k11,
    k12, k22); tangent_mass: (m,); row_mass: (m, 2) 1 / k_ii, each normal row's own mass;
    target: (m, 2) least allowed normal velocity; block: (m,) solve both normal rows as one
    block; second: (m,) has a second point; normal_impulse, tangent_impulse: accumulators.
    """

    index: np.ndarray
    bodies: np.ndarray
    normal0: np.ndarray
    normal1: np.ndarray
    tangent: np.ndarray
    push_normal0: np.ndarray
    push_normal1: np.ndarray
    push_tangent: np.ndarray
    inverse: np.ndarray
    k: np.ndarray
    tangent_mass: np.ndarray
    row_mass: np.ndarray
    friction: np.ndarray
    target: np.ndarray
    block: np.ndarray
    second: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray


class ContactSolver:
    """Solves one step's manifolds; ``colours`` lists the manifold rows of each colour.

    velocities: (N, 3) float64 (vx, vy, w), changed in place.
    """

    def __init__(self, manifolds: Manifolds, colours: list, velocities, inv_mass, inv_inertia, dt):
        self.m = manifolds
        self.velocities = velocities
        # Put the manifolds in colour order once: every batch is then a slice (a view), and
        # the passes gather nothing but velocities.
        order = np.concatenate(colours) if colours else np.zeros(0, dtype=np.int64)
        self.order = order
        ends = np.cumsum([len(c) for c in colours])
        spans = [slice(int(e - len(c)), int(e)) for c, e in zip(colours, ends)]
        a, b = manifolds.body_a[order], manifolds.body_b[order]
        n = manifolds.normal[order]
        t = np.column_stack([n[:, 1], -n[:, 0]])
        second = manifolds.count[order] == 2
        arm_a, arm_b = manifolds.arm_a[order], manifolds.arm_b[order]
        # Friction acts at the centre of the points (their arms' mean).
        centre_a = np.where(second[:, None], 0.5 * (arm_a[:, 0] + arm_a[:, 1]), arm_a[:, 0])
        centre_b = np.where(second[:, None], 0.5 * (arm_b[:, 0] + arm_b[:, 1]), arm_b[:, 0])
        normal0 = jacobian_row(n, arm_a[:, 0], arm_b[:, 0])
        normal1 = np.where(second[:, None], jacobian_row(n, arm_a[:, 1], arm_b[:, 1]), 0.0)
        tangent = jacobian_row(t, centre_a, centre_b)
        scale = np.column_stack(
            [inv_mass[a], inv_mass[a], inv_inertia[a], inv_mass[b], inv_mass[b], inv_inertia[b]]
        )
        push0, push1, push_t = normal0 * scale, normal1 * scale, tangent * scale
        k11 = np.einsum("ij,ij->i", normal0, push0)
        k22 = np.einsum("ij,ij->i", normal1, push1)
        k12 = np.einsum("ij,ij->i", normal0, push1)
        kt = np.einsum("ij,ij->i", tangent, push_t)
        det = k11 * k22 - k12 * k12
        block = second & (k11 * k11 < MAX_CONDITION * det)
        with np.errstate(divide="ignore", invalid="ignore"):
            inverse = np.where(
                block[:, None], np.column_stack([k22, -k12, k11]) / det[:, None], 0.0
            )
            tangent_mass = np.where(kt > 0, 1.0 / kt, 0.0)
            # Row by row, each normal row has its own mass 1 / k_ii.
            row_mass = np.column_stack(
                [np.where(k11 > 0, 1.0 / k11, 0.0), np.where(second & (k22 > 0), 1.0 / k22, 0.0)]
            )
        k = np.column_stack([k11, np.where(second, k12, 0.0), k22])
        # Speculative points (a gap ahead) may close the gap within the step and no more;
        # touching points must not approach. Overlap is left to positional correction.
        used = np.column_stack([np.ones(len(a), dtype=bool), second])
        gap = np.where(used, manifolds.separation[order], 0.0)
        target = np.where(gap > 0.0, -gap / dt, 0.0)
        bodies = np.column_stack([a, b])
        pair_v = velocities[bodies].reshape(-1, 6)
        approach = np.column_stack(
            [np.einsum("ij,ij->i", pair_v, normal0), np.einsum("ij,ij->i", pair_v, normal1)]
        )
        self.approach = approach
        self.restitution = manifolds.restitution[order]
        self.normal_impulse = manifolds.normal_impulse[order]
        self.tangent_impulse = manifolds.tangent_impulse[order]
        self.batches = [
            Batch(
                index=s, bodies=bodies[s], normal0=normal0[s], normal1=normal1[s],
                tangent=tangent[s], push_normal0=push0[s], push_normal1=push1[s],
                push_tangent=push_t[s], inverse=inverse[s], k=k[s],
                tangent_mass=tangent_mass[s], row_mass=row_mass[s],
                friction=manifolds.friction[order][s], target=target[s], block=block[s],
                second=second[s], normal_impulse=self.normal_impulse[s],
                tangent_impulse=self.tangent_impulse[s],
            )
            for s in spans
        ]  # fmt: skip
        self._rows = (bodies, push0, push1, push_t)

    def warm_start(self) -> None:
        """Apply last step's impulses (already in the manifolds) to the velocities."""
        bodies, push0, push1, push_t = self._rows
        pn, pt = self.normal_impulse, self.tangent_impulse
        change = push0 * pn[:, :1] + push1 * pn[:, 1:] + push_t * pt[:, None]
        np.add.at(self.velocities, bodies, change.reshape(-1, 2, 3))

    def iterate(self, passes: int) -> None:
        """Gauss-Seidel passes over every colour batch."""
        for _ in range(passes):
            for batch in self.batches:
                self.solve(batch)
        self.store()

    def solve(self, batch: Batch) -> None:
        """One pass over one colour's manifolds: friction, then both normal rows."""
        v = self.velocities
        pair_v = v[batch.bodies].reshape(-1, 6)
        pn, pt = batch.normal_impulse, batch.tangent_impulse
        # Friction first, bounded by the current normal impulses.
        vt = np.einsum("ij,ij->i", pair_v, batch.tangent)
        limit = batch.friction * (pn[:, 0] + pn[:, 1])
        new = np.minimum(np.maximum(pt - batch.tangent_mass * vt, -limit), limit)
        pair_v += batch.push_tangent * (new - pt)[:, None]
        pt[:] = new
        # Then both normal rows together.
        vn0 = np.einsum("ij,ij->i", pair_v, batch.normal0) - batch.target[:, 0]
        vn1 = np.einsum("ij,ij->i", pair_v, batch.normal1) - batch.target[:, 1]
        _push_normals(batch, pair_v, *_block_solve(pn[:, 0], pn[:, 1], vn0, vn1, batch))
        v[batch.bodies] = pair_v.reshape(-1, 2, 3)

    def store(self) -> None:
        """Write the impulses back to the manifolds, in their own order."""
        self.m.normal_impulse[self.order] = self.normal_impulse
        self.m.tangent_impulse[self.order] = self.tangent_impulse

    def restitute(self) -> None:
        """Bounce: points that approached fast and were pushed leave at -e times that speed.

        One pass after the solve. A two-point manifold bounces both points at once with the
        block solve: with e = 1 that returns exactly the energy of the approach, where
        bouncing the points one after the other (each to its own target) can add energy to
        a spinning body.
        """
        v = self.velocities
        hit = (self.approach < -RESTITUTION_THRESHOLD) & (self.normal_impulse > 0.0)
        bouncing = hit & (self.restitution[:, None] > 0.0)
        if not bouncing.any():
            self.store()
            return
        goal = np.where(bouncing, -self.restitution[:, None] * self.approach, 0.0)
        for batch in self.batches:
            use = bouncing[batch.index]
            if not use.any():
                continue
            target = np.where(use, goal[batch.index], batch.target)
            pair_v = v[batch.bodies].reshape(-1, 6)
            pn = batch.normal_impulse
            now0 = np.einsum("ij,ij->i", pair_v, batch.normal0)
            now1 = np.einsum("ij,ij->i", pair_v, batch.normal1)
            new0, new1 = _block_solve(
                pn[:, 0], pn[:, 1], now0 - target[:, 0], now1 - target[:, 1], batch
            )
            # Manifolds with nothing bouncing keep their impulses.
            touched = use.any(axis=1)
            new0 = np.where(touched, new0, pn[:, 0])
            new1 = np.where(touched, new1, pn[:, 1])
            scale = _energy_cap(batch, self.approach[batch.index], pn, now0, now1, new0, new1)
            new0 = pn[:, 0] + scale * (new0 - pn[:, 0])
            new1 = pn[:, 1] + scale * (new1 - pn[:, 1])
            _push_normals(batch, pair_v, new0, new1)
            v[batch.bodies] = pair_v.reshape(-1, 2, 3)
        self.store()


def _push_normals(batch: Batch, pair_v: np.ndarray, new0, new1) -> None:
    """Set the batch's normal impulses to (new0, new1) (m,) and apply the change to the
    pairs' velocities ``pair_v`` (m, 6), in place."""
    pn = batch.normal_impulse
    pair_v += batch.push_normal0 * (new0 - pn[:, 0])[:, None]
    pair_v += batch.push_normal1 * (new1 - pn[:, 1])[:, None]
    pn[:, 0] = new0
    pn[:, 1] = new1


def _energy_cap(batch: Batch, approach, total, now0, now1, new0, new1) -> np.ndarray:
    """(m,) share in [0, 1] of each manifold's bounce impulse that adds no energy.

    A bounce aims each point at -e times its approach speed. Two points aimed at once can
    ask for more than the impact gave (a spinning box meeting a face: the second point's
    approach is partly spin the first one's impulse takes away), and rigid bodies would
    come out of an elastic impact faster than they went in. So the kinetic energy the
    normal impulses put into a pair over the whole step, measured from the approach, may
    not become positive: the bounce impulse d is scaled by the largest a in [0, 1] with
        total . (approach + now) / 2  +  a d . now  +  a^2 d K d / 2  <=  0.
    approach: (m, 2) normal velocities at the step start; total: (m, 2) impulses so far;
    now0, now1: (m,) normal velocities now; new0, new1: (m,) impulses with the bounce.
    """
    d0, d1 = new0 - total[:, 0], new1 - total[:, 1]
    k11, k12, k22 = batch.k[:, 0], batch.k[:, 1], batch.k[:, 2]
    spent = 0.5 * (total[:, 0] * (approach[:, 0] + now0) + total[:, 1] * (approach[:, 1] + now1))
    linear = d0 * now0 + d1 * now1
    quadratic = 0.5 * (k11 * d0 * d0 + 2.0 * k12 * d0 * d1 + k22 * d1 * d1)
    gained = spent + linear + quadratic
    with np.errstate(divide="ignore", invalid="ignore"):
        root = (-linear + np.sqrt(np.maximum(linear * linear - 4.0 * quadratic * spent, 0.0))) / (
            2.0 * quadratic
        )
    return np.where(gained <= 0.0, 1.0, np.clip(np.nan_to_num(root), 0.0, 1.0))


def _block_solve(x0, x1, b0, b1, batch: Batch):
    """New accumulated normal impulses of the two rows of each manifold.

    x0, x1: (m,) accumulated impulses; b0, b1: (m,) normal velocity minus target now.
    Two-point manifolds solve the complementarity problem  v = K x + c, x >= 0, v >= 0,
    x . v = 0  (c = b - K x_old): first with both rows pushing; where that asks for a pull,
    they fall back to one row after the other, which converges to the same answer over the
    passes. One-point manifolds are that single row.
    """
    i11, i12, i22 = batch.inverse[:, 0], batch.inverse[:, 1], batch.inverse[:, 2]
    k12 = batch.k[:, 1]
    # One row after the other: the second sees the first's change.
    s0 = np.maximum(x0 - batch.row_mass[:, 0] * b0, 0.0)
    s1 = np.maximum(x1 - batch.row_mass[:, 1] * (b1 + k12 * (s0 - x0)), 0.0)
    # Both rows at once: x = x_old - K^-1 b.
    both0 = x0 - (i11 * b0 + i12 * b1)
    both1 = x1 - (i12 * b0 + i22 * b1)
    use_block = batch.block & (both0 >= 0.0) & (both1 >= 0.0)
    return np.where(use_block, both0, s0), np.where(use_block, both1, s1) * batch.second
