"""A port of Gymnasium's LunarLander (a Box2D 2.3 scene) to the engine, for measuring the
step on a small jointed world: a lander on two legs with limited, motorised hinges, over a
terrain of eleven segments, flown by a hand-written controller.

The sizes, masses, engine powers and the 50 Hz step are Gymnasium's (``SCALE`` 30 pixels
a metre). The legs are made as Gymnasium makes them: beside the hull, 0.6 m below where
their hinges hold them and 0.45 rad outside their limits, jointed by Box2D's local
anchors, reference angle and limits, so that the joints pull them into place while the
lander falls. One thing differs from the Box2D scene: the randomness (terrain heights,
the initial push, the engines' dispersion) comes from one numpy generator per episode,
not Gymnasium's.

An episode ends as Gymnasium's does: the lander's hull touches the ground (a crash), it
leaves the screen sideways, or it falls asleep (landed); Gymnasium's time limit is 1,000
steps.

    python -m bench.lander            # 20 episodes with the controller, and their figures
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine import World
from engine.envs.lander_world import (
    CHUNKS,
    FPS,
    HEIGHT,
    INITIAL_RANDOM,
    LEFT,
    LEG_DOWN,
    MAIN,
    NOTHING,
    RIGHT,
    SCALE,
    WIDTH,
    add_craft,
    add_terrain,
    engine_pushes,
    surface,
)

MAX_STEPS = 1000  # Gymnasium's time limit
# The legs start outside their limits, as Gymnasium makes them: the limit excess counts
# from this step on, as the Box2D twin's does.
PULL_IN_STEPS = 100


@dataclass
class Outcome:
    """How one episode went."""

    steps: int = 0
    ending: str = "timeout"  # "landed" (asleep), "crashed", "out" or "timeout"
    reward: float = 0.0
    # The furthest either hinge went past a limit, rad, and the widest a hinge opened, m.
    limit_excess: float = 0.0
    hinge_gap: float = 0.0
    # Steps from the first leg's touch to sleep (None: not asleep).
    settle_steps: int | None = None
    speeds: list = field(default_factory=list)  # the hull's speed each step, m/s


class Lander:
    """One episode's world: terrain, lander and legs, from ``seed``.

    world_settings: keyword arguments for ``World`` (the default World's unless given).
    """

    def __init__(self, seed: int, **world_settings):
        self.random = np.random.default_rng(seed)
        self.world = World(dt=1.0 / FPS, gravity=(0.0, -10.0), **world_settings)
        self._terrain()
        self._craft()
        push = self.random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM, size=2)
        self.hull.apply_force(push)
        self.legs_down = [False, False]
        self.crashed = False
        self.shaping = None
        self.first_touch = None

    def _terrain(self) -> None:
        xs, smooth, self.pad = surface(self.random.uniform(0.0, HEIGHT / 2, size=CHUNKS + 1))
        self.ground = add_terrain(self.world, xs, smooth)
        self.surface = list(zip(xs, smooth))

    def _craft(self) -> None:
        self.hull, self.legs, self.hinges = add_craft(self.world)

    def observe(self) -> np.ndarray:
        """Gymnasium's observation (8,): position and velocity scaled to the screen, the
        hull's angle and scaled turning rate, and whether each leg touches the ground."""
        x, y = self.hull.position
        vx, vy = self.hull.velocity
        return np.array([
            (x - WIDTH / 2) / (WIDTH / 2),
            (y - (self.pad[2] + LEG_DOWN / SCALE)) / (HEIGHT / 2),
            vx * (WIDTH / 2) / FPS,
            vy * (HEIGHT / 2) / FPS,
            self.hull.angle,
            20.0 * self.hull.angular_velocity / FPS,
            float(self.legs_down[0]),
            float(self.legs_down[1]),
        ])  # fmt: skip

    def _fire(self, action: int) -> tuple[float, float]:
        """Apply the engines' impulses for ``action``; returns (main, side) power used."""
        spread = self.random.uniform(-1.0, 1.0, size=2) / SCALE
        push = engine_push(action, self.hull.angle, self.hull.position, spread)
        if push is None:
            return 0.0, 0.0
        impulse, point = push
        self.hull.apply_impulse(impulse, point=point)
        return (1.0, 0.0) if action == MAIN else (0.0, 1.0)

    def _touches(self) -> None:
        """Which legs touch the ground, and whether the hull does, after the step."""
        down = [False, False]
        for contact in self.world.contacts:
            pair = (contact.body_a, contact.body_b)
            if self.ground not in pair:
                continue
            if self.hull in pair:
                self.crashed = True
            for i, leg in enumerate(self.legs):
                down[i] = down[i] or leg in pair
        self.legs_down = down

    def step(self, action: int) -> tuple[np.ndarray, float, str | None]:
        """Fire, step, and judge: (observation (8,), reward, ending or None)."""
        main, side = self._fire(action)
        self.world.step()
        self._touches()
        state = self.observe()
        shaping = (
            -100 * math.hypot(state[0], state[1]) - 100 * math.hypot(state[2], state[3])
            - 100 * abs(state[4]) + 10 * state[6] + 10 * state[7]
        )  # fmt: skip
        reward = 0.0 if self.shaping is None else shaping - self.shaping
        self.shaping = shaping
        reward -= 0.3 * main + 0.03 * side
        if self.crashed or abs(state[0]) >= 1.0:
            return state, -100.0, "crashed" if self.crashed else "out"
        if not self.hull.awake:
            return state, 100.0, "landed"
        return state, reward, None

    def limit_excess(self) -> float:
        """How far past a limit either hinge is, rad (0 within both)."""
        worst = 0.0
        for hinge in self.hinges:
            worst = max(worst, hinge.lower - hinge.angle, hinge.angle - hinge.upper)
        return worst

    def hinge_gap(self) -> float:
        """How far apart either hinge's two anchors are, m."""
        return max(float(np.hypot(*(h.anchor_a - h.anchor_b))) for h in self.hinges)


def engine_push(action: int, angle: float, origin, spread: np.ndarray):
    """The impulse (2,) and the world point (2,) it acts at for ``action`` fired from a
    hull at ``angle`` whose origin is ``origin`` (2,), with the engine's spread (2,) in
    metres (``engine.envs.lander_world.engine_pushes`` at full power); None when no engine
    fires."""
    main = 1.0 if action == MAIN else 0.0
    side = 1.0 if action in (LEFT, RIGHT) else 0.0
    pushes = engine_pushes(angle, origin, spread, main, side, action - 2)
    return pushes[0] if pushes else None


def controller(state: np.ndarray) -> int:
    """A hand-tuned pilot: lean toward the pad, hover lower the nearer it is, and once a
    leg is down only brake the fall. Returns the action (0 to 3)."""
    x, y, vx, vy, angle, spin, left_down, right_down = state
    lean = float(np.clip(0.5 * x + vx, -0.4, 0.4))
    hover = 0.55 * abs(x)
    turn_need = 0.5 * (lean - angle) - spin
    lift_need = 0.5 * (hover - y) - 0.5 * vy
    if left_down or right_down:
        turn_need, lift_need = 0.0, -0.5 * vy
    if lift_need > abs(turn_need) and lift_need > 0.05:
        return MAIN
    if turn_need < -0.05:
        return RIGHT
    if turn_need > 0.05:
        return LEFT
    return NOTHING


def episode(seed: int, max_steps: int = MAX_STEPS, **world_settings) -> Outcome:
    """Fly one episode with ``controller``; returns its Outcome."""
    lander = Lander(seed, **world_settings)
    outcome = Outcome()
    state = lander.observe()
    for step in range(max_steps):
        state, reward, ending = lander.step(controller(state))
        outcome.steps = step + 1
        outcome.reward += reward
        if step >= PULL_IN_STEPS:
            outcome.limit_excess = max(outcome.limit_excess, lander.limit_excess())
        outcome.hinge_gap = max(outcome.hinge_gap, lander.hinge_gap())
        outcome.speeds.append(float(np.hypot(*lander.hull.velocity)))
        if lander.first_touch is None and any(lander.legs_down):
            lander.first_touch = step
        if ending is not None:
            outcome.ending = ending
            if ending == "landed" and lander.first_touch is not None:
                outcome.settle_steps = step - lander.first_touch
            break
    return outcome


def main(episodes: int = 20) -> None:
    endings: dict[str, int] = {}
    for seed in range(episodes):
        outcome = episode(seed)
        endings[outcome.ending] = endings.get(outcome.ending, 0) + 1
        print(
            f"seed {seed:2d}: {outcome.ending:8s} after {outcome.steps:4d} steps, reward "
            f"{outcome.reward:7.1f}, limit excess {outcome.limit_excess:.4f} rad, hinge gap "
            f"{1000 * outcome.hinge_gap:.2f} mm, settled in {outcome.settle_steps} steps"
        )
    print(endings)


if __name__ == "__main__":
    main()
