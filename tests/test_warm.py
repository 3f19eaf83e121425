"""``python -m engine.warm`` says how far it has got while it compiles."""

from __future__ import annotations

import time

import numba

from engine import warm


def test_a_compiling_process_reports_its_progress_and_its_count(capsys):
    def compile_one_kernel():
        def double(x):
            return 2.0 * x

        double.__module__ = "engine.progress_check"  # counted as one of the engine's
        assert numba.njit(double)(1.5) == 3.0
        time.sleep(0.35)

    summary = warm._timed(compile_one_kernel, every=0.1)
    lines = [line for line in capsys.readouterr().err.splitlines() if "so far" in line]
    assert lines, "no progress line while the task ran"
    assert lines[-1].startswith("engine: compile_one_kernel: kernels compiled so far: 1 (")
    assert summary.startswith("compile_one_kernel took ")
    assert summary.endswith("(kernels compiled: 1)")


def test_kernels_of_other_packages_are_not_counted(capsys):
    def compile_elsewhere():
        numba.njit(lambda x: x + 1.0)(1.0)

    assert warm._timed(compile_elsewhere, every=10.0).endswith("(kernels compiled: 0)")
