"""Whole games of every built-in ruleset end, deterministically, with money accounted for."""

from __future__ import annotations

import pytest

import monopoly
from monopoly.agents import make_agent
from monopoly.game import Game
from monopoly.game.log import replay_payments


def play(ruleset, names, seed, max_turns=400, observers=()):
    game = Game(ruleset, [make_agent(n) for n in names], seed=seed, max_turns=max_turns, observers=observers)
    return game, game.play()


@pytest.mark.parametrize("names", [["greedy"] * 4, ["random"] * 3, ["cautious", "trader", "greedy", "random"]])
def test_same_seed_same_game(names):
    ruleset = monopoly.load_ruleset("classic")
    first, second = [], []
    play(ruleset, names, 11, observers=[first.append])
    play(ruleset, names, 11, observers=[second.append])
    assert first == second and first[-1]["type"] == "game_end"


@pytest.mark.parametrize("variants", [[], ["short-game"], ["time-limit"], ["free-parking-jackpot", "tournament"],
                                      ["income-tax-2008"]])
def test_payments_replay_to_final_cash(variants):
    ruleset = monopoly.load_ruleset("classic", variants)
    for seed in range(5):
        events = []
        game, _result = play(ruleset, ["greedy", "cautious", "random", "trader"], seed, observers=[events.append])
        replayed = replay_payments(events)
        assert replayed == {"cash": game.cash, "pot": game.pot}
        end = events[-1]
        assert end["type"] == "game_end"
        assert [s["cash"] for s in sorted(end["standings"], key=lambda s: s["seat"])] == replayed["cash"]
