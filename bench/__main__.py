"""`make bench`: run every benchmark and print one table."""

from __future__ import annotations

import importlib
import platform

import numpy as np

SUITES = [
    "bench.collision_bench",
    "bench.broadphase_bench",
    "bench.query_bench",
    "bench.step_bench",
    "bench.small_worlds_bench",
    "bench.batch_bench",
    "bench.resting_bench",
    "bench.pyramid_bench",
    "bench.box2d_v3_bench",
    "bench.rain_bench",
    "bench.render_bench",
    "bench.snapshot_bench",
    "bench.joints_bench",
    "bench.experiments_bench",
    "bench.solver_quality",
    "bench.lander_box2d",
    "bench.envs_bench",
]


def main() -> None:
    import numba

    print(
        f"python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
        f"{platform.machine()}"
    )
    print(f"{'benchmark':<52} {'value':>14}  unit")
    print("-" * 76)
    for name in SUITES:
        try:
            suite = importlib.import_module(name)
        except ModuleNotFoundError as error:
            print(f"{name}: not available ({error})")
            continue
        for label, value, unit in suite.run():
            # Small figures (drifts in metres, ratios) keep their significant digits.
            text = f"{value:>14,.1f}" if abs(value) >= 100 else f"{value:>14.4g}"
            print(f"{label:<52} {text}  {unit}")


if __name__ == "__main__":
    main()
