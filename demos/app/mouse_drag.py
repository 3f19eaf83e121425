"""Dragging bodies with the mouse: pick the body under the pointer, then pull it along.

Grabbing adds a MouseJoint at the grabbed point and moving the pointer moves its target:
the joint pulls the point towards the pointer like a stiff spring with a force limit.
The body is never teleported, so it pushes the others out of the way instead of passing
through them, and a body too heavily loaded (a pile on top, a joint holding it) lags
behind instead of tearing loose.
"""

from __future__ import annotations

import numpy as np

from engine import MouseJoint, World

from .. import world_data
from ..draw import palette

# The pull's force limit per kilogram of the held body, so that heavy and light bodies
# follow alike: 1000 m/s^2, about 100 g, lifts the body with a stack of its like on top
# and closes a gap faster than one can move the mouse, while still bounded, so that a
# body dragged into a wall or a pile meets it with a finite force and the solver holds.
PULL_PER_KG = 1000.0  # N/kg
# A 5 Hz spring closes most of a gap within a tenth of a second; 0.7 of critical damping
# settles without a visible overshoot.
PULL_FREQUENCY = 5.0
PULL_DAMPING = 0.7
# Spin kept per step while held: a body held off its centre swings to rest below the
# pointer in about a second instead of swinging on like a frictionless pendulum.
SPIN_KEPT = 0.97
# Radius of the ring marking the pointer while a body is held, pixels.
POINTER_RING_PX = 6.0


def body_at(world: World, point) -> int:
    """Row of the topmost dynamic body containing ``point`` (2,), or -1."""
    packed, owner = world_data.parts(world)
    if len(owner) == 0:
        return -1
    point = np.asarray(point, dtype=np.float64)
    poses = np.column_stack([world.positions, world.angles])[owner]
    # The point in each part's body frame, where the packed vertices and normals live.
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    dx, dy = point[0] - poses[:, 0], point[1] - poses[:, 1]
    local = np.column_stack([c * dx + s * dy, -s * dx + c * dy])
    offset = local[:, None, :] - packed.vertices  # (P, K, 2)
    # Inside a convex polygon: behind every edge. Padding slots repeat real edges.
    behind = np.einsum("pkj,pkj->pk", offset, packed.normals) <= 0.0
    # A capsule: within its radius of its segment (a circle's segment is its centre).
    ends = packed.vertices[:, 1] if packed.width > 1 else packed.vertices[:, 0]
    core = (
        np.where((packed.count == 2)[:, None], ends, packed.vertices[:, 0]) - packed.vertices[:, 0]
    )
    length_sq = np.einsum("pj,pj->p", core, core)
    along = np.einsum("pj,pj->p", offset[:, 0], core) / np.where(length_sq > 0.0, length_sq, 1.0)
    nearest = offset[:, 0] - np.clip(along, 0.0, 1.0)[:, None] * core
    inside = np.where(
        packed.radius > 0.0,
        np.hypot(nearest[:, 0], nearest[:, 1]) <= packed.radius,
        behind.all(axis=1),
    )
    dynamic = world_data.kinds(world)[owner] == world_data.DYNAMIC
    hits = np.flatnonzero(inside & dynamic)
    # Later bodies are drawn on top, so the last hit is the one the user sees.
    return int(owner[hits[-1]]) if len(hits) else -1


class MouseDrag:
    """The body being dragged, the MouseJoint that pulls it, and where the pointer is."""

    def __init__(self) -> None:
        self.body = None
        self.joint: MouseJoint | None = None
        self.pointer = np.zeros(2)

    @property
    def active(self) -> bool:
        """True while a body is held; False once its joint or the body has gone (a removed
        body takes its joints with it)."""
        return self.joint is not None and self.joint.world is not None

    def grab(self, world: World, point) -> bool:
        """Start dragging the body under ``point`` (2,); False if there is none."""
        self.release()
        row = body_at(world, point)
        if row < 0:
            return False
        self.body = world.bodies[row]
        self.pointer = np.asarray(point, dtype=np.float64)
        self.joint = world.add_joint(
            MouseJoint(
                self.body,
                self.pointer,
                max_force=PULL_PER_KG * self.body.mass,
                frequency=PULL_FREQUENCY,
                damping=PULL_DAMPING,
            )
        )
        return True

    def move(self, point) -> None:
        """The pointer moved to ``point`` (2,): the pull heads there."""
        self.pointer = np.asarray(point, dtype=np.float64)
        if self.active:
            self.joint.target = self.pointer

    def release(self) -> None:
        """Let go: the joint is removed, unless it went already (a reset, a removed body)."""
        if self.active:
            self.joint.world.remove_joint(self.joint)
        self.joint = None
        self.body = None

    def grabbed_point(self) -> np.ndarray:
        """(2,) the grabbed point of the body in world coordinates now (the pointer when
        nothing is held)."""
        if not self.active:
            return self.pointer.copy()
        return self.joint.anchor_a

    def before_step(self, world: World) -> None:
        """Calm the held body's spin (a Stepper hook); forget a joint that has gone."""
        if self.joint is None:
            return
        if not self.active:
            self.joint = self.body = None
            return
        self.body.angular_velocity = self.body.angular_velocity * SPIN_KEPT

    def draw(self, canvas) -> None:
        """A ring at the pointer while a body is held; the pull line is drawn with the
        other joints (``demos.draw.joint_draw``)."""
        if not self.active:
            return
        canvas.rings(self.pointer[None], POINTER_RING_PX * canvas.pixel, palette.DRAG_LINE, 1.5, 16)
