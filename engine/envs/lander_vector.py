"""``LanderVector``: many lander episodes stepped together on a ``WorldBatch``.

Each of ``num_envs`` copies is the ``Lander`` env's episode: its own terrain (the batch's
``reshape`` gives every copy its ground), push, wind and engines' dispersion, drawn from
its own random generator in the single env's order, so copy ``i`` of a vector env reset
with seed ``s`` runs bit for bit the episode of ``Lander().reset(seed=s + i)`` given the
same actions (``tests/test_envs_lander_vector.py``). All copies step in one compiled call
(``engine.batch_step``), spread over the cores.

An episode that ends is restarted on the next ``step`` call, as Gymnasium's vector envs
do by default (``AutoresetMode.NEXT_STEP``): that call ignores the copy's action and
returns its new episode's first observation, with reward 0 and neither flag set.
"""

from __future__ import annotations

import math

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..batch import WorldBatch
from ..world import World
from .lander import ACTIONS, OBSERVATION_HIGH, OBSERVATION_LOW, checked_options
from .lander_world import (
    CHUNKS,
    FPS,
    HEIGHT,
    INITIAL_RANDOM,
    LEFT,
    LEG_DOWN,
    MAIN,
    MAIN_ENGINE_DOWN,
    MAIN_ENGINE_POWER,
    RIGHT,
    SCALE,
    SIDE_ENGINE_AWAY,
    SIDE_ENGINE_BACK,
    SIDE_ENGINE_HEIGHT,
    SIDE_ENGINE_POWER,
    WIDTH,
    add_craft,
    add_terrain,
    shaping,
    surface,
    terrain_shapes,
)


class LanderVector(gymnasium.vector.VectorEnv):
    """``num_envs`` lander episodes (``engine.envs.Lander``) stepped together.

    The options are ``Lander``'s and apply to every copy. Observations (num_envs, 8)
    float32, rewards (num_envs,), terminations and truncations (num_envs,) bool; actions
    (num_envs,) ints in 0-3, or (num_envs, 2) throttles with ``continuous``. ``batch`` is
    the WorldBatch the copies live in (``batch.world(i)`` is copy i as a World).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, continuous: bool = False, gravity: float = -10.0,
                 enable_wind: bool = False, wind_power: float = 15.0,
                 turbulence_power: float = 1.5, max_episode_steps: int = 1000):  # fmt: skip
        if isinstance(num_envs, bool) or not isinstance(num_envs, int):
            raise TypeError(f"num_envs: expected an int, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs: must be at least 1, got {num_envs}")
        gravity, max_episode_steps = checked_options(gravity, max_episode_steps)
        self.num_envs = num_envs
        self.continuous = bool(continuous)
        self.enable_wind = bool(enable_wind)
        self.wind_power = float(wind_power)
        self.turbulence_power = float(turbulence_power)
        self.max_episode_steps = max_episode_steps
        self.render_mode = None
        self.single_observation_space = spaces.Box(
            OBSERVATION_LOW.astype(np.float32), OBSERVATION_HIGH.astype(np.float32)
        )
        if self.continuous:
            self.single_action_space = spaces.Box(-1, +1, (2,), dtype=np.float32)
        else:
            self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # The template: a flat terrain (each episode gives its copy its own) and the craft.
        world = World(dt=1.0 / FPS, gravity=(0.0, float(gravity)))
        xs, smooth, _ = surface(np.zeros(CHUNKS + 1))
        ground = add_terrain(world, xs, smooth)
        hull, legs, _ = add_craft(world)
        self.batch = WorldBatch(world, num_envs)
        batch = self.batch
        self._ground, self._hull = batch.index_of(ground), batch.index_of(hull)
        self._legs = [batch.index_of(leg) for leg in legs]
        self._pairs = [(self._ground, self._hull)] + [(self._ground, leg) for leg in self._legs]
        self._offset = world._bodies.columns()["origin_offset"][self._hull].copy()
        self._randoms = [np.random.default_rng() for _ in range(num_envs)]
        self._pad_height = np.zeros(num_envs)
        self._previous = np.full(num_envs, np.nan)  # last shaping; NaN at an episode's start
        self._elapsed = np.zeros(num_envs, dtype=np.int64)
        self._legs_down = np.zeros((num_envs, 2), dtype=np.bool_)
        self._wind = np.zeros((num_envs, 2), dtype=np.int64)  # wind and turbulence indices
        self._restart = np.ones(num_envs, dtype=np.bool_)
        self._started = False

    # -- episodes --------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Start a new episode in every copy. seed: an int (copy i takes seed + i, as
        Gymnasium's vector envs give it), a list of num_envs seeds or None. Returns
        (observations (num_envs, 8) float32, {})."""
        if seed is not None:
            seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: expected {self.num_envs} seeds, got {len(seeds)}")
            self._randoms = [np.random.default_rng(value) for value in seeds]
        self._restart[:] = True
        self._started = True
        idle = np.zeros((self.num_envs, 2)) if self.continuous else np.zeros(self.num_envs, int)
        observations = self._advance(idle)[0]
        return observations, {}

    def _begin(self, copies: np.ndarray) -> None:
        """New episodes in ``copies`` (K,): terrain, push and wind from each copy's random
        generator, in the single env's order."""
        batch = self.batch
        batch.reset(copies)
        pushes = np.zeros((self.num_envs, 2))
        chosen = np.zeros(self.num_envs, dtype=np.bool_)
        for c in copies:
            random = self._randoms[c]
            xs, smooth, pad = surface(random.uniform(0, HEIGHT / 2, size=(CHUNKS + 1,)))
            self._pad_height[c] = pad[2]
            batch.reshape(self._ground, terrain_shapes(xs, smooth), [c])
            pushes[c] = (random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
                         random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM))  # fmt: skip
            if self.enable_wind:
                self._wind[c] = (random.integers(-9999, 9999), random.integers(-9999, 9999))
            chosen[c] = True
        batch.apply_force(self._hull, pushes, copies=chosen)
        self._previous[copies] = np.nan
        self._elapsed[copies] = 0
        self._legs_down[copies] = False

    # -- stepping --------------------------------------------------------------------------
    def step(self, actions):
        """Fire each copy's engines for its action, step every copy by 1/50 s and judge.
        Returns (observations (num_envs, 8) float32, rewards (num_envs,), terminations,
        truncations (num_envs,) bool, {})."""
        if not self._started:
            raise RuntimeError("step: call reset() first")
        return self._advance(actions)

    def _advance(self, actions):
        restart = self._restart.copy()
        if restart.any():
            self._begin(np.flatnonzero(restart))
        main, side, direction = self._powers(actions)
        main[restart] = side[restart] = 0.0  # a new episode's first step fires nothing
        if self.enable_wind:
            self._blow(~self._legs_down.any(axis=1))
        self._fire(main, side, direction)
        batch = self.batch
        batch.step()
        self._elapsed += 1
        touching = batch.touching(self._pairs)
        self._legs_down = touching[:, 1:]
        state = self._observe()
        potential = shaping(state.T)
        reward = np.where(np.isnan(self._previous), 0.0, potential - self._previous)
        self._previous = potential
        reward -= main * 0.30 + side * 0.03
        crashed = touching[:, 0] | (np.abs(state[:, 0]) >= 1.0)
        reward[crashed] = -100.0
        landed = ~batch.awake[:, self._hull]
        reward[landed] = 100.0
        terminated = crashed | landed
        truncated = ~terminated & (self._elapsed >= self.max_episode_steps)
        # A copy that restarted: its new episode's first observation, nothing else.
        reward[restart] = 0.0
        terminated[restart] = truncated[restart] = False
        self._elapsed[restart] = 0
        self._restart = terminated | truncated
        return state.astype(np.float32), reward, terminated, truncated, {}

    def _powers(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(main, side, direction) (num_envs,) each, as ``Lander`` reads one action."""
        count = self.num_envs
        if self.continuous:
            throttle = np.asarray(actions, dtype=np.float64)
            if throttle.shape != (count, 2) or not np.isfinite(throttle).all():
                raise ValueError(f"actions: expected ({count}, 2) finite throttles")
            throttle = np.clip(throttle, -1.0, 1.0)
            main = np.where(throttle[:, 0] > 0.0, (np.clip(throttle[:, 0], 0, 1) + 1.0) * 0.5, 0.0)
            firing = np.abs(throttle[:, 1]) > 0.5
            side = np.where(firing, np.clip(np.abs(throttle[:, 1]), 0.5, 1.0), 0.0)
            direction = np.where(firing, np.sign(throttle[:, 1]), 0.0).astype(np.int64)
            return main, side, direction
        action = np.asarray(actions)
        if action.shape != (count,) or not np.isin(action, ACTIONS).all() or action.dtype == bool:
            raise ValueError(f"actions: expected ({count},) actions in 0, 1, 2 or 3")
        main = (action == MAIN).astype(np.float64)
        side = ((action == LEFT) | (action == RIGHT)).astype(np.float64)
        return main, side, np.where(side > 0, action - 2, 0).astype(np.int64)

    def _blow(self, flying: np.ndarray) -> None:
        """Gymnasium's wind and turbulence on the hulls of the copies ``flying`` (C,)."""
        winds, turns = np.zeros((self.num_envs, 2)), np.zeros(self.num_envs)
        for c in np.flatnonzero(flying):
            wind, turn = self._wind[c]
            winds[c, 0] = math.tanh(math.sin(0.02 * wind) + math.sin(math.pi * 0.01 * wind))
            winds[c, 0] *= self.wind_power
            turns[c] = math.tanh(math.sin(0.02 * turn) + math.sin(math.pi * 0.01 * turn))
            turns[c] *= self.turbulence_power
            self._wind[c] += 1
        self.batch.apply_force(self._hull, winds, copies=flying)
        self.batch.apply_torque(self._hull, turns, copies=flying)

    def _fire(self, main: np.ndarray, side: np.ndarray, direction: np.ndarray) -> None:
        """The engines' impulses on each copy's hull, as ``engine_pushes`` gives them for
        one (the dispersion drawn in every copy, firing or not, as the single env does)."""
        count = self.num_envs
        tip = np.zeros((count, 2))
        dispersion = np.zeros((count, 2))
        angles = self.batch.angles[:, self._hull]
        for c in range(count):
            dispersion[c] = self._randoms[c].uniform(-1.0, +1.0, size=2) / SCALE
            angle = float(angles[c])
            tip[c] = (math.sin(angle), math.cos(angle))
        across = np.column_stack([-tip[:, 1], tip[:, 0]])
        origin = self._origins()
        reach = MAIN_ENGINE_DOWN / SCALE + 2 * dispersion[:, 0]
        ox = tip[:, 0] * reach + across[:, 0] * dispersion[:, 1]
        oy = -tip[:, 1] * reach - across[:, 1] * dispersion[:, 1]
        power = MAIN_ENGINE_POWER * main
        firing = main > 0.0
        if firing.any():
            self.batch.apply_impulse(
                self._hull, np.column_stack([-ox * power, -oy * power]),
                np.column_stack([origin[:, 0] + ox, origin[:, 1] + oy]), copies=firing,
            )  # fmt: skip
        firing = side > 0.0
        if firing.any():
            sideways = 3 * dispersion[:, 1] + direction * SIDE_ENGINE_AWAY / SCALE
            ox = tip[:, 0] * dispersion[:, 0] + across[:, 0] * sideways
            oy = -tip[:, 1] * dispersion[:, 0] - across[:, 1] * sideways
            at = np.column_stack([
                origin[:, 0] + ox - tip[:, 0] * SIDE_ENGINE_BACK / SCALE,
                origin[:, 1] + oy + tip[:, 1] * SIDE_ENGINE_HEIGHT / SCALE,
            ])  # fmt: skip
            power = SIDE_ENGINE_POWER * side
            self.batch.apply_impulse(
                self._hull, np.column_stack([-ox * power, -oy * power]), at, copies=firing
            )

    def _origins(self) -> np.ndarray:
        """(C, 2) where each copy's hull frame's origin is (``Body.position``)."""
        batch = self.batch
        centres = np.asarray(batch.positions[:, self._hull])
        angles = batch.angles[:, self._hull]
        offset = self._offset
        turned = np.zeros((self.num_envs, 2))
        for c in range(self.num_envs):
            cos, sin = math.cos(float(angles[c])), math.sin(float(angles[c]))
            turned[c] = (cos * offset[0] - sin * offset[1], sin * offset[0] + cos * offset[1])
        return centres + turned

    def _observe(self) -> np.ndarray:
        """(C, 8) float64 observations, as ``engine.envs.lander_world.observation``."""
        batch = self.batch
        position = self._origins()
        velocity = batch.velocities[:, self._hull]
        return np.column_stack([
            (position[:, 0] - WIDTH / 2) / (WIDTH / 2),
            (position[:, 1] - (self._pad_height + LEG_DOWN / SCALE)) / (HEIGHT / 2),
            velocity[:, 0] * (WIDTH / 2) / FPS,
            velocity[:, 1] * (HEIGHT / 2) / FPS,
            batch.angles[:, self._hull],
            20.0 * batch.angular_velocities[:, self._hull] / FPS,
            self._legs_down[:, 0].astype(np.float64),
            self._legs_down[:, 1].astype(np.float64),
        ])  # fmt: skip
