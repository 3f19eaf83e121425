"""Dragging bodies with the mouse: pick the body under the pointer, then pull it along.

The body is not teleported (that would let it pass through others); instead, before every
step its velocity is set so that the grabbed point would reach the pointer in a few steps.
The solver then treats it like any fast body and it pushes the others out of the way.
"""

from __future__ import annotations

import numpy as np

from engine import World

from . import palette, world_data

# Fraction of the gap to the pointer closed per step, and the top speed of a dragged body.
GAIN = 0.3
MAX_SPEED = 40.0  # m/s
# Spin kept per step while held, so the body settles instead of whirling around the point.
SPIN_KEPT = 0.9


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
    inside = np.where(
        packed.radius > 0.0,
        np.hypot(offset[:, 0, 0], offset[:, 0, 1]) <= packed.radius,
        behind.all(axis=1),
    )
    dynamic = world_data.kinds(world)[owner] == world_data.DYNAMIC
    hits = np.flatnonzero(inside & dynamic)
    # Later bodies are drawn on top, so the last hit is the one the user sees.
    return int(owner[hits[-1]]) if len(hits) else -1


class MouseDrag:
    """The body being dragged, where it was grabbed, and where the pointer is."""

    def __init__(self) -> None:
        self.body = None
        self._anchor = np.zeros(2)  # grabbed point in the body frame
        self.pointer = np.zeros(2)

    @property
    def active(self) -> bool:
        return self.body is not None and self.body.world is not None

    def grab(self, world: World, point) -> bool:
        """Start dragging the body under ``point``; False if there is none."""
        row = body_at(world, point)
        if row < 0:
            return False
        self.body = world.bodies[row]
        self.pointer = np.asarray(point, dtype=np.float64)
        self._anchor = _into_body(self.body, self.pointer)
        return True

    def move(self, point) -> None:
        self.pointer = np.asarray(point, dtype=np.float64)

    def release(self) -> None:
        self.body = None

    def grabbed_point(self) -> np.ndarray:
        """The grabbed point in world coordinates now."""
        return _from_body(self.body, self._anchor)

    def before_step(self, world: World) -> None:
        """Steer the held body towards the pointer (a Stepper hook)."""
        if not self.active:
            return
        gap = self.pointer - self.grabbed_point()
        velocity = gap * (GAIN / world.dt)
        speed = float(np.hypot(*velocity))
        if speed > MAX_SPEED:
            velocity *= MAX_SPEED / speed
        self.body.velocity = velocity
        self.body.angular_velocity = self.body.angular_velocity * SPIN_KEPT

    def draw(self, canvas) -> None:
        """A line from the grabbed point to the pointer."""
        if not self.active:
            return
        start = self.grabbed_point()
        canvas.lines(start[None], self.pointer[None], palette.DRAG_LINE, 1.5)
        canvas.dots(np.stack([start, self.pointer]), palette.DRAG_LINE, 3.5)


def _into_body(body, point: np.ndarray) -> np.ndarray:
    c, s = np.cos(body.angle), np.sin(body.angle)
    d = point - body.position
    return np.array([c * d[0] + s * d[1], -s * d[0] + c * d[1]])


def _from_body(body, local: np.ndarray) -> np.ndarray:
    c, s = np.cos(body.angle), np.sin(body.angle)
    return body.position + np.array([c * local[0] - s * local[1], s * local[0] + c * local[1]])
