"""Experiments: parameter sweeps over a grid, on local processes or a Dask cluster.

``sweep(function, grid, repeats=1, ...)`` runs a function of keyword parameters over a
grid and gathers one pandas table row per run (see ``engine.experiments.sweep``).

Importing this package needs numpy only; pandas, pyarrow and tqdm (the ``experiments``
extra) and Dask (the ``cluster`` extra) are imported when used.
"""

from .sweep import sweep

__all__ = ["sweep"]
