"""The command line: ``python -m demos`` lists the scenes, ``python -m demos NAME`` runs one,
and ``python -m demos path/to/file.py [--scene NAME]`` runs a scene from a file of one's own.

Without a display (or with --headless) the scene renders offscreen for --frames frames
(240 by default) and is recorded to OUT.gif and OUT.png (OUT defaults to out/NAME).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import headless, registry


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m demos",
        description="Demo scenes of the engine, or scenes from a file of your own. "
        "With no NAME, list the scenes.",
    )
    p.add_argument(
        "name",
        nargs="?",
        help=f"scene to run ('default' is {registry.DEFAULT}), or a .py file that registers "
        "scenes with @scene (see docs/demos.md)",
    )
    p.add_argument(
        "--scene", metavar="NAME", help="with a file of several scenes: which one (the first)"
    )
    p.add_argument("--headless", action="store_true", help="render offscreen even with a display")
    p.add_argument("--frames", type=int, help="run this many frames at 60 fps, then stop")
    p.add_argument("--record", type=Path, help="write the frames as an animated GIF")
    p.add_argument("--screenshot", type=Path, help="write the last frame as a PNG")
    p.add_argument(
        "--out",
        type=Path,
        help="offscreen runs: default stem of the GIF and PNG (out/NAME -> out/NAME.gif)",
    )
    p.add_argument("--size", default="960x600", help="window size, WIDTHxHEIGHT")
    return p


def list_scenes() -> str:
    """One line per scene: name and summary."""
    lines = ["scenes (python -m demos NAME; without a display it records a GIF):"]
    for name, entry in registry.scenes().items():
        mark = "  (default)" if name == registry.DEFAULT else ""
        lines.append(f"  {name:<11} {entry.summary}{mark}")
    return "\n".join(lines)


def from_file(argument: str, name: str | None):
    """The scene to run from the file ``argument``: ``name``, or its first one."""
    entries = registry.load_file(argument)
    entry = registry.pick(entries, name, argument)
    if name is None and len(entries) > 1:
        others = ", ".join(other.name for other in entries[1:])
        print(f"{argument}: running {entry.name}; it also has {others} (--scene NAME)")
    return entry


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.name is None and args.scene is None:
        print(list_scenes())
        return 0
    if args.name is not None and registry.is_path(args.name):
        try:
            entry = from_file(args.name, args.scene)
        except registry.SceneFileError as error:
            print(f"python -m demos: {error}", file=sys.stderr)
            return 2
    elif args.scene is not None:
        print(
            "--scene picks one of a file's scenes: python -m demos FILE.py --scene NAME",
            file=sys.stderr,
        )
        return 2
    else:
        try:
            entry = registry.lookup(args.name)
        except KeyError:
            names = ", ".join(registry.scenes())
            print(f"unknown scene {args.name!r}; choose from: {names}", file=sys.stderr)
            return 2
    if entry.terminal:
        entry.build()
        return 0

    from .runner import RunOptions, run

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size: expected WIDTHxHEIGHT, got {args.size!r}", file=sys.stderr)
        return 2
    offscreen = args.headless or not headless.has_display()
    options = RunOptions(
        headless=offscreen,
        frames=args.frames,
        record=args.record,
        screenshot=args.screenshot,
        size=(width, height),
    )
    if offscreen and args.record is None and args.screenshot is None:
        stem = args.out or Path("out") / entry.name
        options.record = stem.with_suffix(".gif")
        options.screenshot = stem.with_suffix(".png")
        if not args.headless:
            print(f"no display: rendering {entry.name} offscreen and recording it instead")
    if offscreen and options.frames is None:
        options.frames = 240
    try:
        result = run(entry, options)
    except headless.GraphicsUnavailable as error:
        print(error, file=sys.stderr)
        return 3
    if result.frames and options.frames:
        print(f"{entry.name}: {result.frames} frames in {result.seconds:.1f} s")
    if result.gif is not None:
        print(f"wrote {result.gif} (the animation)")
    if result.png is not None:
        print(f"wrote {result.png} (the last frame)")
    return 0
