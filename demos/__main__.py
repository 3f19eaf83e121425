"""`python -m demos` lists the scenes; `python -m demos NAME` runs one (see demos.cli)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
