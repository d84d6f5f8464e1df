"""`monopoly replay --verify` on logs without `game_end`: stopped part way, or damaged?

The replay plays on past the last logged event. A log passes as unfinished when the game goes
on with a new turn (it stops between turns) or by asking a person a decision the log does not
have (they quit there). It is damaged (exit 1) when the game's next event is `game_end` (cut
off just before the end) or any other event (cut in the middle of a turn).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.agents import make_agent
from monopoly.agents.recorder import replay_log
from monopoly.cli.main import cli
from monopoly.game import Game
from monopoly.game.log import EventLog, read_log

CUT_OFF = "the log stops before the game_end event the game reaches (cut off?)"
#: A game with a person: `monopoly play` through stdin, every question answered with Enter.
PLAY = ["play", "classic", "--players", "you,greedy", "--seed", "3", "--max-turns", "30"]


def run(*args: str, typed: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=typed)


def write_lines(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture(scope="module", params=[
    ("classic", "--players", "greedy,cautious,random,trader", "--max-turns", "120"),
    ("classic", "--variant", "short-game", "--players", "greedy,trader"),
], ids=["turn-limit", "bankruptcies"])
def simulated(request, tmp_path_factory) -> list[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("sim")
    result = run("simulate", *request.param, "--games", "1", "--seed", "7", "--log", str(folder))
    assert result.exit_code == 0, result.output
    [log] = sorted(folder.glob("game-*.jsonl"))
    events = read_log(log)
    assert events[-1]["type"] == "game_end"
    return events


def test_a_whole_log_without_its_last_line_is_cut_off(simulated, tmp_path):
    log = write_lines(tmp_path / "cut.jsonl", simulated[:-1])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1, result.output
    assert f"{log}: {CUT_OFF}; its last event is event {len(simulated) - 1}" in result.output
    assert f"  next:     {json.dumps(simulated[-1], separators=(',', ':'))}" in result.output
    assert "unfinished" not in result.output


@pytest.mark.parametrize("after", ["roll", "move", "payment"])
def test_a_log_cut_in_the_middle_of_a_turn_is_damaged(simulated, tmp_path, after):
    """Cut just after the 5th event of this type in a turn: the game goes on with the rest of that turn."""
    first_turn = next(i for i, e in enumerate(simulated) if e["type"] == "turn")
    cut = [i for i, e in enumerate(simulated)
           if i > first_turn and e["type"] == after and simulated[i + 1]["type"] not in ("turn", "game_end")][4] + 1
    turn = next(e for e in reversed(simulated[:cut]) if e["type"] == "turn")
    log = write_lines(tmp_path / "mid.jsonl", simulated[:cut])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1, result.output
    assert f"the log stops in the middle of turn {turn['turn']} (cut off?)" in result.output
    assert f"  next:     {json.dumps(simulated[cut], separators=(',', ':'))}" in result.output


def test_a_log_of_only_its_game_start_is_damaged(simulated, tmp_path):
    log = write_lines(tmp_path / "start.jsonl", simulated[:1])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1, result.output
    assert "the log stops in the middle of the game's set-up (cut off?)" in result.output


def test_a_log_that_stops_between_turns_is_unfinished(simulated, tmp_path):
    """Cut just before the 10th turn: a game stopped (or saved) after turn 9 passes."""
    cut = [i for i, e in enumerate(simulated) if e["type"] == "turn"][9]
    log = write_lines(tmp_path / "between.jsonl", simulated[:cut])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 0, result.output
    assert f"the {cut} events of this unfinished game replay identically" in result.output
    assert "stopped between turns" in result.output


def test_a_game_played_a_few_turns_by_the_engine_is_unfinished(tmp_path):
    ruleset = monopoly.load_ruleset("classic")
    path = tmp_path / "engine.jsonl"
    with EventLog(path) as log:
        game = Game(ruleset, [make_agent("greedy"), make_agent("random")], seed=4, observers=[log])
        for _ in range(12):
            game.play_turn()
    events = read_log(path)
    check = replay_log(events, ruleset)
    assert check.ok and not check.complete and check.stops == "between turns" and check.events == len(events)
    assert run("replay", str(path), "--verify").exit_code == 0


@pytest.mark.parametrize("answers", [0, 3, 12])
def test_a_game_a_person_quit_is_unfinished(tmp_path, answers):
    """`quit` at the next question after some answers, then Enter (do not save): the log stops where
    the person was asked, in the middle of their turn, and passes."""
    path = tmp_path / "quit.jsonl"
    played = run(*PLAY, "--log", str(path), typed="\n" * answers + "quit\n\n")
    assert played.exit_code == 0, played.output
    assert "The game was not saved." in played.output
    events = read_log(path)
    assert events[-1]["type"] != "game_end"
    result = run("replay", str(path), "--verify")
    assert result.exit_code == 0, result.output
    assert f"the {len(events)} events of this unfinished game replay identically" in result.output
    assert "stopped where a person was asked a decision" in result.output
    assert replay_log(events, monopoly.load_ruleset("classic")).stops == "at a question"


def test_a_game_saved_and_quit_is_unfinished(tmp_path):
    path = tmp_path / "saved.jsonl"
    save = tmp_path / "game.json"
    played = run(*PLAY, "--log", str(path), "--save", str(save), typed="\n" * 20 + "quit\n")
    assert played.exit_code == 0, played.output
    assert "monopoly play --resume" in played.output
    result = run("replay", str(path), "--verify")
    assert result.exit_code == 0, result.output
    assert "stopped where a person was asked a decision" in result.output


def test_a_quit_game_cut_further_is_damaged(tmp_path):
    """The log of a quit game, its last line removed: it now stops where nobody was asked anything."""
    path = tmp_path / "quit.jsonl"
    played = run(*PLAY, "--log", str(path), typed="\n" * 3 + "quit\n\n")
    assert played.exit_code == 0, played.output
    events = read_log(path)
    log = write_lines(tmp_path / "shorter.jsonl", events[:-1])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1, result.output
    assert "(cut off?)" in result.output
    assert f"  next:     {json.dumps(events[-1], separators=(',', ':'))}" in result.output


def test_a_log_cut_just_after_a_persons_decision_is_damaged(tmp_path):
    """A person's answer is logged as it is given and the game goes on at once: a log never stops
    right after a decision of a game that was quit."""
    path = tmp_path / "whole.jsonl"
    played = run(*PLAY, "--log", str(path), typed="\n" * 200)
    assert played.exit_code == 0, played.output
    events = read_log(path)
    decision = next(i for i, e in enumerate(events) if e["type"] == "decision" and events[i + 1]["type"] != "turn")
    log = write_lines(tmp_path / "after-decision.jsonl", events[: decision + 1])
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 1, result.output
    assert "the log stops in the middle of turn" in result.output


def test_a_log_of_the_rules_before_version_2_still_reads_and_says_so_where_it_parts(tmp_path):
    from click.testing import CliRunner

    from monopoly.agents.recorder import as_played_by
    from monopoly.cli.main import cli
    from monopoly.game.events import RULES_VERSION

    # a game as the engine of the first version played it (only the mover acted between turns; the knobs say so)
    events: list[dict[str, Any]] = []
    Game(as_played_by(monopoly.load_ruleset("classic"), 1), [make_agent("greedy"), make_agent("random")], seed=1,
         max_turns=60, observers=[events.append]).play()
    lines = [json.dumps(event, separators=(",", ":")) for event in events]
    start = json.loads(lines[0])
    assert start["rules"] == RULES_VERSION == 4
    del start["rules"]  # as a log written before the rules got a version
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(start, separators=(",", ":")), *lines[1:]]) + "\n")
    same = CliRunner().invoke(cli, ["replay", str(old), "--verify"])
    assert same.exit_code == 0, same.output  # the games have not parted: it verifies
    parted = lines[:]
    index = next(i for i, line in enumerate(parted) if '"type":"roll"' in line)
    parted[index] = parted[index].replace('"dice":[', '"dice":[9,', 1)  # a die the game never threw
    parted[0] = json.dumps(start, separators=(",", ":"))
    doctored = tmp_path / "parted.jsonl"
    doctored.write_text("\n".join(parted) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(doctored), "--verify"])
    assert result.exit_code == 1
    assert f"played by rules version 1, this engine plays version {RULES_VERSION}" in result.output
