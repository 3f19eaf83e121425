"""Put packed body-local parts into a frame at their poses, in the kernels' layout."""

from __future__ import annotations

import numpy as np

from engine.packing import PackedParts

from .contacts import Discs, Hulls


def local_hulls(slots: np.ndarray, count: np.ndarray, parts: np.ndarray) -> Hulls:
    """Polygon parts in their own body frame (no transform).

    slots: the part table's ``slot_major()`` array, (4, K, P) float64; count: (P,) int64
    vertices per part; parts: (N,) int64 rows (polygons only). The result keeps only as many
    slots as the widest chosen part needs: every dropped slot was padding, so the padding
    rule of ``engine.packing`` still holds.
    """
    count = count[parts]
    width = int(count.max()) if len(parts) else 1
    return Hulls(np.take(slots[:, :width], parts, axis=2), count)


def place_hulls(slots: np.ndarray, count: np.ndarray, parts: np.ndarray, poses) -> Hulls:
    """Polygon parts placed at ``poses`` (N, 3) float64 (x, y, angle); as ``local_hulls``."""
    hulls = local_hulls(slots, count, parts)
    data = hulls.data
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    placed = np.empty_like(data)
    for out, (u, v) in ((placed[0:2], data[0:2]), (placed[2:4], data[2:4])):
        np.multiply(c, u, out=out[0])
        out[0] -= s * v
        np.multiply(s, u, out=out[1])
        out[1] += c * v
    placed[0] += poses[:, 0]
    placed[1] += poses[:, 1]
    return Hulls(placed, hulls.count)


def relative_poses(frame: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """Poses (N, 3) re-expressed in the body frames ``frame`` (N, 3): (x, y, angle)."""
    c, s = np.cos(frame[:, 2]), np.sin(frame[:, 2])
    dx, dy = poses[:, 0] - frame[:, 0], poses[:, 1] - frame[:, 1]
    return np.stack([c * dx + s * dy, -s * dx + c * dy, poses[:, 2] - frame[:, 2]], axis=1)


def place_discs(packed: PackedParts, parts: np.ndarray, poses: np.ndarray) -> Discs:
    """Circle parts placed at ``poses``. parts: (N,) int64; poses: (N, 3) float64."""
    offset = packed.vertices[parts, 0]
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    centre = np.stack(
        [
            c * offset[:, 0] - s * offset[:, 1] + poses[:, 0],
            s * offset[:, 0] + c * offset[:, 1] + poses[:, 1],
        ],
        axis=1,
    )
    return Discs(centre, packed.radius[parts])
