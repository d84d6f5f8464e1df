"""What a rule change does: two rulesets played on the same seeds by the same agents, figure by figure.

:func:`compare` plays game ``i`` of both sides with seed ``seed + i`` (so the
same dice start both games) and the same agents, gathers figures of every game
with an event observer in the worker that plays it (:class:`GameFigures`:
rent income per group, who first held each colour group, the money in play
over time), and sets the two sides side by side. Every figure comes with the
difference (the other side minus the base), its 95% interval and a test fit
for it:

* rates (win rate by seat and by strategy, turn-cap share...): the
  two-proportion z test, with Newcombe's hybrid score interval of the
  difference (built from the two Wilson intervals);
* means (game length, rent income, bankruptcies, money in play): Welch's t
  test, with the Welch–Satterthwaite interval;
* the median and the 90th percentile of the game length: a bootstrap of a
  fixed number of resamples from a generator seeded with the run's seed, the
  percentile interval, and the p value from the share of resampled
  differences on the other side of zero.

The statistics are in :mod:`monopoly.analysis.stats`, the page in :mod:`monopoly.analysis.compare_page`.

The tests treat the sides as independent samples. The shared seeds make the
games of a pair alike (at least early), which narrows the true spread of a
difference, so the tests are conservative.

``until_precision`` plays more batches of games until the chosen figures'
95% intervals are narrower than it (up to ``max_games``); each figure states
the number of games it rests on (the games still going, for the money in
play at a turn).

Everything is deterministic: the same arguments give the same figures, on any
number of workers or on a Ray cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from typing import Any

import attrs

from ..game.core import TURN_CEILING
from ..game.end import Result
from ..ruleset.model import Ruleset
from ..sim import (
    AgentSpec,
    Progress,
    SimulationResult,
    Summary,
    ray_cluster,
    simulate,
    spec_name,
    summarize,
)
from .stats import (
    ALPHA,
    BOOTSTRAP,
    Figure,
    beta_regularized,
    bootstrap_figures,
    chi2_upper,
    mean_figure,
    median_sorted,
    nearest_rank,
    proportion_figure,
    rounded,
    t_quantile,
    t_two_sided,
)

#: Checkpoints of the money in play over a game: every tenth of the turn cap (every 100 turns without one).
CHECKPOINTS = 10
#: Games a side at most when playing until a precision is reached.
MAX_GAMES = 100_000
#: The families of figures ``until_precision`` can be asked of, and what they hold.
FAMILIES = {
    "seats": "win rate by seat",
    "strategies": "win rate by strategy",
    "length": "mean game length (turns)",
    "cap": "share stopped by the turn cap",
    "never-ends": "share of games that never end",
    "owners": "share of games won by the owner of each colour group",
    "completed": "share of games in which someone held each colour group",
    "rent": "rent income per group",
    "bankruptcies": "bankruptcies per game",
    "money": "money in play over time",
}
TESTS = {
    "two-proportion z": "two-proportion z test (pooled); interval: Newcombe's hybrid score interval",
    "Welch t": "Welch's t test; interval: Welch–Satterthwaite t interval",
    "bootstrap": "bootstrap of the difference; percentile interval; p: twice the share of resampled differences "
                 "on the other side of zero",
}


# ---------------------------------------------------------------------------- what each game gives


@attrs.frozen
class Plan:
    """What the observer of a game needs to know of the board (plain data: it goes to the workers)."""

    players: int
    groups: tuple[str, ...]  # every group's key, in ruleset order
    colour: tuple[bool, ...]  # the group is a colour group (all its lots are streets)
    members: tuple[tuple[int, ...], ...]
    group_of: tuple[int, ...]  # each space's group (its index in ``groups``), -1 for none
    step: int  # the money in play is read every ``step`` turns

    @classmethod
    def of(cls, ruleset: Ruleset, players: int, max_turns: int | None) -> Plan:
        groups = tuple(g for g in ruleset.groups if g.members)
        index = {g.key: i for i, g in enumerate(groups)}
        group_of = tuple(index.get(s.group, -1) if s.group is not None else -1 for s in ruleset.board)
        colour = tuple(all(ruleset.board[m].buildable for m in g.members) for g in groups)
        step = max(1, math.ceil(max_turns / CHECKPOINTS)) if max_turns is not None else 100
        return cls(players, tuple(g.key for g in groups), colour, tuple(tuple(g.members) for g in groups),
                   group_of, step)


@attrs.frozen
class GameRecord:
    """The figures of one game beyond its :class:`~monopoly.game.end.Result`."""

    rent: tuple[int, ...]  # rent received for the lots of each group
    first_holder: tuple[int, ...]  # the first seat to hold the whole of each group, -1 for nobody
    money: tuple[int, ...]  # the players' cash and the pot after 0, step, 2 step ... turns


class GameFigures:
    """The observer of one game (a :class:`monopoly.sim.Measure`): it follows the documented events only
    (docs/events.md), so it gives the same figures however the engine plays."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.position = [0] * plan.players
        self.owner: dict[int, int] = {}
        self.rent = [0] * len(plan.groups)
        self.first = [-1] * len(plan.groups)
        self.money = 0
        self.samples: list[int] = []

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "payment":
            amount, frm, to = event["amount"], event["from"], event["to"]
            if frm == "bank":
                self.money += amount
            if to == "bank":
                self.money -= amount
            if event["reason"] == "rent" and isinstance(frm, int) and isinstance(to, int):
                group = self.plan.group_of[self.position[frm]]
                if group >= 0:
                    self.rent[group] += amount
        elif kind == "move":
            self.position[event["seat"]] = event["to"]
        elif kind == "turn":
            if (event["turn"] - 1) % self.plan.step == 0:
                self.samples.append(self.money)
        elif kind == "buy":
            self._own(event["space"], event["seat"])
        elif kind == "auction":
            if event["item"] == "space" and event["winner"] is not None:
                self._own(event["space"], event["winner"])
        elif kind == "property":
            self._own(event["space"], event["to"] if isinstance(event["to"], int) else -1)
        elif kind == "game_end":
            turns = event["turns"]
            if turns % self.plan.step == 0 and len(self.samples) == turns // self.plan.step:
                self.samples.append(self.money)  # a game stopped on a checkpoint: its money there

    def _own(self, space: int, seat: int) -> None:
        if seat < 0:
            self.owner.pop(space, None)
            return
        self.owner[space] = seat
        group = self.plan.group_of[space] if 0 <= space < len(self.plan.group_of) else -1
        if group >= 0 and self.first[group] < 0 and all(
                self.owner.get(m) == seat for m in self.plan.members[group]):
            self.first[group] = seat

    def finish(self, result: Result) -> GameRecord:
        return GameRecord(tuple(self.rent), tuple(self.first), tuple(self.samples))


class FiguresFactory:
    """Makes a :class:`GameFigures` for every game (picklable: it goes to worker processes and Ray)."""

    def __init__(self, plan: Plan):
        self.plan = plan

    def __call__(self) -> GameFigures:
        return GameFigures(self.plan)


# ---------------------------------------------------------------------------- the two sides


@attrs.frozen
class Side:
    """One side of a comparison: its ruleset, its games and their figures."""

    label: str
    ruleset: Ruleset
    plan: Plan
    results: tuple[Result, ...]
    records: tuple[GameRecord, ...]
    summary: Summary


def side_label(ruleset: Ruleset) -> str:
    return ruleset.id + "".join(f" + {v}" for v in ruleset.variants)


@attrs.frozen
class Precision:
    """What ``until_precision`` asked and got: the widest interval of the chosen figures after each batch."""

    target: float
    families: tuple[str, ...]
    max_games: int
    batches: tuple[tuple[int, float | None], ...]  # (games a side so far, widest interval then)
    reached: bool

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "figures": list(self.families), "max_games": self.max_games,
                "batches": [{"games": g, "widest": rounded(w)} for g, w in self.batches], "reached": self.reached}


@attrs.frozen
class Comparison:
    """Two sides played on the same seeds by the same agents, and their figures side by side."""

    base: Side
    other: Side
    players: tuple[str, ...]
    seed: int
    games: int
    max_turns: int | None
    figures: tuple[Figure, ...]
    precision: Precision | None = None
    notes: tuple[str, ...] = ()

    @property
    def seeds(self) -> tuple[int, int]:
        return (self.seed, self.seed + self.games - 1)

    def figure(self, key: str) -> Figure:
        for figure in self.figures:
            if figure.key == key:
                return figure
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        """The comparison for scripts: both sides' summaries, every figure, the tests used."""
        return {
            "base": {"label": self.base.label, "summary": self.base.summary.to_json()},
            "other": {"label": self.other.label, "summary": self.other.summary.to_json()},
            "players": list(self.players), "games": self.games, "seeds": list(self.seeds),
            "max_turns": self.max_turns, "difference": "other - base",
            "figures": [f.to_json() for f in self.figures],
            "tests": dict(TESTS), "bootstrap": {"resamples": BOOTSTRAP, "seed": self.seed},
            "alpha": ALPHA, "precision": self.precision.to_json() if self.precision is not None else None,
            "notes": list(self.notes),
        }

    def to_text(self) -> str:
        return format_text(self)


def _won_by(seats: Iterable[int]) -> Callable[[Result], bool]:
    chosen = frozenset(seats)
    return lambda result: result.winner in chosen


def compute_figures(base: Side, other: Side, players: Sequence[str], seed: int, *,
                    quantiles: bool = True) -> tuple[list[Figure], list[str]]:
    """Every figure of the two sides (and notes on what could not be compared); ``quantiles``: with the
    bootstrapped median and p90 of the length (the slowest figures)."""
    notes: list[str] = []
    figures = _length_figures(base.results, other.results, seed, quantiles)
    figures += _win_figures(base.results, other.results, players)
    figures += _group_figures(base, other, notes)
    figures += _bankruptcy_figures(base.results, other.results)
    figures += _money_figures(base, other, notes)
    return figures, notes


def _rate(family: str, key: str, section: str, label: str, ra: Sequence[Result], rb: Sequence[Result],
          test: Callable[[Result], bool]) -> Figure:
    """The figure of the share of each side's games that pass ``test``."""
    hits = (sum(1 for r in ra if test(r)), sum(1 for r in rb if test(r)))
    return proportion_figure(family, key, section, label, hits, (len(ra), len(rb)))


def _length_figures(ra: Sequence[Result], rb: Sequence[Result], seed: int, quantiles: bool) -> list[Figure]:
    """The game length's mean (median and p90 too with ``quantiles``), the turn cap's share, the games never ending."""
    section = "Game length"
    turns_a, turns_b = [r.turns for r in ra], [r.turns for r in rb]
    figures = [mean_figure("length", "length.mean", section, "mean (turns)", "turns", turns_a, turns_b)]
    if quantiles:
        figures += bootstrap_figures("length-quantiles", section, "turns", turns_a, turns_b,
                                     [("length.median", "median (turns)", median_sorted),
                                      ("length.p90", "p90 (turns)", lambda s: float(nearest_rank(s, 0.9)))], seed)
    figures.append(_rate("cap", "length.turn_cap", section, "stopped by the turn cap", ra, rb,
                         lambda r: r.end == "turn_limit"))
    figures.append(_rate("never-ends", "length.never_ends", section, "never ends (capped with nobody out)", ra, rb,
                         lambda r: r.end == "turn_limit" and not any(s.bankrupt for s in r.standings)))
    return figures


def _win_figures(ra: Sequence[Result], rb: Sequence[Result], players: Sequence[str]) -> list[Figure]:
    """The win rate of each seat, and of each strategy when the seats are not all played by one."""
    section = "Win rate by seat"
    figures = [_rate("seats", f"seat.{seat}", section, f"seat {seat} ({name})", ra, rb, _won_by({seat}))
               for seat, name in enumerate(players)]
    agents = list(dict.fromkeys(players))
    if len(agents) > 1:
        section = "Win rate by strategy"
        for name in agents:
            seats = frozenset(s for s, other_name in enumerate(players) if other_name == name)
            figures.append(_rate("strategies", f"strategy.{name}", section,
                                 f"{name} ({len(seats)} seat{'s' * (len(seats) != 1)})", ra, rb, _won_by(seats)))
    return figures


def _holders(side: Side, index: int) -> list[int]:
    """The first seat to hold the whole of group ``index`` in each game of ``side`` (-1: nobody)."""
    return [record.first_holder[index] for record in side.records]


def _group_figures(base: Side, other: Side, notes: list[str]) -> list[Figure]:
    """Of the groups both sides have: who won after holding each colour group whole, how often someone did, the
    rent income of each group; the groups of one side only go to ``notes``."""
    ra, rb = base.results, other.results
    n = (len(ra), len(rb))
    groups_a = {key: i for i, key in enumerate(base.plan.groups)}
    groups_b = {key: i for i, key in enumerate(other.plan.groups)}
    shared = [key for key in base.plan.groups if key in groups_b]
    only = sorted(set(groups_a) ^ set(groups_b))
    if only:
        notes.append("groups on one side only, not compared: " + ", ".join(only))
    names = {g.key: g.name for g in base.ruleset.groups}
    colour = [key for key in shared if base.plan.colour[groups_a[key]] and other.plan.colour[groups_b[key]]]
    figures: list[Figure] = []
    section = "Won by the owner of the colour group"
    for key in colour:
        ha, hb = _holders(base, groups_a[key]), _holders(other, groups_b[key])
        won = (sum(1 for h, r in zip(ha, ra, strict=True) if h >= 0 and r.winner == h),
               sum(1 for h, r in zip(hb, rb, strict=True) if h >= 0 and r.winner == h))
        figures.append(proportion_figure("owners", f"owner.{key}", section, names.get(key, key), won, n))
    section = "Colour group held whole by someone"
    for key in colour:
        ha, hb = _holders(base, groups_a[key]), _holders(other, groups_b[key])
        figures.append(proportion_figure("completed", f"completed.{key}", section, names.get(key, key),
                                         (sum(1 for h in ha if h >= 0), sum(1 for h in hb if h >= 0)), n))
    section = "Rent income per game"
    for key in shared:
        figures.append(mean_figure("rent", f"rent.{key}", section, names.get(key, key), "money",
                                   [record.rent[groups_a[key]] for record in base.records],
                                   [record.rent[groups_b[key]] for record in other.records]))
    return figures


def _bankruptcy_figures(ra: Sequence[Result], rb: Sequence[Result]) -> list[Figure]:
    """The bankruptcies per game, and the share of games with one."""
    section = "Bankruptcies"
    out_a = [sum(s.bankrupt for s in r.standings) for r in ra]
    out_b = [sum(s.bankrupt for s in r.standings) for r in rb]
    return [mean_figure("bankruptcies", "bankruptcies.mean", section, "bankruptcies per game", "count", out_a, out_b),
            proportion_figure("bankruptcies", "bankruptcies.any", section, "games with a bankruptcy",
                              (sum(1 for x in out_a if x), sum(1 for x in out_b if x)), (len(ra), len(rb)))]


def _money_figures(base: Side, other: Side, notes: list[str]) -> list[Figure]:
    """The mean money in play at each checkpoint, of the games still going there (a note when the sides' differ)."""
    section = "Money in play (players' cash and the pot)"
    if base.plan.step != other.plan.step:  # pragma: no cover - both sides share the turn cap
        notes.append("the sides read the money in play at different turns: not compared")
        return []
    step = base.plan.step
    longest = max([len(rec.money) for rec in base.records + other.records] + [0])
    figures: list[Figure] = []
    for k in range(longest):
        a = [rec.money[k] for rec in base.records if len(rec.money) > k]
        b = [rec.money[k] for rec in other.records if len(rec.money) > k]
        figures.append(mean_figure("money", f"money.{k * step}", section, f"after {k * step} turns", "money", a, b))
    return figures


def _side(ruleset: Ruleset, plan: Plan, runs: Sequence[SimulationResult], names: Sequence[str],
          max_turns: int | None) -> Side:
    results = tuple(r for run in runs for r in run.results)
    records = tuple(m for run in runs for m in run.measures)
    summary = summarize(results, names, ruleset=ruleset.id, variants=ruleset.variants, max_turns=max_turns)
    return Side(side_label(ruleset), ruleset, plan, results, records, summary)


def compare(base: Ruleset, other: Ruleset, players: Sequence[AgentSpec], games: int = 1000, seed: int = 1,
            jobs: int | None = None, max_turns: int | None = 1000, *, backend: str = "local",
            address: str | None = None, progress: Progress | None = None,
            until_precision: float | None = None, precision_on: Sequence[str] = ("seats",),
            max_games: int | None = None, on_batch: Callable[[int, int], None] | None = None) -> Comparison:
    """Play ``games`` games of ``base`` and of ``other`` on seeds ``seed`` .. ``seed + games - 1`` between the
    agents of ``players`` (as :func:`monopoly.sim.simulate` takes them), and compare them figure by figure.

    ``until_precision``: after the first batch, play further batches of ``games`` (the next seeds) until every
    figure of the families ``precision_on`` (keys of :data:`FAMILIES`) has a 95% interval of its difference
    narrower than this, in the figure's own unit (a share for rates: 0.02 is two percentage points; turns for
    the game length), or ``max_games`` games a side (:data:`MAX_GAMES` by default) are played.
    ``on_batch(number, games)`` is told when a batch of ``games`` a side starts; ``progress(n)`` as ``n``
    more games finish (both sides counted).

    The other arguments are :func:`monopoly.sim.simulate`'s. ``ValueError`` for a bad count or an unknown
    family.
    """
    names = [spec_name(spec) for spec in players]
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    for ruleset in (base, other):
        problem = ruleset.players_problem(len(names))
        if problem is not None:
            raise ValueError(problem)
    unknown = [f for f in precision_on if f not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown figures {', '.join(unknown)}: choose among {', '.join(FAMILIES)}")
    if until_precision is not None and not (until_precision > 0 and math.isfinite(until_precision)):
        raise ValueError(f"the precision must be a positive number, not {until_precision}")
    cap = max_games if max_games is not None else (MAX_GAMES if until_precision is not None else games)
    if cap < games:
        raise ValueError(f"max_games ({cap}) is fewer than the games of one batch ({games})")
    plans = (Plan.of(base, len(names), max_turns), Plan.of(other, len(names), max_turns))
    runs: tuple[list[SimulationResult], list[SimulationResult]] = ([], [])
    batches: list[tuple[int, float | None]] = []
    played = 0
    with ray_cluster(backend, address, jobs):  # one cluster for every batch of both sides
        while True:
            count = min(games, cap - played)
            if on_batch is not None:
                on_batch(len(batches) + 1, count)
            for ruleset, plan, out in zip((base, other), plans, runs, strict=True):
                out.append(simulate(ruleset, players, count, seed=seed + played, jobs=jobs, max_turns=max_turns,
                                    progress=progress, measure=FiguresFactory(plan), backend=backend,
                                    address=address))
            played += count
            sides = (_side(base, plans[0], runs[0], names, max_turns), _side(other, plans[1], runs[1], names,
                                                                               max_turns))
            if until_precision is None:
                break
            watched, _ = compute_figures(sides[0], sides[1], names, seed, quantiles=False)
            widths = [f.width for f in watched if f.family in precision_on and f.width is not None and min(f.n) >= 2]
            widest = max(widths) if widths else None
            batches.append((played, widest))
            if (widest is not None and widest < until_precision) or played >= cap:
                break
    figures, notes = compute_figures(sides[0], sides[1], names, seed)
    precision = None
    if until_precision is not None:
        reached = batches[-1][1] is not None and batches[-1][1] < until_precision
        precision = Precision(until_precision, tuple(precision_on), cap, tuple(batches), reached)
    return Comparison(sides[0], sides[1], tuple(names), seed, played, max_turns, tuple(figures), precision,
                      tuple(notes))


# ---------------------------------------------------------------------------- text


def format_value(value: float | None, unit: str, *, signed: bool = False) -> str:
    """A figure's value in its unit: a share as a percentage, turns and counts with decimals, money whole."""
    if value is None:
        return "—"
    sign = "+" if signed and value > 0 else ""
    if unit == "share":
        return f"{sign}{100 * value:.1f}%"
    if unit == "money":
        return f"{sign}{value:,.0f}"
    if unit == "count":
        return f"{sign}{value:.2f}"
    return f"{sign}{value:.1f}"


def format_p(p: float | None) -> str:
    if p is None:
        return "—"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]


def format_text(comparison: Comparison) -> str:
    """The comparison as tables for a terminal: each section's figures side by side with the difference."""
    c = comparison
    cap = f"turn cap {c.max_turns}" if c.max_turns is not None else f"turn cap {TURN_CEILING} (the ceiling)"
    lines = [f"A: {c.base.label}", f"B: {c.other.label}",
             f"{c.games} game{'s' * (c.games != 1)} a side, seeds {c.seeds[0]}..{c.seeds[1]}, the same seeds and "
             f"agents on both sides ({', '.join(c.players)}), {cap}"]
    if c.precision is not None:
        p = c.precision
        widest = p.batches[-1][1]
        state = "reached" if p.reached else f"not reached within {p.max_games} games a side"
        lines.append(f"Precision: 95% intervals narrower than {p.target:g} asked for "
                     f"{', '.join(p.families)}; {state} after {len(p.batches)} batch"
                     f"{'es' * (len(p.batches) != 1)} (widest {'—' if widest is None else f'{widest:.4g}'})")
    sections: dict[str, list[Figure]] = {}
    for figure in c.figures:
        sections.setdefault(figure.section, []).append(figure)
    header = ["", "A", "B", "B - A", "95% CI of B - A", "p", "test", "games"]
    for section, figures in sections.items():
        lines += ["", f"{section}:"]
        rows = [header]
        for f in figures:
            ci = "—" if f.ci95 is None else (f"{format_value(f.ci95[0], f.unit, signed=True)} .. "
                                             f"{format_value(f.ci95[1], f.unit, signed=True)}")
            games = f"{f.n[0]}" if f.n[0] == f.n[1] else f"{f.n[0]}/{f.n[1]}"
            rows.append([f.label, format_value(f.base, f.unit), format_value(f.other, f.unit),
                         format_value(f.difference, f.unit, signed=True), ci,
                         format_p(f.p_value) + ("*" if f.significant else " "), f.test, games])
        lines += _table(rows, right={1, 2, 3, 4, 5, 7})
    lines += ["", f"* p < {ALPHA}: the difference is unlikely to be chance alone. With this many figures, about one "
                  f"in {round(1 / ALPHA)} shows p < {ALPHA} by chance: look at what is large and consistent.",
              "Tests: " + "; ".join(f"{name}: {text}" for name, text in TESTS.items())
              + f" ({BOOTSTRAP} resamples, seed {c.seed}).",
              "The sides play the same seeds; the tests treat them as independent samples, which is conservative.",
              "Games: the games each figure rests on (A/B when they differ; the money in play counts the games "
              "still going). 'never ends': stopped by the turn cap with every player still in. The owner of a "
              "group is the first player to hold all of it."]
    lines += [f"Note: {note}" for note in c.notes]
    return "\n".join(lines)


def version() -> str:
    try:
        return metadata.version("monopoly-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "(not installed)"


__all__ = [
    "FAMILIES", "Comparison", "Figure", "FiguresFactory", "GameFigures", "GameRecord", "Plan", "Precision", "Side",
    "beta_regularized", "chi2_upper", "compare", "format_text", "mean_figure", "proportion_figure",
    "t_quantile", "t_two_sided",
]
