"""Movement on the board: the one home of how far "the nearest" of some spaces is, ahead or behind, and of
whether a move passes the go space, for the engine's moves and the analysis' exact odds alike.

>>> steps_ahead_to(36, (5, 15, 25, 35), size=40)   # from Chance to the nearest railroad ahead: Reading
9
>>> steps_back_to(7, (0,), size=40), passes_go(0, 36, 9, size=40)
(7, True)
>>> go_passes(0, 36, 9, size=40)
1
"""

from __future__ import annotations

from collections.abc import Iterable


def steps_ahead_to(here: int, targets: Iterable[int], *, size: int) -> int:
    """Steps forward from ``here`` to the nearest of ``targets`` (a whole lap to ``here`` itself)."""
    return min((target - here - 1) % size + 1 for target in targets)


def steps_back_to(here: int, targets: Iterable[int], *, size: int) -> int:
    """Steps backwards from ``here`` to the nearest of ``targets`` behind it (a whole lap to ``here`` itself)."""
    return min((here - target - 1) % size + 1 for target in targets)


def passes_go(go: int, old: int, steps: int, *, size: int) -> bool:
    """Whether ``steps`` forward from ``old`` pass the go space ``go`` or end on it (-1: a board without one)."""
    return go >= 0 and (go - old - 1) % size < steps


def go_passes(go: int, old: int, steps: int, *, size: int) -> int:
    """How many times ``steps`` forward from ``old`` pass the go space ``go`` or end on it: more than once for a
    move of a lap or more (a long move of an effect, the dice on a small board); 0 on a board without one.

    >>> go_passes(0, 35, 10, size=40), go_passes(0, 35, 85, size=40), go_passes(0, 3, 12, size=6)
    (1, 3, 2)
    """
    if go < 0 or steps <= 0:
        return 0
    first = (go - old - 1) % size + 1  # the step that reaches the go space first
    return 0 if first > steps else (steps - first) // size + 1
