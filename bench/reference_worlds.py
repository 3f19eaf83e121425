"""Adapters that let the solver-quality scenes build the same world in pymunk, in
Box2D 2.3 (pybox2d) and in Box2D 3.1 (pyb2d3): each offers the part of
``World.add_body`` and ``World.step`` the scenes of ``bench.solver_quality_reference``
use, with each engine's default settings (listed there), plus pin joints, contact depths
and the first-step contact impulse.

The adapters offer the same methods (``PymunkWorld``, ``Box2DWorld`` and
``Box2D3World``, each made with ``sleep``: whether bodies may fall asleep):

- ``add_body(shapes, position, angle, velocity, angular_velocity, density, friction,
  restitution, kind)``: as ``World.add_body`` (engine shapes in, the engine's mass);
  dynamic bodies are listed in ``dynamic``;
- ``add_pin(a, b, anchor)``: a pin at a world point (b None: the ground), no collision
  between the two;
- ``step()``: one step of 1/60 s;
- ``position(body)`` (2,), ``angle(body)``, ``velocity(body)`` (2,), ``asleep(body)``;
- ``finite()``: every dynamic body's numbers finite; ``pin_gap(pin)``: the distance
  between its two anchors; ``deepest(body)``: the deepest overlap of its shapes now;
- ``record_first_impulses()``: a list that gets the normal impulse of each contact in
  the step it begins (None where the engine does not report one).
"""

from __future__ import annotations

import math

import numpy as np

from engine import Circle

G = 9.81
DT = 1 / 60
TIME_TO_SLEEP = 0.5  # s, the engine's
SLEEP_SPEED = 0.05  # m/s, the engine's sleep threshold: the rain scene's "moving" rule
BOX2D_ITERATIONS = (8, 3)  # velocity, position
BOX2D3_SUBSTEPS = 4  # Box2D 3's default, as its samples step


def _parts(shapes):
    """Convex parts of engine shapes: ("circle", radius, centre) or ("poly", vertices)."""
    for shape in shapes if isinstance(shapes, (list, tuple)) else [shapes]:
        for part in shape.parts:
            if isinstance(part, Circle):
                yield "circle", float(part.radius), tuple(map(float, part.centroid))
            else:
                yield "poly", [tuple(map(float, v)) for v in part.vertices], None


class PymunkWorld:
    """A pymunk Space behind the part of the engine's World the scenes use."""

    name = "pymunk"

    def __init__(self, sleep: bool = True):
        import pymunk

        self.pymunk = pymunk
        self.space = pymunk.Space()
        self.space.gravity = (0.0, -G)
        if sleep:
            self.space.sleep_time_threshold = TIME_TO_SLEEP
        self.dynamic = []

    def add_body(self, shapes, position=(0.0, 0.0), angle=0.0, velocity=(0.0, 0.0),
                 angular_velocity=0.0, density=1.0, friction=0.6, restitution=0.0,
                 kind="dynamic"):  # fmt: skip
        pm = self.pymunk
        types = {"dynamic": pm.Body.DYNAMIC, "static": pm.Body.STATIC}
        body = pm.Body(body_type=types.get(kind, pm.Body.KINEMATIC))
        body.position, body.angle = tuple(map(float, position)), float(angle)
        if kind != "static":
            body.velocity = tuple(map(float, velocity))
            body.angular_velocity = float(angular_velocity)
        made = []
        for form, geometry, centre in _parts(shapes):
            made.append(pm.Circle(body, geometry, centre) if form == "circle"
                        else pm.Poly(body, geometry))  # fmt: skip
        for shape in made:
            shape.friction = math.sqrt(friction)
            shape.elasticity = restitution if kind == "dynamic" else 1.0
            if kind == "dynamic":
                shape.density = density
        self.space.add(body, *made)
        if kind == "dynamic":
            self.dynamic.append(body)
        return body

    def add_pin(self, body_a, body_b, anchor):
        """A revolute joint at the world point ``anchor`` (body_b None: the world)."""
        other = self.space.static_body if body_b is None else body_b
        joint = self.pymunk.PivotJoint(body_a, other, tuple(map(float, anchor)))
        joint.collide_bodies = False  # the engine's collide_connected=False
        self.space.add(joint)
        return joint

    def step(self):
        self.space.step(DT)

    @staticmethod
    def position(body):
        return np.array(body.position)

    @staticmethod
    def angle(body):
        return body.angle

    @staticmethod
    def velocity(body):
        return np.array(body.velocity)

    @staticmethod
    def asleep(body):
        return body.is_sleeping

    def finite(self):
        return all(math.isfinite(v) for b in self.dynamic
                   for v in (*b.position, *b.velocity, b.angle, b.angular_velocity))  # fmt: skip

    @staticmethod
    def pin_gap(joint):
        return (joint.a.local_to_world(joint.anchor_a)
                - joint.b.local_to_world(joint.anchor_b)).length  # fmt: skip

    @staticmethod
    def deepest(body):
        """The deepest overlap of the shapes touching ``body`` now (0 if none)."""
        depths = [0.0]
        body.each_arbiter(lambda arbiter: depths.extend(
            -point.distance for point in arbiter.contact_point_set.points))  # fmt: skip
        return max(depths)

    def record_first_impulses(self):
        """A list that gets the normal impulse of each contact's first step."""
        seen = []

        def post_solve(arbiter, space, data):
            if arbiter.is_first_contact:
                seen.append(abs(arbiter.total_impulse.dot(arbiter.normal)))

        self.space.on_collision(post_solve=post_solve)
        return seen


class _Box2DReadouts:
    """The pose and speed readouts both Box2D bindings share, given the names of their
    velocity attributes."""

    LINEAR, ANGULAR = "linearVelocity", "angularVelocity"
    dynamic: list

    @staticmethod
    def position(body):
        return np.array(tuple(body.position))

    @staticmethod
    def angle(body):
        return body.angle

    def velocity(self, body):
        return np.array(tuple(getattr(body, self.LINEAR)))

    @staticmethod
    def asleep(body):
        return not body.awake

    def finite(self):
        return all(math.isfinite(v) for b in self.dynamic for v in (
            *b.position, *getattr(b, self.LINEAR), b.angle, getattr(b, self.ANGULAR)))  # fmt: skip


class Box2DWorld(_Box2DReadouts):
    """A pybox2d b2World behind the part of the engine's World the scenes use."""

    name = "Box2D"

    def __init__(self, sleep: bool = True):
        import Box2D

        self.b2 = Box2D
        self.world = Box2D.b2World(gravity=(0.0, -G), doSleep=sleep)
        self.dynamic, self.ground = [], None

    def add_body(self, shapes, position=(0.0, 0.0), angle=0.0, velocity=(0.0, 0.0),
                 angular_velocity=0.0, density=1.0, friction=0.6, restitution=0.0,
                 kind="dynamic"):  # fmt: skip
        b2 = self.b2
        types = {"dynamic": b2.b2_dynamicBody, "static": b2.b2_staticBody,
                 "kinematic": b2.b2_kinematicBody}  # fmt: skip
        body = self.world.CreateBody(
            type=types[kind], position=tuple(map(float, position)), angle=float(angle),
            linearVelocity=tuple(map(float, velocity)), angularVelocity=float(angular_velocity),
        )  # fmt: skip
        body.userData = self.count = getattr(self, "count", 0) + 1
        material = {"friction": friction, "restitution": restitution,
                    "density": density if kind == "dynamic" else 0.0}  # fmt: skip
        for form, geometry, centre in _parts(shapes):
            if form == "circle":
                body.CreateCircleFixture(radius=geometry, pos=centre, **material)
            else:
                body.CreatePolygonFixture(vertices=geometry, **material)
        if kind == "dynamic":
            self.dynamic.append(body)
        return body

    def add_pin(self, body_a, body_b, anchor):
        """A revolute joint at the world point ``anchor`` (body_b None: the world)."""
        if body_b is None:
            self.ground = self.ground or self.world.CreateStaticBody()
            body_b = self.ground
        # collideConnected is False by default, as in the engine.
        return self.world.CreateRevoluteJoint(
            bodyA=body_a, bodyB=body_b, anchor=tuple(map(float, anchor))
        )

    def step(self):
        self.world.Step(DT, *BOX2D_ITERATIONS)

    @staticmethod
    def pin_gap(joint):
        return (joint.anchorA - joint.anchorB).length

    def deepest(self, body):
        """The deepest overlap of the shapes as built touching ``body`` (0 if none)."""
        depths = [0.0]
        for edge in body.contacts:
            if edge.contact.touching:
                depths.extend(-gap for gap in self._gaps(edge.contact))
        return max(depths)

    def _gaps(self, contact):
        """The gaps at a contact's points between the shapes as built (polygon skins off).

        From the manifold itself: pybox2d does not expose the world manifold's separations.
        """
        manifold, b2m = contact.manifold, self.b2.b2Manifold
        reference, incident = contact.fixtureA, contact.fixtureB
        if manifold.type_ == b2m.e_faceB:
            reference, incident = incident, reference
        plane = reference.body.GetWorldPoint(manifold.localPoint)
        normal = reference.body.GetWorldVector(manifold.localNormal)
        radii = sum(f.shape.radius for f in (reference, incident)
                    if isinstance(f.shape, self.b2.b2CircleShape))  # fmt: skip
        for point in manifold.points[: manifold.pointCount]:
            offset = incident.body.GetWorldPoint(point.localPoint) - plane
            centres = offset.length if manifold.type_ == b2m.e_circles else offset.dot(normal)
            yield centres - radii

    def record_first_impulses(self):
        """A list that gets the normal impulse PostSolve reports in BeginContact's step."""
        seen, fresh = [], set()

        def pair(contact):
            return frozenset((contact.fixtureA.body.userData, contact.fixtureB.body.userData))

        class Listener(self.b2.b2ContactListener):
            def BeginContact(self, contact):
                fresh.add(pair(contact))

            def PostSolve(self, contact, impulse):
                if pair(contact) in fresh:
                    fresh.discard(pair(contact))
                    seen.append(sum(impulse.normalImpulses[: contact.manifold.pointCount]))

        self.listener = Listener()  # the world keeps no reference of its own
        self.world.contactListener = self.listener
        return seen


class Box2D3World(_Box2DReadouts):
    """A Box2D 3 world (pyb2d3) behind the part of the engine's World the scenes use."""

    name = "Box2D 3"
    LINEAR, ANGULAR = "linear_velocity", "angular_velocity"

    def __init__(self, sleep: bool = True):
        import pyb2d3

        self.b2 = pyb2d3
        self.world = pyb2d3.World(gravity=(0.0, -G))
        self.world.sleeping_enabled = sleep
        self.dynamic, self.ground, self.polygons = [], None, {}

    def add_body(self, shapes, position=(0.0, 0.0), angle=0.0, velocity=(0.0, 0.0),
                 angular_velocity=0.0, density=1.0, friction=0.6, restitution=0.0,
                 kind="dynamic"):  # fmt: skip
        b2 = self.b2
        create = {"dynamic": self.world.create_dynamic_body,
                  "static": self.world.create_static_body,
                  "kinematic": self.world.create_kinematic_body}[kind]  # fmt: skip
        moving = {} if kind == "static" else {
            "linear_velocity": tuple(map(float, velocity)),
            "angular_velocity": float(angular_velocity)}  # fmt: skip
        body = create(position=tuple(map(float, position)),
                      rotation=b2.make_rot(float(angle)), **moving)  # fmt: skip
        material = b2.surface_material(friction=friction, restitution=restitution)
        definition = b2.shape_def(material=material,
                                  density=density if kind == "dynamic" else 0.0)  # fmt: skip
        polygons = self.polygons.setdefault(body.id, [])
        for form, geometry, centre in _parts(shapes):
            if form == "circle":
                body.create_circle_shape(definition, b2.circle(centre, geometry))
            else:
                body.create_polygon_shape(definition, b2.polygon(points=geometry))
                polygons.append(np.array(geometry))
        if kind == "dynamic":
            self.dynamic.append(body)
        return body

    def add_pin(self, body_a, body_b, anchor):
        """A revolute joint at the world point ``anchor`` (body_b None: the world)."""
        if body_b is None:
            self.ground = self.ground or self.world.create_static_body()
            body_b = self.ground
        anchor = self.b2.Vec2(*map(float, anchor))
        # collide_connected is False by default, as in the engine.
        return self.world.create_revolute_joint(
            body_a=body_a, body_b=body_b, local_anchor_a=body_a.local_point(anchor),
            local_anchor_b=body_b.local_point(anchor),
        )  # fmt: skip

    def step(self):
        self.world.step(DT, BOX2D3_SUBSTEPS)

    @staticmethod
    def pin_gap(joint):
        a = joint.body_a.world_point(joint.local_anchor_a)
        b = joint.body_b.world_point(joint.local_anchor_b)
        return math.hypot(a[0] - b[0], a[1] - b[1])

    def deepest(self, body):
        """The deepest vertex of a dynamic polygon inside one of ``body``'s polygons (0 if
        none): pyb2d3 does not expose a body's contacts, and Box2D 3's polygons have no
        skin, so a vertex's depth is the overlap of the shapes as built."""
        frames = [self._frame(body) @ np.c_[part, np.ones(len(part))].T
                  for part in self.polygons[body.id]]  # fmt: skip
        inside = [_faces(part.T[:, :2]) for part in frames]
        deepest = 0.0
        for other in self.dynamic:
            for part in self.polygons.get(other.id, ()):
                vertices = (self._frame(other) @ np.c_[part, np.ones(len(part))].T).T[:, :2]
                for normals, offsets in inside:
                    depth = (offsets[None, :] - vertices @ normals.T).min(axis=1)
                    deepest = max(deepest, float(depth.max()))
        return deepest

    @staticmethod
    def _frame(body):
        """(3, 3) the body's local-to-world transform."""
        (x, y), angle = tuple(body.position), body.angle
        c, s = math.cos(angle), math.sin(angle)
        return np.array([[c, -s, x], [s, c, y], [0.0, 0.0, 1.0]])

    @staticmethod
    def record_first_impulses():
        """pyb2d3 reports no contact impulses: a list that stays empty."""
        return []


def _faces(vertices):
    """((n, 2) outward normals, (n,) offsets) of a counter-clockwise convex polygon's
    faces: a point p is inside where every offset - normal . p > 0, by that much."""
    edges = np.roll(vertices, -1, axis=0) - vertices
    normals = np.c_[edges[:, 1], -edges[:, 0]] / np.hypot(*edges.T)[:, None]
    return normals, (normals * vertices).sum(axis=1)


ENGINES = (PymunkWorld, Box2DWorld, Box2D3World)
