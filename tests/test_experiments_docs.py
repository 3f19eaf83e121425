"""docs/experiments.md and the experiments package's docstrings: the worked example on the
page is the script in docs/examples, it measures what the page says, and the docstring
examples of every module pass.
"""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import engine.experiments

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "experiments.md"
SCRIPT = ROOT / "docs" / "examples" / "bounce.py"

MODULES = [
    importlib.import_module(f"engine.experiments.{info.name}")
    for info in pkgutil.iter_modules(engine.experiments.__path__)
    if info.name != "__main__"
]


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_docstring_examples(module):
    failures, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_the_worked_example_on_the_page_is_the_script():
    first_block = re.search(r"```python\n(.*?)```", PAGE.read_text(), re.DOTALL).group(1)
    assert first_block == SCRIPT.read_text()
    assert (ROOT / "docs" / "images" / "experiment_bounce.png").is_file()


@pytest.fixture(scope="module")
def bounce():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        yield importlib.import_module("bounce").bounce
    finally:
        sys.path.remove(str(SCRIPT.parent))


@pytest.mark.parametrize("restitution, height", [(0.3, 1.0), (0.7, 2.0), (1.0, 1.0)])
def test_the_rebound_is_high_by_at_most_about_one_step_of_travel(bounce, restitution, height):
    """What the page reads off the figure: e^2 h, plus up to 1.11 times one step's travel
    at the impact speed (a bounce off a speculative contact starts early)."""
    result = bounce(restitution, height, seed=0)
    assert abs(result["drop_height"] - height) <= 0.005
    excess = result["apex"] - restitution**2 * result["drop_height"]
    step_travel = math.sqrt(2 * 9.81 * result["drop_height"]) / 240
    assert 0.0 <= excess <= 1.11 * step_travel
