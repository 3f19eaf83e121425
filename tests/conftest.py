"""Test set-up: hypothesis profiles, and ``import oracles`` from this folder."""

import os
import sys

from hypothesis import settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# deadline=None: the oracles are deliberately slow, and timing varies between machines.
settings.register_profile("default", deadline=None, max_examples=100)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
