"""A kind's rent (`kinds.*.rent`), a number of the effect language, as a function of the lot being rented.

The rent reads the lot through ``game.rent_here`` (a :class:`RentHere`: its building level, how many lots of
its group its owner has, the group's size, the lot's printed figures) and may read anything else a number
reads. A rent that reads only the lot, the dice thrown and the rules is *pure*: `monopoly.game.rent` works it
out once for every level, count and dice total when the ruleset is compiled; any other rent is worked out at
each payment. The semantic checks ask :func:`figures_read` which figures a rent can come to.

>>> from monopoly.effects.parse import parse_number
>>> rent = parse_number("figure owned in group x dice")
>>> is_pure(rent), reads_dice(rent)
(True, True)
>>> evaluate(compile_rent(rent, {}), figures=(4, 10), level=0, owned=2, size=2, hotel_level=5, dice=7)
70
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from . import ast
from .compile import AmountFn, Names, compile_condition, compile_number

__all__ = ["FiguresRead", "RentHere", "compile_rent", "evaluate", "figures_read", "is_pure", "reads_dice"]


class RentHere:
    """The lot being rented, as a rent reads it: ``level`` (0 none, 1 to ``hotel_level - 1`` houses,
    ``hotel_level`` a hotel), ``owned`` (the lots of its group its owner has, itself included), ``size`` (the
    lots of its group) and ``figures`` (its `rent:` list)."""

    __slots__ = ("figures", "hotel_level", "level", "owned", "size")

    def __init__(self, figures: Any, level: int, owned: int, size: int, hotel_level: int):
        self.figures = figures
        self.level = level
        self.owned = owned
        self.size = size
        self.hotel_level = hotel_level


class _Alone:
    """What a pure rent reads besides the lot: the dice thrown (``last_roll``, their total alone; an extra die's
    number is in that total, so ``last_extra`` is empty)."""

    __slots__ = ("last_extra", "last_roll", "rent_here")

    def __init__(self, here: RentHere, dice: int):
        self.rent_here = here
        self.last_roll = (dice,)
        self.last_extra = ()


#: The nodes a pure rent is made of: numbers, the lot, the dice and the rules; and conditions on them.
_PURE = (ast.Fixed, ast.Arith, ast.Extreme, ast.PercentOf, ast.Figure, ast.RuleValue, ast.IfNumber, ast.Amount,
         ast.RentTest, ast.Compare, ast.Not, ast.Logic)


def is_pure(rent: Any) -> bool:
    """Whether ``rent`` reads only the lot, the dice thrown and the rules (then it can be worked out ahead)."""
    return all(isinstance(node, _PURE) or (isinstance(node, ast.Quantity) and
                                           (node.name in ast.RENT_QUANTITIES or node.name == "dice"))
               for node in ast.nodes(rent))


def reads_dice(rent: Any) -> bool:
    """Whether ``rent`` reads the dice thrown."""
    return any(isinstance(node, ast.Quantity) and node.name == "dice" for node in ast.nodes(rent))


def reads_owned(rent: Any) -> bool:
    """Whether ``rent`` reads how many of its group the owner has (`owned in group`, `whole group`)."""
    return any((isinstance(node, ast.Quantity) and node.name == "owned_in_group") or
               (isinstance(node, ast.RentTest) and node.name == "whole_group") for node in ast.nodes(rent))


def reads_count(rent: Any) -> str:
    """What ``rent`` reads of how many of its group the owner has: "count" (`owned in group`), "whole" (only
    `whole group`), or "none"."""
    nodes = list(ast.nodes(rent))
    if any(isinstance(node, ast.Quantity) and node.name == "owned_in_group" for node in nodes):
        return "count"
    if any(isinstance(node, ast.RentTest) and node.name == "whole_group" for node in nodes):
        return "whole"
    return "none"


def compile_rent(rent: ast.Amount, rules: dict[str, Any], names: Names | None = None) -> AmountFn:
    """``rent`` as a function of (game, player): ``game.rent_here`` is the lot (``rules``: the values of the
    rules by path, for a rent that names no space; ``names``: the board's, for one that does)."""
    if names is None:
        names = Names((), rules=rules)
    return compile_number(rent, names)


def evaluate(rent: AmountFn, *, figures: Any, level: int, owned: int, size: int, hotel_level: int,
             dice: int) -> int:
    """A pure rent for one lot, level, count owned and dice total (no game needed)."""
    return rent(_Alone(RentHere(figures, level, owned, size, hotel_level), dice), -1)


class FiguresRead(NamedTuple):
    """What a kind's rent reads of a lot's figures: the highest `figure N` it comes to (0: none), whether it
    reads `last figure`, whether it reads the dice, and how many of the group are owned."""

    needed: int
    last: bool
    dice: bool
    owned: bool


class _Recorder:
    """Figures that note which of them are read (all 1, so that the rest of the rent can be worked out)."""

    __slots__ = ("last", "most")

    def __init__(self) -> None:
        self.most = 0
        self.last = False

    def __len__(self) -> int:
        return ast.AMOUNT_MAX

    def __getitem__(self, index: int) -> int:
        if index < 0:
            self.last = True
        else:
            self.most = max(self.most, index + 1)
        return 1


def figures_read(rent: ast.Amount, rules: dict[str, Any], *, levels: int, size: int,
                 totals: tuple[int, ...]) -> FiguresRead:
    """Which figures ``rent`` reads of a lot of a group of ``size``, at the levels ``0 .. levels - 1`` (the
    hotel is the last), with ``1 .. size`` of the group owned and each dice total. The rent is followed in each
    of these: an `if` whose condition reads only the lot, the dice and the rules takes the branch it takes there
    (a figure on a branch never taken is not counted), any other `if` both branches; a figure's number is
    worked out there (one that reads more of the game is not counted)."""
    recorder = _Recorder()
    dice = reads_dice(rent)
    hotel = levels - 1 if levels > 1 else 1
    names = Names((), rules=rules)
    compiled: dict[Any, Any] = {}
    for level in range(levels):
        for owned in range(1, size + 1):
            for total in totals if dice else totals[:1]:
                game = _Alone(RentHere(recorder, level, owned, size, hotel), total)
                _follow(rent, game, names, compiled)
    return FiguresRead(recorder.most, recorder.last, dice, reads_owned(rent))


def _pure(node: Any, compiled: dict[Any, Any]) -> bool:
    """:func:`is_pure`, once a node."""
    key = ("pure", id(node))
    if key not in compiled:
        compiled[key] = is_pure(node)
    return bool(compiled[key])


def _follow(node: Any, game: _Alone, names: Names, compiled: dict[Any, Any]) -> None:
    """Read the figures ``node`` comes to in ``game`` (see :func:`figures_read`)."""
    if isinstance(node, ast.IfNumber):
        if _pure(node.condition, compiled):
            test = compiled.get(id(node))
            if test is None:
                test = compiled[id(node)] = compile_condition(node.condition, names)
            _follow(node.then if test(game, -1) else node.otherwise, game, names, compiled)
            return
        _follow(node.condition, game, names, compiled)
        _follow(node.then, game, names, compiled)
        _follow(node.otherwise, game, names, compiled)
        return
    if isinstance(node, ast.Figure):
        if node.index is None:
            game.rent_here.figures[-1]  # the recorder notes the read
            return
        _follow(node.index, game, names, compiled)
        if _pure(node.index, compiled):
            index = compiled.get(id(node))
            if index is None:
                index = compiled[id(node)] = compile_number(ast.Amount((node.index,)), names)
            figure = index(game, -1)
            if figure >= 1:
                game.rent_here.figures[figure - 1]  # the recorder notes the read
        return
    if attrs.has(type(node)):
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            for item in value if isinstance(value, tuple) else (value,):
                if attrs.has(type(item)):
                    _follow(item, game, names, compiled)
