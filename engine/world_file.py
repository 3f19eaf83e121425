"""World files: ``save`` and ``load``, the .npz format of docs/file-format.md.

A file holds the snapshot's header as JSON and its arrays; nothing in it is pickled, and
loading one runs no code. ``load`` reads the archive through ``engine.npz_archive`` (which
refuses members, sizes and headers past what the file can honestly hold), checks it
completely (``engine.snapshot_check``) and only then builds the World.
"""

from __future__ import annotations

import json
import math
import os
import secrets

import numpy as np

from .body_store import BodyStore
from .event_log import EventLog
from .joint_store import JointStore
from .npz_archive import NPY_HEADER_BYTES, read_archive, read_json
from .part_table import PartTable
from .shape_specs import spec_vertex_count
from .snapshot_build import apply
from .snapshot_check import check_snapshot, header_counts
from .snapshot_format import check_format, is_int
from .snapshot_take import Snapshot, file_header, snapshot
from .warm_start import WarmStartCache

# The components whose arrays a file holds, each with its ``layout``.
_LAYOUTS = (BodyStore, PartTable, JointStore, WarmStartCache, EventLog)


def save(world, path, compress: bool = False) -> None:
    """Write ``world`` (or a Snapshot) to ``path`` (a path or a binary file object).

    The format is described in docs/file-format.md. A path is written atomically: the
    data goes to a temporary file beside it, renamed over ``path`` when complete, so an
    interrupted save never leaves a truncated file. ``compress``: deflate the arrays
    (smaller, slower).
    """
    snap = world if isinstance(world, Snapshot) else snapshot(world)
    full_header = file_header(snap)
    _check_json_user_data(full_header, snap._arrays)
    header = json.dumps(full_header, allow_nan=False, separators=(",", ":"))
    arrays = {"header": np.frombuffer(header.encode("utf-8"), dtype=np.uint8)}
    arrays.update(snap._arrays)
    savez = np.savez_compressed if compress else np.savez

    def write(file) -> None:
        savez(file, allow_pickle=False, **arrays)  # never pickle, even by mistake

    if hasattr(path, "write"):
        write(path)
        return
    path = os.fspath(path)
    # Opened by us (numpy would append ".npz" to a name without it), created exclusively
    # under a random name so that the permissions follow the umask as for any new file.
    temporary = f"{path}.{secrets.token_hex(6)}.tmp"
    try:
        with open(temporary, "xb") as file:
            write(file)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def load(path, world_type: type):
    """A new World (of ``world_type``, the World class: ``World.load(path)`` passes it)
    from a file written by :func:`save` (a path or a binary file object).

    Raises ValueError naming the file and the problem for anything that is not a complete,
    consistent snapshot of a version this engine reads; OSError when it cannot be read.
    """
    if hasattr(path, "read"):
        where = str(getattr(path, "name", "<file>"))
        data = path.read()
    else:
        where = os.fspath(path)
        with open(where, "rb") as file:
            data = file.read()
    header, arrays = read_archive(data, where, _known_arrays(), _read_header, _array_limits)
    checked = check_snapshot(header, arrays, None, where, world_type)
    world = checked.world
    apply(world, checked, None, None, fresh=True)
    return world


def _check_json_user_data(header: dict, arrays) -> None:
    """TypeError naming the body whose user_data a file cannot hold (not JSON data)."""
    ids = np.concatenate([arrays["body.body_id"], arrays["extra_handle_ids"]]).tolist()
    for body_id, value in zip(ids, header["user_data"]):
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(
                f"user_data of body {body_id}: a file holds only JSON data (numbers, "
                f"strings, lists, dicts, None), got {type(value).__name__} ({error}); "
                "keep it in memory (snapshot, deepcopy, pickle) or store plain data"
            ) from None


def _known_arrays() -> dict:
    """Every array a file of this engine may hold: name -> (dims, dtype); dims are ints or
    the size names of the format table (N, P, K, J, I are the header's; the others vary)."""
    layout = {"extra_handle_ids": (("E",), np.int64)}
    for component in _LAYOUTS:
        layout.update(component.layout())
    return layout


def _array_limits(header: dict, where: str) -> dict:
    """Most bytes each body and part array may claim: name -> bytes (the header counts it).

    The counts are checked first (as ``check_snapshot`` checks them), and then against what the
    header's own shapes allow, which is cheap to count: at most one body per entry of
    ``handle_shapes``; per live body, one part per Box, Circle or Polygon and at most n - 2
    per ConcavePolygon of n vertices; parts no wider than the widest outline (or 4). An
    array's member is its data plus a short .npy header (NPY_HEADER_BYTES at most).
    """
    check_format(header, where)
    state, counts = header_counts(header, where)
    n, p, k = counts["bodies"], counts["parts"], counts["part_width"]
    specs, handle_shapes = header.get("shapes"), header.get("handle_shapes")
    if not isinstance(specs, list) or not isinstance(handle_shapes, list):
        raise ValueError(f"{where}: header 'shapes' and 'handle_shapes' must be lists")
    if n > len(handle_shapes):
        raise ValueError(f"{where}: header counts {n} bodies but lists shapes for fewer")
    vertices = [spec_vertex_count(spec, i, where) for i, spec in enumerate(specs)]
    most_parts, widest = 0, 4
    for indices in handle_shapes[:n]:
        if not isinstance(indices, list) or not all(
            is_int(j) and 0 <= j < len(specs) for j in indices
        ):
            continue  # shapes_from_header names the problem
        for j in indices:
            concave = specs[j]["type"] == "ConcavePolygon"
            most_parts += max(vertices[j] - 2, 1) if concave else 1
            most_parts += vertices[j] - 1 if specs[j]["type"] == "Chain" else 0
            widest = max(widest, vertices[j])
    if p > most_parts or k > widest:
        raise ValueError(
            f"{where}: header counts {p} parts of {k} vertex slots, more than its shapes "
            f"make (at most {most_parts} parts of {widest})"
        )
    sizes = {"N": n, "P": p, "K": k}
    limits = {}
    for name, (dims, dtype) in _known_arrays().items():
        if name.startswith(("body.", "part.")):
            count = math.prod(d if isinstance(d, int) else sizes[d] for d in dims)
            limits[name] = count * np.dtype(dtype).itemsize + NPY_HEADER_BYTES
    return limits


def _read_header(array, where: str) -> dict:
    header = read_json(array, where)
    if "format" not in header:
        raise ValueError(f"{where}: not a world snapshot (format name missing)")
    check_format(header, where)
    return header
