"""The one home of dice beyond "count dice of sides faces": which dice make doubles and the extra die.

A ruleset with ``dice.doubles`` or ``dice.extra`` (the speed die) gets a :class:`Dice` in its tables; the
classic dice get None, and the turn loop keeps its inline path for them. The extra die is drawn from the
game's generator only when it is thrown, after the counted dice, so a ruleset without one draws what it
always drew.
"""

from __future__ import annotations

from typing import Any

from ..effects.compile import Names, compile_condition, compile_effect
from ..ruleset.model import Ruleset

_TWO = (0, 1)  # the places of dice 1 and 2 in a throw (the white dice of the speed die): tested inline


class Dice:
    """A ruleset's dice compiled once: the counted dice that make doubles (their places in a throw), and the
    extra die's faces, when it is thrown (``when``: a test of (game, player), None: always), what each symbol
    does instead of the move or after it, and what a triple does."""

    __slots__ = ("after", "counted", "faces", "instead", "triples", "when")

    def __init__(self, ruleset: Ruleset, names: Names):
        doubles = ruleset.dice_doubles
        self.counted = tuple(d - 1 for d in doubles) if doubles is not None else tuple(range(ruleset.dice_count))
        extra = ruleset.extra_die
        self.faces: tuple[int | str, ...] = extra.faces if extra is not None else ()
        self.when = compile_condition(extra.when, names) if extra is not None and extra.when is not None else None
        self.instead: dict[str, Any] = {}
        self.after: dict[str, Any] = {}
        for symbol in extra.symbols if extra is not None else ():
            table = self.instead if symbol.timing == "instead" else self.after
            table[symbol.face] = compile_effect(symbol.effect, names, symbol.face.replace("_", " "))
        self.triples = compile_effect(extra.triples, names, "triples") \
            if extra is not None and extra.triples is not None else None

    def doubles(self, dice: tuple[int, ...]) -> bool:
        """Whether the counted dice of a throw make doubles (one die alone never does)."""
        if self.counted == _TWO:  # dice 1 and 2 (the white dice of the speed die)
            return len(dice) >= 2 and dice[0] == dice[1]
        faces = [dice[i] for i in self.counted if i < len(dice)]
        return len(faces) > 1 and len(set(faces)) == 1

    def thrown(self, game: Any, p: int) -> bool:
        """Whether the extra die is thrown with ``p``'s roll to move now."""
        return bool(self.faces) and (self.when is None or bool(self.when(game, p)))

    def face(self, random: Any) -> int | str:
        """A face of the extra die, each equally likely, from the game's generator."""
        return self.faces[int(random() * len(self.faces))]


def compile_dice(ruleset: Ruleset, names: Names) -> Dice | None:
    """The ruleset's :class:`Dice`, or None for dice that are only a count and sides (the turn loop's own)."""
    if ruleset.dice_doubles is None and ruleset.extra_die is None:
        return None
    return Dice(ruleset, names)


def doubles_places(ruleset: Ruleset) -> tuple[int, ...] | None:
    """The places in a throw of the dice that make doubles, when not every counted die does (for the compiler's
    `doubles`)."""
    return tuple(d - 1 for d in ruleset.dice_doubles) if ruleset.dice_doubles is not None else None
