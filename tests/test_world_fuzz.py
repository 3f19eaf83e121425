"""A stateful fuzzer of the World API: the safety net for rewriting the step's insides.

A hypothesis state machine adds and removes bodies of every shape kind and size and joints
of every kind, writes their state, pushes them, steps and advances, takes and restores
snapshots, saves and loads, and makes deepcopy, pickle, file and restore twins that must
stay bitwise equal to the world they came from. Handlers (module-level, so that they
pickle) add and remove bodies, write inside presolve and try to step re-entrantly.

Invariants, checked after every rule: bad input raises ValueError or TypeError only and
leaves the world exactly as it was (its saved file unchanged); every number is finite;
every body the world lists belongs to it. Queries are checked against brute force over
the live bodies: ``collide_many`` for boxes and swept shapes, and for rays and points a
world built afresh from the live bodies (no query index history).

Only the public API is used. Under CI a fixed-seed profile runs a few hundred steps'
worth of examples; locally hypothesis explores new ones on every run.
"""

from __future__ import annotations

import copy
import io
import json
import math
import pickle

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine import (
    AngularSpring,
    Box,
    Chain,
    Circle,
    ConcavePolygon,
    DistanceJoint,
    GearJoint,
    HandlerError,
    MotorJoint,
    MouseJoint,
    Polygon,
    PrismaticJoint,
    RevoluteJoint,
    RopeJoint,
    Segment,
    WeldJoint,
    WheelJoint,
    World,
    collide_many,
)

# -- values ----------------------------------------------------------------------------------
coordinates = st.floats(-6.0, 6.0)
speeds = st.floats(-15.0, 15.0)
sizes = st.floats(0.05, 2.5)
points = st.tuples(coordinates, coordinates)
# A region's side: none, or one a box can have (sides of 1e-308 have no area in float64).
region_sides = st.one_of(st.just(0.0), st.floats(1e-6, 8.0))
# Values a caller might pass by mistake: each must be refused with ValueError or TypeError.
BAD_NUMBERS = st.sampled_from(
    [math.nan, math.inf, -math.inf, "1", None, True, 1 + 2j, [1.0], object()]
)
BAD_VECTORS = st.one_of(
    st.sampled_from(
        [
            (math.nan, 0.0),
            (0.0, math.inf),
            (1e300, 0.0),
            ("1", "2"),
            (True, False),
            (1.0,),
            (1.0, 2.0, 3.0),
            [[1.0, 2.0]],
            None,
            "ab",
        ]
    ),
    st.tuples(BAD_NUMBERS, coordinates),
)


def regular_polygon(n: int, radius: float) -> np.ndarray:
    angle = np.arange(n) * 2 * np.pi / n
    return radius * np.column_stack([np.cos(angle), np.sin(angle)])


def star(n: int, outer: float, inner: float) -> np.ndarray:
    angle = np.arange(2 * n) * np.pi / n
    radius = np.where(np.arange(2 * n) % 2 == 0, outer, inner)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


@st.composite
def shapes(draw):
    """One shape or a compound of every kind, sized from 5 cm to a few metres."""
    kind = draw(st.sampled_from(
        ["box", "circle", "polygon", "concave", "compound", "capsule", "line", "chain", "mixed"]
    ))  # fmt: skip
    size = draw(sizes)
    if kind == "capsule":
        return Segment((-size / 2, 0.0), (size / 2, draw(st.floats(-0.3, 0.3))), size / 4)
    if kind == "line":  # no area: refused for a dynamic body
        return Segment((-size, 0.0), (size, 0.0))
    if kind == "chain":  # one-sided terrain: refused for a dynamic body
        xs = np.linspace(3 * size, -3 * size, draw(st.integers(2, 8)))
        return Chain(np.column_stack([xs, 0.2 * size * np.sin(xs)]))
    if kind == "mixed":  # shapes with their own settings beside a plain one
        own = draw(st.fixed_dictionaries({}, optional={
            "density": st.floats(0.1, 10), "friction": st.floats(0, 1.5),
            "restitution": st.floats(0, 1), "sensor": st.booleans(),
            "category": st.sampled_from([1, 2, 4]), "mask": st.sampled_from([0xFFFF, 0x0001]),
        }))  # fmt: skip
        return [Box(size, size / 2, **own), Circle(size / 3, (size / 2, size / 3))]
    if kind == "box":
        return Box(size, draw(sizes), offset=draw(st.tuples(*[st.floats(-0.5, 0.5)] * 2)))
    if kind == "circle":
        return Circle(size / 2)
    if kind == "polygon":
        return Polygon(regular_polygon(draw(st.integers(3, 9)), size / 2))
    if kind == "concave":
        ell = np.array([(0, 0), (1.2, 0), (1.2, 0.4), (0.4, 0.4), (0.4, 1.2), (0, 1.2)])
        outline = draw(st.sampled_from([ell * size, star(draw(st.integers(3, 7)), size, size / 2)]))
        return ConcavePolygon(outline)
    return [Circle(size / 3, (size / 2, 0.0)), Box(size, size / 2)]


# -- handlers (module level: a pickled world keeps them) --------------------------------------
def spawn_on_begin(contact) -> None:
    """A falling ball where a contact begins between two dynamic bodies (at most 30)."""
    world = contact.body_a.world
    if world is None or len(world.bodies) >= 30 or contact.body_b.world is None:
        return
    if contact.body_a.kind == contact.body_b.kind == "dynamic":
        x, y = contact.body_a.position
        world.add_body(Circle(0.15), position=(x, y + 2.0))


def remove_on_begin(contact) -> None:
    """Removes the second body of some contacts (the guard the docs recommend)."""
    body = contact.body_b
    world = body.world
    if world is not None and body.kind == "dynamic" and len(world.bodies) > 6:
        if body.position[0] > contact.body_a.position[0]:
            world.remove(body)


def presolve_meddler(contact) -> bool:
    """Inside the step: removes, writes and tries to step; ignores some contacts."""
    a, b = contact.body_a, contact.body_b
    world = a.world or b.world
    if world is None:
        return True
    for call in (world.step, lambda: world.advance(0.1), world.snapshot):
        try:
            call()
        except RuntimeError:
            pass  # refused, as it must be
        else:
            raise AssertionError("a re-entrant call inside presolve was not refused")
    if b.world is not None and b.kind == "dynamic":
        b.apply_impulse((0.0, 0.05 * b.mass))
        if b.position[1] > 1.0 and len(world.bodies) > 4:
            world.remove(b)
    return a.position[1] < b.position[1] + 1.0  # ignore some pairs, as one-way platforms do


def step_in_handler(contact) -> None:
    world = contact.body_a.world
    if world is not None:
        try:
            world.step()
        except RuntimeError:
            return
        raise AssertionError("world.step() inside a contact handler was not refused")


HANDLERS = {
    "contact_begin": [spawn_on_begin, remove_on_begin, step_in_handler],
    "presolve": [presolve_meddler],
}


# -- comparing worlds ------------------------------------------------------------------------
def saved(world: World) -> bytes:
    buffer = io.BytesIO()
    world.save(buffer)
    return buffer.getvalue()


def file_state(data: bytes) -> tuple[dict, dict]:
    """(header, arrays) of a saved world, less the query-cache stamp (pose_revision),
    which a restore moves on purpose."""
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    header = json.loads(arrays.pop("header").tobytes())
    header["state"].pop("pose_revision")
    return header, arrays


def assert_same_world(a: World, b: World) -> None:
    header_a, arrays_a = file_state(saved(a))
    header_b, arrays_b = file_state(saved(b))
    assert header_a == header_b
    assert arrays_a.keys() == arrays_b.keys()
    for name in arrays_a:
        assert arrays_a[name].dtype == arrays_b[name].dtype, name
        assert np.array_equal(arrays_a[name], arrays_b[name]), name


def shape_poses(body) -> list:
    """World pose of each of a body's shapes (the body's position is their centre of mass,
    weighted by each shape's own density or the body's; for shapes without area, the mean
    of their centroids)."""
    shapes = body.shapes
    densities = [shape.density or body.density for shape in shapes]
    area = sum(shape.area for shape in shapes)
    if area == 0.0:
        centroid = sum(shape.centroid for shape in shapes) / len(shapes)
    elif len(set(densities)) == 1:  # as the engine weighs one density: by area
        centroid = sum(shape.area * shape.centroid for shape in shapes) / area
    else:
        masses = [density * shape.area for density, shape in zip(densities, shapes)]
        centroid = sum(m * shape.centroid for m, shape in zip(masses, shapes)) / sum(masses)
    c, s = math.cos(body.angle), math.sin(body.angle)
    turned = np.array([c * centroid[0] - s * centroid[1], s * centroid[0] + c * centroid[1]])
    x, y = body.position - turned
    return [(x, y, body.angle)] * len(shapes)


def two_sided(shapes, poses):
    """The shapes with each Chain replaced by its links as plain segments, and their poses."""
    out, out_poses = [], []
    for shape, pose in zip(shapes, poses):
        parts = [Segment(p.a, p.b) for p in shape.parts] if isinstance(shape, Chain) else [shape]
        out += parts
        out_poses += [pose] * len(parts)
    return out, np.array(out_poses)


def fresh_copy(world: World) -> World:
    """A new world holding the live bodies at their poses, in order: no index history."""
    other = World()
    for body in world.bodies:
        other.add_body(
            list(body.shapes), position=body.position, angle=body.angle, kind=body.kind,
            sensor=body.sensor, category=body.category, mask=body.mask, group=body.group,
            density=body.density,  # shapes without their own weigh the centroid by it
        )  # fmt: skip
    return other


# -- the machine -----------------------------------------------------------------------------
class WorldMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.world = World(broadphase="grid")
        self.world.add_body(Box(16, 1), position=(0, -0.5), kind="static")
        self.handles = list(self.world.bodies)  # every handle ever made, removed ones too
        self.joints = []
        self.snapshots = []
        self.handlers = []

    # -- helpers --
    def body(self, data, live_only: bool = False):
        live = self.world.bodies
        pool = live if live_only or not self.handles else self.handles
        return data.draw(st.sampled_from(pool)) if pool else None

    def refused(self, call) -> None:
        """``call()`` may be refused only with ValueError/TypeError, changing nothing."""
        before = saved(self.world)
        try:
            call()
        except (ValueError, TypeError):
            assert saved(self.world) == before, "a refused call changed the world"

    def must_refuse(self, call) -> None:
        before = saved(self.world)
        try:
            call()
        except (ValueError, TypeError):
            assert saved(self.world) == before, "a refused call changed the world"
        else:
            raise AssertionError("bad input was accepted")

    def run(self, call) -> None:
        """A step-like call: a handler error surfaces as HandlerError and nothing else."""
        try:
            call()
        except HandlerError as error:
            raise AssertionError(f"a test handler failed: {error}") from error

    # -- bodies --
    @initialize(
        chosen=st.sets(st.sampled_from([(e, h) for e, hs in sorted(HANDLERS.items()) for h in hs]))
    )
    def register_handlers(self, chosen):
        for event, handler in sorted(chosen, key=lambda pair: (pair[0], pair[1].__name__)):
            self.world.on(event, handler)
            self.handlers.append((event, handler))

    @rule(count=st.integers(2, 6), x=st.floats(-4, 4), steps=st.integers(1, 4))
    def pile(self, count, x, steps):
        """Boxes spawned overlapping on one spot on the ground, then stepped: contacts
        for the handlers, and push-out at work."""
        for _ in range(min(count, 30 - len(self.world.bodies))):
            self.handles.append(self.world.add_body(Box(0.5, 0.5), position=(x, 0.3)))
        for _ in range(steps):
            self.run(self.world.step)

    @rule(
        data=st.data(),
        shape=shapes(),
        position=st.tuples(st.floats(-4.0, 4.0), st.floats(-0.5, 4.0)),
        angle=st.floats(-4, 4),
        velocity=st.tuples(speeds, speeds),
        spin=st.floats(-10, 10),
        kind=st.sampled_from(["dynamic", "dynamic", "dynamic", "static", "kinematic"]),
    )
    def add_body(self, data, shape, position, angle, velocity, spin, kind):
        if len(self.world.bodies) >= 30:
            return
        parts = shape if isinstance(shape, list) else [shape]
        arealess = sum(p.area for p in parts) == 0.0 or any(isinstance(p, Chain) for p in parts)
        if kind == "dynamic" and arealess:
            self.must_refuse(lambda: self.world.add_body(shape, kind="dynamic"))
            return
        if kind == "static":
            velocity, spin = (0.0, 0.0), 0.0
        options = data.draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "density": st.floats(0.1, 10),
                    "friction": st.floats(0, 1.5),
                    "restitution": st.floats(0, 1),
                    "bullet": st.booleans(),
                    "sensor": st.booleans(),
                    "category": st.sampled_from([1, 2, 4]),
                    "mask": st.sampled_from([0xFFFF, 0xFFFD, 0x0001]),
                    "group": st.integers(-2, 2),
                    "enable_sleep": st.booleans(),
                },
            )
        )
        body = self.world.add_body(
            shape, position=position, angle=angle, velocity=velocity, angular_velocity=spin,
            kind=kind, **options,
        )  # fmt: skip
        self.handles.append(body)

    @rule(data=st.data(), argument=st.sampled_from(["position", "velocity", "angle", "density"]))
    def add_body_badly(self, data, argument):
        value = data.draw(BAD_NUMBERS if argument in ("angle", "density") else BAD_VECTORS)
        self.must_refuse(lambda: self.world.add_body(Box(1, 1), **{argument: value}))

    @rule(data=st.data())
    def remove_body(self, data):
        body = self.body(data)
        if body is None:
            return
        if body.world is self.world:
            self.world.remove(body)
        else:
            self.must_refuse(lambda: self.world.remove(body))

    # -- writes --
    @rule(
        data=st.data(),
        field=st.sampled_from(["position", "velocity", "angle", "angular_velocity"]),
        good=st.booleans(),
    )
    def write(self, data, field, good):
        body = self.body(data, live_only=good)
        if body is None:
            return
        vector = field in ("position", "velocity")
        if good:
            value = data.draw(points if vector else st.floats(-5, 5))
            if body.kind == "static" and field in ("velocity", "angular_velocity"):
                self.must_refuse(lambda: setattr(body, field, (1.0, 0.0) if vector else 1.0))
                return
            self.refused(lambda: setattr(body, field, value))
        else:
            value = data.draw(BAD_VECTORS if vector else BAD_NUMBERS)
            self.must_refuse(lambda: setattr(body, field, value))

    @rule(data=st.data(), impulse=st.booleans(), off_centre=st.booleans())
    def push(self, data, impulse, off_centre):
        body = self.body(data)
        if body is None:
            return
        vector = data.draw(st.tuples(st.floats(-5, 5), st.floats(-5, 5)))
        point = data.draw(points) if off_centre else None
        if body.world is None:  # removed
            self.must_refuse(lambda: body.apply_impulse(vector, point))
            return
        if body.world is not self.world:  # a body of a world this one was twinned from
            return
        call = body.apply_impulse if impulse else body.apply_force
        self.refused(
            lambda: call(
                tuple(v * body.mass if body.kind == "dynamic" else v for v in vector), point
            )
        )

    @rule(
        centre=points,
        radius=st.floats(0.0, 5.0),
        falloff=st.floats(0.0, 3.0),
        strength=st.floats(-5.0, 5.0),
        mask=st.sampled_from([0xFFFF, 0x0001, 0x0006]),
    )
    def explode(self, centre, radius, falloff, strength, mask):
        self.refused(lambda: self.world.explode(centre, radius, strength, falloff, mask))

    @rule(radius=BAD_NUMBERS)
    def explode_badly(self, radius):
        self.must_refuse(lambda: self.world.explode((0.0, 0.0), radius, 1.0))

    @rule(data=st.data(), value=BAD_VECTORS)
    def push_badly(self, data, value):
        body = self.body(data, live_only=True)
        if body is not None:
            huge = isinstance(value, tuple) and 1e300 in value  # finite: moves only dynamics
            check = self.refused if huge and body.kind != "dynamic" else self.must_refuse
            check(lambda: body.apply_impulse(value))
            if value is not None:  # no point is a push at the centre of mass
                self.must_refuse(lambda: body.apply_force((1.0, 0.0), point=value))

    # -- joints --
    @rule(
        data=st.data(),
        kind=st.sampled_from(["revolute", "distance", "spring", "weld", "mouse", "prismatic",
                              "wheel", "rope", "angular", "gear", "motor"]),
    )  # fmt: skip
    def add_joint(self, data, kind):
        a = self.body(data)
        b = self.body(data) if data.draw(st.booleans()) else None
        if a is None:
            return
        anchor = data.draw(points)

        def make():
            if kind == "revolute":
                limit = data.draw(st.floats(0.1, 2))
                return RevoluteJoint(a, b, anchor, lower=-limit, upper=limit, motor_speed=0.5,
                                     max_motor_torque=data.draw(st.floats(0, 20)))  # fmt: skip
            if kind in ("distance", "spring"):
                other = data.draw(points)
                if b is None or math.dist(anchor, other) < 1e-3:
                    return DistanceJoint(a, b, anchor, other, length=1.0)
                frequency = 2.0 if kind == "spring" else 0.0
                return DistanceJoint(a, b, anchor, other, frequency=frequency, damping=0.3)
            if kind == "weld":
                return WeldJoint(a, b, anchor) if b is not None else WeldJoint(a, None, anchor)
            axis = (math.cos(data.draw(st.floats(0, 6))), 1.0)
            if kind == "prismatic":
                return PrismaticJoint(a, b, anchor, axis, lower=-1.0, upper=1.0,
                                      motor_speed=0.5, max_motor_force=20.0)  # fmt: skip
            if kind == "wheel":
                return WheelJoint(a, b, anchor, axis, frequency=3.0, damping=0.5,
                                  motor_speed=-2.0, max_motor_torque=10.0)  # fmt: skip
            if kind == "rope":
                return RopeJoint(a, b, anchor, data.draw(points), length=2.0)
            if kind == "angular":
                return AngularSpring(a, b, frequency=2.0, damping=0.3)
            if kind == "gear":
                return GearJoint(a, b, ratio=data.draw(st.floats(0.5, 3.0)))
            if kind == "motor":
                return MotorJoint(a, b, linear_offset=(1.0, 0.0), max_force=30.0,
                                  max_torque=10.0)  # fmt: skip
            return MouseJoint(
                a, anchor, max_force=50.0 * max(1.0, a.mass if a.kind == "dynamic" else 1.0)
            )

        before = saved(self.world)
        try:
            joint = self.world.add_joint(make())
        except (ValueError, TypeError):
            assert saved(self.world) == before
            return
        self.joints.append(joint)

    @rule(data=st.data())
    def remove_joint(self, data):
        if not self.joints:
            return
        joint = data.draw(st.sampled_from(self.joints))
        if joint.world is self.world:
            self.world.remove_joint(joint)
        else:
            self.must_refuse(lambda: self.world.remove_joint(joint))

    @rule(data=st.data())
    def drag_mouse(self, data):
        mice = [j for j in self.joints if isinstance(j, MouseJoint) and j.world is self.world]
        if mice:
            data.draw(st.sampled_from(mice)).target = data.draw(points)

    # -- time --
    @rule(count=st.integers(1, 4))
    def step(self, count):
        for _ in range(count):
            self.run(self.world.step)

    @rule(seconds=st.floats(0.0, 0.1))
    def advance(self, seconds):
        alpha = [None]
        self.run(lambda: alpha.__setitem__(0, self.world.advance(seconds)))
        assert 0.0 <= alpha[0] < 1.0

    @rule(seconds=BAD_NUMBERS)
    def advance_badly(self, seconds):
        self.must_refuse(lambda: self.world.advance(seconds))

    # -- handlers --
    @rule(event=st.sampled_from(sorted(HANDLERS)), data=st.data())
    def toggle_handler(self, event, data):
        handler = data.draw(st.sampled_from(HANDLERS[event]))
        if (event, handler) in self.handlers:
            self.world.off(event, handler)
            self.handlers.remove((event, handler))
        else:
            self.world.on(event, handler)
            self.handlers.append((event, handler))

    # -- snapshots, files, twins --
    @rule()
    def take_snapshot(self):
        self.snapshots.append(self.world.snapshot())

    @rule(data=st.data())
    def restore(self, data):
        if not self.snapshots:
            return
        snap = data.draw(st.sampled_from(self.snapshots))
        self.world.restore(snap)
        for body in self.world.bodies:
            assert body.world is self.world

    @rule(data=st.data(), centre=points)
    def restore_remove_and_query(self, data, centre):
        """Restore a snapshot and remove one body, then query: repeated, this returns the
        world to earlier counts and revisions, which a query cache must not mistake for the
        states it has seen."""
        if not self.snapshots:
            return
        self.world.restore(data.draw(st.sampled_from(self.snapshots)))
        live = self.world.bodies
        if len(live) > 1:
            self.world.remove(data.draw(st.sampled_from(live)))
        self.query_aabb(centre, (6.0, 6.0))
        self.rays_and_points(centre, (-centre[0], centre[1] + 1.0), centre)

    @rule(route=st.sampled_from(["deepcopy", "pickle", "save/load", "restore"]),
          steps=st.integers(1, 4), adopt=st.booleans())  # fmt: skip
    def twin(self, route, steps, adopt):
        """A twin made by ``route`` and the world, stepped together, stay bitwise equal."""
        world = self.world
        if route == "deepcopy":
            other = copy.deepcopy(world)
        elif route == "pickle":
            other = pickle.loads(pickle.dumps(world))
        else:
            if route == "save/load":
                other = World.load(io.BytesIO(saved(world)))
            else:
                other = World()
                other.restore(world.snapshot())
            for event, handler in self.handlers:  # files and restores carry no code
                other.on(event, handler)
        assert_same_world(world, other)
        for _ in range(steps):
            self.run(world.step)
            self.run(other.step)
        assert_same_world(world, other)
        if adopt:  # carry on with the twin; the old handles now belong to another world
            self.world = other
            self.handles = self.handles + list(other.bodies)
            self.joints = self.joints + other.joints

    # -- queries --
    @rule(centre=points, size=st.tuples(region_sides, region_sides))
    def query_aabb(self, centre, size):
        centre, half = np.array(centre), np.array(size) / 2
        found = self.world.query_aabb(centre - half, centre + half)
        expected = []
        for body in self.world.bodies:
            if max(size) == 0.0:
                continue
            poses = np.array(shape_poses(body))
            # A region query sees a chain's links as lines, from either side.
            lines, line_poses = two_sided(body.shapes, poses)
            box = np.tile([centre[0], centre[1], 0.0], (len(line_poses), 1))
            # A region with no width or no height is a segment (fattened into a box, one
            # 1.5e-10 above the ground's top took the ground in).
            flat = min(size) == 0.0
            probe = Segment(-half, half) if flat else Box(size[0], size[1])
            if collide_many(probe, box, lines, line_poses).intersect.any():
                expected.append(body)
        if max(size) > 0.0:
            assert found == expected
        assert all(body.world is self.world for body in found)

    @rule(start=points, end=points, point=points)
    def rays_and_points(self, start, end, point):
        reference = fresh_copy(self.world)
        handles = self.world.bodies
        rows = {id(body): i for i, body in enumerate(handles)}
        twins = reference.bodies
        if math.dist(start, end) > 0.0:
            hits = self.world.raycast_all(start, end)
            expected = reference.raycast_all(start, end)
            assert [rows[id(h.body)] for h in hits] == [twins.index(h.body) for h in expected]
            assert [h.fraction for h in hits] == [h.fraction for h in expected]
            first = self.world.raycast(start, end)
            assert (first is None) == (not expected)
        found = self.world.query_point(point)
        assert [rows[id(b)] for b in found] == [
            twins.index(b) for b in reference.query_point(point)
        ]

    @rule(data=st.data(), shape=shapes(), start=points, motion=points)
    def shape_cast(self, data, shape, start, motion):
        shape = shape[0] if isinstance(shape, list) else shape  # one shape is cast
        pose = np.array([start[0], start[1], data.draw(st.floats(-3, 3))])
        if isinstance(shape, Chain):  # one-sided terrain is not a probe
            self.must_refuse(lambda: self.world.shape_cast(shape, pose, motion))
            return
        hit = self.world.shape_cast(shape, pose, motion)
        best, owners = np.inf, []
        for body in self.world.bodies:
            # Casts pass sensors: a shape's own setting, else its body's.
            solid = [s.sensor is False or (s.sensor is None and not body.sensor)
                     for s in body.shapes]  # fmt: skip
            if not any(solid):
                continue
            poses = np.array(shape_poses(body))[solid]
            kept = [s for s, keep in zip(body.shapes, solid) if keep]
            found = collide_many(
                shape, np.tile(pose, (len(poses), 1)), kept, poses,
                np.tile(motion, (len(poses), 1)), 1.0,
            )  # fmt: skip
            toi = np.nanmin(np.where(np.isnan(found.toi), np.inf, found.toi))
            if toi < best - 1e-9:
                best, owners = toi, [body]
            elif toi <= best + 1e-9:
                owners.append(body)
        if hit is None:
            assert not np.isfinite(best)
        else:
            assert hit.body.world is self.world
            assert abs(hit.toi - best) <= 1e-9 and hit.body in owners

    @rule(data=st.data(), motion=points)
    def move_and_slide(self, data, motion):
        movers = [b for b in self.world.bodies if b.kind == "kinematic"]
        if not movers:
            return
        body = data.draw(st.sampled_from(movers))
        result = self.world.move_and_slide(body, motion)
        assert np.array_equal(result.position, body.position)
        assert all(other.world is self.world for other, _ in result.contacts)

    # -- invariants --
    @invariant()
    def every_number_is_finite(self):
        world = self.world
        for values in (world.positions, world.velocities, world.angles, world.angular_velocities):
            assert np.isfinite(values).all()
        for joint in world.joints:
            assert np.isfinite(joint.reaction_force).all()
            assert np.isfinite(joint.anchor_a).all() and np.isfinite(joint.anchor_b).all()

    @invariant()
    def bodies_belong_to_their_world(self):
        assert all(body.world is self.world for body in self.world.bodies)
        assert all(joint.world is self.world for joint in self.world.joints)


WorldMachine.TestCase.settings = settings(
    max_examples=3 * settings.default.max_examples,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestWorldApi = WorldMachine.TestCase
