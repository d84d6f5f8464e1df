"""`monopoly simulate`: many seeded games between bots, and their statistics."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from monopoly import (
    BACKENDS,
    BOTS,
    TURN_CEILING,
    BackendError,
    GameState,
    OutputError,
    ProcessAgentFactory,
    SaveError,
    SimulationResult,
    StateError,
    Summary,
    builtin_rulesets,
    escape,
    make_agent,
    ray_available,
    read_position_file,
    simulate,
)

from .files import FORCE_OPTION, refusal, shown
from .ruleset_commands import VARIANT_OPTION, load_or_exit

DEFAULT_PLAYERS = "greedy,greedy,greedy,greedy"

#: Seconds an agent in another process (``exec:COMMAND``) has for each answer, unless --agent-timeout says.
DEFAULT_AGENT_TIMEOUT = 10.0

def _finite_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """The --agent-timeout value, refused outside 0.001 to 3600 seconds."""
    if not 0.001 <= value <= 3600:  # NaN and infinity fail here too
        raise click.BadParameter("a number of seconds from 0.001 to 3600")
    return value


#: The option of every command that seats agents in other processes.
AGENT_TIMEOUT_OPTION = click.option(
    "--agent-timeout", type=float, callback=_finite_seconds, default=DEFAULT_AGENT_TIMEOUT, show_default=True,
    metavar="SECONDS", help="Seconds an exec: agent has to answer each decision; a slower one ends the game with "
                            "an error naming its seat and the decision.")


def parse_players(text: str, *, classes: bool = False, agent_timeout: float = DEFAULT_AGENT_TIMEOUT) -> list[Any]:
    """Agents from ``greedy,cautious,...``; an unknown or empty name is a usage error.

    With ``classes``, ``module:Class`` names an agent class of one's own (imported from the module, as
    ``python -m`` would find it), and ``exec:COMMAND`` an agent in another process that speaks the agents
    protocol (docs/protocol.md; a command has no comma); both are taken only from the command line, never from
    a file.
    """
    names = [name.strip() for name in text.split(",")]
    players: list[Any] = []
    for name in names:
        if not name:
            raise click.BadParameter(f"empty agent name in '{text}'; give one name a seat, separated by commas "
                                     f"(built-in agents: {', '.join(BOTS)})", param_hint="'--players'")
        if classes and name.startswith("exec:"):
            players.append(exec_agent(name[len("exec:"):], agent_timeout))
            continue
        if classes and ":" in name:
            players.append(_agent_class(name))
            continue
        try:
            make_agent(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc) + ("; or module:Class for an agent of your own" if classes else ""),
                                     param_hint="'--players'") from None
        players.append(name)
    return players


def exec_agent(command: str, timeout: float = DEFAULT_AGENT_TIMEOUT, view: str | None = None,
               hint: str = "'--players'") -> Any:
    """The maker of an agent in another process running ``command`` (a usage error, on ``hint``, when it cannot
    be split into arguments, or its program is not found)."""
    import shlex
    import shutil

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise click.BadParameter(f"exec:{escape(command)[:200]}: {exc}", param_hint=hint) from None
    if not argv:
        raise click.BadParameter("exec: needs a command to run, e.g. exec:\"python my_bot.py\"", param_hint=hint)
    if shutil.which(argv[0]) is None:
        raise click.BadParameter(f"exec:{escape(command)[:200]}: no program {escape(argv[0])[:100]} to run "
                                 "(give its path, or one on the PATH)", param_hint=hint)
    return ProcessAgentFactory(command, timeout=timeout, view=view)


def _agent_class(text: str) -> Any:
    """The agent class ``module:Class`` names (a usage error when it cannot be imported or is no agent)."""
    import importlib

    module_name, _, class_name = text.partition(":")
    if not module_name or not class_name.isidentifier():
        raise click.BadParameter(f"'{escape(text)}': write an agent of your own as module:Class",
                                 param_hint="'--players'")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does: modules in the working folder are found
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the module's own code may raise anything while it is imported
        raise click.BadParameter(f"cannot import {escape(module_name)}: {type(exc).__name__}: "
                                 f"{escape(str(exc))[:200]}", param_hint="'--players'") from None
    found = getattr(module, class_name, None)
    if not callable(found):
        raise click.BadParameter(f"{escape(module_name)} has no agent class {escape(class_name)}",
                                 param_hint="'--players'")
    return found


def _read_position(path: Path) -> tuple[dict[str, Any], Any]:
    """The ruleset (id and variants) and the unchecked state of the position file ``path``; exit 1 when it is
    no position, and when its game is over (there is nothing to play on)."""
    try:
        saved, state = read_position_file(path)
    except SaveError as exc:
        raise click.ClickException(escape(str(exc))) from None
    if isinstance(state, dict) and state.get("finished") is True:
        end = state.get("end_reason")
        turn = state.get("turn")
        how = f" ({escape(end)[:40]}" + (f", after turn {turn}" if type(turn) is int else "") + ")" \
            if isinstance(end, str) else ""
        raise click.ClickException(f"{escape(str(path))}: the game of this position is over{how}: there is nothing "
                                   "to play on")
    return saved, state


def _saved_ruleset(path: Path, saved: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The built-in ruleset and variants a position names (by their ids), when all of them are built-in ones: a
    position never decides which file is read, so one of a ruleset from a file needs that file given."""
    editions = {b.id for b in builtin_rulesets() if b.kind == "edition"}
    variants = {b.id for b in builtin_rulesets() if b.kind == "variant"}
    if saved["id"] not in editions or not all(v in variants for v in saved["variants"]):
        raise click.UsageError(f"{escape(str(path))} is a position of {escape(saved['id'])[:80]}"
                               + (f" with variants {[escape(v)[:60] for v in saved['variants'][:8]]}"
                                  if saved["variants"] else "")
                               + ", not all built-in: give its ruleset as NAME_OR_PATH and its variants with "
                               "--variant (a position never decides which file is read)")
    return saved["id"], tuple(saved["variants"])


def _position(path: Path, saved: dict[str, Any], state: Any, ruleset: Any, players: int,
              max_turns: int) -> GameState:
    """The checked position of ``path`` (``saved``, ``state``: what :func:`_read_position` read) on ``ruleset``;
    exit 1 listing every problem."""
    shown = escape(str(path))
    if saved["id"] != ruleset.id or saved["variants"] != list(ruleset.variants):
        raise click.ClickException(f"{shown} is a position of {escape(saved['id'])[:60]} with variants "
                                   f"{[escape(v)[:60] for v in saved['variants'][:8]]}, not {ruleset.id} with "
                                   f"{list(ruleset.variants)}: give that ruleset and those --variant options")
    seats = _seats(state)
    if seats is not None and seats != players:
        raise click.BadParameter(f"the position in {shown} has {seats} players, not {players}",
                                 param_hint="'--players'")
    try:
        position = GameState.from_json(state, ruleset, players=players, max_turns=max_turns)
    except StateError as exc:
        raise click.ClickException(f"{shown}: the position breaks the rules: " + "; ".join(
            escape(p) for p in exc.problems[:20]) + (f"; and {len(exc.problems) - 20} more"
                                                     if len(exc.problems) > 20 else "")) from None
    if position.finished:
        raise click.ClickException(f"{shown}: the game of this position is over")
    return position


def _seats(state: Any) -> int | None:
    """How many players a position's (unchecked) state has, when it says."""
    return len(state["cash"]) if isinstance(state, dict) and isinstance(state.get("cash"), list) else None


@click.command("simulate")
@click.argument("ruleset", metavar="[NAME_OR_PATH]", required=False)
@VARIANT_OPTION
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option("--players", default=None, metavar="A,B,...",
              help=f"One agent a seat, in seat order: a bot ({', '.join(BOTS)}), module:Class for an agent "
                   "class of your own, or exec:COMMAND for an agent in another process speaking the agents "
                   f"protocol (docs/protocol.md).  [default: {DEFAULT_PLAYERS}; with --from, greedy in every seat "
                   "of the position]")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game; game i uses SEED + i.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default 1); with --backend ray, the CPUs of the local cluster the command "
                   "starts (default: all). Results are the same for any number.")
@click.option("--max-turns", type=click.IntRange(min=1, max=TURN_CEILING), default=1000, show_default=True,
              help="Stop a game after this many turns (it then has no winner).")
@click.option("--log", "log_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Write each game's event log to DIR/game-<seed>.jsonl (existing logs need --force).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: summary tables; json: every game and the summary.")
@click.option("--from", "start_path", type=click.Path(dir_okay=False, path_type=Path), metavar="POSITION",
              help="Play every game on from this position (a position file, or a save of `monopoly play` or of "
                   "the engine), each with its own dice: who is winning it?")
@click.option("--backend", type=click.Choice(list(BACKENDS)), default="local", show_default=True,
              help="local: this machine's processes; ray: a Ray cluster (pip install 'monopoly-engine[ray]'), "
                   "with the same results.")
@click.option("--address", metavar="HOST:PORT",
              help="With --backend ray: join the cluster at this address ('auto': the one running on this "
                   "machine); without it the command starts a local cluster.")
@AGENT_TIMEOUT_OPTION
@FORCE_OPTION
def simulate_command(ruleset: str | None, variants: tuple[str, ...], games: int, players: str | None, seed: int,
                     jobs: int | None, max_turns: int, log_dir: Path | None, fmt: str, start_path: Path | None,
                     backend: str, address: str | None, agent_timeout: float, force: bool) -> None:
    """Play many games between bots and report win rates, game lengths and how games ended.

    Game i (from 0) is played with seed SEED + i and fresh agents, so every
    game can be replayed on its own and the output does not depend on --jobs.
    A turn is one player's turn, doubles re-rolls included.

    With --from POSITION, every game goes on from that position (a position
    file or a save); NAME_OR_PATH may then be left out when the position's
    ruleset and variants are built-in ones.
    """
    read = _read_position(start_path) if start_path is not None else None
    if ruleset is None:
        ruleset, variants = _ruleset_of_position(start_path, read, variants, fmt)
    names = parse_players(players if players is not None else _default_players(read), classes=True,
                          agent_timeout=agent_timeout)
    loaded = load_or_exit(ruleset, variants)
    _check_table(loaded, len(names), backend, address)
    start = _position(start_path, read[0], read[1], loaded, len(names), max_turns) \
        if start_path is not None and read is not None else None
    if start is not None and log_dir is not None:
        raise click.UsageError("--log cannot be combined with --from: a log starts with the game")
    if log_dir is not None:
        _make_log_dir(log_dir)
    result = _simulate(loaded, names, games, fmt, seed=seed, jobs=jobs, max_turns=max_turns, log_dir=log_dir,
                       replace_logs=force, start=start, backend=backend, address=address)
    _report(result, fmt, start, start_path)


def _ruleset_of_position(start_path: Path | None, read: tuple[dict[str, Any], Any] | None,
                         variants: tuple[str, ...], fmt: str) -> tuple[str, tuple[str, ...]]:
    """The built-in ruleset and variants the position names, NAME_OR_PATH being left out (said in text)."""
    if read is None:
        raise click.UsageError("give the ruleset to simulate (NAME_OR_PATH, e.g. classic), or --from POSITION")
    if variants:
        raise click.UsageError("--variant needs the ruleset it applies to: give NAME_OR_PATH too")
    assert start_path is not None
    ruleset, variants = _saved_ruleset(start_path, read[0])
    if fmt == "text":
        click.echo(f"Ruleset {ruleset}" + (f" with {', '.join(variants)}" if variants else "")
                   + ", built in, as the position names it.")
    return ruleset, variants


def _default_players(read: tuple[dict[str, Any], Any] | None) -> str:
    """The players when --players is not given: greedy in every seat of the position, else DEFAULT_PLAYERS."""
    seats = _seats(read[1]) if read is not None else None
    return ",".join(["greedy"] * seats) if seats is not None and 1 <= seats <= 16 else DEFAULT_PLAYERS


def _check_table(loaded: Any, players: int, backend: str, address: str | None) -> None:
    """Refuse a number of players the ruleset is not played by, an address without Ray, and Ray not installed."""
    problem = loaded.players_problem(players)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--players'")
    if address is not None and backend != "ray":
        raise click.BadParameter("--address is the address of a Ray cluster: give it with --backend ray",
                                 param_hint="'--address'")
    if backend == "ray" and not ray_available():
        raise click.BadParameter("the ray backend needs Ray, which is not installed here: "
                                 "pip install 'monopoly-engine[ray]'", param_hint="'--backend'")


def _make_log_dir(log_dir: Path) -> None:
    """Create the folder of --log (and its parents); a usage error when it cannot be."""
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(f"cannot create {shown(log_dir)}: {exc.strerror}", param_hint="'--log'") from None


def _simulate(loaded: Any, names: list[Any], games: int, fmt: str, **options: Any) -> SimulationResult:
    """The games played by :func:`simulate` (a progress bar on a terminal); exit 1 on a refused log or backend."""
    try:
        if fmt == "text" and sys.stdout.isatty() and sys.stderr.isatty():
            with click.progressbar(length=games, label="simulating", file=sys.stderr, show_pos=True,
                                   show_eta=True) as bar:
                return simulate(loaded, names, games, progress=bar.update, **options)
        return simulate(loaded, names, games, **options)
    except OutputError as exc:
        raise click.ClickException(refusal(exc)) from None
    except BackendError as exc:
        raise click.ClickException(escape(str(exc))) from None


def _report(result: SimulationResult, fmt: str, start: GameState | None, start_path: Path | None) -> None:
    """Print the result: as JSON, or as tables after a line on the position played on."""
    if fmt == "json":
        data = result.to_json()
        if start is not None:
            data["start"] = {"position": str(start_path), "turn": start.turn, "round": start.round,
                             "to_move": start.current}
        click.echo(json.dumps(data, indent=2))
    else:
        if start is not None:
            click.echo(f"Played on from {escape(str(start_path))} (after turn {start.turn}, seat {start.current} "
                       "to move), each game with its own dice.")
        click.echo(format_text(result))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:5.1f}% - {100 * ci[1]:5.1f}%"


def _table(header: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in pairs]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def format_text(result: SimulationResult) -> str:
    """The summary as tables for a terminal."""
    s: Summary = result.summary
    title = s.ruleset + (f" + {' + '.join(s.variants)}" if s.variants else "")
    cap = f"turn cap {s.max_turns}" if s.max_turns is not None else f"turn cap {TURN_CEILING} (the ceiling)"
    lines = [f"{title}: {s.games} game{'s' * (s.games != 1)}, seeds {s.seeds[0]}..{s.seeds[1]}, {cap}", ""]
    lines.append("Wins by seat (95% confidence interval):")
    lines += _table(["seat", "agent", "wins", "win rate", "95% CI"],
                    [[str(x.seat), x.agent, str(x.wins), _pct(x.win_rate), _ci(x.ci95)] for x in s.seats],
                    right={0, 2, 3, 4})
    lines.append(f"  no winner: {s.no_winner} ({_pct(s.no_winner / s.games)})")
    lines += ["", "Wins by agent (share of games won by any of its seats):"]
    lines += _table(["agent", "seats", "wins", "win rate", "95% CI", "fair share"],
                    [[x.agent, str(x.seats), str(x.wins), _pct(x.win_rate), _ci(x.ci95), _pct(x.fair_share)]
                     for x in s.agents], right={1, 2, 3, 4, 5})
    t = s.turns
    median = f"{t.median:g}"
    lines += ["", f"Game length (turns): mean {t.mean:.1f}, median {median}, p90 {t.p90}, min {t.min}, max {t.max}",
              f"Stopped by the turn cap: {s.turn_limit} of {s.games} ({_pct(s.turn_limit_share)})",
              "Ends: " + ", ".join(f"{end} {count} ({_pct(count / s.games)})" for end, count in s.ends)]
    return "\n".join(lines)
