"""The engine plays the same games, event for event, as the code recorded in tests/data/same_games.json: 60 games
of each built-in bot on classic (tests/benchmarks/same_games.py; about 10 s). The file is a golden record of
what the code did, not of what the rules say: a change of the rules or of a bot's play changes it on purpose, and
is recorded again with ``python tests/benchmarks/same_games.py --write tests/data/same_games.json`` after a look
at which kinds and seeds moved (``--check``). A refactor (issue #31) must leave it as it is."""

from __future__ import annotations

import json

from .benchmarks import same_games


def test_the_same_games_as_the_recorded_ones():
    expected = json.loads(same_games.BASELINE.read_text(encoding="utf-8"))
    assert {key: expected[key] for key in same_games.SETTINGS} == same_games.SETTINGS
    found = same_games.play_all()
    assert same_games.differences(expected, found) == []
    assert found == expected


def test_a_changed_game_is_named_with_its_seed():
    expected = json.loads(same_games.BASELINE.read_text(encoding="utf-8"))
    changed = json.loads(json.dumps(expected))
    changed["kinds"]["random"]["sha256"] = "0" * 64
    changed["kinds"]["random"]["game_sha256"][6] = "0" * 16
    [line] = same_games.differences(expected, changed)
    assert line.startswith("random: differs in 1 of 60 games (seeds 7)")
