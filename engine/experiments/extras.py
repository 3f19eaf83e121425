"""Optional dependencies, imported when a piece needs them.

``engine`` depends on numpy alone; the experiment tools lean on pandas, pyarrow, tqdm and
matplotlib (the ``experiments`` extra) and on Dask (the ``cluster`` extra). They are
imported at the moment they are used, so that ``import engine.experiments`` works without
them and the error, when one is missing, says which extra to install.
"""

from __future__ import annotations

import importlib

# Which extra provides each optional module.
EXTRA_OF = {
    "pandas": "experiments",
    "pyarrow": "experiments",
    "tqdm": "experiments",
    "matplotlib": "experiments",
    "distributed": "cluster",
    "cloudpickle": "cluster",
}


def require(module: str, purpose: str):
    """Import and return ``module`` (a dotted name); if it is missing, raise a
    ModuleNotFoundError naming the extra that provides it and what needed it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        top = module.partition(".")[0]
        extra = EXTRA_OF.get(top)
        if extra is None or error.name not in (top, module):
            raise  # not one of ours, or a broken install inside the package: as it is
        raise ModuleNotFoundError(
            f"{purpose} needs {top}, from the '{extra}' extra: pip install 'engine[{extra}]'",
            name=top,
        ) from error
