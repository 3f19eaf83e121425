"""A Canvas collects one frame's triangles, in world or screen units, then draws them at once.

Drawing calls only append numpy arrays; ``flush`` concatenates them into one vertex array,
uploads it and issues a single draw call. Later calls draw on top of earlier ones. Widths
and sizes named ``*_px`` are in screen pixels whatever the canvas's units, so lines stay
crisp at every zoom.
"""

from __future__ import annotations

import numpy as np

from . import tessellate
from .gpu import VERTEX, TriangleBuffer


class Canvas:
    """Accumulates coloured triangles; ``pixel`` is the size of a screen pixel in its units.

    Colours are RGBA bytes: one (4,) colour for the whole call or one (n, 4) per item.
    """

    def __init__(self) -> None:
        self.pixel = 1.0
        self._xy: list[np.ndarray] = []
        self._rgba: list[np.ndarray] = []
        self._buffer: TriangleBuffer | None = None
        self.texts: list[tuple] = []

    # -- primitives -----------------------------------------------------------------------
    def triangles(self, xy: np.ndarray, colour, per: int = 3) -> None:
        """Append triangles. xy: (M, 2), M a multiple of 3; ``colour`` is one (4,) colour
        or one per group of ``per`` consecutive vertices (e.g. per shape)."""
        if len(xy) == 0:
            return
        colour = np.asarray(colour, dtype=np.uint8)
        if colour.ndim == 1:
            rgba = np.broadcast_to(colour, (len(xy), 4))
        else:
            rgba = np.repeat(colour, per, axis=0)
        self._xy.append(np.asarray(xy, dtype=np.float32))
        self._rgba.append(rgba)

    def polygons(self, vertices: np.ndarray, colour) -> None:
        """Filled convex polygons (P, K, 2), padded as in ``engine.packing``."""
        vertices = np.asarray(vertices)
        if len(vertices) == 0 or vertices.shape[1] < 3:
            return
        self.triangles(tessellate.fan(vertices), colour, per=(vertices.shape[1] - 2) * 3)

    def outlines(self, vertices: np.ndarray, colour, width_px: float = 1.5) -> None:
        """The closed outlines of padded polygons (P, K, 2)."""
        vertices = np.asarray(vertices)
        if len(vertices) == 0:
            return
        start, end = tessellate.closed_edges(vertices)
        self.triangles(
            tessellate.segments(start, end, width_px * self.pixel),
            colour,
            per=vertices.shape[1] * 6,
        )

    def frames(self, outer: np.ndarray, inner: np.ndarray, colour) -> None:
        """The bands between padded polygons (P, K, 2) and their insets: outlines with
        mitred corners that never overlap themselves (for translucent outlines)."""
        outer = np.asarray(outer)
        if len(outer) == 0:
            return
        self.triangles(tessellate.frames(outer, inner), colour, per=outer.shape[1] * 6)

    def lines(self, start, end, colour, width_px: float = 1.5) -> None:
        """Line segments from ``start`` (S, 2) to ``end`` (S, 2)."""
        start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
        self.triangles(tessellate.segments(start, end, width_px * self.pixel), colour, per=6)

    def polyline(self, points, colour, width_px: float = 1.5, closed: bool = False) -> None:
        """One connected line through ``points`` (n, 2)."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if len(points) < 2:
            return
        end = np.roll(points, -1, axis=0)
        if not closed:
            points, end = points[:-1], end[:-1]
        self.lines(points, end, colour, width_px)

    def dashed(self, start, end, colour, width_px: float = 1.5, dash_px: float = 8.0) -> None:
        """Dashed segments: dashes and gaps of ``dash_px`` pixels."""
        start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
        end = np.asarray(end, dtype=np.float64).reshape(-1, 2)
        pieces_a, pieces_b = [], []
        for a, b in zip(start, end):
            length = float(np.hypot(*(b - a)))
            count = max(int(length / (2.0 * dash_px * self.pixel)), 1)
            t = np.arange(count) / count
            step = (b - a) / count
            pieces_a.append(a + np.outer(t, b - a))
            pieces_b.append(a + np.outer(t, b - a) + 0.5 * step)
        if pieces_a:
            self.lines(np.concatenate(pieces_a), np.concatenate(pieces_b), colour, width_px)

    def discs(self, centres, radii, colour, segments: int = 24) -> None:
        """Filled circles."""
        centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        self.triangles(tessellate.discs(centres, radii, segments), colour, per=segments * 3)

    def rings(self, centres, radii, colour, width_px: float = 1.5, segments: int = 24) -> None:
        """Circle outlines, drawn just inside the radius."""
        centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        self.triangles(
            tessellate.rings(centres, radii, width_px * self.pixel, segments),
            colour,
            per=segments * 6,
        )

    def dots(self, centres, colour, radius_px: float = 3.0) -> None:
        """Round markers of a fixed on-screen size."""
        self.discs(centres, radius_px * self.pixel, colour, segments=12)

    def arrows(self, start, end, colour, width_px: float = 2.0, head_px: float = 9.0) -> None:
        """Arrows from ``start`` to ``end``, (S, 2) each."""
        start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
        self.triangles(
            tessellate.arrows(start, end, width_px * self.pixel, head_px * self.pixel),
            colour,
            per=9,
        )

    def rectangles(self, lower, upper, colour) -> None:
        """Filled axis-aligned rectangles."""
        lower = np.asarray(lower, dtype=np.float64).reshape(-1, 2)
        self.triangles(tessellate.rectangles(lower, upper), colour, per=6)

    def boxes(self, lower, upper, colour, width_px: float = 1.0) -> None:
        """Outlines of axis-aligned boxes."""
        start, end = tessellate.box_edges(lower, upper)
        self.triangles(tessellate.segments(start, end, width_px * self.pixel), colour, per=24)

    def text(
        self, point, string: str, colour=(230, 234, 242, 255), size: int = 11, anchor: str = "left"
    ) -> None:
        """A label at ``point`` (canvas units); anchor "left", "center" or "right".

        Text is drawn by the window after the triangles (see ``demos.draw.labels``).
        """
        self.texts.append((np.asarray(point, dtype=np.float64), str(string), colour, size, anchor))

    # -- output ---------------------------------------------------------------------------
    @property
    def vertex_count(self) -> int:
        """Vertices collected since the last flush."""
        return sum(len(xy) for xy in self._xy)

    def vertices(self) -> np.ndarray:
        """Everything collected so far as one VERTEX array (what ``flush`` uploads)."""
        out = np.empty(self.vertex_count, dtype=VERTEX)
        if len(out):
            out["xy"] = np.concatenate(self._xy)
            out["rgba"] = np.concatenate(self._rgba)
        return out

    def flush(self, scale, offset) -> None:
        """Upload and draw the triangles, with clip = xy * scale + offset, and forget them.

        Texts stay in ``texts`` for the label layer until ``clear``.
        """
        if self._buffer is None:
            self._buffer = TriangleBuffer()
        self._buffer.upload(self.vertices())
        self._buffer.draw(scale, offset)
        self._xy.clear()
        self._rgba.clear()

    def clear(self) -> None:
        """Forget what was collected without drawing it."""
        self._xy.clear()
        self._rgba.clear()
        self.texts.clear()
