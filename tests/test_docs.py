"""Every Python example in the README and docs/ runs as written, and docstring examples pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_documented_examples_run(page):
    """A page's blocks run in order in one namespace: a page may build one program."""
    namespace = {"__name__": "__docs__"}
    for number, code in enumerate(BLOCK.findall(page.read_text()), start=1):
        exec(compile(code, f"{page.name} block {number}", "exec"), namespace)


MODULES = [
    importlib.import_module(f"engine.{info.name}") for info in pkgutil.iter_modules(engine.__path__)
]


@pytest.mark.parametrize("module", [engine, *MODULES], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
