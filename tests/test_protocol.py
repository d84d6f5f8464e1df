"""The agents protocol (issue 29, item 5-7): an agent in another process, in any language, speaking JSON lines
over its standard input and output (docs/protocol.md); `--players exec:COMMAND`; `monopoly agent-test`; the
reference client in examples/ that does not import monopoly; the text view (`monopoly.describe`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

import monopoly
from monopoly import AgentProcessError, ProcessAgent
from monopoly.agents.protocol import MAX_LINE_BYTES, PROTOCOL_VERSION, legal, public_event, public_state
from monopoly.cli.main import cli
from monopoly.game.decisions import Decision

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = ROOT / "tests" / "data" / "agents" / "scripted.py"
CLIENT = ROOT / "examples" / "protocol_bot.py"
SCHEMA = json.loads((ROOT / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
CLASSIC = monopoly.load_ruleset("classic")


def command(mode: str = "good") -> str:
    return shlex.join([sys.executable, str(SCRIPTED), mode])


def client() -> str:
    return shlex.join([sys.executable, str(CLIENT)])


class Tap(ProcessAgent):
    """A ProcessAgent that keeps every line it sends and reads, to check them against the schema."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sent: list[dict[str, Any]] = []

    def _send(self, seat: int, kind: str, message: dict[str, Any]) -> None:
        self.sent.append(json.loads(json.dumps(message)))
        super()._send(seat, kind, message)


def game_with(agent: Any, seed: int = 1, max_turns: int = 60, seats: int = 3) -> monopoly.Game:
    return monopoly.Game(CLASSIC, [agent] + [monopoly.make_agent("greedy") for _ in range(seats - 1)], seed=seed,
                         max_turns=max_turns)


def validate(message: dict[str, Any], definition: str) -> None:
    schema = {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{definition}"}
    jsonschema.validate(message, schema)


# ---------------------------------------------------------------------- the messages


def test_a_game_against_the_reference_client_follows_the_schema_and_hides_the_dice_and_the_decks():
    agent = Tap(client())
    game = game_with(agent)
    try:
        result = game.play()
    finally:
        agent.close()
    assert result.turns > 0 and agent.told_name == "protocol-greedy"
    assert agent.stats["decisions"] > 20 and agent.stats["refused"] == {}
    hello, *rest = agent.sent
    validate(hello, "engine_hello")
    assert hello["protocol"] == PROTOCOL_VERSION and hello["seat"] == 0
    assert hello["ruleset"]["id"] == "classic" and hello["ruleset"]["hash"].startswith("sha256:")
    assert hello["ruleset"]["resolved"]["board"][39]["name"] == "Boardwalk"
    decisions = [m for m in rest if m["type"] == "decision"]
    kinds = {m["kind"] for m in decisions}
    assert {"buy", "act", "between"} <= kinds
    for message in rest:
        validate(message, message["type"])
    for message in decisions:
        assert "rng" not in message["state"] and "decks" not in message["state"]
        assert all("seed" not in e and "decks" not in e for e in message["events"])
    # every event of the game reached the agent once, in order, before its decisions
    events = [e for m in decisions for e in m["events"]]
    assert events == [public_event(r) for r in game.events[:len(events)]]


def test_the_legal_answers_of_the_actions_are_the_engines():
    game = monopoly.Game(CLASSIC, players=3, seed=1)
    game.start()
    for s in (1, 3, 5):
        game.give(s, 1)
    decision = Decision(1, "between", (1,))
    shown = legal(game, decision)
    assert shown["done"] is None
    assert {"action": "build", "space": 1} in shown["actions"] and {"action": "mortgage", "space": 5} in \
        shown["actions"]
    assert [t["partner"] for t in shown["trades"]] == [0, 2]
    assert shown["trades"][0]["give_spaces"] == [1, 3, 5] and shown["trades"][0]["get_cash_max"] == 1500
    assert legal(game, Decision(0, "bid", (("space", 3), 10, 1))) == {"pass": 0, "min": 11, "max": 1500}
    assert public_state(game)["owner"][1] == 1


# ---------------------------------------------------------------------- refused lines and failures


@pytest.mark.parametrize(("mode", "code"), [("bad-json", "bad_json"), ("too-long", "too_long"),
                                            ("illegal-once", "illegal")])
def test_a_refused_line_gets_the_reason_and_one_more_try_and_changes_nothing(mode, code):
    agent = Tap(command(mode))
    straight = game_with(monopoly.ProcessAgent(command("good")))
    game = game_with(agent)
    try:
        game.play()
        straight.play()
    finally:
        agent.close()
        straight.agents[0].close()
    acks = [m for m in agent.sent if m["type"] == "ack" and not m["ok"]]
    assert [(m["code"], m["retry"]) for m in acks] == [(code, True)]
    assert acks[0]["reason"]
    assert game.events[1:] == straight.events[1:]  # the same game as the agent that never erred


def test_two_illegal_answers_take_the_safe_answer_and_the_log_says_so():
    agent = Tap(command("illegal"))
    game = game_with(agent)
    try:
        game.play()
    finally:
        agent.close()
    acks = [(m["code"], m["retry"]) for m in agent.sent if m["type"] == "ack" and not m["ok"]]
    assert acks == [("illegal", True), ("illegal", False)]
    refused = [monopoly.game.events.to_dict(r) for r in game.events if r[0] == monopoly.game.events.REFUSED]
    assert len(refused) == 1 and refused[0]["seat"] == 0


def test_a_late_answer_to_another_decision_is_refused_without_costing_a_try():
    agent = Tap(command("wrong-id"))
    game = game_with(agent)
    try:
        game.play()
    finally:
        agent.close()
    assert [m["code"] for m in agent.sent if m["type"] == "ack" and not m["ok"]] == ["wrong_id"]
    assert agent.stats["refused"] == {"wrong_id": 1}


@pytest.mark.parametrize(("mode", "words"), [("die", "the process ended (exit status 3)"),
                                             ("silent", "no answer within 0.5 s"),
                                             ("flood", ""), ("deaf", "")])
def test_a_dead_silent_or_flooding_agent_ends_the_game_naming_the_seat_and_the_decision(mode, words):
    agent = ProcessAgent(command(mode), timeout=0.5)
    with pytest.raises(AgentProcessError) as raised:
        game = game_with(agent)
        game.play()
    agent.close()
    assert raised.value.seat == 0
    assert words in raised.value.reason  # a flood ends in a refusal, then no reading: either way an error
    assert raised.value.kind in ("hello", "buy", "act", "between", "bid", "jail", "choose")


def test_an_agent_of_another_protocol_version_is_refused_at_its_hello():
    with pytest.raises(AgentProcessError, match="speaks protocol 1, not 99"):
        game_with(ProcessAgent(command("old")))


def test_a_command_that_cannot_start_is_an_agent_error():
    with pytest.raises(AgentProcessError, match="cannot start"):
        game_with(ProcessAgent("/nonexistent/agent-program"))


def test_no_name_read_from_a_file_runs_a_command():
    """Saves and logs name their agents; `make_agent`, which builds agents from those names, never starts one."""
    with pytest.raises(ValueError):
        monopoly.make_agent("exec:python -c 'open(\"/tmp/x\",\"w\")'")


# ---------------------------------------------------------------------- the command line


def test_simulate_with_an_exec_seat_writes_logs_that_replay(tmp_path):
    runner = CliRunner()
    logs = tmp_path / "logs"
    result = runner.invoke(cli, ["simulate", "classic", "--players", f"exec:{client()},greedy", "--games", "4",
                                 "--log", str(logs)])
    assert result.exit_code == 0, result.output
    assert "exec:" in result.output
    for log in sorted(logs.glob("*.jsonl")):
        verified = runner.invoke(cli, ["replay", str(log), "--verify"])
        assert verified.exit_code == 0, verified.output
        assert "replay identically" in verified.output


def test_simulate_with_a_failing_exec_seat_exits_1_naming_the_seat_and_decision():
    result = CliRunner().invoke(cli, ["simulate", "classic", "--players", f"exec:{command('die')},greedy",
                                      "--games", "2"])
    assert result.exit_code == 1
    message = result.output + str(result.exception or "")
    assert "seat 0" in message and "the process ended" in message


def test_compare_takes_an_exec_seat():
    result = CliRunner().invoke(cli, ["compare", "classic", "--variant", "no-auctions", "--players",
                                      f"exec:{client()},greedy", "--games", "2"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("players", ["exec:", "exec:'unclosed", "exec:/no/such/program"])
def test_a_bad_exec_seat_is_a_usage_error(players):
    result = CliRunner().invoke(cli, ["simulate", "classic", "--players", f"{players},greedy", "--games", "1"])
    assert result.exit_code == 2 and "exec:" in result.output and "Traceback" not in result.output


def test_agent_test_passes_the_reference_client_and_reports_timings():
    result = CliRunner().invoke(cli, ["agent-test", client(), "--games", "2", "--max-turns", "60"])
    assert result.exit_code == 0, result.output
    assert "it says it is protocol-greedy" in result.output and "refused lines: none" in result.output
    assert "mean ms" in result.output and "ok: the agent speaks the protocol" in result.output


@pytest.mark.parametrize(("mode", "code", "shown"), [("bad-json", 1, "bad_json 1"), ("illegal-once", 0, "illegal 1"),
                                                     ("die", 1, "FAILED")])
def test_agent_test_fails_on_a_protocol_error_and_reports_illegal_answers(mode, code, shown):
    result = CliRunner().invoke(cli, ["agent-test", command(mode), "--games", "1", "--max-turns", "40",
                                      "--agent-timeout", "5"])
    assert result.exit_code == code, result.output
    assert shown in result.output


def test_agent_test_json_report():
    result = CliRunner().invoke(cli, ["agent-test", client(), "--games", "1", "--max-turns", "30", "--format",
                                      "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and report["protocol_errors"] == 0 and report["decisions"] > 0


# ---------------------------------------------------------------------- the text view


def test_an_agent_on_the_text_view_answers_by_number():
    agent = Tap(command("text"))
    game = game_with(agent)
    try:
        game.play()
    finally:
        agent.close()
    decisions = [m for m in agent.sent if m["type"] == "decision"]
    assert decisions and all("text" in m and "state" not in m for m in decisions)
    assert all("Answers:\n  1. " in m["text"] for m in decisions)
    assert agent.stats["refused"] == {}


def test_describe_numbers_the_legal_answers():
    game = monopoly.Game(CLASSIC, players=2, seed=1)
    game.fix_dice([(1, 2)])
    assert "Decision" not in monopoly.describe(game, 0)  # nothing asked yet: describing moves nothing
    game.advance()
    text = monopoly.describe(game, 0)
    assert "Decision: buy Baltic Avenue" in text and "  1. yes\n  2. no" in text
    game.answer(False)  # an auction: the pass and a few bids
    text = monopoly.describe(game, 0)
    assert "an auction of Baltic Avenue" in text and "1. drop out (0)" in text and "bid 60" in text
    assert "Decision" not in monopoly.describe(game, 1) or game.pending.seat == 1


def test_the_protocol_limits_are_the_documented_ones():
    assert MAX_LINE_BYTES == 1 << 20
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "1 MiB" in doc and f"protocol version {PROTOCOL_VERSION}" in doc.lower()


def test_play_seats_an_exec_agent_and_its_log_replays(tmp_path):
    log, save = tmp_path / "game.jsonl", tmp_path / "game.save"
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "classic", "--players", f"you,exec:{client()}", "--seed", "3", "--max-turns",
                                 "6", "--log", str(log), "--save", str(save)], input="n\n" + "\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Game over after 6 turns" in result.output
    verified = runner.invoke(cli, ["replay", str(log), "--verify"])
    assert verified.exit_code == 0 and "replay identically" in verified.output, verified.output
    resumed = runner.invoke(cli, ["play", "--resume", str(save)])
    assert resumed.exit_code == 1
    assert "a save never starts a program" in resumed.output


# ---------------------------------------------------------------------- found by a review of the protocol


def test_an_agent_that_stops_reading_fails_the_game_and_closing_it_does_not_hang():
    import time

    agent = ProcessAgent(command("stuffed"), timeout=0.5)
    started = time.monotonic()
    with pytest.raises(AgentProcessError):
        game_with(agent, max_turns=200).play()
    agent.close()
    assert time.monotonic() - started < 30


def test_closing_an_agent_ends_what_it_started(tmp_path, monkeypatch):
    import os
    import time

    pid_file = tmp_path / "child.pid"
    monkeypatch.setenv("FORK_PID_FILE", str(pid_file))
    agent = ProcessAgent(command("fork"))
    game_with(agent, max_turns=5).play()
    agent.close()
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail("the agent's child still runs after close()")


def test_a_string_that_is_not_text_is_refused_and_the_log_stays_whole(tmp_path):
    agent = Tap(command("surrogate"))
    game = game_with(agent)
    try:
        game.play()
    finally:
        agent.close()
    assert [m["code"] for m in agent.sent if m["type"] == "ack" and not m["ok"]] == ["bad_json"]


def test_an_answer_not_written_as_the_protocol_writes_it_is_refused():
    from monopoly.agents.protocol import BadLine, answer_of

    decision = Decision(0, "act", ())
    good = {"action": "trade", "proposer": 0, "partner": 1, "give_spaces": [3], "give_cash": 0, "give_cards": [],
            "get_spaces": [], "get_cash": 150, "get_cards": []}
    assert answer_of({"type": "answer", "id": 1, "answer": good}, decision, 1, None).get_cash == 150
    for bad in ({**good, "give_cards": [["chance", 1e999]]}, {**good, "give_cards": [["chance", 1.9]]},
                {**good, "extra": 1}, {"clock": "time up"}):
        with pytest.raises(BadLine):
            answer_of({"type": "answer", "id": 1, "answer": bad}, decision, 1, None)


def test_an_agent_object_plays_game_after_game_without_the_last_ones_lines():
    agent = ProcessAgent(command("chatty-end"))
    for seed in (1, 2):
        game_with(agent, seed=seed, max_turns=20).play()
        agent.close()
    assert agent.stats["refused"] == {}


def test_shuffles_reach_agents_without_the_cards_order():
    ruleset = monopoly.load_ruleset("classic", ["shuffle-every-draw"])
    game = monopoly.Game(ruleset, [monopoly.make_agent("greedy") for _ in range(3)], seed=2, max_turns=80)
    game.play()
    shuffles = [public_event(r) for r in game.events if monopoly.game.events.to_dict(r)["type"] == "shuffle"]
    assert shuffles and all("order" not in event for event in shuffles)


def test_play_with_an_exec_seat_that_dies_exits_1_naming_the_seat():
    result = CliRunner().invoke(cli, ["play", "classic", "--players", f"you,exec:{command('die')}", "--seed", "3",
                                      "--max-turns", "20"], input="n\n" + "\n" * 40)
    assert result.exit_code == 1, result.output
    assert "seat 1's agent failed" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1"])
def test_a_timeout_that_is_no_number_of_seconds_is_a_usage_error(seconds):
    result = CliRunner().invoke(cli, ["agent-test", client(), "--agent-timeout", seconds])
    assert result.exit_code == 2 and "--agent-timeout" in result.output
