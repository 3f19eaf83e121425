"""The heads-up display: scene name, frame rate, step time, counts, scene notes and keys.

Panels are translucent rectangles on the screen canvas with labels on top, laid out from
the window's corners so they stay put when the window is resized or the camera moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..app.scene import counted
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
        f"{counted(stats.bodies, 'body', 'bodies')}   {counted(stats.contacts, 'contact')}"
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
        self._text_panel(canvas, labels, PAD, height - PAD, lines)
        entries = list(COMMON_KEYS) + list(keys) if self.show_help else [("H", "help")]
        self._keys_panel(canvas, labels, width - PAD, height - PAD, entries)

    def _keys_panel(self, canvas, labels, right, top, entries) -> None:
        """(key, what it does) pairs in columns: keys right-aligned in the accent colour,
        descriptions after them; the panel's top-right corner is (right, top)."""
        columns = 3 if len(entries) > 12 else (2 if len(entries) > 4 else 1)
        rows = -(-len(entries) // columns)
        placed = []
        x = 0
        for first in range(0, len(entries), rows):
            chunk = entries[first : first + rows]
            names = [labels.put(None, None, k, palette.ACCENT, 9, mono=True) for k, _ in chunk]
            whats = [labels.put(None, None, w, palette.TEXT, 9) for _, w in chunk]
            key_width = max(measure(label)[0] for label in names)
            what_width = max(measure(label)[0] for label in whats)
            for row, (name, what) in enumerate(zip(names, whats)):
                baseline = top - PAD // 2 - (row + 1) * SMALL_LINE + 5
                placed.append((name, x + key_width - measure(name)[0], baseline))
                placed.append((what, x + key_width + 6, baseline))
            x += key_width + 6 + what_width + 2 * PAD
        left = right - x
        for label, offset, baseline in placed:
            place(label, left + PAD + offset, baseline)
        bottom = top - PAD - rows * SMALL_LINE
        canvas.rectangles((left, bottom), (right, top), palette.PANEL)

    def _text_panel(self, canvas, labels, left, top, lines) -> None:
        """Lines (text, colour, size, bold, mono) in a translucent panel whose top-left
        corner is (left, top)."""
        placed = []
        widest = 0
        cursor = top - PAD // 2
        for text, colour, size, bold, mono in lines:
            cursor -= max(LINE, int(size * 1.6))
            label = labels.put(None, None, text, colour, size, bold=bold, mono=mono)
            placed.append((label, cursor + 5))
            widest = max(widest, measure(label)[0])
        for label, baseline in placed:
            place(label, left + PAD, baseline)
        bottom = cursor - PAD // 2
        canvas.rectangles((left, bottom), (left + widest + 2 * PAD, top), palette.PANEL)
