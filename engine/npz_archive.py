"""Reading an untrusted .npz archive without letting it ask for more than it holds.

A world file is an .npz (a zip of .npy arrays). Before anything is decompressed, every
member must have a name the reader knows and claim a size the file can justify; members
are inflated only up to their claims (the CRC check catches more or other data); .npy
headers are checked against their members' sizes; object arrays (pickles) are refused; a
JSON header is checked for depth before it is parsed. ``engine.snapshot`` supplies what is
specific to its format: the names it knows, the limits its header sets, and the header's
own checks.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile

import numpy as np

# What a file may ask of the reader. Deflate shrinks runs of zeros about a thousandfold, so
# the sizes a zip claims are believed only up to this many times the file's own size (or
# MIN_DECOMPRESSED_BYTES, for small files of sparse arrays); ordinary saves, compressed
# or not, stay well inside it.
DECOMPRESSION_RATIO = 64
MIN_DECOMPRESSED_BYTES = 64 * 2**20
# Likewise the header, whose JSON becomes Python objects of many times its size.
HEADER_RATIO = 16
MIN_HEADER_BYTES = 2**20
# numpy writes .npy headers of about a hundred bytes; a longer one is damage.
NPY_HEADER_BYTES = 4096
# The header's JSON nests five levels deep (a vertex of a shape); far deeper is damage.
MAX_HEADER_DEPTH = 16
# The fields of a file's header, every one required.


class Refused(ValueError):
    """A problem with the file that deserves its own message, not "corrupt"."""


def read_archive(data: bytes, where: str, known, read_header, limits_of) -> tuple[dict, dict]:
    """The header (a dict) and the arrays (by name) of an .npz held in ``data``.

    known: the array names a file may hold (besides "header"); read_header(array, where):
    the header array checked and parsed; limits_of(header, where): name -> most bytes the
    header allows that array (the others share the budget the file's size gives).
    Nothing is decompressed before it is known to be wanted and small enough. The header
    may claim at most HEADER_RATIO times the file's size (or MIN_HEADER_BYTES); it is read
    first. All arrays without a limit together may claim at most DECOMPRESSION_RATIO times
    the file's size (or MIN_DECOMPRESSED_BYTES). ValueError naming ``where`` otherwise.
    """
    if not data.startswith(b"PK"):
        raise ValueError(f"{where}: not a world snapshot (not an .npz archive)")
    arrays = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = checked_members(archive.infolist(), len(data), known)
            header = read_header(read_npy(inflate(archive, members["header"]), "header"), where)
            check_claims(members, limits_of(header, where), len(data))
            for key, info in members.items():
                if key != "header":
                    arrays[key] = read_npy(inflate(archive, info), key)
    except Refused as error:
        raise ValueError(f"{where}: {error}") from None
    except ValueError as error:
        if str(error).startswith(f"{where}: "):  # the header's own checks
            raise
        raise ValueError(
            f"{where}: truncated or corrupt file ({type(error).__name__}: {error})"
        ) from None
    except Exception as error:  # whatever a damaged archive makes zipfile or numpy raise
        raise ValueError(
            f"{where}: truncated or corrupt file ({type(error).__name__}: {error})"
        ) from None
    return header, arrays


def check_claims(members: dict, limits: dict, file_size: int) -> None:
    """Refuse sizes the header does not allow: each array with a limit (name -> bytes) may
    claim no more; the others share the budget the file's size gives."""
    for key, info in members.items():
        if key in limits and info.file_size > limits[key]:
            raise Refused(
                f"array {key!r} claims {info.file_size} bytes, more than the header's "
                f"counts allow ({limits[key]})"
            )
    budget = max(MIN_DECOMPRESSED_BYTES, DECOMPRESSION_RATIO * file_size)
    claimed = sum(info.file_size for key, info in members.items() if key not in limits)
    if claimed > budget:
        raise Refused(
            f"its arrays claim {claimed} bytes, more than a file of {file_size} bytes may "
            f"decompress to ({budget})"
        )


def inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's data, decompressing no more than the size the zip directory claims.

    (``archive.read`` would inflate a member in one go, whatever its claim, and only then
    cut it to size.) Reading exactly the claimed size ends the stream, which checks its CRC:
    a member that holds more, or other, data than claimed fails there.
    """
    with archive.open(info) as member:
        data = member.read(info.file_size)
    if len(data) != info.file_size:
        raise ValueError(f"member {info.filename!r} is shorter than its claimed size")
    return data


def checked_members(infos: list, file_size: int, known) -> dict:
    """Array name -> ZipInfo, after checking names and claimed sizes (nothing is read)."""
    members = {}
    if "header.npy" not in {info.filename for info in infos}:
        raise Refused("not a world snapshot (no 'header' array)")
    for info in infos:
        name = info.filename
        if not name.endswith(".npy"):
            raise Refused(f"unexpected member {name!r} (not an .npy array)")
        key = name[: -len(".npy")]
        if key != "header" and key not in known:
            raise Refused(f"unexpected array {key!r} (not one of a world snapshot)")
        if key in members:
            raise Refused(f"array {key!r} appears twice")
        members[key] = info
    # The header is parsed into Python objects, which take many times its text: smaller.
    header_budget = max(MIN_HEADER_BYTES, HEADER_RATIO * file_size)
    if members["header"].file_size > header_budget:
        raise Refused(
            f"array 'header' claims {members['header'].file_size} bytes, more than a file of "
            f"{file_size} bytes may hold ({header_budget})"
        )
    return members


def read_npy(member: bytes, name: str) -> np.ndarray:
    stream = io.BytesIO(member)
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    else:
        raise ValueError(f"array {name!r}: unsupported .npy version {version}")
    if dtype.hasobject:
        raise Refused(f"array {name!r} holds Python objects (pickled data is refused)")
    if stream.tell() > NPY_HEADER_BYTES:
        raise ValueError(f"array {name!r}: its .npy header is {stream.tell()} bytes long")
    if math.prod(shape) * dtype.itemsize != len(member) - stream.tell():
        raise ValueError(f"array {name!r}: its data does not match its shape {shape}")
    stream.seek(0)
    return np.lib.format.read_array(stream, allow_pickle=False)


def read_json(array, where: str) -> dict:
    """The JSON object held in a (B,) uint8 array; ValueError naming ``where`` for bytes
    that are not UTF-8 JSON nested at most MAX_HEADER_DEPTH levels, or not an object."""
    if array is None:
        raise ValueError(f"{where}: not a world snapshot (no 'header' array)")
    if array.dtype != np.uint8 or array.ndim != 1:
        raise ValueError(f"{where}: not a world snapshot (its header is not UTF-8 bytes)")

    def refuse(constant):
        raise ValueError(f"{constant} is not a number")

    try:
        text = array.tobytes().decode("utf-8")
        check_nesting(text)
        header = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError too
        raise ValueError(f"{where}: corrupt header ({error})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{where}: not a world snapshot (format name missing)")
    return header


# A JSON string, to be skipped when counting brackets (escaped quotes included).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def check_nesting(text: str) -> None:
    """ValueError when the JSON ``text`` nests deeper than MAX_HEADER_DEPTH.

    Counted on the text before parsing, outside strings: a deeply nested document would
    otherwise exhaust the parser's recursion.
    """
    bare = np.frombuffer(_JSON_STRING.sub("0", text).encode("utf-8"), dtype=np.uint8)
    opening = (bare == ord("[")) | (bare == ord("{"))
    closing = (bare == ord("]")) | (bare == ord("}"))
    depth = np.cumsum(opening.astype(np.int64) - closing)
    if len(depth) and depth.max() > MAX_HEADER_DEPTH:
        raise ValueError(f"nested deeper than {MAX_HEADER_DEPTH} levels")
