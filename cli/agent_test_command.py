"""`monopoly agent-test COMMAND`: play a few games against an agent in another process and report how it speaks
the agents protocol: lines refused (and why), illegal answers, and the time it takes per decision."""

from __future__ import annotations

import json
from typing import Any

import click

from monopoly import (
    TURN_CEILING,
    AgentProcessError,
    Game,
    ProcessAgent,
    escape,
    make_agent,
)

from .ruleset_commands import VARIANT_OPTION, load_or_exit
from .simulate_command import AGENT_TIMEOUT_OPTION, exec_agent, parse_players

#: The codes of refused lines that are protocol errors (an illegal answer is a player's mistake, reported apart).
PROTOCOL_ERRORS = ("too_long", "bad_json", "bad_type", "wrong_id")


@click.command("agent-test")
@click.argument("command")
@click.option("--ruleset", "ruleset", default="classic", show_default=True, metavar="NAME_OR_PATH",
              help="The ruleset to play.")
@VARIANT_OPTION
@click.option("--games", type=click.IntRange(min=1, max=1000), default=5, show_default=True, help="Games to play.")
@click.option("--against", "against", default="greedy,greedy,greedy", show_default=True, metavar="A,B,...",
              help="The bots in the other seats.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first game; game i uses SEED + i, and the agent takes seat i modulo the players.")
@click.option("--max-turns", type=click.IntRange(min=1, max=TURN_CEILING), default=300, show_default=True,
              help="Stop a game after this many turns.")
@click.option("--view", type=click.Choice(["json", "text", "both"]), default=None,
              help="What the decisions carry; by default what the agent asks for in its hello.")
@AGENT_TIMEOUT_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def agent_test_command(command: str, ruleset: str, variants: tuple[str, ...], games: int, against: str, seed: int,
                       max_turns: int, view: str | None, agent_timeout: float, fmt: str) -> None:
    """Play GAMES games against the agent COMMAND (an agents-protocol process, docs/protocol.md) and report.

    The report lists every line of the agent's the engine refused (too long, not JSON, of the wrong type, for
    another decision) and every illegal answer, with the reasons, and the time each kind of decision took.
    Exit 0 when the agent spoke the protocol without an error, 1 when a line was refused as a protocol error or
    the agent died, stayed silent or flooded the engine (illegal answers alone are reported, not failed).
    """
    others = parse_players(against)
    loaded = load_or_exit(ruleset, variants)
    players = len(others) + 1
    problem = loaded.players_problem(players)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--against'")
    factory = exec_agent(command, agent_timeout, view, hint="'COMMAND'")
    report: dict[str, Any] = {"command": command, "name": None, "ruleset": loaded.id, "variants": list(variants),
                              "games": [], "decisions": 0, "by_kind": {}, "refused": {}, "messages": [],
                              "failure": None}
    if fmt == "text":
        click.echo(f"agent-test: {escape(command)[:200]}, {games} game(s) of {loaded.name} against "
                   f"{', '.join(others)}")
    for index in range(games):
        game_seed = seed + index
        seat = index % players
        agent: ProcessAgent = factory()
        agents: list[Any] = [make_agent(name) for name in others]
        agents.insert(seat, agent)
        try:
            game = Game(loaded, agents, seed=game_seed, max_turns=max_turns)
            result = game.play()
        except AgentProcessError as exc:
            report["failure"] = f"game {index + 1} (seed {game_seed}, seat {seat}): at {exc.kind!r}: {exc.reason}"
            _merge(report, agent)
            agent.close()
            break
        finally:
            report["name"] = report["name"] or agent.told_name
        _merge(report, agent)
        agent.close()
        entry = {"seed": game_seed, "seat": seat, "end": result.end, "turns": result.turns, "winner": result.winner,
                 "decisions": agent.stats["decisions"]}
        report["games"].append(entry)
        if fmt == "text":
            winner = "no winner" if result.winner is None else \
                "the agent won" if result.winner == seat else f"seat {result.winner} won"
            click.echo(f"game {index + 1} (seed {game_seed}, agent in seat {seat}): {result.end}, {result.turns} "
                       f"turns, {winner}; {agent.stats['decisions']} decisions")
    protocol_errors = sum(count for code, count in report["refused"].items() if code in PROTOCOL_ERRORS)
    report["protocol_errors"] = protocol_errors
    report["illegal_answers"] = report["refused"].get("illegal", 0)
    report["ok"] = report["failure"] is None and protocol_errors == 0
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        _print(report)
    if not report["ok"]:
        raise SystemExit(1)


def _merge(report: dict[str, Any], agent: ProcessAgent) -> None:
    stats = agent.stats
    report["decisions"] += stats["decisions"]
    for kind, (count, seconds, slowest) in stats["by_kind"].items():
        entry = report["by_kind"].setdefault(kind, {"count": 0, "seconds": 0.0, "max_seconds": 0.0})
        entry["count"] += count
        entry["seconds"] += seconds
        entry["max_seconds"] = max(entry["max_seconds"], slowest)
    for code, count in stats["refused"].items():
        report["refused"][code] = report["refused"].get(code, 0) + count
    for message in stats["messages"]:
        if len(report["messages"]) < 20:
            report["messages"].append(message)


def _print(report: dict[str, Any]) -> None:
    name = f" (it says it is {escape(report['name'])})" if report["name"] else ""
    click.echo(f"agent{name}: {report['decisions']:,} decisions")
    if report["by_kind"]:
        click.echo(f"  {'decision':<14} {'count':>7} {'mean ms':>9} {'max ms':>9}")
        for kind, entry in sorted(report["by_kind"].items()):
            mean = 1000 * entry["seconds"] / entry["count"] if entry["count"] else 0.0
            click.echo(f"  {kind:<14} {entry['count']:>7,} {mean:>9.2f} {1000 * entry['max_seconds']:>9.2f}")
    refused = report["refused"]
    if refused:
        counts = ", ".join(f"{code} {count}" for code, count in sorted(refused.items()))
        click.echo(f"refused lines: {counts}")
        for message in report["messages"]:
            click.echo(f"  {escape(message)[:300]}")
    else:
        click.echo("refused lines: none")
    if report["failure"] is not None:
        click.echo(f"FAILED: {escape(report['failure'])[:1000]}")
    elif report["protocol_errors"]:
        click.echo(f"FAILED: {report['protocol_errors']} protocol error(s)")
    else:
        illegal = f" ({report['illegal_answers']} illegal answer(s), taken as the safe answer)" \
            if report["illegal_answers"] else ""
        click.echo(f"ok: the agent speaks the protocol{illegal}")
