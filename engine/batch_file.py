"""Saving a ``WorldBatch`` to a file and loading it back.

The file is an .npz read as the world files are (``engine.npz_archive``: names known
before anything is inflated, sizes held to what the header and the file justify, no
pickles): a JSON header, the template World as a world file of its own (loaded, and so
checked, by ``World.load``), each reshaped body's shapes as a world file holding that
body, and the copies' state arrays with a leading copy axis. The state is checked by the
rules a write into the batch follows (bounds, static bodies still, limits in order, the
warm-start keys sorted and naming parts that exist); what a copy cannot change (a body's
kind, mass, damping) must be the template's. A batch loaded from a file steps on as the
saved one would, bit for bit; the caches (the grids of resting parts) are rebuilt.
"""

from __future__ import annotations

import io
import json
import os

import numpy as np

from .npz_archive import read_archive, read_json
from .snapshot_format import ArrayChecker
from .solver_inputs import SOLVER_JOINT_FIELDS
from .step_inputs import SOLVE_BODY_FIELDS
from .warm_start import FEATURE_BITS, ROW_BITS, ROW_MASK

FORMAT, VERSION = "engine.WorldBatch", 1
# Per-copy arrays a copy writes and the file carries, checked by their rules; the other
# body and joint columns must equal the template's (after reshaping).
BODY_STATE = ("position", "angle", "velocity", "angular_velocity", "force", "torque",
              "awake", "sleep_time", "island", "inv_mass", "inv_inertia")  # fmt: skip
MASS = ("mass", "inertia", "density", "part_density")
JOINT_STATE = ("lower", "upper", "motor_speed", "impulse", "motor_impulse", "lower_impulse",
               "upper_impulse", "spring_impulse")  # fmt: skip
HEADER_KEYS = ("format", "version", "copies", "reshaped", "warm", "touching")


def save_batch(batch, path) -> None:
    """Write ``batch`` to ``path`` (a path or a binary file object) as an .npz."""
    arrays = {"template": _world_bytes(batch._template)}
    for name in SOLVE_BODY_FIELDS:
        arrays[f"body.{name}"] = batch._body[name]
    for name in SOLVER_JOINT_FIELDS:
        arrays[f"joint.{name}"] = batch._joints[name]
    for name, column in batch._mass.items():
        arrays[f"mass.{name}"] = column
    arrays.update(
        friction=batch._friction, restitution=batch._restitution, gravity=batch._gravity,
        next_island=batch._next_island, steps=batch._steps,
    )  # fmt: skip
    warms = [batch._warms[c] for c in range(batch.copies)]
    arrays["warm.counts"] = np.array([len(keys) for keys, _, _ in warms], dtype=np.int64)
    for k, name in enumerate(("keys", "normal", "tangent")):
        arrays[f"warm.{name}"] = np.concatenate([warm[k] for warm in warms])
    touching = [batch._touching[c] for c in range(batch.copies)]
    arrays["touching.counts"] = np.array([len(keys) for keys in touching], dtype=np.int64)
    arrays["touching.keys"] = np.concatenate(touching)
    files, copies, rows = [], [], []
    for (copy, row), (shapes, _) in sorted(batch._reshaped.items()):
        files.append(_world_bytes(_holding(shapes, batch._template.bodies[row])))
        copies.append(copy)
        rows.append(row)
    arrays["reshaped.copies"] = np.array(copies, dtype=np.int64)
    arrays["reshaped.rows"] = np.array(rows, dtype=np.int64)
    arrays["reshaped.sizes"] = np.array([len(f) for f in files], dtype=np.int64)
    arrays["reshaped.files"] = np.concatenate(files) if files else np.zeros(0, np.uint8)
    header = {
        "format": FORMAT, "version": VERSION, "copies": batch.copies, "reshaped": len(files),
        "warm": int(arrays["warm.counts"].sum()), "touching": int(arrays["touching.counts"].sum()),
    }  # fmt: skip
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    if hasattr(path, "write"):
        np.savez(path, **arrays)
        return
    with open(os.fspath(path), "wb") as file:
        np.savez(file, **arrays)


def load_batch(path, batch_type: type):
    """A new batch (of ``batch_type``, the WorldBatch class: ``WorldBatch.load(path)``
    passes it) from a file ``save_batch`` wrote (a path or a binary file object).

    ValueError naming the file and the problem for anything that is not a complete,
    consistent batch; OSError when it cannot be read. Nothing else is changed.
    """
    from .world import World

    if hasattr(path, "read"):
        where, data = str(getattr(path, "name", "<file>")), path.read()
    else:
        where = os.fspath(path)
        with open(where, "rb") as file:
            data = file.read()
    header, arrays = read_archive(data, where, _known(), _read_header, _limits)
    check = ArrayChecker(where, arrays, {"C": header["copies"]})
    template = _load_world(check.take("template", np.uint8, ("B",)), f"{where}: template")
    batch = batch_type(template, header["copies"])
    _reshape(batch, check, header, where, World)
    _take_bodies(batch, check)
    _take_joints(batch, check)
    _take_materials(batch, check)
    _take_kept(batch, check, header)
    check.finish()
    return batch


def _take_bodies(batch, check: ArrayChecker) -> None:
    from .body_store import DYNAMIC, STATIC
    from .settings import MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_SPEED

    taken = {}
    for name in SOLVE_BODY_FIELDS:
        want = batch._body[name]
        value = check.take_finite(f"body.{name}", want.dtype, want.shape)
        if name not in BODY_STATE:
            check.require(value == want, f"array 'body.{name}' differs from the template's")
        taken[name] = value
    static = taken["kind"] == STATIC
    for name, limit in (("position", MAX_COORDINATE), ("velocity", MAX_SPEED)):
        lengths = np.hypot(taken[name][..., 0], taken[name][..., 1])
        check.require(lengths <= limit, f"array 'body.{name}' holds values past {limit:g}")
    check.require(
        np.abs(taken["angular_velocity"]) <= MAX_ANGULAR_SPEED,
        f"array 'body.angular_velocity' holds values past {MAX_ANGULAR_SPEED:g}",
    )
    moving = (taken["velocity"] != 0.0).any(axis=-1) | (taken["angular_velocity"] != 0.0)
    check.require(~(static & moving), "array 'body.velocity' moves a static body")
    check.require(taken["sleep_time"] >= 0.0, "array 'body.sleep_time' holds negative values")
    dynamic = taken["kind"] == DYNAMIC
    check.require(
        dynamic | (taken["awake"] == batch._body["awake"]),
        "array 'body.awake' puts a body to sleep that never sleeps",
    )
    check.require(
        dynamic | (taken["sleep_time"] == 0.0), "array 'body.sleep_time' is set for other bodies"
    )
    _take_masses(batch, check, taken, dynamic)
    next_island = check.take("next_island", np.int64, ("C",))
    check.require(
        (taken["island"] < next_island[:, None]) & (taken["island"] >= -1),
        "array 'body.island' names islands past 'next_island'",
    )
    for name, value in taken.items():
        batch._body[name][...] = value
    batch._next_island[...] = next_island


def _take_masses(batch, check: ArrayChecker, taken: dict, dynamic: np.ndarray) -> None:
    """Per-copy masses (``set_mass``): positive and finite for dynamic bodies, with the
    inverses the step reads; every other body's as the template has it."""
    masses = {}
    for name in MASS:
        want = batch._mass[name]
        value = check.take_finite(f"mass.{name}", want.dtype, want.shape, np.isinf)
        masses[name] = value
    body_mass, inertia = masses["mass"], masses["inertia"]
    check.require(
        ~dynamic | ((body_mass > 0.0) & np.isfinite(body_mass) & (inertia > 0.0)
                    & np.isfinite(inertia)),
        "array 'mass.mass' or 'mass.inertia' holds a dynamic body's mass that is not > 0",
    )  # fmt: skip
    for name in ("density", "part_density"):
        value = masses[name]
        check.require(np.isfinite(value) & (value >= 0.0), f"array 'mass.{name}' is not >= 0")
    for name in ("mass", "inertia", "density"):
        check.require(
            dynamic | (masses[name] == batch._mass[name]),
            f"array 'mass.{name}' differs from the template's for a body that is not dynamic",
        )
    with np.errstate(divide="ignore"):
        inverse = np.where(dynamic, 1.0 / body_mass, batch._body["inv_mass"])
        fixed = batch._template._bodies.columns()["fixed_rotation"][None, :]
        turning = np.where(fixed, 0.0, 1.0 / inertia)
        inverse_inertia = np.where(dynamic, turning, batch._body["inv_inertia"])
    check.require(taken["inv_mass"] == inverse, "array 'body.inv_mass' is not 1 / mass")
    check.require(
        taken["inv_inertia"] == inverse_inertia, "array 'body.inv_inertia' is not 1 / inertia"
    )
    for name, value in masses.items():
        batch._mass[name][...] = value


def _take_joints(batch, check: ArrayChecker) -> None:
    from .joint_store import PRISMATIC
    from .settings import MAX_ANGULAR_SPEED, MAX_SPEED

    taken = {}
    for name in SOLVER_JOINT_FIELDS:
        want = batch._joints[name]
        infinite = (lambda v: np.isinf(v)) if name in ("lower", "upper") else None
        value = check.take_finite(f"joint.{name}", want.dtype, want.shape, infinite)
        if name not in JOINT_STATE:
            check.require(value == want, f"array 'joint.{name}' differs from the template's")
        taken[name] = value
    check.require(taken["lower"] <= taken["upper"], "array 'joint.lower' is past 'joint.upper'")
    check.require(taken["lower"] != np.inf, "array 'joint.lower' holds +inf")
    check.require(taken["upper"] != -np.inf, "array 'joint.upper' holds -inf")
    linear = taken["kind"] == PRISMATIC
    limit = np.where(linear, MAX_SPEED, MAX_ANGULAR_SPEED)
    check.require(np.abs(taken["motor_speed"]) <= limit, "array 'joint.motor_speed' is too fast")
    for name, value in taken.items():
        batch._joints[name][...] = value


def _take_materials(batch, check: ArrayChecker) -> None:
    from .settings import MAX_GRAVITY

    friction = check.take_finite("friction", np.float64, batch._friction.shape)
    restitution = check.take_finite("restitution", np.float64, batch._restitution.shape)
    gravity = check.take_finite("gravity", np.float64, ("C", 2))
    check.require(friction >= 0.0, "array 'friction' holds negative values")
    check.require(
        (restitution >= 0.0) & (restitution <= 1.0), "array 'restitution' is outside [0, 1]"
    )
    check.require(
        np.hypot(gravity[:, 0], gravity[:, 1]) <= MAX_GRAVITY,
        f"array 'gravity' holds values past {MAX_GRAVITY:g}",
    )
    steps = check.take("steps", np.int64, ("C",))
    check.require(steps >= 0, "array 'steps' holds negative counts")
    batch._friction[...] = friction
    batch._restitution[...] = restitution
    batch._gravity[...] = gravity
    batch._steps[...] = steps


def _take_kept(batch, check: ArrayChecker, header: dict) -> None:
    """The warm-start caches and touching pairs, ragged per copy."""
    parts = batch._friction.shape[1]
    counts = check.take("warm.counts", np.int64, ("C",))
    keys = check.take("warm.keys", np.int64, (header["warm"],))
    normal = check.take_finite("warm.normal", np.float64, (header["warm"],))
    tangent = check.take_finite("warm.tangent", np.float64, (header["warm"],))
    check.require(counts >= 0, "array 'warm.counts' holds negative counts")
    check.require(counts.sum() == len(keys), "array 'warm.counts' does not add up")
    check.require(
        (keys >= 0) & (keys >> (ROW_BITS + FEATURE_BITS) < parts)
        & ((keys >> FEATURE_BITS) & ROW_MASK < parts),
        "array 'warm.keys' names parts out of range",
    )  # fmt: skip
    touching_counts = check.take("touching.counts", np.int64, ("C",))
    pairs = check.take("touching.keys", np.int64, (header["touching"],))
    check.require(touching_counts >= 0, "array 'touching.counts' holds negative counts")
    check.require(touching_counts.sum() == len(pairs), "array 'touching.counts' does not add up")
    ids = set(batch._inputs.body["body_id"].tolist())
    check.require(
        np.isin(pairs >> 32, list(ids)) & np.isin(pairs & 0xFFFFFFFF, list(ids)),
        "array 'touching.keys' names bodies the template does not hold",
    )
    ends, touching_ends = np.cumsum(counts), np.cumsum(touching_counts)
    for c in range(batch.copies):
        part = slice(ends[c] - counts[c], ends[c])
        check.require(np.diff(keys[part]) > 0, "array 'warm.keys' is not sorted in a copy")
        run = slice(touching_ends[c] - touching_counts[c], touching_ends[c])
        check.require(np.diff(pairs[run]) > 0, "array 'touching.keys' is not sorted in a copy")
    for c in range(batch.copies):
        part = slice(ends[c] - counts[c], ends[c])
        batch._warms[c] = (keys[part].copy(), normal[part].copy(), tangent[part].copy())
        run = slice(touching_ends[c] - touching_counts[c], touching_ends[c])
        batch._touching[c] = pairs[run].copy()


def _reshape(batch, check: ArrayChecker, header: dict, where: str, world_type) -> None:
    count = header["reshaped"]
    copies = check.take("reshaped.copies", np.int64, (count,))
    rows = check.take("reshaped.rows", np.int64, (count,))
    sizes = check.take("reshaped.sizes", np.int64, (count,))
    files = check.take("reshaped.files", np.uint8, ("F",))
    check.require((copies >= 0) & (copies < batch.copies), "array 'reshaped.copies' out of range")
    check.require((rows >= 0) & (rows < batch.body_count), "array 'reshaped.rows' out of range")
    check.require((sizes >= 0) & (sizes.sum() == len(files)), "array 'reshaped.sizes' is wrong")
    ends = np.cumsum(sizes)
    for k in range(count):
        holder = _load_world(files[ends[k] - sizes[k] : ends[k]], f"{where}: reshaped body {k}")
        if len(holder.bodies) != 1:
            check.fail(f"reshaped body {k}: its file holds {len(holder.bodies)} bodies, not 1")
        try:
            batch.reshape(int(rows[k]), holder.bodies[0].shapes, [int(copies[k])])
        except ValueError as error:
            check.fail(f"reshaped body {k}: {error}")


def _world_bytes(world) -> np.ndarray:
    buffer = io.BytesIO()
    world.save(buffer)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8)


def _holding(shapes, body):
    """A World holding one static body of ``shapes`` where ``body`` is (for saving)."""
    from .world import World

    world = World()
    world.add_body(shapes, kind="static", position=tuple(body.position), angle=body.angle,
                   origin="local")  # fmt: skip
    return world


def _load_world(array: np.ndarray, where: str):
    from .world import World

    stream = io.BytesIO(array.tobytes())
    stream.name = where
    return World.load(stream)


def _read_header(array, where: str) -> dict:
    header = read_json(array, where)
    for key in HEADER_KEYS:
        if key not in header:
            raise ValueError(f"{where}: header has no {key!r}")
    if header["format"] != FORMAT or header["version"] != VERSION:
        raise ValueError(
            f"{where}: not a WorldBatch file of version {VERSION} (format "
            f"{header['format']!r}, version {header['version']!r})"
        )
    for key in HEADER_KEYS[2:]:
        value = header[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{where}: header {key!r} must be a count, got {value!r}")
    if header["copies"] < 1:
        raise ValueError(f"{where}: header 'copies' must be at least 1")
    return header


def _limits(header: dict, where: str) -> dict:
    """The warm-start and touching arrays may claim what their counts in the header take;
    the rest share the budget the file's size gives."""
    slack = 4096  # a .npy header
    return {
        "warm.keys": 8 * header["warm"] + slack,
        "warm.normal": 8 * header["warm"] + slack,
        "warm.tangent": 8 * header["warm"] + slack,
        "touching.keys": 8 * header["touching"] + slack,
    }


def _known() -> set:
    names = {"template", "friction", "restitution", "gravity", "next_island", "steps"}
    names |= {f"body.{name}" for name in SOLVE_BODY_FIELDS}
    names |= {f"joint.{name}" for name in SOLVER_JOINT_FIELDS}
    names |= {f"mass.{name}" for name in MASS}
    names |= {"warm.counts", "warm.keys", "warm.normal", "warm.tangent"}
    names |= {"touching.counts", "touching.keys"}
    names |= {"reshaped.copies", "reshaped.rows", "reshaped.sizes", "reshaped.files"}
    return names
