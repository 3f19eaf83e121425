"""Fast projectiles against thin walls: continuous collision, and what it prevents.

Projectiles leave the gun at 180 m/s: 3 m per step, fifty times the thickness of the
targets. In "continuous" mode they are engine bodies (``bullet=True``): the swept SAT
finds the time of impact inside the step, so they stop at a hanging static wall and knock
over the free-standing planks.

The engine has no switch that turns that off (even non-bullet bodies are caught by its
speculative contacts), so "discrete" mode shows the alternative honestly: the scene moves
those projectiles itself, 3 m per step, and tests overlap only at the end of each step,
as an engine without continuous collision would. The dots are the positions the test
sees; most of the time none of them falls inside a wall, and the projectile goes through.
"""

from __future__ import annotations

import numpy as np

from engine import Box, Circle, World, collide_many

from ..app.registry import scene
from ..app.scene import Scene
from ..draw import palette

SPEED = 180.0  # m/s
RADIUS = 0.14
# Discrete samples fall at GUN + 3 m * k: -2.7, 0.3, 3.3, 6.3, 9.3, 12.3, 15.3. None lands in
# the thin wall or a plank, and one lands in the 3 m thick backstop (13-16 m): thick walls
# are caught either way, thin ones only by continuous collision.
GUN = np.array([-5.7, 0.0])
WALL_X, PLANKS_X, BACKSTOP_X = 2.0, (6.0, 7.5, 9.0), 14.6
LANES = (4.2, 1.5)  # heights: the hanging wall, the planks
VOLLEY_EVERY = 30  # steps between automatic volleys
LIFETIME = 180  # steps a projectile lives
SHOT_COLOUR = (255, 235, 140, 255)
GHOST_COLOUR = (255, 120, 200, 255)


class Range:
    """The shooting range: targets, projectiles of both modes, and the mode switch."""

    def __init__(self, world: World, colours: dict) -> None:
        self.world = world
        self.colours = colours
        self.continuous = True
        self.steps = 0
        self.shots: list = []  # (body, born) in continuous mode
        self.ghosts: list = []  # dicts with position, velocity, born, samples, hit
        static = {"kind": "static", "friction": 0.6}
        world.add_body(Box(40.0, 1.0), position=(4.0, -0.5), **static)
        world.add_body(Box(1.6, 0.4), position=(WALL_X, 6.3), **static)  # the wall's bracket
        world.add_body(Box(0.05, 3.2), position=(WALL_X, 4.5), **static)
        self.planks = [
            world.add_body(Box(0.08, 2.6), position=(x, 1.3), density=1.0, friction=0.6)
            for x in PLANKS_X
        ]
        world.add_body(Box(3.2, 8.0), position=(BACKSTOP_X, 4.0), **static)

    # -- firing ---------------------------------------------------------------------------
    def stand_planks(self) -> None:
        """Put knocked-over planks back up, so every volley has targets."""
        for plank, x in zip(self.planks, PLANKS_X):
            if abs(plank.angle) > 0.3 or abs(plank.position[0] - x) > 0.5:
                plank.position = (x, 1.3)
                plank.angle = 0.0
                plank.velocity = (0.0, 0.0)
                plank.angular_velocity = 0.0

    def volley(self) -> None:
        self.stand_planks()
        for height in LANES:
            start = GUN + (0.0, height)
            if self.continuous:
                body = self.world.add_body(
                    Circle(RADIUS), position=start, velocity=(SPEED, 0.0), density=4.0,
                    friction=0.3, bullet=True,
                )  # fmt: skip
                self.colours[body] = SHOT_COLOUR
                self.shots.append((body, self.steps))
            else:
                self.ghosts.append(
                    {"position": start.copy(), "velocity": np.array([SPEED, 0.0]),
                     "born": self.steps, "samples": [start.copy()], "hit": False}
                )  # fmt: skip

    def before_step(self, world: World) -> None:
        if self.steps % VOLLEY_EVERY == 0:
            self.volley()
        self.steps += 1
        self._move_ghosts(world)
        # Retire old projectiles so the range never fills up.
        for body, _born in [shot for shot in self.shots if self.steps - shot[1] > LIFETIME]:
            world.remove(body)
            self.colours.pop(body, None)
        self.shots = [shot for shot in self.shots if self.steps - shot[1] <= LIFETIME]
        self.ghosts = [g for g in self.ghosts if self.steps - g["born"] <= LIFETIME // 3]

    def _move_ghosts(self, world: World) -> None:
        """Discrete mode: move, then test overlap at the new position only."""
        flying = [g for g in self.ghosts if not g["hit"]]
        if not flying:
            return
        bodies = world.bodies
        shapes = [body.shapes[0] for body in bodies]
        poses = np.array([[*body.position, body.angle] for body in bodies])
        for ghost in flying:
            ghost["velocity"] = ghost["velocity"] + world.gravity * world.dt
            ghost["position"] = ghost["position"] + ghost["velocity"] * world.dt
            ghost["samples"].append(ghost["position"].copy())
            pose = np.tile([*ghost["position"], 0.0], (len(bodies), 1))
            found = collide_many(Circle(RADIUS), pose, shapes, poses)
            if found.intersect.any():
                ghost["hit"] = True
                target = bodies[int(np.argmax(found.depth))]
                if target.kind == "dynamic":
                    # Landing inside a plank: hand it the projectile's momentum.
                    target.apply_impulse(0.1 * ghost["velocity"], ghost["position"])

    # -- keys and drawing -----------------------------------------------------------------
    def on_key(self, name: str) -> bool:
        if name == "C":
            self.continuous = not self.continuous
            return True
        if name == "B":
            self.volley()
            return True
        return False

    def draw(self, canvas, poses) -> None:
        canvas.discs(GUN + np.array([(0.0, h) for h in LANES]), 0.25, palette.TEXT_DIM)
        for ghost in self.ghosts:
            samples = np.array(ghost["samples"])
            canvas.dots(samples, palette.with_alpha(GHOST_COLOUR, 150), 2.5)
            if not ghost["hit"]:
                canvas.discs(ghost["position"], RADIUS, GHOST_COLOUR, 12)
            else:
                canvas.rings(ghost["position"], RADIUS * 2.5, palette.BAD, 2.0, 16)
        for body, _born in self.shots:
            if body.world is not None and np.hypot(*body.velocity) > 20.0:
                tail = body.position - body.velocity * self.world.dt
                canvas.lines(tail, body.position, palette.with_alpha(SHOT_COLOUR, 120), 2.0)
        mode = "continuous" if self.continuous else "discrete"
        colour = palette.GOOD if self.continuous else GHOST_COLOUR
        canvas.text(GUN + (0.0, 6.4), f"{mode}  (C switches)", colour, 12)

    def status(self) -> list[str]:
        if self.continuous:
            text = "continuous: engine bodies, bullet=True: they stop"
        else:
            text = "discrete: overlap tested after each step only: they pass"
        return [text, f"{SPEED:.0f} m/s = {SPEED / 60:.0f} m per step; walls 5-8 cm thick"]


@scene("bullets", "180 m/s projectiles vs thin walls; C switches continuous collision off")
def build() -> Scene:
    world = World()
    colours: dict = {}
    shooting = Range(world, colours)
    return Scene(
        world,
        view=(-6.5, -1.0, 16.5, 7.5),
        before_step=shooting.before_step,
        on_key=shooting.on_key,
        draw=shooting.draw,
        status=shooting.status,
        keys=[("C", "CCD on/off"), ("B", "fire")],
        colours=colours,
        script=[(120, "C")],
    )
