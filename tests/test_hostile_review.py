"""Regression tests for what an adversarial review of the untrusted-files work found (docs/security.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from monopoly.ruleset import check_ruleset
from monopoly.ruleset.semantics import MAX_EFFECT_TEXT
from monopoly.suggest import SUGGESTIONS_PER_CHECK


def run(*args: str, input: str = ""):
    from monopoly.cli.main import cli

    return CliRunner().invoke(cli, list(args), input=input)


def no_crash(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output


def _board(folder: Path, spaces: int = 200) -> Path:
    names = [f"Space{i:03d}-" + "x" * 30 for i in range(spaces - 2)]
    lines = ["id: base", "name: Base", "board:", "  - {name: Go, kind: go}", "  - {name: Jail, kind: jail}"]
    lines += [f"  - {{name: '{n}', kind: action}}" for n in names]
    path = folder / "base.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_many_near_misses_make_a_bounded_number_of_suggestions(tmp_path):
    _board(tmp_path)
    triggers = [f"  - {{space: 'Spaxe{i:03d}-{'x' * 30}', on: land, effect: 'pay 1'}}" for i in range(100)]
    path = tmp_path / "near.yaml"
    path.write_text("id: near\nname: Near\nextends: base.yaml\ntriggers:\n" + "\n".join(triggers) + "\n")
    ruleset, problems = check_ruleset(path, max_problems=None)
    assert ruleset is None and len(problems) == 100
    assert sum(1 for p in problems if p.hint and "did you mean" in p.hint) <= SUGGESTIONS_PER_CHECK


def test_a_long_unknown_name_gets_no_suggestion(tmp_path):
    _board(tmp_path)
    path = tmp_path / "long.yaml"
    path.write_text("id: l\nname: L\nextends: base.yaml\ntriggers:\n"
                    f"  - {{space: Go, on: land, effect: 'advance to \"Spaxe000-{'x' * 70}\"'}}\n")
    _, problems = check_ruleset(path)
    assert problems[0].code == "effect-unknown-space" and not (problems[0].hint or "").startswith("did you mean")


def test_the_effect_text_of_a_ruleset_is_bounded(tmp_path):
    effect = "collect 1" + " + 1" * 480  # about 2,000 characters, the most one effect holds
    cards = "".join(f"      - {{text: t{i}, effect: '{effect}'}}\n" for i in range(40))
    path = tmp_path / "wordy.yaml"
    path.write_text(f"id: w\nname: W\nextends: classic\ndecks:\n  chance:\n    name: Chance\n    cards:\n{cards}")
    assert path.stat().st_size > MAX_EFFECT_TEXT
    ruleset, problems = check_ruleset(path)
    assert ruleset is None and [p.code for p in problems] == ["too-much-effect-text"]


def test_too_many_or_repeated_variants_are_usage_errors():
    many = run("validate", "classic", *[arg for _ in range(17) for arg in ("--variant", "short-game")])
    assert many.exit_code == 2 and "at most 16" in many.output
    twice = run("validate", "classic", "--variant", "short-game", "--variant", "short-game")
    assert twice.exit_code == 2 and "is given twice" in twice.output


def test_a_save_naming_thousands_of_variants_is_answered_at_once(tmp_path):
    save = tmp_path / "game.save"
    assert run("play", "classic", "--players", "greedy,greedy", "--max-turns", "2", "--save", str(save)).exit_code == 0
    data = json.loads(save.read_text())
    data["variants"] = ["short-game"] * 20_000
    save.write_text(json.dumps(data))
    result = run("play", "--resume", str(save))
    no_crash(result)
    assert result.exit_code == 2 and "at most 16" in result.output


@pytest.mark.parametrize("args", [
    ["replay", "{fifo}"], ["play", "--resume", "{fifo}"],
    ["play", "classic", "--players", "greedy,greedy", "--max-turns", "2", "--save", "{fifo}"],
    ["validate", "{fifo}.yaml"],
])
def test_a_pipe_is_refused_not_waited_on(tmp_path, args):
    fifo = tmp_path / "game"
    os.mkfifo(fifo)
    os.mkfifo(str(fifo) + ".yaml")
    result = run(*[a.replace("{fifo}", str(fifo)) for a in args])
    no_crash(result)
    assert result.exit_code in (1, 2) and ("not a regular file" in result.output or "already exists" in result.output)


def test_a_resumed_log_that_is_a_device_is_refused(tmp_path):
    save, log = tmp_path / "g.save", tmp_path / "g.jsonl"
    assert run("play", "classic", "--players", "you,greedy", "--seed", "4", "--save", str(save), "--log", str(log),
               input="n\n\n\n\n\n\nquit\n").exit_code == 0
    result = run("play", "--resume", str(save), "--log", "/dev/zero", input="quit\n")
    no_crash(result)
    assert result.exit_code == 1


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_force_never_replaces_a_device(tmp_path, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    for args in (["render", "classic", "-o", device, "--force"],
                 ["play", "classic", "--players", "greedy,greedy", "--max-turns", "2", "--log", device, "--force"]):
        result = run(*args)
        no_crash(result)
        assert result.exit_code == 1 and "not a regular file" in result.output
    assert Path(device).is_char_device()


def test_a_version_2_save_must_hash_its_log(tmp_path):
    save, log = tmp_path / "g.save", tmp_path / "g.jsonl"
    assert run("play", "classic", "--players", "you,greedy", "--seed", "4", "--save", str(save), "--log", str(log),
               input="n\n\n\n\n\n\nquit\n").exit_code == 0
    before = log.read_bytes()
    data = json.loads(save.read_text())
    del data["log"]["sha256"]
    save.write_text(json.dumps(data))
    result = run("play", "--resume", str(save), "--log", str(log), input="quit\n")
    assert result.exit_code == 1 and "no sha256" in result.output
    assert log.read_bytes() == before


def test_a_version_1_save_does_not_cut_a_log_without_force(tmp_path):
    save, log = tmp_path / "g.save", tmp_path / "g.jsonl"
    assert run("play", "classic", "--players", "you,greedy", "--seed", "4", "--save", str(save), "--log", str(log),
               input="n\n\n\n\n\n\nquit\n").exit_code == 0
    before = log.read_bytes()
    data = json.loads(save.read_text())
    data["version"] = 1
    data["log"] = {"path": str(log), "events": 1}
    save.write_text(json.dumps(data))
    result = run("play", "--resume", str(save), "--log", str(log), input="quit\n")
    assert result.exit_code == 1 and "keeps no hash" in result.output
    assert log.read_bytes() == before


def test_a_folder_in_the_way_of_the_temporary_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".x.svg.monopoly-tmp").mkdir()
    result = run("render", "classic", "-o", "x.svg")
    no_crash(result)
    assert result.exit_code == 1 and "is in the way" in result.output


@pytest.mark.parametrize("command", [["render", "classic", "-o"], ["analyze", "classic", "--format", "json", "-o"],
                                     ["new", "seaside", "-o"],
                                     ["play", "classic", "--players", "greedy,greedy", "--max-turns", "2", "--save"],
                                     ["play", "classic", "--players", "greedy,greedy", "--max-turns", "2", "--log"]])
def test_a_name_too_long_for_the_system_is_a_clear_error(tmp_path, command):
    result = run(*command, str(tmp_path / ("a" * 300 + ".out")))
    no_crash(result)
    assert result.exit_code in (1, 2)


def test_file_names_with_escapes_are_shown_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "\x1b]0;PWN\x07\nfake line.svg"
    result = run("render", "classic", "-o", name)
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "\x07" not in result.output and "\\x1b]0;PWN\\x07\\nfake" in result.output


def test_a_game_of_bots_alone_always_ends(tmp_path):
    import monopoly

    game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent(n) for n in ("greedy", "cautious")],
                         seed=941154)
    for _ in range(15):
        game.play_turn()
    save = tmp_path / "engine.save"
    data = monopoly.game_to_json(game)
    assert data["max_turns"] is None
    save.write_text(json.dumps(data))
    result = run("play", "--resume", str(save))
    assert result.exit_code == 0, result.output[-500:]
    assert "it stops after turn 1000" in result.output
    fresh = run("play", "classic", "--players", "greedy,greedy", "--seed", "3")
    assert fresh.exit_code == 0 and "Game over after" in fresh.output


def test_a_deck_that_only_draws_again_is_a_located_warning():
    from .conftest import DATA

    ruleset, problems = check_ruleset(DATA / "hostile" / "draws" / "self-draw.yaml")
    assert ruleset is not None  # it plays: the engine bounds the chain
    [warning] = [p for p in problems if p.code == "draw-loop"]
    assert warning.severity == "warning" and warning.line == 11 and "deck chance draws again" in warning.message
    ping_pong, problems = check_ruleset(DATA / "hostile" / "draws" / "ping-pong.yaml")
    assert ping_pong is not None and not [p for p in problems if p.code == "draw-loop"]  # other cards end it
    result = run("validate", str(DATA / "hostile" / "draws" / "self-draw.yaml"))
    assert result.exit_code == 0 and "warning: every card of deck chance draws again" in result.output
