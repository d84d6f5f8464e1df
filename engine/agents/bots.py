"""The built-in bots: random, greedy, cautious and trader."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..game.actions import Build, Mortgage, SellBuilding, Trade, Unmortgage
from .base import Agent, AuctionItem

if TYPE_CHECKING:
    from ..game.actions import Action
    from ..game.game import Game


def cheapest_option(game: Game, seat: int, options: tuple[str, ...]) -> int:
    """The alternative that costs the least cash now (the first one when the game cannot say)."""
    costs = game.option_costs(seat)
    return costs.index(min(costs)) if len(costs) == len(options) else 0


def full_groups(game: Game, seat: int) -> list[int]:
    """Groups with buildings allowed whose every lot ``seat`` owns."""
    t = game.tables
    owner = game.owner
    return [g for g, members in enumerate(t.members)
            if t.buildable[g] and members and all(owner[m] == seat for m in members)]


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
        self._groups: list[int] = []

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
            self._groups = full_groups(game, seat)
        groups = self._groups
        if groups:
            t = game.tables
            cash = game.cash[seat]
            for g in groups:
                members = t.members[g]
                if cash < t.house_cost[g] or any(game.mortgaged[m] for m in members):
                    continue
                lot = min(members, key=lambda m: (game.buildings[m], m))
                if game.buildings[lot] < t.hotel_level and _bank_has(game, lot):
                    return Build(lot)
        if True not in game.mortgaged:  # the common case, answered without a call
            return None
        return _affordable_unmortgage(game, seat, reserve=0)

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


class TraderAgent(GreedyAgent):
    """Buys like greedy and trades to complete its groups; accepts trades that pay it well."""

    name = "trader"
    premium = 1.5

    def act(self, game: Game, seat: int) -> Action | None:
        action = super().act(game, seat)
        if action is not None:
            return action
        return self._offer(game, seat)

    def _offer(self, game: Game, seat: int) -> Trade | None:
        t = game.tables
        for g, members in enumerate(t.members):
            if not t.buildable[g]:
                continue
            mine = [m for m in members if game.owner[m] == seat]
            missing = [m for m in members if game.owner[m] != seat]
            if len(missing) != 1 or not mine:
                continue
            lot = missing[0]
            holder = game.owner[lot]
            if holder < 0 or game.bankrupt[holder] or any(game.buildings[m] for m in t.members[g]):
                continue
            offer = int(t.price[lot] * self.premium)
            if offer > game.cash[seat] - 100:
                continue
            key = (lot, holder, offer, game.turn // 20)
            if key in self._asked:
                continue
            self._asked.add(key)
            return Trade(seat, holder, give_cash=offer, get_spaces=(lot,))
        return None

    def setup(self, game: Game, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        self._asked: set[tuple[int, int, int, int]] = set()

    def get_state(self) -> Any:
        return {**super().get_state(), "asked": sorted(list(key) for key in self._asked)}

    def set_state(self, state: Any) -> None:
        super().set_state(state)
        self._asked = {(a, b, c, d) for a, b, c, d in state["asked"]}

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        t = game.tables
        value_in = trade.give_cash + sum(t.price[s] for s in trade.give_spaces)
        value_out = trade.get_cash + sum(t.price[s] for s in trade.get_spaces)
        # Never hand over the last lot of a group to its other owner unless we complete one too.
        completes_theirs = any(_completes(game, trade.proposer, s) for s in trade.get_spaces)
        completes_mine = any(_completes(game, seat, s) for s in trade.give_spaces)
        if completes_theirs and not completes_mine:
            return value_in >= 2 * value_out and game.cash[seat] < 200
        return value_in >= value_out * 1.25


def _completes(game: Game, seat: int, space: int) -> bool:
    t = game.tables
    group = t.group_of[space]
    return t.buildable[group] and all(game.owner[m] == seat or m == space for m in t.members[group])


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
