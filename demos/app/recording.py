"""Frames -> an animated GIF and a PNG screenshot, with Pillow.

A GIF stores delays in hundredths of a second and most viewers round delays under 0.02 s
up to 0.1 s, so 60 fps cannot be stored faithfully; every second frame is kept and the
delays alternate between 30 and 40 ms so the animation still plays at the real speed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image


class Recorder:
    """Collects RGB frames (H, W, 3) uint8 and writes them out.

    gif: path of the animation or None; every: keep one frame in ``every``; fps: the rate
    frames are offered at (simulated seconds per frame = 1 / fps).
    """

    def __init__(self, gif: str | Path | None, every: int = 2, fps: float = 60.0):
        self.gif = Path(gif) if gif else None
        self.every = max(int(every), 1)
        self.fps = float(fps)
        self.frames: list[Image.Image] = []
        self._offered = 0

    def offer(self, pixels: np.ndarray) -> None:
        """Keep this frame if it falls on the ``every`` rhythm."""
        if self.gif is not None and self._offered % self.every == 0:
            # An adaptive palette per frame, without dithering: flat debug-draw colours
            # stay flat, and the file stays small.
            image = Image.fromarray(pixels, "RGB")
            self.frames.append(image.quantize(colors=255, method=Image.Quantize.MEDIANCUT))
        self._offered += 1

    @property
    def wants_frame(self) -> bool:
        """True if the next frame offered would be kept (saves reading the pixels)."""
        return self.gif is not None and self._offered % self.every == 0

    def skip(self) -> None:
        """Count a frame that was not read because it would not be kept."""
        self._offered += 1

    def durations(self) -> list[int]:
        """Delay of each kept frame in ms, multiples of 10 that add up to real time."""
        period = 1000.0 * self.every / self.fps
        ends = np.rint(np.arange(1, len(self.frames) + 1) * period / 10.0) * 10.0
        return np.diff(np.concatenate([[0.0], ends])).astype(int).tolist()

    def save(self) -> Path | None:
        """Write the GIF (looping forever); returns its path, or None if nothing to write."""
        if self.gif is None or not self.frames:
            return None
        self.gif.parent.mkdir(parents=True, exist_ok=True)
        first, *rest = self.frames
        first.save(
            self.gif,
            save_all=True,
            append_images=rest,
            duration=self.durations(),
            loop=0,
            optimize=False,
            disposal=1,
        )
        return self.gif


def save_png(pixels: np.ndarray, path: str | Path) -> Path:
    """Write one RGB frame (H, W, 3) as a PNG; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels, "RGB").save(path)
    return path
