"""Fixed-step time keeping for a demo: pause, single steps, per-step hooks, timing.

Real time is fed to ``World.advance`` at most one step's worth at a time, so that the
scene's per-step hooks (dragging, damping, spawning) run before every step and the poses
before the latest step can be kept for interpolation. The world therefore runs at the same
speed whatever the frame rate: a slow frame runs more steps, a fast one may run none.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from engine import World

from .interpolation import PoseHistory

# Most steps one frame may run. After a long stall (a window drag, a breakpoint) the lost
# time is dropped instead of being simulated in a burst that would stall the next frame.
MAX_STEPS_PER_FRAME = 4


class Stepper:
    """Runs ``world`` in fixed steps; ``hooks`` are called with the world before each step."""

    def __init__(self, world: World, hooks: list[Callable[[World], None]] | None = None):
        self.world = world
        self.hooks = list(hooks or [])
        self.paused = False
        self.alpha = 0.0
        self.step_ms = 0.0  # smoothed wall time of one world.step, milliseconds
        self.steps = 0
        self.history = PoseHistory()
        self.history.capture(world)

    def advance(self, seconds: float) -> int:
        """Let ``seconds`` of real time pass (nothing happens while paused); returns steps run."""
        if self.paused:
            return 0
        dt = self.world.dt
        remaining = min(float(seconds), MAX_STEPS_PER_FRAME * dt)
        ran = 0
        while True:
            until_next = (1.0 - self.alpha) * dt
            if ran == MAX_STEPS_PER_FRAME:
                return ran
            if remaining < until_next:
                # Bank the rest; shaved a hair so rounding cannot complete a step here,
                # which would run it without the hooks.
                self.alpha = self.world.advance(max(remaining * (1.0 - 1e-9), 0.0))
                return ran
            # A hair more than the time to the next step, so that rounding in the world's
            # accumulator cannot leave that step undone (2e-12 s, far below a frame).
            self._run(partial(self.world.advance, until_next + 1e-12 * dt))
            remaining -= until_next
            ran += 1

    def step_once(self) -> None:
        """Run exactly one step now (the S key), paused or not; draw the result as is."""
        self._run(self.world.step)
        self.alpha = 1.0

    def poses(self) -> np.ndarray:
        """(N, 3) poses to draw: between the last two steps by ``alpha``."""
        return self.history.blend(self.world, self.alpha)

    def _run(self, step: Callable[[], object]) -> None:
        for hook in self.hooks:
            hook(self.world)
        self.history.capture(self.world)
        start = time.perf_counter()
        result = step()
        elapsed = (time.perf_counter() - start) * 1000.0
        # Exponential smoothing keeps the HUD figure readable instead of flickering.
        self.step_ms = elapsed if self.steps == 0 else 0.9 * self.step_ms + 0.1 * elapsed
        self.steps += 1
        if isinstance(result, float):
            self.alpha = result
