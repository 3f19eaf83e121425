"""The list of scenes: ``@scene(name, summary)`` on a function that builds a Scene.

To add a scene, write ``demos/scenes/NAME.py`` with a function that builds it, decorated
with ``@scene("name", "one-line summary")`` (``from demos import Scene, scene``). There is
no list to edit: ``scenes()`` imports every module of ``demos/scenes`` in alphabetical
order, and each decorated builder registers itself as its module is imported, so the menu
follows module names, then the order of the builders within a module.

A scene can also live in a file of one's own, anywhere: ``load_file`` imports it from its
path (``python -m demos path/to/file.py``) and returns the scenes it registered with the
same decorator. It then runs like a bundled one.
"""

from __future__ import annotations

import hashlib
import importlib.util
import pkgutil
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

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


class NameTaken(ValueError):
    """Two different scenes were registered under one name."""


class SceneFileError(Exception):
    """A scene file that cannot be run; the message starts with the path as given."""


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
            raise NameTaken(f"scene {name!r} is registered twice")
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


def load_file(argument: str | Path) -> list[Entry]:
    """Import the Python file at ``argument`` and return the scenes it registered, in order.

    The file registers them as a bundled scene does, with ``@scene(name, summary)``; its
    folder goes first on ``sys.path``, as for ``python FILE``, so it can import modules
    beside it. Loading a file again replaces its scenes. SceneFileError, naming
    ``argument``, when the path is no Python file, when a name is taken, or when the file
    registers no scene; an error raised by the file's own code comes through unchanged,
    with its traceback.
    """
    path = Path(argument).expanduser()
    if not path.is_file():
        what = "is a folder, not a scene file" if path.is_dir() else "no such file"
        raise SceneFileError(f"{argument}: {what}")
    if path.suffix != ".py":
        raise SceneFileError(f"{argument}: not a Python file (expected a .py file)")
    scenes()  # bundled names first, so that a clash with one is reported on the file
    path = path.resolve()
    # One module name per path: loading the same file again re-runs the same module.
    stem = re.sub(r"\W", "_", path.stem)
    module_name = f"demos_file_{stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would: dataclasses and pickling look it up.
    sys.modules[module_name] = module
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except NameTaken as error:
        sys.modules.pop(module_name, None)
        raise SceneFileError(f"{argument}: {error}; give it another name") from None
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    found = [entry for entry in _SCENES.values() if entry.build.__module__ == module_name]
    if not found:
        raise SceneFileError(
            f"{argument}: registers no scene; decorate the function that builds it with "
            "@scene(name, summary), from demos import Scene, scene (see docs/demos.md)"
        )
    return found


def pick(entries: list[Entry], name: str | None, argument: str) -> Entry:
    """The scene called ``name`` among a file's ``entries`` (the first when None);
    SceneFileError naming ``argument`` and the choices if it has none of that name."""
    if name is None:
        return entries[0]
    for entry in entries:
        if entry.name == name:
            return entry
    choices = ", ".join(entry.name for entry in entries)
    raise SceneFileError(f"{argument}: no scene {name!r} in it; it has: {choices}")


def is_path(argument: str) -> bool:
    """True if a command-line scene argument names a file rather than a bundled scene."""
    if argument.endswith(".py") or "/" in argument or "\\" in argument:
        return True
    return Path(argument).is_file()  # a file without .py, told so by load_file
