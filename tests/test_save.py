"""A saved game loads back to the identical game: continuing it gives the same events."""

from __future__ import annotations

import json

import pytest

import monopoly
from monopoly import SaveError, game_from_json, game_to_json


def agents(names):
    return [monopoly.make_agent(n) for n in names]


NAMES = ["trader", "random", "cautious", "greedy"]


@pytest.mark.parametrize("cut", [0, 1, 17, 60])
def test_resume_gives_the_same_game(cut):
    ruleset = monopoly.load_ruleset("classic", ["free-parking-jackpot"])
    straight = []
    monopoly.Game(ruleset, agents(NAMES), seed=5, max_turns=300, observers=[straight.append]).play()

    first = []
    game = monopoly.Game(ruleset, agents(NAMES), seed=5, max_turns=300, observers=[first.append])
    for _ in range(cut):
        game.play_turn()
    saved = json.loads(json.dumps(game_to_json(game)))
    resumed = game_from_json(saved, ruleset, agents(NAMES))
    rest = []
    resumed.observe(rest.append)
    resumed.play()
    assert first + rest == straight
    assert game_to_json(resumed)["state"]["cash"] == resumed.cash


def test_foreign_and_damaged_saves_are_refused():
    ruleset = monopoly.load_ruleset("classic")
    game = monopoly.Game(ruleset, agents(["greedy", "greedy"]), seed=1)
    game.play_turn()
    data = game_to_json(game)
    with pytest.raises(SaveError, match="not a monopoly save"):
        game_from_json({"hello": 1}, ruleset, agents(["greedy", "greedy"]))
    with pytest.raises(SaveError, match="ruleset"):
        game_from_json(data, monopoly.load_ruleset("uk"), agents(["greedy", "greedy"]))
    with pytest.raises(SaveError, match="played by"):
        game_from_json(data, ruleset, agents(["greedy", "random"]))
    broken = json.loads(json.dumps(data))
    del broken["state"]["cash"]
    with pytest.raises(SaveError, match="damaged"):
        game_from_json(broken, ruleset, agents(["greedy", "greedy"]))
    broken = json.loads(json.dumps(data))
    broken["state"]["owner"] = [0]
    with pytest.raises(SaveError):
        game_from_json(broken, ruleset, agents(["greedy", "greedy"]))
