"""Test set-up: hypothesis profiles, and ``import oracles`` from this folder."""

import os
import sys

from hypothesis import settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# deadline=None: the oracles are deliberately slow, and timing varies between machines.
settings.register_profile("default", deadline=None, max_examples=100)
settings.register_profile("thorough", deadline=None, max_examples=2000)
# CI runs the same examples every time, so a submission's result does not depend on luck;
# the default and thorough profiles explore new examples on every run. No example database
# under CI, so that a local CI run draws what a clean clone draws (a clean clone's run once
# found a rope example that local runs, with their saved examples, had not).
settings.register_profile("ci", deadline=None, max_examples=100, derandomize=True, database=None)
default = "ci" if os.environ.get("CI") else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))


import pytest  # noqa: E402

from engine import World  # noqa: E402
from engine.solver_settings import SOFT_SUBSTEPS  # noqa: E402


class SubsteppedWorld(World):
    """A World whose solver is the sub-stepped soft one unless ``substeps`` is given."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("substeps", SOFT_SUBSTEPS)
        super().__init__(*args, **kwargs)


class OneSolveWorld(World):
    """A World whose solver is the one-solve step unless ``substeps`` is given."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("substeps", 0)
        super().__init__(*args, **kwargs)


@pytest.fixture(params=["one solve", "substeps"])
def both_solvers(request, monkeypatch):
    """Run the test with each solver: its module's ``World`` makes worlds with the one-solve
    step, then with SOFT_SUBSTEPS sub-steps."""
    solver = OneSolveWorld if request.param == "one solve" else SubsteppedWorld
    monkeypatch.setattr(request.module, "World", solver)
    return request.param
