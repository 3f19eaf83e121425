"""The saved format's versions and the checker every component's ``validate`` uses.

A snapshot (in memory, in a file, or pickled) is checked completely before anything is
built from it. Each component checks its own arrays through an ArrayChecker, which pulls
arrays out by name with their dtype and shape and names the first problem it finds. The
format itself is described in docs/file-format.md.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .solver_settings import SUBSTEPS

FORMAT_NAME = "engine-world-snapshot"
VERSION = 6
# What each version added: 2 joints; 3 the units and tolerance settings and the body fields
# below (an older file's bodies get the world's sleep threshold and their shapes' thickness);
# 4 the joint kinds 4 to 9 and the joint fields below (zero in an older file's joints), the
# body density and origin offset, the shapes' own settings and the part materials, and the
# handles' tags and user data (an older file's dynamic bodies get the density their mass
# and shapes imply, the others 1, the add_body default; every body its centre of mass as
# origin).
ADDED_IN_3 = {
    "settings": ("units_per_meter", "linear_slop", "restitution_threshold", "sleep_threshold",
                 "time_to_sleep"),
    "body": ("thickness", "sleep_threshold", "damping", "gravity_scale", "fixed_rotation"),
}  # fmt: skip
ADDED_IN_4 = {
    "settings": (
        "substeps",
        "relax_iterations",
        "contact_hertz",
        "contact_damping_ratio",
        "max_contact_push_speed",
        "joint_hertz",
        "joint_damping_ratio",
    ),
    "joint": ("axis", "ratio", "rest_angle", "correction", "spring_impulse"),
    "body": ("density", "origin_offset"),
    "header": ("tags", "user_data"),
}
# What version 5 dropped with the one-solve step: an older file's settings hold these,
# which are read and ignored; and a version-4 file's ``substeps`` of 0 (that step) loads
# as SUBSTEPS, the default (``world_arguments``).
REMOVED_IN_5 = {"settings": ("velocity_iterations",)}
# What version 6 added: the body switch that keeps a body (and its island) awake; an older
# file's bodies may all sleep (BODY_DEFAULTS).
ADDED_IN_6 = {"body": ("enable_sleep",)}
# The joint kinds a file of each version may hold.
KINDS_UP_TO_3 = (0, 1, 2, 3)
# What an older file's bodies get for the fields it lacks (thickness: from their shapes).
BODY_DEFAULTS = {
    "thickness": 0.0, "sleep_threshold": 0.0, "damping": 0.0, "gravity_scale": 1.0,
    "fixed_rotation": False, "density": 1.0, "origin_offset": 0.0, "enable_sleep": True,
}  # fmt: skip
INT64_MAX = 2**63 - 1


class Version(NamedTuple):
    """What a snapshot of format version ``number`` holds."""

    number: int

    @property
    def has_joints(self) -> bool:
        """Joints and their arrays (version 2 on)."""
        return self.number >= 2

    @property
    def has_units(self) -> bool:
        """Units, tolerances and the body fields of ADDED_IN_3."""
        return self.number >= 3

    @property
    def has_labels(self) -> bool:
        """Tags, user data, densities, part materials and the joints of ADDED_IN_4."""
        return self.number >= 4

    @property
    def sub_steps_only(self) -> bool:
        """Settings of the sub-stepped step alone: no velocity_iterations, substeps at
        least 1 (version 5 on)."""
        return self.number >= 5

    def holds_body_field(self, name: str) -> bool:
        """Whether a file of this version holds the body array ``body.<name>``."""
        return (
            (self.has_units or name not in ADDED_IN_3["body"])
            and (self.has_labels or name not in ADDED_IN_4["body"])
            and (self.number >= 6 or name not in ADDED_IN_6["body"])
        )


class ArrayChecker:
    """Pulls arrays out by name, checking dtype and shape; named sizes bind on first use.

    where: the name of what is checked (a path, "snapshot"), the start of every message.
    arrays: name -> array. sizes: size name (like "N") -> value, for those already known.
    """

    def __init__(self, where: str, arrays: dict, sizes: dict):
        self.where, self.arrays, self.sizes, self.used = where, arrays, dict(sizes), set()

    def fail(self, message: str):
        """Raise ValueError: ``where``, then ``message``."""
        raise ValueError(f"{self.where}: {message}")

    def take(self, name: str, dtype, dims: tuple) -> np.ndarray:
        """Array ``name`` as ``dtype`` with shape ``dims`` (ints, or size names like "N")."""
        if name not in self.arrays:
            self.fail(f"array {name!r} is missing")
        self.used.add(name)
        array, dtype = self.arrays[name], np.dtype(dtype)
        if array.dtype.kind != dtype.kind or array.dtype.itemsize != dtype.itemsize:
            self.fail(f"array {name!r} has dtype {array.dtype}, expected {dtype}")
        for dim, have in zip(dims, array.shape):
            if isinstance(dim, str) and dim not in self.sizes:
                self.sizes[dim] = have
        want = tuple(self.sizes[d] if isinstance(d, str) else d for d in dims)
        if array.shape != want:
            text = "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"
            named = [f"{d} = {self.sizes[d]}" for d in dict.fromkeys(dims) if isinstance(d, str)]
            self.fail(
                f"array {name!r} has shape {array.shape}, expected {text}"
                + (f" with {', '.join(named)}" if named else "")
            )
        return array.astype(dtype, copy=False)  # native byte order

    def take_finite(self, name: str, dtype, dims: tuple, allowed=None) -> np.ndarray:
        """``take``, and for floats: no NaN, and no infinity but where ``allowed(value)``."""
        value = self.take(name, dtype, dims)
        if value.dtype.kind == "f":
            fine = np.isfinite(value)
            if allowed is not None:
                fine |= allowed(value)
            self.require(fine, f"array {name!r} holds NaN or infinity")
        return value

    def supply(self, name: str, value: np.ndarray) -> None:
        """Stand in ``value`` for array ``name``, which an older file does not hold."""
        self.arrays[name] = value
        self.used.add(name)

    def require(self, condition, message: str) -> None:
        """``fail`` with ``message`` unless every element of ``condition`` holds."""
        if not np.all(condition):
            self.fail(message)

    def finish(self) -> None:
        """``fail`` for any array no check took: a file holds nothing unknown."""
        extra = sorted(set(self.arrays) - self.used)
        if extra:
            self.fail(f"unexpected array {extra[0]!r}")


def is_int(value) -> bool:
    """A JSON integer (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite_number(value) -> bool:
    """A finite JSON number that fits a float64 or an int64."""
    # JSON ints are unbounded: compare them rather than convert them (10**400 overflows).
    if isinstance(value, float):
        return math.isfinite(value)
    return is_int(value) and abs(value) <= INT64_MAX


def header_section(header: dict, section: str, keys: dict, where: str) -> dict:
    """header[section] as a dict whose keys are exactly ``keys`` (name -> test)."""
    values = header.get(section)
    if not isinstance(values, dict) or set(values) != set(keys):
        raise ValueError(
            f"{where}: header {section!r} must have exactly the fields {sorted(keys)}, "
            f"got {values!r}"
        )
    for key, test in keys.items():
        if not test(values[key]):
            raise ValueError(f"{where}: header field '{section}.{key}' is {values[key]!r}")
    return values


def check_format(header: dict, where: str) -> Version:
    """The header's format name and version, checked; ValueError naming ``where``."""
    name = header.get("format")
    if name != FORMAT_NAME:
        raise ValueError(
            f"{where}: not a world snapshot (format name is {name!r}, expected {FORMAT_NAME!r})"
        )
    version = header.get("version")
    if not is_int(version):
        raise ValueError(f"{where}: snapshot version missing or not an integer: {version!r}")
    if version > VERSION:
        raise ValueError(
            f"{where}: snapshot version {version} is newer than this engine reads ({VERSION})"
        )
    if version < 1:
        raise ValueError(f"{where}: unknown snapshot version {version}")
    return Version(version)


# World() argument -> World attribute, for the settings (header settings).
SETTINGS = {
    "gravity": "_gravity",
    "dt": "_dt",
    "broadphase": "_broadphase",
    "cell_size": "_cell_size",
    "position_iterations": "_position_iterations",
    "max_steps_per_advance": "_max_steps_per_advance",
    "sleep": "sleep",
    "units_per_meter": "_units_per_meter",
    "linear_slop": "_linear_slop",
    "restitution_threshold": "_restitution_threshold",
    "sleep_threshold": "_sleep_threshold",
    "time_to_sleep": "_time_to_sleep",
    "substeps": "_substeps",
    "relax_iterations": "_relax_iterations",
    "contact_hertz": "_contact_hertz",
    "contact_damping_ratio": "_contact_damping_ratio",
    "max_contact_push_speed": "_max_contact_push_speed",
    "joint_hertz": "_joint_hertz",
    "joint_damping_ratio": "_joint_damping_ratio",
}
# The header's state scalars, in the order files hold them, and their components' names.
STATE_ORDER = (
    "next_id", "next_joint_id", "accumulator", "steps", "pose_revision", "next_island",
    "next_part_uid", "stepped",
)  # fmt: skip


def setting_names(version: Version) -> list:
    """The names a file of ``version`` holds in its header settings."""
    return [
        name
        for name in (*SETTINGS, *REMOVED_IN_5["settings"])
        if (version.has_units or name not in ADDED_IN_3["settings"])
        and (version.has_labels or name not in ADDED_IN_4["settings"])
        and (not version.sub_steps_only or name not in REMOVED_IN_5["settings"])
    ]


def world_arguments(settings: dict, version: Version) -> dict:
    """The World() arguments of a file's header settings (name -> value, as
    ``setting_names`` lists them): an older file's REMOVED_IN_5 settings are dropped, and
    its substeps 0 is SUBSTEPS."""
    if version.sub_steps_only:
        return dict(settings)
    arguments = {k: v for k, v in settings.items() if k not in REMOVED_IN_5["settings"]}
    if is_int(arguments.get("substeps")) and arguments["substeps"] == 0:
        arguments["substeps"] = SUBSTEPS
    return arguments
