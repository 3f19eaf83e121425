"""What a scene is: a World plus the optional hooks that make it interactive.

A scene module has one function that builds a fresh ``Scene`` (it is called again on
reset) and registers it with ``demos.scene`` (``demos.app.registry.scene``). Everything but
the world is optional: a world alone is a working scene, with the common controls and the
debug draw.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine import World


@dataclass
class Input:
    """What the user is doing, as a scene's per-frame hook sees it.

    keys: names of the keys held down ("LEFT", "A", ...); pointer: (2,) world position of
    the mouse; seconds: real time since the last frame (1/60 when recording, 0 while
    paused).
    """

    keys: frozenset = frozenset()
    pointer: np.ndarray = field(default_factory=lambda: np.zeros(2))
    seconds: float = 0.0


@dataclass
class Scene:
    """A world and its extras.

    view: (xmin, ymin, xmax, ymax) world rectangle the camera frames at start (default:
        every body's bounding box).
    before_step(world): called before every fixed step (forces, damping, spawning).
    on_frame(input): called once per drawn frame (held keys, animation).
    on_key(name) -> bool: a key was pressed ("B", "LEFT", ...); True if handled.
    on_press(point, button) / on_drag(point) / on_release(): pointer in world units; a
        press handler returning True takes the mouse from the common body dragging.
    backdrop(canvas): world-space drawing under the bodies (a table's cloth).
    draw(canvas, poses): extra world-space drawing on top of the bodies; ``poses`` are the
        interpolated (N, 3) poses the bodies were drawn at.
    status() -> lines: extra HUD lines (the scene's own figures and explanations).
    keys: (key, what it does) pairs for the help panel.
    colours: body -> RGBA overrides for the debug draw (e.g. billiard balls).
    overlays: Overlays fields to switch on at start, e.g. {"broadphase": True}.
    script: (frame, key) pairs pressed automatically when recording, so that a recording
        shows the scene's action (the ball fired, the break shot).
    """

    world: World
    view: Sequence[float] | None = None
    before_step: Callable[[World], None] | None = None
    on_frame: Callable[[Input], None] | None = None
    on_key: Callable[[str], bool] | None = None
    on_press: Callable[[np.ndarray, str], bool] | None = None
    on_drag: Callable[[np.ndarray], None] | None = None
    on_release: Callable[[], None] | None = None
    backdrop: Callable[..., None] | None = None
    draw: Callable[..., None] | None = None
    status: Callable[[], list[str]] | None = None
    keys: Sequence[tuple[str, str]] = ()
    colours: dict = field(default_factory=dict)
    overlays: dict = field(default_factory=dict)
    script: Sequence[tuple[int, str]] = ()


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """'1 ball', '0 balls', '3 bodies' (with ``plural`` given): a count and its noun."""
    if number == 1:
        return f"{number} {noun}"
    return f"{number} {plural if plural is not None else noun + 's'}"
