"""Numerical constants of the simulation, named in one place with the reason for each."""

# Penetration the solver leaves alone. Resting contacts sit this deep so that they stay
# touching from step to step instead of flickering between touching and apart.
LINEAR_SLOP = 0.005  # m

# Gap within which a contact is made ahead of touching. Speculative contacts let the solver
# stop bodies at the surface within a step instead of after they overlap.
SPECULATIVE_DISTANCE = 4 * LINEAR_SLOP  # m

# Below this approach speed an impact does not bounce: resting bodies would otherwise jitter
# on restitution computed from the small velocities gravity gives them every step.
RESTITUTION_THRESHOLD = 1.0  # m/s

# Fraction of the remaining overlap removed per positional-correction pass, and the most
# one pass may move a contact: large corrections in one go would launch bodies.
CORRECTION_FACTOR = 0.5
MAX_CORRECTION = 0.2  # m

# A reference face on B replaces one on A only when clearly better, so the contact points
# of a resting pair do not switch features (and lose warm starting) between steps.
FLIP_TOLERANCE = 0.1 * LINEAR_SLOP  # m

# Solver passes per step.
VELOCITY_ITERATIONS = 10
POSITION_ITERATIONS = 3

# A body moving more than this fraction of its own size in one step is checked against
# the time of impact of its sweep, so that it cannot pass through thin obstacles.
CCD_FRACTION = 0.25

# How much a catch-up in World.advance may run at most, in steps per call.
MAX_STEPS_PER_ADVANCE = 8

# A body slower than this (at its centre and at its reach when turning) counts as resting.
SLEEP_SPEED = 0.05  # m/s

# An island whose bodies have all rested this long falls asleep and leaves the solver.
TIME_TO_SLEEP = 0.5  # s

# Joint limits: the angle a limit may be passed without correction (so a joint resting on
# its limit does not jitter), and the most one correction pass may turn a joint back.
ANGULAR_SLOP = 2.0 * 3.141592653589793 / 180.0  # rad
MAX_ANGULAR_CORRECTION = 8.0 * 3.141592653589793 / 180.0  # rad

# The largest values the engine accepts where they are given (positions, anchors and
# targets; speeds; the step; gravity). A step works with sums and products of them (v dt,
# w r, a joint's lever arm times a speed); within these limits every intermediate value
# stays far inside float64 and the joint solver stays well conditioned: welding bodies
# 1e12 m apart that move at MAX_SPEED still keeps every number finite.
MAX_COORDINATE = 1e12  # m
MAX_SPEED = 1e6  # m/s
MAX_ANGULAR_SPEED = 1e6  # rad/s
MAX_DT = 1.0  # s
MAX_GRAVITY = 1e6  # m/s^2
