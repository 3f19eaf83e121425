"""The demos' colours, as RGBA byte tuples, and small helpers to mix them.

A dark slate background with soft, well separated body colours: bodies stay readable
when thousands are on screen, and the overlays (bright, thin) stand out on top of them.
"""

from __future__ import annotations

import numpy as np

BACKGROUND = (24, 28, 36, 255)
GRID_LINE = (40, 46, 58, 255)

# Dynamic bodies take one of these, chosen from their id so that neighbours differ.
BODY_COLOURS = np.array(
    [
        (102, 178, 255, 255),  # sky blue
        (255, 159, 102, 255),  # apricot
        (129, 212, 150, 255),  # mint
        (240, 122, 140, 255),  # rose
        (190, 150, 240, 255),  # lavender
        (250, 210, 105, 255),  # butter
        (94, 208, 205, 255),  # teal
        (236, 150, 205, 255),  # orchid
    ],
    dtype=np.uint8,
)
STATIC = (92, 102, 122, 255)
KINEMATIC = (214, 178, 96, 255)

# Overlays and annotations.
AABB = (120, 230, 140, 200)
CONTACT_POINT = (255, 80, 80, 255)
CONTACT_NORMAL = (255, 220, 90, 255)
BROADPHASE_CELL = (90, 200, 255, 110)
VELOCITY = (240, 240, 250, 210)
DRAG_LINE = (255, 255, 255, 180)
# Joints: faint lines from body centres to anchors, brighter rods, pins and springs.
JOINT_LINK = (225, 230, 242, 120)
JOINT_ROD = (225, 230, 242, 230)
JOINT_PIN = (245, 247, 252, 255)
WELD = (255, 128, 112, 255)
SPRING = (255, 209, 102, 235)
TEXT = (230, 234, 242, 255)
TEXT_DIM = (150, 160, 178, 255)
ACCENT = (255, 209, 102, 255)
PANEL = (12, 14, 20, 170)
GOOD = (110, 220, 140, 255)
BAD = (255, 90, 90, 255)


def body_colours(ids: np.ndarray) -> np.ndarray:
    """(N,) int body ids -> (N, 4) uint8 colours.

    Consecutive ids step 5 or 6 places through the 8 colours, so bodies added one after
    another never share a colour, and the extra step every 8 ids breaks up the stripes a
    plain stride would paint on rows of boxes.
    """
    ids = np.asarray(ids, dtype=np.int64)
    index = (ids * 5 + ids // 8) % len(BODY_COLOURS)
    return BODY_COLOURS[index]


def shade(colours, factor: float) -> np.ndarray:
    """Colours scaled towards black (factor < 1) or white (factor > 1); alpha kept."""
    colours = np.asarray(colours, dtype=np.float64)
    rgb = colours[..., :3]
    if factor >= 1.0:
        rgb = rgb + (255.0 - rgb) * (factor - 1.0)
    else:
        rgb = rgb * factor
    out = np.concatenate([rgb, colours[..., 3:]], axis=-1)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def with_alpha(colour, alpha: int) -> tuple[int, int, int, int]:
    """The same colour with another alpha (0..255)."""
    return (int(colour[0]), int(colour[1]), int(colour[2]), int(alpha))
