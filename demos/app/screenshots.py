"""Regenerate the screenshots of docs/demos.md: ``python -m demos.app.screenshots [NAME...]``.

Each scene runs offscreen for the number of frames below (chosen to catch it mid-action:
the ball in the pyramid, the break on the table) and its last frame is saved as
docs/images/NAME.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import registry
from .runner import RunOptions, run

FRAMES = {
    "sat": 45,
    "sweep": 200,
    "pyramid": 125,
    "stack": 200,
    "rain": 300,
    "bullets": 200,
    "billiards": 100,
    "concave": 240,
    "broadphase": 90,
    "platformer": 120,
    "joints": 150,
    "vehicle": 200,
}
FOLDER = Path(__file__).resolve().parents[2] / "docs" / "images"


def main(names: list[str]) -> int:
    for name in names or list(FRAMES):
        path = FOLDER / f"{name}.png"
        options = RunOptions(headless=True, frames=FRAMES.get(name, 120), screenshot=path)
        run(registry.lookup(name), options)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
