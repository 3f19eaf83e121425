"""Compiled kernels: the ``kernel`` decorator, where their cache lives, and a note when
compiling happens.

Every loop over bodies, parts, pairs, contacts or joints runs in a numba ``@njit`` kernel.
Kernels are compiled the first time they are used on a machine and cached on disk, so later
processes load them instead of compiling:

- The cache sits in the package's ``__pycache__`` when that folder is writable, else in a
  per-user cache folder (``~/.cache/engine-kernels``, or ``$XDG_CACHE_HOME``);
  ``ENGINE_KERNEL_CACHE`` names another folder to use first.
- numba judges a cached kernel fresh by its own source file only, but kernels inline
  helpers from other modules. So every engine kernel is stamped with one hash of the
  source of all the modules that define kernels: change any of them and all recompile,
  never a stale mix.
- Compiling every kernel takes tens of seconds; the first compile of a process prints one
  line saying so, so nobody waits in silence. ``python -m engine.warm`` compiles them all.

No kernel uses fast-math: reassociated sums would make results depend on how LLVM
vectorised a loop, and the engine promises bitwise-repeatable steps.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import numba
from numba.core import caching, event

PACKAGE = Path(__file__).resolve().parent

# Set by the first compile of one of the engine's kernels in this process. A process that
# announces the compile itself (``python -m engine.warm``) sets ENGINE_QUIET_COMPILE.
_announced = False


def kernel(function=None, *, inline: bool = False, parallel: bool = False):
    """``numba.njit`` with the engine's options: cached on disk, no fast-math, no GIL.

    inline=True inlines a small helper into its callers at numba's IR level (used for the
    per-pair and per-row routines called from the batch loops). parallel=True lets a
    ``numba.prange`` loop spread its iterations over threads (``engine.batch_step``, whose
    iterations share nothing, so the result does not depend on the thread count).
    """
    options = {"cache": True, "nogil": True, "error_model": "numpy"}
    if inline:
        options["inline"] = "always"
    if parallel:
        options["parallel"] = True

    def wrap(f):
        return numba.njit(**options)(f)

    return wrap if function is None else wrap(function)


def _kernel_source_hash() -> bytes:
    """sha256 of the source of every engine module that defines kernels."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(PACKAGE.glob("*.py")):
        text = path.read_bytes()
        if b"from .jit import kernel" in text or path.name == "jit.py":
            digest.update(path.name.encode() + b"\0" + text)
    return digest.digest()


def _user_cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "engine-kernels"


class _EngineCacheLocator(caching._CacheLocator):
    """Where an engine kernel is cached, stamped with the hash of all kernel sources."""

    _stamp = None

    def __init__(self, py_func, py_file: str, path: Path):
        self._py_file = py_file  # numba's own locators have it; some of its paths read it
        self._lineno = py_func.__code__.co_firstlineno
        self._path = str(path)

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self):
        if _EngineCacheLocator._stamp is None:
            _EngineCacheLocator._stamp = _kernel_source_hash()
        return _EngineCacheLocator._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (py_func.__module__ or "").startswith("engine."):
            return None
        chosen = os.environ.get("ENGINE_KERNEL_CACHE")
        folders = [Path(chosen)] if chosen else []
        for folder in [*folders, PACKAGE / "__pycache__", _user_cache_folder()]:
            locator = cls(py_func, py_file, folder)
            try:
                locator.ensure_cache_path()
            except OSError:
                continue  # not writable: try the next place
            return locator
        return None


# numba tries its cache locators in order; engine kernels take this one first. (The class
# holding the list lost its leading underscore in numba 0.61.)
_LOCATORS = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _EngineCacheLocator not in _LOCATORS._locator_classes:
    _LOCATORS._locator_classes.insert(0, _EngineCacheLocator)


class _CompileNotice(event.Listener):
    """Prints one line when this process first compiles an engine kernel."""

    def on_start(self, ev) -> None:
        global _announced
        if _announced or os.environ.get("ENGINE_QUIET_COMPILE"):
            return
        dispatcher = ev.data.get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith("engine."):
            return
        _announced = True
        print(
            "engine: compiling the physics kernels for this machine "
            "(once; they are cached on disk for later runs)...",
            file=sys.stderr,
            flush=True,
        )

    def on_end(self, ev) -> None:
        pass


event.register("numba:compile", _CompileNotice())
