"""One running scene: its world, the camera, the renderer, the HUD and the common controls.

DemoApp is independent of how frames are paced: the window loop calls ``frame`` with the
real time elapsed and then ``render``; the recorder calls them with exactly 1/60 s.
Its ``on_*`` methods are pyglet window event handlers (``window.push_handlers(app)``).
"""

from __future__ import annotations

import time

import numpy as np
from pyglet import gl
from pyglet.window import key, mouse

from engine import World

from .. import world_data
from ..draw import palette
from ..draw.camera import Camera
from ..draw.canvas import Canvas
from ..draw.contact_points import contact_count, part_boxes
from ..draw.debug_draw import OVERLAY_KEYS, Overlays, WorldPainter
from ..draw.hud import Hud, Stats
from ..draw.labels import LabelPool
from .mouse_drag import MouseDrag
from .registry import Entry
from .scene import Input, Scene
from .stepper import Stepper

ZOOM_PER_CLICK = 1.15
# Pixels along the top of the window kept for the HUD when framing a scene.
HUD_BAND = 100


def key_name(symbol: int) -> str:
    """pyglet key symbol -> the name scenes use: "A", "SPACE", "LEFT", "1"."""
    name = key.symbol_string(symbol)
    if name.startswith("NUM_") and name[4:].isdigit():
        return name[4:]
    return name.lstrip("_")


class DemoApp:
    """Runs the scene ``entry`` in ``window`` (a pyglet window, visible or headless)."""

    def __init__(self, entry: Entry, window) -> None:
        self.entry = entry
        self.window = window
        self.camera = Camera(window.width, window.height)
        self.world_canvas = Canvas()
        self.screen_canvas = Canvas()
        self.world_labels = LabelPool()
        self.hud_labels = LabelPool()
        self.painter = WorldPainter()
        self.overlays = Overlays()
        self.hud = Hud(entry.name, entry.summary)
        self.drag = MouseDrag()
        self.keys_down: set[str] = set()
        self.pointer_px = np.array([window.width / 2, window.height / 2])
        self.fps = 0.0
        self.frames = 0
        self._contacts = 0
        self._scene_has_mouse = False
        self._last_draw: float | None = None
        self.reset()

    # -- scene life -----------------------------------------------------------------------
    def reset(self) -> None:
        """Build the scene afresh (R): new world, scene defaults, camera framing."""
        built = self.entry.build()
        self.scene: Scene = built if isinstance(built, Scene) else Scene(world=built)
        hooks = [self.drag.before_step]
        if self.scene.before_step is not None:
            hooks.append(self.scene.before_step)
        self.drag.release()
        self.stepper = Stepper(self.scene.world, hooks)
        self.painter = WorldPainter()
        # The scene's own dict, so colours it adds later (a fired ball) show too.
        self.painter.colours = self.scene.colours
        # The scene owns the overlay fields it names; the user's other toggles survive.
        self._synced_overlays: dict = {}
        self._sync_overlays()
        self.frame_view()

    def _sync_overlays(self) -> None:
        """Apply the scene's overlay settings that changed since they were last applied."""
        for name, value in self.scene.overlays.items():
            if self._synced_overlays.get(name, not value) != value:
                setattr(self.overlays, name, value)
                self._synced_overlays[name] = value

    @property
    def world(self) -> World:
        return self.scene.world

    def frame_view(self) -> None:
        """Point the camera at the scene's view rectangle (or at all its bodies)."""
        if self.scene.view is not None:
            x0, y0, x1, y1 = self.scene.view
            self.camera.fit((x0, y0), (x1, y1), top=HUD_BAND)
            return
        world = self.world
        if not world.bodies:
            self.camera.fit((-10, -10), (10, 10), top=HUD_BAND)
            return
        lower, upper = part_boxes(world)
        self.camera.fit(lower.min(axis=0), upper.max(axis=0), top=HUD_BAND)

    # -- time -----------------------------------------------------------------------------
    def frame(self, seconds: float) -> None:
        """Let ``seconds`` of real time pass: scene input hook, then fixed steps."""
        pointer = self.camera.to_world(self.pointer_px)
        if self.scene.on_frame is not None:
            # A paused scene's own animation stops too: its frame hook sees no time pass.
            elapsed = 0.0 if self.stepper.paused else seconds
            self.scene.on_frame(Input(frozenset(self.keys_down), pointer, elapsed))
        self.stepper.advance(seconds)
        self.frames += 1

    def measure_fps(self, seconds: float) -> None:
        """Smooth the frame rate shown in the HUD from this frame's wall time."""
        if seconds > 0.0:
            rate = 1.0 / seconds
            self.fps = rate if self.fps == 0.0 else 0.92 * self.fps + 0.08 * rate

    # -- drawing --------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the world, the scene's extras, then the HUD."""
        gl.glClearColor(*(c / 255.0 for c in palette.BACKGROUND))
        self.window.clear()
        width, height = self.window.width, self.window.height
        gl.glViewport(0, 0, *self.window.get_framebuffer_size())

        canvas = self.world_canvas
        canvas.pixel = self.camera.pixel
        poses = self.stepper.poses()
        if self.scene.backdrop is not None:
            self.scene.backdrop(canvas)
        self.painter.paint(canvas, self.world, poses, self.overlays)
        if self.scene.draw is not None:
            self.scene.draw(canvas, poses)
        self.drag.draw(canvas)
        canvas.flush(*self.camera.clip_transform())
        self.world_labels.begin()
        for point, text, colour, size, anchor in canvas.texts:
            x, y = self.camera.to_screen(point)
            self.world_labels.put(x, y, text, colour, size, anchor_x=anchor, anchor_y="center")
        canvas.clear()
        self.world_labels.draw()

        screen = self.screen_canvas
        screen.pixel = 1.0
        self.hud_labels.begin()
        notes = self.scene.status() if self.scene.status is not None else []
        keys = list(self.scene.keys) + [(label, what) for label, (_, what) in OVERLAY_KEYS.items()]
        self.hud.layout(screen, self.hud_labels, (width, height), self.stats(), notes, keys)
        screen.flush(2.0 / np.array([width, height]), (-1.0, -1.0))
        screen.clear()
        self.hud_labels.draw()

    def stats(self) -> Stats:
        """The HUD's figures; the contact count is refreshed every few frames."""
        self._contacts = contact_count(self.world)
        return Stats(
            fps=self.fps,
            step_ms=self.stepper.step_ms,
            bodies=len(world_data.body_ids(self.world)),
            contacts=self._contacts,
            paused=self.stepper.paused,
        )

    # -- keys -----------------------------------------------------------------------------
    def handle_key(self, name: str) -> None:
        """A key press by name: the scene gets it first, then the common controls."""
        if self.scene.on_key is not None and self.scene.on_key(name):
            self._sync_overlays()
            return
        if name == "SPACE":
            self.stepper.paused = not self.stepper.paused
        elif name == "S":
            self.stepper.step_once()
        elif name == "R":
            self.reset()
        elif name == "H":
            self.hud.show_help = not self.hud.show_help
        elif name == "F":
            self.frame_view()
        elif name in OVERLAY_KEYS:
            field = OVERLAY_KEYS[name][0]
            setattr(self.overlays, field, not getattr(self.overlays, field))

    def on_key_press(self, symbol, modifiers):
        if symbol == key.ESCAPE:
            return None  # pyglet's default: close the window
        name = key_name(symbol)
        self.keys_down.add(name)
        self.handle_key(name)
        return True

    def on_key_release(self, symbol, modifiers):
        self.keys_down.discard(key_name(symbol))

    # -- mouse ----------------------------------------------------------------------------
    def _world_point(self, x, y) -> np.ndarray:
        self.pointer_px = np.array([x, y], dtype=np.float64)
        return self.camera.to_world(self.pointer_px)

    def on_mouse_motion(self, x, y, dx, dy):
        self._world_point(x, y)

    def on_mouse_press(self, x, y, button, modifiers):
        point = self._world_point(x, y)
        if button != mouse.LEFT:
            return
        name = "LEFT"
        if self.scene.on_press is not None and self.scene.on_press(point, name):
            self._scene_has_mouse = True
            return
        self.drag.grab(self.world, point)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        point = self._world_point(x, y)
        if buttons & mouse.RIGHT or buttons & mouse.MIDDLE:
            self.camera.pan(dx, dy)
            return
        if self._scene_has_mouse and self.scene.on_drag is not None:
            self.scene.on_drag(point)
        else:
            self.drag.move(point)

    def on_mouse_release(self, x, y, button, modifiers):
        if button != mouse.LEFT:
            return
        if self._scene_has_mouse:
            self._scene_has_mouse = False
            if self.scene.on_release is not None:
                self.scene.on_release()
        self.drag.release()

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self.camera.zoom_at((x, y), ZOOM_PER_CLICK**scroll_y)

    def on_resize(self, width, height):
        self.camera.resize(width, height)
        self.frame_view()

    def on_draw(self):
        now = time.perf_counter()
        seconds = 0.0 if self._last_draw is None else now - self._last_draw
        self._last_draw = now
        self.measure_fps(seconds)
        self.frame(seconds)
        self.render()
