"""`python -m demos` lists the scenes; `python -m demos NAME` runs one."""

from __future__ import annotations

import sys

from . import sat_walkthrough

SCENES = {
    "sat": ("the separating axis test on worked examples, in the terminal", sat_walkthrough.main),
}
DEFAULT = "sat"


def main(argv: list[str]) -> int:
    if not argv:
        print("scenes (python -m demos NAME):")
        for name, (summary, _) in SCENES.items():
            print(f"  {name:<12} {summary}")
        return 0
    name = argv[0]
    if name not in SCENES:
        print(f"unknown scene {name!r}; choose from: {', '.join(SCENES)}", file=sys.stderr)
        return 2
    SCENES[name][1]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
