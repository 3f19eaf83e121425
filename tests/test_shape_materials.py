"""Shapes with their own material and role: density, friction, restitution, sensor flag,
collision filter and tag per shape, against physics and independent oracles."""

from __future__ import annotations

import io
import math
import pickle

import numpy as np
import pytest
from builders import L_OUTLINE, G, add_ground
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Box, Circle, ConcavePolygon, Polygon, World


def level(dt: float = 1 / 60, substeps: int | None = None, **ground) -> World:
    solver = {} if substeps is None else {"substeps": substeps}
    world = World(gravity=(0.0, -G), dt=dt, **solver)
    add_ground(world, **ground)
    return world


# -- the shapes themselves ---------------------------------------------------------------------
def test_a_shape_keeps_what_it_sets_and_shows_it():
    foot = Circle(0.2, offset=(0, -1), sensor=True, tag="foot")
    assert (foot.sensor, foot.tag, foot.friction, foot.density) == (True, "foot", None, None)
    assert foot.material == {"sensor": True, "tag": "foot"}
    assert repr(foot) == "Circle(radius=0.2, offset=(0.0, -1.0), sensor=True, tag='foot')"
    assert repr(Box(1, 2, friction=0.1)).endswith("angle=0.0, friction=0.1)")
    assert (
        repr(Polygon([(0, 0), (1, 0), (0, 1)])) == "Polygon([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])"
    )
    with pytest.raises(AttributeError, match="immutable"):
        foot.friction = 0.5
    again = pickle.loads(pickle.dumps(foot))
    assert again.material == foot.material and repr(again) == repr(foot)
    # A shape's own density is its default for mass(); an argument still wins.
    dense = Box(2, 1, density=3.0)
    assert (dense.mass(), dense.mass(1.0), Box(2, 1).mass()) == (6.0, 2.0, 2.0)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Circle(1, friction=-0.5), ValueError, "friction: must be >= 0, got -0.5"),
        (lambda: Box(1, 1, restitution=1.5), ValueError, r"restitution: must be in \[0, 1\]"),
        (lambda: Polygon(L_OUTLINE[:3], density=0), ValueError, "density: must be > 0"),
        (lambda: ConcavePolygon(L_OUTLINE, sensor=1), TypeError, "sensor: expected a bool"),
        (lambda: Circle(1, category=0x10000), ValueError, "category: must be a 16-bit"),
        (lambda: Circle(1, mask="all"), TypeError, "mask: expected an int"),
        (lambda: Circle(1, group=2**40), ValueError, "group: must fit in 32 bits"),
        (lambda: Circle(1, tag=""), ValueError, "tag: must not be empty"),
        (lambda: Circle(1, density=math.nan), ValueError, "density: must be finite"),
    ],
)
def test_bad_settings_are_refused_as_add_body_refuses_them(make, error, message):
    with pytest.raises(error, match=message):
        make()


# -- mass properties ---------------------------------------------------------------------------
def test_a_compound_of_dense_and_light_shapes_has_the_mass_weighted_centroid_and_inertia():
    """Oracle: a w x h box has area w h and polar moment A (w^2 + h^2) / 12 about its
    centre; a disc of radius r, A = pi r^2 and A r^2 / 2; the parallel-axis theorem moves
    them to the centre of mass."""
    box, disc = Box(1.0, 0.5, offset=(-0.5, 0.25), density=8.0), Circle(0.3, offset=(1.0, 0.0))
    world = World(gravity=(0, 0))
    body = world.add_body([box, disc], density=0.5, origin="local")
    pieces = [  # (density, area, centre, moment of area about the centre)
        (8.0, 0.5, np.array([-0.5, 0.25]), 0.5 * (1.0 + 0.25) / 12),
        (0.5, math.pi * 0.09, np.array([1.0, 0.0]), math.pi * 0.09 * 0.09 / 2),
    ]
    mass = sum(rho * area for rho, area, _, _ in pieces)
    centre = sum(rho * area * c for rho, area, c, _ in pieces) / mass
    inertia = sum(rho * (j + area * np.sum((c - centre) ** 2)) for rho, area, c, j in pieces)
    assert body.mass == pytest.approx(mass, rel=1e-14)
    assert body.inertia == pytest.approx(inertia, rel=1e-14)
    np.testing.assert_allclose(body.center_of_mass, centre, rtol=0, atol=1e-15)
    assert body.density == 0.5  # the body's own: its shapes without their own take it
    # A force through the centre of mass does not turn it.
    body.apply_force((0.0, 10.0), point=body.center_of_mass)
    world.step()
    assert body.angular_velocity == 0.0 and body.velocity[1] > 0.0


def test_a_new_mass_scales_every_density_and_kind_recomputes_from_them():
    world = World()
    body = world.add_body([Box(1, 1, density=4.0), Circle(0.5, (2, 0))], density=1.0)
    mass, inertia = body.mass, body.inertia
    body.mass = 3.0 * mass
    assert body.inertia == pytest.approx(3.0 * inertia, rel=1e-14)
    assert body.density == pytest.approx(3.0, rel=1e-15)
    body.kind = "static"
    body.kind = "dynamic"  # from the parts' densities, scaled by the same factor
    assert body.mass == pytest.approx(3.0 * mass, rel=1e-14)
    assert body.inertia == pytest.approx(3.0 * inertia, rel=1e-14)


# -- friction and restitution per shape --------------------------------------------------------
def slide(world: World, body, steps: int) -> tuple[float, float, float]:
    """Step ``steps`` times: (the body's loss of x speed times its mass, the normal and the
    tangent impulses, unsigned, that its contacts passed over those steps)."""
    start, normal, tangent = body.velocity[0], 0.0, 0.0
    index = world.index_of(body)
    for _ in range(steps):
        world.step()
        table = world.contact_arrays()
        mine = (table.rows == index).any(axis=1)
        normal += float(table.normal_impulse[mine].sum())
        tangent += abs(float(table.tangent_impulse[mine].sum()))
    return (start - body.velocity[0]) * body.mass, normal, tangent


def assert_slides_with(world: World, body, mu: float, steps: int) -> None:
    """Sliding on flat ground, only friction slows the body, and friction is never more
    than mu times the normal impulse (Coulomb). Nor is it much less, and the deceleration
    is mu g, but for the body tipping into its contact springs as it starts sliding: the
    normal rows that follow friction in a visit can raise the load it was bounded by
    (measured: 2.8e-4 short on the rubber face at the third step, halving each step)."""
    loss, normal, tangent = slide(world, body, steps)
    assert loss == pytest.approx(tangent, rel=1e-9)
    assert tangent <= mu * normal * (1 + 1e-12)
    assert tangent == pytest.approx(mu * normal, rel=1e-3)
    assert loss / (body.mass * steps * world.dt) == pytest.approx(mu * G, rel=1e-3)


@pytest.mark.parametrize(("angle", "mu"), [(0.0, 0.04), (math.pi, 0.64)])
def test_a_body_slides_with_the_friction_of_the_shape_that_touches(angle, mu):
    """An ice half (0.04) and a rubber half (0.64) on a floor of friction 1: turned either
    way up it slides with sqrt(mu * 1), the mixed friction of the touching half."""
    world = level(friction=1.0)
    halves = [Box(1, 0.5, offset=(0, -0.25), friction=0.04),
              Box(1, 0.5, offset=(0, 0.25), friction=0.64)]  # fmt: skip
    body = world.add_body(halves, position=(0, 0.5), angle=angle, friction=0.3)
    for _ in range(30):
        world.step()
    body.velocity = (3.0, 0.0)
    world.step()
    assert_slides_with(world, body, math.sqrt(mu), 10)
    # The body's friction is the shapes' default: both set their own, so nothing changes.
    body.friction = 5.0
    assert_slides_with(world, body, math.sqrt(mu), 5)


def test_the_body_friction_setter_reaches_the_shapes_without_their_own():
    world = level(friction=1.0)
    body = world.add_body([Box(1, 0.5, offset=(0, -0.25)), Box(1, 0.5, offset=(0, 0.25))],
                          position=(0, 0.5), friction=0.04)  # fmt: skip
    for _ in range(30):
        world.step()
    body.friction = 0.25
    body.velocity = (3.0, 0.0)
    world.step()
    assert_slides_with(world, body, 0.5, 10)


def drop(shape, dt: float, steps: int, **body) -> np.ndarray:
    world = level(dt=dt)
    ball = world.add_body(shape, position=(0, 2.25), **body)
    heights = []
    for _ in range(steps):
        world.step()
        heights.append(ball.position[1] - 0.25)
    return np.array(heights)


def test_a_shape_bounces_with_its_own_restitution():
    """Dropped from 2 m, a ball whose shape has e = 0.5 on a body (and floor) of e = 0
    rebounds to e^2 h = 0.5 m (within the 5 % the speculative bounce errs by at
    dt = 1/240, see world.md), exactly as a body of e = 0.5 does; without it, not at all."""
    dt, steps = 1 / 240, 3 * 240
    own = drop(Circle(0.25, restitution=0.5), dt, steps)
    assert np.array_equal(own, drop(Circle(0.25), dt, steps, restitution=0.5))
    landed = np.argmax(np.diff(own) > 0.0)  # the first step it rises
    assert own[landed] < 0.05 and own[landed:].max() == pytest.approx(0.25 * 2.0, rel=0.05)
    dead = drop(Circle(0.25), dt, steps)
    assert dead[np.argmax(dead < 0.01) :].max() < 0.01


# -- a sensor shape on a solid body ------------------------------------------------------------
def test_a_foot_sensor_senses_the_ground_while_the_body_rests_and_jumps():
    world = level()
    ground = world.bodies[0]
    torso = Box(0.5, 1.0)
    foot = Circle(0.2, offset=(0, -0.5), sensor=True)
    hero = world.add_body([torso, foot], position=(0, 1.0), origin="local")
    log = []
    world.on("sensor_begin", lambda o: log.append(("begin", o)))
    world.on("sensor_end", lambda o: log.append(("end", o)))
    touching = []
    world.on("contact_persist", lambda c: touching.append(c))
    for _ in range(90):
        world.step()
    assert [kind for kind, _ in log] == ["begin"]
    overlap = log[0][1]
    assert (overlap.sensor, overlap.other) == (hero, ground)
    assert (overlap.sensor_shape, overlap.other_shape) == (foot, ground.shapes[0])
    # The foot never pushes: the torso rests on the ground (a slop deep), the foot sunk in.
    bottom = hero.local_to_world((0, -0.5))[1]
    assert -world.linear_slop <= bottom <= 0.0
    assert touching and all({c.shape_a, c.shape_b} == {torso, ground.shapes[0]} for c in touching)
    # Jump: the foot leaves the ground (sensor_end), lands again (sensor_begin).
    hero.velocity = (0.0, 4.0)
    for _ in range(90):
        world.step()
    assert [kind for kind, _ in log] == ["begin", "end", "begin"]
    assert all(o.sensor_shape is foot for _, o in log)
    assert -world.linear_slop <= hero.local_to_world((0, -0.5))[1] <= 0.0


def test_two_sensor_shapes_of_one_body_report_apart():
    """Overlaps are per shape pair: a foot and a hand sensor on the same level body."""
    world = World(gravity=(0, 0))
    level_body = world.add_body([Box(4, 1, offset=(0, -0.5)), Box(1, 4, offset=(2.3, 2))],
                                kind="static", origin="local")  # fmt: skip
    foot, hand = Circle(0.1, (0, -0.5), sensor=True), Circle(0.1, (0.5, 0), sensor=True)
    world.add_body([Box(0.4, 0.8), foot, hand], position=(1.5, 0.45), origin="local")
    begun = []
    world.on("sensor_begin", lambda o: begun.append((o.sensor_shape, o.other_shape)))
    world.step()
    assert sorted(begun, key=lambda p: p[0] is hand) == [
        (foot, level_body.shapes[0]),
        (hand, level_body.shapes[1]),
    ]


def test_making_the_body_a_sensor_reaches_its_shapes_without_their_own():
    world = level()
    solid = Box(0.5, 0.5, sensor=False)
    body = world.add_body([solid, Box(0.5, 0.5, offset=(0.5, 0))], position=(0, 0.3))
    body.sensor = True  # the second shape senses; the first keeps its own: solid
    for _ in range(60):
        world.step()
    assert body.position[1] == pytest.approx(0.25, abs=world.linear_slop)
    assert {world.contacts[0].shape_a, world.contacts[0].shape_b} == {
        solid,
        world.bodies[0].shapes[0],
    }


# -- filtering per shape -----------------------------------------------------------------------
GRATE = 0x0002


@pytest.mark.parametrize("ignores", [True, False])
def test_a_shape_that_ignores_a_layer_passes_through_it_while_its_sibling_collides(ignores):
    """A plank with a weight hanging 1 m below it falls onto a grate of layer GRATE. When
    the weight's mask leaves GRATE out, it passes and the plank lands; otherwise the
    weight lands and holds the plank up."""
    world = World(gravity=(0.0, -G))
    grate = world.add_body(Box(4, 0.1), position=(0, -0.05), kind="static", category=GRATE)
    plank = Box(1.0, 0.2)
    weight = Circle(0.1, offset=(0, -1.0), mask=0xFFFF & ~GRATE if ignores else None)
    body = world.add_body([plank, weight], position=(0, 1.5), origin="local", fixed_rotation=True)
    for _ in range(120):
        world.step()
    touching = {(c.shape_a, c.shape_b) for c in world.contacts}
    if ignores:
        assert touching == {(grate.shapes[0], plank)}
        assert body.local_to_world((0, -0.1))[1] == pytest.approx(0.0, abs=world.linear_slop)
    else:
        assert touching == {(grate.shapes[0], weight)}
        assert body.local_to_world((0, -1.1))[1] == pytest.approx(0.0, abs=world.linear_slop)


# -- events name their shapes; tags per shape --------------------------------------------------
def test_contacts_name_the_touching_shapes_and_shape_tags_count():
    world = level()
    ground = world.bodies[0]
    ground.tag = "ground"
    leg, boot = Box(0.2, 1.0, offset=(0, 0.6)), Box(0.6, 0.2, offset=(0.2, 0.0), tag="boot")
    body = world.add_body([leg, boot], position=(0, 0.3), origin="local", fixed_rotation=True)
    seen, tagged, presolved = [], [], []
    world.on("contact_begin", lambda c: seen.append(c))
    world.on("contact_begin", lambda c: tagged.append(c), between=("boot", "ground"))
    world.on("presolve", lambda c: presolved.append((c.shape_a, c.shape_b)))
    for _ in range(30):
        world.step()
    assert len(seen) == 1 and {seen[0].body_a, seen[0].body_b} == {body, ground}
    contact = seen[0] if seen[0].body_a is ground else seen[0].flipped()
    assert (contact.shape_a, contact.shape_b) == (ground.shapes[0], boot)
    # The boot's own tag counts for it, and the handler sees it first.
    assert len(tagged) == 1 and (tagged[0].body_a, tagged[0].shape_a) == (body, boot)
    assert np.allclose(tagged[0].normal, (0.0, -1.0))
    assert presolved and all(boot in pair for pair in presolved)
    # The body's own tag does not count where the shape has its own.
    body.tag = "hero"
    world.on("contact_persist", lambda c: tagged.append(c), between=("hero", "ground"))
    world.step()
    assert len(tagged) == 1


# -- equivalence: the same values on every shape or on the body --------------------------------
MATERIAL = st.fixed_dictionaries(
    {
        "density": st.sampled_from([0.5, 1.0, 3.0]),
        "friction": st.sampled_from([0.0, 0.3, 0.9]),
        "restitution": st.sampled_from([0.0, 0.4]),
        "sensor": st.booleans(),
        "category": st.sampled_from([1, 2, 3]),
        "mask": st.sampled_from([0xFFFF, 0xFFFD, 1]),
        "group": st.sampled_from([0, 1, -1]),
    }
)
SHAPES = st.lists(
    st.sampled_from(
        [
            lambda m: Box(0.6, 0.4, **m),
            lambda m: Circle(0.25, offset=(0.4, 0.1), **m),
            lambda m: ConcavePolygon(L_OUTLINE, **m),
            lambda m: Polygon([(0, 0), (0.5, -0.2), (0.3, 0.4)], **m),
        ]
    ),
    min_size=1,
    max_size=3,
)


def run_scene(makers, material, on_shapes: bool) -> list:
    world = level(friction=0.7)
    rng = np.random.default_rng(7)
    for i in range(4):
        shapes = [make(material if on_shapes else {}) for make in makers]
        world.add_body(shapes, position=(rng.uniform(-1, 1), 0.8 + 1.1 * i),
                       angle=rng.uniform(0, 3), **({} if on_shapes else material))  # fmt: skip
    world.add_body(Box(0.5, 0.5), position=(0, 6), velocity=(0, -3))
    events = []
    world.on("contact_begin", lambda c: events.append(("contact", c.normal_impulse)))
    world.on("sensor_begin", lambda o: events.append(("sensor", o.sensor.position[1])))
    states = []
    for _ in range(60):
        world.step()
        states.append((world.positions.copy(), world.angles.copy(), world.velocities.copy()))
    return [world.masses.copy(), world.inertias.copy(), states, events]


@settings(max_examples=15, deadline=None)
@given(makers=SHAPES, material=MATERIAL)
def test_shapes_that_all_set_one_material_act_bitwise_as_the_body_would(makers, material):
    on_shapes = run_scene(makers, material, on_shapes=True)
    on_body = run_scene(makers, material, on_shapes=False)
    masses, inertias, states, events = on_shapes
    assert np.array_equal(masses, on_body[0]) and np.array_equal(inertias, on_body[1])
    for (p, a, v), (q, b, w) in zip(states, on_body[2]):
        assert np.array_equal(p, q) and np.array_equal(a, b) and np.array_equal(v, w)
    assert events == on_body[3]


# -- snapshots ---------------------------------------------------------------------------------
def material_world() -> World:
    world = level()
    world.add_body([Box(0.6, 0.6, density=4.0, friction=1.0), Circle(0.2, (0.4, 0.1))],
                   position=(-2, 0.5))  # fmt: skip
    world.add_body([Box(0.5, 0.8), Circle(0.15, (0, -0.45), sensor=True, tag="foot")],
                   position=(1, 0.6), density=2.0)  # fmt: skip
    world.add_body(ConcavePolygon(L_OUTLINE, density=0.5, restitution=0.5), position=(3, 2))
    return world


def test_a_saved_world_of_shape_materials_continues_bitwise():
    world = material_world()
    world.bodies[1].mass = 7.3  # densities 4 and 1 scaled: a centre of mass recomputed
    for _ in range(40):
        world.step()
    buffer = io.BytesIO()
    world.save(buffer)
    loaded = World.load(io.BytesIO(buffer.getvalue()))
    assert [s.material for b in loaded.bodies for s in b.shapes] == [
        s.material for b in world.bodies for s in b.shapes
    ]
    trails = []
    for w in (world, loaded):
        log = []
        w.on("sensor_end", lambda o, log=log: log.append(o.sensor_shape.tag))
        w.on(
            "contact_begin", lambda c, log=log: log.append((c.shape_a.material, c.shape_b.material))
        )
        w.bodies[2].velocity = (0, 3)
        for _ in range(60):
            w.step()
        trails.append((w.positions.copy(), w.velocities.copy(), log))
    assert np.array_equal(trails[0][0], trails[1][0])
    assert np.array_equal(trails[0][1], trails[1][1])
    assert trails[0][2] == trails[1][2] and "foot" in trails[0][2]


# -- queries see each shape's own role and layer -----------------------------------------------
def test_rays_and_slides_pass_sensor_shapes_and_follow_each_shapes_layer():
    world = World(gravity=(0, 0))
    torso, foot = Box(0.5, 1.0), Circle(0.3, offset=(0, -0.7), sensor=True)
    hero = world.add_body([torso, foot], position=(0, 1.0), origin="local", kind="kinematic")
    world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
    # A ray through the foot goes on to the ground; one through the torso stops on it.
    low = world.raycast((-2, 0.1), (2, 0.1))
    assert low is None
    assert world.raycast((0, 0.2), (0, -2)).body is world.bodies[1]
    assert world.raycast((-2, 1.0), (2, 1.0)).point[0] == pytest.approx(-0.25)
    # A slide down stops when the torso meets the ground, not the foot (already sunk in).
    result = world.move_and_slide(hero, (0, -1.0))
    assert hero.local_to_world((0, -0.5))[1] == pytest.approx(0.0, abs=2e-3)
    assert result.on_floor and np.array_equal(result.position, hero.position)
    # A shape on another layer: the ray's mask sees the shape's own category.
    world.add_body(Box(1, 1, category=0x0004), position=(5, 3), kind="static")
    assert world.raycast((3, 3), (7, 3), mask=0x0004).point[0] == pytest.approx(4.5)
    assert world.raycast((3, 3), (7, 3), mask=0x0001) is None
