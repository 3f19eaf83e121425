"""Splitting a simple polygon into convex parts.

Collision detection works on convex shapes, so a concave outline is cut into convex parts
once, when its shape is built: ear clipping gives n - 2 triangles, then Hertel-Mehlhorn
merging removes every diagonal whose removal keeps the merged part convex.

Geometric tests run on a copy of the outline scaled to unit extent (see
outline.normalise), so the tolerances below are relative to the outline's size.
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from engine.outline import SINE_TOLERANCE, as_outline_array, is_convex, normalise, signed_area

# A vertex this close (relative to the outline's extent) to a candidate ear counts as
# touching it. Cleaned outlines keep vertices much further than this from other edges.
BLOCK_TOLERANCE = 1e-12


def triangulate(outline: np.ndarray) -> np.ndarray:
    """Ear clipping.

    outline: (n, 2) float64, a simple polygon, normally cleaned and CCW (CW input and
    straight corners are handled too). Returns (n - 2, 3) int64 indices into outline,
    each triangle CCW. Ears with the largest smallest angle are clipped first.
    """
    pts = as_outline_array(outline)
    unit = normalise(pts)
    order = np.arange(len(pts))
    if signed_area(unit) < 0.0:
        order = order[::-1].copy()
    local = _EarClipper(unit[order]).run()
    return order[local].astype(np.int64).reshape(-1, 3)


def merge_triangles(outline: np.ndarray, triangles: np.ndarray) -> list[np.ndarray]:
    """Hertel-Mehlhorn: remove inessential diagonals, giving convex parts.

    outline: (n, 2) float64 simple polygon; triangles: (n - 2, 3) integer indices into
    outline, as returned by triangulate. Returns a list of (k,) int64 index arrays, each a
    convex part in CCW order with its straight corners removed. Diagonals are tried
    longest first; one is removed when both its ends stay non-reflex in the merged part.
    """
    unit = normalise(as_outline_array(outline))
    tris = np.asarray(triangles)
    if tris.ndim != 2 or tris.shape[1] != 3 or tris.dtype.kind not in "iu":
        raise ValueError(f"triangles: expected an (m, 3) integer array, got shape {tris.shape}")
    if len(tris) and (tris.min() < 0 or tris.max() >= len(unit)):
        raise ValueError("triangles: indices must lie in [0, len(outline))")

    pieces = {k: _ccw_triangle(unit, tri) for k, tri in enumerate(tris.tolist())}
    owner = {}  # directed edge (a, b) -> id of the piece that has it
    for k, piece in pieces.items():
        for edge in _edges(piece):
            owner[edge] = k

    for a, b in _diagonals_longest_first(unit, owner):
        first, second = owner[(a, b)], owner[(b, a)]
        merged = _join(pieces[first], pieces[second], a, b)
        if not (_turn_ok(unit, merged, a) and _turn_ok(unit, merged, b)):
            continue
        pieces[first] = merged
        for edge in _edges(pieces.pop(second)):
            owner[edge] = first
        del owner[(a, b)], owner[(b, a)]

    return [np.array(_drop_straight(unit, p), dtype=np.int64) for p in pieces.values()]


def decompose(outline: np.ndarray) -> list[np.ndarray]:
    """Convex parts of a simple polygon.

    outline: (n, 2) float64, a cleaned simple polygon (see clean_outline); CW input is
    accepted. Returns a list of (k, 2) float64 arrays, each strictly convex and CCW with no
    straight corners, whose vertices are outline vertices. The parts cover the outline
    exactly and their interiors are disjoint. A convex outline gives one part.
    """
    pts = as_outline_array(outline)
    if signed_area(normalise(pts)) < 0.0:
        pts = pts[::-1].copy()
    if is_convex(pts):
        return [pts.copy()]
    parts = merge_triangles(pts, triangulate(pts))
    return [pts[part] for part in parts]


def _corner_sine(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Sine of the turn at b on the path a -> b -> c: > 0 left, < 0 right."""
    incoming, outgoing = b - a, c - b
    lengths = np.hypot(*incoming) * np.hypot(*outgoing)
    if lengths == 0.0:
        return 0.0
    return float((incoming[0] * outgoing[1] - incoming[1] * outgoing[0]) / lengths)


def _smallest_angle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Smallest interior angle of triangle abc in radians (0 for a degenerate one)."""
    corners = np.array([a, b, c])
    to_next = corners[[1, 2, 0]] - corners
    to_prev = corners[[2, 0, 1]] - corners
    cross = np.abs(to_next[:, 0] * to_prev[:, 1] - to_next[:, 1] * to_prev[:, 0])
    dot = np.einsum("ij,ij->i", to_next, to_prev)
    return float(np.min(np.arctan2(cross, dot)))


class _EarClipper:
    """Ear clipping state for a CCW polygon given in unit-scaled coordinates.

    Keeps the remaining polygon as a doubly linked ring and caches each vertex's ear score
    (its triangle's smallest angle, or -inf if it is not an ear). Clipping an ear only
    changes the ears at its two neighbours; other ears can only become unblocked, which a
    full rescore catches when no cached ear is left.
    """

    def __init__(self, pts: np.ndarray):
        n = len(pts)
        self.pts = pts
        self.prev = [(i - 1) % n for i in range(n)]
        self.next = [(i + 1) % n for i in range(n)]
        self.alive = np.ones(n, dtype=bool)
        self.score = np.full(n, -np.inf)
        self.grid = _VertexGrid(pts)
        self._rescore_all()

    def run(self) -> np.ndarray:
        """Clip ears until a triangle remains; returns (n - 2, 3) int64 local indices."""
        triangles = []
        for _ in range(len(self.pts) - 3):
            v = self._best_ear()
            triangles.append((self.prev[v], v, self.next[v]))
            self._clip(v)
        v = int(np.flatnonzero(self.alive)[0])
        triangles.append((self.prev[v], v, self.next[v]))
        return np.array(triangles, dtype=np.int64)

    def _best_ear(self) -> int:
        v = int(np.argmax(self.score))
        if np.isfinite(self.score[v]):
            return v
        self._rescore_all()
        v = int(np.argmax(self.score))
        return v if np.isfinite(self.score[v]) else self._fallback()

    def _fallback(self) -> int:
        """Best-conditioned left-turning corner when rounding leaves no clean ear.

        For a simple polygon a clean ear always exists, so this only runs on near-degenerate
        input. It takes the corner whose triangle keeps the other vertices furthest out
        (then the best-shaped one), so that the loop still ends with n - 2 triangles.
        """
        best, best_key = -1, (-np.inf, -np.inf, -np.inf)
        for v in np.flatnonzero(self.alive):
            p, q = self.prev[v], self.next[v]
            a, b, c = self.pts[p], self.pts[v], self.pts[q]
            sine = _corner_sine(a, b, c)
            if sine > 0.0:
                key = (0.0, -self._intrusion(p, int(v), q), _smallest_angle(a, b, c))
            else:
                key = (sine, -np.inf, -np.inf)  # only if no corner turns left at all
            if key > best_key:
                best, best_key = int(v), key
        return best

    def _clip(self, v: int) -> None:
        p, q = self.prev[v], self.next[v]
        self.next[p], self.prev[q] = q, p
        self.alive[v] = False
        self.score[v] = -np.inf
        self.score[p] = self._ear_score(p)
        self.score[q] = self._ear_score(q)

    def _rescore_all(self) -> None:
        for v in np.flatnonzero(self.alive):
            self.score[v] = self._ear_score(int(v))

    def _ear_score(self, v: int) -> float:
        """Smallest angle of the ear at v, or -inf if v is not a strictly convex free ear."""
        p, q = self.prev[v], self.next[v]
        a, b, c = self.pts[p], self.pts[v], self.pts[q]
        # A straight corner (within tolerance) gives a sliver, never an ear.
        if _corner_sine(a, b, c) <= SINE_TOLERANCE:
            return -np.inf
        angle = _smallest_angle(a, b, c)
        return -np.inf if self._blocked(p, v, q, angle) else angle

    def _blocked(self, p: int, v: int, q: int, smallest_angle: float) -> bool:
        """True if another remaining vertex lies in the closed triangle (p, v, q).

        Vertices on the triangle's boundary block it too: clipping the ear would leave a
        polygon that touches itself at that vertex. Only vertices near the triangle are
        tested: one within BLOCK_TOLERANCE of every edge line lies in the triangle grown
        by BLOCK_TOLERANCE / sin(angle / 2) at each corner (twice that, for rounding).
        """
        half_sine = math.sin(0.5 * smallest_angle)
        margin = 2.0 * BLOCK_TOLERANCE / half_sine if half_sine > 0.0 else math.inf
        corners = self.pts[[p, v, q]]
        near = self.grid.near(corners.min(axis=0) - margin, corners.max(axis=0) + margin)
        return self._intrusion(p, v, q, near) >= -BLOCK_TOLERANCE

    def _intrusion(self, p: int, v: int, q: int, near: np.ndarray | None = None) -> float:
        """How deep the deepest other remaining vertex lies inside triangle (p, v, q).

        Depth is the smallest signed distance to the three edge lines (positive inside),
        so a negative result means every other vertex is outside; -inf if none remain.
        near: (M,) int64 the vertices to consider (None: every one).
        """
        if near is None:
            others = self.alive.copy()
            others[[p, v, q]] = False
            r = self.pts[others]
        else:
            near = near[self.alive[near] & (near != p) & (near != v) & (near != q)]
            r = self.pts[np.sort(near)]  # in index order, as when every vertex is tested
        if len(r) == 0:
            return -np.inf
        depth = np.full(len(r), np.inf)
        corners = self.pts[[p, v, q]]
        for start, end in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            edge = end - start
            # Signed distance to the edge's line, positive on the triangle's side.
            cross = edge[0] * (r[:, 1] - start[1]) - edge[1] * (r[:, 0] - start[0])
            depth = np.minimum(depth, cross / np.hypot(*edge))
        return float(np.max(depth))


class _VertexGrid:
    """The vertices of a unit-scaled outline in square cells of about one vertex each, to
    list those near a box without looking at all of them."""

    def __init__(self, pts: np.ndarray):
        self.size = max(1.0 / math.sqrt(len(pts)), 1e-9)
        self.low = pts.min(axis=0)
        cells = np.floor((pts - self.low) / self.size).astype(np.int64)
        self.rows = int(cells[:, 1].max()) + 1
        self.columns = int(cells[:, 0].max()) + 1
        keys = cells[:, 0] * self.rows + cells[:, 1]
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order].tolist()
        self.order = order

    def near(self, low: np.ndarray, high: np.ndarray) -> np.ndarray | None:
        """Indices (M,) of the vertices in the cells that the box low..high (2,) covers, or
        None when the box covers so many cells that testing every vertex is cheaper."""
        first = np.floor((low - self.low) / self.size)
        last = np.floor((high - self.low) / self.size)
        first = np.maximum(first, 0.0)
        last = np.minimum(last, (self.columns - 1, self.rows - 1))
        cells = (last - first + 1.0).prod()
        if not cells <= 0.25 * len(self.keys):  # NaN and inf included
            return None
        x0, y0 = int(first[0]), int(first[1])
        x1, y1 = int(last[0]), int(last[1])
        runs = []
        for x in range(x0, x1 + 1):
            start = bisect.bisect_left(self.keys, x * self.rows + y0)
            stop = bisect.bisect_right(self.keys, x * self.rows + y1)
            if stop > start:
                runs.append(self.order[start:stop])
        return np.concatenate(runs) if runs else np.zeros(0, dtype=np.int64)


def _ccw_triangle(unit: np.ndarray, tri: list[int]) -> list[int]:
    """Triangle vertex indices reordered to run CCW."""
    return tri if signed_area(unit[tri]) >= 0.0 else tri[::-1]


def _edges(piece: list[int]) -> list[tuple[int, int]]:
    """Directed edges (a, b) of a piece given as a cyclic list of vertex indices."""
    return list(zip(piece, piece[1:] + piece[:1], strict=True))


def _diagonals_longest_first(unit: np.ndarray, owner: dict) -> list[tuple[int, int]]:
    """Edges shared by two pieces (each once, as (a, b) with a < b), longest first."""
    shared = [(a, b) for (a, b) in owner if a < b and (b, a) in owner]
    return sorted(shared, key=lambda ab: -float(np.hypot(*(unit[ab[0]] - unit[ab[1]]))))


def _join(first: list[int], second: list[int], a: int, b: int) -> list[int]:
    """Merge a piece with edge a -> b and a piece with edge b -> a across that edge."""
    i, j = first.index(b), second.index(a)
    around_first = first[i:] + first[:i]  # b ... a
    around_second = second[j:] + second[:j]  # a ... b
    return around_first + around_second[1:-1]


def _turn_ok(unit: np.ndarray, piece: list[int], vertex: int) -> bool:
    """True if the piece's corner at vertex is convex or straight (not reflex)."""
    k = piece.index(vertex)
    before, after = piece[k - 1], piece[(k + 1) % len(piece)]
    return _corner_sine(unit[before], unit[vertex], unit[after]) >= -SINE_TOLERANCE


def _drop_straight(unit: np.ndarray, piece: list[int]) -> list[int]:
    """Remove corners that are straight within tolerance until every corner turns left."""
    piece = list(piece)
    changed = True
    while changed and len(piece) > 3:
        changed = False
        for k in range(len(piece)):
            before, at, after = piece[k - 1], piece[k], piece[(k + 1) % len(piece)]
            if _corner_sine(unit[before], unit[at], unit[after]) <= SINE_TOLERANCE:
                del piece[k]
                changed = True
                break
    return piece
