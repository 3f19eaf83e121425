"""Graph colouring of contact constraints for a batched Gauss-Seidel solver.

A constraint joins two bodies. Constraints of one colour share no *movable* (dynamic)
body, so the solver can treat a colour as one numpy batch and scatter its impulses into the
velocity arrays with plain fancy indexing: no index repeats, so no update is lost. Static
and kinematic bodies never change velocity, so any number of constraints of one colour may
touch them.

Colouring is colour by colour. Each colour is a maximal independent set of the constraints
still uncoloured, built in parallel rounds (Luby / Jones-Plassmann style): a candidate joins
the colour when its priority is the highest among the candidates at each of its movable
bodies; its bodies are then blocked and their other candidates drop out of this colour. The
round repeats until no candidate is left. Priorities are deterministic and unique: first the
number of the constraint's movable bodies that have the current highest remaining degree
(those bodies need a constraint in every colour from now on), then a fixed 32-bit integer
hash of the constraint index, salted per colour. No loop runs over constraints or bodies:
the Python loops are over colours and rounds, each round a few whole-array operations.

Bound on the number of colours. Let ``D`` be the largest number of constraints at one
movable body. A constraint meets at most ``2 * (D - 1)`` others at its movable bodies. Each
colour is maximal, so a constraint left out of a colour meets a constraint of that colour,
and those are different constraints for different colours; so a constraint's colour index
is at most ``2 * (D - 1)`` and at most ``2 * D - 1`` colours are used (one colour when
``D == 0``). ``D`` colours are always needed. In practice the count is close to ``D``:
8 colours for ``D = 6`` on a 100-row box pyramid, ``D`` itself on random graphs
(``bench/coloring_bench.py``).
"""

from __future__ import annotations

import numpy as np

# Salts the per-colour hash (golden-ratio constant) so ties break differently in each colour.
_COLOR_SALT = 0x9E3779B9


def color_constraints(
    body_a: np.ndarray,
    body_b: np.ndarray,
    movable: np.ndarray,
    max_colors: int | None = None,
) -> np.ndarray:
    """Colour constraints so that no two of one colour share a movable body.

    Args:
        body_a: ``(M,)`` integer body index of each constraint's first body.
        body_b: ``(M,)`` integer body index of each constraint's second body.
        movable: ``(N,)`` bool, True for bodies whose velocity the solver changes
            (dynamic); False for static and kinematic bodies, which may be shared.
        max_colors: optional cap ``K >= 1`` on the number of colours. Colours
            ``0 .. K-2`` are built as usual; every constraint still uncoloured then goes
            into the last colour ``K-1``, the *overflow* colour, which MAY share movable
            bodies and must be solved with a conflict-safe accumulation (``np.add.at``).
            Check it with :func:`batch_is_independent` if needed. ``None``: no cap.

    Returns:
        ``(M,) int64`` colour of each constraint, using every value of ``0 .. C-1``
        (``C = 0`` when ``M == 0``). Constraints whose bodies are both non-movable get
        colour 0. The result depends only on the input (no randomness).

    Raises:
        ValueError: if the arrays are not 1-D, ``body_a`` and ``body_b`` differ in
            length, a body index is outside ``0 .. N-1``, or ``max_colors < 1``.
    """
    a, b, movable = _check_inputs(body_a, body_b, movable)
    if max_colors is not None and max_colors < 1:
        raise ValueError(f"max_colors: must be >= 1 or None, got {max_colors}")
    n = movable.size
    colors = np.zeros(a.size, dtype=np.int64)

    # Endpoints at non-movable bodies go to a dummy slot n that never blocks anything, so
    # the rounds below need no special case for static bodies.
    end_a = np.where(movable[a], a, n)
    end_b = np.where(movable[b], b, n)

    remaining = np.arange(a.size, dtype=np.int64)
    color = 0
    while remaining.size:
        if max_colors is not None and color == max_colors - 1:
            colors[remaining] = color
            break
        rem_a, rem_b = end_a[remaining], end_b[remaining]
        # A body with D remaining constraints needs D more colours, so every colour should
        # serve the busiest bodies: constraints at more of them come first.
        degree = np.bincount(np.concatenate([rem_a, rem_b]), minlength=n + 1)
        degree[n] = 0
        peak = degree.max()
        busy = (degree[rem_a] == peak).astype(np.int64) + (degree[rem_b] == peak)
        salt = np.uint32((color * _COLOR_SALT) & 0xFFFFFFFF)
        # The hash is a bijection on 32 bits, so priorities are unique while M < 2**32.
        priority = (busy << 32) | _hash32(remaining.astype(np.uint32) + salt)
        chosen = _maximal_independent_set(rem_a, rem_b, priority, n)
        colors[remaining[chosen]] = color
        remaining = remaining[~chosen]
        color += 1
    return colors


def color_batches(colors: np.ndarray) -> list[np.ndarray]:
    """Group constraint indices by colour.

    Args:
        colors: ``(M,)`` integer colour of each constraint, values ``0 .. C-1``.

    Returns:
        A list of ``C`` arrays, in colour order; array ``c`` is ``(m_c,) int64``, the
        indices of the constraints of colour ``c`` in ascending order. A colour value
        with no constraints gives an empty array; ``M == 0`` gives ``[]``.

    Raises:
        ValueError: if ``colors`` is not 1-D or holds a negative value.
    """
    colors = np.asarray(colors)
    if colors.ndim != 1:
        raise ValueError(f"colors: must be 1-D, got shape {colors.shape}")
    if colors.size == 0:
        return []
    colors = colors.astype(np.int64, copy=False)
    if colors.min() < 0:
        raise ValueError(f"colors: must be >= 0, got {int(colors.min())}")
    # A stable sort keeps ascending constraint order inside each colour.
    order = np.argsort(colors, kind="stable")
    counts = np.bincount(colors)
    return np.split(order, np.cumsum(counts)[:-1])


def batch_is_independent(
    body_a: np.ndarray, body_b: np.ndarray, movable: np.ndarray, batch: np.ndarray
) -> bool:
    """Whether the constraints in ``batch`` touch each movable body at most once.

    Args:
        body_a: ``(M,)`` integer first body of each constraint.
        body_b: ``(M,)`` integer second body of each constraint.
        movable: ``(N,)`` bool, True for dynamic bodies.
        batch: ``(m,)`` integer constraint indices (e.g. one entry of :func:`color_batches`).

    Returns:
        True when no movable body appears in two constraints of ``batch`` (a constraint
        listed twice counts twice). A constraint from a body to itself uses it once.
    """
    a, b, movable = _check_inputs(body_a, body_b, movable)
    batch = np.asarray(batch, dtype=np.int64)
    ba, bb = a[batch], b[batch]
    # Drop the second end of self-loops so a body-to-itself constraint counts once.
    ends = np.concatenate([ba[movable[ba]], bb[movable[bb] & (bb != ba)]])
    return bool(ends.size == 0 or np.bincount(ends).max() <= 1)


def _check_inputs(body_a, body_b, movable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return ``(M,) int64``, ``(M,) int64``, ``(N,) bool`` versions, or raise ValueError."""
    a = np.asarray(body_a, dtype=np.int64)
    b = np.asarray(body_b, dtype=np.int64)
    movable = np.asarray(movable, dtype=bool)
    for name, array in (("body_a", a), ("body_b", b), ("movable", movable)):
        if array.ndim != 1:
            raise ValueError(f"{name}: must be 1-D, got shape {array.shape}")
    if a.size != b.size:
        raise ValueError(f"body_b: must have the length of body_a ({a.size}), got {b.size}")
    for name, array in (("body_a", a), ("body_b", b)):
        if array.size and (array.min() < 0 or array.max() >= movable.size):
            raise ValueError(f"{name}: body indices must be in 0..{movable.size - 1}")
    return a, b, movable


def _hash32(x: np.ndarray) -> np.ndarray:
    """``(K,) uint32 -> (K,) int64``: a bijective integer mix (lowbias32) of each value."""
    x = x.copy()
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)  # uint32 products wrap modulo 2**32, as the hash intends
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    return x.astype(np.int64)


def _maximal_independent_set(
    end_a: np.ndarray, end_b: np.ndarray, priority: np.ndarray, n: int
) -> np.ndarray:
    """Pick a maximal set of constraints that share no body slot below ``n``.

    Args:
        end_a: ``(K,) int64`` first body slot of each constraint, ``n`` for "no body".
        end_b: ``(K,) int64`` second body slot, likewise.
        priority: ``(K,) int64`` unique, non-negative priorities.
        n: number of real body slots; slot ``n`` never conflicts.

    Returns:
        ``(K,) bool`` mask of the chosen constraints.
    """
    chosen = np.zeros(end_a.size, dtype=bool)
    blocked = np.zeros(n + 1, dtype=bool)
    best = np.full(n + 1, -1, dtype=np.int64)
    candidates = np.arange(end_a.size, dtype=np.int64)
    # Each round picks at least the top candidate, so the loop ends; with hashed ties it
    # usually takes a handful (at most 7 per colour on the pyramid and random bench graphs).
    while candidates.size:
        cand_a, cand_b = end_a[candidates], end_b[candidates]
        cand_priority = priority[candidates]
        # Only slots of current candidates are read; clearing all of them is cheaper than
        # clearing those slots unless the candidates are few next to the bodies.
        if 8 * candidates.size >= n:
            best.fill(-1)
        else:
            best[cand_a] = -1
            best[cand_b] = -1
        np.maximum.at(best, cand_a, cand_priority)
        np.maximum.at(best, cand_b, cand_priority)
        best[n] = -1  # every candidate passes at the dummy slot
        # Priorities are unique, so two winners can never share a body slot below n.
        wins = (cand_priority >= best[cand_a]) & (cand_priority >= best[cand_b])
        winners = candidates[wins]
        if winners.size == 0:  # impossible with unique priorities; guards against a hang
            raise RuntimeError("colouring made no progress: priorities are not unique")
        chosen[winners] = True
        blocked[end_a[winners]] = True
        blocked[end_b[winners]] = True
        blocked[n] = False
        candidates = candidates[~(wins | blocked[cand_a] | blocked[cand_b])]
    return chosen
