"""A platformer character on ``move_and_slide``: slopes, walls, one-way and moving platforms.

The hero is a kinematic box. Before every step the scene works out the motion it wants
(walking, its own vertical velocity under gravity, a jump when it stands on a floor) and
hands it to ``world.move_and_slide``, which stops it at whatever it meets and slides the
rest of the motion along the surface. The result says what was touched (body and normal,
from the obstacle towards the hero) and whether any of it was a floor (normal within 45
degrees of up). So the gentle ramp (32 degrees) is walked up, the steep face (68 degrees)
stops the hero like a wall, and a walk down the ramp is kept on it by a short snap down.

The hero is moved with a velocity rather than a teleport: move_and_slide finds the new
position, the hero is put back, and its velocity is set to get there in one step. The step
then moves it (kinematic bodies follow their velocity), and the demos' interpolation draws
it smoothly between steps, like every other body.

One-way platforms (violet) have their own collision category, ONE_WAY. move_and_slide asks
the world directly, not the solver, so the ``presolve`` trick of docs/games.md does not
apply to it: instead the hero's *mask* leaves ONE_WAY out while it rises, while a platform
still overlaps it (its feet below the top), and for a moment after Down is pressed on one
(dropping through). Otherwise, falling onto one from above, the mask has ONE_WAY back and
the platform is a floor like any other. The mask is read from the next query on, so
toggling it just before move_and_slide is enough. Dynamic bodies do go through the solver:
for them (crates dragged up with the mouse) a ``presolve`` handler makes the same platforms
one-way.

The moving platform is a kinematic body whose velocity is set before each step so that it
eases back and forth along its track. Standing on it (it is among the last move's contacts,
with an upward normal) the hero adds the platform's velocity * dt to its own motion, and so
rides it. On its way the platform knocks the top crate off a stack: kinematic bodies push
dynamic ones through the step's contacts. The hero pushes crates too, by handing a crate it
walks into its own walking speed.

Coins are static sensors: ``sensor_begin`` reports the hero overlapping one, and the handler
removes it (safe inside a handler) and counts it. Until a movement key is pressed, an
autopilot plays a short run through the level.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, Polygon, World

from .. import world_data
from ..app.registry import scene
from ..app.scene import Input, Scene
from ..draw import palette

# The hero: size and movement, m and s.
HERO_SIZE = (0.7, 1.1)
WALK = 6.0  # m/s
GRAVITY = 30.0  # m/s^2: heavier than 9.81, as platformers like it (snappy jumps)
JUMP_SPEED = 13.5  # m/s: a 3 m jump
MAX_FALL = 18.0  # m/s
JUMP_CUT = 0.4  # the most rising speed kept (a fraction of a jump's) once the key is up
COYOTE = 0.08  # s after walking off a ledge during which a jump still works
JUMP_BUFFER = 0.12  # s before landing during which a jump press is remembered
DROP_TIME = 0.25  # s the one-way platforms stay open after Down
SNAP = 0.3  # m: how far down a walking hero looks for the floor (walking down the ramp)
HEAD = -0.7  # normal y below this: a ceiling (the jump ends)
PUSH = 0.8  # fraction of the walking speed given to a crate walked into

# Collision categories: what each body is. The hero's mask picks what it collides with.
LEVEL, ONE_WAY, HERO, CRATE = 0x0001, 0x0002, 0x0004, 0x0008
ALL = 0xFFFF
SOLID_MASK = ALL  # falling onto one-way platforms: they are floors
PASSING_MASK = ALL & ~ONE_WAY  # rising through them, or dropping

# The moving platform: its track (centre x at both ends), height and timing.
TRACK = (-7.4, -3.5)
LIFT_Y = 2.5  # top of the moving platform, the same as the first one-way platform
LIFT_SIZE = (2.4, 0.35)
LIFT_PERIOD = 4.4  # s for a round trip
LIFT_DWELL = 0.18  # fraction of each half trip spent waiting at an end
LIFT_ARRIVES = 0.95  # s: when it first stands at the left end (the hero gets on there)

# Keys: walking is read from the keys held, jumping and dropping from presses.
LEFT_KEYS, RIGHT_KEYS = {"LEFT", "A"}, {"RIGHT", "D"}
JUMP_KEYS = {"UP", "W"}
DROP_KEYS = {"DOWN"}

# The autopilot's run: (step, command); walking lasts until the next walking command.
PLAN = (
    (0, "right"),
    (13, "jump"),  # up through the first one-way platform, onto it (first coin)
    (34, "stop"),
    (45, "right"),
    (72, "stop"),  # on the moving platform: ride it (second coin on the way)
    (180, "right"),
    (183, "jump"),  # off its far end onto the mesa (third coin)
    (216, "jump"),  # up through the high one-way platform (fourth coin)
    (260, "right"),  # off it, onto the mesa, down the ramp (fifth coin)
    (350, "left"),  # and back up the ramp
    (400, "stop"),
)

# The level, in world coordinates (m); the ground's top is y = 0, the walls at x = +-16.
# The mesa: a steep face on the left (68 degrees: a wall), a gentle ramp on the right (32
# degrees: walkable), one convex polygon.
MESA = ((-3.0, 0.0), (15.0, 0.0), (7.0, 5.0), (-1.0, 5.0))
ONE_WAY_PLATFORMS = (  # centre x, top, width
    (-10.6, 2.5, 3.2), (-13.6, 5.2, 2.8), (-8.0, 7.9, 2.6), (-2.6, 10.4, 2.4),
    (3.5, 7.6, 3.0), (9.0, 10.2, 2.6),
)  # fmt: skip
# A stack the lift clips on its way (each crate a hair above the one below), one on the
# mesa and one on a one-way platform.
CRATES = ((-3.9, 0.4), (-3.9, 1.201), (-3.9, 2.002), (5.6, 5.401), (3.5, 8.001))
COINS = (
    (-10.6, 3.3), (-6.6, 3.4), (1.0, 5.8), (2.7, 8.4), (10.0, 3.7),
    (-13.6, 6.0), (-6.0, 0.6), (-8.0, 8.7), (-2.6, 11.2), (9.6, 11.0),
)  # fmt: skip

HERO_COLOUR = (255, 122, 92, 255)
COIN_COLOUR = (250, 206, 72, 255)
ONE_WAY_COLOUR = (168, 140, 232, 255)
CRATE_COLOUR = (186, 132, 80, 255)
GROUND_COLOUR = (86, 98, 120, 255)
LABEL = (150, 160, 178, 200)
HILL_COLOUR = (30, 35, 46, 255)
GRASS_COLOUR = (112, 186, 118, 255)
GRASS = (
    np.array([(-16.0, 0.0), (-3.0, 0.0)]),
    np.array([(-1.0, 5.0), (7.0, 5.0), (15.0, 0.0), (16.0, 0.0)]),
)
CLOUD_COLOUR = (36, 42, 55, 255)
# Far hills: triangles (base left, peak, base right).
HILLS = np.array(
    [[(-16.0, 0.0), (-11.0, 6.5), (-5.0, 0.0)], [(-9.0, 0.0), (-4.0, 4.5), (1.0, 0.0)],
     [(2.0, 0.0), (9.5, 8.0), (16.0, 0.0)], [(10.0, 0.0), (14.0, 5.5), (16.0, 0.0)]]
)  # fmt: skip
CLOUDS = np.array([(-12.0, 13.6, 1.0), (1.0, 14.6, 0.8), (11.0, 13.2, 1.2)])  # x, y, scale
CLOUD_PUFFS = ((-0.9, 0.0, 0.6), (0.0, 0.25, 0.85), (0.9, 0.0, 0.65), (0.0, -0.2, 0.6))


def _static_polygon(world: World, points, **options):
    """A static convex polygon at the world coordinates ``points`` (add_body places a
    body's centroid at ``position``, so that is where it goes)."""
    shape = Polygon(points)
    return world.add_body(shape, position=shape.centroid, kind="static", **options)


def lift_x(time: float) -> float:
    """Centre x of the moving platform at ``time``: eased from end to end, with a wait."""
    phase = ((time - LIFT_ARRIVES) / LIFT_PERIOD) % 1.0
    half = 2.0 * phase if phase < 0.5 else 2.0 - 2.0 * phase  # 0 -> 1 -> 0
    moving = np.clip((half - 0.5 * LIFT_DWELL) / (1.0 - LIFT_DWELL), 0.0, 1.0)
    eased = 0.5 - 0.5 * np.cos(np.pi * moving)
    return float(TRACK[0] + (TRACK[1] - TRACK[0]) * eased)


class Platformer:
    """The level, the hero's controller, the autopilot and the scene's drawing."""

    def __init__(self) -> None:
        self.world = world = World(gravity=(0.0, -9.81))
        self.colours: dict = {}
        self._build_level(world)
        half_w, half_h = 0.5 * HERO_SIZE[0], 0.5 * HERO_SIZE[1]
        self.hero = world.add_body(
            Box(*HERO_SIZE), position=(-14.0, half_h + 1e-3), kind="kinematic",
            category=HERO, mask=SOLID_MASK,
        )  # fmt: skip
        self.colours[self.hero] = HERO_COLOUR
        self.half = np.array([half_w, half_h])
        self.velocity_y = 0.0
        self.on_floor = True
        self.since_floor = 0.0  # s since the hero last stood on a floor
        self.jump_wanted = 0.0  # s left of a buffered jump press
        self.drop_left = 0.0  # s left of dropping through one-way platforms
        self.facing = 1.0
        self.riding = False
        self.passing = False  # one-way platforms left out of the mask
        self.held: frozenset = frozenset()
        self.auto = True
        self.steps = 0
        self.walk = 0.0
        self.collected = 0
        self.bursts: list = []  # (position, world time) of coins picked up
        # What the hero has done so far (the tests read it).
        self.seen = {"walked": False, "one_way": False, "rode": False, "pushed": False}
        world.on("sensor_begin", self._pick_up)
        world.on("presolve", self._one_way_for_crates)

    # -- the level ------------------------------------------------------------------------
    def _build_level(self, world: World) -> None:
        ground = {"category": LEVEL, "friction": 0.8}
        floor = world.add_body(Box(34.0, 1.0), position=(0.0, -0.5), kind="static", **ground)
        walls = [
            world.add_body(Box(1.0, 18.0), position=(x, 8.5), kind="static", **ground)
            for x in (-16.5, 16.5)
        ]
        self.mesa = _static_polygon(world, MESA, **ground)
        for body in [floor, *walls, self.mesa]:
            self.colours[body] = GROUND_COLOUR
        # One-way platforms: thin static boxes in their own category.
        self.one_way = []
        for x, top, width in ONE_WAY_PLATFORMS:
            body = world.add_body(
                Box(width, 0.25), position=(x, top - 0.125), kind="static",
                category=ONE_WAY, friction=0.8,
            )  # fmt: skip
            self.one_way.append(body)
            self.colours[body] = ONE_WAY_COLOUR
        self.lift = world.add_body(
            Box(*LIFT_SIZE), position=(lift_x(0.0), LIFT_Y - 0.5 * LIFT_SIZE[1]),
            kind="kinematic", category=LEVEL, friction=0.8,
        )  # fmt: skip
        self.crates = []
        for point in CRATES:
            crate = world.add_body(
                Box(0.8, 0.8), position=point, category=CRATE, friction=0.7, density=0.6
            )
            self.crates.append(crate)
            self.colours[crate] = CRATE_COLOUR
        # Coins: static sensors.
        self.coins = []
        for point in COINS:
            coin = world.add_body(Circle(0.28), position=point, kind="static", sensor=True)
            self.coins.append(coin)
            self.colours[coin] = COIN_COLOUR
        self.total = len(self.coins)

    def _pick_up(self, overlap) -> None:
        """sensor_begin: the hero overlaps a coin: count it and take it out of the world."""
        coin = overlap.sensor
        if overlap.other is not self.hero or coin not in self.coins:
            return
        self.coins.remove(coin)
        self.bursts.append((coin.position, self.world.time))
        self.world.remove(coin)  # safe inside a handler
        self.collected += 1

    def _one_way_for_crates(self, contact) -> bool:
        """presolve: one-way platforms for dynamic bodies (a crate dragged up through one).

        The solver's contacts can be dropped per step: a platform holds a crate only while
        the crate comes down onto it from above, its bottom over the platform's top.
        """
        if contact.body_a in self.one_way:
            platform, other = contact.body_a, contact.body_b
        elif contact.body_b in self.one_way:
            platform, other = contact.body_b, contact.body_a
        else:
            return True
        lower, _ = other.shapes[0].aabb((*other.position, other.angle))
        _, top = platform.shapes[0].aabb((*platform.position, 0.0))
        return other.velocity[1] <= 0.5 and lower[1] >= top[1] - 0.1

    # -- input ----------------------------------------------------------------------------
    def on_frame(self, state: Input) -> None:
        self.held = state.keys
        if self.held & (LEFT_KEYS | RIGHT_KEYS | JUMP_KEYS | DROP_KEYS):
            self.auto = False

    def on_key(self, name: str) -> bool:
        if name in JUMP_KEYS:
            self.auto = False
            self.jump_wanted = JUMP_BUFFER
            return True
        if name in DROP_KEYS:
            self.auto = False
            self.drop_left = DROP_TIME
            return True
        if name in LEFT_KEYS | RIGHT_KEYS:
            self.auto = False
            return True
        return False

    def _autopilot(self) -> bool:
        """Play the PLAN for this step; returns whether the jump is "held"."""
        for step, command in PLAN:
            if step == self.steps:
                if command == "jump":
                    self.jump_wanted = JUMP_BUFFER
                elif command == "drop":
                    self.drop_left = DROP_TIME
                else:
                    self.walk = {"right": 1.0, "left": -1.0, "stop": 0.0}[command]
        return True  # full-height jumps

    # -- one step -------------------------------------------------------------------------
    def before_step(self, world: World) -> None:
        dt = world.dt
        self._move_lift(world)
        if self.auto:
            jump_held = self._autopilot()
        else:
            self.walk = float(bool(self.held & RIGHT_KEYS)) - float(bool(self.held & LEFT_KEYS))
            jump_held = bool(self.held & JUMP_KEYS)
        self.steps += 1
        self._move_hero(world, dt, jump_held)

    def _move_lift(self, world: World) -> None:
        """Velocity that brings the lift to its eased track position at the next step."""
        target = lift_x(world.time + world.dt)
        self.lift.velocity = ((target - self.lift.position[0]) / world.dt, 0.0)

    def _move_hero(self, world: World, dt: float, jump_held: bool) -> None:
        hero = self.hero
        start = hero.position
        if self.walk:
            self.facing = self.walk
            self.seen["walked"] = True

        # Vertical velocity: jumps (buffered, and a moment after leaving a ledge), gravity.
        self.jump_wanted = max(self.jump_wanted - dt, 0.0)
        self.drop_left = max(self.drop_left - dt, 0.0)
        jumped = False
        if self.jump_wanted > 0.0 and self.since_floor <= COYOTE:
            self.velocity_y = JUMP_SPEED
            self.jump_wanted = 0.0
            self.since_floor = COYOTE + dt  # no second jump from the same floor
            jumped = True
        elif not jump_held:
            # Letting go of the key early makes a short hop.
            self.velocity_y = min(self.velocity_y, JUMP_CUT * JUMP_SPEED)
        self.velocity_y = max(self.velocity_y - GRAVITY * dt, -MAX_FALL)

        # One-way platforms: out of the mask while rising, dropping or still inside one.
        self.passing = self.velocity_y > 0.0 or self.drop_left > 0.0 or self._inside_one_way()
        hero.mask = PASSING_MASK if self.passing else SOLID_MASK

        motion = np.array([WALK * self.walk * dt, self.velocity_y * dt])
        if self.on_floor and not self.walk and not jumped:
            motion[1] = 0.0  # standing still: no creeping down slopes (the snap finds it)
        if self.riding:
            motion += self.lift.velocity * dt  # carried by the platform under the feet
        result = world.move_and_slide(hero, motion)
        contacts, on_floor = result.contacts, result.on_floor
        if self.on_floor and not on_floor and not jumped and self.velocity_y <= 0.0:
            # Walking down a slope, or standing: look a little way down for the floor and
            # stay on it if it is there (else go back: the hero walked off a ledge). One
            # sweep, no slide: the snap must not carry the hero down the slope.
            before = hero.position
            snap = world.move_and_slide(hero, (0.0, -SNAP), max_slides=1)
            if snap.on_floor:
                contacts, on_floor = contacts + snap.contacts, True
            else:
                hero.position = before
        if not on_floor and self.velocity_y < 0.0:
            contacts = contacts + self._slide_down_steep(world, contacts, dt)

        floors = [(body, n) for body, n in contacts if n[1] >= np.cos(np.radians(45.0))]
        self.riding = any(body is self.lift for body, _ in floors)
        self.seen["rode"] |= self.riding
        self.seen["one_way"] |= any(body in self.one_way for body, _ in floors)
        if any(n[1] < HEAD for _, n in contacts) and self.velocity_y > 0.0:
            self.velocity_y = 0.0  # bumped the head
        self.on_floor = on_floor
        if on_floor:
            self.velocity_y = 0.0
            self.since_floor = 0.0
        else:
            self.since_floor += dt
        self._push_crates(contacts)

        # Put the hero back and let the step move it there: kinematic bodies follow
        # their velocity, and the drawing interpolates it between steps.
        end = hero.position
        hero.position = start
        hero.velocity = (end - start) / dt

    def _slide_down_steep(self, world: World, contacts, dt: float) -> list:
        """Falling against a steep slope: slide down its face; returns the contacts met.

        move_and_slide never lets a slide along a wall end higher than the motion asked
        for, and it counts a slide down a steep face (which descends less than a straight
        fall) as such: a falling body resting on one would hang there. So the scene moves
        it down the face itself, as far as it would have fallen.
        """
        steep = [n for _, n in contacts if 0.05 < n[1] < np.cos(np.radians(45.0))]
        if not steep:
            return []
        normal = steep[-1]
        down = np.array([normal[1], -normal[0]])  # along the face...
        if down[1] > 0.0:
            down = -down  # ...downhill
        return world.move_and_slide(self.hero, down * (-self.velocity_y * dt)).contacts

    def _inside_one_way(self) -> bool:
        """Does a one-way platform overlap the hero with its top above the hero's feet?"""
        centre = self.hero.position
        for body in self.one_way:
            lower, upper = body.shapes[0].aabb((*body.position, 0.0))
            feet, head = centre[1] - self.half[1], centre[1] + self.half[1]
            across = lower[0] < centre[0] + self.half[0] and centre[0] - self.half[0] < upper[0]
            if across and feet < upper[1] - 1e-6 and head > lower[1]:
                return True
        return False

    def _push_crates(self, contacts) -> None:
        """Crates walked into (side contacts) take on a share of the walking speed."""
        for body, normal in contacts:
            if body not in self.crates or abs(normal[0]) < 0.7 or normal[0] * self.walk >= 0.0:
                continue
            velocity = body.velocity
            push = PUSH * WALK * self.walk
            if abs(velocity[0]) < abs(push):
                body.velocity = (push, velocity[1])
                body.awake = True
                self.seen["pushed"] = True

    # -- drawing and the HUD --------------------------------------------------------------
    def backdrop(self, canvas) -> None:
        # Scenery: far hills and slow clouds, a shade off the background.
        canvas.polygons(HILLS, HILL_COLOUR)
        drift = (0.25 * self.world.time + CLOUDS[:, 0] + 18.0) % 36.0 - 18.0
        for dx, dy, radius in CLOUD_PUFFS:
            centres = np.column_stack([drift + dx * CLOUDS[:, 2], CLOUDS[:, 1] + dy * CLOUDS[:, 2]])
            canvas.discs(centres, radius * CLOUDS[:, 2], CLOUD_COLOUR, 20)
        y = LIFT_Y - 0.5 * LIFT_SIZE[1]
        half = 0.5 * LIFT_SIZE[0]
        left, right = TRACK[0] - half, TRACK[1] + half
        canvas.dashed((left, y), (right, y), palette.with_alpha(palette.KINEMATIC, 110), 1.5, 7.0)
        posts = np.array([(left, y - 0.25), (right, y - 0.25)])
        canvas.lines(posts, posts + (0.0, 0.5), palette.with_alpha(palette.KINEMATIC, 150), 2.0)
        for body in self.one_way:
            lower, upper = body.shapes[0].aabb((*body.position, 0.0))
            xs = np.arange(lower[0] + 0.4, upper[0] - 0.2, 0.7)
            tails = np.column_stack([xs, np.full_like(xs, lower[1] - 0.55)])
            heads = np.column_stack([xs, np.full_like(xs, lower[1] - 0.12)])
            canvas.arrows(tails, heads, palette.with_alpha(ONE_WAY_COLOUR, 70), 1.5, 6.0)
        canvas.text((-1.6, 0.9), "68°: a wall", LABEL, 9, "left")
        canvas.text((11.6, 0.9), "32°: walkable", LABEL, 9, "right")
        canvas.text((-10.6, 1.25), "one-way", LABEL, 9, "center")

    def draw(self, canvas, poses) -> None:
        world = self.world
        # Grass on the walkable surfaces; the steep face is bare rock.
        for strip in GRASS:
            canvas.polyline(strip, GRASS_COLOUR, 3.0)
        if self.coins:
            centres = np.array([coin.position for coin in self.coins])
            glow = 0.36 + 0.04 * np.sin(6.0 * world.time)
            canvas.rings(centres, glow, palette.with_alpha(COIN_COLOUR, 120), 1.5)
            canvas.dots(centres + (-0.08, 0.08), (255, 248, 215, 230), 2.0)
        # A coin picked up: a ring spreading out and a "+1" rising, both fading.
        self.bursts = [(where, when) for where, when in self.bursts if world.time - when < 0.6]
        for where, when in self.bursts:
            age = world.time - when
            colour = palette.with_alpha(COIN_COLOUR, int(255 * (1.0 - age / 0.6)))
            canvas.rings(where, 0.3 + 1.5 * age, colour, 2.0)
            canvas.text(where + (0.0, 0.6 + 1.5 * age), "+1", colour, 10, "center")
        row = world_data.row_of(world, self.hero)
        x, y = poses[row, :2]
        # Eyes looking the way the hero faces (and up while it rises).
        look = np.array([0.07 * self.facing, 0.05 if self.velocity_y > 0.0 else 0.0])
        eyes = np.array([(x + 0.06 * self.facing + dx, y + 0.22) for dx in (-0.14, 0.14)])
        canvas.discs(eyes, 0.11, (250, 250, 250, 255), 12)
        canvas.discs(eyes + look, 0.055, (30, 30, 40, 255), 10)
        if self.riding:
            lift = self.lift.velocity
            if abs(lift[0]) > 0.2:
                base = np.array([x, y - 0.95])
                canvas.arrows(base, base + 0.25 * lift, palette.with_alpha(palette.ACCENT, 200))

    def status(self) -> list[str]:
        if self.riding:
            where = "riding the lift (+ its velocity * dt)"
        elif self.on_floor:
            where = "on the floor"
        else:
            where = "in the air"
        mode = "   autopilot: keys take over" if self.auto else ""
        mask = "passing" if self.passing else "solid"
        return [
            f"coins {self.collected}/{self.total}   {where}{mode}",
            f"one-way platforms: {mask} (hero mask {self.hero.mask:#06x})",
        ]


@scene("platformer", "a move_and_slide character: slopes, one-way and moving platforms, coins")
def build() -> Scene:
    game = Platformer()
    return Scene(
        game.world,
        view=(-17.0, -0.7, 17.0, 16.3),
        before_step=game.before_step,
        on_frame=game.on_frame,
        on_key=game.on_key,
        backdrop=game.backdrop,
        draw=game.draw,
        status=game.status,
        keys=[("arrows A D", "walk"), ("Up W", "jump"), ("Down", "drop through")],
        colours=game.colours,
    )
