"""The trader's trade search (engine/agents/bots.py): what it offers, found cheaply from the state.

Behaviour only, no timing (tests/benchmarks/bench_engine.py measures the speed): every offer passes the
engine's validator, the same seed gives the same offers (in any number of worker processes, and across a
save), one trade completes a group when one can, and an offer refused is not made again at the same
ownership version.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import monopoly
from monopoly import game_from_json, game_to_json
from monopoly.agents import GreedyAgent, TraderAgent
from monopoly.game.actions import Trade, verify
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
    monopoly.Game(CLASSIC, bots(*names), seed=6, max_turns=300, observers=[straight.append]).play()
    # resume after every turn of the first 120: each cut must go on exactly as the game did
    first: list[dict[str, Any]] = []
    game = monopoly.Game(CLASSIC, bots(*names), seed=6, max_turns=300, observers=[first.append])
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
