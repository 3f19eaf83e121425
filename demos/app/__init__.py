"""Running a scene: registry, Scene, command line, window, stepping, dragging, recording.

Nothing here imports pyglet at package import, so that ``demos.app.headless`` can choose
between a window and offscreen rendering before pyglet's window module loads.
"""
