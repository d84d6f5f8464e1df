"""Building, selling and mortgaging: a verified action carried out (the bank's stock following), its
triggers, and what a player's buildings count. Whether an action is allowed is decided in actions.py (its
``verify``); its prices are there too (``sell_value``, ``lot_sale_value``, ``unmortgage_cost``).
"""

from __future__ import annotations

from typing import Any, cast

from . import actions as act
from . import apply as writes
from . import cards
from .actions import BUILD, MORTGAGE, SELL_BUILDING, SELL_LOT, TRADE, UNMORTGAGE, USE_CARD
from .apply import payment
from .auction import shortage_possible
from .core import Core, Steps, refuse
from .events import BANK
from .stock import on_board


def do(game: Core, seat: int, action: act.Action) -> int:
    """Carry out a verified build, sell, mortgage, unmortgage or sale of a lot to the bank; return the money
    it moved."""
    t = game.tables
    s: int = cast(Any, action).space  # read once, as an int: indexes typed in the compiled build
    kind = type(action)
    if kind is BUILD:
        group = t.group_of[s]
        cost = t.house_cost[group]
        payment(game, seat, BANK, cost, "build")
        writes.build(game, seat, s, game.buildings[s] + 1)
        return cost
    if kind is SELL_BUILDING:
        group = t.group_of[s]
        level = game.buildings[s]
        if level == t.hotel_level and game.houses_left < t.hph:  # a hotel in a housing shortage
            sell_down(game, seat, act.shortage_sale(t, game.buildings, game.houses_left, s,
                                                    game.rules.building.even))
            return 0
        payment(game, BANK, seat, act.sell_value(game, group), "sell building")
        writes.sell(game, seat, s, level - 1, 1)
        return act.sell_value(game, group)
    if kind is MORTGAGE:
        payment(game, BANK, seat, t.mortgage[s], "mortgage")
        writes.mortgage(game, seat, s)
        return t.mortgage[s]
    if kind is SELL_LOT:
        value = act.lot_sale_value(game, s)
        payment(game, BANK, seat, value, "sell lot")
        writes.property_(game, s, seat, BANK, "sold")
        return value
    cost = act.unmortgage_cost(game, s)
    payment(game, seat, BANK, cost, "unmortgage")
    writes.unmortgage(game, seat, s)
    return cost


def sell_down(game: Core, p: int, changes: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> None:
    """Sell buildings back to the bank: each ``(lot, level after)``, at the sell-back price, the bank's
    stock following (a hotel that goes back brings its houses with it)."""
    t = game.tables
    hotel = t.hotel_level
    # Lots of houses first: the houses they give back are those a hotel broken down takes (the bank's stock
    # never goes below nothing, even between two of these sales).
    for s, new in sorted(changes, key=lambda change: game.buildings[change[0]] == hotel):
        count = game.buildings[s] - new
        payment(game, BANK, p, act.sell_value(game, t.group_of[s]) * count, "sell building")
        writes.sell(game, p, s, new, count)


def sell_group(game: Core, p: int, group: int) -> None:
    """Sell every building of a group to the bank (a bankrupt's buildings)."""
    sell_down(game, p, [(s, 0) for s in game.tables.members[group] if game.buildings[s]])


def houses_of(game: Core, p: int) -> int:
    return on_board([b for s, b in enumerate(game.buildings) if game.owner[s] == p],
                    hotel_level=game.tables.hotel_level)[0]


def hotels_of(game: Core, p: int) -> int:
    return on_board([b for s, b in enumerate(game.buildings) if game.owner[s] == p],
                    hotel_level=game.tables.hotel_level)[1]


def count_owned(game: Core, p: int, indexes: tuple[int, ...]) -> int:
    return sum(1 for s in indexes if game.owner[s] == p)


def apply_now(game: Core, seat: Any, action: Any, raising: bool) -> bool | None:  # Any: checked here
    """The part of applying an action that asks nobody, as a plain call (a build, a sale or a mortgage of a busy
    turn pays no generator): verify the action, refuse it (False) or take it when that asks nobody (True);
    None when it is verified but takes a step that may ask (a trade, a card's use, a shortage auction, the
    triggers on actions), which :func:`~monopoly.game.acting.apply_asking` takes."""
    try:
        act.verify(game, seat, action, raising=raising)
    except act.IllegalAction as exc:
        refuse(game, seat, action, str(exc))
        return False
    kind = type(action)
    if kind is TRADE or kind is USE_CARD or game.tables.action_triggers or \
            (kind is BUILD and shortage_possible(game, action.space)):
        return None
    do(game, seat, action)
    return True


def do_triggered(game: Core, seat: int, action: act.Action) -> Steps:
    """Carry out a verified build, sale or mortgage, then the triggers on it: what :func:`apply_now` leaves to
    a generator for a ruleset with triggers on actions."""
    amount = do(game, seat, action)
    if game.tables.action_triggers:
        yield from acted(game, seat, action, amount)
    return True


def acted(game: Core, seat: int, action: act.Action, amount: int) -> Steps:
    """The triggers on a build, a mortgage or an unmortgage just done (``amount`` its money)."""
    kind = type(action)
    event = "build" if kind is BUILD else "mortgage" if kind is MORTGAGE else \
        "unmortgage" if kind is UNMORTGAGE else None
    if event is not None:
        yield from cards.event(game, event, seat, amount)
