"""Demo scenes of the engine, drawn with pyglet: ``python -m demos`` lists them.

Layout: ``registry`` and ``scene`` define what a scene is; ``scenes/`` holds one module per
scene; ``app`` runs one (camera, stepping, controls, HUD); ``debug_draw``, ``canvas``,
``tessellate`` and ``gpu`` draw it; ``runner`` and ``cli`` open the window or record.
"""

from . import headless

# Before anything loads pyglet's window module: offscreen when there is no display.
headless.configure_default()
