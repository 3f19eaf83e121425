"""Opening the window (real or offscreen) and pacing frames: live, or recorded at 60 fps."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from . import headless
from .registry import Entry

FRAME = 1.0 / 60.0


@dataclass
class RunOptions:
    """How to run a scene.

    headless: render offscreen (EGL) instead of in a window. frames: stop after this many
    frames (None: run until the window closes). record / screenshot: GIF and PNG paths
    written at the end. size: window size in pixels. gif_every: keep one frame in this
    many in the GIF. samples: multisampling (smooth edges; 0 for none, which a software
    rasteriser draws several times faster).
    """

    headless: bool = False
    frames: int | None = None
    record: Path | None = None
    screenshot: Path | None = None
    size: tuple[int, int] = (960, 600)
    gif_every: int = 2
    samples: int = 4


@dataclass
class RunResult:
    """What a finished run produced."""

    frames: int
    seconds: float
    gif: Path | None = None
    png: Path | None = None


def open_window(options: RunOptions):
    """A pyglet window of ``options.size``; offscreen when ``options.headless``.

    Asks for ``options.samples``x multisampling (smooth edges) and falls back to a plain
    framebuffer where the driver has none. Raises GraphicsUnavailable, naming the packages,
    if OpenGL fails.
    """
    headless.configure(options.headless)
    try:
        import pyglet
        import pyglet.window  # loads EGL or GLX: the first place a missing library shows

        window = _make_window(pyglet, options)
        if not options.headless and options.samples > 0 and _software_renderer():
            # A live window on a software rasteriser: multisampling would cost most of the
            # frame rate, and a live view needs the speed more than a recording does.
            window.close()
            window = _make_window(pyglet, replace(options, samples=0))
        return window
    except Exception as error:  # any failure to load or start GL has the same remedy
        raise headless.explain(error, options.headless) from error


def _software_renderer() -> bool:
    """True when OpenGL runs on the CPU (Mesa's llvmpipe or softpipe)."""
    from pyglet import gl

    renderer = gl.gl_info.get_renderer().lower()
    return any(name in renderer for name in ("llvmpipe", "softpipe", "software"))


def _make_window(pyglet, options: RunOptions):
    width, height = options.size
    settings = dict(width=width, height=height, caption="engine demos", vsync=True)
    if not options.headless:
        settings["resizable"] = True
    if options.samples > 0:
        try:
            config = pyglet.gl.Config(sample_buffers=1, samples=options.samples, double_buffer=True)
            return pyglet.window.Window(config=config, **settings)
        except pyglet.window.NoSuchConfigException:
            pass
    return pyglet.window.Window(**settings)


def run(entry: Entry, options: RunOptions) -> RunResult:
    """Run ``entry`` live until closed, or for ``options.frames`` frames when given."""
    window = open_window(options)
    # Imported after open_window: these import pyglet.window, which must see the
    # headless option first.
    from .window import DemoApp

    app = DemoApp(entry, window)
    window.push_handlers(app)
    try:
        if options.frames is None and not options.headless:
            return _run_live(app)
        return _run_recorded(app, options)
    finally:
        window.close()


def _run_live(app) -> RunResult:
    import pyglet

    start = time.perf_counter()
    pyglet.app.run(FRAME)
    return RunResult(app.frames, time.perf_counter() - start)


def _run_recorded(app, options: RunOptions) -> RunResult:
    """Exactly 1/60 s of simulation per frame, whatever the wall time; scripted keys."""
    from ..draw.gpu import read_pixels
    from .recording import Recorder, save_png

    recorder = Recorder(options.record, every=options.gif_every)
    frames = options.frames if options.frames is not None else 240
    pixels = None
    start = time.perf_counter()
    for index in range(frames):
        for at, name in app.scene.script:
            if at == index:
                app.handle_key(name)
        tick = time.perf_counter()
        app.frame(FRAME)
        app.render()
        last = index == frames - 1
        if recorder.wants_frame or (last and options.screenshot):
            pixels = read_pixels(*app.window.get_framebuffer_size())
            recorder.offer(pixels)
        else:
            recorder.skip()
        app.window.flip()
        app.window.dispatch_events()
        app.measure_fps(time.perf_counter() - tick)
        if app.window.has_exit:
            break
    result = RunResult(app.frames, time.perf_counter() - start)
    result.gif = recorder.save()
    if options.screenshot and pixels is not None:
        result.png = save_png(pixels, options.screenshot)
    return result
