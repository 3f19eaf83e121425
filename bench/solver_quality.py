"""Solver quality: the scenes where a rigid-body solver shows its limits, measured.

Not timings but physics figures, each against the ideal a perfect solver would reach:

- bounce apex: a ball dropped from 2 m with restitution e = 0.2 / 0.5 / 0.8 at dt 1/60,
  the first rebound's apex against e^2 h (relative error);
- chaos box: 300 bodies, densities 0.01-100 kg/m^2, sizes 3 cm-2 m, thrown at up to
  200 m/s into a closed 40 x 30 m box: after 5 s, bodies whose centre is outside the box's
  inside (pressed into a wall or the floor, or escaped), summed over 8 seeds (one seed is
  one roll of the dice: a body or two either way), and whether every number is finite;
- tumbler: 300 boxes (40 cm) in a hollow 10 m kinematic box turning at 0.25 rad/s: the
  deepest contact between a box and the tumbler over 10 s, and whether all stay inside;
  then over seeds 1-6 (the boxes' starting angles) the worst seed's deepest, and the worst
  seed's 99th percentile of each step's deepest (a tumbling pile is chaotic: one run's
  deepest moment is one roll of the dice);
- mass ratio: a 100 kg slab on three 1 kg boxes: how far the slab sinks into them;
- columns of 20 and 30 boxes, each set off by up to 1 cm, sleeping off, 60 s: the top
  box's sideways drift (and whether it still stands);
- rain: the 1,000-body pile of the rain scene: seconds from the last body landing (each
  body of the last pour slowed to half its speed at birth) to all asleep (capped at
  30 s), how many bodies still move faster than the sleep speed 1,000 steps after the
  pour began, how many left the container, and seconds from the last landing to all
  those in the container asleep; then over the spout's seeds 1-8 (the demo pours with
  7), how many runs lose a body over the walls, how many sleep within 5 s, and the
  slowest pile in the container to sleep;
- chains: the widest pivot gap of a 100-link chain whipping down from horizontal, and the
  stretch of a 20-link chain carrying 100 times its link mass;
- landing: the impulse ``contact_begin`` reports for a 1 kg box landing at 4.25 m/s,
  against m v.

Run alone with ``python -m bench.solver_quality`` (two to three minutes).
"""

from __future__ import annotations

import math

import numpy as np

from demos.scenes.rain import FALL_SPEED, PER_STEP, Spout, add_container
from engine import Box, Circle, RevoluteJoint, World
from engine.solver_settings import SUBSTEPS

G = 9.81
# The solver the scenes run with: World arguments (``run`` sets them for each column).
SOLVER: dict = {}
SOLVERS = {f"{SUBSTEPS} sub-steps": {}}


def bounce_errors():
    h, r = 2.0, 0.25
    for e in (0.2, 0.5, 0.8):
        world = World(**SOLVER)
        world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
        ball = world.add_body(Circle(r), position=(0, h + r), restitution=e)
        phase, apex = "falling", -math.inf
        for _ in range(600):
            world.step()
            vy = ball.velocity[1]
            if phase == "falling" and vy > 0:
                phase = "rising"
            if phase == "rising":
                apex = max(apex, ball.position[1] - r)
                if vy <= 0:
                    break
        yield f"bounce apex e={e} from 2 m, dt 1/60: error", apex / (e * e * h) - 1, "of e^2 h"


def chaos_box(seeds: range = range(1, 9)):
    """The chaos box with each seed; the counts are summed over the seeds."""
    in_walls, finite = 0, True
    for seed in seeds:
        count, seed_finite = _chaos_box(seed)
        in_walls += count
        finite = finite and seed_finite
    total = 300 * len(seeds)
    yield (
        f"chaos box, {len(seeds)} seeds: bodies with their centre in a wall",
        in_walls,
        f"of {total}",
    )
    yield "chaos box: every number finite", float(finite), "(1 yes)"


def _chaos_box(seed: int):
    """(bodies whose centre ends outside the box's inside, whether all is finite)."""
    rng = np.random.default_rng(seed)
    world = World(**SOLVER)
    width, height = 40.0, 30.0
    for x, y, w, h in ((0, -0.5, width + 2, 1), (0, height + 0.5, width + 2, 1),
                       (-width / 2 - 0.5, height / 2, 1, height), (width / 2 + 0.5, height / 2,
                                                                   1, height)):  # fmt: skip
        world.add_body(Box(w, h), position=(x, y), kind="static")
    bodies = []
    for _ in range(300):
        size = math.exp(rng.uniform(math.log(0.03), math.log(2.0)))
        shape = Box(size, size) if rng.random() < 0.5 else Circle(size / 2)
        speed, direction = rng.uniform(0, 200), rng.uniform(0, 2 * math.pi)
        bodies.append(world.add_body(
            shape, position=(rng.uniform(-18, 18), rng.uniform(2, 28)),
            velocity=(speed * math.cos(direction), speed * math.sin(direction)),
            density=math.exp(rng.uniform(math.log(0.01), math.log(100.0))),
        ))  # fmt: skip
    for _ in range(300):
        world.step()
    positions = np.array([body.position for body in bodies])
    inside = (
        (np.abs(positions[:, 0]) < width / 2) & (positions[:, 1] > 0) & (positions[:, 1] < height)
    )
    finite = np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    return float((~inside).sum()), bool(finite)


def tumbler(seeds: range = range(1, 7)):
    """The tumbler with seed 1, then the worst over ``seeds`` (which set the boxes' angles):
    a pile tumbling is chaotic, and the deepest contact of one run is one roll of the dice."""
    runs = [_tumbler(seed) for seed in seeds]
    deepest, escaped = runs[0]
    yield "tumbler: deepest box in a wall", deepest.max() * 100, "cm"
    yield "tumbler: boxes outside it after 10 s", float(escaped), "of 300"
    named = f"tumbler, seeds {seeds[0]}-{seeds[-1]}"
    yield f"{named}: deepest box in a wall, worst seed", max(d.max() for d, _ in runs) * 100, "cm"
    # How deep the pile presses boxes most of the time, apart from its rarest moments.
    worst_99 = max(float(np.percentile(d, 99)) for d, _ in runs) * 100
    yield f"{named}: 99th percentile of the steps' deepest, worst seed", worst_99, "cm"


# The tumbler's drum: inner side (m) and wall thickness.
DRUM_SIDE, DRUM_WALL = 10.0, 0.5


def add_tumbler(world, seed: int):
    """The tumbler in ``world`` (the engine's or a reference adapter's ``add_body``): a
    hollow square drum of kinematic walls, DRUM_SIDE inside, turning at 0.25 rad/s, and
    300 boxes of 0.4 m filling its lower two thirds, their angles set by ``seed``.
    Returns (drum, boxes (300,) list)."""
    half, wall = DRUM_SIDE / 2, DRUM_WALL
    drum = world.add_body(
        [Box(DRUM_SIDE + 2 * wall, wall, offset=(0, -half - wall / 2)),
         Box(DRUM_SIDE + 2 * wall, wall, offset=(0, half + wall / 2)),
         Box(wall, DRUM_SIDE, offset=(-half - wall / 2, 0)),
         Box(wall, DRUM_SIDE, offset=(half + wall / 2, 0))],
        kind="kinematic", angular_velocity=0.25,
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    boxes = []
    for i in range(300):  # 20 x 15
        x, y = -4.75 + 0.5 * (i % 20), -4.75 + 0.5 * (i // 20)
        boxes.append(world.add_body(Box(0.4, 0.4), position=(x, y),
                                    angle=rng.uniform(-0.1, 0.1)))  # fmt: skip
    return drum, boxes


def deepest_in(world, body) -> float:
    """How deep the deepest contact point of ``body`` (a Body of the engine's ``world``)
    sits in another body, in metres (0 without one)."""
    table = world.contact_arrays()
    mine = (table.rows == world.index_of(body)).any(axis=1)
    return max(float(table.depth[mine].max()), 0.0) if mine.any() else 0.0


def _tumbler(seed: int):
    """((600,) the deepest box-wall contact after each step, boxes outside at the end)."""
    world = World(**SOLVER)
    drum, _ = add_tumbler(world, seed)
    deepest = np.zeros(600)
    for step in range(600):
        world.step()
        deepest[step] = deepest_in(world, drum)
    c, s = math.cos(drum.angle), math.sin(drum.angle)
    local = (world.positions - drum.position) @ np.array([[c, -s], [s, c]])
    return deepest, int((np.abs(local[1:]) > DRUM_SIDE / 2).any(axis=1).sum())


def mass_ratio():
    world = World(**SOLVER)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    for x in (-1.5, 0.0, 1.5):
        world.add_body(Box(0.5, 0.5), position=(x, 0.25), density=4.0)  # 1 kg
    slab = world.add_body(Box(4.0, 0.5), position=(0, 0.75), density=50.0)  # 100 kg
    for _ in range(300):
        world.step()
    yield (
        "mass ratio 100:1 slab on boxes: drop (2 slops at rest)",
        (0.75 - slab.position[1]) * 1000,
        "mm",
    )


def heavy_on_light():
    """A 1,000 kg box (1 m) resting on a 1 kg box (0.5 m) on the ground for 10 s: how far
    the heavy box's centre sits below where touching boxes would hold it."""
    world = World(**SOLVER)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    world.add_body(Box(0.5, 0.5), position=(0, 0.25), density=4.0)  # 1 kg
    heavy = world.add_body(Box(1.0, 1.0), position=(0, 1.0), density=1000.0)  # 1,000 kg
    for _ in range(600):
        world.step()
    yield (
        "1,000 kg box on a 1 kg box, 10 s: heavy box low by",
        (1.0 - heavy.position[1]) * 1000,
        "mm",
    )


def column(count: int, seconds: float = 60.0):
    rng = np.random.default_rng(count)
    world = World(sleep=False, **SOLVER)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    boxes = [world.add_body(Box(1, 1), position=(rng.uniform(-0.01, 0.01), 0.5 + i))
             for i in range(count)]  # fmt: skip
    start = boxes[-1].position[0]
    for _ in range(round(seconds / world.dt)):
        world.step()
    top = boxes[-1].position
    # Standing: the top box within half a box of its start height (a column that lost a
    # box or toppled is a whole box lower or more).
    standing = top[1] > count - 1.0
    yield (
        f"column of {count}, sleeping off, {seconds:g} s: top drift",
        (abs(top[0] - start) * 100 if standing else math.inf),
        "cm",
    )


def rain(seeds: range = range(1, 9)):
    """The rain scene as the demo pours it (spout seed 7), then over the spout ``seeds``:
    how many runs lose a body over the walls, and how long the slowest takes to sleep.
    Times run from the last body landing (``landed``)."""
    runs = {seed: _rain(seed) for seed in sorted(set(seeds) | {RAIN_SEED})}
    moving_at_1000, settle, out, inside, landing = runs[RAIN_SEED]
    yield "rain: bodies moving after 1,000 steps", float(moving_at_1000), "of 1000"
    yield "rain: the last body lands after the pour", landing, "s"
    yield "rain: all asleep after the last landing (cap 30 s)", settle, "s"
    # A body flung over a wall falls for ever and never sleeps: counted on their own, and
    # the pile in the container timed without them.
    yield "rain: bodies out of the container", float(out), "of 1000"
    yield "rain: all in the container asleep after the last landing", inside, "s"
    named = f"rain, spout seeds {seeds[0]}-{seeds[-1]}"
    chosen = [runs[seed] for seed in seeds]
    yield f"{named}: runs with bodies out", float(sum(r[2] > 0 for r in chosen)), f"of {len(seeds)}"
    yield (
        f"{named}: runs all asleep within 5 s",
        float(sum(r[1] <= 5.0 for r in chosen)),
        f"of {len(seeds)}",
    )
    yield (
        f"{named}: runs all in the container asleep within 5 s",
        float(sum(r[3] <= 5.0 for r in chosen)),
        f"of {len(seeds)}",
    )
    yield f"{named}: slowest in-container pile to sleep", max(r[3] for r in chosen), "s"


# The spout's seed in the rain demo.
RAIN_SEED = 7


def _rain(seed: int):
    """(bodies moving after 1,000 steps, seconds from the last landing to all asleep,
    bodies out of the container, seconds from the last landing to all those in it asleep,
    seconds from the pour to the last landing; inf: not within 30 s)."""
    world = World(**SOLVER)
    add_container(world)
    poured: dict = {}
    spout = Spout(poured, seed=seed)
    steps, poured_at, landed_at, asleep_at, moving_at_1000, inside_at = 0, *[None] * 5
    while steps < 250 + 30 * 60:
        spout.before_step(world)
        world.step()
        steps += 1
        dynamic = world.kinds == World.KIND_CODES["dynamic"]
        if poured_at is None and dynamic.sum() >= 1000:
            poured_at = steps
        if poured_at is not None and landed_at is None:
            if all(landed(body.velocity) for body in list(poured)[-PER_STEP:]):
                landed_at = steps
        if steps == 1000:
            speed = np.hypot(*world.velocities[dynamic].T)
            moving_at_1000 = int((speed > world.sleep_threshold).sum())
        if landed_at is not None and inside_at is None:
            if not world.awake[dynamic][in_container(world)].any():
                inside_at = steps
        if landed_at is not None and not world.awake[dynamic].any():
            asleep_at = steps
            break
    if moving_at_1000 is None:  # all asleep before: none moves
        moving_at_1000 = 0

    def since_landing(at):
        return math.inf if at is None or landed_at is None else (at - landed_at) * world.dt

    out = int((~in_container(world)).sum())
    landing = math.inf if landed_at is None else (landed_at - poured_at) * world.dt
    return moving_at_1000, since_landing(asleep_at), out, since_landing(inside_at), landing


def landed(velocity) -> bool:
    """Whether a body of the rain's pour has landed, from its velocity (2,): slowed to half
    its speed at birth. Touching is no test: bodies of one pour graze each other as they
    fall, at 12 m/s and faster."""
    return velocity[1] > -0.5 * FALL_SPEED


def in_container(world: World) -> np.ndarray:
    """(D,) bool: each dynamic body's centre inside the rain container (floor, walls)."""
    position = world.positions[world.kinds == World.KIND_CODES["dynamic"]]
    x, y = position[:, 0], position[:, 1]
    # The walls' inner faces lean in by 0.06 (add_container): x = +-(13 - 0.06 (y - 10)),
    # up to their tops near y = 21; a heap above the brim, or a body on a wall's top, is
    # still in it: out is below the floor or past a wall's outer face (1 m further).
    return (y > 0.0) & (np.abs(x) < 14.0 - 0.06 * (np.minimum(y, 21.0) - 10.0))


def whipping_chain(links: int = 100):
    world = World(sleep=False, **SOLVER)
    bodies, joints, previous = [], [], None
    for i in range(links):
        link = world.add_body(Box(0.5, 0.1), position=(0.25 + 0.5 * i, 0))
        joints.append(world.add_joint(RevoluteJoint(link, previous, anchor=(0.5 * i, 0))))
        bodies.append(link)
        previous = link
    widest = 0.0
    for _ in range(300):
        world.step()
        for joint in joints[1:]:
            widest = max(widest, float(np.hypot(*(joint.anchor_a - joint.anchor_b))))
    yield f"{links}-link chain whipping: widest pivot gap", widest * 100, "cm"


def heavy_chain(links: int = 20):
    world = World(sleep=False, **SOLVER)
    previous = None
    for i in range(links):
        link = world.add_body(Box(0.1, 0.5), position=(0, -0.25 - 0.5 * i))
        world.add_joint(RevoluteJoint(link, previous, anchor=(0, -0.5 * i)))
        previous = link
    weight = world.add_body(Circle(0.3), position=(0, -0.5 * links - 0.3),
                            density=100 * previous.mass / (math.pi * 0.09))  # fmt: skip
    world.add_joint(RevoluteJoint(weight, previous, anchor=(0, -0.5 * links)))
    worst = 0.0
    for _ in range(300):
        world.step()
        length = -(weight.position[1] + 0.3 * math.cos(weight.angle))  # the top pin
        worst = max(worst, length / (0.5 * links) - 1)
    yield f"{links}-link chain holding 100x a link: stretch", worst * 100, "%"


def landing():
    """A 1 kg box dropped from the height that makes it land at 4.25 m/s (restitution 0)."""
    world = World(**SOLVER)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    drop = 4.25**2 / (2 * G)
    box = world.add_body(Box(1, 1), position=(0, 0.5 + drop), density=1.0)
    seen = []
    world.on("contact_begin", lambda contact: seen.append(contact.normal_impulse))
    for _ in range(120):
        world.step()
        if seen:
            break
    yield "4.25 m/s landing: contact_begin impulse / m v", seen[0] / (box.mass * 4.25), "x"


SCENES = (bounce_errors, chaos_box, tumbler, mass_ratio, heavy_on_light, lambda: column(20),
          lambda: column(30), rain, whipping_chain, heavy_chain, landing)  # fmt: skip


def run(solver: dict | None = None):
    """(label, value, unit) of every scene, with the World arguments ``solver``."""
    SOLVER.clear()
    SOLVER.update(solver or {})
    try:
        for scene in SCENES:
            yield from scene()
    finally:
        SOLVER.clear()


if __name__ == "__main__":
    columns = {name: list(run(solver)) for name, solver in SOLVERS.items()}
    print(f"{'':<52} " + " ".join(f"{name:>12}" for name in columns))
    for rows in zip(*columns.values()):
        label, unit = rows[0][0], rows[0][2]
        print(f"{label:<52} " + " ".join(f"{value:>12.4g}" for _, value, _ in rows) + f"  {unit}")
