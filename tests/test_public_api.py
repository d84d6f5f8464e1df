"""The library as researchers embed it: agents of one's own in simulate, positions, a typed package."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.sim import simulate

CLASSIC = monopoly.load_ruleset("classic")


class Hoarder(monopoly.Agent):
    """Buys everything it lands on; otherwise the protocol's plain defaults."""

    name = "hoarder"

    def buy(self, game, seat, space):
        return True


def test_simulate_takes_an_agent_class_and_names_it():
    run = simulate(CLASSIC, [Hoarder, "greedy"], games=6, seed=3, max_turns=200)
    assert [s.agent for s in run.summary.seats] == ["hoarder", "greedy"]
    assert run.summary.games == 6


def test_simulate_takes_any_factory():
    made = []

    def factory():
        made.append(1)
        return Hoarder()

    simulate(CLASSIC, [factory, "cautious"], games=4, seed=1, max_turns=100)
    assert len(made) == 4  # a fresh agent for every game


def test_agents_of_ones_own_give_the_same_games_on_any_number_of_workers():
    one = simulate(CLASSIC, [Hoarder, "greedy", "trader"], games=8, seed=5, max_turns=300, jobs=1)
    two = simulate(CLASSIC, [Hoarder, "greedy", "trader"], games=8, seed=5, max_turns=300, jobs=2)
    assert one.to_json() == two.to_json()


def test_simulate_refuses_what_is_not_an_agent():
    with pytest.raises(ValueError, match="not int"):
        simulate(CLASSIC, [3, "greedy"], games=1)
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        simulate(CLASSIC, ["greedyy", "greedy"], games=1)


def test_the_command_line_takes_module_colon_class(tmp_path, monkeypatch):
    from monopoly.cli.main import cli

    (tmp_path / "my_agents_for_test.py").write_text(
        "import monopoly\n\nclass Buyer(monopoly.Agent):\n    name = 'buyer'\n\n"
        "    def buy(self, game, seat, space):\n        return True\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = CliRunner().invoke(cli, ["simulate", "classic", "--players", "my_agents_for_test:Buyer,greedy",
                                      "--games", "4", "--max-turns", "100"])
    assert result.exit_code == 0, result.output
    assert "buyer" in result.output
    missing = CliRunner().invoke(cli, ["simulate", "classic", "--players", "my_agents_for_test:Nope,greedy"])
    assert missing.exit_code == 2 and "has no agent class Nope" in missing.output
    sys.modules.pop("my_agents_for_test", None)


def test_a_save_or_a_game_never_imports_a_module_it_names(tmp_path):
    # module:Class is for the command line alone: a name read from a file is a bot's name or nothing
    from monopoly.cli.main import cli

    with pytest.raises(ValueError):
        monopoly.make_agent("os:system")
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "os:system,greedy"])
    assert result.exit_code == 2 and "no agent named" in result.output


def test_the_package_says_it_is_typed():
    assert (Path(monopoly.__file__).parent / "py.typed").exists()


def test_the_command_line_imports_only_the_public_api():
    """cli/ is a client of the library like any other: it imports `monopoly`, never a module inside it."""
    import ast

    from .conftest import ROOT

    internal = []
    for path in sorted((ROOT / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            internal += [f"{path.name}:{node.lineno}: {name}" for name in names
                         if name.startswith("monopoly.") and not name.startswith("monopoly.cli")]
    assert not internal, internal


def test_every_public_name_is_there():
    import monopoly

    for name in monopoly.__all__:
        assert getattr(monopoly, name) is not None, name


BAD_AGENTS = """import monopoly

class Raiser(monopoly.Agent):
    name = "raiser"

    def buy(self, game, seat, space):
        raise ValueError("boom from agent")

class Quitter(monopoly.Agent):
    name = "quitter"

    def buy(self, game, seat, space):
        raise SystemExit(0)

class BadInit(monopoly.Agent):
    def __init__(self):
        raise RuntimeError("cannot start")

class NotAgent:
    pass
"""


class _Raiser(monopoly.Agent):
    name = "raiser"

    def buy(self, game: Any, seat: int, space: int) -> bool:
        raise ValueError("boom from agent")


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate_names_the_agent_that_failed(jobs):
    with pytest.raises(monopoly.AgentFailure) as caught:
        simulate(CLASSIC, [_Raiser, "greedy"], games=4, seed=1, max_turns=200, jobs=jobs)
    message = str(caught.value)
    assert "the agent of seat 0 (raiser) raised ValueError: boom from agent while deciding 'buy'" in message
    assert "seed" in message


@pytest.mark.parametrize(("spec", "words"), [
    ("bad_agents_for_test:Raiser", "the agent of seat 0 (raiser) raised ValueError: boom from agent while "
                                   "deciding 'buy' in the game with seed 1"),
    ("bad_agents_for_test:Quitter", "the agent of seat 0 (quitter) raised SystemExit: 0 while deciding 'buy'"),
    ("bad_agents_for_test:BadInit", "the agent of seat 0 (agent) could not be made for the game with seed 1: "
                                    "RuntimeError: cannot start"),
    ("bad_agents_for_test:NotAgent", "could not start: seat 0"),
])
def test_a_failing_agent_of_the_command_line_is_the_users_error(tmp_path, monkeypatch, capsys, spec, words):
    """An agent of --players module:Class that raises, cannot be made or is no agent: exit 1 with what failed
    where, not the internal error's 70 ("a bug in monopoly"); an agent's SystemExit(0) is no silent success."""
    from monopoly.cli import main as entry

    (tmp_path / "bad_agents_for_test.py").write_text(BAD_AGENTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(monopoly, "dedicate_process", lambda: None)  # the test process keeps its collector
    try:
        with pytest.raises(SystemExit) as exited:
            entry.main(["simulate", "classic", "--players", f"{spec},greedy", "--games", "2", "--max-turns", "200"])
    finally:
        sys.modules.pop("bad_agents_for_test", None)
    err = capsys.readouterr().err
    assert exited.value.code == 1, err
    assert words in err and "bug in monopoly" not in err


class _Shouter(monopoly.Agent):
    """Buys everything; its name is a terminal's escape sequence."""

    name = "\x1b[31mevil\x1b]0;title\x07"

    def buy(self, game: Any, seat: int, space: int) -> bool:
        return True


class _FakeGreedy(_Shouter):
    name = "greedy"  # not the built-in bot, whatever its name says


@pytest.mark.parametrize("agent", [_Shouter, _FakeGreedy])
def test_a_logged_simulation_of_a_users_agent_replays_from_its_log(tmp_path, agent):
    """A user's agent's answers are recorded in the log (the log alone plays the game again), and a name
    no terminal or log may show is replaced by its class's name."""
    from monopoly.agents.recorder import replay_log
    from monopoly.game.log import read_log

    result = simulate(CLASSIC, [agent, "greedy"], games=2, seed=1, max_turns=120, log_dir=tmp_path)
    assert "\x1b" not in json.dumps(result.to_json())
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 2
    for log in logs:
        events = read_log(log)
        assert events[0]["players"][0] == ("_Shouter" if agent is _Shouter else "greedy")
        assert any(event["type"] == "decision" and event["seat"] == 0 for event in events)
        check = replay_log(events, CLASSIC)
        assert check.ok, check.difference


def test_an_agents_name_is_shown_only_when_printable_and_short():
    from monopoly.game.decisions import MAX_AGENT_NAME, agent_name

    class Named(monopoly.Agent):
        pass

    for bad in ("\x1b[2J", "a\u202eb", "", "x" * (MAX_AGENT_NAME + 1), 5, None):
        agent = Named()
        agent.name = bad  # type: ignore[assignment]
        assert agent_name(agent) == "Named"
    agent = Named()
    agent.name = "Ada Lovelace"
    assert agent_name(agent) == "Ada Lovelace"


def test_a_seat_given_as_a_class_is_named_as_its_agents_are_in_both_builds():
    """simulate names a seat given as an agent class by the ``name`` its agents start with: the class's own
    or the one it inherits (a compiled build holds a bot's name as an instance attribute, not on the class)."""
    from monopoly.agents.bots import GreedyAgent, TraderAgent
    from monopoly.sim import spec_name

    class Greedier(GreedyAgent):
        pass

    class Mine(monopoly.Agent):
        name = "mine"

        def __init__(self):
            raise RuntimeError("never made to be named")

    class Slotted:
        __slots__ = ("name",)

    assert spec_name(TraderAgent) == "trader"
    assert spec_name(Greedier) == "greedy"
    assert spec_name(Mine) == "mine"
    assert spec_name(monopoly.Agent) == "agent"
    assert spec_name(Slotted) == "Slotted"  # no name set before __init__: the class's name
    assert spec_name(lambda: monopoly.make_agent("greedy")) == "<lambda>"
