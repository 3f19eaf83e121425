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


def examples():
    for page in PAGES:
        for number, code in enumerate(BLOCK.findall(page.read_text()), start=1):
            yield pytest.param(code, id=f"{page.name}-{number}")


@pytest.mark.parametrize("code", list(examples()))
def test_documented_example_runs(code):
    exec(compile(code, "<docs>", "exec"), {"__name__": "__docs__"})


MODULES = [
    importlib.import_module(f"engine.{info.name}")
    for info in pkgutil.iter_modules(engine.__path__)
]


@pytest.mark.parametrize("module", [engine, *MODULES], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
