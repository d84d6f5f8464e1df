"""`monopoly compare` (what a rule change does) and `monopoly balance` (the starting cash that evens the seats)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from monopoly import (
    BACKENDS,
    BOTS,
    COMPARE_FIGURES,
    TURN_CEILING,
    BackendError,
    OutputError,
    Ruleset,
    balance,
    compare,
    escape,
    ray_available,
    render_compare_html,
)

from .files import FORCE_OPTION, refusal, shown, write_atomic
from .ruleset_commands import VARIANT_OPTION, load_or_exit
from .simulate_command import AGENT_TIMEOUT_OPTION, DEFAULT_PLAYERS, parse_players

PLAYERS_OPTION = click.option(
    "--players", default=DEFAULT_PLAYERS, show_default=True, metavar="A,B,...",
    help=f"One agent a seat, in seat order: a bot ({', '.join(BOTS)}), module:Class for an agent class of "
         "your own, or exec:COMMAND for an agent in another process (docs/protocol.md). Both sides play the "
         "same agents.")
SEED_OPTION = click.option("--seed", type=int, default=1, show_default=True,
                           help="Seed of the first game; game i uses SEED + i.")
JOBS_OPTION = click.option(
    "--jobs", type=click.IntRange(min=1), default=None,
    help="Worker processes (default 1); with --backend ray, the CPUs of the local cluster the command starts "
         "(default: all). Results are the same for any number.")
MAX_TURNS_OPTION = click.option("--max-turns", type=click.IntRange(min=1, max=TURN_CEILING), default=1000,
                                show_default=True, help="Stop a game after this many turns (it then has no winner).")
BACKEND_OPTION = click.option(
    "--backend", type=click.Choice(list(BACKENDS)), default="local", show_default=True,
    help="local: this machine's processes; ray: a Ray cluster (pip install 'monopoly-engine[ray]').")
ADDRESS_OPTION = click.option(
    "--address", metavar="HOST:PORT",
    help="With --backend ray: join the cluster at this address (as `ray start --head` printed it; 'auto' for "
         "one running on this machine); without it the command starts a local cluster.")
OUTPUT_OPTION = click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                             help="Write to FILE instead of standard output (required for html).")


def check_backend(backend: str, address: str | None) -> None:
    """Usage errors of --backend and --address, before anything is played."""
    if address is not None and backend != "ray":
        raise click.BadParameter("--address is the address of a Ray cluster: give it with --backend ray",
                                 param_hint="'--address'")
    if backend == "ray" and not ray_available():
        raise click.BadParameter("the ray backend needs Ray, which is not installed here: "
                                 "pip install 'monopoly-engine[ray]'", param_hint="'--backend'")


def check_output(output: str | None, force: bool) -> None:
    """Refuse an output file that exists before the games are played rather than after."""
    if output is not None and not force and os.path.lexists(output):
        raise click.ClickException(f"not writing {shown(output)}: it already exists (give --force to replace it)")


def emit(text: str, output: str | None, force: bool) -> None:
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_atomic(output, text if text.endswith("\n") else text + "\n", force=force)
        click.echo(f"wrote {shown(output)}", err=True)


def show_progress(output: str | None, fmt: str) -> bool:
    """A progress bar on stderr when a person watches: stderr a terminal, and the report not on it as JSON."""
    if not sys.stderr.isatty():
        return False
    return output is not None or (sys.stdout.isatty() and fmt == "text")


class Bars:
    """One progress bar a batch (or round), on stderr."""

    def __init__(self, enabled: bool, label: str):
        self.enabled = enabled
        self.label = label
        self.bar: Any = None

    def start(self, name: str, length: int) -> None:
        self.close()
        if self.enabled:
            self.bar = click.progressbar(length=length, label=f"{self.label} {name}", file=sys.stderr,
                                         show_pos=True, show_eta=True)
            self.bar.__enter__()

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@contextlib.contextmanager
def backend_errors() -> Iterator[None]:
    try:
        yield
    except BackendError as exc:
        raise click.ClickException(escape(str(exc))) from None
    except OutputError as exc:
        raise click.ClickException(refusal(exc)) from None


def _players_for(rulesets: list[Ruleset], players: str, agent_timeout: float) -> list[Any]:
    names = parse_players(players, classes=True, agent_timeout=agent_timeout)
    for ruleset in rulesets:
        problem = ruleset.players_problem(len(names))
        if problem is not None:
            raise click.BadParameter(problem, param_hint="'--players'")
    return names


def _precision(text: str | None) -> float | None:
    """``0.02``, ``2%`` or ``2 %``: a share; other figures take the number in their own unit."""
    if text is None:
        return None
    cleaned = text.strip()
    try:
        value = float(cleaned[:-1]) / 100 if cleaned.endswith("%") else float(cleaned)
    except ValueError:
        raise click.BadParameter(f"'{escape(text[:40])}' is not a number (0.02 or 2% for two percentage "
                                 "points)", param_hint="'--until-precision'") from None
    if not value > 0 or value != value or value == float("inf"):
        raise click.BadParameter("the precision must be a positive number", param_hint="'--until-precision'")
    return value


@click.command("compare")
@click.argument("base", metavar="BASE")
@VARIANT_OPTION
@click.option("--against", "against", metavar="OTHER",
              help="The ruleset to compare BASE with (a built-in name or a path); without it, BASE without "
                   "and with the --variant options.")
@click.option("--against-variant", "against_variants", multiple=True, metavar="W",
              help="Apply a variant to OTHER; repeat to combine.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games a side (a batch, with --until-precision).")
@PLAYERS_OPTION
@SEED_OPTION
@JOBS_OPTION
@MAX_TURNS_OPTION
@BACKEND_OPTION
@ADDRESS_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="text: tables; json: every figure; html: a page with charts (needs -o).")
@OUTPUT_OPTION
@click.option("--until-precision", "precision", metavar="P",
              help="Play more batches of --games until the 95% intervals of the differences of the "
                   "--precision-on figures are narrower than P (0.02 or 2% for rates; turns for the length).")
@click.option("--precision-on", "families", multiple=True, type=click.Choice(list(COMPARE_FIGURES)),
              help="The figures --until-precision watches (repeat; default: seats).")
@click.option("--max-games", type=click.IntRange(min=1), default=None,
              help="With --until-precision: stop at this many games a side (default 100000).")
@AGENT_TIMEOUT_OPTION
@FORCE_OPTION
def compare_command(base: str, variants: tuple[str, ...], against: str | None, against_variants: tuple[str, ...],
                    games: int, players: str, seed: int, jobs: int | None, max_turns: int, backend: str,
                    address: str | None, fmt: str, output: str | None, precision: str | None,
                    families: tuple[str, ...], max_games: int | None, agent_timeout: float, force: bool) -> None:
    """What a rule change does: BASE and the other side played on the same seeds by the same agents.

    `monopoly compare classic --variant free-parking-jackpot` compares classic without and with the
    variant; `--against OTHER [--against-variant W]...` compares BASE (with its --variant options) with
    another ruleset. The report sets side by side game length, win rates by seat and by strategy, the
    colour groups' owners, rent income per group, bankruptcies and the money in play, each with the
    difference (the other side minus BASE), its 95% interval, a significance test and the games it rests on.
    """
    if against is None:
        if not variants:
            raise click.UsageError("nothing to compare: give --variant V (BASE without and with it) or "
                                   "--against OTHER")
        if against_variants:
            raise click.UsageError("--against-variant goes with --against OTHER")
        left, right = load_or_exit(base, ()), load_or_exit(base, variants)
    else:
        left, right = load_or_exit(base, variants), load_or_exit(against, against_variants)
    names = _players_for([left, right], players, agent_timeout)
    if fmt == "html" and output is None:
        raise click.UsageError("--format html needs -o FILE")
    target = _precision(precision)
    if target is None and (families or max_games is not None):
        raise click.UsageError("--precision-on and --max-games go with --until-precision P")
    if target is not None and max_games is not None and max_games < games:
        raise click.BadParameter(f"--max-games {max_games} is fewer than the --games of one batch ({games})",
                                 param_hint="'--max-games'")
    check_backend(backend, address)
    check_output(output, force)
    bars = Bars(show_progress(output, fmt), "comparing")
    try:
        with backend_errors():
            result = compare(left, right, names, games, seed=seed, jobs=jobs, max_turns=max_turns,
                             backend=backend, address=address, progress=bars.update, until_precision=target,
                             precision_on=families or ("seats",), max_games=max_games,
                             on_batch=lambda number, count: bars.start(f"batch {number}" if target else "",
                                                                       2 * count))
    finally:
        bars.close()
    if fmt == "json":
        emit(json.dumps(result.to_json(), indent=2, ensure_ascii=False), output, force)
    elif fmt == "html":
        emit(render_compare_html(result), output, force)
    else:
        emit(result.to_text(), output, force)


@click.command("balance")
@click.argument("ruleset", metavar="NAME_OR_PATH")
@VARIANT_OPTION
@PLAYERS_OPTION
@click.option("--games", type=click.IntRange(min=1), default=4000, show_default=True,
              help="Games a round of the search (and of the re-check).")
@click.option("--rounds", type=click.IntRange(min=2), default=4, show_default=True,
              help="Rounds of the search: without a handicap, a probe, then at the estimate.")
@click.option("--recheck-games", type=click.IntRange(min=1), default=None,
              help="Games of the re-check on fresh seeds (default: --games).")
@SEED_OPTION
@JOBS_OPTION
@MAX_TURNS_OPTION
@click.option("--score", type=click.Choice(["wins", "leader"]), default="wins", show_default=True,
              help="wins: only games with a winner count; leader: the richest player wins a game stopped by "
                   "the turn cap.")
@click.option("--step", type=click.IntRange(min=1), default=10, show_default=True,
              help="Handicaps are multiples of this.")
@BACKEND_OPTION
@ADDRESS_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@OUTPUT_OPTION
@AGENT_TIMEOUT_OPTION
@FORCE_OPTION
def balance_command(ruleset: str, variants: tuple[str, ...], players: str, games: int, rounds: int,
                    recheck_games: int | None, seed: int, jobs: int | None, max_turns: int, score: str, step: int,
                    backend: str, address: str | None, fmt: str, output: str | None, agent_timeout: float,
                    force: bool) -> None:
    """The starting cash per seat that evens out the seats' win rates for these agents.

    Rounds of games on fresh seeds measure each seat's advantage and what starting cash is worth; the
    handicap found (it adds up to zero) is reported with its 95% intervals, then re-checked on seeds no
    round used: each seat's share of the wins with its interval, and a test of equal shares.
    """
    loaded = load_or_exit(ruleset, variants)
    names = _players_for([loaded], players, agent_timeout)
    check_backend(backend, address)
    check_output(output, force)
    bars = Bars(show_progress(output, fmt), "balancing")
    try:
        with backend_errors():
            found = balance(loaded, names, games, rounds, seed=seed, jobs=jobs, max_turns=max_turns, score=score,
                            step=step, recheck_games=recheck_games, backend=backend, address=address,
                            progress=bars.update,
                            on_round=lambda k, _: bars.start("re-check" if k == rounds else f"round {k}",
                                                             recheck_games or games if k == rounds else games))
    finally:
        bars.close()
    if fmt == "json":
        emit(json.dumps(found.to_json(), indent=2, ensure_ascii=False), output, force)
    else:
        emit(found.to_text(), output, force)
