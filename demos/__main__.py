"""`python -m demos` lists the scenes; `python -m demos NAME` runs one (see demos.app.cli)."""

import sys

from .app.cli import main

if __name__ == "__main__":
    sys.exit(main())
