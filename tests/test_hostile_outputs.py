"""Nothing a file says decides where the program writes; no output replaces a file without --force."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from monopoly.files import TEMP_SUFFIX, OutputError, create, write_whole
from monopoly.game.log import read_log

BOTS = ["classic", "--players", "greedy,cautious", "--seed", "4"]
PRECIOUS = "years of work\n"


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(_cli(), list(args))
    with runner.isolated_filesystem(temp_dir=cwd):
        os.chdir(cwd)
        return runner.invoke(_cli(), list(args))


def _cli():
    from monopoly.cli.main import cli

    return cli


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text(PRECIOUS)
    return path


def _saved_game(tmp_path: Path, turns: int = 6) -> tuple[Path, Path]:
    save, log = tmp_path / "game.save", tmp_path / "game.jsonl"
    result = run("play", *BOTS, "--max-turns", str(turns), "--save", str(save), "--log", str(log))
    assert result.exit_code == 0, result.output
    return save, log


def _go_on_to(data: dict, max_turns: int) -> None:
    """The saved game, stopped by its turn cap, made to go on to a later one."""
    data["game"]["max_turns"] = max_turns
    data["game"]["state"].update(finished=False, end_reason=None, winner=None)


def _rewrite(save: Path, change) -> None:
    data = json.loads(save.read_text())
    change(data)
    save.write_text(json.dumps(data))


# ---------------------------------------------------------------------- a save never says where to write


@pytest.mark.parametrize("form", ["absolute", "relative"])
def test_a_save_naming_a_victim_as_its_log_leaves_it_alone(tmp_path, victim, form, monkeypatch):
    save, _ = _saved_game(tmp_path)
    named = str(victim) if form == "absolute" else "victim.txt"

    def old_style(data):  # version 1 saves named their log file
        data["version"] = 1
        data["log"] = {"path": named, "events": 0}
        _go_on_to(data, 8)

    _rewrite(save, old_style)
    monkeypatch.chdir(tmp_path)
    result = run("play", "--resume", str(save))
    assert result.exit_code == 0, result.output
    assert victim.read_text() == PRECIOUS
    assert "give --log FILE" in result.output


def test_a_save_with_a_forged_empty_log_hash_cannot_reach_a_file_named_on_the_command_line(tmp_path, victim):
    save, _ = _saved_game(tmp_path)
    _rewrite(save, lambda d: d.update(log={"events": 0, "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4"
                                                                   "95991b7852b855"}))
    result = run("play", "--resume", str(save), "--log", str(victim))
    assert result.exit_code == 1
    assert victim.read_text() == PRECIOUS
    assert "--force" in result.output


def test_resume_goes_on_with_the_games_own_log(tmp_path):
    # A person quits in the middle of a turn; resumed, the half-played turn is cut from the log and
    # played again, so quitting at the first question leaves a log that the first one goes on from.
    save, log = tmp_path / "game.save", tmp_path / "game.jsonl"
    person = ["classic", "--players", "you,greedy", "--seed", "4"]
    first = CliRunner().invoke(_cli(), ["play", *person, "--save", str(save), "--log", str(log)],
                               input="n\n\n\n\n\n\nquit\n")
    assert first.exit_code == 0, first.output
    quit_log = log.read_bytes()
    counted = json.loads(save.read_text())["log"]["events"]
    assert 0 < counted < len(quit_log.splitlines())
    again = CliRunner().invoke(_cli(), ["play", "--resume", str(save), "--log", str(log)], input="quit\n")
    assert again.exit_code == 0, again.output
    resumed = log.read_bytes()
    assert quit_log.startswith(resumed) and len(resumed.splitlines()) >= counted
    assert [e["type"] for e in read_log(log)].count("game_start") == 1


def test_resume_refuses_a_log_that_is_not_this_games(tmp_path):
    save, _ = _saved_game(tmp_path)
    other_save, other_log = tmp_path / "other.save", tmp_path / "other.jsonl"
    assert run("play", "classic", "--players", "greedy,random", "--seed", "9", "--max-turns", "6",
               "--save", str(other_save), "--log", str(other_log)).exit_code == 0
    before = other_log.read_bytes()
    _rewrite(save, lambda d: _go_on_to(d, 12))
    result = run("play", "--resume", str(save), "--log", str(other_log))
    assert result.exit_code == 1 and "is not the log of this game" in result.output
    assert other_log.read_bytes() == before
    forced = run("play", "--resume", str(save), "--log", str(other_log), "--force")
    assert forced.exit_code == 0, forced.output
    assert read_log(other_log)[0]["type"] != "game_start"  # the rest of the game only


def test_a_log_doctored_after_the_save_is_not_continued(tmp_path):
    save, log = _saved_game(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace('"amount":1500', '"amount":1501')
    log.write_text("".join(lines))
    result = run("play", "--resume", str(save), "--log", str(log))
    assert result.exit_code == 1 and "is not the log of this game" in result.output


# ---------------------------------------------------------------------- outputs never replace without --force


@pytest.mark.parametrize("command", [
    ["render", "classic", "-o"],
    ["analyze", "classic", "--format", "json", "-o"],
    ["analyze", "classic", "--format", "html", "-o"],
    ["play", *BOTS, "--max-turns", "2", "--log"],
    ["play", *BOTS, "--max-turns", "2", "--save"],
    ["new", "seaside", "-o"],
])
def test_an_output_that_exists_is_refused_without_force(victim, command):
    result = run(*command, str(victim))
    assert result.exit_code == 1, result.output
    assert "already exists" in result.output
    assert victim.read_text() == PRECIOUS
    if command[0] != "new":  # `new` never replaces a file
        forced = run(*command, str(victim), "--force")
        assert forced.exit_code == 0, forced.output
        assert victim.read_text() != PRECIOUS


@pytest.mark.parametrize("command", [
    ["render", "classic", "-o"],
    ["analyze", "classic", "--format", "json", "-o"],
    ["play", *BOTS, "--max-turns", "2", "--log"],
    ["play", *BOTS, "--max-turns", "2", "--save"],
])
def test_an_output_never_goes_through_a_link(tmp_path, victim, command):
    link = tmp_path / "out"
    link.symlink_to(victim)
    for extra in ([], ["--force"]):
        result = run(*command, str(link), *extra)
        assert result.exit_code in (1, 2), result.output
        assert victim.read_text() == PRECIOUS
        assert link.is_symlink()


def test_simulate_never_follows_a_link_planted_in_its_log_folder(tmp_path, victim):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game-2.jsonl").symlink_to(victim)
    for extra in ([], ["--force"]):
        result = run("simulate", "classic", "--games", "3", "--players", "greedy,random", "--log", str(logs), *extra)
        assert result.exit_code == 1, result.output
        assert "symbolic link" in result.output
        assert victim.read_text() == PRECIOUS


def test_simulate_refuses_logs_that_are_there_unless_forced(tmp_path):
    logs = tmp_path / "logs"
    args = ["simulate", "classic", "--games", "2", "--players", "greedy,random", "--max-turns", "50", "--log",
            str(logs)]
    assert run(*args).exit_code == 0
    (logs / "game-1.jsonl").write_text(PRECIOUS)
    again = run(*args)
    assert again.exit_code == 1 and "game-1.jsonl: it already exists" in again.output
    assert (logs / "game-1.jsonl").read_text() == PRECIOUS
    assert run(*args, "--force").exit_code == 0
    assert read_log(logs / "game-1.jsonl")[0]["type"] == "game_start"


def test_simulate_refuses_in_parallel_too(tmp_path, victim):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game-3.jsonl").symlink_to(victim)
    result = run("simulate", "classic", "--games", "4", "--jobs", "2", "--players", "greedy,random",
                 "--log", str(logs), "--force")
    assert result.exit_code == 1 and victim.read_text() == PRECIOUS


# ---------------------------------------------------------------------- the writer itself


def test_a_temporary_file_left_by_a_killed_process_is_cleared_by_the_next_write(tmp_path):
    target = tmp_path / "game.save"
    stale = tmp_path / f".game.save{TEMP_SUFFIX}"
    stale.write_text("half a save")
    write_whole(target, "{}")
    assert sorted(os.listdir(tmp_path)) == ["game.save"]
    stale.write_text("half a save")
    write_whole(target, "{ }", replace=True)
    assert sorted(os.listdir(tmp_path)) == ["game.save"] and target.read_text() == "{ }"


def test_a_link_planted_as_the_temporary_file_is_not_followed(tmp_path, victim):
    (tmp_path / f".game.save{TEMP_SUFFIX}").symlink_to(victim)
    write_whole(tmp_path / "game.save", "{}")
    assert victim.read_text() == PRECIOUS and (tmp_path / "game.save").read_text() == "{}"


def test_write_whole_and_create_refuse_without_replace(tmp_path, victim):
    with pytest.raises(OutputError, match="already exists"):
        write_whole(victim, "x")
    with pytest.raises(OutputError, match="already exists"):
        create(victim)
    with pytest.raises(OutputError, match="is a folder"):
        write_whole(tmp_path, "x", replace=True)
    assert victim.read_text() == PRECIOUS
    with create(victim, replace=True) as out:
        out.write("new\n")
    assert victim.read_text() == "new\n"


def test_an_output_error_survives_a_trip_between_processes():
    import pickle

    error = OutputError("a.jsonl", "already exists", "give --force")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.path, copy.reason, copy.hint, str(copy)) == ("a.jsonl", "already exists", "give --force", str(error))


def test_the_quit_prompt_asks_before_replacing_a_file(tmp_path, victim):
    from .test_play import play, typed  # noqa: F401 - the scripted person of the play tests

    result = CliRunner().invoke(_cli(), ["play", "classic", "--players", "you,greedy", "--seed", "3"],
                                input="quit\n" + f"{victim}\n" + "n\n" + "\n")
    assert result.exit_code == 0, result.output
    assert "already exists. Replace it?" in result.output
    assert victim.read_text() == PRECIOUS


@pytest.mark.parametrize("name", ["bad\x00name.json", "\x1b[2Jcleared.json", "x" * 5000])
def test_the_quit_prompt_takes_no_file_name_a_terminal_or_the_system_chokes_on(tmp_path, name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(_cli(), ["play", "classic", "--players", "you,greedy", "--seed", "3"],
                                input="quit\n" + name + "\n\n")
    assert result.exit_code == 0, result.output
    assert "Cannot save there" in result.output and "The game was not saved." in result.output
    assert os.listdir(tmp_path) == []


def test_a_hostile_answer_is_recorded_as_bounded_text():
    from monopoly.agents.recorder import encode_answer
    from monopoly.game.actions import Build, Trade

    class Loud:
        def __repr__(self):
            raise RuntimeError("boom")

    assert encode_answer(10**5000).startswith("an int of")
    assert isinstance(encode_answer(Build(space=Loud())), str)
    assert isinstance(encode_answer(Trade(0, 1, give_spaces=([1],))), str)  # the log could not hold it
    assert isinstance(encode_answer(Trade(0, 1, give_cash=10**40)), str)
    assert len(encode_answer(Loud())) <= 200


def test_an_answer_the_log_cannot_hold_is_recorded_as_text_and_the_log_reads_back():
    import io

    import monopoly
    from monopoly.agents.recorder import encode_answer
    from monopoly.game.actions import Mortgage, Trade

    assert isinstance(encode_answer(Mortgage(-1)), str)
    assert isinstance(encode_answer(Trade(0, 1, give_cash=-5)), str)
    assert encode_answer(Mortgage(3)) == {"action": "mortgage", "space": 3}

    class Odd(monopoly.Agent):
        def act(self, game, seat):
            return Mortgage(-1) if game.turn < 4 else None

    out = io.StringIO()
    game = monopoly.Game(monopoly.load_ruleset("classic"),
                         [monopoly.RecordingAgent(Odd()), monopoly.make_agent("greedy")], seed=2, max_turns=8,
                         observers=[monopoly.EventLog(out)])
    game.play()
    events = read_log(io.StringIO(out.getvalue()))
    assert any(e["type"] == "decision" and isinstance(e["answer"], str) for e in events)
