"""The list of scenes: ``@scene(name, summary)`` on a function that builds a Scene.

Adding a scene is one module under ``demos/scenes/`` with a decorated builder, plus its
name in ``demos.scenes.MODULES`` so that it is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEFAULT = "pyramid"


@dataclass(frozen=True)
class Entry:
    """A registered scene. ``build`` makes a fresh Scene; a terminal entry's ``build``
    runs the whole thing itself and opens no window."""

    name: str
    summary: str
    build: Callable
    terminal: bool = False


_SCENES: dict[str, Entry] = {}


def scene(name: str, summary: str, terminal: bool = False):
    """Register the decorated builder under ``name`` with a one-line ``summary``."""

    def register(build: Callable) -> Callable:
        known = _SCENES.get(name)
        # The same scene loaded again (a reloaded module, a docs example run twice)
        # replaces itself; two different scenes under one name are a mistake.
        if known is not None and (known.summary, known.build.__qualname__) != (
            summary,
            build.__qualname__,
        ):
            raise ValueError(f"scene {name!r} is registered twice")
        _SCENES[name] = Entry(name, summary, build, terminal)
        return build

    return register


def scenes() -> dict[str, Entry]:
    """Every registered scene by name, in registration order."""
    from .. import scenes as _modules  # noqa: F401  (importing registers them)

    return dict(_SCENES)


def lookup(name: str) -> Entry:
    """The scene called ``name`` ("default" is the default scene); KeyError if unknown."""
    table = scenes()
    return table[DEFAULT if name == "default" else name]
