"""The 2D camera: which part of the world the window shows (pure arithmetic, no OpenGL)."""

from __future__ import annotations

import numpy as np


class Camera:
    """Maps world metres to window pixels: a centre, a zoom (pixels per metre), a size.

    Screen coordinates are pyglet's: pixels from the bottom-left corner, y up.

    >>> camera = Camera(800, 600)
    >>> camera.fit((-10, -5), (10, 5), margin=0.0)
    >>> camera.zoom, camera.to_screen((10, 0)).tolist()
    (40.0, [800.0, 300.0])
    """

    MIN_ZOOM, MAX_ZOOM = 0.5, 4000.0

    def __init__(self, width: int, height: int):
        self.width = int(width)
        self.height = int(height)
        self.centre = np.zeros(2)
        self.zoom = 20.0

    def resize(self, width: int, height: int) -> None:
        """The window changed size; the centre and zoom stay."""
        self.width, self.height = int(width), int(height)

    def fit(self, lower, upper, margin: float = 0.04, top: float = 0.0) -> None:
        """Frame the world rectangle [lower, upper] with ``margin`` (a fraction) around it,
        below a band of ``top`` pixels left for the HUD."""
        lower, upper = np.asarray(lower, float), np.asarray(upper, float)
        size = np.maximum(upper - lower, 1e-6)
        usable = np.array([self.width, max(self.height - top, 1.0)]) * (1.0 - 2.0 * margin)
        self.zoom = float(np.clip(min(usable / size), self.MIN_ZOOM, self.MAX_ZOOM))
        # The rectangle's centre goes to the middle of the area below the band.
        self.centre = 0.5 * (lower + upper) + np.array([0.0, 0.5 * top / self.zoom])

    @property
    def pixel(self) -> float:
        """The size of one screen pixel in metres (for widths given in pixels)."""
        return 1.0 / self.zoom

    def to_screen(self, points) -> np.ndarray:
        """World points (..., 2) -> pixel coordinates (..., 2)."""
        half = 0.5 * np.array([self.width, self.height])
        return (np.asarray(points, float) - self.centre) * self.zoom + half

    def to_world(self, points) -> np.ndarray:
        """Pixel coordinates (..., 2) -> world points (..., 2)."""
        half = 0.5 * np.array([self.width, self.height])
        return (np.asarray(points, float) - half) / self.zoom + self.centre

    def zoom_at(self, screen_point, factor: float) -> None:
        """Zoom by ``factor`` keeping the world point under ``screen_point`` where it is."""
        anchor = self.to_world(screen_point)
        self.zoom = float(np.clip(self.zoom * factor, self.MIN_ZOOM, self.MAX_ZOOM))
        # Re-centre so that the anchor maps back to the same pixel.
        self.centre = self.centre + anchor - self.to_world(screen_point)

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by a drag of (dx, dy) pixels: the world follows the pointer."""
        self.centre = self.centre - np.array([dx, dy]) / self.zoom

    def visible(self) -> tuple[np.ndarray, np.ndarray]:
        """The world rectangle on screen: (lower (2,), upper (2,))."""
        return self.to_world((0.0, 0.0)), self.to_world((self.width, self.height))

    def clip_transform(self) -> tuple[np.ndarray, np.ndarray]:
        """(scale, offset) with clip = world * scale + offset, for the shader."""
        scale = 2.0 * self.zoom / np.array([self.width, self.height])
        return scale, -self.centre * scale
