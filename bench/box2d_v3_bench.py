"""Box2D v3's own benchmark scenes, stepped by the engine and by Box2D v3 side by side.

The six scenes of Box2D v3's benchmark app (``benchmark/main.c`` and
``shared/benchmarks.c`` in Box2D's repository), made smaller to fit a 2-core machine,
each built in the engine and in Box2D v3 through pyb2d3 (``bench/box2d_v3_scenes.py``
holds the builders; Box2D's sizes in brackets):

- ``joint_grid``: 40 x 40 circles of radius 0.4 a metre apart (100 x 100), each joined
  by a revolute joint to its neighbours below and to its right (3,114 joints), hanging
  from the seven static circles in the middle of the top row; the circles collide with
  nothing (category 2, mask all but 2); sleep off. Box2D also joins neighbouring static
  circles, which acts on nothing; the engine refuses such a joint, so both leave those
  six out.
- ``smash``: an 8 m box of density 8 at 40 m/s into a block of 60 x 40 = 2,400 touching
  boxes of 0.4 m (120 x 80), all asleep at the start; no gravity. Box2D makes the boxes
  asleep (``isAwake = false``); the engine adds them awake and puts each to sleep alone
  (``body.awake = False``) before the first step, the same start.
- ``spinner``: 1,500 bodies (6,076), capsules, circles and squares in turn (density
  0.25, friction and restitution 0.1), laid 0.5 m apart in rows of 92 so that they start
  overlapping, inside a ring of radius 40 m (a looped chain of 360 links, friction 0.1),
  stirred by a 40 m bar turned at 5 rad/s about a pivot 20 m below the ring's centre by
  a motor of unbounded torque (Box2D: FLT_MAX; the engine: 1e30 N m). The engine has
  capsules (``Segment`` with a radius) and looped chains, but no rounded polygons:
  Box2D's bar is a 0.8 x 40 m box rounded by 0.2 m, the engine's the octagon through the
  ends of its rounded corners (the same outline with the arcs cut straight). The bar
  does not collide with the ring (its joint to the ring's body, as in Box2D). Box2D's
  bar may not sleep; the engine has no such setting per body, and a bar turning at
  5 rad/s does not sleep anyway.
- ``tumbler``: 30 x 30 = 900 boxes of 0.25 m (45 x 45) in a square drum 20 m across,
  four walls of density 50 on one dynamic body, turned at 25 degrees/s by a revolute
  motor of at most 1e8 N m, as Box2D's (whose washer scene is the kinematic one).
- ``many_pyramids``: 8 x 8 = 64 pyramids of base 10 (20 x 20), 3,520 unit boxes, each
  row of pyramids on its own floor, a line segment (one static body holds the eight);
  sleep off.
- ``large_pyramid``: a pyramid of base 100, 5,050 unit boxes touching, on a ground box;
  sleep off. Box2D's own size.

Settings: Box2D's benchmark app's. dt 1/60, gravity -10 (none in the smash), friction
0.6 and density 1 unless a scene says otherwise, sleeping as each scene sets it (off
where listed above), continuous collision on. Box2D v3 (pyb2d3 0.11, Box2D 3.1, float32)
steps with 4 sub-steps on one thread (no thread pool given); the engine with its defaults
(4 sub-steps). The geometry follows Box2D's current benchmark code, whose spinner has
more bodies, closer, than v3.1's and a motor without a torque limit. Nothing in these
scenes uses rolling resistance, which the engine does not have.

Timing: as Box2D's app, each scene is built, stepped once untimed, then stepped for the
rest of the app's count of steps (500 for the joint grid, the spinner and the large
pyramid, 300 for the smash, 750 for the tumbler, 200 for the many pyramids) in
alternating chunks of 10 steps, engine first, so that both see the same machine load and
the chunks of both cover the same steps of the scene. Each engine's figure is the median
of its chunks' milliseconds per step (the chunks' mean is the figure of Box2D's app, which
times the whole run; the median is less moved by other work on the machine). Then the
geometric mean of the six ratios and the worst.

Sanity: after the timed steps the engine's bodies must all be finite and in their
container (``bench.box2d_v3_scenes.scene_problems`` says what each scene checks); a
failure prints a line starting ``SANITY FAILED`` and gives a row of the bodies at fault.
The same check is run on Box2D's bodies and reported beside it.

Run alone with ``python -m bench.box2d_v3_bench`` (75-85 s on a shared 2-core machine),
or ``python -m bench.box2d_v3_bench spinner tumbler`` for some scenes.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time

import pyb2d3  # noqa: F401  (a bench extra: without it `make bench` skips this suite)

from bench.box2d_v3_scenes import BOX2D_BUILDERS, ENGINE_BUILDERS, SCENES, SIZES, STEPS

CHUNK = 10  # steps per timed chunk


def _chunk(step, count: int) -> float:
    """Seconds per step of ``count`` calls of ``step()``."""
    start = time.perf_counter()
    for _ in range(count):
        step()
    return (time.perf_counter() - start) / count


def time_scene(name: str, steps: int | None = None, chunk: int = CHUNK) -> dict:
    """Build scene ``name`` at the bench's size in both engines, step both once untimed,
    then ``steps - 1`` steps (Box2D's app's count unless given) in alternating chunks.

    Returns the median ms per step of each (``engine_ms``, ``box2d_ms``), every chunk's
    (``engine_chunks``, ``box2d_chunks``), the sanity problems of each after the steps
    (``engine_problems``, ``box2d_problems``: lists of (bodies, description)) and the
    engine scene's body and joint counts (``counts``).
    """
    steps = STEPS[name] if steps is None else steps
    ours = ENGINE_BUILDERS[name](**SIZES[name])
    theirs = BOX2D_BUILDERS[name](**SIZES[name])
    ours.step()  # the first step is untimed, as in Box2D's app
    theirs.step()
    ours_t, theirs_t = [], []
    left = steps - 1
    while left > 0:
        count = min(chunk, left)
        ours_t.append(_chunk(ours.step, count))
        theirs_t.append(_chunk(theirs.step, count))
        left -= count
    return {
        "engine_ms": 1e3 * statistics.median(ours_t),
        "box2d_ms": 1e3 * statistics.median(theirs_t),
        "engine_chunks": [1e3 * t for t in ours_t],
        "box2d_chunks": [1e3 * t for t in theirs_t],
        "engine_problems": ours.problems(),
        "box2d_problems": theirs.problems(),
        "counts": ours.counts,
    }


def _bodies(problems: list) -> int:
    return sum(count for count, _ in problems)


def run(scenes=SCENES) -> list[tuple[str, float, str]]:
    """Time ``scenes`` (all six by default) and return the bench's rows: per scene the
    engine's and Box2D v3's median ms per step, their ratio and the bodies failing the
    sanity check in each; then the geometric mean and the worst of the ratios."""
    return list(rows_of(scenes))


def rows_of(scenes=SCENES):
    """``run``'s rows, yielded as each scene is done."""
    ratios = {}
    for name in scenes:
        result = time_scene(name)
        ratio = result["engine_ms"] / result["box2d_ms"]
        ratios[name] = ratio
        bodies = result["counts"]["dynamic"]
        yield f"{name} ({bodies:,} bodies): engine", result["engine_ms"], "ms/step"
        yield f"{name}: Box2D v3", result["box2d_ms"], "ms/step"
        yield f"{name}: engine / Box2D v3", ratio, "x"
        failed = result["engine_problems"]
        for _, text in failed:
            print(f"SANITY FAILED in {name} (engine): {text}", file=sys.stderr, flush=True)
        label = f"{name}: engine bodies failing sanity" + (" (FAILED)" if failed else "")
        yield label, _bodies(failed), "bodies"
        yield f"{name}: Box2D v3 bodies failing sanity", _bodies(result["box2d_problems"]), "bodies"
    if len(ratios) > 1:
        mean = math.exp(statistics.fmean(math.log(r) for r in ratios.values()))
        worst = max(ratios, key=ratios.get)
        yield f"Box2D v3 scenes: geometric mean of {len(ratios)} ratios", mean, "x"
        yield f"Box2D v3 scenes: worst ratio ({worst})", ratios[worst], "x"


def main(argv: list[str]) -> None:
    """Print the table for the scenes named in ``argv`` (all if none)."""
    unknown = [name for name in argv if name not in SCENES]
    if unknown:
        sys.exit(f"unknown scene(s) {', '.join(unknown)}; the scenes: {', '.join(SCENES)}")
    from importlib.metadata import version

    print(f"engine (4 sub-steps) against Box2D v3 (pyb2d3 {version('pyb2d3')}, 4 sub-steps, "
          f"one thread); median of chunks of {CHUNK} steps")  # fmt: skip
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    for label, value, unit in rows_of(argv or SCENES):
        print(f"{label:<52} {value:>12.4g}  {unit}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}; "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
