"""Pictures of worlds and trajectories on matplotlib Axes.

``draw(world, ax=None)`` draws every body (polygons and circles, coloured by kind, pale
when asleep, a radius line showing each circle's turn), the joints (a line between
anchors, and from each body's centre to its anchor) and, on request, the contact points,
with equal aspect. ``draw.trajectory(trajectory, ax=None)`` draws the paths of the bodies
that moved. Both return the Axes; without one they make a new figure.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from engine import World, Box, Circle
>>> world = World()
>>> ground = world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
>>> ball = world.add_body(Circle(0.5), position=(0, 2))
>>> ax = draw(world)
>>> ax.get_aspect()
1.0
"""

from __future__ import annotations

import numpy as np

from .extras import require
from .outlines import outlines

# Face and edge colours by body kind.
FACES = {"dynamic": "#8fb8de", "static": "#b0b0b0", "kinematic": "#f2c27b"}
EDGES = {"dynamic": "#1f4e79", "static": "#505050", "kinematic": "#9a5b00"}
ASLEEP_ALPHA = 0.45
JOINT_COLOUR = "#2e7d32"
CONTACT_COLOUR = "#d62728"


def draw(world, ax=None, *, joints: bool = True, contacts: bool = False):
    """Draw ``world`` on the matplotlib Axes ``ax`` (a new figure's when None) and return
    the Axes. joints: draw the joints; contacts: mark the contact points of the last step.
    """
    from ..world import World

    if not isinstance(world, World):
        raise TypeError(f"world: expected a World, got {type(world).__name__}")
    ax = _axes(ax, "draw")
    collections = require("matplotlib.collections", "draw")
    patches = require("matplotlib.patches", "draw")
    shapes = outlines(world)
    kinds = np.array([body.kind for body in world.bodies], dtype=object)
    alpha = np.where(world.awake, 1.0, ASLEEP_ALPHA)

    to_rgb = require("matplotlib.colors", "draw").to_rgb

    def colours(rows, table):
        """RGBA (K, 4) of the bodies at ``rows`` from a kind -> colour ``table``."""
        rgb = {kind: to_rgb(name) for kind, name in table.items()}
        return [(*rgb[kinds[row]], alpha[row]) for row in rows]

    ax.add_collection(
        collections.PolyCollection(
            shapes.polygons,
            closed=True,
            facecolors=colours(shapes.polygon_body, FACES),
            edgecolors=colours(shapes.polygon_body, EDGES),
            linewidths=1.0,
            zorder=2,
        )
    )
    ax.add_collection(
        collections.LineCollection(
            shapes.lines, colors=colours(shapes.line_body, EDGES), linewidths=1.5, zorder=2
        )
    )
    discs = [patches.Circle(centre, radius) for centre, radius in zip(shapes.centres, shapes.radii)]
    ax.add_collection(
        collections.PatchCollection(
            discs,
            facecolors=colours(shapes.circle_body, FACES),
            edgecolors=colours(shapes.circle_body, EDGES),
            linewidths=1.0,
            zorder=2,
        )
    )
    # A radius towards the body's angle shows a circle turning.
    turn = world.angles[shapes.circle_body]
    rim = shapes.centres + shapes.radii[:, None] * np.column_stack([np.cos(turn), np.sin(turn)])
    ax.add_collection(
        collections.LineCollection(
            np.stack([shapes.centres, rim], axis=1),
            colors=colours(shapes.circle_body, EDGES),
            linewidths=1.0,
            zorder=3,
        )
    )
    if joints and world.joints:
        _draw_joints(ax, world, collections)
    if contacts:
        points = [contact.points for contact in world.contacts]
        if points:
            points = np.concatenate(points)
            ax.scatter(points[:, 0], points[:, 1], s=12, color=CONTACT_COLOUR, zorder=5)
    ax.set_aspect("equal")
    ax.autoscale_view()
    return ax


def draw_trajectory(trajectory, ax=None, *, bodies=None):
    """Draw the paths of ``trajectory`` (a Trajectory) on ``ax`` (a new figure's when
    None) and return the Axes: one line per body that moved (or per body index in
    ``bodies``), a dot where it started and a cross where it ended."""
    from .trajectory import Trajectory

    if not isinstance(trajectory, Trajectory):
        raise TypeError(f"trajectory: expected a Trajectory, got {type(trajectory).__name__}")
    ax = _axes(ax, "draw.trajectory")
    collections = require("matplotlib.collections", "draw.trajectory")
    paths = trajectory.positions  # (T, N, 2)
    if bodies is None:
        bodies = np.flatnonzero(np.any(paths != paths[:1], axis=(0, 2)))
    else:
        bodies = np.asarray(bodies, dtype=np.int64).reshape(-1)
        if len(bodies) and (bodies.min() < 0 or bodies.max() >= trajectory.bodies):
            raise ValueError(f"bodies: indices must be in [0, {trajectory.bodies})")
    colours = [f"C{i % 10}" for i in range(len(bodies))]  # matplotlib's colour cycle
    ax.add_collection(
        collections.LineCollection(
            [paths[:, i] for i in bodies], colors=colours, linewidths=1.2, zorder=4
        )
    )
    starts, ends = paths[0, bodies], paths[-1, bodies]
    ax.scatter(starts[:, 0], starts[:, 1], s=14, c=colours, marker="o", zorder=5)
    ax.scatter(ends[:, 0], ends[:, 1], s=24, c=colours, marker="x", zorder=5)
    ax.set_aspect("equal")
    ax.autoscale_view()
    return ax


draw.trajectory = draw_trajectory


def _draw_joints(ax, world, collections) -> None:
    anchors_a = np.array([joint.anchor_a for joint in world.joints])
    anchors_b = np.array([joint.anchor_b for joint in world.joints])
    arms = []
    for joint, a, b in zip(world.joints, anchors_a, anchors_b):
        arms.append((joint.body_a.position, a))
        if joint.body_b is not None:
            arms.append((joint.body_b.position, b))
    ax.add_collection(
        collections.LineCollection(arms, colors=JOINT_COLOUR, linewidths=0.8, alpha=0.6, zorder=4)
    )
    ax.add_collection(
        collections.LineCollection(
            np.stack([anchors_a, anchors_b], axis=1), colors=JOINT_COLOUR, linewidths=1.5, zorder=4
        )
    )
    ends = np.concatenate([anchors_a, anchors_b])
    ax.scatter(ends[:, 0], ends[:, 1], s=16, color=JOINT_COLOUR, zorder=5)


def _axes(ax, purpose: str):
    if ax is None:
        pyplot = require("matplotlib.pyplot", purpose)
        _, ax = pyplot.subplots()
        return ax
    axes = require("matplotlib.axes", purpose)
    if not isinstance(ax, axes.Axes):
        raise TypeError(f"ax: expected a matplotlib Axes, got {type(ax).__name__}")
    return ax
