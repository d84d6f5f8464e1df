"""A game records at most MAX_GAME_EVENTS events, whatever its ruleset's effects and triggers make: it then stops
(`end: event_limit`, no winner), its memory bounded and its log one that `replay` reads (docs/security.md)."""

from __future__ import annotations

import io

import monopoly
from monopoly.game import end
from monopoly.game import turn as turn_module
from monopoly.game.events import GAME_END, PAYMENT, TURN
from monopoly.game.log import MAX_LOG_LINES, EventLog, event_problem, read_log

from .conftest import DATA

CHATTY = DATA / "hostile" / "volume" / "chatty.yaml"


def _chatty_game(players: int = 4, seed: int = 1, **kwargs):
    ruleset = monopoly.load_ruleset("classic", variants=[str(CHATTY)])
    return monopoly.Game(ruleset, [monopoly.make_agent("greedy") for _ in range(players)], seed=seed, **kwargs)


def test_the_limit_leaves_room_in_a_log():
    assert monopoly.MAX_GAME_EVENTS == 90_000
    assert monopoly.MAX_GAME_EVENTS + 1 < MAX_LOG_LINES  # the game_end and what one step records after the count
    assert monopoly.TURN_CEILING * 8.3 < monopoly.MAX_GAME_EVENTS  # the bots on classic: 6 to 8.3 events a turn


def test_a_chatty_ruleset_stops_at_the_limit_in_the_middle_of_an_effect():
    out = io.StringIO()
    game = _chatty_game(observers=[EventLog(out)])
    result = game.play()
    assert (result.end, result.winner) == ("event_limit", None)
    assert len(game.events) == monopoly.MAX_GAME_EVENTS + 1  # every step of an effect looks: it stops right there
    last, before = game.events[-1], game.events[-2]
    assert last[0] == GAME_END and last[1] == "event_limit" and last[2] is None
    assert before[0] == PAYMENT and before[4].startswith("t")  # a trigger's collect, cut off mid-way
    assert result.turns < 200
    lines = out.getvalue().splitlines()
    assert len(lines) == len(game.events) < MAX_LOG_LINES
    events = read_log(io.StringIO(out.getvalue()), validate=False)
    assert event_problem(events[-1]) is None and events[-1]["end"] == "event_limit"
    assert monopoly.GameState.of(game).problems(game.ruleset) == []


def test_the_stop_is_deterministic_and_replays():
    out = io.StringIO()
    first, second = _chatty_game(seed=3, observers=[EventLog(out)]), _chatty_game(seed=3)
    assert first.play() == second.play()
    assert first.events == second.events
    events = read_log(io.StringIO(out.getvalue()), validate=False)
    check = monopoly.replay_log(events, first.ruleset)
    assert check.ok, check
    replayed = monopoly.Replay.of_records(first.events, first.ruleset)
    assert (replayed.cash, replayed.end_reason, replayed.finished) == (first.cash, "event_limit", True)


def test_between_rounds_the_count_is_looked_at_too(monkeypatch):
    # A game whose rules make no events of their own (classic) stops at the first turn after the limit; with the
    # real limit that takes a ruleset or agents no one plays, so the limit is lowered here.
    monkeypatch.setattr(end, "MAX_GAME_EVENTS", 500)
    monkeypatch.setattr(turn_module, "MAX_GAME_EVENTS", 500)  # the turn loop looks between rounds
    game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("greedy") for _ in range(3)],
                         seed=2)
    result = game.play()
    assert result.end == "event_limit"
    assert 500 <= len(game.events) - 1 < 560  # looked at as each round begins: at most a round past the limit
    assert game.events[-2][0] != TURN  # stopped between turns: no turn begun and left empty


def test_simulate_counts_the_games_the_limit_stopped(runner, cli, tmp_path):
    result = runner.invoke(cli, ["simulate", "classic", "--variant", str(CHATTY), "--games", "2", "--seed", "5",
                                 "--log", str(tmp_path / "logs")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Ends: event_limit 2 (100.0%)" in result.output
    for log in sorted((tmp_path / "logs").iterdir()):
        with open(log, encoding="utf-8") as handle:
            assert sum(1 for _ in handle) == monopoly.MAX_GAME_EVENTS + 1


def test_play_tells_why_the_game_stopped(runner, cli):
    result = runner.invoke(cli, ["play", "classic", "--variant", str(CHATTY), "--players", "greedy,greedy",
                                 "--seed", "1"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "the most events a game records" in result.output
    assert "No winner." in result.output


def test_the_validator_warns_of_triggers_that_make_events_by_the_thousand(runner, cli):
    result = runner.invoke(cli, ["validate", "classic", "--variant", str(CHATTY)], catch_exceptions=False)
    assert result.exit_code == 0  # valid: the game stops at the limit
    assert "chatty.yaml:6:34: warning: the triggers on roll make up to 1,600 events each time (with 8 players)" \
        in result.output
    assert "0 errors, 1 warning" in result.output


def test_every_player_if_and_choose_count_their_most(tmp_path, runner, cli):
    # 2 + 8 x 3 (every player, the larger branch) + 2 (the larger alternative), 40 such triggers: 1,120.
    effect = ("collect 1; pay 1; every player: (if doubles then (collect 1; collect 1; collect 1) else collect 1); "
              "(choose: collect 1; collect 1 | pay 1)")
    triggers = "\n".join(f'  - {{on: turn_end, effect: "{effect}"}}' for _ in range(40))
    variant = tmp_path / "forty.yaml"
    head = "id: forty\nkind: variant\nname: Forty\ndescription: forty triggers\ntriggers:\n"
    variant.write_text(head + triggers + "\n")
    result = runner.invoke(cli, ["validate", "classic", "--variant", str(variant)], catch_exceptions=False)
    assert "the triggers on turn_end make up to 1,120 events each time" in result.output
    variant.write_text(head + "\n".join(triggers.splitlines()[:35]) + "\n")
    result = runner.invoke(cli, ["validate", "classic", "--variant", str(variant)], catch_exceptions=False)
    assert "warning" not in result.output, result.output  # 35 x 28 = 980: under the bound
