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


def _draw_no_project_constants() -> None:
    """Keep the project's own numbers out of Hypothesis's draws.

    Hypothesis draws, now and then, a number written in a local module, from every local
    module imported so far. That pool depends on which tests ran earlier in the same
    worker (a test that imports a demo scene adds its numbers), so a derandomized test drew
    different examples from one run of the suite to the next: a joint-chain fuzzer passed
    alone and failed after other tests. With the pool empty, a test draws the same examples
    alone, in any order and on any worker.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # a Hypothesis without the pool: nothing to empty
        return
    if hasattr(providers, "_get_local_constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty


_draw_no_project_constants()
