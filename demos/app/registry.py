"""The list of scenes: ``@scene(name, summary)`` on a function that builds a Scene.

To add a scene, write ``demos/scenes/NAME.py`` with a function that builds it, decorated
with ``@scene("name", "one-line summary")`` (``from demos import Scene, scene``). There is
no list to edit: ``scenes()`` imports every module of ``demos/scenes`` in alphabetical
order, and each decorated builder registers itself as its module is imported, so the menu
follows module names, then the order of the builders within a module.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

DEFAULT = "pyramid"
# The package whose modules are the bundled scenes.
BUNDLED = "demos.scenes"


@dataclass(frozen=True)
class Entry:
    """A registered scene. ``build`` makes a fresh Scene; a terminal entry's ``build``
    runs the whole thing itself and opens no window."""

    name: str
    summary: str
    build: Callable
    terminal: bool = False


_SCENES: dict[str, Entry] = {}
_bundled_imported = False


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


def import_scenes(package: str) -> list[str]:
    """Import every module of ``package`` (a dotted name), in alphabetical order; returns
    the names of the scenes they registered.

    Modules that register nothing (a scene's helpers) are imported too: that is harmless,
    and reading a module's source to guess whether it registers would miss a builder
    registered in any other way than the decorator line.
    """
    before = set(_SCENES)
    path = import_module(package).__path__
    for info in sorted(pkgutil.iter_modules(path), key=lambda info: info.name):
        import_module(f"{package}.{info.name}")
    return [name for name in _SCENES if name not in before]


def scenes() -> dict[str, Entry]:
    """Every registered scene by name, in registration order; the bundled ones are
    imported on the first call."""
    global _bundled_imported
    if not _bundled_imported:
        import_scenes(BUNDLED)
        _bundled_imported = True
    return dict(_SCENES)


def lookup(name: str) -> Entry:
    """The scene called ``name`` ("default" is the default scene); KeyError if unknown."""
    table = scenes()
    return table[DEFAULT if name == "default" else name]
