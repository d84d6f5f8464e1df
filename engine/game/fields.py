"""The fields of a position that the one writer (``apply.py``) writes every turn, declared once for both kinds
of state it writes: a live game (:class:`~monopoly.game.game.Game`, through ``Core``) and a position or a
replay (:class:`~monopoly.game.state.GameState`, :class:`~monopoly.game.replay.Replay`).

In the compiled build (docs/performance.md) this is a compiled class, so the functions of ``apply.py`` typed
with it read and write these fields directly instead of by name; in the pure-Python package its slots keep a
``GameState`` without a ``__dict__``, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._mypyc import mypyc_attr

#: The fields, in no particular order (each kind of state sets them its own way).
FIELDS = ("cash", "position", "laps", "owner", "buildings", "mortgaged", "houses_left", "hotels_left", "pot",
          "turn", "round", "current", "owner_version", "last_roll", "last_extra", "record")


@mypyc_attr(allow_interpreted_subclasses=True)
class Fields:
    """Declares the fields; sets none of them."""

    __slots__ = FIELDS

    cash: list[int]
    position: list[int]
    laps: list[int]  # by seat: how many times the token has passed or landed on the go space
    owner: list[int]
    buildings: list[int]
    mortgaged: list[bool]
    houses_left: int
    hotels_left: int
    pot: int
    turn: int
    round: int
    current: int
    owner_version: int  # changes whenever a lot changes hands (agents cache on it)
    last_roll: tuple[int, ...]
    last_extra: tuple[int | str, ...]  # what the extra die showed on the last throw (dice.extra), if thrown
    record: Callable[[tuple[Any, ...]], None]  # called with each event record
