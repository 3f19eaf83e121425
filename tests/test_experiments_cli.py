"""The command line, ``python -m engine.experiments FILE.py:FUNCTION --grid ...``, and
the optional extras: engine works without them, and a piece that needs one says which.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from builders import free_port

from engine.experiments.cli import main, parse_grid_entry

EXPERIMENT = textwrap.dedent(
    """
    import numpy as np

    def bounce(restitution, height, seed):
        rng = np.random.default_rng(seed)
        return {"apex": restitution**2 * height, "noise": rng.random()}
    """
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("restitution=0:1:5", ("restitution", [0.0, 0.25, 0.5, 0.75, 1.0])),
        ("height=1,2,4", ("height", [1, 2, 4])),
        ("scale=0.5", ("scale", [0.5])),
        ("broadphase=grid,quadtree", ("broadphase", ["grid", "quadtree"])),
        ("n=-3", ("n", [-3])),
    ],
)
def test_grid_entries(text, expected):
    assert parse_grid_entry(text) == expected


@pytest.mark.parametrize("text", ["restitution", "=1,2", "e=", "e=a:b:3", "e=0:1:0"])
def test_malformed_grid_entries_are_refused(text):
    with pytest.raises(ValueError, match="^--grid"):
        parse_grid_entry(text)


def test_a_sweep_from_the_command_line(tmp_path, capsys):
    (tmp_path / "experiment_cli_a.py").write_text(EXPERIMENT)
    out = tmp_path / "results.csv"
    target = f"{tmp_path / 'experiment_cli_a.py'}:bounce"
    arguments = [target, "--grid", "restitution=0:1:3", "--grid", "height=1,2"]
    code = main([*arguments, "--repeats", "2", "--workers", "1", "--out", str(out)])
    assert code == 0
    assert "12 runs, 0 failed" in capsys.readouterr().out
    table = pd.read_csv(out)
    assert len(table) == 12 and table["seed"].is_unique
    assert sorted(table["apex"].round(12)) == sorted(
        [e * e * h for e in (0, 0.5, 1) for h in (1, 2)] * 2
    )
    # Without --out the table is printed.
    main([*arguments, "--workers", "1", "--no-progress"])
    printed = capsys.readouterr().out
    assert "6 runs, 0 failed" in printed and "apex" in printed


@pytest.mark.slow
def test_the_command_line_runs_on_worker_processes(tmp_path):
    """As a user types it: a fresh interpreter, two spawned workers importing the file."""
    (tmp_path / "experiment_cli_b.py").write_text(EXPERIMENT)
    out = tmp_path / "results.parquet"
    command = [
        sys.executable,
        "-m",
        "engine.experiments",
        "experiment_cli_b.py:bounce",
        "--grid",
        "restitution=0:1:3",
        "--grid",
        "height=1,2,4",
        "--workers",
        "2",
        "--out",
        str(out),
    ]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "9 runs, 0 failed" in done.stdout
    assert len(pd.read_parquet(out)) == 9


@pytest.mark.slow
def test_the_command_line_sends_the_experiment_to_a_dask_cluster(tmp_path):
    """A scheduler and two workers started with Dask's own commands, in a folder without
    the experiment's file: the command line sends its code along, and the table is the
    one a single process makes."""
    distributed = pytest.importorskip("distributed")
    dask = str(Path(sys.executable).with_name("dask"))
    address = f"tcp://127.0.0.1:{free_port()}"
    elsewhere = tmp_path / "cluster"
    elsewhere.mkdir()
    (tmp_path / "experiment_cli_d.py").write_text(EXPERIMENT)
    commands = [
        [dask, "scheduler", "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
        [dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
    ]
    started = [
        subprocess.Popen(
            command,
            cwd=elsewhere,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for command in commands
    ]
    grid = ["--grid", "restitution=0:1:3", "--grid", "height=1,2", "--repeats", "2"]
    try:
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "engine.experiments",
                "experiment_cli_d.py:bounce",
                *grid,
                "--scheduler",
                address,
                "--out",
                "cluster.csv",
                "--no-progress",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            process.wait(timeout=60)
    assert done.returncode == 0, done.stderr
    assert "12 runs, 0 failed" in done.stdout
    here = [f"{tmp_path / 'experiment_cli_d.py'}:bounce", *grid, "--workers", "1"]
    assert main([*here, "--out", str(tmp_path / "here.csv"), "--no-progress"]) == 0
    on_cluster = pd.read_csv(tmp_path / "cluster.csv").sort_values("seed", ignore_index=True)
    in_process = pd.read_csv(tmp_path / "here.csv").sort_values("seed", ignore_index=True)
    columns = ["restitution", "height", "repeat", "seed", "apex", "noise"]
    pd.testing.assert_frame_equal(on_cluster[columns], in_process[columns], check_exact=True)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["nofile.py:bounce"], "no file"),
        (["experiment_cli_c.py"], "FILE.py:FUNCTION"),
        (["experiment_cli_c.py:missing", "--grid", "e=1"], "no function 'missing'"),
        (["experiment_cli_c.py:bounce", "--grid", "e=1"], "takes no parameter 'e'"),
        (["experiment_cli_c.py:bounce", "--grid", "restitution"], "NAME=VALUES"),
    ],
)
def test_command_line_mistakes_exit_with_a_message(
    tmp_path, monkeypatch, capsys, arguments, message
):
    (tmp_path / "experiment_cli_c.py").write_text(EXPERIMENT)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main([*arguments, "--workers", "1"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["experiment_cli_c.py"]


# --------------------------------------------------------------------------- extras


def constant():
    return {"one": 1}


WITHOUT_EXTRAS = textwrap.dedent(
    """
    import sys
    for name in ("pandas", "pyarrow", "tqdm", "matplotlib", "distributed", "dask"):
        sys.modules[name] = None  # as if not installed: importing it fails

    import engine
    import engine.experiments
    from engine import World, Circle
    from engine.experiments import draw, load, record, sweep

    world = World()
    world.add_body(Circle(0.5), position=(0, 3))
    trajectory = record(world, steps=10)
    trajectory.save(sys.argv[1])
    assert load(sys.argv[1]).positions.shape == (11, 1, 2)
    assert world.kinetic_energy() > 0

    def needs(extra, action):
        try:
            action()
        except ModuleNotFoundError as error:
            assert f"pip install 'engine[{extra}]'" in str(error), error
            print(error)
        else:
            raise AssertionError("no error")

    needs("experiments", trajectory.to_dataframe)
    needs("experiments", lambda: draw(world))
    needs("experiments", lambda: sweep(len, grid={"x": [1]}))
    """
)


def test_engine_works_without_the_extras_and_names_them_when_needed(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, str(tmp_path / "t.npz")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Trajectory.to_dataframe needs pandas")
    assert lines[1].startswith("draw needs matplotlib")
    assert lines[2].startswith("sweep needs pandas")


def test_a_dask_sweep_without_dask_names_the_cluster_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    from engine.experiments import sweep

    with pytest.raises(ModuleNotFoundError, match=r"pip install 'engine\[cluster\]'"):
        sweep(constant, grid=[{}], scheduler="tcp://127.0.0.1:1")
