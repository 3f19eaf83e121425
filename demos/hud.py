"""The heads-up display: scene name, frame rate, step time, counts, scene notes and keys.

Panels are translucent rectangles on the screen canvas with labels on top, laid out from
the window's corners so they stay put when the window is resized or the camera moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import palette
from .canvas import Canvas
from .labels import LabelPool, measure, place

PAD = 8
LINE = 18
SMALL_LINE = 15

COMMON_KEYS = (
    ("space", "pause"),
    ("S", "one step"),
    ("R", "reset"),
    ("LMB", "drag a body"),
    ("RMB", "pan"),
    ("wheel", "zoom"),
    ("F", "refit view"),
    ("H", "hide help"),
)


@dataclass
class Stats:
    """The figures of the stats line."""

    fps: float = 0.0
    step_ms: float = 0.0
    bodies: int = 0
    contacts: int = 0
    paused: bool = False


def stats_line(stats: Stats) -> str:
    """'60 fps   step 6.4 ms   211 bodies   380 contacts' (+ '   PAUSED')."""
    line = (
        f"{stats.fps:4.0f} fps   step {stats.step_ms:5.1f} ms   "
        f"{stats.bodies} bodies   {stats.contacts} contacts"
    )
    return line + ("   PAUSED" if stats.paused else "")


class Hud:
    """Lays out the panels each frame onto a screen-space canvas and a label pool.

    Both panels sit in a band along the top of the window (the camera frames scenes below
    it): figures and notes on the left, the keys in columns on the right.
    """

    def __init__(self, title: str, summary: str) -> None:
        self.title = title
        self.summary = summary
        self.show_help = True

    def layout(
        self,
        canvas: Canvas,
        labels: LabelPool,
        size: tuple[int, int],
        stats: Stats,
        notes: list[str],
        keys: list[tuple[str, str]],
    ) -> None:
        """Put this frame's panels and labels; canvas units are pixels (origin bottom-left)."""
        width, height = size
        lines = [
            (self.title, palette.ACCENT, 13, True, False),
            (self.summary, palette.TEXT_DIM, 10, False, False),
            (stats_line(stats), palette.TEXT, 10, False, True),
        ]
        lines += [(note, palette.TEXT, 10, False, False) for note in notes]
        self._column_panel(canvas, labels, PAD, height - PAD, [lines], right=False)
        if self.show_help:
            entries = [
                (f"{name:>5} {what}", palette.TEXT, 9, False, True)
                for name, what in list(COMMON_KEYS) + list(keys)
            ]
            columns = 3 if len(entries) > 12 else 2
            rows = -(-len(entries) // columns)
            grouped = [entries[i : i + rows] for i in range(0, len(entries), rows)]
        else:
            grouped = [[("    H help", palette.TEXT_DIM, 9, False, True)]]
        self._column_panel(canvas, labels, width - PAD, height - PAD, grouped, right=True)

    def _column_panel(self, canvas, labels, x, top, columns, right: bool) -> None:
        """Columns of lines (text, colour, size, bold, mono) in one translucent panel.

        (x, top) is the panel's top-left corner, or its top-right when ``right``: the
        right-hand panel is laid out first and then shifted by its measured width.
        """
        placed = []
        width = 0
        bottom = top
        for lines in columns:
            widest = 0
            cursor = top - PAD // 2
            for text, colour, size, bold, mono in lines:
                cursor -= max(SMALL_LINE if size < 10 else LINE, int(size * 1.6))
                label = labels.put(None, None, text, colour, size, bold=bold, mono=mono)
                placed.append((label, width, cursor + 5))
                widest = max(widest, measure(label)[0])
            width += widest + 2 * PAD
            bottom = min(bottom, cursor - PAD // 2)
        left = x - width if right else x
        for label, column_x, baseline in placed:
            place(label, left + column_x + PAD, baseline)
        canvas.rectangles((left, bottom), (left + width, top), palette.PANEL)
