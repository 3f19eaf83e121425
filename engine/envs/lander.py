"""``Lander``: Gymnasium's LunarLander-v3 as a ``gymnasium.Env`` on the engine.

The scene, the observation, the action spaces (four discrete actions, or two continuous
throttles), the reward, the endings and the random numbers are Gymnasium's, drawn from the
env's ``np_random`` in the order Gymnasium draws them (terrain heights, the initial push,
the wind's offsets, then each step the engines' dispersion), so a seed gives the terrain
and push it gives there. An episode ends when the hull touches the ground (-100), the
lander leaves the screen sideways (-100) or it falls asleep, landed (+100); it is cut off
(truncated) after ``max_episode_steps`` steps, Gymnasium's 1,000 for LunarLander.

The physics is the engine's default World at 50 Hz, not Box2D's, so a trajectory is not
Box2D's to the bit; Gymnasium's own ``heuristic`` controller lands it as it lands Box2D's
(``tests/test_envs_lander.py``).
"""

from __future__ import annotations

import math

import gymnasium
import numpy as np
from gymnasium import spaces

from ..candidate_pairs import pair_key
from ..world import World
from .lander_world import (
    CHUNKS,
    FPS,
    HEIGHT,
    INITIAL_RANDOM,
    LEFT,
    MAIN,
    RIGHT,
    SCALE,
    add_craft,
    add_terrain,
    engine_pushes,
    observation,
    shaping,
    surface,
)

ACTIONS = (0, 1, 2, 3)
# Gymnasium's v3 observation bounds: position, velocity, angle, turning rate, legs.
OBSERVATION_LOW = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, 0.0, 0.0])
OBSERVATION_HIGH = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0])


def checked_options(gravity, max_episode_steps) -> tuple[float, int]:
    """The options both lander envs take, checked: gravity (m/s^2) in Gymnasium's range
    (-12, 0), and max_episode_steps an int >= 1. ValueError or TypeError naming them."""
    if not -12.0 < gravity < 0.0:
        raise ValueError(f"gravity: must be between -12 and 0, got {gravity}")
    if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, int):
        raise TypeError(
            f"max_episode_steps: expected an int, got {type(max_episode_steps).__name__}"
        )
    if max_episode_steps < 1:
        raise ValueError(f"max_episode_steps: must be at least 1, got {max_episode_steps}")
    return float(gravity), max_episode_steps


class Lander(gymnasium.Env):
    """Gymnasium's LunarLander-v3 on the engine (see the module's docstring).

    continuous: two throttles in [-1, 1] (main: off below 0, else 50 % to 100 %; side:
    off within +-0.5, else left or right at 50 % to 100 %) instead of four actions (0
    nothing, 1 left engine, 2 main engine, 3 right engine); gravity: m/s^2, in (-12, 0);
    enable_wind, wind_power, turbulence_power: Gymnasium's wind and turbulence on the
    flying lander; max_episode_steps: steps before an episode is truncated; render_mode:
    None or "rgb_array" (a matplotlib picture of the world).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode=None, continuous: bool = False, gravity: float = -10.0,
                 enable_wind: bool = False, wind_power: float = 15.0,
                 turbulence_power: float = 1.5, max_episode_steps: int = 1000):  # fmt: skip
        gravity, max_episode_steps = checked_options(gravity, max_episode_steps)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode: None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.continuous = bool(continuous)
        self.gravity = float(gravity)
        self.enable_wind = bool(enable_wind)
        self.wind_power = float(wind_power)
        self.turbulence_power = float(turbulence_power)
        self.max_episode_steps = max_episode_steps
        self.observation_space = spaces.Box(
            OBSERVATION_LOW.astype(np.float32), OBSERVATION_HIGH.astype(np.float32)
        )
        if self.continuous:
            self.action_space = spaces.Box(-1, +1, (2,), dtype=np.float32)
        else:
            self.action_space = spaces.Discrete(4)
        self.world = None

    def reset(self, *, seed=None, options=None):
        """A new episode: terrain, lander and its push from the env's random numbers.
        Returns (observation (8,) float32, {}) after one step with the engines off, as
        Gymnasium's does."""
        super().reset(seed=seed)
        random = self.np_random
        world = World(dt=1.0 / FPS, gravity=(0.0, self.gravity))
        xs, smooth, pad = surface(random.uniform(0, HEIGHT / 2, size=(CHUNKS + 1,)))
        self.pad = pad
        self.terrain = list(zip(xs, smooth))
        self.ground = add_terrain(world, xs, smooth)
        self.hull, self.legs, self.hinges = add_craft(world)
        push = (random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
                random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM))  # fmt: skip
        self.hull.apply_force(push)
        if self.enable_wind:
            self.wind_index = int(random.integers(-9999, 9999))
            self.turbulence_index = int(random.integers(-9999, 9999))
        self.world = world
        # The body-pair keys (``engine.events``) of the ground with the hull and each leg.
        self._pairs = [
            pair_key(self.ground.body_id, body.body_id) for body in (self.hull, *self.legs)
        ]
        self.legs_down = [False, False]
        self.game_over = False
        self.previous_shaping = None
        self.elapsed = 0
        state = self.step(np.zeros(2) if self.continuous else 0)[0]
        self.elapsed = 0
        return state, {}

    def step(self, action):
        """Fire the engines for ``action``, step the world by 1/50 s and judge: returns
        (observation (8,) float32, reward, terminated, truncated, {})."""
        if self.world is None:
            raise RuntimeError("step: call reset() first")
        main, side, direction = self._powers(action)
        if self.enable_wind and not (self.legs_down[0] or self.legs_down[1]):
            self._blow()
        hull = self.hull
        random = self.np_random
        dispersion = [random.uniform(-1.0, +1.0) / SCALE for _ in range(2)]
        for impulse, point in engine_pushes(
            hull.angle, hull.position, dispersion, main, side, direction
        ):
            hull.apply_impulse(impulse, point=point)
        self.world.step()
        self.elapsed += 1
        self._touches()
        state = observation(
            hull.position, hull.velocity, hull.angle, hull.angular_velocity, self.pad[2],
            self.legs_down,
        )  # fmt: skip
        potential = shaping(state)
        reward = 0.0 if self.previous_shaping is None else potential - self.previous_shaping
        self.previous_shaping = potential
        reward -= main * 0.30 + side * 0.03
        terminated = False
        if self.game_over or abs(state[0]) >= 1.0:
            terminated, reward = True, -100.0
        if not hull.awake:
            terminated, reward = True, +100.0
        truncated = not terminated and self.elapsed >= self.max_episode_steps
        return np.array(state, dtype=np.float32), float(reward), terminated, truncated, {}

    def _powers(self, action) -> tuple[float, float, int]:
        """(main power, side power, side direction) of an action, as Gymnasium reads it;
        ValueError naming an action outside the action space."""
        if self.continuous:
            throttle = np.asarray(action, dtype=np.float64)
            if throttle.shape != (2,) or not np.isfinite(throttle).all():
                raise ValueError(f"action: expected two finite throttles, got {action!r}")
            throttle = np.clip(throttle, -1.0, 1.0)
            main = (min(max(throttle[0], 0.0), 1.0) + 1.0) * 0.5 if throttle[0] > 0.0 else 0.0
            side, direction = 0.0, 0
            if abs(throttle[1]) > 0.5:
                direction = int(np.sign(throttle[1]))
                side = float(min(max(abs(throttle[1]), 0.5), 1.0))
            return float(main), side, direction
        if isinstance(action, (bool, np.bool_)) or action not in ACTIONS:
            raise ValueError(f"action: expected 0, 1, 2 or 3, got {action!r}")
        if action == MAIN:
            return 1.0, 0.0, 0
        if action in (LEFT, RIGHT):
            return 0.0, 1.0, int(action) - 2
        return 0.0, 0.0, 0

    def _blow(self) -> None:
        """Gymnasium's wind and turbulence on the flying hull: tanh(sin(2 k t) + sin(pi k
        t)), k = 0.01, from each episode's random offsets."""
        wind = math.tanh(
            math.sin(0.02 * self.wind_index) + math.sin(math.pi * 0.01 * self.wind_index)
        ) * self.wind_power  # fmt: skip
        self.wind_index += 1
        turn = math.tanh(
            math.sin(0.02 * self.turbulence_index)
            + math.sin(math.pi * 0.01 * self.turbulence_index)
        ) * self.turbulence_power  # fmt: skip
        self.turbulence_index += 1
        self.hull.apply_force((wind, 0.0))
        self.hull.apply_torque(turn)

    def _touches(self) -> None:
        """Which legs touch the ground after the step, and whether the hull does (the
        game is over): read from the world's touching pairs."""
        touching = self.world._event_log.contact_keys
        hull, left, right = (bool(np.isin(key, touching)) for key in self._pairs)
        self.game_over = self.game_over or hull
        self.legs_down = [left, right]

    def render(self):
        """An (H, W, 3) uint8 picture of the world (render_mode "rgb_array"), else None."""
        if self.render_mode != "rgb_array" or self.world is None:
            return None
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from ..experiments import draw

        figure = Figure(figsize=(6, 4), dpi=100)
        canvas = FigureCanvasAgg(figure)
        axes = figure.add_axes((0, 0, 1, 1))
        draw(self.world, axes)
        axes.set_xlim(0, 20)
        axes.set_ylim(0, HEIGHT)
        axes.set_axis_off()
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()
