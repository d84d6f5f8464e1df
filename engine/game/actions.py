"""Every action a player can take between rolls, checked in one place.

Each action has three faces (after PokerKit): ``verify(game, seat, action)``
raises :class:`IllegalAction` with a reason a person can read; ``can(...)``
answers yes or no; ``apply(...)`` verifies, then does it. An action that fails
verification never changes the state. :func:`legal_actions` lists what a seat
may do now (trades excepted: they are open-ended offers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import attrs

if TYPE_CHECKING:
    from .game import Game


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` says why."""


@attrs.frozen
class Build:
    """Buy one house (or the hotel, when the lot has all its houses) for a street."""

    space: int


@attrs.frozen
class SellBuilding:
    """Sell one house, or break a hotel back down to houses, at the sell-back price.

    When the bank has too few houses to break a hotel down, selling the hotel
    sells every building of its group (the hotel cannot come back as houses).
    """

    space: int


@attrs.frozen
class Mortgage:
    space: int


@attrs.frozen
class Unmortgage:
    space: int


@attrs.frozen
class Trade:
    """An offer from ``proposer`` to ``partner``: lots, cash and held cards each way.

    Cards are ``(deck, card_index)`` pairs of Get Out of Jail Free cards held.
    """

    proposer: int
    partner: int
    give_spaces: tuple[int, ...] = ()
    give_cash: int = 0
    give_cards: tuple[tuple[str, int], ...] = ()
    get_spaces: tuple[int, ...] = ()
    get_cash: int = 0
    get_cards: tuple[tuple[str, int], ...] = ()


Action = Union[Build, SellBuilding, Mortgage, Unmortgage, Trade]


def verify(game: Game, seat: int, action: Action, *, raising: bool = False) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may take ``action`` now.

    ``raising`` is true while the seat raises money for a debt (some rules,
    such as the tournament rule on breaking hotels, depend on it).
    """
    if game.finished:
        raise IllegalAction("the game is over")
    if not 0 <= seat < game.players or game.bankrupt[seat]:
        raise IllegalAction(f"seat {seat} is not in the game")
    kind = type(action)
    if kind is Trade:
        _verify_trade(game, seat, action)  # type: ignore[arg-type]
        return
    if kind not in (Build, SellBuilding, Mortgage, Unmortgage):
        raise IllegalAction(f"unknown action {action!r}")
    space = action.space  # type: ignore[union-attr]
    t = game.tables
    if type(space) is not int or not 0 <= space < t.size:
        raise IllegalAction(f"there is no space {space!r}")
    name = t.names[space]
    if game.owner[space] != seat:
        raise IllegalAction(f"{name} is not yours")
    group = t.group_of[space]
    members = t.members[group]
    level = game.buildings[space]
    if kind is Build:
        if not t.buildable[group]:
            raise IllegalAction(f"nothing can be built on {name}")
        if any(game.owner[m] != seat for m in members):
            raise IllegalAction(f"you need the whole {t.group_keys[group]} group to build on {name}")
        if any(game.mortgaged[m] for m in members):
            raise IllegalAction(f"a lot of the {t.group_keys[group]} group is mortgaged")
        if level >= t.hotel_level:
            raise IllegalAction(f"{name} already has a hotel")
        if game.rules.building.even and level > min(game.buildings[m] for m in members):
            raise IllegalAction(f"build evenly: another lot of the group has fewer buildings than {name}")
        cost = t.house_cost[group]
        if level == t.hph:
            if any(game.buildings[m] < t.hph for m in members):
                raise IllegalAction(f"a hotel needs {t.hph} houses on every lot of the group first")
            if game.hotels_left <= 0:
                raise IllegalAction("the bank has no hotels left")
        elif game.houses_left <= 0:
            raise IllegalAction("the bank has no houses left")
        if game.cash[seat] < cost:
            raise IllegalAction(f"a building on {name} costs {cost}; you have {game.cash[seat]}")
    elif kind is SellBuilding:
        if level == 0:
            raise IllegalAction(f"{name} has no buildings")
        if game.rules.building.even and level < max(game.buildings[m] for m in members):
            raise IllegalAction(f"sell evenly: another lot of the group has more buildings than {name}")
        if level == t.hotel_level and game.rules.building.hotel_breakdown == "debts_only" and not raising:
            raise IllegalAction("hotels may be broken down into houses only to raise money for a debt")
    elif kind is Mortgage:
        if game.mortgaged[space]:
            raise IllegalAction(f"{name} is already mortgaged")
        if group >= 0 and any(game.buildings[m] for m in members):
            raise IllegalAction(f"sell the buildings of the {t.group_keys[group]} group before mortgaging {name}")
    else:  # Unmortgage
        if not game.mortgaged[space]:
            raise IllegalAction(f"{name} is not mortgaged")
        cost = game.unmortgage_cost(space)
        if game.cash[seat] < cost:
            raise IllegalAction(f"lifting the mortgage on {name} costs {cost}; you have {game.cash[seat]}")


def _verify_trade(game: Game, seat: int, trade: Trade) -> None:
    if trade.proposer != seat:
        raise IllegalAction("a trade is proposed by the seat whose action it is")
    partner = trade.partner
    if type(partner) is not int or not 0 <= partner < game.players or game.bankrupt[partner] or partner == seat:
        raise IllegalAction(f"seat {partner!r} cannot trade with you")
    if type(trade.give_cash) is not int or type(trade.get_cash) is not int:
        raise IllegalAction("cash in a trade is a whole number")
    if trade.give_cash < 0 or trade.get_cash < 0:
        raise IllegalAction("cash in a trade cannot be negative")
    for field in (trade.give_spaces, trade.get_spaces, trade.give_cards, trade.get_cards):
        if not isinstance(field, (tuple, list)):
            raise IllegalAction("lots and cards in a trade are given as lists")
    if trade.give_cash > game.cash[seat]:
        raise IllegalAction(f"you offer {trade.give_cash} but have {game.cash[seat]} (no loans between players)")
    if trade.get_cash > game.cash[partner]:
        raise IllegalAction(f"seat {partner} has only {game.cash[partner]} (no loans between players)")
    if not (trade.give_spaces or trade.get_spaces or trade.give_cards or trade.get_cards):
        raise IllegalAction("a trade must move at least one lot or card")
    t = game.tables
    for spaces, holder in ((trade.give_spaces, seat), (trade.get_spaces, partner)):
        if len(set(spaces)) != len(spaces):
            raise IllegalAction("a lot is named twice in the trade")
        for space in spaces:
            if type(space) is not int or not 0 <= space < t.size:
                raise IllegalAction(f"there is no space {space!r}")
            if game.owner[space] != holder:
                raise IllegalAction(f"seat {holder} does not own {t.names[space]}")
            group = t.group_of[space]
            if any(game.buildings[m] for m in t.members[group]):
                raise IllegalAction(f"{t.names[space]} is in a group with buildings: sell them first")
    for cards, holder in ((trade.give_cards, seat), (trade.get_cards, partner)):
        held = list(game.held_cards[holder])
        for card in cards:
            pair = tuple(card) if isinstance(card, (tuple, list)) else None
            if pair is None or pair not in held:
                raise IllegalAction(f"seat {holder} does not hold the card {card!r}")
            held.remove(pair)


def can(game: Game, seat: int, action: Action, *, raising: bool = False) -> bool:
    try:
        verify(game, seat, action, raising=raising)
    except IllegalAction:
        return False
    return True


def legal_actions(game: Game, seat: int, *, raising: bool = False) -> list[Action]:
    """Every build, sell, mortgage and unmortgage ``seat`` may do now, in board order.

    Candidates are picked cheaply from the state (a build needs the whole group, a
    sale a building, ...) and each is then confirmed by :func:`verify`, the one
    place where the rules of actions live.
    """
    if game.finished or game.bankrupt[seat]:
        return []
    t = game.tables
    owner, buildings, mortgaged = game.owner, game.buildings, game.mortgaged
    found: list[Action] = []
    for space in t.ownable:
        if owner[space] != seat:
            continue
        members = t.members[t.group_of[space]]
        candidates: list[Action] = []
        if mortgaged[space]:
            candidates.append(Unmortgage(space))
        else:
            if t.buildable[t.group_of[space]] and buildings[space] < t.hotel_level and \
                    all(owner[m] == seat for m in members):
                candidates.append(Build(space))
            if buildings[space]:
                candidates.append(SellBuilding(space))
            elif not any(buildings[m] for m in members):
                candidates.append(Mortgage(space))
        found.extend(action for action in candidates if can(game, seat, action, raising=raising))
    return found
