"""Conservation read-outs of a World: energy, momentum and angular momentum.

Each is one pass of numpy calls over the world's read-only arrays (``world.masses``,
``world.inertias``, ``world.positions``, ``world.velocities``, ...), never a loop over
bodies. They describe the **dynamic bodies only**: static and kinematic bodies have
infinite mass, so their energy and momentum are not numbers, and they act as the outside
world whose pushes change the totals. A world whose dynamic bodies touch nothing but one
another keeps its momentum; one with a ground exchanges momentum with the ground.

Potential energy is that of the world's gravity, zero at the origin:
``-sum(m * gravity . position)`` (so ``m g y`` for the default gravity).

>>> from engine import World, Box
>>> world = World(gravity=(0.0, -10.0))
>>> ground = world.add_body(Box(10, 1), position=(0, -0.5), kind="static")
>>> crate = world.add_body(Box(1, 1), position=(0, 2), velocity=(3, 0))   # 1 kg
>>> kinetic_energy(world), potential_energy(world), momentum(world).tolist()
(4.5, 20.0, [3.0, 0.0])
"""

from __future__ import annotations

import numpy as np

from .validation import as_vector


def _dynamic_mass_and_inertia(world) -> tuple[np.ndarray, np.ndarray]:
    """(N,) masses and (N,) inertias with 0 in place of the infinite non-dynamic ones."""
    masses, inertias = world.masses, world.inertias
    finite = np.isfinite(masses)
    return np.where(finite, masses, 0.0), np.where(finite, inertias, 0.0)


def kinetic_energy(world) -> float:
    """Kinetic energy of the dynamic bodies, J: sum of m v.v / 2 + I w^2 / 2."""
    mass, inertia = _dynamic_mass_and_inertia(world)
    speed_squared = np.einsum("ij,ij->i", world.velocities, world.velocities)
    spin = world.angular_velocities
    return float(0.5 * (mass @ speed_squared + inertia @ (spin * spin)))


def potential_energy(world) -> float:
    """Gravitational potential energy of the dynamic bodies, J, zero at the origin:
    -sum(m * gravity . position)."""
    mass, _ = _dynamic_mass_and_inertia(world)
    return float(-(mass @ (world.positions @ world.gravity)))


def momentum(world) -> np.ndarray:
    """(2,) float64 linear momentum of the dynamic bodies, kg m/s: sum of m v."""
    mass, _ = _dynamic_mass_and_inertia(world)
    return mass @ world.velocities


def angular_momentum(world, about=(0.0, 0.0)) -> float:
    """Angular momentum of the dynamic bodies about the point ``about`` (2,), kg m^2/s,
    counter-clockwise: sum of m (r - about) x v + I w."""
    about = as_vector(about, "about")
    mass, inertia = _dynamic_mass_and_inertia(world)
    arm = world.positions - about
    velocity = world.velocities
    orbital = arm[:, 0] * velocity[:, 1] - arm[:, 1] * velocity[:, 0]
    return float(mass @ orbital + inertia @ world.angular_velocities)
