"""Choosing between a real window and offscreen rendering, and explaining GL failures.

Without a display (no ``DISPLAY`` on Linux, or ``--headless``), pyglet renders through EGL
into an offscreen buffer: Mesa's EGL and its software rasteriser (llvmpipe) work on any
Linux machine, GPU or not. pyglet reads ``options["headless"]`` when its window module is
first imported, so the choice must be made before anything imports ``pyglet.window``.
"""

from __future__ import annotations

import os
import sys

# Debian/Ubuntu packages that provide EGL and Mesa's drivers (`make system-deps`).
SYSTEM_PACKAGES = ("libegl1", "libegl-mesa0", "libgl1-mesa-dri")


class GraphicsUnavailable(RuntimeError):
    """OpenGL could not be started; the message says which packages to install."""


def has_display() -> bool:
    """True when a window can be shown: a desktop OS, or Linux with an X display."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY"))
    return True


def configure(headless: bool) -> None:
    """Tell pyglet to render offscreen (EGL) or in a window. Call before opening windows."""
    import pyglet

    if "pyglet.window" in sys.modules and pyglet.options["headless"] != headless:
        # Too late to switch: pyglet chose its window class when the module was imported.
        raise RuntimeError("pyglet.window is already imported with the other headless mode")
    pyglet.options["headless"] = headless
    # The shadow window is an extra hidden context pyglet makes by default; the demos use
    # one window, and with EGL the extra context only costs start-up time.
    pyglet.options["shadow_window"] = False
    # Error checking after every GL call is costly in Python; failures still raise where
    # pyglet checks itself.
    pyglet.options["debug_gl"] = False


def configure_default() -> None:
    """Choose offscreen rendering when there is no display, unless pyglet's window module is
    already loaded (then the choice was made) or pyglet is not installed.

    ``demos/__init__.py`` calls this, so that importing any demo module before
    ``demos.app.runner.open_window`` cannot lock pyglet into looking for a missing display.
    """
    if "pyglet.window" in sys.modules:
        return
    try:
        configure(headless=not has_display())
    except ImportError:
        pass  # the pure modules (maths, tessellation) work without pyglet


def explain(error: BaseException, headless: bool) -> GraphicsUnavailable:
    """A GraphicsUnavailable whose message names the fix for ``error``."""
    packages = " ".join(SYSTEM_PACKAGES)
    where = "offscreen (EGL)" if headless else "in a window"
    message = (
        f"Could not start OpenGL {where}: {type(error).__name__}: {error}\n"
        f"The demos need Mesa's EGL and OpenGL drivers. On Debian or Ubuntu install them with\n"
        f"    sudo apt-get install {packages}\n"
        f"or run `make system-deps` (as root)."
    )
    return GraphicsUnavailable(message)
