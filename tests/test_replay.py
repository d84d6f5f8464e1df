"""`monopoly replay` and the recorder: logs told again, and played again event for event."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.agents import RecordingAgent, ReplayAgent, ReplayMismatch, make_agent
from monopoly.agents import recorder as recorder_module
from monopoly.agents.recorder import decisions_by_seat, decode_answer, encode_answer, replay_log
from monopoly.cli.main import cli
from monopoly.game import Build, Game, Mortgage, SellBuilding, Trade, Unmortgage
from monopoly.game.log import EventLog, read_log

from .conftest import DATA


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def simulate_logs(tmp_path: Path, *args: str) -> list[Path]:
    folder = tmp_path / "logs"
    result = run("simulate", *args, "--log", str(folder))
    assert result.exit_code == 0, result.output
    return sorted(folder.glob("game-*.jsonl"))


def write_lines(path: Path, events: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events), encoding="utf-8")


@pytest.fixture(scope="module")
def classic_log(tmp_path_factory) -> Path:
    return simulate_logs(tmp_path_factory.mktemp("sim"), "classic", "--games", "1", "--seed", "5",
                         "--players", "greedy,cautious,random,trader", "--max-turns", "300")[0]


# ---------------------------------------------------------------------- --verify


@pytest.mark.parametrize("setup", [
    ("classic", "--players", "greedy,cautious,random,trader"),
    ("classic", "--variant", "free-parking-jackpot", "--variant", "tournament", "--players", "trader,random"),
    ("uk", "--variant", "short-game", "--players", "random,greedy,cautious"),
    ("classic", "--variant", "income-tax-2008", "--players", "cautious,random"),
], ids=["classic", "jackpot+tournament", "uk+short", "tax-2008"])
def test_verify_passes_on_logs_from_simulate(tmp_path, setup):
    for log in simulate_logs(tmp_path, *setup, "--games", "3", "--seed", "11", "--max-turns", "250"):
        result = run("replay", str(log), "--verify")
        assert result.exit_code == 0, result.output
        assert "replay identically" in result.output


def test_verify_reports_the_first_difference_of_a_doctored_log(tmp_path, classic_log):
    events = read_log(classic_log)
    target = next(i for i, e in enumerate(events) if e["type"] == "payment" and e["reason"] == "rent")
    events[target]["amount"] += 1
    doctored = tmp_path / "doctored.jsonl"
    write_lines(doctored, events)
    result = run("replay", str(doctored), "--verify")
    assert result.exit_code == 1
    number = target + 1
    assert f"event {number} differs" in result.output
    expected = json.dumps(events[target], separators=(",", ":"))
    events[target]["amount"] -= 1
    got = json.dumps(events[target], separators=(",", ":"))
    assert f"  expected: {expected}" in result.output
    assert f"  got:      {got}" in result.output


def test_verify_reports_doctored_dice(tmp_path, classic_log):
    events = read_log(classic_log)
    target = [i for i, e in enumerate(events) if e["type"] == "roll"][10]
    events[target]["dice"] = [6, 6] if events[target]["dice"] != [6, 6] else [1, 2]
    doctored = tmp_path / "dice.jsonl"
    write_lines(doctored, events)
    result = run("replay", str(doctored), "--verify")
    assert result.exit_code == 1 and f"event {target + 1} differs" in result.output


def test_verify_reports_a_log_that_goes_on_after_the_game(tmp_path, classic_log):
    events = read_log(classic_log)
    extra = tmp_path / "extra.jsonl"
    write_lines(extra, [*events, events[-1]])
    result = run("replay", str(extra), "--verify")
    assert result.exit_code == 1
    assert f"event {len(events) + 1} differs" in result.output and "ended before the log" in result.output


def test_verify_checks_an_unfinished_log_as_far_as_it_goes(tmp_path, classic_log):
    events = read_log(classic_log)
    cut = tmp_path / "cut.jsonl"
    half = max(i for i, e in enumerate(events[: len(events) // 2]) if e["type"] == "turn")  # between two turns
    write_lines(cut, events[:half])
    result = run("replay", str(cut), "--verify")
    assert result.exit_code == 0, result.output
    assert f"the {half} events of this unfinished game replay identically" in result.output


def test_verify_a_custom_ruleset_needs_its_file(tmp_path):
    ruleset = str(DATA / "good" / "mini.yaml")
    log = simulate_logs(tmp_path, ruleset, "--games", "1", "--players", "greedy,random", "--max-turns", "100")[0]
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 2 and "--ruleset PATH" in result.output
    result = run("replay", str(log), "--verify", "--ruleset", ruleset)
    assert result.exit_code == 0, result.output
    wrong = run("replay", str(log), "--verify", "--ruleset", "classic")
    assert wrong.exit_code == 1 and "the log is a game of 'mini'" in wrong.output
    told = run("replay", str(log))  # without its ruleset, a log is still told, spaces by number
    assert told.exit_code == 0 and "space" in told.output


def test_verify_a_log_with_a_variant_file_says_to_give_the_variant(tmp_path):
    variant = tmp_path / "flat.yaml"
    variant.write_text("id: flat\nkind: variant\nname: Flat\ndescription: Flat rents.\n"
                       "kinds: {railroad: {rent: \"25\"}}\n", encoding="utf-8")
    log = simulate_logs(tmp_path, "classic", "--variant", str(variant), "--games", "1", "--players",
                        "greedy,random", "--max-turns", "60")[0]
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 2
    assert "the variant 'flat' is not built in: give its file with --variant PATH (and --ruleset classic)" in " ".join(
        result.output.split())
    assert run("replay", str(log), "--verify", "--ruleset", "classic", "--variant", str(variant)).exit_code == 0


def test_verify_a_play_log_with_a_doctored_decision(tmp_path):
    log = tmp_path / "play.jsonl"
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "you,greedy", "--seed", "3", "--max-turns",
                                      "30", "--log", str(log)], input="\n" * 200)
    assert result.exit_code == 0, result.output
    assert run("replay", str(log), "--verify").exit_code == 0
    events = read_log(log)
    decision = next(i for i, e in enumerate(events) if e["type"] == "decision" and e["kind"] == "buy")
    events[decision]["answer"] = False  # the person said no instead
    write_lines(log, events)
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1
    assert f"event {decision + 2} differs" in result.output  # right after the decision: no buy, an auction


# ---------------------------------------------------------------------- telling a log


def test_replay_until_a_turn_shows_where_everyone_stands(classic_log):
    result = run("replay", str(classic_log), "--until", "12")
    assert result.exit_code == 0
    assert "--- Turn 12:" in result.output and "--- Turn 13:" not in result.output
    assert "Stopped after turn 12." in result.output
    assert "greedy: $" in result.output and "trader: $" in result.output


def test_replay_tells_the_whole_game(classic_log):
    result = run("replay", str(classic_log))
    assert result.exit_code == 0
    assert result.output.startswith("New game: Monopoly (US, classic) (seed 5, at most 300 turns).")
    assert "Game over after" in result.output


@pytest.mark.parametrize(("content", "message"), [
    ("not json\n", ":1: not valid JSON"),
    ('{"type":"turn","turn":1,"round":0,"seat":0}\n', "does not start with a game_start"),
    ('{"type":"teleport"}\n', "unknown event type 'teleport'"),
])
def test_a_bad_log_is_a_clear_error(tmp_path, content, message):
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_a_missing_log_is_a_usage_error(tmp_path):
    result = run("replay", str(tmp_path / "nothing.jsonl"))
    assert result.exit_code == 2


# ---------------------------------------------------------------------- the recorder


@pytest.mark.parametrize("answer", [
    True, False, 0, 120, "pay", None, Build(3), SellBuilding(39), Mortgage(5), Unmortgage(12),
    Trade(0, 2, give_spaces=(1, 3), give_cash=50, give_cards=(("chance", 8),), get_spaces=(39,), get_cash=7,
          get_cards=(("community_chest", 4),)),
])
def test_answers_round_trip_through_json(answer):
    data = json.loads(json.dumps(encode_answer(answer)))
    assert decode_answer(data) == answer
    assert type(decode_answer(data)) is type(answer)


def test_recorded_decisions_replay_the_game_exactly():
    ruleset = monopoly.load_ruleset("classic", ["free-parking-jackpot"])
    events: list[dict[str, Any]] = []
    seats = [RecordingAgent(make_agent("random")), make_agent("trader"), RecordingAgent(make_agent("random"))]
    Game(ruleset, seats, seed=21, max_turns=200, observers=[events.append]).play()
    recorded = decisions_by_seat(events)
    assert set(recorded) == {0, 2}
    again = replay_log(json.loads(json.dumps(events)), ruleset)
    assert again.ok and again.complete and again.events == len(events)


def test_a_replayed_seat_asked_something_else_says_so():
    agent = ReplayAgent([("buy", True), ("act", None)], "human")
    assert agent.buy(None, 0, 3) is True  # type: ignore[arg-type]
    with pytest.raises(ReplayMismatch, match="asks seat 0 to decide 'bid' where decision 2 of the seat was 'act'"):
        agent.bid(None, 0, ("space", 3), 0, None)  # type: ignore[arg-type]
    assert agent.act(None, 0) is None  # type: ignore[arg-type]
    with pytest.raises(ReplayMismatch, match="after its 2 recorded decisions"):
        agent.act(None, 0)  # type: ignore[arg-type]


def test_a_game_stopped_by_the_clock_replays(tmp_path):
    ruleset = monopoly.load_ruleset("classic", ["time-limit"])
    path = tmp_path / "clock.jsonl"
    with EventLog(path) as log:
        game = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=8, observers=[log])
        for _ in range(6):
            game.play_turn()
        assert game.advance() is not None and game.turn == 7  # turn 7 waits for a decision
        game.time_up()  # the clock runs out during turn 7
        game.play_turn()
    assert game.finished and game.end_reason == "time" and game.turn == 7
    result = run("replay", str(path), "--verify")
    assert result.exit_code == 0, result.output


def test_the_clock_is_told_between_turns_or_during_one_and_ends_the_game_at_the_end_of_that_turn(tmp_path):
    ruleset = monopoly.load_ruleset("classic", ["time-limit"])
    game = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=8)
    for _ in range(3):
        game.play_turn()
    game.time_up()  # between turns: over at once
    assert game.finished and game.end_reason == "time" and game.turn == 3
    with pytest.raises(monopoly.GameOver):
        game.time_up()
    path = tmp_path / "clock.jsonl"
    with EventLog(path) as log:
        game = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=8, observers=[log])
        game.play_turn()
        game.time_up()
    assert run("replay", str(path), "--verify").exit_code == 0
    with pytest.raises(ValueError, match="no time limit"):
        Game(monopoly.load_ruleset("classic"), [make_agent("greedy"), make_agent("cautious")], seed=8).time_up()


def test_a_copy_after_the_clock_ran_out_mid_turn_ends_as_the_original():
    ruleset = monopoly.load_ruleset("classic", ["time-limit"])
    game = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=8)
    while game.advance() is not None and game.turn < 5:
        game.respond(None if game.pending.kind in ("act", "raise_funds") else
                     monopoly.game.decisions.legal_answers(game, game.pending)[0])
    game.time_up()
    copy = game.copy()
    again = monopoly.Game.from_state(ruleset, [make_agent("greedy"), make_agent("cautious")], game.state())
    for g in (game, copy, again):
        g.seat_agents([make_agent("greedy"), make_agent("cautious")])
        g.play_turn()
    assert game.state() == copy.state() == again.state() and game.end_reason == "time" and game.turn == 5


def test_recorder_examples_run():
    failures, tried = doctest.testmod(recorder_module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
