"""sweep: the same table on one process, local processes and a Dask cluster; failures
recorded; results streamed to a file and resumed after an interruption; bad input refused
before anything is written.

The experiment functions are at the top of this module: worker processes import them.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from builders import free_port

from engine import Box, Circle, World
from engine.experiments import sweep

HERE = Path(__file__).resolve().parent


def drop(restitution, height, seed):
    """A ball and a box dropped on the ground from ``height`` with a seeded sideways
    nudge; where they are after 30 steps."""
    rng = np.random.default_rng(seed)
    world = World()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    ball = world.add_body(
        Circle(0.2), position=(0, height), velocity=(rng.normal(), 0), restitution=restitution
    )
    box = world.add_body(Box(0.4, 0.4), position=(0.5, 0.3), angle=rng.uniform(0, 1))
    for _ in range(30):
        world.step()
    return {"ball_x": ball.position[0], "ball_y": ball.position[1], "box_angle": box.angle}


def fragile(x, seed):
    """Fails for x == 2."""
    if x == 2:
        raise ValueError(f"x = {x} breaks it")
    return {"twice": 2 * x, "seen_seed": seed}


def unlucky(x):
    """Returns something that is not a dict for x == 1."""
    return 3.0 if x == 1 else {"x_again": x}


def series(n):
    """An array result."""
    return {"powers": np.arange(n) ** 2.0, "count": n}


def slow_square(i, seed):
    """A run that takes 0.1 s (sleeping: it needs no CPU)."""
    time.sleep(0.1)
    return {"square": i * i, "draw": float(np.random.default_rng(seed).random())}


def slow_tail_square(i, seed):
    """slow_square, but the second half of 60 runs takes 0.4 s each: a window of seconds in
    which a test can see the file half full, even on a loaded machine."""
    if i >= 30:
        time.sleep(0.3)
    return slow_square(i, seed)


def slow_square_telling_pid(i, seed):
    """slow_square, leaving the worker's process id in ENGINE_TEST_PID_FOLDER."""
    (Path(os.environ["ENGINE_TEST_PID_FOLDER"]) / str(os.getpid())).touch()
    return slow_square(i, seed)


def interrupted_at_ten(i):
    """Stops the sweep (as Ctrl-C would) at i == 10 while the flag file exists."""
    if i == 10 and os.path.exists(os.environ["ENGINE_TEST_STOP_FLAG"]):
        raise KeyboardInterrupt
    return {"i_again": i}


DROP_GRID = {"restitution": [0.0, 0.5, 0.9], "height": [1.0, 2.0]}


def without_wall_time(table: pd.DataFrame) -> pd.DataFrame:
    return table.drop(columns="wall_time")


# --------------------------------------------------------------------------- executors


@pytest.fixture(scope="module")
def drop_in_process():
    return sweep(drop, grid=DROP_GRID, repeats=2, workers=1, progress=False)


def test_the_table_has_a_row_per_run_with_the_documented_columns(drop_in_process):
    table = drop_in_process
    assert list(table.columns) == [
        "restitution",
        "height",
        "repeat",
        "seed",
        "ball_x",
        "ball_y",
        "box_angle",
        "wall_time",
        "error",
    ]
    assert len(table) == 12 and table["seed"].is_unique
    assert table[["restitution", "height", "repeat"]].values.tolist()[:3] == [
        [0.0, 1.0, 0],
        [0.0, 1.0, 1],
        [0.0, 2.0, 0],
    ]
    assert (table["wall_time"] > 0).all() and table["error"].isna().all()
    # the seed is really used: repeats of one grid point differ
    assert table["ball_x"].nunique() == 12


@pytest.mark.slow
def test_two_local_processes_give_the_same_table(drop_in_process):
    table = sweep(drop, grid=DROP_GRID, repeats=2, workers=2, progress=False)
    pd.testing.assert_frame_equal(
        without_wall_time(table), without_wall_time(drop_in_process), check_exact=True
    )


@pytest.fixture(scope="module")
def cluster():
    """A real Dask cluster of two worker processes, torn down after the tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_table(cluster, drop_in_process):
    by_address = sweep(drop, grid=DROP_GRID, repeats=2, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(
        without_wall_time(by_address), without_wall_time(drop_in_process), check_exact=True
    )
    import distributed

    with distributed.Client(cluster) as client:
        by_client = sweep(fragile, grid={"x": [1, 2, 3]}, client=client, progress=False)
        assert client.status == "running"  # a client we were given stays open
    assert by_client["error"].notna().tolist() == [False, True, False]


# --------------------------------------------------------------------------- failures


def test_a_failing_run_is_recorded_and_the_others_complete():
    table = sweep(fragile, grid={"x": [1, 2, 3]}, repeats=2, workers=1, progress=False)
    assert table["error"].tolist()[2:4] == ["ValueError: x = 2 breaks it"] * 2
    assert table["error"].isna().sum() == 4
    assert table["twice"].tolist()[:2] == [2, 2] and table["twice"].tolist()[4:] == [6, 6]
    assert table["twice"].iloc[2:4].isna().all()
    assert table["seen_seed"].dropna().astype(np.int64).tolist() == [
        seed for seed, error in zip(table["seed"], table["error"]) if error is None
    ]


def test_a_result_that_is_not_a_dict_is_recorded_as_an_error():
    table = sweep(unlucky, grid={"x": [0, 1]}, workers=1, progress=False)
    assert table["error"].tolist() == [None, "TypeError: the function returned a float, not a dict"]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_results_go_to_the_file_and_a_second_sweep_reads_them_back(tmp_path, suffix):
    out = tmp_path / f"results{suffix}"
    first = sweep(fragile, grid={"x": [1, 2, 3]}, repeats=2, workers=1, out=out, progress=False)
    on_disk = pd.read_parquet(out) if suffix == ".parquet" else pd.read_csv(out)
    assert sorted(on_disk["seed"]) == sorted(first["seed"])
    # Nothing left to run: the table comes from the file, with the same bits.
    again = sweep(fragile, grid={"x": [1, 2, 3]}, repeats=2, workers=1, out=out, progress=False)
    pd.testing.assert_frame_equal(again, first, check_exact=True)
    assert again["error"].tolist() == first["error"].tolist()
    on_disk = pd.read_parquet(out) if suffix == ".parquet" else pd.read_csv(out)
    assert len(on_disk) == 6  # nothing ran twice


def test_array_results_survive_a_parquet_file(tmp_path):
    out = tmp_path / "series.parquet"
    first = sweep(series, grid={"n": [2, 3]}, workers=1, out=out, progress=False)
    again = sweep(series, grid={"n": [2, 3]}, workers=1, out=out, progress=False)
    for table in (first, again):
        assert [list(powers) for powers in table["powers"]] == [[0.0, 1.0], [0.0, 1.0, 4.0]]


def test_an_interrupted_sweep_resumes_and_runs_each_run_once(tmp_path, monkeypatch):
    out = tmp_path / "results.parquet"
    flag = tmp_path / "stop"
    flag.touch()
    monkeypatch.setenv("ENGINE_TEST_STOP_FLAG", str(flag))
    grid = {"i": list(range(20))}
    with pytest.raises(KeyboardInterrupt):
        sweep(interrupted_at_ten, grid=grid, workers=1, out=out, progress=False)
    before = pd.read_parquet(out)  # written on the way out
    assert 0 < len(before) < 20 and 10 not in before["i"].tolist()
    flag.unlink()
    table = sweep(interrupted_at_ten, grid=grid, workers=1, out=out, progress=False)
    after = pd.read_parquet(out)
    assert table["i"].tolist() == list(range(20)) and after["seed"].is_unique
    assert sorted(after["i"]) == list(range(20))
    # The runs already in the file were not run again: their rows are the same rows.
    kept = after.set_index("seed").loc[before["seed"]]
    assert np.array_equal(kept["wall_time"].to_numpy(), before["wall_time"].to_numpy())


KILLED_SWEEP = """
import sys
from test_experiments_sweep import slow_tail_square
from engine.experiments import sweep
grid = {{"i": list(range({runs}))}}
sweep(slow_tail_square, grid=grid, workers=2, out=sys.argv[1], progress=False)
"""


def written(path) -> pd.DataFrame:
    """The results file a running sweep keeps replacing, read whole from one open file:
    read by name, pyarrow can mix two versions of it ("Couldn't deserialize thrift")."""
    return pd.read_parquet(io.BytesIO(path.read_bytes()))


@pytest.mark.slow
def test_a_killed_sweep_resumes_from_its_file_and_runs_each_run_once(tmp_path):
    """The parent and its pool are killed (SIGKILL, no clean-up) after about half the
    runs; the file holds what was written, and a new sweep finishes the rest."""
    runs, out = 60, tmp_path / "results.parquet"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), *sys.path]))
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_SWEEP.format(runs=runs), str(out)],
        env=environment,
        start_new_session=True,  # its own process group: the pool dies with it
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and len(written(out)) >= runs // 2:
                break
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = pd.read_parquet(out)
    assert runs // 2 <= len(before) < runs, "the sweep was not stopped half-way"
    table = sweep(
        slow_tail_square, grid={"i": list(range(runs))}, workers=2, out=out, progress=False
    )
    after = pd.read_parquet(out)
    assert len(after) == runs and after["seed"].is_unique
    assert sorted(after["i"]) == list(range(runs))
    assert table["i"].tolist() == list(range(runs)) and table["error"].isna().all()
    kept = after.set_index("seed").loc[before["seed"]]
    assert np.array_equal(kept["wall_time"].to_numpy(), before["wall_time"].to_numpy())


@pytest.mark.slow
def test_a_sweep_whose_pool_is_killed_keeps_its_results_and_resumes(tmp_path, monkeypatch):
    """The worker processes are killed after about half the runs: the sweep stops with an
    error naming the file, which holds the finished runs; a new sweep finishes the rest."""
    runs, out, pids = 60, tmp_path / "results.parquet", tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("ENGINE_TEST_PID_FOLDER", str(pids))
    grid = {"i": list(range(runs))}

    def kill_the_pool_half_way():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and len(written(out)) >= runs // 2:
                for pid in pids.iterdir():
                    os.kill(int(pid.name), signal.SIGKILL)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_pool_half_way)
    killer.start()
    try:
        with pytest.raises(RuntimeError, match="a worker failed .* the finished runs are in"):
            sweep(slow_square_telling_pid, grid=grid, workers=2, out=out, progress=False)
    finally:
        killer.join()
    before = pd.read_parquet(out)
    assert runs // 2 <= len(before) < runs
    table = sweep(slow_square_telling_pid, grid=grid, workers=2, out=out, progress=False)
    after = pd.read_parquet(out)
    assert len(after) == runs and after["seed"].is_unique
    assert table["i"].tolist() == list(range(runs)) and table["error"].isna().all()
    kept = after.set_index("seed").loc[before["seed"]]
    assert np.array_equal(kept["wall_time"].to_numpy(), before["wall_time"].to_numpy())


# --------------------------------------------------------------------------- progress


class Terminal:
    """A stand-in for stderr that says it is a terminal."""

    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass

    def isatty(self):
        return True


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch, capsys):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    sweep(fragile, grid={"x": [1, 3]}, repeats=2, workers=1)
    assert "sweep" in terminal.text and "4/4" in terminal.text
    terminal.text = ""
    sweep(fragile, grid={"x": [1, 3]}, workers=1, progress=False)
    assert terminal.text == ""
    monkeypatch.undo()
    sweep(fragile, grid={"x": [1, 3]}, workers=1)  # pytest's captured stderr: no terminal
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- bad input


def test_an_unreachable_scheduler_fails_within_the_timeout_and_writes_nothing(tmp_path):
    out = tmp_path / "results.parquet"
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="^scheduler: no Dask scheduler answered"):
        sweep(
            fragile,
            grid={"x": [1]},
            scheduler=f"tcp://127.0.0.1:{free_port()}",
            connect_timeout=1.0,
            out=out,
        )
    assert time.monotonic() - start < 10
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "function, grid, options, error, message",
    [
        (fragile, {}, {}, ValueError, "^grid: it is empty"),
        (fragile, {"x": []}, {}, ValueError, "^grid: parameter 'x' has no values"),
        (fragile, {"x": [1], "y": [2]}, {}, ValueError, r"^grid: fragile\(x, seed\) takes no"),
        (drop, {"height": [1]}, {}, ValueError, "^grid: .* needs 'restitution'"),
        ("fragile", {"x": [1]}, {}, TypeError, "^function: expected a callable, got str"),
        (fragile, {"x": [1]}, {"repeats": 0}, ValueError, "^repeats"),
        (fragile, {"x": [1]}, {"workers": 0}, ValueError, "^workers"),
        (fragile, {"x": [1]}, {"workers": 2, "scheduler": "tcp://x:1"}, ValueError, "^workers"),
        (fragile, {"x": [1]}, {"scheduler": "tcp://x:1", "client": 1}, ValueError, "^scheduler"),
        (fragile, {"x": [1]}, {"client": "tcp://x:1"}, TypeError, "^client"),
        (fragile, {"x": [1]}, {"out": "results.xlsx"}, ValueError, "^out: must end in"),
        (fragile, {"x": [1]}, {"out": "nowhere/results.csv"}, ValueError, "^out: folder"),
        (lambda x: {}, {"x": [1, 2]}, {"workers": 2}, TypeError, "^function: worker processes"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(
    tmp_path, monkeypatch, function, grid, options, error, message
):
    monkeypatch.chdir(tmp_path)
    options = {"out": "results.csv", **options}
    with pytest.raises(error, match=message):
        sweep(function, grid, **options)
    assert list(tmp_path.iterdir()) == []


def test_a_file_of_another_sweep_is_not_resumed_nor_changed(tmp_path):
    out = tmp_path / "results.csv"
    out.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="^out: .* is not the results of a sweep over x"):
        sweep(fragile, grid={"x": [1]}, workers=1, out=out)
    assert out.read_text() == "a,b\n1,2\n"
