"""Convex parts packed into padded arrays, the form the batched SAT kernel reads.

A batch of P convex parts becomes fixed-width arrays of K slots. A polygon with fewer than K
vertices is padded with copies of its first vertex and of its last edge normal: the padded
slots then repeat a real vertex and a real face, so minima and maxima over the slots are
unchanged, and ``(i + 1) % K`` is the next vertex of every real slot. A circle is one
vertex (its centre) repeated, with its radius; its normals are zero and never read. A
segment (a capsule when its radius is > 0) is two vertices, its ends, with the normals of
its two sides: ``n`` (to the right of a -> b) and ``-n``, as a polygon of two edges.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PackedParts(NamedTuple):
    """Convex parts in body-local coordinates, padded to K slots.

    vertices: (P, K, 2) float64; normals: (P, K, 2) float64 unit outward edge normals
    (edge i runs from vertex i to vertex i + 1); count: (P,) int64 real vertices (1 for a
    circle); radius: (P,) float64 (0 for a polygon).
    """

    vertices: np.ndarray
    normals: np.ndarray
    count: np.ndarray
    radius: np.ndarray

    @property
    def width(self) -> int:
        """K, the number of vertex slots."""
        return self.vertices.shape[1]

    def slot_major(self) -> np.ndarray:
        """Vertices and normals as one contiguous (4, K, P) array: rows x, y, nx, ny.

        Gathering parts from it gives the kernels' slot-major layout directly.
        """
        return np.ascontiguousarray(
            np.concatenate([self.vertices, self.normals], axis=2).transpose(2, 1, 0)
        )


def edge_normals(vertices: np.ndarray) -> np.ndarray:
    """Unit outward normals of a CCW polygon's edges. vertices: (n, 2) -> (n, 2)."""
    edges = np.roll(vertices, -1, axis=0) - vertices
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
    return normals / np.linalg.norm(normals, axis=1, keepdims=True)


def pack_polygon(vertices: np.ndarray, normals: np.ndarray, width: int) -> PackedParts:
    """One CCW polygon, (n, 2) vertices and normals, padded to ``width`` >= n slots."""
    n = len(vertices)
    padded_vertices = np.empty((1, width, 2))
    padded_vertices[0, :n] = vertices
    padded_vertices[0, n:] = vertices[0]
    padded_normals = np.empty((1, width, 2))
    padded_normals[0, :n] = normals
    padded_normals[0, n:] = normals[-1]
    return PackedParts(padded_vertices, padded_normals, np.array([n]), np.zeros(1))


def pack_circle(offset: np.ndarray, radius: float, width: int) -> PackedParts:
    """One circle as a single repeated vertex with a radius, ``width`` slots."""
    vertices = np.broadcast_to(offset, (1, width, 2)).copy()
    return PackedParts(vertices, np.zeros((1, width, 2)), np.array([1]), np.array([radius]))


def pack_segment(
    a: np.ndarray, b: np.ndarray, normal: np.ndarray, radius: float, width: int
) -> PackedParts:
    """One segment a-b (2,) with its right-hand unit ``normal`` (2,) and ``radius``."""
    vertices = np.empty((1, width, 2))
    vertices[0, :] = a
    vertices[0, 1] = b
    normals = np.empty((1, width, 2))
    normals[0, :] = -normal
    normals[0, 0] = normal
    return PackedParts(vertices, normals, np.array([2]), np.array([radius]))


def widen(packed: PackedParts, width: int) -> PackedParts:
    """The same parts padded to ``width`` >= K slots, keeping the padding rule."""
    k = packed.width
    if width == k:
        return packed
    first = packed.vertices[:, :1, :]
    last_normal = packed.normals[:, -1:, :]
    # A polygon that filled all K slots has its last real normal in slot K-1, so repeating
    # slot K-1 is right for both full and already padded parts.
    vertices = np.concatenate([packed.vertices, np.repeat(first, width - k, axis=1)], axis=1)
    normals = np.concatenate([packed.normals, np.repeat(last_normal, width - k, axis=1)], axis=1)
    return PackedParts(vertices, normals, packed.count, packed.radius)


def concatenate(batches: list[PackedParts]) -> PackedParts:
    """Join packed batches into one, widening all to the widest."""
    width = max(batch.width for batch in batches)
    widened = [widen(batch, width) for batch in batches]
    return PackedParts(*(np.concatenate(field) for field in zip(*widened)))


def part_widths(parts: PackedParts) -> np.ndarray:
    """(P,) each part's smallest width: the least extent of its vertices along its own
    edge normals, plus its rounding on both sides (a circle's diameter, a capsule's).

    The padding repeats a vertex and a normal, so it changes no extent. A segment without
    radius has no thickness to protect: its width is the largest float64 (finite, as a saved
    body's thickness must be), so it never lowers a slop.
    """
    # (P, K normals, K vertices) projections.
    along = np.einsum("pkd,pjd->pkj", parts.normals, parts.vertices)
    extent = along.max(axis=2) - along.min(axis=2)
    widths = extent.min(axis=1) + 2.0 * parts.radius
    return np.where((parts.count == 2) & (parts.radius == 0.0), np.finfo(np.float64).max, widths)
