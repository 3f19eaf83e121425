"""Each run's seed, derived from the sweep's base seed, its parameters and its repeat.

The parameters enter by value (names and values, in name order), not by their position in
the grid: a grid point keeps its seeds when the grid around it grows, is reordered or is
run again, so a resumed or extended sweep meets the same seeds. The run's identity (base
seed, repeat, parameters) is written out as text and hashed with SHA-256, whose bits are
well mixed (Python's own ``hash`` of a string changes from one process to the next); the
seed is 63 of them. A generator made from it (``numpy.random.default_rng(seed)``) passes
it through numpy's SeedSequence, so nearby runs get unrelated streams.

The seed also names the run: the results file is matched to the plan by it.
"""

from __future__ import annotations

import hashlib
import json


def run_seed(base_seed: int, parameters: dict, repeat: int) -> int:
    """A seed in [0, 2**63) for one run: a function of ``base_seed`` (int >= 0), the
    ``parameters`` (dict of scalars) and the ``repeat`` index (int >= 0)."""
    # Type names keep 1, 1.0 and True apart; repr keeps every bit of a float.
    values = [
        [name, type(value).__name__, repr(value)] for name, value in sorted(parameters.items())
    ]
    text = json.dumps([base_seed, repeat, values])
    digest = hashlib.sha256(text.encode()).digest()
    # 63 bits: the seed fits a signed 64-bit column in Parquet, CSV and pandas alike.
    return int.from_bytes(digest[:8], "little") >> 1
