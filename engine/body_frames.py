"""A body's frame: where points given in it are in the world, and how fast they move.

The frame has its origin at ``body.position`` and turns with the body; ``Body`` takes these
methods from ``BodyFrames``.
"""

from __future__ import annotations

import math

import numpy as np

from .validation import as_finite_array


def as_points(value, argument: str) -> tuple[np.ndarray, bool]:
    """(N, 2) finite points from a (2,) point or (N, 2) points, and whether it was one."""
    array = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
    single = array.ndim == 1
    points = as_finite_array(value, (2,) if single else (-1, 2), argument)
    return (points[None, :] if single else points), single


class BodyFrames:
    """Conversions between a body's frame and the world (a part of ``Body``)."""

    __slots__ = ()

    def local_to_world(self, points) -> np.ndarray:
        """World coordinates of ``points`` given in the body's frame: (2,) or (N, 2) in, the
        same shape out.

        The body's frame has its origin at ``position`` and turns with the body: the frame
        the shapes were given in for a body added with ``origin="local"``; otherwise the
        centre of mass, the shapes' frame once ``add_body`` has centred them on their
        common centroid (for one centred shape, the shape's own frame).
        """
        local, single = as_points(points, "points")
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = self._origin()
        world = np.stack([c * local[:, 0] - s * local[:, 1] + x,
                          s * local[:, 0] + c * local[:, 1] + y], axis=1)  # fmt: skip
        return world[0] if single else world

    def world_to_local(self, points) -> np.ndarray:
        """The body's-frame coordinates of world ``points``: (2,) or (N, 2) in, the same
        shape out (the inverse of ``local_to_world``)."""
        world, single = as_points(points, "points")
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = self._origin()
        dx, dy = world[:, 0] - x, world[:, 1] - y
        local = np.stack([c * dx + s * dy, -s * dx + c * dy], axis=1)
        return local[0] if single else local

    def velocity_at(self, points) -> np.ndarray:
        """Velocity of the body's material at world ``points``, m/s: v + w x (p - position).
        (2,) or (N, 2) in, the same shape out."""
        world, single = as_points(points, "points")
        w = self.angular_velocity
        rx = world[:, 0] - self._get("position")[0]
        ry = world[:, 1] - self._get("position")[1]
        vx, vy = self._get("velocity")
        velocity = np.stack([vx - w * ry, vy + w * rx], axis=1)
        return velocity[0] if single else velocity
