"""Experiments: parameter sweeps, recorded trajectories and pictures of worlds.

- ``sweep(function, grid, repeats=1, ...)``: run a function of keyword parameters over a
  grid, on local processes or a Dask cluster, into a pandas table (``engine.experiments.sweep``).
- ``Batched(build, run)``: an experiment whose runs differ only in settings and initial
  state, which ``sweep`` runs a chunk at a time as the copies of one WorldBatch.
- ``record(world, steps, every=1)``: step a world and keep its states and conservation
  read-outs as a ``Trajectory``; ``load(path)`` reads a saved one.
- ``draw(world, ax=None)`` and ``draw.trajectory(trajectory, ax=None)``: matplotlib
  pictures.

Importing this package needs numpy only; pandas, tqdm, pyarrow and matplotlib (the
``experiments`` extra) and Dask (the ``cluster`` extra) are imported when used.
"""

from .batched import Batched
from .drawing import draw
from .sweep import sweep
from .trajectory import Trajectory, load, record

__all__ = ["Batched", "Trajectory", "draw", "load", "record", "sweep"]
