"""Text on screen with pyglet labels, reused from frame to frame.

Creating a label lays out its glyphs, which costs far more than drawing it, so labels are
kept in a pool and only re-laid out when their text actually changes.
"""

from __future__ import annotations

import pyglet

FONT = ("DejaVu Sans", "Helvetica", "Arial")
MONO = ("DejaVu Sans Mono", "Menlo", "Consolas")


class LabelPool:
    """Labels drawn in one batch; call ``begin``, then ``put`` for each text, then ``draw``."""

    def __init__(self) -> None:
        self._batch = pyglet.graphics.Batch()
        self._labels: list[pyglet.text.Label] = []
        self._used = 0

    def begin(self) -> None:
        self._used = 0

    def put(
        self,
        x: float | None,
        y: float | None,
        text: str,
        colour=(230, 234, 242, 255),
        size: int = 11,
        anchor_x: str = "left",
        anchor_y: str = "baseline",
        bold: bool = False,
        mono: bool = False,
    ) -> pyglet.text.Label:
        """Show ``text`` at pixel (x, y) this frame; returns the label (for its size).

        With x None the label is not moved: measure it, then ``place`` it.
        """
        if self._used == len(self._labels):
            self._labels.append(pyglet.text.Label("", batch=self._batch))
        label = self._labels[self._used]
        self._used += 1
        wanted = {
            "text": text,
            "font_name": MONO if mono else FONT,
            "font_size": size,
            "weight": "bold" if bold else "normal",
            "color": tuple(int(c) for c in colour),
            "anchor_x": anchor_x,
            "anchor_y": anchor_y,
        }
        for name, value in wanted.items():
            if getattr(label, name) != value:
                setattr(label, name, value)
        if x is not None:
            place(label, x, y)
        label.visible = True
        return label

    def draw(self) -> None:
        """Draw the labels put since ``begin``; hide the rest of the pool."""
        for label in self._labels[self._used :]:
            label.visible = False
        self._batch.draw()


def measure(label: pyglet.text.Label) -> tuple[int, int]:
    """A label's laid-out width and height in pixels."""
    return label.content_width, label.content_height


def place(label: pyglet.text.Label, x: float, y: float) -> None:
    """Move a label to pixel (x, y), touching it only if it actually moves."""
    x, y = round(x), round(y)
    if (label.x, label.y) != (x, y):
        label.position = (x, y, 0)
