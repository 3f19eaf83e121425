"""Sequential impulses for joints, colour by colour on whole arrays, beside the contacts.

Joints and contacts are coloured together (``engine.coloring``): within one colour no two
constraints share a dynamic body, so the colour's contacts and its joints can each be
solved as one numpy batch, one after the other, and every constraint sees the velocities
the colours before it produced (Gauss-Seidel).

Per joint and pass: the revolute motor (one row, torque-limited), then the two one-sided
angle limits, then the main block (see ``engine.joint_geometry``) solved exactly with its
inverse mass matrix. Rigid rows take no velocity bias: the drift they leave is removed on
positions after the step (``engine.joint_positions``), so correcting a stretched joint
never adds energy.

Springs (distance joints with a frequency f) and mouse joints are soft: a spring-damper
with stiffness k = m w^2 and damping c = 2 m zeta w for the row's mass m, w = 2 pi f.

- A spring with w h <= SYMPLECTIC_LIMIT pushes with its elastic impulse -h k C taken at
  the step start, and damps implicitly:  impulse = -(h k C + h c Cdot_end). Together with
  the position update this is symplectic Euler: an undamped spring keeps its energy and
  oscillates at its frequency (within (w h)^2 / 24). It is stable while the fastest mode
  of a chain of springs, up to 2 w, has 2 w h < 2; the limit keeps a margin.
- Stiffer springs, and mouse joints, use the implicit form (Erin Catto, "Soft
  Constraints", GDC 2011), stable at any stiffness but losing energy (the amplitude of an
  undamped spring shrinks by 1 / sqrt(1 + (w h)^2) per step):
      impulse = -(K + gamma)^-1 (Cdot + bias + gamma * accumulated),
      gamma = 1 / (h (c + h k)),  bias = C h k gamma.

A mouse joint's accumulated impulse is capped at max_force * h.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .joint_geometry import USED_ROWS, effective_mass, inverse3, joint_rows_at, slot_scale
from .joint_store import DISTANCE, MOUSE, REVOLUTE

# Largest w h (w = 2 pi f) at which a spring is integrated symplectically (see above).
SYMPLECTIC_LIMIT = 0.5


@dataclass
class JointBatch:
    """One colour's joints: a slice of the colour-ordered joints and their rows' bodies."""

    index: slice
    bodies: np.ndarray  # (m, 2)
    has_motor: bool
    has_limit: bool
    has_spring: bool


class JointSolver:
    """Solves one step's joints. ``joints``: the joint-table columns of the joints solved,
    already in colour order; ``spans``: the slice of each colour; slots: (J, 2) rows of
    slot A and B in the velocity array (the world: a zero row past the bodies).

    velocities: (N + 1, 3) (vx, vy, w), changed in place; inv_mass, inv_inertia: (N + 1,);
    poses: (N + 1, 3) at the step start.
    """

    def __init__(self, joints: dict, slots, spans, velocities, inv_mass, inv_inertia, poses, dt):
        self.joints = joints
        self.velocities = velocities
        kind = joints["kind"]
        a, b = slots[:, 0], slots[:, 1]
        rows, error, angle = joint_rows_at(joints, slice(None), poses[a], poses[b])
        scale = slot_scale(inv_mass, inv_inertia, a, b)
        used = USED_ROWS[kind]
        k, push = effective_mass(rows, scale, used)
        spring = _explicit_springs(joints, kind, k, error, dt)
        self.spring, self.spring_push, self.spring_damping, self.spring_scale = spring
        gamma, bias, slack = _softness(joints, kind, k, error, inv_mass[b], dt, self.spring)
        # A soft joint too weak to push at all (its gamma overflows) is left out of the
        # solve: zero rows, identity mass; solving it as rigid would be the opposite.
        rows[slack], push[slack], k[slack] = 0.0, 0.0, np.eye(3)
        k[:, [0, 1, 2], [0, 1, 2]] += gamma
        self.rows, self.push = rows, push
        self.inverse = inverse3(k)
        self.gamma, self.bias = gamma, bias
        self.max_impulse = np.where(kind == MOUSE, joints["max_force"] * dt, np.inf)
        # Motor and limits act on the relative angular speed, with the axial mass.
        axial = inv_inertia[a] + inv_inertia[b]
        with np.errstate(divide="ignore"):
            axial_mass = np.where(axial > 0.0, 1.0 / axial, 0.0)
        revolute = kind == REVOLUTE
        motor = revolute & (joints["max_motor_torque"] > 0.0)
        self.motor_mass = np.where(motor, axial_mass, 0.0)
        self.max_motor_impulse = joints["max_motor_torque"] * dt
        has_lower = revolute & np.isfinite(joints["lower"])
        has_upper = revolute & np.isfinite(joints["upper"])
        self.lower_mass = np.where(has_lower, axial_mass, 0.0)
        self.upper_mass = np.where(has_upper, axial_mass, 0.0)
        with np.errstate(invalid="ignore"):
            # Speculative: a limit still ahead may be closed within the step and no more.
            self.lower_bias = (
                np.where(has_lower, np.maximum(angle - joints["lower"], 0.0), 0.0) / dt
            )
            self.upper_bias = (
                np.where(has_upper, np.maximum(joints["upper"] - angle, 0.0), 0.0) / dt
            )
        # Impulses of rows that no longer exist (a motor switched off) start from zero.
        joints["motor_impulse"][~motor] = 0.0
        joints["lower_impulse"][~has_lower] = 0.0
        joints["upper_impulse"][~has_upper] = 0.0
        joints["impulse"][~used] = 0.0
        self.inv_inertia = np.column_stack([inv_inertia[a], inv_inertia[b]])
        self.slots = slots
        self.batches = [
            JointBatch(
                s,
                slots[s],
                bool(motor[s].any()),
                bool((has_lower | has_upper)[s].any()),
                bool(self.spring[s].any()),
            )
            for s in spans
        ]

    def _angular(self, s: slice, impulse: np.ndarray) -> np.ndarray:
        """(m, 6) velocity change of an impulse (m,) on the relative angle."""
        change = np.zeros((len(impulse), 6))
        change[:, 2] = -self.inv_inertia[s, 0] * impulse
        change[:, 5] = self.inv_inertia[s, 1] * impulse
        return change

    def warm_start(self) -> None:
        """Apply last step's impulses to the velocities."""
        j = self.joints
        every = slice(None)
        angular = j["motor_impulse"] + j["lower_impulse"] - j["upper_impulse"]
        change = np.einsum("mi,mij->mj", j["impulse"], self.push) + self._angular(every, angular)
        np.add.at(self.velocities, self.slots, change.reshape(-1, 2, 3))

    def solve(self, batch: JointBatch) -> None:
        """One Gauss-Seidel pass over one colour's joints."""
        v, s, j = self.velocities, batch.index, self.joints
        pair_v = v[batch.bodies].reshape(-1, 6)
        if batch.has_motor:
            speed = pair_v[:, 5] - pair_v[:, 2] - j["motor_speed"][s]
            old = j["motor_impulse"][s]
            bound = self.max_motor_impulse[s]
            new = np.clip(old - self.motor_mass[s] * speed, -bound, bound)
            pair_v += self._angular(s, new - old)
            j["motor_impulse"][s] = new
        if batch.has_limit:
            for name, sign, mass, bias in (
                ("lower_impulse", 1.0, self.lower_mass, self.lower_bias),
                ("upper_impulse", -1.0, self.upper_mass, self.upper_bias),
            ):
                speed = sign * (pair_v[:, 5] - pair_v[:, 2])
                old = j[name][s]
                new = np.maximum(old - mass[s] * (speed + bias[s]), 0.0)
                pair_v += self._angular(s, sign * (new - old))
                j[name][s] = new
        old = j["impulse"][s]
        speed = np.einsum("mij,mj->mi", self.rows[s], pair_v)
        step = -np.einsum("mij,mj->mi", self.inverse[s], speed + self.bias[s] + self.gamma[s] * old)
        if batch.has_spring:
            # Elastic push fixed at the step start, damping against the velocity now.
            explicit = (
                -(self.spring_damping[s] * speed[:, 0] + self.spring_push[s] + old[:, 0])
                * self.spring_scale[s]
            )
            step[:, 0] = np.where(self.spring[s], explicit, step[:, 0])
        new = _cap(old + step, self.max_impulse[s])
        pair_v += np.einsum("mi,mij->mj", new - old, self.push[s])
        j["impulse"][s] = new
        v[batch.bodies] = pair_v.reshape(-1, 2, 3)


def _cap(impulse: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """Scale each (3,) impulse down to length ``bound`` (m,) where it is longer."""
    size = np.sqrt(np.einsum("mi,mi->m", impulse, impulse))
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(size > bound, bound / size, 1.0)
    return impulse * factor[:, None]


def _explicit_springs(joints: dict, kind, k, error, dt):
    """The springs integrated symplectically: (m,) bool, and per joint the elastic
    impulse h k C, the damping h c and the scale 1 / (1 + K h c) of the update
    step = -(h c Cdot + h k C + accumulated) / (1 + K h c)."""
    omega = 2.0 * np.pi * joints["frequency"]
    spring = (kind == DISTANCE) & (omega > 0.0) & (omega * dt <= SYMPLECTIC_LIMIT)
    with np.errstate(divide="ignore"):
        mass = np.where(spring, 1.0 / k[:, 0, 0], 0.0)
    push = dt * mass * omega * omega * error[:, 0]
    damping = dt * 2.0 * mass * joints["damping"] * omega
    return spring, push, damping, 1.0 / (1.0 + k[:, 0, 0] * damping)


def _softness(joints: dict, kind, k, error, inv_mass_b, dt, explicit):
    """gamma and bias (m, 3) of the implicitly soft rows: stiff springs and mouse joints;
    zero elsewhere; and slack (m,) bool, the soft joints whose stiffness and damping are
    too small to push at all (1 / (h (c + h k)) overflows). explicit: (m,) the springs
    integrated symplectically instead."""
    frequency, damping = joints["frequency"], joints["damping"]
    spring = (kind == DISTANCE) & (frequency > 0.0) & ~explicit
    mouse = kind == MOUSE
    # The row's own mass: along a spring's axis, or the body's mass for a mouse pull.
    with np.errstate(divide="ignore"):
        mass = np.where(spring, 1.0 / k[:, 0, 0], np.where(inv_mass_b > 0.0, 1.0 / inv_mass_b, 0.0))
    omega = 2.0 * np.pi * frequency
    stiffness = mass * omega * omega
    friction = 2.0 * mass * damping * omega
    total = dt * (friction + dt * stiffness)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = 1.0 / total
    slack = (spring | mouse) & ~((total > 0.0) & np.isfinite(inverse))
    soft = (spring | mouse) & ~slack
    gamma = np.where(soft, inverse, 0.0)
    bias = error * (dt * stiffness * gamma)[:, None]
    rows = USED_ROWS[kind] & soft[:, None]
    return np.where(rows, gamma[:, None], 0.0), np.where(rows, bias, 0.0), slack
