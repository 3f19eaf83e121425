"""The terminal walkthrough of the separating axis test (no window): ``sat-text``."""

from __future__ import annotations

from ..app.registry import scene
from .sat_walkthrough import main


@scene("sat-text", "the SAT on worked examples, printed in the terminal", terminal=True)
def build() -> None:
    main()
