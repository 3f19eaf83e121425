"""Demo scenes of the engine, drawn with pyglet: ``python -m demos`` lists them.

Layout, by what things are:

- ``app/``: running a scene: the registry and what a Scene is, the command line, the window
  and its controls, fixed stepping and interpolation, mouse dragging, offscreen rendering,
  recording and the docs' screenshots.
- ``draw/``: drawing it: tessellation, the canvas and its GPU buffer, the debug draw of a
  World, joints, contact points, the HUD, labels, the camera and the palette.
- ``scenes/``: one module per scene, with any helper that only that scene uses beside it.
- ``world_data``: every read of a World's private arrays, shared by all three.

A scene file needs only ``from demos import Scene, scene``.
"""

from .app import headless

# Before anything loads pyglet's window module: offscreen when there is no display.
headless.configure_default()

from .app.registry import scene  # noqa: E402  (after the headless choice above)
from .app.scene import Input, Scene  # noqa: E402

__all__ = ["Input", "Scene", "scene"]
