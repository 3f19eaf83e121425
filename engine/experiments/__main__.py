"""``python -m engine.experiments FILE.py:FUNCTION --grid ...``: see engine.experiments.cli."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
