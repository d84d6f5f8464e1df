"""Movement on the board: the dice thrown, tokens moved (the salary, the triggers of the spaces passed, the
jail square), and the one home of how far "the nearest" of some spaces is, ahead or behind, and of whether a
move passes the go space, for the engine's moves and the analysis' exact odds alike.

>>> steps_ahead_to(36, (5, 15, 25, 35), size=40)   # from Chance to the nearest railroad ahead: Reading
9
>>> steps_back_to(7, (0,), size=40), passes_go(0, 36, 9, size=40)
(7, True)
>>> go_passes(0, 36, 9, size=40)
1
"""

from __future__ import annotations

from collections.abc import Iterable

from . import apply as writes
from .apply import move as _move
from .apply import payment
from .apply import roll as _record_roll
from .core import MAX_CHAINED_MOVES, Core, Steps
from .events import BANK


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


def roll(game: Core) -> tuple[int, ...]:
    dice = counted_dice(game)
    _record_roll(game, game.current, dice)
    return dice


def counted_dice(game: Core) -> tuple[int, ...]:
    """The counted dice of the next throw: fixed ones first (a fixed face of an extra die left out), then
    the generator's."""
    dice: tuple[int, ...]
    if game._fixed_dice:
        dice = game._fixed_dice.popleft()[:game.ruleset.dice_count]
    else:
        rnd = game._random
        sides = game._sides
        if game._two_dice:
            dice = (int(rnd() * sides) + 1, int(rnd() * sides) + 1)
        else:
            dice = tuple(int(rnd() * sides) + 1 for _ in range(game.ruleset.dice_count))
    return dice


def roll_afresh(game: Core, p: int) -> None:
    """``p`` throws the counted dice afresh (an effect's `roll`): a `roll` event, and nobody moves."""
    writes.roll(game, p, counted_dice(game))


def forward(game: Core, p: int, steps: int) -> Steps:
    """Move ``p`` forward, with the salary and the triggers of the spaces passed."""
    if not game.tables.has_pass_triggers:
        step(game, p, steps)
        return
    t = game.tables
    old = game.position[p]
    new = (old + steps) % t.size
    passes = go_passes(t.go, old, steps, size=t.size)
    _move(game, p, old, new, passes > 0, passes)
    yield from pass_along(game, p, old, steps, new, passes > 0)


def step(game: Core, p: int, steps: int) -> None:
    """Move ``p`` forward on a board with no pass triggers (nobody is asked anything): the salary each time
    the move passes the go space (more than once for a lap or more)."""
    t = game.tables
    old = game.position[p]
    new = (old + steps) % t.size
    passes = go_passes(t.go, old, steps, size=t.size)
    _move(game, p, old, new, passes > 0, passes)
    salary = game.rules.salary
    if passes and salary:
        for _ in range(passes):
            payment(game, BANK, p, salary, "salary")


def pass_along(game: Core, p: int, old: int, steps: int, new: int, passed: bool) -> Steps:
    """Walk the path of a move that passes spaces with triggers: each passed space's triggers
    and the salary at the go space, in path order, once the token is on its new space.

    The walk stops when a trigger moves the token, sends it to jail, ends the player or
    the game, or when effects have already caused too many moves since the roll.
    """
    t = game.tables
    go_step = (t.go - old - 1) % t.size + 1 if passed else -1  # the first step onto the go space, then a lap on
    for i in range(1, steps + 1):
        if i == go_step:
            go_step += t.size
            if game.rules.salary:
                payment(game, BANK, p, game.rules.salary, "salary")
        if i == steps:
            return
        for run in t.pass_triggers[(old + i) % t.size]:
            game._chain += 1
            if game._chain > MAX_CHAINED_MOVES:
                return
            yield from run(game, p, None)
            if game.bankrupt[p] or game.finished or game.position[p] != new or game.jail_turns[p] >= 0:
                return


def backward(game: Core, p: int, steps: int) -> None:
    old = game.position[p]
    _move(game, p, old, (old - steps) % game.tables.size, False)


def send_to_jail(game: Core, p: int, why: str = "sent") -> None:
    _move(game, p, game.position[p], game.tables.jail, False)
    writes.jail(game, p, "enter", why, None)


def all_same(dice: tuple[int, ...]) -> bool:
    """Doubles: every die shows the same face (one die alone never throws doubles)."""
    return len(dice) > 1 and len(set(dice)) == 1
