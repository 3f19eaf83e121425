"""Joints drawn over the bodies, from the world's joint arrays, a few calls per frame.

A faint line joins each body's centre to its anchor, so one sees which bodies a joint
holds. Between the two anchors a distance joint draws its rod, or a zigzag when it is a
spring; a rope a thin line; a wheel joint its suspension spring and an axle pin; a
prismatic joint its rail; a revolute joint gets a pin, a weld a red dot, and a mouse joint
a line from the grabbed point to its target. Joints without anchors (angular springs,
gears, motor joints) draw a faint line between the two bodies' centres. The anchors are
placed at the poses the bodies are drawn at (between two steps), so they stay on the
bodies.
"""

from __future__ import annotations

import numpy as np

from engine import World

from .. import world_data
from . import palette
from .canvas import Canvas

# Line widths and marker radii, in pixels.
LINK_PX = 1.0
ROD_PX = 2.0
SPRING_PX = 1.5
SPRING_HALF_WIDTH_PX = 5.0
PIN_PX = 2.75
END_PX = 2.25
# Joints whose anchor columns hold no anchors (offsets, or nothing).
ANCHORLESS = (world_data.ANGULAR_SPRING, world_data.GEAR, world_data.MOTOR_JOINT)
# Zigzags of a spring, and the straight part at each end, as a fraction of its length.
SPRING_ZIGS = 12
SPRING_LEAD = 0.08


def anchor_points(joints: world_data.Joints, poses: np.ndarray) -> np.ndarray:
    """(J, 2, 2) world points of both ends' anchors, with the bodies at ``poses`` (N, 3)."""
    if len(joints.kind) == 0:
        return np.zeros((0, 2, 2))
    rows = joints.rows
    pose = poses[np.maximum(rows, 0)]  # (J, 2, 3); world ends are put right below
    c, s = np.cos(pose[..., 2]), np.sin(pose[..., 2])
    x, y = joints.anchors[..., 0], joints.anchors[..., 1]
    placed = np.stack([c * x - s * y + pose[..., 0], s * x + c * y + pose[..., 1]], axis=-1)
    return np.where((rows >= 0)[..., None], placed, joints.anchors)


def zigzag(start: np.ndarray, end: np.ndarray, half_width: float):
    """Segments of zigzag springs from ``start`` (S, 2) to ``end`` (S, 2), ``half_width``
    either side of the axis: (segment starts, segment ends), (S * (SPRING_ZIGS + 3), 2) each.
    """
    middle = SPRING_LEAD + (1.0 - 2.0 * SPRING_LEAD) * (np.arange(SPRING_ZIGS) + 0.5) / SPRING_ZIGS
    t = np.concatenate([[0.0, SPRING_LEAD], middle, [1.0 - SPRING_LEAD, 1.0]])
    side = np.concatenate([[0.0, 0.0], (-1.0) ** np.arange(SPRING_ZIGS), [0.0, 0.0]])
    axis = np.asarray(end, dtype=np.float64) - start
    length = np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-12)
    normal = np.column_stack([-axis[:, 1], axis[:, 0]]) / length[:, None]
    points = (
        start[:, None, :]
        + t[None, :, None] * axis[:, None, :]
        + (side[None, :, None] * half_width) * normal[:, None, :]
    )
    return points[:, :-1].reshape(-1, 2), points[:, 1:].reshape(-1, 2)


def paint_joints(canvas: Canvas, world: World, poses: np.ndarray) -> None:
    """Draw every joint of ``world``, with the bodies at ``poses`` (N, 3)."""
    joints = world_data.joints(world)
    if len(joints.kind) == 0:
        return
    points = anchor_points(joints, poses)
    kind = joints.kind
    mouse = kind == world_data.MOUSE
    anchorless = np.isin(kind, ANCHORLESS)
    # Centre-to-anchor links; a mouse joint's body needs none, its pull line says enough.
    linked = (joints.rows >= 0) & ~(mouse | anchorless)[:, None]
    canvas.lines(poses[joints.rows[linked], :2], points[linked], palette.JOINT_LINK, LINK_PX)
    # Anchorless joints: centre to centre (a world end has no centre to draw).
    both = anchorless & (joints.rows >= 0).all(axis=1)
    centres = poses[joints.rows[both], :2]
    canvas.lines(centres[:, 0], centres[:, 1], palette.JOINT_LINK, LINK_PX)

    distance = kind == world_data.DISTANCE
    spring = (distance & (joints.frequency > 0.0)) | (kind == world_data.WHEEL)
    rod = distance & ~spring
    canvas.lines(points[rod, 0], points[rod, 1], palette.JOINT_ROD, ROD_PX)
    coil_start, coil_end = zigzag(
        points[spring, 0], points[spring, 1], SPRING_HALF_WIDTH_PX * canvas.pixel
    )
    canvas.lines(coil_start, coil_end, palette.SPRING, SPRING_PX)
    canvas.dots(points[rod].reshape(-1, 2), palette.JOINT_ROD, END_PX)
    canvas.dots(points[spring].reshape(-1, 2), palette.SPRING, END_PX)

    rope = kind == world_data.ROPE
    canvas.lines(points[rope, 0], points[rope, 1], palette.JOINT_ROD, LINK_PX)
    canvas.dots(points[rope].reshape(-1, 2), palette.JOINT_ROD, END_PX)
    # A prismatic joint's rail: from A's anchor to where B's anchor slid.
    rail = kind == world_data.PRISMATIC
    canvas.lines(points[rail, 0], points[rail, 1], palette.JOINT_ROD, ROD_PX)

    canvas.lines(points[mouse, 0], points[mouse, 1], palette.DRAG_LINE, 1.5)
    canvas.dots(points[mouse].reshape(-1, 2), palette.DRAG_LINE, END_PX)

    # Both ends of a pin or weld coincide (up to the solver's slack): one marker each.
    pins = points[(kind == world_data.REVOLUTE) | (kind == world_data.WHEEL), 1]
    canvas.dots(pins, palette.JOINT_PIN, PIN_PX)
    canvas.dots(pins, palette.BACKGROUND, 0.45 * PIN_PX)  # a hollow, like a rivet
    canvas.dots(points[kind == world_data.WELD, 1], palette.WELD, END_PX)
