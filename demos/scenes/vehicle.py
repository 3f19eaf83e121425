"""A car on two wheel joints, driving over hilly ground with crates in the way.

The car is a chassis (a long box with a cabin on top, one compound body) and two wheels,
each held by a ``WheelJoint``: the wheel's centre stays on a vertical line through its
mount, on a suspension spring, and turns freely about it. The joints' motors drive the
wheels: Right/D forwards, Left/A backwards, Down/S brakes (a motor at speed 0 with its
full torque holds the wheels still). Let go and the wheels roll freely.

The ground is one static Chain along a smooth height profile (one-sided and smooth, so
the wheels roll over the joins between its links without catching), and a wall at each
end. Until a key is pressed the car drives itself, back and forth between the
walls, so a recording shows it climbing the hills, pushing crates and bouncing on its
springs.
"""

from __future__ import annotations

import math

import numpy as np

from engine import Box, Chain, Circle, WheelJoint, World

from ..app.registry import scene
from ..app.scene import Input, Scene

WIDTH = 36.0  # m of ground, centred on x = 0
PIECE = 0.5  # m of ground per chain link
WHEEL_RADIUS = 0.45
WHEEL_X = (-1.15, 1.15)  # wheel mounts along the chassis, m from its middle
MOUNT_DROP = 0.55  # m below the chassis centre
TOP_SPIN = 7.0  # rad/s: about 3.2 m/s on these wheels
DRIVE_TORQUE = 20.0  # N m per wheel
BRAKE_TORQUE = 60.0
SUSPENSION_HZ = 5.0
SUSPENSION_DAMPING = 0.6
FORWARD_KEYS = frozenset({"RIGHT", "D"})
BACK_KEYS = frozenset({"LEFT", "A"})
BRAKE_KEYS = frozenset({"DOWN", "S"})
TURN_AT = WIDTH / 2 - 4.5  # the autopilot turns round this far from the middle
STUCK_SPEED, STUCK_TIME = 0.3, 1.5  # m/s, s: slower than this for this long, it turns
TURN_SPEED = 1.0  # m/s: the autopilot brakes before it drives the other way


def ground_height(x):
    """Height of the ground at ``x`` (scalar or array): flat near the start, then hills."""
    x = np.asarray(x, dtype=float)
    hills = 0.7 * np.sin(0.27 * x) + 0.25 * np.sin(0.75 * x + 1.3)
    fade = np.clip((np.abs(x) - 3.0) / 6.0, 0.0, 1.0)  # flat where the car starts
    return fade * hills


class Drive:
    """The car, its controls and the autopilot that drives it until a key is pressed."""

    def __init__(self) -> None:
        self.world = world = World()
        self._build_ground(world)
        self.chassis = world.add_body(
            [Box(3.2, 0.5), Box(1.5, 0.55, offset=(-0.25, 0.5))], position=(0.0, 1.7),
            density=1.5, friction=0.6,
        )  # fmt: skip
        self.wheels, self.joints = [], []
        for x in WHEEL_X:
            centre = (x, 1.7 - MOUNT_DROP)
            wheel = world.add_body(Circle(WHEEL_RADIUS), position=centre, density=1.0,
                                   friction=1.2)  # fmt: skip
            joint = world.add_joint(
                WheelJoint(
                    self.chassis,
                    wheel,
                    centre,
                    (0.0, 1.0),
                    frequency=SUSPENSION_HZ,
                    damping=SUSPENSION_DAMPING,
                )  # fmt: skip
            )
            self.wheels.append(wheel)
            self.joints.append(joint)
        # Light crates, lower than a wheel's radius: pushed aside or driven over.
        self.crates = [
            world.add_body(
                Box(0.4, 0.4), position=(x, float(ground_height(x)) + y), density=0.4
            )  # fmt: skip
            for x, y in ((6.0, 0.25), (6.5, 0.25), (6.25, 0.7), (-9.0, 0.25), (-11.0, 0.25))
        ]
        self.auto = True
        self.heading = 1.0  # the autopilot's direction
        self.held: frozenset = frozenset()
        self.command = "drive"
        self.slow_for = 0.0  # s the autopilot has been crawling

    def _build_ground(self, world: World) -> None:
        """The hills as one Chain (running right to left, so its front faces up) and a
        wall at each end."""
        xs = np.arange(WIDTH / 2, -WIDTH / 2 - PIECE / 2, -PIECE)
        points = np.column_stack([xs, ground_height(xs)])
        world.add_body(Chain(points), kind="static", friction=0.9, origin="local")
        bottom = float(points[:, 1].min()) - 1.5
        for side in (-1.0, 1.0):
            x = side * (WIDTH / 2 + 0.5)
            world.add_body(Box(1.0, 8.0), position=(x, bottom + 4.0), kind="static")

    # -- controls -----------------------------------------------------------------------
    def on_frame(self, state: Input) -> None:
        self.held = state.keys
        if self.held & (FORWARD_KEYS | BACK_KEYS | BRAKE_KEYS):
            self.auto = False

    def on_key(self, name: str) -> bool:
        if name in FORWARD_KEYS | BACK_KEYS | BRAKE_KEYS:
            self.auto = False
            return True
        return False

    def before_step(self, world: World) -> None:
        if self.auto:
            x = self.chassis.position[0]
            crawling = float(np.hypot(*self.chassis.velocity)) < STUCK_SPEED
            self.slow_for = self.slow_for + world.dt if crawling else 0.0
            if self.slow_for > STUCK_TIME:
                self.heading, self.slow_for = -self.heading, 0.0
            if x > TURN_AT:
                self.heading = -1.0
            elif x < -TURN_AT:
                self.heading = 1.0
            # Still rolling the old way: brake first (a motor thrown into reverse at speed
            # tips the car over its front wheels).
            rolling_back = self.chassis.velocity[0] * self.heading < -TURN_SPEED
            throttle, brake = self.heading, bool(rolling_back)
        else:
            throttle = float(bool(self.held & FORWARD_KEYS)) - float(bool(self.held & BACK_KEYS))
            brake = bool(self.held & BRAKE_KEYS)
        if brake:
            speed, torque, self.command = 0.0, BRAKE_TORQUE, "brake"
        elif throttle:
            # Clockwise turns drive the car to the right.
            speed, torque = -throttle * TOP_SPIN, DRIVE_TORQUE
            self.command = "forwards" if throttle > 0 else "backwards"
        else:
            speed, torque, self.command = 0.0, 0.0, "rolling"
        for joint in self.joints:
            if (joint.motor_speed, joint.max_motor_torque) != (speed, torque):
                joint.motor_speed, joint.max_motor_torque = speed, torque

    # -- read-outs ------------------------------------------------------------------------
    def status(self) -> list[str]:
        speed = float(np.hypot(*self.chassis.velocity))
        squeeze = [1000.0 * joint.translation for joint in self.joints]
        mode = "autopilot (keys take over)" if self.auto else self.command
        return [
            f"car {speed:4.1f} m/s  {mode}",
            f"suspension {squeeze[0]:+5.0f} {squeeze[1]:+5.0f} mm   "
            f"tilt {math.degrees(self.chassis.angle):+4.0f} deg",
        ]


@scene("vehicle", "a car on wheel joints with motors and suspension, over hills and crates")
def build() -> Scene:
    drive = Drive()
    top = float(ground_height(np.linspace(-WIDTH / 2, WIDTH / 2, 200)).max())
    return Scene(
        drive.world,
        view=(-WIDTH / 2 - 1.5, -3.0, WIDTH / 2 + 1.5, top + 9.0),
        before_step=drive.before_step,
        on_frame=drive.on_frame,
        on_key=drive.on_key,
        status=drive.status,
        keys=[("Right D", "drive forwards"), ("Left A", "drive backwards"), ("Down S", "brake")],
    )
