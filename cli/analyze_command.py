"""`monopoly analyze`: exact landing odds and payback tables; an HTML report with pictures."""

from __future__ import annotations

import json
import os
from typing import Any

import click

from .files import FORCE_OPTION, shown, write_atomic
from .ruleset_commands import VARIANT_OPTION, load_or_exit


@click.command()
@click.argument("ruleset", metavar="NAME_OR_PATH")
@VARIANT_OPTION
@click.option("--jail", type=click.Choice(["short", "long"]), default="short", show_default=True,
              help="short: a jailed player pays and leaves at once; long: waits for doubles up to the limit.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file instead of standard output (required for html).")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Also simulate this many games (html: win rates and game lengths as charts).")
@click.option("--players", default="greedy,cautious,trader,random", show_default=True,
              help="Bots for --games, by seat.")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed for --games.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes for --games.")
@FORCE_OPTION
def analyze(ruleset: str, variants: tuple[str, ...], jail: str, fmt: str, output: str | None, games: int | None,
            players: str, seed: int, jobs: int, force: bool) -> None:
    """Exact long-run landing odds (a Markov chain built from the ruleset) and money tables.

    The odds are the share of rolls that end on each square, "In Jail" apart
    from "Just Visiting". The money tables give, for each property and building
    level, the expected rent per opponent turn, the cost to get there and the
    opponent turns it takes to pay back; the same per group.
    """
    from monopoly import analyze as run_analysis

    if fmt == "html" and output is None:
        raise click.UsageError("--format html needs -o FILE")
    if output is not None and not force and os.path.lexists(output):
        raise click.ClickException(f"not writing {shown(output)}: it already exists (give --force to replace it)")
    loaded = load_or_exit(ruleset, variants)
    data = run_analysis(loaded, jail)
    simulation = _simulate(loaded, games, players, seed, jobs) if games else None
    if fmt == "json":
        if simulation is not None:
            data["simulation"] = simulation.to_json()
        _write(json.dumps(data, indent=2, ensure_ascii=False) + "\n", output, force)
    elif fmt == "html":
        from monopoly import render_report_html

        _write(render_report_html(loaded, data, simulation.to_json() if simulation else None), output or "", force)
        click.echo(f"wrote {shown(output)}", err=True)
    else:
        _write(_text(data, simulation), output, force)


def _simulate(ruleset: Any, games: int, players: str, seed: int, jobs: int) -> Any:
    from monopoly import simulate

    from .simulate_command import parse_players

    names = parse_players(players)
    problem = ruleset.players_problem(len(names))
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--players'")
    return simulate(ruleset, names, games, seed=seed, jobs=jobs)


def _write(text: str, output: str | None, force: bool) -> None:
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text, force=force)


def _text(data: dict[str, Any], simulation: Any) -> str:
    currency = data["currency"]
    lines = [f"{data['ruleset']}{' + ' + ', '.join(data['variants']) if data['variants'] else ''}: "
             f"landing odds, {data['jail']} jail stay ({data['rolls_per_turn']:.4f} rolls per turn)", ""]
    rows = sorted(data["landing"], key=lambda r: -r["probability"])
    lines.append("  rank  idx  space                          share of rolls")
    for rank, row in enumerate(rows, 1):
        lines.append(f"  {rank:>4}  {row['index']:>3}  {row['name']:<30} {100 * row['probability']:7.3f}%")
    lines.append(f"        --  In Jail                        {100 * data['in_jail']:7.3f}%")
    if data.get("approximate"):
        lines += ["", "These odds are approximate:"] + [f"  - {reason}" for reason in data["approximate"]]
        lines.append("  (simulate the ruleset, --games N, for figures that follow the conditions)")
    lines += ["", "Groups by payback (opponent turns to earn back the cost):",
              "  group         level       rent/turn        cost  payback"]
    groups = sorted((g for g in data["money"]["groups"] if g["payback_turns"]), key=lambda g: g["payback_turns"])
    for g in groups:
        lines.append(f"  {g['name']:<13} {g['level']:<9} {currency}{g['rent_per_turn']:>9.2f} "
                     f"{currency}{g['cost']:>9}  {g['payback_turns']:7.1f}")
    lines += ["", "Properties at their best level by payback:",
              "  space                          level       rent/turn        cost  payback"]
    best: dict[int, dict[str, Any]] = {}
    for row in data["money"]["spaces"]:
        known = best.get(row["index"])
        if row["payback_turns"] and (known is None or row["payback_turns"] < known["payback_turns"]):
            best[row["index"]] = row
    for row in sorted(best.values(), key=lambda r: r["payback_turns"]):
        lines.append(f"  {row['name']:<30} {row['level']:<9} {currency}{row['rent_per_turn']:>9.2f} "
                     f"{currency}{row['cost']:>9}  {row['payback_turns']:7.1f}")
    left_out = data["money"].get("left_out") or []
    if left_out:
        lines += ["", "Not in these tables (their kind's rent reads the game, so it is known only in play):",
                  "  " + ", ".join(left_out)]
    text = "\n".join(lines) + "\n"
    if simulation is not None:
        from .simulate_command import format_text

        text += "\n" + format_text(simulation)
    return text
