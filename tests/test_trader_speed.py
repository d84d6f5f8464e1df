"""The trader's trade search (engine/agents/bots.py): what it offers, found cheaply from the state.

Behaviour only, no timing (tests/benchmarks/bench_engine.py measures the speed): every offer passes the
engine's validator, the same seed gives the same offers (in any number of worker processes, and across a
save), one trade completes a group when one can, and an offer refused is not made again at the same
ownership version. The shortcuts taken for speed are held to what they stand for: the trader's bookkeeping,
kept from one ownership version to the next, to a fresh look at the position; ``legal_actions``, derived
from the state in one pass, to the validator's verdict on every action; ``cheapest_step``, the trader's
way of raising a debt, to the engine's own.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import monopoly
from monopoly import game_from_json, game_to_json
from monopoly.agents import GreedyAgent, TraderAgent
from monopoly.game import building
from monopoly.game.actions import (
    Build,
    IllegalAction,
    Mortgage,
    SellBuilding,
    SellLot,
    Trade,
    Unmortgage,
    cheapest_step,
    legal_actions,
    shortage_sale,
    step_finder,
    verify,
)
from monopoly.game.auction import shortage_possible
from monopoly.game.events import BUILD
from monopoly.game.state import Setup
from monopoly.sim import simulate

CLASSIC = monopoly.load_ruleset("classic")


class CheckedTrader(TraderAgent):
    """A trader whose every offer is put to the engine's validator first (which raises if it is not allowed)."""

    def setup(self, game: Any, seat: int, rng: Any) -> None:
        super().setup(game, seat, rng)
        self.offers: list[tuple[int, Trade]] = []  # (ownership version, offer)

    def act(self, game: Any, seat: int) -> Any:
        action = super().act(game, seat)
        if type(action) is Trade:
            verify(game, seat, action)
            self.offers.append((game.owner_version, action))
        return action


def bots(*names: str) -> list[Any]:
    return [CheckedTrader() if name == "trader" else monopoly.make_agent(name) for name in names]


def trades(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "trade"]


def position(*lots: tuple[str, int], players: int = 2, cash: int | None = None) -> Setup:
    setup = Setup(CLASSIC, players=players)
    for name, seat in lots:
        setup.give(name, seat)
    if cash is not None:
        for seat in range(players):
            setup.set_cash(seat, cash)
    return setup


def game_at(setup: Setup, agents: list[Any]) -> monopoly.Game:
    return monopoly.Game.from_state(CLASSIC, agents, setup.checked(), seed=1, max_turns=500)


def offers_until_accepted(game: monopoly.Game, seat: int, limit: int = 10) -> list[tuple[Trade, bool]]:
    """Ask ``seat`` to act and carry out its offers, until one is accepted or it offers nothing more."""
    made = []
    for _ in range(limit):
        version = game.owner_version
        action = game.agents[seat].act(game, seat)
        if type(action) is not Trade:
            break
        assert game.apply(seat, action)
        accepted = game.owner_version != version
        made.append((action, accepted))
        if accepted:
            break
    return made


@pytest.mark.parametrize(("ruleset", "names"), [
    ("classic", ("trader", "trader", "trader", "trader")),
    ("classic", ("trader", "greedy", "trader", "cautious")),
    ("uk", ("trader", "random", "trader")),
])
def test_every_offer_passes_the_validator(ruleset, names):
    rules = monopoly.load_ruleset(ruleset)
    offers = accepted = 0
    for seed in range(1, 9):
        events: list[dict[str, Any]] = []
        game = monopoly.Game(rules, bots(*names), seed=seed, max_turns=400, observers=[events.append])
        game.play()
        offers += sum(len(a.offers) for a in game.agents if isinstance(a, CheckedTrader))
        accepted += sum(1 for e in trades(events) if e["accepted"])
        # the engine refused none of them either
        assert not [e for e in events if e["type"] == "refused" and game.agents[e["seat"]].name == "trader"]
    assert offers > 0 and accepted > 0


def test_traders_complete_groups_by_trade_in_most_games():
    completed = 0
    for seed in range(1, 21):
        game = monopoly.Game(CLASSIC, bots("trader", "trader", "trader", "trader"), seed=seed, max_turns=300)
        whole: list[int] = []

        def watch(event: dict[str, Any], game: monopoly.Game = game, whole: list[int] = whole) -> None:
            if event["type"] == "property" and event["how"] == "trade":
                t = game.tables
                group = t.group_of[event["space"]]
                if t.buildable[group] and all(game.owner[m] == event["to"] for m in t.members[group]):
                    whole.append(group)

        game.observe(watch)
        game.play()
        completed += bool(whole)
    assert completed >= 15


def test_the_same_seed_gives_the_same_offers():
    def play() -> tuple[list[dict[str, Any]], list[list[tuple[int, Trade]]]]:
        events: list[dict[str, Any]] = []
        game = monopoly.Game(CLASSIC, bots("trader", "greedy", "trader", "trader"), seed=11, max_turns=500,
                             observers=[events.append])
        game.play()
        return events, [a.offers for a in game.agents if isinstance(a, CheckedTrader)]

    first, again = play(), play()
    assert first == again
    assert trades(first[0])


def test_the_same_games_in_any_number_of_worker_processes():
    players = ["trader", "trader", "greedy", "trader"]
    one = simulate(CLASSIC, players, games=6, seed=3, jobs=1, max_turns=300)
    two = simulate(CLASSIC, players, games=6, seed=3, jobs=2, max_turns=300)
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]


def test_a_saved_game_goes_on_with_the_same_offers():
    names = ["trader", "greedy", "trader", "trader"]  # greedy declines: offers refused, to be remembered
    straight: list[dict[str, Any]] = []
    monopoly.Game(CLASSIC, bots(*names), seed=5, max_turns=300, observers=[straight.append]).play()
    # resume after every turn of the first 120: each cut must go on exactly as the game did
    first: list[dict[str, Any]] = []
    game = monopoly.Game(CLASSIC, bots(*names), seed=5, max_turns=300, observers=[first.append])
    cuts_with_offers_made = 0
    while not game.finished and game.turn < 120:
        game.play_turn()
        saved = json.loads(json.dumps(game_to_json(game)))
        cuts_with_offers_made += any(state.get("asked") for state in saved["agent_states"])
        resumed = game_from_json(saved, CLASSIC, bots(*names))
        rest: list[dict[str, Any]] = []
        resumed.observe(rest.append)
        resumed.play()
        assert first + rest == straight, f"resumed after turn {game.turn}"
    assert cuts_with_offers_made > 10  # cuts that fell while offers made at that version were remembered
    assert any(e["type"] == "trade" and e["accepted"] for e in straight)


def test_one_trade_completes_a_group_when_one_can():
    # seat 0 has two of the light blues, seat 1 the third: seat 0 buys it
    setup = position(("Oriental Avenue", 0), ("Vermont Avenue", 0), ("Connecticut Avenue", 1))
    game = game_at(setup, [TraderAgent(), TraderAgent()])
    made = offers_until_accepted(game, 0)
    assert made and made[-1][1], made
    offer = made[-1][0]
    assert offer.get_spaces == (9,) and offer.give_cash > 0 and offer.partner == 1
    assert [game.owner[s] for s in (6, 8, 9)] == [0, 0, 0]
    assert game.cash == [1500 - offer.give_cash, 1500 + offer.give_cash]


def test_a_swap_completes_both_groups_at_once():
    # each seat has what the other lacks: one swap gives each a whole group
    setup = position(("Oriental Avenue", 0), ("Vermont Avenue", 0), ("St. James Place", 0),
                     ("Connecticut Avenue", 1), ("Tennessee Avenue", 1), ("New York Avenue", 1))
    game = game_at(setup, [TraderAgent(), TraderAgent()])
    made = offers_until_accepted(game, 0)
    assert len(made) == 1 and made[0][1]
    offer = made[0][0]
    assert offer.give_spaces == (16,) and offer.get_spaces == (9,)
    assert [game.owner[s] for s in (6, 8, 9)] == [0, 0, 0] and [game.owner[s] for s in (16, 18, 19)] == [1, 1, 1]


def test_no_offer_it_cannot_pay_for_and_none_that_completes_nothing():
    poor = position(("Oriental Avenue", 0), ("Vermont Avenue", 0), ("Connecticut Avenue", 1), cash=150)
    game = game_at(poor, [TraderAgent(), TraderAgent()])
    assert game.agents[0].act(game, 0) is None
    # two opponents share the rest of the group: no one trade completes it
    split = position(("St. Charles Place", 0), ("States Avenue", 1), ("Virginia Avenue", 2), players=3)
    game = game_at(split, [TraderAgent(), TraderAgent(), TraderAgent()])
    assert game.agents[0].act(game, 0) is None


def test_a_refused_offer_is_not_made_again_at_the_same_version():
    setup = position(("Oriental Avenue", 0), ("Vermont Avenue", 0), ("Connecticut Avenue", 1),
                     ("St. James Place", 0), ("Tennessee Avenue", 1), ("New York Avenue", 1))
    game = game_at(setup, [TraderAgent(), GreedyAgent()])  # greedy declines every trade
    made = offers_until_accepted(game, 0)
    assert len(made) >= 2 and not any(accepted for _, accepted in made)
    assert len(set(offer for offer, _ in made)) == len(made)  # never the same offer twice
    assert game.agents[0].act(game, 0) is None  # nothing left to offer at this version
    # a lot changing hands elsewhere is a new version: the offers may be made again
    game.give(5, 1)
    again = game.agents[0].act(game, 0)
    assert type(again) is Trade and again == made[0][0]


def test_the_plans_follow_the_streets_not_only_their_owners():
    # seat 0 has two pinks and seat 1 the third: the offer is for that pink
    setup = position(("St. Charles Place", 0), ("States Avenue", 1), ("Virginia Avenue", 0))
    game = game_at(setup, [TraderAgent(), GreedyAgent()])
    first = game.agents[0].act(game, 0)
    assert type(first) is Trade and first.get_spaces == (13,)
    # the pinks go elsewhere and the oranges come to be held alike (two for seat 0, the middle one for seat 1):
    # the same owners, another street, so another offer
    for space, seat in ((11, -1), (13, -1), (14, -1), (16, 0), (18, 1), (19, 0)):
        game.give(space, seat)
    second = game.agents[0].act(game, 0)
    assert type(second) is Trade and second.get_spaces == (18,)


def test_it_accepts_what_pays_it_and_declines_handing_over_a_group_cheaply():
    setup = position(("Oriental Avenue", 1), ("Vermont Avenue", 0), ("Connecticut Avenue", 0))
    game = game_at(setup, [GreedyAgent(), TraderAgent()])
    trader = game.agents[1]
    # Oriental completes seat 0's light blues: its printed price and a little more is not enough
    assert not trader.answer_trade(game, 1, Trade(0, 1, give_cash=150, get_spaces=(6,)))
    assert trader.answer_trade(game, 1, Trade(0, 1, give_cash=400, get_spaces=(6,)))
    # a railroad that completes nothing is sold for a fair premium
    game.give(5, 1)
    assert trader.answer_trade(game, 1, Trade(0, 1, give_cash=240, get_spaces=(5,)))
    assert not trader.answer_trade(game, 1, Trade(0, 1, give_cash=200, get_spaces=(5,)))


# ---------------------------------------------------------------------- the shortcuts, held to what they stand for


class FreshLookTrader(CheckedTrader):
    """A trader that, at every act, checks its bookkeeping kept across versions against a fresh trader's
    first look at the same position (the whole groups and the plans), and raises funds as it would."""

    def act(self, game: Any, seat: int) -> Any:
        action = super().act(game, seat)
        fresh = TraderAgent()
        fresh.setup(game, seat, None)
        fresh._sides, fresh._plans_found = {}, {}  # found afresh, not shared with the other traders
        fresh._done = set(self._done)
        fresh._update(game, seat)
        assert [s.group for s in self._groups] == [s.group for s in fresh._groups]
        assert plain(game, self._plans) == plain(game, fresh._plans) and self._least_cash == fresh._least_cash
        return action


def plain(game: Any, plans: list[Any]) -> list[Any]:
    """Plans with the getter of the lots they touch shown as those lots."""
    every = list(range(game.tables.size))
    return [(*plan[:3], plan[3](every), *plan[4:]) for plan in plans]


@pytest.mark.parametrize(("ruleset", "names"), [
    ("classic", ("trader", "trader", "trader", "trader")),
    ("uk", ("trader", "random", "trader")),
])
def test_the_bookkeeping_kept_across_versions_is_a_fresh_look(ruleset, names):
    rules = monopoly.load_ruleset(ruleset)
    for seed in range(1, 5):
        agents = [FreshLookTrader() if name == "trader" else monopoly.make_agent(name) for name in names]
        monopoly.Game(rules, agents, seed=seed, max_turns=300).play()


class LeavesDebtsToTheEngine(TraderAgent):
    def raise_funds(self, game: Any, seat: int, owed: int) -> Any:
        return None


@pytest.mark.parametrize("variants", [(), ("tournament",), ("short-game",)])
def test_the_trader_raises_debts_step_for_step_as_the_engine_would(variants):
    rules = monopoly.load_ruleset("classic", variants)
    raised = 0
    for seed in range(1, 7):
        logs = []
        for trader in (TraderAgent, LeavesDebtsToTheEngine):
            events: list[dict[str, Any]] = []
            monopoly.Game(rules, [trader() for _ in range(4)], seed=seed, max_turns=400,
                          observers=[events.append]).play()
            logs.append(events)
        assert logs[0] == logs[1]
        raised += sum(1 for e in logs[0] if e["type"] in ("mortgage", "sell"))
    assert raised > 50


def positions(rules: Any, seed: int, players: int = 4, turns: int = 400):
    """Positions of a seeded game of mixed bots, every few turns, each also with the bank short of houses, and
    with every seat richer (the bots build whatever they can pay for, between turns too: more cash is more to
    build)."""
    rng = random.Random(seed)
    names = [rng.choice(["trader", "greedy", "random", "cautious"]) for _ in range(players)]
    game = monopoly.Game(rules, [monopoly.make_agent(name) for name in names], seed=seed, max_turns=turns)
    while not game.finished and game.turn < turns:
        game.play_turn()
        if game.turn % 5:
            continue
        yield game
        houses, hotels = game.houses_left, game.hotels_left
        game.houses_left, game.hotels_left = rng.randint(0, 4), rng.randint(0, 1)
        yield game
        game.houses_left, game.hotels_left = houses, hotels
        cash = list(game.cash)
        game.cash[:] = [c + 700 for c in cash]
        yield game
        game.cash[:] = cash


def verdict(game: Any, seat: int, action: Any, raising: bool) -> str | None:
    try:
        verify(game, seat, action, raising=raising)
    except IllegalAction as refused:
        return str(refused)
    return None


@pytest.mark.parametrize(("ruleset", "variants"), [("classic", ()), ("classic", ("tournament",)), ("uk", ()),
                                                  ("classic", ("sell-lots-to-bank",))])
def test_legal_actions_are_exactly_what_the_validator_accepts(ruleset, variants):
    rules = monopoly.load_ruleset(ruleset, variants)
    uneven = attrs.evolve(rules.rules, building=attrs.evolve(rules.rules.building, even=False))
    seen = set()
    for seed in range(1, 4):
        for game in positions(rules, seed):
            for game_rules in (rules.rules, uneven):
                game.rules = game_rules
                for seat in (*range(game.players), -1):
                    for raising in (False, True):
                        every = [action(space) for space in game.tables.ownable
                                 for action in (Unmortgage, Build, SellBuilding, Mortgage, SellLot)]
                        accepted = [a for a in every if verdict(game, seat, a, raising) is None]
                        legal = legal_actions(game, seat, raising=raising)
                        assert legal == accepted
                        seen.update(type(a) for a in legal)
            game.rules = rules.rules
    assert seen == {Build, SellBuilding, Mortgage, Unmortgage} | ({SellLot} if rules.rules.sell_lots_to_bank else set())


def reference_cheapest_step(self: Any, p: int) -> Any:
    """The plain definition of the least-loss step (the engine's own code before the fast one): every building
    sale and every mortgage priced, the least loss first, then the larger step, then the lot first on the board."""
    t = self.tables
    owner, buildings, mortgaged = self.owner, self.buildings, self.mortgaged
    hotel, even = t.hotel_level, self.rules.building.even
    best: Any = None
    best_key: tuple[int, int, int] | None = None
    for group, members in enumerate(t.members):
        if not t.buildable[group] or owner[members[0]] != p:
            continue
        top = max(buildings[m] for m in members)
        if not top:
            continue
        value = self.sell_value(group)
        lost = t.house_cost[group] - value
        for s in members:
            level = buildings[s]
            if not level or (even and level < top):
                continue
            if level == hotel and self.houses_left < t.hph:
                sold = sum(buildings[m] - new for m, new in
                           shortage_sale(t, buildings, self.houses_left, s, even))
            else:
                sold = 1
            key = (sold * lost, -sold * value, s)
            if value > 0 and (best_key is None or key < best_key):
                best, best_key = SellBuilding(s), key
            if even:
                break  # every lot at the top of an even group sells alike: the first one stands for all
    for s in t.ownable:
        if owner[s] != p or mortgaged[s] or t.mortgage[s] <= 0:
            continue
        group = t.group_of[s]
        if group >= 0 and any(buildings[m] for m in t.members[group]):
            continue
        key = (self.unmortgage_cost(s) - t.mortgage[s], -t.mortgage[s], s)
        if best_key is None or key < best_key:
            best, best_key = Mortgage(s), key
    return best


@pytest.mark.parametrize(("ruleset", "variants"), [("classic", ()), ("classic", ("tournament",)), ("uk", ())])
def test_cheapest_step_is_the_plain_definitions_choice(ruleset, variants):
    rules = monopoly.load_ruleset(ruleset, variants)
    rng = random.Random(3)
    kinds = set()
    for seed in range(1, 4):
        for game in positions(rules, seed):
            base = game.rules
            odd = attrs.evolve(base, mortgage_interest=rng.choice([0.0, 0.1, 2.0]),
                               building=attrs.evolve(base.building, sell_back=rng.choice([0.0, 0.5, 1.5]),
                                                     even=rng.random() < 0.5))
            for game_rules in (base, odd):
                game.rules = game_rules
                for seat in range(game.players):
                    step = cheapest_step(game, seat)
                    assert step == reference_cheapest_step(game, seat)
                    kinds.add(type(step))
            game.rules = base
    assert kinds == {Mortgage, SellBuilding, type(None)}


@pytest.mark.parametrize(("ruleset", "variants"), [("classic", ()), ("uk", ())])
def test_a_step_finder_made_once_follows_a_whole_debt_as_cheapest_step_does(ruleset, variants):
    """A debt is raised step after step with one finder (its lots found once): at every step it gives the step
    cheapest_step finds afresh, down to the last (nothing left to sell or mortgage)."""
    rules = monopoly.load_ruleset(ruleset, variants)
    steps = 0
    for seed in range(1, 3):
        for game in positions(rules, seed):
            for seat in range(game.players):
                if game.bankrupt[seat]:
                    continue
                copy = game.copy()
                find = step_finder(copy, seat)
                while True:
                    step = find()
                    assert step == cheapest_step(copy, seat)
                    if step is None:
                        break
                    building.do(copy, seat, step)
                    steps += 1
    assert steps > 100


def _shortage_by_definition(game: Any, space: int) -> bool:
    """shortage_possible's bound worked out plainly from the position: two players or more own whole groups with
    room for the kind of building on ``space``, and the bank has fewer of that kind than the room of their whole
    groups, as far as each one's cash goes at its cheapest building there."""
    t = game.tables
    if not game.rules.building.shortage_auction:
        return False
    hotel = game.buildings[space] == t.hph
    left = game.hotels_left if hotel else game.houses_left
    room: dict[int, int] = {}
    cheapest: dict[int, int] = {}
    for group, members in t.buildable_groups:
        owners = {game.owner[s] for s in members}
        if len(owners) != 1 or -1 in owners:
            continue
        (o,) = owners
        free = sum(game.buildings[s] == t.hph for s in members) if hotel else \
            sum(t.hph - game.buildings[s] for s in members if game.buildings[s] < t.hph)
        if free:
            room[o] = room.get(o, 0) + free
            cheapest[o] = min(cheapest.get(o, t.house_cost[group]), t.house_cost[group])
    if len(room) < 2:
        return False
    wanted = sum(free if cheapest[o] <= 0 else min(free, game.cash[o] // cheapest[o]) for o, free in room.items())
    return left < wanted


class ShortageChecked(TraderAgent):
    """A trader that holds the engine's quick shortage check (its whole groups kept from one ownership version
    to the next, its bound from the cash alone) to the plain definition, for every lot, at every action asked."""

    checked = 0

    def act(self, game: Any, seat: int) -> Any:
        for s in game.tables.ownable:
            assert shortage_possible(game, s) == _shortage_by_definition(game, s), (game.turn, s)
        ShortageChecked.checked += 1
        return super().act(game, seat)


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_quick_shortage_check_is_the_plain_definition(seed):
    ShortageChecked.checked = 0
    game = monopoly.Game(CLASSIC, [ShortageChecked() for _ in range(4)], seed=seed, max_turns=400)
    game.play()
    assert ShortageChecked.checked > 50
    assert any(e[0] == BUILD for e in game.events)  # builds happened (the check ran where it matters)
