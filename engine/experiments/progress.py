"""The sweep's progress bar: done / total, rate and time left, on the terminal only."""

from __future__ import annotations

from .extras import require


class Silent:
    """Stands in for the bar when it is off."""

    def update(self, count: int) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


def progress_bar(total: int, done: int, enabled: bool):
    """A tqdm bar over ``total`` runs of which ``done`` were already finished (resumed).

    Off when ``enabled`` is False; tqdm itself turns it off when stderr is not a terminal.
    """
    if not enabled:
        return Silent()
    tqdm = require("tqdm", "the sweep's progress bar (or progress=False)")
    # disable=None: tqdm shows the bar only on a terminal
    return tqdm.tqdm(total=total, initial=done, unit="run", desc="sweep", disable=None)
