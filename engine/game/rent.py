"""Rent: the one home of what a lot's rent is, for the engine (``Game.rent_due``, the turn loop), the analysis
(the money tables of ``monopoly analyze``) and the bots (what a house adds).

A lot's rent is its kind's (`kinds.*.rent` in the ruleset; the classic kinds are in rulesets/base/defaults.yaml),
an expression of the effect language over the lot (`monopoly.effects.rent`). A rent that reads only the lot, the
dice and the rules is worked out here once per lot, level, count of the group owned and dice total when the
ruleset is compiled (:func:`rent_rows`), and looked up while playing (:func:`lookup`, and the same lines inline
in ``landing.rent_at``); any other rent is worked out at each payment (:func:`live_rent`).

>>> import monopoly
>>> from monopoly.game.tables import tables_for
>>> t = tables_for(monopoly.load_ruleset("classic"))
>>> baltic = t.names.index("Baltic Avenue")
>>> rent_at(t, baltic, 0, 1), rent_at(t, baltic, 0, 2), rent_at(t, baltic, 5, 2)   # alone, whole group, hotel
(4, 8, 450)
>>> rent_at(t, t.names.index("Reading Railroad"), 0, 3), rent_at(t, t.names.index("Water Works"), 0, 2, dice=7)
(100, 70)
"""

from __future__ import annotations

from typing import Any

from ..effects.compile import AmountFn
from ..effects.rent import RentHere, evaluate

__all__ = ["live_rent", "lookup", "rent_at", "rent_rows"]


def rent_rows(rent: AmountFn, figures: tuple[int, ...], *, levels: int, size: int, hotel_level: int,
              totals: tuple[int, ...] | None, counts: str = "count") -> tuple[Any, ...]:
    """A pure rent worked out for one lot: by level (``0 .. levels - 1``), a row that is one number when the
    count owned does not change it, a list ``[not whole, whole]`` when only owning the whole group does, else a
    tuple by the count owned (``0 .. size``) of cells, each one number, or (``totals``: the rent reads the dice,
    which may total these) a tuple by the dice total. ``counts`` (:func:`~monopoly.effects.rent.reads_count`):
    a rent that reads only whether the group is whole is worked out for one count short of it and for it, one
    that reads no count once; the other counts are the same."""
    rows: list[Any] = []
    for level in range(levels):
        row: list[Any] = []
        for owned in range(size + 1):
            if counts != "count" and owned not in (size, 0 if counts == "whole" else size) and row:
                row.append(row[-1])  # as for the count before: the rent does not tell them apart
                continue
            if counts == "none" and owned < size:
                row.append(None)  # filled in from the whole group's below
                continue
            if totals is None:
                row.append(evaluate(rent, figures=figures, level=level, owned=owned, size=size,
                                    hotel_level=hotel_level, dice=0))
                continue
            cell = [0] * (max(totals) + 1)
            for total in totals:
                cell[total] = evaluate(rent, figures=figures, level=level, owned=owned, size=size,
                                       hotel_level=hotel_level, dice=total)
            row.append(cell[totals[0]] if len({cell[total] for total in totals}) == 1 else tuple(cell))
        if counts == "none":
            row = [row[-1]] * (size + 1)
        rows.append(_row(row))
    return tuple(rows)


#: Rows already worked out, by what they follow from: the kind's rent and the rules (the outer key), then the
#: lot's figures, levels, group size and dice totals. Lots alike and rulesets alike share them. Bounded.
_ROWS: dict[Any, dict[Any, tuple[Any, ...]]] = {}


def rows_cache(rent: Any, rules: Any) -> dict[Any, tuple[Any, ...]]:
    """The rows already worked out for a kind's ``rent`` (its AST) under ``rules`` (the ruleset's rule values),
    by the rest of what they follow from; ask once per kind (hashing an AST walks it)."""
    if len(_ROWS) > 256:
        _ROWS.clear()
    return _ROWS.setdefault((rent, rules), {})


def cached_rows(cache: dict[Any, tuple[Any, ...]], key: Any, make: Any) -> tuple[Any, ...]:
    """The rows of ``key`` in ``cache`` (:func:`rows_cache`), made by ``make()`` the first time."""
    rows = cache.get(key)
    if rows is None:
        if len(cache) > 1024:
            cache.clear()
        rows = cache[key] = make()
    return rows


def _row(row: list[Any]) -> Any:
    """One level's cells by the count owned (``0 .. size``) as the lookup takes them: one number when the count
    does not change the rent, a list ``[not whole, whole]`` when only owning the whole group does (then the
    count stops at the first lot of the group someone else has), else a tuple by the count."""
    counted = row[1:] or row
    if all(type(cell) is int and cell == counted[0] for cell in counted):
        return counted[0]
    apart = counted[:-1]
    if apart and all(type(cell) is int and cell == apart[0] for cell in apart) and type(counted[-1]) is int:
        return [apart[0], counted[-1]]
    return tuple(row)


def lookup(rows: tuple[Any, ...], level: int, owned: int, total: int, size: int) -> int | None:
    """The rent in a lot's rows at this level, count owned (of a group of ``size``) and dice total (None: a
    total the rows do not hold)."""
    row = rows[level]
    if row.__class__ is int:
        value: int = row
        return value
    if row.__class__ is list:
        value = row[owned == size]
        return value
    cell = row[owned]
    if cell.__class__ is int:
        value = cell
        return value
    return int(cell[total]) if 0 <= total < len(cell) else None


def rent_at(tables: Any, s: int, level: int, owned: int, dice: int = 7) -> int:
    """The rent of lot ``s`` of these tables at building ``level`` with ``owned`` of its group owned and the dice
    at ``dice`` (for a rent that reads more of the game than that: 0, it is known only in a game)."""
    rows = tables.rent_rows[s]
    if rows is None:
        return 0
    found = lookup(rows, level, owned, dice, len(tables.peers[s]))
    if found is not None:
        return found
    return evaluate(tables.rent_fn[s], figures=tables.rent[s], level=level, owned=owned,
                    size=len(tables.peers[s]), hotel_level=tables.hotel_level, dice=dice)


class _Live:
    """A game as a rent worked out at payment reads it: the game itself, with the lot being rented."""

    __slots__ = ("_game", "rent_here")

    def __init__(self, game: Any, here: RentHere):
        self._game = game
        self.rent_here = here

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def live_rent(game: Any, s: int, o: int, p: int) -> int:
    """The rent of lot ``s`` owned by ``o`` for visitor ``p`` (-1: nobody in particular) as the game stands: for a
    rent that is not worked out ahead, and for dice totals the rows do not hold."""
    t = game.tables
    owner = game.owner
    owned = sum(1 for m in t.peers[s] if owner[m] == o)
    here = RentHere(t.rent[s], game.buildings[s] if t.build_on[s] else 0, owned, len(t.peers[s]),
                    t.hotel_level)
    value: int = t.rent_fn[s](_Live(game, here), p)
    return value

