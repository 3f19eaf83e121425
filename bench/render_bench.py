"""Headless rendering speed of the demos' debug draw: frames per second at 500 and 2,000 bodies.

Each frame is what the demo window draws (bodies from the world's arrays, the HUD) at
960x600, rendered offscreen through EGL and finished (``glFinish``), without stepping the
world, so the figure is the renderer's own. Without a GPU, Mesa rasterises in software
(llvmpipe), where 4x multisampling costs several times more than all the rest; both
settings are reported. Then the `rain` and `broadphase` demos run as their windows run
them, stepping and drawing each frame. Run ``python -m bench.render_bench`` to print the
table; the machine needs Mesa's EGL (``make system-deps``).
"""

from __future__ import annotations

import time

import numpy as np

SIZES = (500, 2_000)
FRAMES = 60
WINDOW = (960, 600)


def crowd(count: int, seed: int = 0):
    """A world of ``count`` boxes, circles and triangles on a jittered lattice, moving."""
    from engine import Box, Circle, Polygon, World

    rng = np.random.default_rng(seed)
    world = World(gravity=(0.0, 0.0))
    shapes = [Box(0.6, 0.6), Circle(0.3), Polygon([(-0.35, -0.3), (0.4, -0.25), (0.0, 0.4)])]
    side = int(np.ceil(np.sqrt(count * 16 / 9)))
    for i in range(count):
        world.add_body(
            shapes[i % 3],
            position=(i % side + rng.uniform(-0.1, 0.1), i // side + rng.uniform(-0.1, 0.1)),
            angle=rng.uniform(0.0, 2.0 * np.pi),
            velocity=rng.normal(0.0, 1.0, 2),
        )
    return world


def frames_per_second(app, frames: int = FRAMES) -> float:
    """Rendered frames per second of ``app`` (a DemoApp), after two warm-up frames."""
    from pyglet import gl

    for _ in range(2):
        app.render()
    gl.glFinish()
    start = time.perf_counter()
    for _ in range(frames):
        app.render()
        app.window.flip()
    gl.glFinish()
    return frames / (time.perf_counter() - start)


def scene_frames_per_second(app, seconds: float = 1 / 60, settle: int = 0) -> float:
    """Frames per second of a scene run as the demo window runs it: each frame lets 1/60 s
    pass (the world steps) and draws; after ``settle`` frames that are not timed."""
    from pyglet import gl

    for _ in range(settle + 2):
        app.frame(seconds)
        app.render()
    gl.glFinish()
    start = time.perf_counter()
    for _ in range(FRAMES):
        app.frame(seconds)
        app.render()
        app.window.flip()
    gl.glFinish()
    return FRAMES / (time.perf_counter() - start)


def run() -> list[tuple[str, float, str]]:
    """One row per size and antialiasing setting: (label, frames per second, unit)."""
    from demos.app.registry import Entry
    from demos.app.runner import RunOptions, open_window

    rows = []
    for samples in (0, 4):
        window = open_window(RunOptions(headless=True, size=WINDOW, samples=samples))
        from demos.app.window import DemoApp

        try:
            for count in SIZES:
                entry = Entry(f"bench-{count}", "render benchmark", lambda n=count: crowd(n))
                app = DemoApp(entry, window)
                smoothing = f"{samples}x MSAA" if samples else "no MSAA"
                label = f"render {count:,} bodies, headless, {smoothing}"
                rows.append((label, frames_per_second(app), "fps"))
            if not samples:
                from demos.app.registry import lookup

                # The demos themselves, stepping and drawing: rain once its 1,000 bodies
                # have poured and piled up (sleeping on, as the scene runs), broadphase.
                for name, settle in (("rain", 400), ("broadphase", 0)):
                    app = DemoApp(lookup(name), window)
                    bodies = len(app.world.bodies)
                    fps = scene_frames_per_second(app, settle=settle)
                    bodies = max(bodies, len(app.world.bodies))
                    label = f"demo {name} ({bodies:,} bodies): step + render, headless"
                    rows.append((label, fps, "fps"))
        finally:
            window.close()
    return rows


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<52} {value:>10,.1f}  {unit}")
