"""The built-in bots: random, greedy, cautious and trader."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..game.actions import Build, Mortgage, SellBuilding, Trade, Unmortgage
from .base import Agent, AuctionItem

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


def full_groups(game: Game, seat: int) -> list[int]:
    """Groups with buildings allowed whose every lot ``seat`` owns."""
    owner = game.owner
    return [street.group for street in streets(game.tables) if street.owners(owner).count(seat) == street.size]


#: Entries of a list (owners, buildings, mortgage flags) at some indexes, as a tuple.
Getter = Callable[[Sequence[Any]], tuple[Any, ...]]


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


def tuple_getter(indexes: Sequence[int]) -> Getter:
    """``itemgetter(*indexes)``, but giving a tuple whatever the number of indexes."""
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


#: Per game tables (by identity): the tables, their streets, and those of two lots or more.
_STREETS: dict[int, tuple[Any, list[Street], list[Street]]] = {}


def _streets_of(t: Any) -> tuple[Any, list[Street], list[Street]]:
    hit = _STREETS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit
    found = [Street(g, tuple(sorted(members)), t.house_cost[g], sum(t.price[m] for m in members))
             for g, members in enumerate(t.members) if t.buildable[g] and members]
    if len(_STREETS) > 64:
        _STREETS.clear()
    hit = _STREETS[id(t)] = (t, found, [street for street in found if street.size > 1])
    return hit


def streets(t: Any) -> list[Street]:
    """The groups with buildings allowed (and lots) of the game tables ``t``, in group order (made once)."""
    return _streets_of(t)[1]


def _trading(t: Any) -> list[Street]:
    """The streets of two lots or more of the game tables ``t``, in group order (the same list for every trader)."""
    return _streets_of(t)[2]


class RandomAgent(Agent):
    """Uniformly random legal choices (from its own seeded generator)."""

    name = "random"

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

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        return self.rng.random() < 0.5

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        legal = [a for a in game.legal_actions(seat, raising=True) if isinstance(a, (SellBuilding, Mortgage))]
        return self.rng.choice(legal) if legal else None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return self.rng.random() < 0.5


class GreedyAgent(Agent):
    """Buys everything it can, bids up to the price, builds as soon as it can."""

    name = "greedy"

    def setup(self, game: Game, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        self._version = -1
        self._groups: list[Street] = []
        self._cheapest_house = 0
        self._owned_version = -1
        self._owned: list[int] = []  # my lots at _owned_version, in board order
        self._owned_mortgaged: Getter = _nothing  # their mortgage flags
        self._lift: dict[int, int] = {}  # what lifting each mortgage costs, as the game says (once asked)

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        limit = game.tables.price[item[1]] if item[0] == "space" else _house_value(game, seat)
        bid = high_bid + 1
        return bid if bid <= min(limit, game.cash[seat]) else 0

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        return "card" if "card" in options else "pay" if "pay" in options else "roll"

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        return cheapest_option(game, seat, options)

    def act(self, game: Game, seat: int) -> Action | None:
        if game.owner_version != self._version:
            self._version = game.owner_version
            self._groups = _full_streets(game).get(seat, [])
            self._cheapest_house = min([street.house_cost for street in self._groups], default=0)
        if self._groups and game.cash[seat] >= self._cheapest_house:
            cash = game.cash[seat]
            t = game.tables
            hotel, hph = t.hotel_level, t.hph
            buildings, mortgaged = game.buildings, game.mortgaged
            for street in self._groups:
                if cash < street.house_cost:
                    continue
                levels = street.owners(buildings)
                low = min(levels)
                # the first of the least built lots, when nothing of the group is mortgaged and the bank
                # has the building
                if low < hotel and True not in street.owners(mortgaged) and \
                        (game.hotels_left if low == hph else game.houses_left) > 0:
                    return street.builds[levels.index(low)]
        if True not in game.mortgaged:  # the common case, answered without a call
            return None
        if self._owned_version != game.owner_version:
            self._owned_version = game.owner_version
            owner = game.owner
            self._owned = [s for s in game.tables.ownable if owner[s] == seat]
            self._owned_mortgaged = tuple_getter(self._owned)
        mortgaged = game.mortgaged
        if True not in self._owned_mortgaged(mortgaged):
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

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return game.cash[seat] >= 2 * game.unmortgage_cost(space)


class CautiousAgent(Agent):
    """Keeps a cash reserve, builds on its best groups, mortgages last."""

    name = "cautious"
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
            rent = t.rent[lot]
            gain = (rent[-1] if level + 1 == t.hotel_level else rent[level + 1]) - \
                (rent[level] if level else rent[0] * game.rules.full_group_multiplier)
            score = gain / cost
            if best is None or score > best[0]:
                best = (score, lot)
        if best is not None:
            return Build(best[1])
        return _affordable_unmortgage(game, seat, reserve=self.reserve * 2)

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
#: No bound on the cash needed: an offer that may ask for cash instead.
_ANY_CASH = -(1 << 62)


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
    """

    name = "trader"
    premium = 1.5
    margin = 25

    def setup(self, game: Game, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        t = game.tables
        self._trading = _trading(t)
        self._worth = [0] * len(t.members)
        for street in self._trading:
            self._worth[street.group] = street.worth
        self._plans_version = -1
        self._signature: tuple[tuple[int, ...], ...] | None = None  # the owners the plans were found from
        self._plans: list[_Plan] = []
        self._pending: list[tuple[int, int, int]] = []  # (plan, rung, least cash) not offered at _plans_version
        self._least_cash = 0  # the least of the pending offers' least cash
        self._done: set[tuple[int, int, int]] = set()  # (version, plan, rung) offered or given up

    def get_state(self) -> Any:
        return {**super().get_state(), "asked": [[v, i, r, 0] for v, i, r in sorted(self._done)]}

    def set_state(self, state: Any) -> None:
        super().set_state(state)
        self._done = {(v, i, r) for v, i, r, _ in state["asked"]}
        self._plans_version = -1  # the plans are found again from the position

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        """Greedy's limits, but bids jump halfway to the limit (an auction takes a few rounds, not hundreds)."""
        limit = game.tables.price[item[1]] if item[0] == "space" else _house_value(game, seat)
        limit = min(limit, game.cash[seat])
        return high_bid + max(1, (limit - high_bid) // 2) if high_bid < limit else 0

    # ------------------------------------------------------------------ offering

    def act(self, game: Game, seat: int) -> Action | None:
        action = super().act(game, seat)
        if action is not None:
            return action
        if game.owner_version != self._plans_version:
            self._plan(game, seat)
        return self._offer(game, seat) if self._pending else None

    def _plan(self, game: Game, seat: int) -> None:
        """The trades worth looking at in this ownership, best first. They follow from the owners of the
        groups the seat has part of, whose other lots all have owners (the signature), alone: the same
        position gives the same plans, and a new version with the same signature keeps them."""
        version = game.owner_version
        self._plans_version = version
        parts = [part for part in _contested(game, self._trading) if seat in part[1]]
        signature = tuple([holders for _, holders in parts])
        if signature != self._signature:
            self._signature = signature
            self._plans = self._find_plans(game, seat, parts) if parts else []
        done = self._done
        if done:  # what was offered at earlier versions may be offered again
            done = self._done = {key for key in done if key[0] == version}
        pending = []
        for i, plan in enumerate(self._plans):
            if plan[7] and (version, i, 0) not in done:
                pending.append((i, 0, plan[7] + plan[6]))
            if (version, i, 1) not in done:
                pending.append((i, 1, plan[8]))
        self._pending = pending
        self._least_cash = min([entry[2] for entry in pending], default=0)

    def _find_plans(self, game: Game, seat: int, parts: list[tuple[Street, tuple[int, ...]]]) -> list[_Plan]:
        bankrupt = game.bankrupt
        # (street, partner, the partner's lots, my lots, my group value, the partner's)
        split: list[tuple[Street, int, tuple[int, ...], tuple[int, ...], int, int]] = []
        for street, holders in parts:
            mine = holders.count(seat)
            size = street.size
            if mine == size:
                continue
            for b in holders:
                if b != seat:
                    break
            if mine + holders.count(b) != size or bankrupt[b]:
                continue
            members = street.members
            split.append((street, b, tuple(m for m, h in zip(members, holders, strict=True) if h == b),
                          tuple(m for m, h in zip(members, holders, strict=True) if h == seat),
                          _group_value(street.worth, mine, size), _group_value(street.worth, size - mine, size)))
        if not split:
            return []
        price = game.tables.price
        margin = self.margin
        plans: list[tuple[int, _Plan]] = []
        for street, b, get, _, value, their_value in split:
            # what I get: the partner's lots of this street; in exchange cash, or my lots of a street the
            # partner then completes (the same sums as _gains, which answers offers)
            reserve = max(100, street.house_cost * street.size // 2)
            paid = sum(price[s] for s in get)
            # the most the partner's gain can grow by: every lot it gives being mortgaged
            lifts = sum(game.unmortgage_cost(s) for s in get)
            change, their_change = street.worth - value, -their_value
            opening = int(self.premium * paid)
            gain, their_gain = paid + change - their_change // 2, their_change - paid - change // 2
            if gain + their_gain >= 2 * margin + 10:
                plans.append((gain + their_gain, (b, (), get, street.owners, gain, their_gain, reserve, opening,
                                                  _least_cash(margin - their_gain - lifts, reserve))))
            for other, partner, _, give, other_value, other_their in split:
                if partner != b or other is street:
                    continue
                lots = paid - sum(price[s] for s in give)
                mine = change - other_value
                theirs = their_change + other.worth - other_their
                gain, their_gain = lots + mine - theirs // 2, theirs - lots - mine // 2
                if gain + their_gain >= 2 * margin + 10:
                    plans.append((gain + their_gain, (b, give, get, itemgetter(*street.members, *other.members), gain,
                                                      their_gain, reserve, 0,
                                                      _least_cash(margin - their_gain - lifts, reserve))))
        plans.sort(key=lambda p: (-p[0], p[1][0], p[1][2], p[1][1]))
        return [plan for _, plan in plans]

    def _offer(self, game: Game, seat: int) -> Trade | None:
        cash = game.cash[seat]
        if cash < self._least_cash:
            return None  # short of cash for every offer left (the common case, answered at once)
        version = game.owner_version
        pending = self._pending
        for entry in list(pending):
            i, rung, least = entry
            if cash < least:
                continue
            trade = self._priced(game, seat, self._plans[i], rung)
            if trade is None:
                continue  # not now: perhaps with more cash
            pending.remove(entry)
            self._done.add((version, i, rung))
            self._least_cash = min([entry[2] for entry in pending], default=0)
            if trade is not _NEVER:
                return trade
        return None

    def _priced(self, game: Game, seat: int, plan: _Plan, rung: int) -> Trade | None:
        """The offer of ``plan`` now; None when not now, ``_NEVER`` when not at this version."""
        partner, give, get, touched, gain, their_gain, reserve, opening, _ = plan
        if game.bankrupt[partner] or any(touched(game.buildings)):
            return _NEVER
        if True in game.mortgaged:
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
        owner, price, group_of, worth = game.owner, t.price, t.group_of, self._worth
        lots = sum(price[s] for s in get) - sum(price[s] for s in give)
        change_a = change_b = 0
        for g in {group_of[s] for s in (*give, *get)}:
            if g < 0 or not worth[g]:
                continue
            members = t.members[g]
            n = len(members)
            moved = sum(1 for s in get if group_of[s] == g) - sum(1 for s in give if group_of[s] == g)
            had_a = sum(1 for m in members if owner[m] == a)
            had_b = sum(1 for m in members if owner[m] == b)
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


#: The last answer of :func:`_full_streets`: (a weak reference to the game, its ownership version, the answer).
_LAST_FULL: list[Any] = [None]


def _full_streets(game: Game) -> dict[int, list[Street]]:
    """The streets each seat owns whole, in group order: found once a version for every bot of a game
    (the last game asked is remembered)."""
    last = _LAST_FULL[0]
    if last is not None and last[1] == game.owner_version and last[0]() is game:
        return last[2]
    owner = game.owner
    found: dict[int, list[Street]] = {}
    for street in streets(game.tables):
        holders = street.owners(owner)
        first = holders[0]
        if first >= 0 and holders.count(first) == street.size:
            found.setdefault(first, []).append(street)
    _LAST_FULL[0] = (weakref.ref(game), game.owner_version, found)
    return found


#: The last answer of :func:`_contested`: (a weak reference to the game, its ownership version, the answer).
_LAST_CONTESTED: list[Any] = [None]


def _contested(game: Game, trading: list[Street]) -> list[tuple[Street, tuple[int, ...]]]:
    """The streets of ``trading`` whose lots all have owners, more than one, with their owners: found once
    a version for every trader of a game (the last game asked is remembered)."""
    last = _LAST_CONTESTED[0]
    if last is not None and last[1] == game.owner_version and last[0]() is game and last[2] is trading:
        return last[3]
    owner = game.owner
    found = []
    for street in trading:
        holders = street.owners(owner)
        if -1 not in holders and holders.count(holders[0]) != street.size:
            found.append((street, holders))
    _LAST_CONTESTED[0] = (weakref.ref(game), game.owner_version, trading, found)
    return found


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
    if True not in game.mortgaged:
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
