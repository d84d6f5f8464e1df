"""`monopoly replay`: tell a logged game turn by turn, or check that it plays again identically."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from monopoly import (
    LogError,
    ReplayCheck,
    Ruleset,
    RulesetNotFound,
    builtin_rulesets,
    check_ruleset,
    read_log,
    replay_log,
)
from monopoly import check_log_references as check_references

from .files import shown
from .render_text import Narrator, holdings_lines
from .ruleset_commands import load_or_exit

Event = dict[str, Any]


def _not_built_in(edition: str, variants: list[str]) -> str:
    """What to give when a log's ruleset is not built in: the edition's file, or the variants' (by name)."""
    built = {(b.kind, b.id) for b in builtin_rulesets()}
    where = f"the game was played on ruleset '{edition}'" + (f" with {', '.join(variants)}" if variants else "")
    missing = [name for name in variants if ("variant", name) not in built]
    if ("edition", edition) in built and missing:
        return (f"{where}; the variant{'s' if len(missing) > 1 else ''} {', '.join(repr(m) for m in missing)} "
                f"{'are' if len(missing) > 1 else 'is'} not built in: give "
                f"{'their files' if len(missing) > 1 else 'its file'} with --variant PATH (and --ruleset {edition})")
    return (f"{where}, which is not built in: give its file with --ruleset PATH (and --variant PATH for a "
            "variant file)")


def _ruleset_for(start: Event, ruleset_name: str | None, variants: Sequence[str], required: bool) -> Ruleset | None:
    """The ruleset a log was played on: --ruleset (a file, or a name) or the built-in one of its id."""
    logged_variants = [str(v) for v in start["variants"]]
    if ruleset_name is not None:
        loaded = load_or_exit(ruleset_name, list(variants) or logged_variants)
    else:
        try:
            found, problems = check_ruleset(start["ruleset"], list(variants) or logged_variants)
        except (RulesetNotFound, OSError):
            message = _not_built_in(str(start["ruleset"]), logged_variants)
            if required:
                raise click.UsageError(message) from None
            click.echo(f"note: {message}; spaces are shown by number", err=True)
            return None
        if found is None:
            for problem in problems:
                click.echo(problem.format(), err=True)
            raise SystemExit(1)
        loaded = found
    if loaded.id != start["ruleset"] or list(loaded.variants) != logged_variants:
        raise click.ClickException(
            f"the log is a game of '{start['ruleset']}' with variants {logged_variants}, but the ruleset given is "
            f"'{loaded.id}' with {list(loaded.variants)}")
    return loaded


def _compact(event: Event | None) -> str:
    if event is None:
        return "(nothing: the game had ended)"
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def _report(path: Path, events: list[Event], check: ReplayCheck) -> None:
    start = events[0]
    what = f"{start['ruleset']}{''.join(' + ' + v for v in start['variants'])}, seed {start['seed']}"
    if check.difference is None:
        if check.complete:
            click.echo(f"{shown(path)}: ok, all {check.events} events replay identically ({what}).")
        else:
            where = {"between turns": ", stopped between turns",
                     "at a question": ", stopped where a person was asked a decision"}.get(check.stops or "", "")
            click.echo(f"{shown(path)}: ok, the {check.events} events of this unfinished game replay identically "
                       f"({what}{where}).")
        return
    diff = check.difference
    if diff.cut:  # the log stops where a whole log never does: damaged
        turn = next((e for e in reversed(events) if e["type"] == "turn"), None)
        where = f", turn {turn['turn']}, seat {turn['seat']}" if turn is not None else ""
        click.echo(f"{shown(path)}: {diff.reason}; its last event is event {check.events}{where}.")
        click.echo(f"  last:     {_compact(events[-1])}")
        click.echo(f"  next:     {_compact(diff.got)}")
        raise SystemExit(1)
    turn = next((e for e in reversed(events[: diff.number - 1]) if e["type"] == "turn"), None)
    where = f" (turn {turn['turn']}, seat {turn['seat']})" if turn is not None else ""
    click.echo(f"{shown(path)}: event {diff.number} differs{where}: {diff.reason}.")
    click.echo(f"  expected: {_compact(diff.expected)}")
    if diff.got is not None:
        click.echo(f"  got:      {_compact(diff.got)}")
    raise SystemExit(1)


@click.command("replay")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="LOG")
@click.option("--until", type=click.IntRange(min=0), default=None, metavar="TURN",
              help="Stop after turn TURN and show where everyone stands.")
@click.option("--verify", is_flag=True,
              help="Play the game again from its ruleset, seed and recorded decisions, and report the first "
                   "event that differs (exit 1) or that all match (exit 0).")
@click.option("--ruleset", "ruleset_name", metavar="NAME_OR_PATH",
              help="The ruleset the game was played on, when it is not a built-in one.")
@click.option("--variant", "variants", multiple=True, metavar="V",
              help="With --ruleset: the variants the game was played with (names or files), in order; "
                   "by default those named in the log.")
def replay_command(log: Path, until: int | None, verify: bool, ruleset_name: str | None,
                   variants: tuple[str, ...]) -> None:
    """Tell a logged game turn by turn, in the words of `monopoly play`.

    LOG is an event log written by `monopoly play --log` or `monopoly simulate
    --log`. With --verify the game is played again and compared event by event.
    """
    if verify and until is not None:
        raise click.UsageError("--until tells a game up to a turn; --verify checks the whole log: give one of them")
    try:
        events = read_log(log)
    except LogError as exc:
        raise click.ClickException(str(exc)) from None
    if not events or events[0]["type"] != "game_start":
        raise click.ClickException(f"{log}: the log does not start with a game_start event")
    start = events[0]
    ruleset = _ruleset_for(start, ruleset_name, variants, required=verify)
    try:
        check_references(events, len(ruleset.board) if ruleset is not None else None, source=str(log))
    except LogError as exc:
        raise click.ClickException(str(exc)) from None
    if verify:
        assert ruleset is not None
        try:
            check = replay_log(events, ruleset)
        except ValueError as exc:
            raise click.ClickException(f"{log}: {exc}") from None
        _report(log, events, check)
        return
    narrator = Narrator(ruleset)
    stopped = False
    for event in events:
        if until is not None and event["type"] == "turn" and event["turn"] > until:
            stopped = True
            break
        narrator(event)
    narrator.flush()
    if stopped:
        click.echo("")
        click.echo(f"Stopped after turn {until}.")
        for seat in range(narrator.state.players):
            for line in holdings_lines(narrator.state, narrator.words, seat):
                click.echo(line)
    sys.stdout.flush()
