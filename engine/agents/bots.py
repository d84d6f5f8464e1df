"""The built-in bots: random, greedy, cautious and trader."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from .._mypyc import mypyc_attr
from ..game.actions import (
    Build,
    Getter,
    Mortgage,
    SellBuilding,
    Trade,
    Unmortgage,
    UseCard,
    group_getters,
    held_for,
    tuple_getter,
)
from .base import Agent, AuctionItem

#: The getter of no lots (a tuple of nothing from any row).
_NO_LOTS = tuple_getter(())

if TYPE_CHECKING:
    from ..game.actions import Action
    from ..game.game import Game


def cheapest_option(game: Game, seat: int, options: tuple[str, ...]) -> int:
    """The alternative that costs the least cash now (the first one when the game cannot say).

    Where an alternative depends on the player's worth (income tax's 10%), the game does not add it up
    for the player, who must choose before adding up (the rulebook): the bot adds up its own worth.
    """
    costs = game.option_costs(seat) or game.option_costs(seat, worth=game.net_worth(seat))
    return costs.index(min(costs)) if len(costs) == len(options) else 0


def buying_option(game: Game, seat: int, options: tuple[str, ...]) -> int:
    """The alternative whose move lands on the dearest lot nobody owns that ``seat`` can pay for (the speed
    die's Bus, a triple's space of one's choice); else the cheapest alternative (:func:`cheapest_option`)."""
    landings = game.option_landings(seat)
    if len(landings) == len(options):
        t, owner, cash = game.tables, game.owner, game.cash[seat]
        best, best_price = -1, -1
        for index, space in enumerate(landings):
            if space is not None and owner[space] < 0 and t.price[space] and best_price < t.price[space] <= cash:
                best, best_price = index, t.price[space]
        if best >= 0:
            return best
    return cheapest_option(game, seat, options)


def turn_card(game: Game, seat: int) -> UseCard | None:
    """The use of the first card ``seat`` holds that is used on the turn (``use: {when: turn}``), or None."""
    cards = held_for(game, seat, "turn")
    return UseCard(*cards[0]) if cards else None


def full_groups(game: Game, seat: int) -> list[int]:
    """Groups with buildings allowed whose every lot ``seat`` owns."""
    owner = game.owner
    return [street.group for street in streets(game.tables) if street.owners(owner).count(seat) == street.size]




class Street:
    """A group with buildings allowed, as the bots look at it: ``owners(game.owner)`` (and likewise
    ``owners(game.mortgaged)``, ``owners(game.buildings)``) is the tuple of its lots' entries, lots in
    board order."""

    __slots__ = ("builds", "group", "house_cost", "members", "owners", "size", "worth")

    def __init__(self, group: int, members: tuple[int, ...], house_cost: int, worth: int):
        self.group = group
        self.members = members
        self.size = len(members)
        self.owners = tuple_getter(members)
        self.house_cost = house_cost
        self.worth = worth  # the printed prices of its lots, added up
        self.builds = tuple(Build(m) for m in members)  # actions are immutable: made once


#: Per game tables (by identity): the tables, their streets, those of two lots or more, and what traders read.
_STREETS: dict[int, tuple[Any, list[Street], list[Street], _TraderTables]] = {}


def _streets_of(t: Any) -> tuple[Any, list[Street], list[Street], _TraderTables]:
    hit = _STREETS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit
    found = [Street(g, tuple(sorted(members)), t.house_cost[g], sum(t.price[m] for m in members))
             for g, members in enumerate(t.members) if t.buildable[g] and members]
    trading = [street for street in found if street.size > 1]
    if len(_STREETS) > 64:
        _STREETS.clear()
    hit = _STREETS[id(t)] = (t, found, trading, _TraderTables(t, found, trading))
    return hit


class _TraderTables:
    """What every trader of a game's tables reads the same (made once per tables, beside their streets)."""

    __slots__ = ("plans", "sides", "street_lots", "streets", "watchings", "worth")

    def __init__(self, t: Any, found: list[Street], trading: list[Street]):
        self.streets = found
        self.street_lots = tuple([m for street in found for m in street.members])
        worth = [0] * len(t.members)  # by group: the printed prices of a tradeable street's lots, added up
        for street in trading:
            worth[street.group] = street.worth
        self.worth: tuple[int, ...] = tuple(worth)
        #: What TraderAgent._side found, by the trader's class, premium and margin and its seat (the side key),
        #: then by the street and its owners: shared by the traders of games played by the tables' own rules
        #: (another game's traders find the same).
        self.sides: dict[tuple[Any, ...], dict[tuple[Street, tuple[int, ...]], _Side]] = {}
        #: What TraderAgent._plans_for found (the plans, their offers and the least cash of those), by the side key,
        #: then by the trader's signature: shared likewise.
        self.plans: dict[tuple[Any, ...], dict[_Signature, _Plans]] = {}
        #: By the streets a trader has lots of (their places in ``streets``): those streets, and the getter of the
        #: owners of their lots in a row (TraderAgent._watch_streets).
        self.watchings: dict[tuple[int, ...], tuple[list[Street], Getter]] = {}


def _shared_by(found: dict[tuple[Any, ...], Any], key: tuple[Any, ...]) -> Any:
    """The traders' findings of side key ``key`` in ``found`` (made empty the first time; a few keys at most are
    in use, and all are let go when more than 64 are)."""
    mine = found.get(key)
    if mine is None:
        if len(found) > 64:
            found.clear()
        mine = found[key] = {}
    return mine


def _trader_tables(t: Any) -> _TraderTables:
    return _streets_of(t)[3]


def streets(t: Any) -> list[Street]:
    """The groups with buildings allowed (and lots) of the game tables ``t``, in group order (made once)."""
    return _streets_of(t)[1]


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Agent):
    """Uniformly random legal choices (from its own seeded generator)."""

    name: Any = "random"

    def buy(self, game: Game, seat: int, space: int) -> bool:
        return self.rng.random() < 0.5

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        if self.rng.random() < 0.5 or game.cash[seat] <= high_bid:
            return 0
        return self.rng.randint(high_bid + 1, game.cash[seat])

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        return self.rng.randrange(len(options))

    def act(self, game: Game, seat: int) -> Action | None:
        if self.rng.random() < 0.6:
            return None
        legal = game.legal_actions(seat)
        return self.rng.choice(legal) if legal else None

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Now and then (one chance in ten) one of its actions before another's turn, a card's use aside."""
        if self.rng.random() < 0.9:
            return None
        legal = [action for action in game.legal_actions(seat) if type(action) is not UseCard]
        return self.rng.choice(legal) if legal else None

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        return self.rng.random() < 0.5

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        legal = [a for a in game.legal_actions(seat, raising=True) if isinstance(a, (SellBuilding, Mortgage))]
        return self.rng.choice(legal) if legal else None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return self.rng.random() < 0.5


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyAgent(Agent):
    """Buys everything it can, bids up to the price, builds as soon as it can."""

    name: Any = "greedy"

    def setup(self, game: Game, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        self._version = -1
        self._groups: list[Street] = []
        self._cheapest_house = 0
        self._owned_version = -1
        self._owned: list[int] = []  # my lots at _owned_version, in board order
        self._owned_mortgaged: Getter = _NO_LOTS  # their mortgage flags
        self._lift: dict[int, int] = {}  # what lifting each mortgage costs, as the game says (once asked)
        self._turn_cards = game.tables.has_turn_cards  # the ruleset has cards used as an action of the turn

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        limit = game.tables.price[item[1]] if item[0] == "space" else _house_value(game, seat)
        bid = high_bid + 1
        return bid if bid <= min(limit, game.cash[seat]) else 0

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        return "card" if "card" in options else "pay" if "pay" in options else "roll"

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        return buying_option(game, seat, options)

    def act(self, game: Game, seat: int) -> Action | None:
        """A card it holds that is used on the turn, at once; then a building, evenly, on the groups it owns
        whole, while it has the cash; then the lifting of a mortgage it can pay for."""
        if self._turn_cards and game.held_cards[seat]:
            use = turn_card(game, seat)
            if use is not None:
                return use
        if game.owner_version != self._version:
            self._version = game.owner_version
            self._groups = _full_streets(game).get(seat, [])
            self._cheapest_house = min([street.house_cost for street in self._groups], default=0)
        if self._groups and game.cash[seat] >= self._cheapest_house:
            build = _greedy_build(game, game.cash[seat], self._groups)
            if build is not None:
                return build
        mortgaged = game.mortgaged
        if self._owned_version != game.owner_version:  # its lots found once a version, once any is mortgaged
            if not any(mortgaged):  # the common case, answered without a call (any: the quickest scan of flags)
                return None
            self._owned_version = game.owner_version
            owner = game.owner
            self._owned = [s for s in game.tables.ownable if owner[s] == seat]
            self._owned_mortgaged = tuple_getter(self._owned)
        if True not in self._owned_mortgaged(mortgaged):  # its own flags alone: fewer than every lot's
            return None
        cash = game.cash[seat]
        lift = self._lift
        for s in self._owned:  # the first mortgaged lot, in board order, it can lift
            if mortgaged[s]:
                cost = lift.get(s)
                if cost is None:
                    cost = lift[s] = game.unmortgage_cost(s)
                if cash >= cost:
                    return Unmortgage(s)
        return None

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Before another's turn: a building, as after its own (the rent it has collected since may pay for one
        before the next roll lands on its lots); no cards, no lifting of mortgages."""
        if game.owner_version != self._version:
            self._version = game.owner_version
            self._groups = _full_streets(game).get(seat, [])
            self._cheapest_house = min([street.house_cost for street in self._groups], default=0)
        if self._groups and game.cash[seat] >= self._cheapest_house:
            return _greedy_build(game, game.cash[seat], self._groups)
        return None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return game.cash[seat] >= 2 * game.unmortgage_cost(space)


def _greedy_build(game: Game, cash: int, groups: list[Street]) -> Action | None:
    """Greedy's next building, on its whole groups (``groups``) with ``cash`` in hand: the first of the least
    built lots of the first group it can pay for, when nothing of the group is mortgaged and the bank has the
    building; None when there is none."""
    t = game.tables
    hotel, hph = t.hotel_level, t.hph
    buildings, mortgaged = game.buildings, game.mortgaged
    for street in groups:
        if cash < street.house_cost:
            continue
        # the first of its least built lots, none mortgaged (a plain loop: typed, it runs compiled; as fast in Python)
        low, first = hotel, 0
        for i, m in enumerate(street.members):
            if mortgaged[m]:
                low = hotel
                break
            level = buildings[m]
            if level < low:
                low, first = level, i
        if low < hotel and (game.hotels_left if low == hph else game.houses_left) > 0:
            return street.builds[first]
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class CautiousAgent(Agent):
    """Keeps a cash reserve, builds on its best groups, mortgages last."""

    name: Any = "cautious"
    reserve = 300

    def buy(self, game: Game, seat: int, space: int) -> bool:
        return game.cash[seat] - game.tables.price[space] >= self.reserve

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        if item[0] != "space":
            return 0
        limit = min(game.tables.price[item[1]] * 4 // 5, game.cash[seat] - self.reserve)
        return high_bid + 1 if high_bid + 1 <= limit else 0

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        # Early on, get out and buy; once opponents have built, jail is a safe place to wait.
        danger = any(game.buildings[s] and game.owner[s] != seat for s in game.tables.ownable)
        if danger:
            return "roll"
        return "card" if "card" in options else "pay" if "pay" in options else "roll"

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        return cheapest_option(game, seat, options)

    def act(self, game: Game, seat: int) -> Action | None:
        build = self._best_build(game, seat)
        if build is not None:
            return build
        return _affordable_unmortgage(game, seat, reserve=self.reserve * 2)

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Before another's turn: its best building, keeping its reserve, as after its own turn."""
        return self._best_build(game, seat)

    def _best_build(self, game: Game, seat: int) -> Build | None:
        """The building that adds the most rent for its cost on its whole groups, keeping the reserve."""
        t = game.tables
        best = None
        for g in full_groups(game, seat):
            members = t.members[g]
            if any(game.mortgaged[m] for m in members):
                continue
            lot = min(members, key=lambda m: (game.buildings[m], m))
            level = game.buildings[lot]
            if level >= t.hotel_level or not _bank_has(game, lot):
                continue
            cost = t.house_cost[g]
            if game.cash[seat] - cost < self.reserve:
                continue
            # what one more building adds to the rent of the whole group's lot (the game's rent tables)
            by_level = t.rent_whole[lot]
            gain = by_level[level + 1] - by_level[level] if by_level is not None else 0
            score = gain / cost
            if best is None or score > best[0]:
                best = (score, lot)
        if best is not None:
            return Build(best[1])
        return None

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        t = game.tables
        groups = set(full_groups(game, seat))
        # First lots that complete nothing, then buildings, then the groups themselves.
        for s in t.ownable:
            if game.owner[s] == seat and not game.mortgaged[s] and t.group_of[s] not in groups \
                    and not any(game.buildings[m] for m in t.members[t.group_of[s]]):
                return Mortgage(s)
        for action in game.legal_actions(seat, raising=True):
            if isinstance(action, SellBuilding):
                return action
        for action in game.legal_actions(seat, raising=True):
            if isinstance(action, Mortgage):
                return action
        return None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return game.cash[seat] - game.unmortgage_cost(space) >= self.reserve * 2


#: A trade the trader may offer at one ownership version, priced only when it is offered: (partner,
#: lots given, lots asked for, a getter of the entries of every lot of the groups it touches, the
#: trader's and the partner's gain before cash with every lot unmortgaged, the cash the trader keeps
#: back, the opening cash offer or 0, the least cash the trader needs for the fair offer, whatever is
#: mortgaged: a bound that spares pricing it while the trader is short).
_Plan = tuple[int, tuple[int, ...], tuple[int, ...], Getter, int, int, int, int, int]
#: What one street split between the trader and one opponent brings to its plans (see :meth:`TraderAgent._side`):
#: (street, opponent, its lots, the trader's, the trader's group value, the opponent's, the cash the trader keeps
#: back, the printed prices of the opponent's lots, the trader's change in group value, the opponent's, what
#: lifting the opponent's lots would cost, the (sort key, plan) of buying them or None).
_Side = tuple[Street, int, tuple[int, ...], tuple[int, ...], int, int, int, int, int, int, int,
              "tuple[int, _Plan] | None"]
#: The streets a trader shares with one opponent, as its plans go by them: (group, its lots' owners) each.
_Signature = tuple[tuple[int, tuple[int, ...]], ...]
#: What :meth:`TraderAgent._plans_for` finds: the plans, best first; every offer of them as (plan, rung, least cash);
#: the least of those.
_Plans = tuple[list[_Plan], list[tuple[int, int, int]], int]
#: No bound on the cash needed: an offer that may ask for cash instead.
_ANY_CASH: Final = -(1 << 62)
#: The least cash when no offer is left: more than any seat has.
_NO_OFFER: Final = 1 << 62


@mypyc_attr(allow_interpreted_subclasses=True)
class TraderAgent(GreedyAgent):
    """Buys and builds like greedy; trades to complete its colour groups, and accepts trades that pay it.

    Its model of a trade, the same for itself and for a partner: the printed prices of the lots that
    change hands (less what lifting a mortgage costs), the cash and cards, and each seat's change in
    group value: a whole buildable group is worth its printed prices once more, k of its n lots
    1/4 of that times (k/n)^2; the other seat's change counts half against one's own. A trade is
    made or accepted when it gains at least ``margin``.

    The trades it offers are found from the state once per ownership version (``game.owner_version``,
    which changes whenever a lot changes hands): for each buildable group of which it owns part and
    one opponent all the rest, buying that opponent's lots for cash, or swapping them for the lots of
    a group the opponent would then complete. Each is priced when offered, for the partner's gain to
    reach the margin (a purchase is first offered at ``premium`` times the printed prices, when that
    is less); none is offered twice at the same version, refused or not.

    A debt it leaves to the engine, which raises it at the least loss (:meth:`raise_funds`).
    """

    name: Any = "trader"
    premium = 1.5
    margin = 25

    def setup(self, game: Game, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        t = game.tables
        shared = _trader_tables(t)
        self._streets = shared.streets
        self._lots_of = group_getters(t)
        self._ownable = t.ownable
        self._street_lots = shared.street_lots
        self._watch: Getter = _NO_LOTS  # the owners of the lots of the streets the seat has part of, in a row
        self._watchings = shared.watchings
        self._watching: list[Street] = []  # those streets
        self._watched: tuple[int, ...] | None = None  # that row at _version
        self._count = -1  # how many street lots the seat has at _version
        self._worth = shared.worth
        self._signature: _Signature | None = None  # the split streets the plans were found from, with their owners
        # what _side and _plans_for found (the ruleset's traders' when the game plays by its rules)
        by_rules = game.rules is game.ruleset.rules
        side_key = (type(self), self.premium, self.margin, seat)  # what a side depends on, besides its street
        self._sides: dict[tuple[Street, tuple[int, ...]], _Side] = _shared_by(shared.sides, side_key) if by_rules \
            else {}
        self._plans_found: dict[_Signature, _Plans] = _shared_by(shared.plans, side_key) if by_rules else {}
        self._liftable: list[tuple[int, int]] = []  # its mortgaged lots and what lifting each costs, board order
        self._liftable_flags: tuple[bool, ...] | None = None  # the mortgage flags of its lots they are for
        self._lift_least = _NO_OFFER  # the least those liftings cost
        self._plans: list[_Plan] = []
        self._offers: list[tuple[int, int, int]] = []  # (plan, rung, least cash) of every offer of the plans
        self._offers_least = _NO_OFFER  # the least of their least cash
        self._least_cash = _NO_OFFER  # the least cash of the offers not made at _version (_NO_OFFER: none left)
        self._done: set[tuple[int, int, int]] = set()  # (version, plan, rung) offered or given up

    def get_state(self) -> Any:
        return {**super().get_state(), "asked": [[v, i, r, 0] for v, i, r in sorted(self._done)]}

    def set_state(self, state: Any) -> None:
        super().set_state(state)
        self._done = {(v, i, r) for v, i, r, _ in state["asked"]}
        self._version = -1  # the groups and plans are found again from the position
        self._count = -1

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        """Greedy's limits, but bids jump halfway to the limit (an auction takes a few rounds, not hundreds)."""
        limit = game.tables.price[item[1]] if item[0] == "space" else _house_value(game, seat)
        limit = min(limit, game.cash[seat])
        return high_bid + max(1, (limit - high_bid) // 2) if high_bid < limit else 0

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        """None: the engine raises the debt the way the trader would, the least loss first (mortgages that
        cost the least interest, then the cheapest buildings, evenly: :func:`~monopoly.game.actions.cheapest_step`),
        without a decision a step."""
        return None

    # ------------------------------------------------------------------ offering

    def act(self, game: Game, seat: int) -> Action | None:
        """Greedy's cards, building and lifting of mortgages first, then the offers of this ownership version.

        Greedy's answers, in one pass with the trader's own bookkeeping: what follows from the owners
        (the whole groups, the trades worth offering) is found once a version, in :meth:`_update`.
        """
        if self._turn_cards and game.held_cards[seat]:
            use = turn_card(game, seat)
            if use is not None:
                return use
        if game.owner_version != self._version:
            self._update(game, seat)
        cash = game.cash[seat]
        groups = self._groups
        if groups and cash >= self._cheapest_house:
            build = _greedy_build(game, cash, groups)  # as greedy
            if build is not None:
                return build
        mortgaged = game.mortgaged
        # its lots' mortgage flags: read alone when its lots at this version are known, else once any lot is
        # mortgaged (any: the quickest scan of every flag), after finding its lots
        flags = self._owned_mortgaged(mortgaged) if self._owned_version == self._version else \
            self._own_flags(game, seat) if any(mortgaged) else None
        if flags is not None and True in flags:
            if flags != self._liftable_flags:
                self._find_liftable(game, flags)
            if cash >= self._lift_least:
                for s, cost in self._liftable:  # greedy's: the first one in board order it can pay for
                    if cash >= cost:
                        return Unmortgage(s)
        if cash >= self._least_cash:  # an offer left that it may have the cash for
            return self._offer(game, seat)
        return None

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Before another's turn: greedy's building (its whole groups found with the rest of the trader's
        bookkeeping); its offers wait for its own turn."""
        if game.owner_version != self._version:
            self._update(game, seat)
        cash = game.cash[seat]
        if self._groups and cash >= self._cheapest_house:
            return _greedy_build(game, cash, self._groups)
        return None

    def _own_flags(self, game: Game, seat: int) -> tuple[bool, ...]:
        """The mortgage flags of the seat's lots, its lots found at this ownership version first."""
        self._own(game, seat)
        return self._owned_mortgaged(game.mortgaged)

    def _own(self, game: Game, seat: int) -> None:
        """The seat's lots at this ownership version (kept when they are the same ones)."""
        self._owned_version = self._version
        owner, owned = game.owner, self._owned
        if owner.count(seat) == len(owned) and _owned_by(owner, owned, seat) == len(owned):
            return  # as many lots as before, and all of those still its own: the same lots
        self._owned = [s for s in self._ownable if owner[s] == seat]
        self._owned_mortgaged = tuple_getter(self._owned)
        self._liftable_flags = None

    def _find_liftable(self, game: Game, flags: tuple[bool, ...]) -> None:
        """Its mortgaged lots (``flags``: the mortgage flags of its lots), in board order, with what lifting
        each costs, and the least of those."""
        lift = self._lift
        liftable = []
        least = _NO_OFFER
        for s in compress(self._owned, flags):
            cost = lift.get(s)
            if cost is None:
                cost = lift[s] = game.unmortgage_cost(s)
            liftable.append((s, cost))
            if cost < least:
                least = cost
        self._liftable = liftable
        self._liftable_flags = flags
        self._lift_least = least

    def _update(self, game: Game, seat: int) -> None:
        """What follows from the owners at a new ownership version: the whole groups greedy builds on, and
        the streets the seat shares with one opponent who has all their other lots (the signature), with
        the trades worth offering there, best first. The plans follow from the signature alone: a new
        version with the same signature keeps them.

        Only the streets the seat has lots of matter. Those it had lots of at the last full look (the
        watched ones) are looked at again from their owners, read in one row; when that row and the
        number of the seat's street lots are as before, nothing changed (a lot elsewhere changed hands).
        Every street is looked at again only when the seat has a lot outside the watched streets.
        """
        version = self._version = game.owner_version
        owner = game.owner
        count = _street_counts(game, self._street_lots)[seat]
        row = self._watch(owner)
        if count != self._count or row != self._watched:
            groups: list[Street] = []
            split: list[tuple[Street, tuple[int, ...]]] = []
            total = 0
            for street in self._watching:
                mine, alone = _share(owner, street.members, seat)
                if mine:
                    total += mine
                    if mine == street.size:
                        groups.append(street)
                    elif alone:  # one opponent has all the rest: one trade completes it
                        split.append((street, street.owners(owner)))
            if total == count:
                self._watched, self._count = row, count
                if groups != self._groups:
                    self._groups = groups
                    self._cheapest_house = min([street.house_cost for street in groups], default=0)
            else:  # a lot of a street it had none of
                split = self._watch_streets(owner, seat, count)
            # the plans follow from the streets split between the seat and one opponent, alone
            signature = tuple([(street.group, holders) for street, holders in split])
            if signature != self._signature:
                self._signature = signature
                self._plans, self._offers, self._offers_least = self._plans_for(game, seat, signature, split)
        done = self._done
        if done:  # what was offered at earlier versions may be offered again
            done = self._done = {key for key in done if key[0] == version}
        self._least_cash = self._least_left(version) if done else self._offers_least

    def _watch_streets(self, owner: list[int], seat: int, count: int) -> list[tuple[Street, tuple[int, ...]]]:
        """Every street looked at again: the streets the seat has lots of become the watched ones; the whole
        groups, and the streets split with one opponent (with their owners)."""
        groups: list[Street] = []
        split: list[tuple[Street, tuple[int, ...]]] = []
        held: list[int] = []  # the streets it has lots of, by their place in self._streets
        for i, street in enumerate(self._streets):
            mine, alone = _share(owner, street.members, seat)
            if mine:
                held.append(i)
                if mine == street.size:
                    groups.append(street)
                elif alone:  # one opponent has all the rest: one trade completes it
                    split.append((street, street.owners(owner)))
        key = tuple(held)
        watching = self._watchings.get(key)
        if watching is None:
            watched = [self._streets[i] for i in held]
            watching = self._watchings[key] = (watched, tuple_getter([m for street in watched for m in street.members]))
        self._watching, self._watch = watching
        self._watched = self._watch(owner)
        self._count = count
        self._groups = groups
        self._cheapest_house = min([street.house_cost for street in groups], default=0)
        return split

    def _plans_for(self, game: Game, seat: int, signature: _Signature,
                   split: list[tuple[Street, tuple[int, ...]]]) -> _Plans:
        """The plans of the streets ``split`` (``signature``: their groups and owners), with every offer of them
        as (plan, rung, least cash) and the least of those: found once for a signature (by the traders of the
        ruleset when the game plays by its rules)."""
        found = self._plans_found.get(signature)
        if found is not None:
            return found
        plans = self._find_plans(game, seat, split) if split else []
        offers = []
        for i, plan in enumerate(plans):
            if plan[7]:
                offers.append((i, 0, plan[7] + plan[6]))
            offers.append((i, 1, plan[8]))
        found = (plans, offers, min([offer[2] for offer in offers], default=_NO_OFFER))
        bankrupt = game.bankrupt
        if not any(bankrupt[holder] for _, holders in split for holder in holders):  # what a game goes by alone
            if len(self._plans_found) > 4096:
                self._plans_found.clear()
            self._plans_found[signature] = found
        return found

    def _least_left(self, version: int) -> int:
        """The least cash of the offers not made at ``version`` (_NO_OFFER when every one was)."""
        done = self._done
        return min([least for i, rung, least in self._offers if (version, i, rung) not in done], default=_NO_OFFER)

    def _find_plans(self, game: Game, seat: int, parts: list[tuple[Street, tuple[int, ...]]]) -> list[_Plan]:
        """The trades worth offering, best first, for the streets ``parts`` (with their owners) that the seat
        shares with one opponent, who has all the other lots: buying the opponent's lots of one, or swapping
        them for the seat's lots of another that the same opponent then completes."""
        bankrupt = game.bankrupt
        sides = self._sides
        split = []
        for part in parts:
            side = sides.get(part)
            if side is None:
                side = self._side(game, seat, part[0], part[1])
            if not bankrupt[side[1]]:
                split.append(side)
        if not split:
            return []
        price = game.tables.price
        margin = self.margin
        plans: list[tuple[int, _Plan]] = []
        for street, b, get, _, _, _, reserve, paid, change, their_change, lifts, purchase in split:
            if purchase is not None:
                plans.append(purchase)
            if len(split) == 1:
                break
            for other, partner, _, give, other_value, other_their, *_ in split:
                if partner != b or other is street:
                    continue
                # my lots of a street the partner then completes, for the partner's lots of this one
                lots = paid - sum(price[s] for s in give)
                mine = change - other_value
                theirs = their_change + other.worth - other_their
                gain, their_gain = lots + mine - theirs // 2, theirs - lots - mine // 2
                if gain + their_gain >= 2 * margin + 10:
                    plans.append((gain + their_gain, (b, give, get, itemgetter(*street.members, *other.members), gain,
                                                      their_gain, reserve, 0,
                                                      _least_cash(margin - their_gain - lifts, reserve))))
        if len(plans) > 1:
            plans.sort(key=lambda p: (-p[0], p[1][0], p[1][2], p[1][1]))
        return [plan for _, plan in plans]

    def _side(self, game: Game, seat: int, street: Street, holders: tuple[int, ...]) -> _Side:
        """What one street split between the seat and one opponent (``holders``: its lots' owners) brings to
        the plans, and the plan of buying the opponent's lots for cash (None when not worth offering):
        found once for these owners (the same sums as _gains, which answers offers)."""
        low = min(holders)
        b = max(holders) if low == seat else low  # the other of its two owners
        mine, size, members, worth = holders.count(seat), street.size, street.members, street.worth
        get = tuple([m for m, h in zip(members, holders, strict=True) if h == b])
        give = tuple([m for m, h in zip(members, holders, strict=True) if h == seat])
        value, their_value = _group_value(worth, mine, size), _group_value(worth, size - mine, size)
        lift = self._lift
        lifts = 0  # the most the partner's gain can grow by: every lot it gives being mortgaged
        for s in get:
            cost = lift.get(s)
            if cost is None:
                cost = lift[s] = game.unmortgage_cost(s)
            lifts += cost
        price = game.tables.price
        margin = self.margin
        reserve = max(100, street.house_cost * size // 2)
        paid = sum(price[s] for s in get)
        change, their_change = worth - value, -their_value
        gain, their_gain = paid + change - their_change // 2, their_change - paid - change // 2
        purchase: tuple[int, _Plan] | None = None
        if gain + their_gain >= 2 * margin + 10:
            purchase = (gain + their_gain, (b, (), get, street.owners, gain, their_gain, reserve,
                                            int(self.premium * paid),
                                            _least_cash(margin - their_gain - lifts, reserve)))
        side = (street, b, get, give, value, their_value, reserve, paid, change, their_change, lifts, purchase)
        if len(self._sides) > 4096:
            self._sides.clear()
        self._sides[(street, holders)] = side
        return side

    def _offer(self, game: Game, seat: int) -> Trade | None:
        """The first offer not made at this version that it can make now, best plan first."""
        cash = game.cash[seat]
        version = game.owner_version
        done = self._done
        for i, rung, least in self._offers:
            if cash < least or (version, i, rung) in done:
                continue
            trade = self._priced(game, seat, self._plans[i], rung)
            if trade is None:
                continue  # not now: perhaps with more cash
            done.add((version, i, rung))
            self._least_cash = self._least_left(version)
            if trade is not _NEVER:
                return trade
        return None

    def _priced(self, game: Game, seat: int, plan: _Plan, rung: int) -> Trade | None:
        """The offer of ``plan`` now; None when not now, ``_NEVER`` when not at this version."""
        partner, give, get, touched, gain, their_gain, reserve, opening, _ = plan
        if game.bankrupt[partner] or any(touched(game.buildings)):
            return _NEVER
        if any(game.mortgaged):
            mortgaged = game.mortgaged
            for s in get:
                if mortgaged[s]:
                    lift = game.unmortgage_cost(s)
                    gain -= lift
                    their_gain += lift
            for s in give:
                if mortgaged[s]:
                    lift = game.unmortgage_cost(s)
                    gain += lift
                    their_gain -= lift
        short = self.margin - their_gain  # what the partner must be paid to gain the margin
        pay = receive = 0
        if rung == 0:
            if opening >= -(-short // 10) * 10:
                return _NEVER
            pay = opening
        elif short > 0:
            pay = -(-short // 10) * 10
        else:
            receive = min(-short // 10 * 10, game.cash[partner])
        if (pay and game.cash[seat] - pay < reserve) or gain - pay + receive < self.margin:
            return None
        return Trade(seat, partner, give_spaces=give, give_cash=pay, get_spaces=get, get_cash=receive)

    # ------------------------------------------------------------------ the model

    def _gains(self, game: Game, a: int, b: int, give: tuple[int, ...], get: tuple[int, ...]) -> tuple[int, int]:
        """(a's gain, b's gain) when ``a`` gives lots ``give`` to ``b`` for lots ``get``, before cash,
        at printed prices: ``_gains(a, b, give, get)`` is ``_gains(b, a, get, give)`` reversed."""
        t = game.tables
        owner, price, group_of, worth, lots_of = game.owner, t.price, t.group_of, self._worth, self._lots_of
        lots = sum([price[s] for s in get]) - sum([price[s] for s in give])
        get_groups = [group_of[s] for s in get]
        give_groups = [group_of[s] for s in give]
        change_a = change_b = 0
        for g in {*get_groups, *give_groups}:
            if g < 0 or not worth[g]:
                continue
            owners = lots_of[g](owner)
            n = len(owners)
            moved = get_groups.count(g) - give_groups.count(g)
            had_a, had_b = owners.count(a), owners.count(b)
            change_a += _group_value(worth[g], had_a + moved, n) - _group_value(worth[g], had_a, n)
            change_b += _group_value(worth[g], had_b - moved, n) - _group_value(worth[g], had_b, n)
        return lots + change_a - change_b // 2, change_b - lots - change_a // 2

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        gain, _ = self._gains(game, seat, trade.proposer, trade.get_spaces, trade.give_spaces)
        mortgaged = game.mortgaged
        for s in trade.give_spaces:
            if mortgaged[s]:
                gain -= game.unmortgage_cost(s)
        for s in trade.get_spaces:
            if mortgaged[s]:
                gain += game.unmortgage_cost(s)
        gain += trade.give_cash - trade.get_cash + game.rules.jail.fine * (len(trade.give_cards) -
                                                                           len(trade.get_cards))
        return gain >= self.margin


#: What :meth:`TraderAgent._priced` answers for an offer that cannot be made at this ownership version.
_NEVER = Trade(-1, -1)


class _AtVersion:
    """What the bots find from the owners of one game at one ownership version, for every bot of that game (None
    until asked). The game's list of owners names the game, not the game itself: a game's own list, never shared
    with another game (a copy has its own), kept without keeping the game alive (and a compiled Game takes no
    weak reference)."""

    __slots__ = ("counts", "full", "owner", "version")

    def __init__(self, owner: list[int] | None, version: int) -> None:
        self.owner = owner
        self.version = version
        self.full: dict[int, list[Street]] | None = None  # _full_streets
        self.counts: list[int] | None = None  # _street_counts


class _Last:
    """The findings of the last game and version asked (one slot, replaced whole: a game played in another
    thread meanwhile replaces the slot and never writes into the findings a caller holds)."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at = _AtVersion(None, -1)


_LAST: Final = _Last()


def _at_version(game: Game) -> _AtVersion:
    """The findings of ``game`` at its ownership version (new ones when the last asked were another's)."""
    at = _LAST.at
    if at.owner is not game.owner or at.version != game.owner_version:
        at = _LAST.at = _AtVersion(game.owner, game.owner_version)
    return at


def _full_streets(game: Game) -> dict[int, list[Street]]:
    """The streets each seat owns whole, in group order: found once a version for every bot of a game."""
    at = _at_version(game)
    if at.full is not None:
        return at.full
    owner = game.owner
    found: dict[int, list[Street]] = {}
    for street in streets(game.tables):
        first = owner[street.members[0]]
        if first >= 0 and _owned_by(owner, street.members, first) == street.size:
            found.setdefault(first, []).append(street)
    at.full = found
    return found


def _owned_by(owner: list[int], lots: Sequence[int], seat: int) -> int:
    """How many of ``lots`` ``seat`` owns."""
    n = 0
    for s in lots:
        if owner[s] == seat:
            n += 1
    return n


def _share(owner: list[int], lots: tuple[int, ...], seat: int) -> tuple[int, bool]:
    """(how many of ``lots`` ``seat`` owns, whether one other seat owns all the others) by a plain loop: typed, it
    runs compiled (the getters and tuple methods it replaces are generic calls there), as fast in Python."""
    mine, other, alone = 0, -1, True
    for s in lots:
        o = owner[s]
        if o == seat:
            mine += 1
        elif o < 0 or (other >= 0 and o != other):
            alone = False
        else:
            other = o
    return mine, alone and other >= 0


def _street_counts(game: Game, lots: tuple[int, ...]) -> list[int]:
    """By seat, how many of ``lots`` (the lots of the streets of the game's tables) it owns: counted once a version
    for every trader of a game."""
    at = _at_version(game)
    if at.counts is not None:
        return at.counts
    owner = game.owner
    counts = [0] * game.players
    for s in lots:
        o = owner[s]
        if o >= 0:
            counts[o] = counts[o] + 1  # (not +=, which the compiled build adds as two objects)
    at.counts = counts
    return counts


def _least_cash(short: int, reserve: int) -> int:
    """The least cash for an offer that pays at least ``short`` (rounded up to tens) and keeps ``reserve``."""
    return -(-short // 10) * 10 + reserve if short > 0 else _ANY_CASH


def _group_value(worth: int, owned: int, size: int) -> int:
    """The trader's value of ``owned`` lots of a buildable group of ``size`` whose printed prices add to ``worth``."""
    return worth if owned == size else worth * owned * owned // (4 * size * size)


def _bank_has(game: Game, lot: int) -> bool:
    t = game.tables
    return game.hotels_left > 0 if game.buildings[lot] == t.hph else game.houses_left > 0


def _house_value(game: Game, seat: int) -> int:
    t = game.tables
    costs = [t.house_cost[g] for g in full_groups(game, seat)]
    return max(costs) if costs else 0


def _affordable_unmortgage(game: Game, seat: int, reserve: int) -> Action | None:
    if not any(game.mortgaged):
        return None
    for s in game.tables.ownable:
        if game.owner[s] == seat and game.mortgaged[s] and game.cash[seat] - game.unmortgage_cost(s) >= reserve:
            return Unmortgage(s)
    return None


BOTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "cautious": CautiousAgent,
    "trader": TraderAgent,
}


def make_agent(name: str) -> Agent:
    """A new bot by name (``random``, ``greedy``, ``cautious``, ``trader``)."""
    try:
        return BOTS[name]()
    except KeyError:
        close = difflib.get_close_matches(name, list(BOTS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(f"no agent named '{name}'{hint}; built-in agents: {', '.join(BOTS)}") from None
