"""The solver-quality scenes of ``bench/solver_quality.py`` in pymunk, in Box2D 2.3 and
in Box2D 3.

Each scene is built once, through a small adapter per engine that offers the part of
``World.add_body`` the scenes use, so both engines get the same sizes, masses, positions,
random seeds, restitution and friction (0.6 unless a scene says otherwise), dt 1/60 and
gravity -9.81, and each figure is taken by the engine's own rule (see its docstring). The
rain pile is poured by the rain scene's own ``add_container`` and ``Spout`` (the same
container, shapes, seed and schedule), the concave stars as the four convex parts the
engine splits them into.

Settings: each engine's defaults.

- pymunk 7: ``iterations`` 10, ``collision_slop`` 0.1, ``collision_bias`` (1 - 0.1)^60,
  ``collision_persistence`` 3, no damping; sleeping (where the scene sleeps)
  ``sleep_time_threshold`` 0.5 s with ``idle_speed_threshold`` 0 (pymunk then takes
  |g| dt, 0.16 m/s); no continuous collision. pymunk mixes materials by product, so each
  shape gets sqrt(friction) (the pair gets sqrt(fa fb), the engine's rule) and static or
  kinematic shapes elasticity 1 (the pair gets the dynamic body's restitution, which is
  the engine's max rule here: no scene gives two touching bodies restitution).
- Box2D 2.3 (pybox2d): ``Step(dt, 8, 3)`` (velocity and position iterations, as its
  testbed), warm starting and continuous collision on, sleeping ``allowSleep`` on where
  the scene sleeps (0.5 s under 0.01 m/s and 2 deg/s). Its own constants matter in places:
  ``b2_linearSlop`` 5 mm; every polygon carries a 1 cm skin (``b2_polygonRadius``), so
  polygons rest about 1.5 cm apart; a body moves at most ``b2_maxTranslation`` 2 m a step
  (120 m/s at 60 Hz: the chaos box's 200 m/s throws are capped); it works in float32.
- Box2D 3.1 (pyb2d3): ``step(dt, 4)``, the soft step: 4 sub-steps, contact springs of
  30 Hz (twice that against static and kinematic bodies) with damping ratio 10, push-out
  at most 3 m/s, one relax pass, a restitution pass; continuous collision on; sleeping
  where the scene sleeps (0.5 s under 0.05 m/s). Its polygons have no skin; it works in
  float32 and caps speeds at 400 m/s.

What differs from the engine's scenes, and how each figure is taken:

- tumbler: the deepest contact is the overlap of the shapes as built: pymunk's contact
  distance; for Box2D the gap between the polygons themselves (skins left out), from the
  contact manifold; for Box2D 3 (pyb2d3 does not expose a body's contacts) the deepest
  box vertex inside a wall, measured from the poses.
- rain: "moving" is an awake body faster than the engine's sleep speed 0.05 m/s (the same
  rule for all); each engine falls asleep by its own rule (see above).
- landing: none has the engine's ``contact_begin`` impulse, and pyb2d3 reports no
  contact impulses at all (its figure is nan). pymunk: ``total_impulse``
  (normal part) in ``post_solve`` of the step the arbiter is new (``is_first_contact``);
  Box2D: the normal impulses ``PostSolve`` reports in the step ``BeginContact`` fires.
- chaos box, Box2D: the bodies are thrown at the scene's speeds; Box2D caps them at
  120 m/s in its step. pymunk has no continuous collision: fast bodies pass the walls.
- slab and columns, Box2D: the skins hold each resting contact about 1.5 cm apart, so the
  slab ends higher than it started (a negative drop) and a column stands taller; the
  columns' "standing" rule (top within half a box of its start height) is unaffected.
- pymunk's slop of 0.1 is sized for pixels, but it is not what sinks its contacts: at
  0.005 the tumbler's 13 cm and the slab's 16 mm barely change (12 cm, 13 mm); the pile
  then no longer sleeps within 30 s (261 bodies moving after 1,000 steps).
- rain, Box2D: the pile stands taller (the skins), and a star of the last pour rolls over
  the right wall (about step 358) and falls for the rest of the run (one of the bodies
  counted as moving), so the pile is never all asleep by the engine's rule (every dynamic
  body).

Run with ``python -m bench.solver_quality_reference`` (about 100 s).
"""

from __future__ import annotations

import math

import numpy as np

from bench.reference_worlds import DT, ENGINES, SLEEP_SPEED, G
from bench.solver_quality import DRUM_SIDE, RAIN_SEED, add_tumbler, landed
from demos.scenes.rain import PER_STEP, Spout, add_container
from engine import Box, Circle


def bounce_errors(make):
    h, r = 2.0, 0.25
    for e in (0.2, 0.5, 0.8):
        world = make()
        world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
        ball = world.add_body(Circle(r), position=(0, h + r), restitution=e)
        error = bounce_apex(world, ball, r) / (e * e * h) - 1
        yield f"bounce apex e={e} from 2 m, dt 1/60: error", error, "of e^2 h"


def bounce_apex(world, ball, r: float) -> float:
    """The height above the ground of the ball's first rebound apex."""
    phase, apex = "falling", -math.inf
    for _ in range(600):
        world.step()
        vy = world.velocity(ball)[1]
        if phase == "falling" and vy > 0:
            phase = "rising"
        if phase == "rising":
            apex = max(apex, world.position(ball)[1] - r)
            if vy <= 0:
                break
    return apex


def chaos_box(make, seeds: range = range(1, 9)):
    in_walls, finite = 0, True
    for seed in seeds:
        count, seed_finite = _chaos_box(make, seed)
        in_walls += count
        finite = finite and seed_finite
    label = f"chaos box, {len(seeds)} seeds: bodies with their centre in a wall"
    yield label, in_walls, f"of {300 * len(seeds)}"
    yield "chaos box: every number finite", float(finite), "(1 yes)"


def _chaos_box(make, seed: int):
    """(bodies whose centre ends outside the box's inside, whether all is finite)."""
    rng = np.random.default_rng(seed)
    world = make()
    width, height = 40.0, 30.0
    for x, y, w, h in ((0, -0.5, width + 2, 1), (0, height + 0.5, width + 2, 1),
                       (-width / 2 - 0.5, height / 2, 1, height),
                       (width / 2 + 0.5, height / 2, 1, height)):  # fmt: skip
        world.add_body(Box(w, h), position=(x, y), kind="static")
    bodies = []
    for _ in range(300):  # the engine's draws, in its order
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
    positions = np.array([world.position(body) for body in bodies])
    inside = (
        (np.abs(positions[:, 0]) < width / 2) & (positions[:, 1] > 0) & (positions[:, 1] < height)
    )
    return float((~inside).sum()), bool(world.finite())


def tumbler(make, seeds: range = range(1, 7)):
    """Seed 1, then the worst over ``seeds``, as the engine's bench reports them."""
    runs = [_tumbler(make, seed) for seed in seeds]
    deepest, escaped = runs[0]
    yield "tumbler: deepest box in a wall", deepest.max() * 100, "cm"
    yield "tumbler: boxes outside it after 10 s", escaped, "of 300"
    named = f"tumbler, seeds {seeds[0]}-{seeds[-1]}"
    yield f"{named}: deepest box in a wall, worst seed", max(d.max() for d, _ in runs) * 100, "cm"
    worst_99 = max(float(np.percentile(d, 99)) for d, _ in runs) * 100
    yield f"{named}: 99th percentile of the steps' deepest, worst seed", worst_99, "cm"


def _tumbler(make, seed: int):
    world = make()
    drum, boxes = add_tumbler(world, seed)
    half = DRUM_SIDE / 2
    deepest = np.zeros(600)
    for step in range(600):
        world.step()
        deepest[step] = world.deepest(drum)
    c, s = math.cos(world.angle(drum)), math.sin(world.angle(drum))
    centres = np.array([world.position(box) for box in boxes]) - world.position(drum)
    local = centres @ np.array([[c, -s], [s, c]])
    return deepest, float((np.abs(local) > half).any(axis=1).sum())


def mass_ratio(make):
    world = make()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    for x in (-1.5, 0.0, 1.5):
        world.add_body(Box(0.5, 0.5), position=(x, 0.25), density=4.0)  # 1 kg
    slab = world.add_body(Box(4.0, 0.5), position=(0, 0.75), density=50.0)  # 100 kg
    for _ in range(300):
        world.step()
    drop = (0.75 - world.position(slab)[1]) * 1000
    yield "mass ratio 100:1 slab on boxes: drop", drop, "mm"


def column(make, count: int, seconds: float = 60.0):
    rng = np.random.default_rng(count)
    world = make(sleep=False)
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    boxes = [world.add_body(Box(1, 1), position=(rng.uniform(-0.01, 0.01), 0.5 + i))
             for i in range(count)]  # fmt: skip
    start = world.position(boxes[-1])[0]
    for _ in range(round(seconds / DT)):
        world.step()
    top = world.position(boxes[-1])
    standing = top[1] > count - 1.0  # the engine's rule: within half a box of its height
    drift = abs(top[0] - start) * 100 if standing else math.inf
    yield f"column of {count}, sleeping off, {seconds:g} s: top drift", drift, "cm (inf: fell)"


def rain(make, seeds: range = range(1, 9)):
    """The demo's pour (spout seed 7), then how many runs over the spout ``seeds`` sleep
    within 5 s of the last body landing (``bench.solver_quality.landed``)."""
    runs = {seed: _rain(make, seed) for seed in sorted(set(seeds) | {RAIN_SEED})}
    moving_at_1000, settle = runs[RAIN_SEED]
    yield "rain: bodies moving after 1,000 steps", float(moving_at_1000), "of 1000"
    yield (
        "rain: all asleep after the last landing (cap 30 s)", settle,
        "s (inf: not within 30 s)",
    )  # fmt: skip
    named = f"rain, spout seeds {seeds[0]}-{seeds[-1]}"
    quick = float(sum(runs[seed][1] <= 5.0 for seed in seeds))
    yield f"{named}: runs all asleep within 5 s", quick, f"of {len(seeds)}"


def _rain(make, seed: int):
    """(bodies moving after 1,000 steps, seconds from the last landing to all asleep or
    inf)."""
    world = make()
    add_container(world)
    poured: dict = {}
    spout = Spout(poured, seed=seed)
    steps, poured_at, landed_at, asleep_at, moving_at_1000 = 0, None, None, None, None
    while steps < 250 + 30 * 60 and (asleep_at is None or moving_at_1000 is None):
        spout.before_step(world)
        world.step()
        steps += 1
        if poured_at is None and len(world.dynamic) >= 1000:
            poured_at = steps
        if poured_at is not None and landed_at is None:
            if all(landed(world.velocity(body)) for body in list(poured)[-PER_STEP:]):
                landed_at = steps
        if steps == 1000:
            moving_at_1000 = sum(
                not world.asleep(body) and np.hypot(*world.velocity(body)) > SLEEP_SPEED
                for body in world.dynamic
            )
        if asleep_at is None and landed_at is not None:
            if all(world.asleep(body) for body in world.dynamic):
                asleep_at = steps
    settle = math.inf if asleep_at is None else (asleep_at - landed_at) * DT
    return moving_at_1000, settle


def whipping_chain(make, links: int = 100):
    world = make(sleep=False)
    joints, previous = [], None
    for i in range(links):
        link = world.add_body(Box(0.5, 0.1), position=(0.25 + 0.5 * i, 0))
        joints.append(world.add_pin(link, previous, anchor=(0.5 * i, 0)))
        previous = link
    widest = 0.0
    for _ in range(300):
        world.step()
        widest = max(widest, max(world.pin_gap(joint) for joint in joints[1:]))
    yield f"{links}-link chain whipping: widest pivot gap", widest * 100, "cm"


def heavy_chain(make, links: int = 20):
    world = make(sleep=False)
    previous = None
    for i in range(links):
        link = world.add_body(Box(0.1, 0.5), position=(0, -0.25 - 0.5 * i))
        world.add_pin(link, previous, anchor=(0, -0.5 * i))
        previous = link
    link_mass = 0.1 * 0.5  # density 1
    weight = world.add_body(Circle(0.3), position=(0, -0.5 * links - 0.3),
                            density=100 * link_mass / (math.pi * 0.09))  # fmt: skip
    world.add_pin(weight, previous, anchor=(0, -0.5 * links))
    worst = 0.0
    for _ in range(300):
        world.step()
        # The weight's top pin, as the engine's scene measures it.
        length = -(world.position(weight)[1] + 0.3 * math.cos(world.angle(weight)))
        worst = max(worst, length / (0.5 * links) - 1)
    yield f"{links}-link chain holding 100x a link: stretch", worst * 100, "%"


def landing(make):
    """A 1 kg box landing at 4.25 m/s: the impulse of the contact's first step / m v."""
    world = make()
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    drop = 4.25**2 / (2 * G)
    world.add_body(Box(1, 1), position=(0, 0.5 + drop), density=1.0)  # 1 kg
    seen = world.record_first_impulses()
    for _ in range(120):
        world.step()
        if seen:
            break
    # Not contact_begin (neither engine reports an impulse at begin): pymunk's post_solve
    # total_impulse in the arbiter's first step, Box2D's PostSolve in BeginContact's step.
    label = "4.25 m/s landing: first-step contact impulse / m v"
    ratio = seen[0] / (1.0 * 4.25) if seen else math.nan  # nan: not reported
    yield label, ratio, "x (post_solve / PostSolve)"


SCENES = (bounce_errors, chaos_box, tumbler, mass_ratio, lambda make: column(make, 20),
          lambda make: column(make, 30), rain, whipping_chain, heavy_chain,
          landing)  # fmt: skip


def run(make):
    """(label, value, unit) of every scene in the engine ``make`` builds."""
    for scene in SCENES:
        yield from scene(make)


def main() -> None:
    from importlib.metadata import version

    import Box2D
    import pymunk

    print(f"pymunk {pymunk.version}: iterations 10, collision_slop 0.1, collision_bias "
          "(1-0.1)^60, sleep_time_threshold 0.5 s, idle_speed_threshold 0 (|g| dt)")  # fmt: skip
    print(f"Box2D {Box2D.__version__}: Step(1/60, velocityIterations 8, positionIterations 3), "
          "allowSleep on, linearSlop 5 mm, polygon skin 1 cm, maxTranslation 2 m/step")  # fmt: skip
    print(f"Box2D 3 (pyb2d3 {version('pyb2d3')}): step(1/60, 4 sub-steps), contact 30 Hz, "
          "damping ratio 10, push 3 m/s, sleep 0.05 m/s for 0.5 s, no polygon skin")  # fmt: skip
    columns = [list(run(make)) for make in ENGINES]
    print(f"{'':<52} " + " ".join(f"{make.name:>12}" for make in ENGINES))
    for rows in zip(*columns):
        label, unit = rows[0][0], rows[0][2]
        print(f"{label:<52} " + " ".join(f"{value:>12.4g}" for _, value, _ in rows) + f"  {unit}")


if __name__ == "__main__":
    main()
