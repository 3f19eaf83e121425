"""Recorded trajectories: a world's states and conservation read-outs, frame by frame.

``record(world, steps, every)`` steps the world and keeps T = steps / every + 1 frames
(the state before the first step, then one every ``every`` steps) of its N bodies, in the
order of ``world.bodies``. The read-outs are the World's own (``kinetic_energy`` and
friends): they count the dynamic bodies only. A Trajectory saves to a .npz file of plain
arrays and a JSON header, read without pickle (``load``).

>>> from engine import World, Circle
>>> world = World()
>>> ball = world.add_body(Circle(0.5), position=(0, 10))
>>> trajectory = record(world, steps=60, every=10)
>>> trajectory.positions.shape, trajectory.time.shape
((7, 1, 2), (7,))
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..world import World
from .extras import require

FORMAT = "engine-trajectory"
VERSION = 1

# Name -> trailing shape, per frame: body fields have N rows, world read-outs one value.
BODY_FIELDS = {
    "positions": (2,),
    "angles": (),
    "velocities": (2,),
    "angular_velocities": (),
}
WORLD_FIELDS = {
    "kinetic_energy": (),
    "potential_energy": (),
    "momentum": (2,),
    "angular_momentum": (),
}
# Long-format field names for the dataframe, per array and trailing component.
LONG_NAMES = {
    "positions": ("x", "y"),
    "angles": ("angle",),
    "velocities": ("vx", "vy"),
    "angular_velocities": ("angular_velocity",),
    "kinetic_energy": ("kinetic_energy",),
    "potential_energy": ("potential_energy",),
    "momentum": ("momentum_x", "momentum_y"),
    "angular_momentum": ("angular_momentum",),
}


class Trajectory:
    """T frames of a world of N bodies (read-only arrays, float64):

    time (T,) s; positions (T, N, 2) m; angles (T, N) rad; velocities (T, N, 2) m/s;
    angular_velocities (T, N) rad/s; kinetic_energy, potential_energy (T,) J; momentum
    (T, 2) kg m/s; angular_momentum (T,) kg m^2/s about the origin; masses (N,) kg (inf
    for static and kinematic bodies); gravity (2,) m/s^2; dt: the world's step, s.
    """

    def __init__(self, arrays: dict, dt: float):
        names = ("time", "masses", "gravity", *BODY_FIELDS, *WORLD_FIELDS)
        missing = [name for name in names if name not in arrays]
        if missing:
            raise ValueError(f"arrays: missing {', '.join(missing)}")
        self.dt = float(dt)
        for name in names:
            array = np.array(arrays[name], dtype=np.float64)
            array.flags.writeable = False
            setattr(self, name, array)
        frames, bodies = len(self.time), len(self.masses)
        for name, trailing in {**BODY_FIELDS, **WORLD_FIELDS}.items():
            shape = (frames, bodies, *trailing) if name in BODY_FIELDS else (frames, *trailing)
            if getattr(self, name).shape != shape:
                raise ValueError(f"{name}: expected shape {shape}, got {getattr(self, name).shape}")

    def __len__(self) -> int:
        return len(self.time)

    @property
    def bodies(self) -> int:
        """N, the number of bodies."""
        return len(self.masses)

    @property
    def energy(self) -> np.ndarray:
        """(T,) kinetic plus potential energy, J."""
        return self.kinetic_energy + self.potential_energy

    def __repr__(self) -> str:
        span = f"t = {self.time[0]:g}..{self.time[-1]:g} s"
        bodies = f"{self.bodies} body" if self.bodies == 1 else f"{self.bodies} bodies"
        return f"Trajectory({len(self)} frames of {bodies}, {span})"

    def to_dataframe(self):
        """A long-format pandas DataFrame with columns ``time``, ``body``, ``field``,
        ``value``: one row per frame, body and scalar field.

        Body fields: x, y, angle, vx, vy, angular_velocity (``body`` is the index in
        ``world.bodies`` at recording). Read-outs of the whole world: kinetic_energy,
        potential_energy, momentum_x, momentum_y, angular_momentum (``body`` is <NA>).
        Rows are sorted by time, then body (world read-outs last), fields in the order
        listed here.
        """
        pandas = require("pandas", "Trajectory.to_dataframe")
        frames, bodies = len(self), self.bodies
        columns = []  # (T, K) blocks of values and their field names and bodies
        for name in BODY_FIELDS:
            values = getattr(self, name).reshape(frames, bodies, -1)
            for k, field in enumerate(LONG_NAMES[name]):
                columns.append((values[:, :, k], field, np.arange(bodies)))
        for name in WORLD_FIELDS:
            values = getattr(self, name).reshape(frames, 1, -1)
            for k, field in enumerate(LONG_NAMES[name]):
                columns.append((values[:, :, k], field, np.array([-1])))
        values = np.concatenate([block for block, _, _ in columns], axis=1)  # (T, K)
        body = np.concatenate([rows for _, _, rows in columns])
        field = np.concatenate([[name] * len(rows) for _, name, rows in columns])
        # Order the K columns by body (world read-outs last), fields as listed above.
        order = np.argsort(np.where(body < 0, bodies, body), kind="stable")
        body = np.tile(body[order], frames)
        return pandas.DataFrame(
            {
                "time": np.repeat(self.time, len(order)),
                "body": pandas.arrays.IntegerArray(np.maximum(body, 0), mask=body < 0),
                "field": np.tile(field[order], frames),
                "value": values[:, order].reshape(-1),
            }
        )

    def save(self, path) -> None:
        """Write to ``path`` (.npz: plain arrays and a JSON header; read with ``load``)."""
        path = _check_path(path)
        header = {"format": FORMAT, "version": VERSION, "dt": self.dt}
        arrays = {name: getattr(self, name) for name in ("time", "masses", "gravity")}
        arrays.update({name: getattr(self, name) for name in (*BODY_FIELDS, *WORLD_FIELDS)})
        with open(path, "wb") as file:  # a file object: numpy adds no second .npz
            np.savez(file, header=np.array(json.dumps(header)), **arrays)


def load(path) -> Trajectory:
    """A Trajectory from a file written by ``Trajectory.save``; ValueError says what is
    wrong with a foreign, newer or damaged file."""
    path = _check_path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            arrays = {name: data[name] for name in data.files if name != "header"}
    except (OSError, ValueError, KeyError, EOFError) as error:
        raise ValueError(f"path: not a readable trajectory file ({error})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"path: not a trajectory file (format {header.get('format')!r})")
    if header.get("version") != VERSION:
        raise ValueError(
            f"path: trajectory format version {header.get('version')} is not {VERSION}"
        )
    try:
        return Trajectory(arrays, header["dt"])
    except (ValueError, KeyError) as error:
        raise ValueError(f"path: damaged trajectory file ({error})") from None


def record(world, steps: int, every: int = 1) -> Trajectory:
    """Step ``world`` ``steps`` times and return its Trajectory, one frame every ``every``
    steps plus the starting state: T = steps / every + 1 frames.

    ``steps`` must be a multiple of ``every``, and the bodies must stay the same (adding
    or removing one during the recording raises ValueError). If recording raises, the
    world is put back as it was before the call.
    """
    if not isinstance(world, World):
        raise TypeError(f"world: expected a World, got {type(world).__name__}")
    steps, every = _count(steps, "steps", 0), _count(every, "every", 1)
    if steps % every:
        raise ValueError(f"steps: must be a multiple of every ({every}), got {steps}")
    frames, bodies = steps // every + 1, len(world.positions)
    arrays = {"time": np.zeros(frames), "masses": world.masses.copy(), "gravity": world.gravity}
    for name, trailing in BODY_FIELDS.items():
        arrays[name] = np.zeros((frames, bodies, *trailing))
    for name, trailing in WORLD_FIELDS.items():
        arrays[name] = np.zeros((frames, *trailing))
    start = world.snapshot()
    try:
        _capture(world, arrays, 0)
        for frame in range(1, frames):
            for _ in range(every):
                world.step()
            if len(world.positions) != bodies:
                raise ValueError("world: bodies were added or removed during the recording")
            _capture(world, arrays, frame)
    except BaseException:
        world.restore(start)
        raise
    return Trajectory(arrays, world.dt)


def _capture(world, arrays: dict, frame: int) -> None:
    arrays["time"][frame] = world.time
    for name in BODY_FIELDS:
        arrays[name][frame] = getattr(world, name)
    arrays["kinetic_energy"][frame] = world.kinetic_energy()
    arrays["potential_energy"][frame] = world.potential_energy()
    arrays["momentum"][frame] = world.momentum()
    arrays["angular_momentum"][frame] = world.angular_momentum()


def _count(value, argument: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument}: expected an int, got {type(value).__name__}")
    if value < least:
        raise ValueError(f"{argument}: must be >= {least}, got {value}")
    return int(value)


def _check_path(path) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a path, got {type(path).__name__}")
    return Path(path)
