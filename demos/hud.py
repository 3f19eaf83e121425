"""The heads-up display: scene name, frame rate, step time, counts, scene notes and keys.

Panels are translucent rectangles on the screen canvas with labels on top, laid out from
the window's corners so they stay put when the window is resized or the camera moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import palette
from .canvas import Canvas
from .labels import LabelPool, measure

PAD = 8
LINE = 18

COMMON_KEYS = (
    ("space", "pause / run"),
    ("S", "one step"),
    ("R", "reset"),
    ("drag", "pull a body"),
    ("right-drag", "pan"),
    ("wheel", "zoom"),
    ("H", "hide this help"),
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
    """Lays out the panels each frame onto a screen-space canvas and a label pool."""

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
        # Top-left: who and how fast, then the scene's own notes.
        lines = [
            (self.title, palette.ACCENT, 13, True, False),
            (self.summary, palette.TEXT_DIM, 10, False, False),
            (stats_line(stats), palette.TEXT, 10, False, True),
        ]
        lines += [(note, palette.TEXT, 10, False, False) for note in notes]
        self._panel(canvas, labels, PAD, height - PAD, lines, from_top=True)
        # Bottom-left: the keys, or a reminder of how to get them back.
        if self.show_help:
            help_lines = [("keys", palette.ACCENT, 10, True, False)]
            for key, what in list(COMMON_KEYS) + list(keys):
                help_lines.append((f"{key:>10}  {what}", palette.TEXT, 9, False, True))
        else:
            help_lines = [("H  help", palette.TEXT_DIM, 9, False, True)]
        self._panel(canvas, labels, PAD, PAD, help_lines, from_top=False)

    def _panel(self, canvas, labels, x, y, lines, from_top: bool) -> None:
        """Stack ``lines`` (text, colour, size, bold, mono) in a panel whose outer corner
        is (x, y): its top-left corner when ``from_top``, else its bottom-left."""
        heights = [max(LINE, int(size * 1.6)) for _, _, size, _, _ in lines]
        total = sum(heights) + PAD
        top = y if from_top else y + total
        widest = 0
        cursor = top - PAD // 2
        for (text, colour, size, bold, mono), line_height in zip(lines, heights):
            cursor -= line_height
            label = labels.put(
                x + PAD, cursor + 5, text, colour, size, bold=bold, mono=mono
            )
            widest = max(widest, measure(label)[0])
        canvas.rectangles((x, top - total), (x + widest + 2 * PAD, top), palette.PANEL)
