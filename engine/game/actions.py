"""Every action a player can take between rolls, checked in one place.

Each action has three faces (after PokerKit): ``verify(game, seat, action)``
raises :class:`IllegalAction` with a reason a person can read; ``can(...)``
answers yes or no; ``apply(...)`` verifies, then does it. An action that fails
verification never changes the state. :func:`legal_actions` lists what a seat
may do now (trades excepted: they are open-ended offers).

An action comes from an agent, so nothing about it is trusted: its class and
the type of every field are checked (``type(x) is int``, never ``==`` or
``hash`` on a value of unknown type) before any rule is looked at, and
:func:`safe_repr` shows it in a reason without ever raising.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, Union, cast

import attrs

from .._mypyc import mypyc_attr
from .core import safe_repr
from .stock import on_board, stock_change

if TYPE_CHECKING:
    from .core import Core


@mypyc_attr(native_class=False)
class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` says why."""


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class Build:
    """Buy one house (or the hotel, when the lot has all its houses) for a street."""

    space: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class SellBuilding:
    """Sell one house, or break a hotel back down to houses, at the sell-back price.

    When the bank has too few houses to break a hotel down, the group comes down
    only as far as the bank's houses allow, evenly (see :func:`sale_of`).
    """

    space: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class Mortgage:
    space: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class Unmortgage:
    space: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class SellLot:
    """Sell a lot back to the bank, for the rules' share of its printed price (``rules.sell_lots``, a house rule):
    an unmortgaged lot of a group without buildings."""

    space: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class UseCard:
    """Use a kept card whose ``use`` says ``when: turn`` (``card``: its index in the list of deck ``deck``): it goes
    back under its deck and its use's effect is done. Cards used in jail are a ``jail`` answer instead."""

    deck: str
    card: int


@mypyc_attr(native_class=False)  # made by agents, with anything in its fields: checked by verify
@attrs.frozen
class Trade:
    """An offer from ``proposer`` to ``partner``: lots, cash and held cards each way.

    Cards are ``(deck, card_index)`` pairs of kept cards held.
    """

    proposer: int
    partner: int
    give_spaces: tuple[int, ...] = ()
    give_cash: int = 0
    give_cards: tuple[tuple[str, int], ...] = ()
    get_spaces: tuple[int, ...] = ()
    get_cash: int = 0
    get_cards: tuple[tuple[str, int], ...] = ()


Action = Union[Build, SellBuilding, Mortgage, Unmortgage, SellLot, Trade, UseCard]

# The action classes as constants of the compiled build, for the checks of every action (a class that stays Python
# is otherwise a module global looked up by name at each use there; in the pure package the two are one).
BUILD: Final = Build
SELL_BUILDING: Final = SellBuilding
MORTGAGE: Final = Mortgage
UNMORTGAGE: Final = Unmortgage
SELL_LOT: Final = SellLot
TRADE: Final = Trade
USE_CARD: Final = UseCard


#: Entries of a list (owners, buildings, mortgage flags) at some indexes, as a tuple.
Getter = Callable[[Sequence[Any]], tuple[Any, ...]]


def tuple_getter(indexes: Sequence[int]) -> Getter:
    """``itemgetter(*indexes)``, but giving a tuple whatever the number of indexes.

    >>> tuple_getter([2])("abc"), tuple_getter([0, 2])("abc"), tuple_getter([])("abc")
    (('c',), ('a', 'c'), ())
    """
    if len(indexes) > 1:
        return itemgetter(*indexes)
    if not indexes:
        return _nothing
    index = indexes[0]

    def one(row: Sequence[Any]) -> tuple[Any, ...]:
        return (row[index],)
    return one


def _nothing(row: Sequence[Any]) -> tuple[Any, ...]:
    return ()


PerTables = tuple[tuple["Getter", ...], tuple[tuple["Build", "SellBuilding", "Mortgage", "Unmortgage", "SellLot"], ...]]


def _per_tables(t: Any) -> PerTables:
    """For the game tables ``t``: by group index a getter of the entries of its lots, and by space the five
    actions on it (made once per tables, kept on them: actions are immutable)."""
    hit: PerTables | None = t.actions_cache
    if hit is None:
        getters = tuple(tuple_getter(members) for members in t.members)
        actions = tuple((Build(s), SellBuilding(s), Mortgage(s), Unmortgage(s), SellLot(s)) for s in range(t.size))
        hit = t.actions_cache = (getters, actions)
    return hit


def space_actions(t: Any) -> tuple[tuple[Build, SellBuilding, Mortgage, Unmortgage, SellLot], ...]:
    """For the game tables ``t``, by space: its build, sale of a building, mortgage, unmortgage and sale to the
    bank, made once per tables (actions are immutable)."""
    return _per_tables(t)[1]


def group_getters(t: Any) -> tuple[Getter, ...]:
    """For the game tables ``t``, by group: ``group_getters(t)[g](game.buildings)`` is the tuple of the
    buildings on the lots of group ``g``, in the order of ``t.members[g]`` (made once per tables)."""
    return _per_tables(t)[0]


def verify(game: Core, seat: Any, action: Any, *, raising: bool = False) -> None:  # Any: what an agent gave
    """Raise :class:`IllegalAction` unless ``seat`` may take ``action`` now.

    ``raising`` is true while the seat raises money for a debt (some rules,
    such as the tournament rule on breaking hotels, depend on it).
    """
    if game.finished:
        raise IllegalAction("the game is over")
    if type(seat) is not int or not 0 <= seat < game.players or game.bankrupt[seat]:
        raise IllegalAction(f"seat {safe_repr(seat)} is not in the game")
    kind = type(action)
    if kind is TRADE:
        _verify_trade(game, seat, action)
        return
    if kind is USE_CARD:
        _verify_use(game, seat, action, raising)
        return
    if kind is not BUILD and kind is not SELL_BUILDING and kind is not MORTGAGE and kind is not UNMORTGAGE and \
            kind is not SELL_LOT:
        raise IllegalAction(f"unknown action {safe_repr(action)}: an action is a Build, SellBuilding, "
                            f"Mortgage, Unmortgage, SellLot, Trade or UseCard")
    try:
        space = action.space
    except AttributeError:  # made without its constructor
        raise IllegalAction(f"{kind.__name__} without a space") from None
    t = game.tables
    if type(space) is not int or not 0 <= space < t.size:
        raise IllegalAction(f"there is no space {safe_repr(space)}: a space is an int from 0 to {t.size - 1}")
    if game.owner[space] != seat:
        raise IllegalAction(f"{t.names[space]} is not yours")
    if kind is BUILD:
        _verify_build(game, seat, space)
    elif kind is SELL_BUILDING:
        _verify_sale(game, seat, space, raising)
    elif kind is MORTGAGE:
        _verify_mortgage(game, seat, space)
    elif kind is SELL_LOT:
        _verify_lot_sale(game, space)
    else:  # Unmortgage
        if not game.mortgaged[space]:
            raise IllegalAction(f"{t.names[space]} is not mortgaged")
        cost = unmortgage_cost(game, space)
        if game.cash[seat] < cost:
            raise IllegalAction(f"lifting the mortgage on {t.names[space]} costs {cost}; you have {game.cash[seat]}")


# The checks of one kind of action on a lot of the seat's own, each looking at the lots of the group in one plain
# loop (typed, it runs compiled; as fast as the getters and builtins it replaces in the pure package).

def _verify_build(game: Core, seat: int, space: int) -> None:
    t = game.tables
    group = t.group_of[space]
    if t.permit_build is not None:
        _refuse_unpermitted(game, "build", seat, "build")
    if not t.buildable[group]:
        raise IllegalAction(f"nothing can be built on {t.names[space]}")
    owner, buildings, mortgaged = game.owner, game.buildings, game.mortgaged
    level = low = buildings[space]
    whole, pledged = True, False
    for m in t.members[group]:
        if owner[m] != seat:
            whole = False
        if mortgaged[m]:
            pledged = True
        if buildings[m] < low:
            low = buildings[m]
    if not whole:
        raise IllegalAction(f"you need the whole {t.group_keys[group]} group to build on {t.names[space]}")
    if pledged:
        raise IllegalAction(f"a lot of the {t.group_keys[group]} group is mortgaged")
    if level >= t.hotel_level:
        raise IllegalAction(f"{t.names[space]} already has a hotel")
    if game.rules.building.even and level > low:
        raise IllegalAction(f"build evenly: another lot of the group has fewer buildings than {t.names[space]}")
    cost = t.house_cost[group]
    if level == t.hph:
        if low < t.hph:
            raise IllegalAction(f"a hotel needs {t.hph} houses on every lot of the group first")
        if game.hotels_left <= 0:
            raise IllegalAction("the bank has no hotels left")
    elif game.houses_left <= 0:
        raise IllegalAction("the bank has no houses left")
    if game.cash[seat] < cost:
        raise IllegalAction(f"a building on {t.names[space]} costs {cost}; you have {game.cash[seat]}")


def _verify_sale(game: Core, seat: int, space: int, raising: bool) -> None:
    t = game.tables
    buildings = game.buildings
    level = buildings[space]
    if level == 0:
        raise IllegalAction(f"{t.names[space]} has no buildings")
    building = game.rules.building
    if building.even:
        for m in t.members[t.group_of[space]]:
            if buildings[m] > level:
                raise IllegalAction(f"sell evenly: another lot of the group has more buildings than "
                                    f"{t.names[space]}")
    if level == t.hotel_level and building.hotel_breakdown == "debts_only" and not raising and \
            _breakdown_makes_shortage(game, seat, space):
        raise IllegalAction(f"breaking the hotel on {t.names[space]} down into houses would leave the bank "
                            "with fewer houses than the other players could build: hotels may not be broken "
                            "down to create a housing shortage, only to raise money for a debt")


def _verify_mortgage(game: Core, seat: int, space: int) -> None:
    t = game.tables
    if not game.rules.mortgage_allowed:
        raise IllegalAction("the rules allow no mortgages")
    if not t.mortgageable[space]:
        raise IllegalAction(f"{t.names[space]} cannot be mortgaged: its kind is not mortgaged")
    if t.permit_mortgage is not None:
        _refuse_unpermitted(game, "mortgage", seat, "mortgage a lot")
    if game.mortgaged[space]:
        raise IllegalAction(f"{t.names[space]} is already mortgaged")
    group = t.group_of[space]
    if group >= 0 and _any_built(game.buildings, t.members[group]):
        raise IllegalAction(f"sell the buildings of the {t.group_keys[group]} group before mortgaging "
                            f"{t.names[space]}")


def _verify_lot_sale(game: Core, space: int) -> None:
    t = game.tables
    if not game.rules.sell_lots_to_bank:
        raise IllegalAction("the rules do not let lots be sold back to the bank")
    if game.mortgaged[space]:
        raise IllegalAction(f"{t.names[space]} is mortgaged: lift the mortgage before selling it to the bank")
    group = t.group_of[space]
    if group >= 0 and _any_built(game.buildings, t.members[group]):
        raise IllegalAction(f"sell the buildings of the {t.group_keys[group]} group before selling "
                            f"{t.names[space]} to the bank")


def permitted(game: Core, key: str, seat: int) -> bool:
    """Whether the ruleset's permission ``key`` (``permissions.buy``, ``rent``, ``build``, ``mortgage``, ``trade``)
    holds for ``seat`` now: true where the ruleset sets none."""
    test = getattr(game.tables, f"permit_{key}")
    return test is None or bool(test(game, seat))


def _refuse_unpermitted(game: Core, key: str, seat: int, doing: str) -> None:
    if not permitted(game, key, seat):
        text = next(p.text for p in game.ruleset.permissions if p.key == key)
        raise IllegalAction(f"the rules let a player {doing} only when {text} (permissions.{key})")


def _verify_use(game: Core, seat: int, action: Any, raising: bool) -> None:  # Any: an agent may put anything in it
    try:
        deck, index = action.deck, action.card
    except AttributeError:  # made without its constructor
        raise IllegalAction("UseCard without a deck and a card") from None
    if type(deck) is not str or type(index) is not int:
        raise IllegalAction(f"UseCard({safe_repr(deck)}, {safe_repr(index)}): a card is a deck's key (str) and "
                            "its index in the deck (int)")
    if (deck, index) not in game.held_cards[seat]:
        raise IllegalAction(f"you hold no card {index} of deck {safe_repr(deck)}")
    use = game.tables.card_use.get((deck, index))
    if use is None or use[0] != "turn":
        raise IllegalAction("this card is used in jail, as a way out, not as an action of the turn")
    if raising:
        raise IllegalAction("a card is used as an action of the turn, not to raise money for a debt")


def sale_of(game: Core, space: int) -> tuple[tuple[int, int], ...]:
    """What selling one building of ``space`` does: ``(lot, level after)`` for each lot of its group whose
    buildings change (the sale itself is checked elsewhere).

    A house is sold on its own; a hotel is broken down into houses (one hotel is worth its houses and one
    more), taking them from the bank. The printed rules sell "evenly, in reverse of how they were erected",
    so when the bank has fewer houses than a hotel needs, the group comes down only as far as the bank's
    houses allow: every hotel of the group goes back (no hotel can stay beside a lot below its full row of
    houses), and the group keeps as many houses, evenly, as it had plus the bank's: the lot sold from keeps
    the fewer, the extra ones stay on the other lots, the last on the board first. Two hotels and 3 houses
    in the bank become 2 houses and 1; a hotel beside 4 houses, 3 and 4; with no houses in the bank, nothing.
    Without the even rule only the lot sold from comes down, to the bank's houses.

    >>> import monopoly
    >>> game = monopoly.Game(monopoly.load_ruleset("classic"), [None, None])
    >>> for lot in (37, 39):
    ...     game.owner[lot], game.buildings[lot] = 0, 5
    >>> sale_of(game, 39)
    ((39, 4),)
    >>> game.houses_left = 3
    >>> sale_of(game, 39)
    ((37, 2), (39, 1))
    """
    t = game.tables
    level = game.buildings[space]
    if level < t.hotel_level or game.houses_left >= t.hph:
        return ((space, level - 1),)
    return shortage_sale(t, game.buildings, game.houses_left, space, game.rules.building.even)


def shortage_sale(t: Any, buildings: list[int], houses_left: int, space: int, even: bool) -> tuple[tuple[int, int],
                                                                                                    ...]:
    """:func:`sale_of` for a hotel on ``space`` when the bank has fewer than ``t.hph`` houses (``houses_left``)."""
    if not even:
        return ((space, houses_left),)
    members = t.members[t.group_of[space]]
    houses = on_board([buildings[m] for m in members], hotel_level=t.hotel_level)[0]
    # No hotel can stay (the lot sold from would need a full row of houses beside it), so the total is below a
    # full row on every lot, and every lot had at least a full row before: each comes down or stays.
    keep, extra = divmod(houses_left + houses, len(members))
    fuller = [m for m in reversed(members) if m != space][:extra]
    return tuple((m, keep + (m in fuller)) for m in members if keep + (m in fuller) != buildings[m])


def houses_taken(t: Any, buildings: list[int], changes: tuple[tuple[int, int], ...]) -> int:
    """Houses the bank gives out for ``changes`` (negative: houses it gets back)."""
    return -sum(stock_change(buildings[s], new, hotel_level=t.hotel_level)[0] for s, new in changes)


def _breakdown_makes_shortage(game: Core, seat: int, space: int) -> bool:
    """Breaking the hotel on ``space`` down would leave the bank with fewer houses than the other players could
    then want to build (:func:`demand`, whatever the bank has): the tactic the 1983 ruling forbade, hotels
    broken down so that rivals cannot buy houses."""
    taken = houses_taken(game.tables, game.buildings, sale_of(game, space))
    if taken <= 0:
        return False
    left = game.houses_left - taken
    wanted = 0
    for other in range(game.players):
        if other != seat and not game.bankrupt[other]:
            wanted += demand(game, other, False, stock=False)[0]
            if wanted > left:
                return True
    return False


def group_room(buildings: list[int], members: tuple[int, ...], hph: int, hotel: bool) -> int:
    """What a group's lots could still take: houses up to a full row on each, or hotels on the full rows."""
    free = 0
    for s in members:
        level = buildings[s]
        if hotel:
            free += level == hph
        elif level < hph:
            free += hph - level
    return free


def demand(game: Core, seat: int, hotel: bool, *, stock: bool = True) -> tuple[int, int]:
    """(how many houses, or hotels, ``seat`` could build now one after another, its cash allowing at their
    printed costs, whatever the bank has left; the lowest of those costs, 0 when it could build none): what a
    housing shortage weighs (the shortage auction, the tournament rule).

    A house: every group with a lot it may build a house on now counts every house its lots still lack; a
    hotel: every lot it may put a hotel on now. The cheapest count first as far as the cash goes. With
    ``stock`` False, a house counts on a group where only the bank's empty stock stops it (the seat owns the
    group whole, nothing of it is mortgaged, the rules let it build)."""
    t = game.tables
    owner, buildings, mortgaged, hph = game.owner, game.buildings, game.mortgaged, t.hph
    builds = space_actions(t)  # by space: its actions, the build first
    free: dict[int, int] = {}  # by group: the buildings it could take
    for group, members in t.buildable_groups:
        if owner[members[0]] != seat:
            continue
        if hotel:
            count = sum(1 for s in members if buildings[s] == hph and can(game, seat, builds[s][0]))
        elif not stock:
            whole = all(owner[s] == seat and not mortgaged[s] for s in members) and \
                (t.permit_build is None or permitted(game, "build", seat))
            count = group_room(buildings, members, hph, hotel) if whole else 0
        elif any(buildings[s] < hph and can(game, seat, builds[s][0]) for s in members):
            count = group_room(buildings, members, hph, hotel)
        else:
            count = 0
        if count:
            free[group] = count
    cash, wanted, cheapest = game.cash[seat], 0, 0
    for group in sorted(free, key=lambda g: t.house_cost[g]):
        cost = t.house_cost[group]
        if cheapest == 0:
            cheapest = cost
        if cost <= 0:
            wanted += free[group]
            continue
        take = min(free[group], cash // cost)
        wanted += take
        cash -= take * cost
    return wanted, cheapest


#: The fields of a :class:`Trade`, in order.
TRADE_FIELDS = ("proposer", "partner", "give_spaces", "give_cash", "give_cards", "get_spaces", "get_cash",
                "get_cards")


def _verify_trade(game: Core, seat: int, trade: Any) -> None:  # Any: an agent may put anything in it
    # Types first: every field is read once and checked with `type(x) is ...` before it is compared,
    # hashed or looked up, so no value of an agent's can raise out of here.
    try:
        fields: tuple[Any, ...] = (trade.proposer, trade.partner, trade.give_spaces, trade.give_cash,
                                   trade.give_cards, trade.get_spaces, trade.get_cash, trade.get_cards)  # TRADE_FIELDS
    except AttributeError:  # made without its constructor
        raise IllegalAction("a trade without all its fields") from None
    proposer, partner, give_spaces, give_cash, give_cards, get_spaces, get_cash, get_cards = fields
    if type(proposer) is not int or proposer != seat:
        raise IllegalAction("a trade is proposed by the seat whose action it is")
    if game.tables.permit_trade is not None:
        _refuse_unpermitted(game, "trade", seat, "propose a trade")
    if type(partner) is not int or not 0 <= partner < game.players or game.bankrupt[partner] or partner == seat:
        raise IllegalAction(f"seat {safe_repr(partner)} cannot trade with you")
    if type(give_cash) is not int or type(get_cash) is not int:
        raise IllegalAction("cash in a trade is a whole number (an int)")
    if give_cash < 0 or get_cash < 0:
        raise IllegalAction("cash in a trade cannot be negative")
    for field in (give_spaces, get_spaces, give_cards, get_cards):
        if type(field) is not tuple and type(field) is not list:
            raise IllegalAction("lots and cards in a trade are given as lists")
    t = game.tables
    for spaces in (give_spaces, get_spaces):
        for space in spaces:
            if type(space) is not int or not 0 <= space < t.size:
                raise IllegalAction(f"there is no space {safe_repr(space)}: a space is an int from 0 to "
                                    f"{t.size - 1}")
    for cards in (give_cards, get_cards):
        for card in cards:
            if (type(card) is not tuple and type(card) is not list) or len(card) != 2 or \
                    type(card[0]) is not str or type(card[1]) is not int:
                raise IllegalAction(f"{safe_repr(card)} is not a card: a card is a (deck, card index) pair")
    # Legality.
    if give_cash > game.cash[seat]:
        raise IllegalAction(f"you offer {safe_repr(give_cash)} but have {game.cash[seat]} "
                            f"(no loans between players)")
    if get_cash > game.cash[partner]:
        raise IllegalAction(f"seat {partner} has only {game.cash[partner]} (no loans between players)")
    if not (give_spaces or get_spaces or give_cards or get_cards):
        raise IllegalAction("a trade must move at least one lot or card")
    for spaces, holder in ((give_spaces, seat), (get_spaces, partner)):
        if len(set(spaces)) != len(spaces):
            raise IllegalAction("a lot is named twice in the trade")
        for space in spaces:
            if game.owner[space] != holder:
                raise IllegalAction(f"seat {holder} does not own {t.names[space]}")
            if in_built_group(game, space):
                raise IllegalAction(f"{t.names[space]} is in a group with buildings: sell them first")
    for cards, holder in ((give_cards, seat), (get_cards, partner)):
        if not cards:
            continue
        held = list(game.held_cards[holder])
        for card in cards:
            pair = (card[0], card[1])
            if pair not in held:
                raise IllegalAction(f"seat {holder} does not hold the card {safe_repr(card)}")
            held.remove(pair)


def in_built_group(game: Core, space: int) -> bool:
    """``space`` is in a group with buildings: it cannot change hands in a trade (the one home of that rule,
    for the check of a trade and the space of legal trades)."""
    return any(_per_tables(game.tables)[0][game.tables.group_of[space]](game.buildings))


def clean_trade(trade: Any) -> Trade:  # Any: its fields may hold lists
    """A verified trade with plain tuples in every field (an offer may give lists); the same one if it has."""
    cards = (*trade.give_cards, *trade.get_cards)
    if all(type(f) is tuple for f in (trade.give_spaces, trade.give_cards, trade.get_spaces, trade.get_cards)) \
            and all(type(c) is tuple for c in cards):
        return cast(Trade, trade)
    return Trade(trade.proposer, trade.partner,
                 give_spaces=tuple(trade.give_spaces), give_cash=trade.give_cash,
                 give_cards=tuple((c[0], c[1]) for c in trade.give_cards),
                 get_spaces=tuple(trade.get_spaces), get_cash=trade.get_cash,
                 get_cards=tuple((c[0], c[1]) for c in trade.get_cards))


def can(game: Core, seat: int, action: Action, *, raising: bool = False) -> bool:
    try:
        verify(game, seat, action, raising=raising)
    except IllegalAction:
        return False
    return True


def legal_actions(game: Core, seat: int, *, raising: bool = False) -> list[Action]:
    """Every build, sell, mortgage, unmortgage and sale to the bank ``seat`` may do now, in board order, then the
    uses of the cards it holds that are used on a turn (in the order it holds them).

    Exactly the actions :func:`verify` accepts (each lot: its unmortgage when it is mortgaged, else its build,
    then its building's sale, or its mortgage and its sale to the bank), derived from the state in one pass
    rather than each candidate put through :func:`verify`; the tests hold the two to the same answers.
    """
    if game.finished or game.bankrupt[seat]:
        return []
    if type(seat) is not int or not 0 <= seat < game.players:
        return []  # verify refuses every action of a seat that is not in the game
    t = game.tables
    owner, buildings, mortgaged = game.owner, game.buildings, game.mortgaged
    lots_of, actions = _per_tables(t)
    group_of, buildable = t.group_of, t.buildable
    hotel, hph = t.hotel_level, t.hph
    building = game.rules.building
    even = building.even
    breakdown_limited = building.hotel_breakdown == "debts_only" and not raising
    cash = game.cash[seat]
    may_build = t.permit_build is None or permitted(game, "build", seat)
    mortgageable = t.mortgageable
    may_mortgage = game.rules.mortgage_allowed and (t.permit_mortgage is None or permitted(game, "mortgage", seat))
    found: list[Action] = []
    for space in t.ownable:
        if owner[space] != seat:
            continue
        if mortgaged[space]:
            if cash >= unmortgage_cost(game, space):
                found.append(actions[space][3])
            continue
        group = group_of[space]
        lots = lots_of[group]
        level = buildings[space]
        levels = lots(buildings)
        if buildable[group] and level < hotel and may_build:
            owners = lots(owner)
            if owners.count(seat) == len(owners) and not any(lots(mortgaged)) and \
                    not (even and level > min(levels)) and cash >= t.house_cost[group] and \
                    ((min(levels) >= hph and game.hotels_left > 0) if level == hph else game.houses_left > 0):
                found.append(actions[space][0])
        if level:
            if not (even and level < max(levels)) and \
                    not (level == hotel and breakdown_limited and _breakdown_makes_shortage(game, seat, space)):
                found.append(actions[space][1])
        elif not any(levels):
            if may_mortgage and mortgageable[space]:
                found.append(actions[space][2])
            if game.rules.sell_lots_to_bank:
                found.append(actions[space][4])
    if game.held_cards[seat] and not raising:
        for card in held_for(game, seat, "turn"):
            action = UseCard(*card)
            if action not in found:  # two copies of one card are one action
                found.append(action)
    return found


def held_for(game: Core, seat: int, when: str) -> list[tuple[str, int]]:
    """The cards ``seat`` holds that are used ``when`` (``in_jail`` or ``turn``: the card's ``use``), in the order
    it holds them: the one home of which held card serves where, for the jail's options, the legal actions and
    the bots."""
    uses = game.tables.card_use
    return [card for card in game.held_cards[seat] if (use := uses.get(card)) is not None and use[0] == when]



class _Mortgaging:
    """A lot that may be mortgaged, as :func:`cheapest_step` looks at it: its group's lots (none off the groups),
    its key (the interest lost, less the money raised, the lot) and its mortgage. (A class, not a tuple: the
    compiled build reads a typed tuple out of a list as a new C value, and puts a new tuple back.)"""

    __slots__ = ("action", "key", "lot", "lots")

    def __init__(self, lot: int, lots: tuple[int, ...], key: tuple[int, int, int], action: Mortgage):
        self.lot = lot
        self.lots = lots
        self.key = key
        self.action = action


class _Selling:
    """A group whose buildings sell for something, as :func:`cheapest_step` looks at it: its lots, what the bank
    pays for a building, the part of its cost lost."""

    __slots__ = ("lost", "lots", "value")

    def __init__(self, lots: tuple[int, ...], value: int, lost: int):
        self.lots = lots
        self.value = value
        self.lost = lost


#: Per game tables and rules (by identity): the tables, the rules, the lots that may be mortgaged in the order
#: :func:`cheapest_step` tries them (the least loss first), a bound below the loss of every building sale, and
#: the groups whose buildings sell for something.
_StepOrder = tuple[Any, Any, list[_Mortgaging], float, list[_Selling]]
_STEP_ORDER: dict[int, _StepOrder] = {}


class _SeatSteps:
    """The lots and groups :func:`step_finder` found a seat's (a debt is often raised again before a lot changes
    hands): the game's list of owners (its name, as the bots' caches keep it) and ownership version, the seat, the
    list of lots they were found in."""

    __slots__ = ("entries", "mine", "owner", "seat", "sold", "version")

    def __init__(self, owner: list[int] | None, version: int, seat: int, entries: list[_Mortgaging] | None,
                 mine: list[_Mortgaging], sold: list[_Selling]) -> None:
        self.owner = owner
        self.version = version
        self.seat = seat
        self.entries = entries
        self.mine = mine
        self.sold = sold


class _LastSteps:
    """The last seat's steps found (one slot, replaced whole: a game played in another thread meanwhile replaces
    the slot and never changes the steps a caller holds)."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at = _SeatSteps(None, -1, -1, None, [], [])


_LAST_STEPS: Final = _LastSteps()


def _step_order(game: Core) -> _StepOrder:
    t, rules = game.tables, game.rules
    hit = _STEP_ORDER.get(id(t))
    if hit is not None and hit[0] is t and hit[1] is rules:
        return hit
    actions = space_actions(t)
    keyed = sorted(((unmortgage_cost(game, s) - t.mortgage[s], -t.mortgage[s], s), s)
                   for s in t.ownable if t.mortgage[s] > 0)
    entries = [_Mortgaging(s, tuple(t.members[t.group_of[s]]) if t.group_of[s] >= 0 else (), key, actions[s][2])
               for key, s in keyed if t.mortgageable[s]] if rules.mortgage_allowed else []
    losses = [t.house_cost[g] - sell_value(game, g) for g in range(len(t.members)) if t.buildable[g]]
    # a sale's loss is its buildings times the loss of one: none below the least loss of one, unless one is negative
    bound = float("-inf") if any(loss < 0 for loss in losses) else min(losses, default=float("inf"))
    sales = [_Selling(tuple(members), sell_value(game, g), t.house_cost[g] - sell_value(game, g))
             for g, members in enumerate(t.members) if t.buildable[g] and sell_value(game, g) > 0]
    if len(_STEP_ORDER) > 64:
        _STEP_ORDER.clear()
    hit = _STEP_ORDER[id(t)] = (t, rules, entries, bound, sales)
    return hit


def cheapest_step(game: Core, seat: int) -> SellBuilding | Mortgage | None:
    """The sale or mortgage that raises money for ``seat`` at the least loss, or None when there is none:
    the step the engine takes for a player who leaves a debt to it (``money.liquidate``), in the same order
    (the tests hold the two to the same answers), found faster.

    A mortgage gives up the interest that lifting it will cost, a building sold the part of its price the
    bank does not pay back (a hotel in a housing shortage: for every building that goes with it); ties go to
    the step that raises more, then to the lot first on the board. Sales keep their group even.
    """
    return step_finder(game, seat)()


def step_finder(game: Core, seat: int) -> Callable[[], SellBuilding | Mortgage | None]:
    """:func:`cheapest_step` for ``seat`` as a function of no arguments, for as long as the seat's lots stay its own
    (a debt being raised step after step: its sales and mortgages change no owner): which lots and groups are
    its own is found once, the buildings, mortgages and the bank's houses are read at each call."""
    t = game.tables
    owner, buildings, mortgaged = game.owner, game.buildings, game.mortgaged
    actions = space_actions(t)
    _, _, entries, bound, sales = _step_order(game)
    # its lots that may be mortgaged, least loss first, and the groups whose buildings it may sell (plain loops:
    # typed, they run compiled)
    last = _LAST_STEPS.at
    if last.owner is not owner or last.version != game.owner_version or last.seat != seat or \
            last.entries is not entries:
        last = _LAST_STEPS.at = _SeatSteps(owner, game.owner_version, seat, entries,
                                           [entry for entry in entries if owner[entry.lot] == seat],
                                           [sale for sale in sales if owner[sale.lots[0]] == seat])
    mine, sold = last.mine, last.sold
    hotel, even, hph = t.hotel_level, game.rules.building.even, t.hph

    def find() -> SellBuilding | Mortgage | None:
        best: SellBuilding | Mortgage | None = None
        best_key: tuple[int, int, int] | None = None
        for entry in mine:  # its lots, least loss first: the first one that may be mortgaged
            s = entry.lot
            if mortgaged[s] or buildings[s] or _any_built(buildings, entry.lots):
                continue
            if entry.key[0] < bound:
                return entry.action  # no building sale loses as little
            best, best_key = entry.action, entry.key
            break
        for sale in sold:
            members, value, lost = sale.lots, sale.value, sale.lost
            top = 0
            for m in members:
                if buildings[m] > top:
                    top = buildings[m]
            if not top:
                continue
            for s in members:
                level = buildings[s]
                if not level or (even and level < top):
                    continue
                if level == hotel and game.houses_left < hph:
                    count = sum(buildings[m] - new for m, new in shortage_sale(t, buildings, game.houses_left, s, even))
                else:
                    count = 1
                key = (count * lost, -count * value, s)
                if best_key is None or key < best_key:
                    best, best_key = actions[s][1], key
                if even:
                    break  # every lot at the top of an even group sells alike: the first one stands for all
        return best

    return find


# ---------------------------------------------------------------------- the bank's prices


def _any_built(buildings: list[int], lots: tuple[int, ...]) -> bool:
    for s in lots:  # noqa: SIM110 (a loop, not any() of a generator: as fast in the pure package)
        if buildings[s]:
            return True
    return False


def sell_value(game: Core, group: int) -> int:
    """What the bank pays back for one building of ``group`` (its cost times ``rules.building.sell_back``):
    the one home of that price, for sales, fund raising and bankruptcy."""
    return int(game.tables.house_cost[group] * game.rules.building.sell_back)


def lot_sale_value(game: Core, s: int) -> int:
    """What the bank pays for lot ``s`` sold back to it (``rules.sell_lots``: that share of its printed price)."""
    return int(game.tables.price[s] * game.rules.sell_lot_pays)


def unmortgage_cost(game: Core, s: int) -> int:
    value = game.tables.mortgage[s]
    return value + math.ceil(value * game.rules.mortgage_interest - 1e-9)
