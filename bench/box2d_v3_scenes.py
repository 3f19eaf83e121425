"""The scenes of Box2D v3's benchmark (its ``benchmark/`` app and ``shared/benchmarks.c``),
built in the engine and in Box2D v3 through pyb2d3, at sizes fit for a 2-core machine.

Each scene has one layout function (positions, shapes, joints: plain numbers), an engine
builder and a pyb2d3 builder that both read it, so the two worlds hold the same bodies.
Every builder takes the scene's sizes as keyword arguments (``SIZES`` holds the bench's;
the tests build them much smaller; the engine's also take ``substeps``, None for the
World's default) and returns a ``Scene``: the world, a function that steps it once, and
``problems()``, the sanity check run after the timed steps (every dynamic body's position
and velocity finite, none outside its container; an empty list when all is well). The
engine side needs only the engine: pyb2d3 is imported inside the pyb2d3 builders, so the
tests use this module without it.

The scenes are described in ``bench/box2d_v3_bench.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine import Box, Chain, Circle, Polygon, RevoluteJoint, Segment, World

DT = 1 / 60
GRAVITY = (0.0, -10.0)  # Box2D's default world gravity
BOX2D_SUBSTEPS = 4  # what Box2D's benchmark app steps with

SCENES = ("joint_grid", "smash", "spinner", "tumbler", "many_pyramids", "large_pyramid")

# The bench's sizes, each scene's keyword arguments (Box2D's own in brackets).
SIZES = {
    "joint_grid": {"n": 40},  # (100): 1,600 circles, 3,114 joints
    "smash": {"columns": 60, "rows": 40},  # (120 x 80): 2,400 boxes
    "spinner": {"count": 1500},  # (6,076)
    "tumbler": {"grid": 30},  # (45 x 45): 900 boxes
    "many_pyramids": {"rows": 8, "columns": 8, "base": 10},  # (20 x 20): 3,520 boxes
    "large_pyramid": {"base": 100},  # (100): 5,050 boxes
}

# Steps of each scene in Box2D's benchmark app (the first one untimed there, and here).
STEPS = {
    "joint_grid": 500,
    "smash": 300,
    "spinner": 500,
    "tumbler": 750,
    "many_pyramids": 200,
    "large_pyramid": 500,
}


@dataclass
class Scene:
    """A built scene: ``world`` (an engine World or a pyb2d3 World), ``step()`` advances
    it one step of 1/60 s, ``problems()`` lists what its sanity check found (finite
    state, containment: a list of (bodies, description), empty when all is well), and
    ``counts`` says how many bodies it holds (``bodies``), how many of them the sanity
    check reads (``dynamic``: the scene's moving bodies, the spinner's bar and the
    tumbler's drum left out) and how many joints (``joints``)."""

    name: str
    world: object
    step: Callable[[], None]
    problems: Callable[[], list]
    counts: dict = field(default_factory=dict)


# -- layouts: the scenes' geometry, shared by both engines -------------------------------


def joint_grid_layout(n: int):
    """The joint grid: (n*n, 2) centres (column k at x = k, row i at y = -i), (n*n,) bool
    static (the middle seven of the top row, as Box2D's), and the joints as (J, 2) body
    indices and (J, 2) world anchors (half-way between neighbours). Joints between two
    static bodies, which act on nothing, are left out."""
    k, i = np.divmod(np.arange(n * n), n)
    centres = np.column_stack([k, -i]).astype(float)
    static = (i == 0) & (k >= n // 2 - 3) & (k <= n // 2 + 3)
    pairs = []
    anchors = []
    for index in range(n * n):
        column, row = divmod(index, n)
        if row > 0:
            pairs.append((index - 1, index))
            anchors.append((column, -row + 0.5))
        if column > 0:
            pairs.append((index - n, index))
            anchors.append((column - 0.5, -row))
    pairs = np.array(pairs, dtype=np.int64)
    anchors = np.array(anchors, dtype=float)
    keep = ~(static[pairs[:, 0]] & static[pairs[:, 1]])
    return centres, static, pairs[keep], anchors[keep]


SMASH_SIDE = 0.4  # the small boxes' side
SMASH_RAM = {"half": 4.0, "position": (-20.0, 0.0), "velocity": (40.0, 0.0), "density": 8.0}


def smash_layout(columns: int, rows: int) -> np.ndarray:
    """(columns*rows, 2) centres of the smash scene's small boxes (side 0.4, touching)."""
    i, j = np.divmod(np.arange(columns * rows), rows)
    return np.column_stack([i * SMASH_SIDE + 30.0, (j - rows / 2.0) * SMASH_SIDE])


RING_CENTRE = (0.0, 32.0)
RING_RADIUS = 40.0
RING_POINTS = 360
SPINNER_PIVOT = (0.0, 12.0)
SPINNER_SPEED = 5.0  # rad/s


def spinner_ring() -> np.ndarray:
    """(360, 2) points of the spinner's container, clockwise (a room: solid outside)."""
    turns = -2.0 * math.pi * np.arange(RING_POINTS) / RING_POINTS
    return np.column_stack(
        [RING_RADIUS * np.cos(turns) + RING_CENTRE[0], RING_RADIUS * np.sin(turns) + RING_CENTRE[1]]
    )


def spinner_layout(count: int):
    """(count, 2) centres of the spinner's bodies, 92 to a row 0.5 m apart from (-23, 2),
    and (count,) their form: 0 a capsule, 1 a circle, 2 a square, in turn."""
    index = np.arange(count)
    row, column = np.divmod(index, 92)
    return np.column_stack([-23.0 + 0.5 * column, 2.0 + 0.5 * row]), index % 3


DRUM_CENTRE = (0.0, 10.0)
DRUM_SPEED = math.radians(25.0)  # rad/s
DRUM_TORQUE = 1e8
# The drum's four walls: (half width, half height, centre offset), density 50.
DRUM_WALLS = ((0.5, 10.0, (10.0, 0.0)), (0.5, 10.0, (-10.0, 0.0)),
              (10.0, 0.5, (0.0, 10.0)), (10.0, 0.5, (0.0, -10.0)))  # fmt: skip
DRUM_INSIDE = 9.5  # half the drum's inner width
TUMBLER_HALF = 0.125  # the boxes' half side


def tumbler_layout(grid: int) -> np.ndarray:
    """(grid*grid, 2) centres of the tumbler's boxes, 0.4 m apart around the drum's centre."""
    i, j = np.divmod(np.arange(grid * grid), grid)
    return np.column_stack([-0.2 * grid + 0.4 * j, -0.2 * grid + 10.0 + 0.4 * i])


def pyramid_layout(base: int, half: float, centre_x: float, base_y: float) -> np.ndarray:
    """Centres of a pyramid of boxes of half side ``half``, ``base`` at the bottom, the
    rows touching, bottom row resting on y = base_y (Box2D's small pyramid)."""
    centres = []
    for row in range(base):
        y = (2 * row + 1) * half + base_y
        for j in range(row, base):
            centres.append(((row + 1) * half + 2 * (j - row) * half + centre_x - 0.5, y))
    return np.array(centres)


def many_pyramids_layout(rows: int, columns: int, base: int):
    """The many pyramids: (B, 2) box centres, (B,) the floor each starts on, (rows,) the
    floors' heights and the floors' width (segments centred on x = 0)."""
    half = 0.5
    floor_step = 2 * half * (base + 1)
    width = 2 * half * columns * (base + 1)
    floors = np.arange(rows) * floor_step
    centres, floor_of = [], []
    for row in range(rows):
        for column in range(columns):
            centre_x = -0.5 * width + column * (2 * half * base + 2 * half) + 2 * half
            boxes = pyramid_layout(base, half, centre_x, floors[row])
            centres.append(boxes)
            floor_of += [row] * len(boxes)
    return np.concatenate(centres), np.array(floor_of), floors, width


def large_pyramid_layout(base: int) -> np.ndarray:
    """Centres of the large pyramid's unit boxes, touching, on the ground y = 0."""
    return pyramid_layout(base, 0.5, -0.5 * base + 0.5, 0.0)


# -- sanity: what must hold after the timed steps -----------------------------------------


def check_state(positions, velocities, spins) -> list:
    """Problems with the dynamic bodies' state: any position, velocity or spin not
    finite (a list of one (count, description), or empty)."""
    bad = ~(np.isfinite(positions).all(axis=1) & np.isfinite(velocities).all(axis=1)
            & np.isfinite(spins))  # fmt: skip
    if bad.any():
        return [(int(bad.sum()), f"{int(bad.sum())} bodies with a position or velocity not finite")]
    return []


def _outside(over: np.ndarray, what: str, unit: str = "m") -> list:
    """[(count, description)] of the bodies whose ``over`` (their excess past a limit) is
    positive, or [] if none."""
    count = int((over > 0).sum())
    if not count:
        return []
    return [(count, f"{count} bodies {what} (the worst by {over.max():.3g} {unit})")]


def scene_problems(name: str, size: dict, positions, velocities, spins, drum=None) -> list:
    """The sanity check of scene ``name`` built at ``size``, from the (B, 2) positions,
    (B, 2) velocities and (B,) spins of its dynamic bodies in build order (the tumbler's
    drum and the spinner's bar left out; ``drum``: the tumbler drum's (x, y, angle)).
    Returns a list of (bodies, description), empty when all is well:

    - joint_grid: no body farther from the pinned row's middle than the grid's joints
      reach (1.5 n m, plus 1 m);
    - smash: no body faster than twice the ram's 40 m/s;
    - spinner: no body's centre outside the ring (radius 40 m, 5 cm margin);
    - tumbler: no box's centre outside the drum's inside (9.5 m from its centre along
      either of its axes, in its frame; 5 cm margin);
    - many_pyramids: no box's centre below the floor it started on (by more than 10 cm:
      a resting box's centre is half a metre above it), nor past the floors' ends;
    - large_pyramid: no box's centre below the ground (by more than 10 cm), nor past its
      ends (100 m).
    """
    positions = np.asarray(positions, dtype=float).reshape(-1, 2)
    velocities = np.asarray(velocities, dtype=float).reshape(-1, 2)
    spins = np.asarray(spins, dtype=float).reshape(-1)
    found = check_state(positions, velocities, spins)
    if found:
        return found
    if name == "joint_grid":
        n = size["n"]
        reach = np.hypot(positions[:, 0] - n // 2, positions[:, 1])
        over = reach - (1.5 * n + 1.0)
        found += _outside(over, "beyond the grid's reach")
    elif name == "smash":
        speed = np.hypot(*velocities.T)
        over = speed - 2 * SMASH_RAM["velocity"][0]
        found += _outside(over, "faster than 80 m/s", "m/s")
    elif name == "spinner":
        radius = np.hypot(positions[:, 0] - RING_CENTRE[0], positions[:, 1] - RING_CENTRE[1])
        over = radius - (RING_RADIUS + 0.05)
        found += _outside(over, "outside the ring")
    elif name == "tumbler":
        x, y, angle = drum
        c, s = math.cos(angle), math.sin(angle)
        dx, dy = positions[:, 0] - x, positions[:, 1] - y
        local = np.column_stack([c * dx + s * dy, -s * dx + c * dy])
        over = np.abs(local).max(axis=1) - (DRUM_INSIDE + 0.05)
        found += _outside(over, "outside the drum")
    elif name == "many_pyramids":
        _, floor_of, floors, width = many_pyramids_layout(size["rows"], size["columns"],
                                                          size["base"])  # fmt: skip
        under = floors[floor_of] - 0.1 - positions[:, 1]
        found += _outside(under, "below their floor")
        off = np.abs(positions[:, 0]) - 0.5 * width
        found += _outside(off, "past the floors' ends")
    elif name == "large_pyramid":
        under = -0.1 - positions[:, 1]
        found += _outside(under, "below the ground")
        off = np.abs(positions[:, 0]) - 100.0
        found += _outside(off, "past the ground's ends")
    else:
        raise ValueError(f"scene: unknown scene {name!r}")
    return found


# -- the engine's scenes --------------------------------------------------------------------


def _engine_scene(name: str, size: dict, world: World, skip: int = 0, drum=None) -> Scene:
    """A Scene of an engine world whose dynamic bodies, after the first ``skip`` of them
    (the spinner's bar, the tumbler's drum), are the ones the sanity check reads."""
    dynamic = np.flatnonzero(world.kinds == World.KIND_CODES["dynamic"])[skip:]

    def problems() -> list:
        pose = None
        if drum is not None:
            pose = (*drum.position, drum.angle)
        return scene_problems(name, size, world.positions[dynamic], world.velocities[dynamic],
                              world.angular_velocities[dynamic], drum=pose)  # fmt: skip

    counts = {"bodies": len(world.bodies), "dynamic": len(dynamic), "joints": len(world.joints)}
    return Scene(name, world, world.step, problems, counts)


def engine_joint_grid(n: int = 40, substeps: int | None = None) -> Scene:
    """Box2D's joint grid in the engine: n x n circles of radius 0.4 a metre apart, each
    pinned to its neighbours below and to the right, hanging from seven static ones in
    the middle of the top row; the circles collide with nothing (category 2, mask all
    but 2), sleep off."""
    world = World(gravity=GRAVITY, dt=DT, sleep=False, **_substeps(substeps))
    centres, static, pairs, anchors = joint_grid_layout(n)
    kinds = ["static" if flag else "dynamic" for flag in static]
    bodies = world.add_bodies(Circle(0.4), centres, kind=kinds, category=2, mask=0xFFFF & ~2)
    for (a, b), anchor in zip(pairs.tolist(), anchors.tolist()):
        world.add_joint(RevoluteJoint(bodies[a], bodies[b], anchor))
    return _engine_scene("joint_grid", {"n": n}, world)


def engine_smash(columns: int = 60, rows: int = 40, substeps: int | None = None) -> Scene:
    """Box2D's smash in the engine: an 8 m box of density 8 at 40 m/s into a block of
    columns x rows boxes of 0.4 m, all asleep, no gravity."""
    world = World(gravity=(0.0, 0.0), dt=DT, **_substeps(substeps))
    side = 2 * SMASH_RAM["half"]
    world.add_body(Box(side, side), position=SMASH_RAM["position"],
                   velocity=SMASH_RAM["velocity"], density=SMASH_RAM["density"])  # fmt: skip
    boxes = world.add_bodies(Box(SMASH_SIDE, SMASH_SIDE), smash_layout(columns, rows))
    for body in boxes:
        body.awake = False
    return _engine_scene("smash", {"columns": columns, "rows": rows}, world)


def engine_spinner(count: int = 1500, substeps: int | None = None) -> Scene:
    """Box2D's spinner in the engine: ``count`` capsules, circles and squares (density
    0.25, friction and restitution 0.1) inside a ring of radius 40 m (a looped chain of
    360 links, friction 0.1), stirred by a 40 m bar turned at 5 rad/s about a pivot 20 m
    below the ring's centre by a motor of unbounded torque. The bar is an octagon: a
    1.2 x 40.4 m box with its corners cut at 45 degrees, for Box2D's box rounded by 0.2 m.
    The bar does not collide with the ring (its joint to the ring's body, as in Box2D)."""
    world = World(gravity=GRAVITY, dt=DT, **_substeps(substeps))
    ground = world.add_body(
        Chain(spinner_ring(), loop=True), kind="static", friction=0.1, origin="local"
    )
    bar = world.add_body(Polygon(_bar_outline()), position=SPINNER_PIVOT, friction=0.0)
    world.add_joint(RevoluteJoint(ground, bar, SPINNER_PIVOT, motor_speed=SPINNER_SPEED,
                                  max_motor_torque=1e30))  # fmt: skip
    centres, form = spinner_layout(count)
    forms = (Segment((-0.25, 0.0), (0.25, 0.0), radius=0.25), Circle(0.35), Box(0.7, 0.7))
    world.add_bodies([forms[f] for f in form.tolist()], centres, density=0.25, friction=0.1,
                     restitution=0.1)  # fmt: skip
    return _engine_scene("spinner", {"count": count}, world, skip=1)


def _bar_outline() -> list:
    """The spinner bar's outline: Box2D's box of half sides 0.4 x 20 rounded by 0.2 m, with
    its round corners cut straight (an octagon through the arcs' ends)."""
    hx, hy, r = 0.4, 20.0, 0.2
    return [(hx + r, -hy), (hx + r, hy), (hx, hy + r), (-hx, hy + r),
            (-hx - r, hy), (-hx - r, -hy), (-hx, -hy - r), (hx, -hy - r)]  # fmt: skip


def engine_tumbler(grid: int = 30, substeps: int | None = None) -> Scene:
    """Box2D's tumbler in the engine: grid x grid boxes of 0.25 m in a square drum 20 m
    across (four walls 1 m thick, density 50, a dynamic body) turned at 25 degrees/s about
    its centre by a motor of at most 1e8 N m."""
    world = World(gravity=GRAVITY, dt=DT, **_substeps(substeps))
    walls = [Box(2 * hx, 2 * hy, offset=offset) for hx, hy, offset in DRUM_WALLS]
    drum = world.add_body(walls, position=DRUM_CENTRE, density=50.0)
    world.add_joint(RevoluteJoint(drum, None, DRUM_CENTRE, motor_speed=DRUM_SPEED,
                                  max_motor_torque=DRUM_TORQUE))  # fmt: skip
    side = 2 * TUMBLER_HALF
    world.add_bodies(Box(side, side), tumbler_layout(grid))
    return _engine_scene("tumbler", {"grid": grid}, world, skip=1, drum=drum)


def engine_many_pyramids(rows: int = 8, columns: int = 8, base: int = 10,
                         substeps: int | None = None) -> Scene:  # fmt: skip
    """Box2D's many pyramids in the engine: rows x columns pyramids of unit boxes, ``base``
    at the bottom, each row of pyramids on its own floor (a line, one static body holds
    them all), floors base + 1 m apart; sleep off."""
    world = World(gravity=GRAVITY, dt=DT, sleep=False, **_substeps(substeps))
    centres, _, floors, width = many_pyramids_layout(rows, columns, base)
    world.add_body([Segment((-0.5 * width, y), (0.5 * width, y)) for y in floors.tolist()],
                   kind="static", origin="local")  # fmt: skip
    world.add_bodies(Box(1.0, 1.0), centres)
    size = {"rows": rows, "columns": columns, "base": base}
    return _engine_scene("many_pyramids", size, world)


def engine_large_pyramid(base: int = 100, substeps: int | None = None) -> Scene:
    """Box2D's large pyramid in the engine: a pyramid of unit boxes, ``base`` at the
    bottom, touching, on a 200 m ground box; sleep off."""
    world = World(gravity=GRAVITY, dt=DT, sleep=False, **_substeps(substeps))
    world.add_body(Box(200.0, 2.0), position=(0.0, -1.0), kind="static")
    world.add_bodies(Box(1.0, 1.0), large_pyramid_layout(base))
    return _engine_scene("large_pyramid", {"base": base}, world)


def _substeps(substeps: int | None) -> dict:
    return {} if substeps is None else {"substeps": substeps}


ENGINE_BUILDERS = {
    "joint_grid": engine_joint_grid,
    "smash": engine_smash,
    "spinner": engine_spinner,
    "tumbler": engine_tumbler,
    "many_pyramids": engine_many_pyramids,
    "large_pyramid": engine_large_pyramid,
}


# -- Box2D v3's scenes (pyb2d3, imported when first used) ----------------------------------


class _Box2D:
    """A pyb2d3 world being built: the pyb2d3 module (``b2``), the world, how many bodies
    it holds, and the dynamic bodies the sanity check reads (``checked``), in build order."""

    def __init__(self, gravity=GRAVITY, sleep: bool = True):
        import pyb2d3

        self.b2 = pyb2d3
        self.world = pyb2d3.World(gravity=gravity)  # one thread: no thread pool given
        self.world.sleeping_enabled = sleep
        self.checked = []
        self.world_bodies = 0

    def body(self, position, kind: str = "dynamic", **settings):
        """A new body at ``position`` (its origin) of ``kind``, with BodyDef ``settings``."""
        types = self.b2.BodyType
        definition = self.b2.body_def(type=getattr(types, kind.upper()),
                                      position=tuple(map(float, position)), **settings)  # fmt: skip
        self.world_bodies += 1
        return self.world.create_body_from_def(definition)

    def shape_def(self, density=1.0, friction=0.6, restitution=0.0, **settings):
        """A ShapeDef with this density and material and ShapeDef ``settings``."""
        b2 = self.b2
        material = b2.surface_material(friction=friction, restitution=restitution)
        return b2.shape_def(density=density, material=material, **settings)

    def scene(self, name: str, size: dict, drum=None, joints: int = 0) -> Scene:
        """The built world as a Scene (``drum``: the tumbler's drum body)."""
        bodies = self.checked

        def problems() -> list:
            positions = [tuple(body.position) for body in bodies]
            velocities = [tuple(body.linear_velocity) for body in bodies]
            spins = [body.angular_velocity for body in bodies]
            pose = None if drum is None else (*tuple(drum.position), drum.angle)
            return scene_problems(name, size, positions, velocities, spins, drum=pose)

        def step() -> None:
            self.world.step(DT, BOX2D_SUBSTEPS)

        counts = {"bodies": self.world_bodies, "dynamic": len(bodies), "joints": joints}
        return Scene(name, self.world, step, problems, counts)


def box2d_joint_grid(n: int = 40) -> Scene:
    """The joint grid in Box2D v3 (see ``engine_joint_grid``)."""
    made = _Box2D(sleep=False)
    b2 = made.b2
    shape = made.shape_def(filter=b2.make_filter(category_bits=2, mask_bits=(2**64 - 1) & ~2))
    circle = b2.circle((0.0, 0.0), 0.4)
    centres, static, pairs, anchors = joint_grid_layout(n)
    bodies = []
    for centre, flag in zip(centres, static.tolist()):
        body = made.body(centre, "static" if flag else "dynamic")
        body.create_circle_shape(shape, circle)
        bodies.append(body)
        if not flag:
            made.checked.append(body)
    for (a, b), anchor in zip(pairs.tolist(), anchors):
        made.world.create_revolute_joint(
            body_a=bodies[a], body_b=bodies[b], local_anchor_a=tuple(anchor - centres[a]),
            local_anchor_b=tuple(anchor - centres[b]),
        )  # fmt: skip
    return made.scene("joint_grid", {"n": n}, joints=len(pairs))


def box2d_smash(columns: int = 60, rows: int = 40) -> Scene:
    """The smash in Box2D v3 (see ``engine_smash``)."""
    made = _Box2D(gravity=(0.0, 0.0))
    b2 = made.b2
    ram = made.body(SMASH_RAM["position"], linear_velocity=SMASH_RAM["velocity"])
    half = SMASH_RAM["half"]
    ram.create_polygon_shape(made.shape_def(density=SMASH_RAM["density"]), b2.box(half, half))
    made.checked.append(ram)
    shape, square = made.shape_def(), b2.box(0.5 * SMASH_SIDE, 0.5 * SMASH_SIDE)
    for centre in smash_layout(columns, rows):
        body = made.body(centre, is_awake=False)
        body.create_polygon_shape(shape, square)
        made.checked.append(body)
    return made.scene("smash", {"columns": columns, "rows": rows})


def box2d_spinner(count: int = 1500) -> Scene:
    """The spinner in Box2D v3 (see ``engine_spinner``), with its rounded bar."""
    made = _Box2D()
    b2 = made.b2
    ground = made.body((0.0, 0.0), "static")
    ground.create_chain(b2.chain_def(spinner_ring(), is_loop=True,
                                     material=b2.surface_material(friction=0.1)))  # fmt: skip
    bar = made.body(SPINNER_PIVOT, enable_sleep=False)
    bar.create_polygon_shape(made.shape_def(friction=0.0), b2.box(0.4, 20.0, radius=0.2))
    made.world.create_revolute_joint(
        body_a=ground, body_b=bar, local_anchor_a=SPINNER_PIVOT, local_anchor_b=(0.0, 0.0),
        enable_motor=True, motor_speed=SPINNER_SPEED, max_motor_torque=3.4e38,
    )  # fmt: skip
    shape = made.shape_def(density=0.25, friction=0.1, restitution=0.1)
    centres, form = spinner_layout(count)
    capsule = b2.capsule((-0.25, 0.0), (0.25, 0.0), 0.25)
    circle, square = b2.circle((0.0, 0.0), 0.35), b2.box(0.35, 0.35)
    for centre, f in zip(centres, form.tolist()):
        body = made.body(centre)
        if f == 0:
            body.create_capsule_shape(shape, capsule)
        elif f == 1:
            body.create_circle_shape(shape, circle)
        else:
            body.create_polygon_shape(shape, square)
        made.checked.append(body)
    return made.scene("spinner", {"count": count}, joints=1)


def box2d_tumbler(grid: int = 30) -> Scene:
    """The tumbler in Box2D v3 (see ``engine_tumbler``)."""
    made = _Box2D()
    b2 = made.b2
    ground = made.body((0.0, 0.0), "static")
    drum = made.body(DRUM_CENTRE)
    wall = made.shape_def(density=50.0)
    for hx, hy, offset in DRUM_WALLS:
        drum.create_polygon_shape(wall, b2.box(hx, hy, center=offset, rotation=0.0))
    made.world.create_revolute_joint(
        body_a=ground, body_b=drum, local_anchor_a=DRUM_CENTRE, local_anchor_b=(0.0, 0.0),
        enable_motor=True, motor_speed=DRUM_SPEED, max_motor_torque=DRUM_TORQUE,
    )  # fmt: skip
    shape, square = made.shape_def(), b2.box(TUMBLER_HALF, TUMBLER_HALF)
    for centre in tumbler_layout(grid):
        body = made.body(centre)
        body.create_polygon_shape(shape, square)
        made.checked.append(body)
    return made.scene("tumbler", {"grid": grid}, drum=drum, joints=1)


def box2d_many_pyramids(rows: int = 8, columns: int = 8, base: int = 10) -> Scene:
    """The many pyramids in Box2D v3 (see ``engine_many_pyramids``)."""
    made = _Box2D(sleep=False)
    b2 = made.b2
    centres, _, floors, width = many_pyramids_layout(rows, columns, base)
    ground = made.body((0.0, 0.0), "static")
    for y in floors.tolist():
        ground.create_segment_shape(made.shape_def(), b2.segment((-0.5 * width, y),
                                                                 (0.5 * width, y)))  # fmt: skip
    _box2d_boxes(made, centres)
    return made.scene("many_pyramids", {"rows": rows, "columns": columns, "base": base})


def box2d_large_pyramid(base: int = 100) -> Scene:
    """The large pyramid in Box2D v3 (see ``engine_large_pyramid``)."""
    made = _Box2D(sleep=False)
    ground = made.body((0.0, -1.0), "static")
    ground.create_polygon_shape(made.shape_def(), made.b2.box(100.0, 1.0))
    _box2d_boxes(made, large_pyramid_layout(base))
    return made.scene("large_pyramid", {"base": base})


def _box2d_boxes(made: _Box2D, centres) -> None:
    """Dynamic unit boxes at ``centres``, density 1, friction 0.6."""
    shape, square = made.shape_def(), made.b2.box(0.5, 0.5)
    for centre in centres:
        body = made.body(centre)
        body.create_polygon_shape(shape, square)
        made.checked.append(body)


BOX2D_BUILDERS = {
    "joint_grid": box2d_joint_grid,
    "smash": box2d_smash,
    "spinner": box2d_spinner,
    "tumbler": box2d_tumbler,
    "many_pyramids": box2d_many_pyramids,
    "large_pyramid": box2d_large_pyramid,
}
