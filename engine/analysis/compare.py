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
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from typing import Any

import attrs

from ..game.core import TURN_CEILING, players_problem
from ..game.end import Result
from ..ruleset.model import Ruleset
from ..sim import (
    DECIMALS,
    AgentSpec,
    Progress,
    SimulationResult,
    Summary,
    ray_cluster,
    simulate,
    spec_name,
    summarize,
    wilson,
)
from .render import INK, esc, nice_step, percent, safe_colour
from .report import BAR_COLOUR, CSP, MARK_COLOUR, STYLE, _svg_open, count_grid

#: Resamples of the bootstrap of medians and percentiles.
BOOTSTRAP = 1000
#: Checkpoints of the money in play over a game: every tenth of the turn cap (every 100 turns without one).
CHECKPOINTS = 10
#: A p value below this is called significant (and marked ``*`` in the text).
ALPHA = 0.05
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


# ---------------------------------------------------------------------------- statistics


def _lentz(terms: Callable[[int], float], first: float, limit: int = 500) -> float:
    """The continued fraction ``1 / (first + t1 / (1 + t2 / (1 + ...)))`` by the modified Lentz method,
    ``terms(j)`` giving the numerator ``tj``."""
    tiny = 1e-300
    d = first if abs(first) > tiny else tiny
    d = 1.0 / d
    c = 1.0 / tiny
    value = d
    for j in range(1, limit):
        t = terms(j)
        d = 1.0 + t * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + t / c
        c = c if abs(c) > tiny else tiny
        step = c * d
        value *= step
        if abs(step - 1.0) < 1e-15:
            break
    return value


def beta_regularized(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``.

    >>> round(beta_regularized(2, 3, 0.4), 6)  # 1 - (1-x)^4 - 4x(1-x)^3 for a=2, b=3
    0.5248
    """
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on the other side: use the symmetry
        return 1.0 - beta_regularized(b, a, 1.0 - x)

    def terms(j: int) -> float:
        m, odd = divmod(j, 2)
        if odd:  # t(2m+1)
            return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))

    return front / a * _lentz(terms, 1.0)


def t_two_sided(t: float, df: float) -> float:
    """The two-sided p value of Student's t with ``df`` degrees of freedom.

    >>> round(t_two_sided(2.228139, 10), 4)
    0.05
    """
    if not math.isfinite(t):
        return 0.0
    return beta_regularized(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (``p`` above one half), by bisection.

    >>> round(t_quantile(0.975, 10), 3), round(t_quantile(0.975, 1e9), 3)
    (2.228, 1.96)
    """
    target = 2 * (1 - p)
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > target:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if t_two_sided(mid, df) > target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def chi2_upper(x: float, k: int) -> float:
    """The upper tail ``P(X >= x)`` of the chi-square distribution with ``k`` degrees of freedom.

    >>> round(chi2_upper(7.814728, 3), 4)
    0.05
    """
    if x <= 0:
        return 1.0
    s, half = k / 2, x / 2
    log_front = -half + s * math.log(half) - math.lgamma(s)
    if half < s + 1:  # the series of the lower tail
        term = total = 1.0 / s
        n = 0
        while abs(term) > abs(total) * 1e-16 and n < 10_000:
            n += 1
            term *= half / (s + n)
            total += term
        return max(0.0, 1.0 - math.exp(log_front) * total)

    def terms(j: int) -> float:  # Q(s, x) as a continued fraction, the denominators folded into the terms
        return -j * (j - s) / ((half + 2 * j - 1 - s) * (half + 2 * j + 1 - s))

    return min(1.0, math.exp(log_front) / (half + 1 - s) * _lentz(terms, 1.0))


def normal_two_sided(z: float) -> float:
    """The two-sided p value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


@attrs.frozen
class Figure:
    """One figure of both sides: ``difference`` is ``other - base``, ``ci95`` its 95% interval, ``p_value``
    the test's (None when there is too little data), ``n`` the games each side's value rests on."""

    family: str
    key: str
    section: str
    label: str
    unit: str  # share | turns | money | count
    base: float | None
    other: float | None
    difference: float | None
    ci95: tuple[float, float] | None
    p_value: float | None
    test: str
    n: tuple[int, int]

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA

    @property
    def width(self) -> float | None:
        return None if self.ci95 is None else self.ci95[1] - self.ci95[0]

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "key": self.key, "section": self.section, "label": self.label,
                "unit": self.unit, "base": _round(self.base), "other": _round(self.other),
                "difference": _round(self.difference),
                "ci95": None if self.ci95 is None else [_round(x) for x in self.ci95],
                "p_value": _round(self.p_value), "significant": self.significant, "test": self.test,
                "games": list(self.n)}


def _round(x: float | None) -> float | None:
    if x is None:
        return None
    value = round(x, DECIMALS)
    return 0.0 if value == 0 else value  # never "-0.0"


def proportion_figure(family: str, key: str, section: str, label: str, hits: tuple[int, int],
                      n: tuple[int, int]) -> Figure:
    """A rate of both sides: the two-proportion z test, and Newcombe's interval of the difference.

    >>> f = proportion_figure("cap", "cap", "Game length", "stopped", (30, 45), (100, 100))
    >>> round(f.difference, 2), [round(x, 3) for x in f.ci95], round(f.p_value, 3)
    (0.15, [0.016, 0.277], 0.028)
    """
    (xa, xb), (na, nb) = hits, n
    if na == 0 or nb == 0:
        pa = xa / na if na else None
        pb = xb / nb if nb else None
        return Figure(family, key, section, label, "share", pa, pb, None, None, None, "two-proportion z", n)
    pa, pb = xa / na, xb / nb
    la, ua = wilson(xa, na)
    lb, ub = wilson(xb, nb)
    d = pb - pa
    ci = (d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))
    pooled = (xa + xb) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    p = 1.0 if se == 0 else normal_two_sided(d / se)
    return Figure(family, key, section, label, "share", pa, pb, d, ci, p, "two-proportion z", n)


def mean_figure(family: str, key: str, section: str, label: str, unit: str, a: Sequence[float],
                b: Sequence[float]) -> Figure:
    """A mean of both sides: Welch's t test and interval.

    >>> f = mean_figure("length", "mean", "Game length", "mean", "turns", [1, 2, 3, 4], [2, 4, 6, 8])
    >>> f.difference, [round(x, 3) for x in f.ci95], round(f.p_value, 3)
    (2.5, [-1.364, 6.364], 0.152)
    """
    n = (len(a), len(b))
    ma = statistics.fmean(a) if a else None
    mb = statistics.fmean(b) if b else None
    if ma is None or mb is None or n[0] < 2 or n[1] < 2:
        d = None if ma is None or mb is None else mb - ma
        return Figure(family, key, section, label, unit, ma, mb, d, None, None, "Welch t", n)
    va, vb = statistics.variance(a, ma) / n[0], statistics.variance(b, mb) / n[1]
    d = mb - ma
    se = math.sqrt(va + vb)
    if se == 0:
        return Figure(family, key, section, label, unit, ma, mb, d, (d, d), 1.0 if d == 0 else 0.0, "Welch t", n)
    df = (va + vb) ** 2 / ((va * va / (n[0] - 1) if va else 0.0) + (vb * vb / (n[1] - 1) if vb else 0.0))
    half = t_quantile(0.975, df) * se
    return Figure(family, key, section, label, unit, ma, mb, d, (d - half, d + half),
                  t_two_sided(d / se, df), "Welch t", n)


def nearest_rank(ordered: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of sorted values (as ``simulate`` reports the p90)."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _median(ordered: Sequence[float]) -> float:
    return float(statistics.median(ordered))


def bootstrap_figures(family: str, section: str, unit: str, a: Sequence[float], b: Sequence[float],
                      statistics_: Sequence[tuple[str, str, Callable[[Sequence[float]], float]]], seed: int,
                      resamples: int = BOOTSTRAP) -> list[Figure]:
    """Figures of statistics of sorted samples (medians, percentiles): bootstrap intervals and p values from
    one generator seeded with ``seed`` (the same figures every time)."""
    n = (len(a), len(b))
    sa, sb = sorted(a), sorted(b)
    if not sa or not sb:
        return [Figure(family, key, section, label, unit, None, None, None, None, None, "bootstrap", n)
                for key, label, _ in statistics_]
    rng = random.Random(seed)
    diffs: list[list[float]] = [[] for _ in statistics_]
    for _ in range(resamples):
        ra = sorted(rng.choices(sa, k=len(sa)))
        rb = sorted(rng.choices(sb, k=len(sb)))
        for out, (_, _, stat) in zip(diffs, statistics_, strict=True):
            out.append(stat(rb) - stat(ra))
    figures = []
    for out, (key, label, stat) in zip(diffs, statistics_, strict=True):
        out.sort()
        low, high = nearest_rank(out, 0.025), nearest_rank(out, 0.975)
        below = sum(1 for d in out if d <= 0) / resamples
        above = sum(1 for d in out if d >= 0) / resamples
        figures.append(Figure(family, key, section, label, unit, stat(sa), stat(sb), stat(sb) - stat(sa),
                              (low, high), min(1.0, 2 * min(below, above)), "bootstrap", n))
    return figures


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
                "batches": [{"games": g, "widest": _round(w)} for g, w in self.batches], "reached": self.reached}


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
                                     [("length.median", "median (turns)", _median),
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
        problem = players_problem(ruleset, len(names))
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


# ---------------------------------------------------------------------------- the page

#: The two sides' colours in the charts: the base as the report's bars, the other side in a warm contrast.
SIDE_COLOURS = (BAR_COLOUR, "#c8553d")
COMPARE_STYLE = """
.legend { display: flex; gap: 18px; margin: 6px 0 12px; font-size: 13px; }
.legend span.key { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }
td.sig { font-weight: 600; }
table.figures td:first-child { white-space: nowrap; }
.charts figure { max-width: 640px; }
"""


def render_compare_html(comparison: Comparison) -> str:
    """The comparison as one self-contained HTML page (no scripts, a content security policy, every text from a
    ruleset escaped), with charts in the style of the designer's report."""
    c = comparison
    title = f"{c.base.label} vs {c.other.label}"
    cap = f"turn cap {c.max_turns}" if c.max_turns is not None else f"turn cap {TURN_CEILING} (the ceiling)"
    facts = [f"{c.games} games a side", f"seeds {c.seeds[0]}–{c.seeds[1]}, the same on both sides",
             "seats: " + ", ".join(esc(p) for p in c.players), esc(cap)]
    if c.precision is not None:
        p = c.precision
        facts.append(f"playing until the 95% intervals of {esc(', '.join(p.families))} were narrower than "
                     f"{p.target:g}: {'reached' if p.reached else 'not reached'} after {len(p.batches)} "
                     f"batch{'es' * (len(p.batches) != 1)}")
    by_section: dict[str, list[Figure]] = {}
    for figure in c.figures:
        by_section.setdefault(figure.section, []).append(figure)
    sections = [_overview_section(c), _length_section(c, by_section.get("Game length", [])),
                _seat_section(c, by_section.get("Win rate by seat", []) + by_section.get("Win rate by strategy", [])),
                _groups_section(c, by_section), _rent_section(c, by_section.get("Rent income per game", [])),
                _money_section(c, by_section.get("Money in play (players' cash and the pot)", [])),
                _table_section("bankruptcies", "Bankruptcies", by_section.get("Bankruptcies", []), c)]
    links = [("overview", "At a glance"), ("length", "Game length"), ("seats", "Win rates"),
             ("groups", "Colour groups"), ("rent", "Rent"), ("money", "Money in play"),
             ("bankruptcies", "Bankruptcies")]
    nav = "".join(f'<a href="#{anchor}">{esc(text)}</a>' for anchor, text in links)
    legend = "".join(f'<span><span class="key" style="background:{colour}"></span>{letter}: {esc(side.label)}'
                     f"</span>" for letter, side, colour in (("A", c.base, SIDE_COLOURS[0]),
                                                            ("B", c.other, SIDE_COLOURS[1])))
    tests = "; ".join(f"<b>{esc(name)}</b>: {esc(text)}" for name, text in TESTS.items())
    notes = "".join(f'<p class="note">{esc(note)}</p>' for note in c.notes)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="monopoly-engine {esc(version())}">',
        f"<title>{esc(title)} — comparison</title>",
        f"<style>{STYLE}{COMPARE_STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        f'<header><h1>{esc(title)}</h1><p class="meta">{" · ".join(facts)}</p>'
        f'<div class="legend">{legend}</div></header>',
        f"<nav>{nav}</nav>",
        *sections,
        notes,
        f'<footer>Made by monopoly-engine {esc(version())}. Differences are B − A with their 95% intervals. '
        f"Tests: {tests} ({BOOTSTRAP} resamples, seed {c.seed}). Both sides play the same seeds; the tests treat "
        f"them as independent samples, which is conservative. Bold p values are below {ALPHA}; with this many "
        f"figures about one in {round(1 / ALPHA)} is by chance.</footer>",
        "</main>",
        "</body>",
        "</html>",
        "",
    ])


def _figure_table(table_id: str, figures: Sequence[Figure]) -> str:
    rows = []
    for f in figures:
        ci = "—" if f.ci95 is None else (f"{esc(format_value(f.ci95[0], f.unit, signed=True))} … "
                                         f"{esc(format_value(f.ci95[1], f.unit, signed=True))}")
        games = f"{f.n[0]}" if f.n[0] == f.n[1] else f"{f.n[0]} / {f.n[1]}"
        sig = ' class="num sig"' if f.significant else ' class="num"'
        rows.append(f'<tr data-key="{esc(f.key)}"><td>{esc(f.label)}</td>'
                    f'<td class="num">{esc(format_value(f.base, f.unit))}</td>'
                    f'<td class="num">{esc(format_value(f.other, f.unit))}</td>'
                    f'<td class="num">{esc(format_value(f.difference, f.unit, signed=True))}</td>'
                    f'<td class="num">{ci}</td><td{sig}>{esc(format_p(f.p_value))}</td>'
                    f"<td>{esc(f.test)}</td><td class=\"num\">{games}</td></tr>")
    return (f'<table id="{esc(table_id)}" class="figures"><thead><tr><th>Figure</th><th class="num">A</th>'
            '<th class="num">B</th><th class="num">B − A</th><th class="num">95% interval of B − A</th>'
            '<th class="num">p</th><th>Test</th><th class="num">Games</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _table_section(anchor: str, heading: str, figures: Sequence[Figure], c: Comparison,
                   charts: Sequence[str] = (), intro: str = "") -> str:
    parts = [f'<section id="{esc(anchor)}"><h2>{esc(heading)}</h2>']
    if intro:
        parts.append(f'<p class="note">{intro}</p>')
    if charts:
        parts.append('<div class="charts">' + "".join(charts) + "</div>")
    parts.append(_figure_table(f"table-{anchor}", figures) if figures
                 else '<p class="note">Nothing to compare here.</p>')
    parts.append("</section>")
    return "".join(parts)


def _overview_section(c: Comparison) -> str:
    chosen = [f for f in c.figures if f.unit == "share" and f.family in ("seats", "strategies", "cap", "never-ends",
                                                                          "bankruptcies")]
    chart = _forest([(f.label, f) for f in chosen], "share", "forest forest-rates",
                    "differences of the rates with their 95% intervals")
    intro = ("Each line is a difference B − A with its 95% interval; a filled dot is significant at the 5% level. "
             "An interval that crosses zero is consistent with no effect.")
    return (f'<section id="overview"><h2>At a glance</h2><p class="note">{intro}</p>'
            f'<div class="charts">{_chart("Differences of the rates (B − A)", chart)}</div></section>')


def _chart(caption: str, svg: str) -> str:
    return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"


def _length_section(c: Comparison, figures: Sequence[Figure]) -> str:
    chart = _length_bars([r.turns for r in c.base.results], [r.turns for r in c.other.results],
                         [r.end == "turn_limit" for r in c.base.results],
                         [r.end == "turn_limit" for r in c.other.results])
    return _table_section("length", "Game length", figures, c, [_chart("Games by length in turns", chart)],
                          "Turns per game; games stopped by the turn cap are in the last bin, outlined. "
                          "'Never ends': stopped by the cap with every player still in the game.")


def _seat_section(c: Comparison, figures: Sequence[Figure]) -> str:
    seats = [f for f in figures if f.family == "seats"]
    rows = [(f.label, f) for f in seats]
    chart = _paired_bars(rows, "win-compare", "win rates by seat, both sides, with 95% intervals",
                         [_wilson_of(c.base.results, seat) for seat in range(len(seats))],
                         [_wilson_of(c.other.results, seat) for seat in range(len(seats))])
    fair = 1 / len(c.players) if c.players else 0
    intro = (f"Share of all games each seat won (games without a winner count for nobody); bars carry their 95% "
             f"Wilson intervals. If every seat were equally strong and every game had a winner, each would win "
             f"{percent(fair, 1)}.")
    return _table_section("seats", "Win rates by seat and strategy", figures, c,
                          [_chart("Win rate by seat (A above, B below)", chart)], intro)


def _wilson_of(results: Sequence[Result], seat: int) -> tuple[float, float]:
    return wilson(sum(1 for r in results if r.winner == seat), len(results))


def _groups_section(c: Comparison, by_section: dict[str, list[Figure]]) -> str:
    owners = by_section.get("Won by the owner of the colour group", [])
    completed = by_section.get("Colour group held whole by someone", [])
    colours = {g.key: g.color for g in c.base.ruleset.groups}
    rows = [(f.label, f) for f in owners]
    n = (len(c.base.results), len(c.other.results))
    a_ci = [wilson(round((f.base or 0) * n[0]), n[0]) for f in owners]
    b_ci = [wilson(round((f.other or 0) * n[1]), n[1]) for f in owners]
    swatches = [colours.get(f.key.split(".", 1)[1]) for f in owners]
    chart = _paired_bars(rows, "group-compare", "share of games won by the owner of each colour group",
                         a_ci, b_ci, swatches)
    intro = ("The owner of a colour group is the first player to hold all of it. 'Won by the owner': the share of "
             "all games won by that player; 'held whole': the share of games in which someone held the group.")
    return (f'<section id="groups"><h2>Colour groups</h2><p class="note">{intro}</p>'
            f'<div class="charts">{_chart("Share of games won by the group’s owner", chart)}</div>'
            "<h3>Won by the owner of the group</h3>"
            + (_figure_table("table-owners", owners) if owners else '<p class="note">No colour groups.</p>')
            + "<h3>Held whole by someone</h3>"
            + (_figure_table("table-completed", completed) if completed else "") + "</section>")


def _rent_section(c: Comparison, figures: Sequence[Figure]) -> str:
    colours = {g.key: g.color for g in c.base.ruleset.groups}
    rows = [(f.label, f) for f in figures]
    a_ci = [_mean_ci([rec.rent[c.base.plan.groups.index(f.key.split(".", 1)[1])] for rec in c.base.records])
            for f in figures]
    b_ci = [_mean_ci([rec.rent[c.other.plan.groups.index(f.key.split(".", 1)[1])] for rec in c.other.records])
            for f in figures]
    swatches = [colours.get(f.key.split(".", 1)[1]) for f in figures]
    chart = _paired_bars(rows, "rent-compare", "rent income per game by group", a_ci, b_ci, swatches,
                         currency=c.base.ruleset.currency)
    return _table_section("rent", "Rent income per game, by group", figures, c,
                          [_chart("Mean rent paid per game to the owners of each group", chart)],
                          "Rent paid by the players who landed on the group's lots, per game, with 95% intervals "
                          "of the means.")


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    if len(values) < 2:
        m = values[0] if values else 0.0
        return (m, m)
    m = statistics.fmean(values)
    half = 1.959963984540054 * statistics.stdev(values, m) / math.sqrt(len(values))
    return (m - half, m + half)


def _money_section(c: Comparison, figures: Sequence[Figure]) -> str:
    step = c.base.plan.step
    series = []
    for side in (c.base, c.other):
        points = []
        for k in range(len(figures)):
            values = [rec.money[k] for rec in side.records if len(rec.money) > k]
            if values:
                low, high = _mean_ci(values)
                points.append((k * step, statistics.fmean(values), low, high))
        series.append(points)
    chart = _money_lines(series, c.base.ruleset.currency)
    return _table_section("money", "Money in play over time", figures, c,
                          [_chart("Mean money in play (players' cash and the pot) by turn, with 95% bands", chart)],
                          "The players' cash and the pot at each checkpoint, among the games still going then "
                          "(the count is in the table).")


def _axis_scale(low: float, high: float, ticks: int = 6) -> tuple[float, float, float]:
    """A round range covering ``low`` .. ``high`` (which includes 0) and its tick step."""
    span = max(high - low, 1e-9)
    step = float(nice_step(span, ticks))
    return (math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step, step)


def _tick_text(value: float, unit: str, currency: str = "") -> str:
    if abs(value) < 1e-9:
        value = 0.0  # never "-0%"
    if unit == "share":
        digits = 0 if abs(100 * value - round(100 * value)) < 1e-6 else 1
        return f"{100 * value:.{digits}f}%"
    if unit == "money":
        return f"{esc(currency)}{value:,.0f}"
    return f"{value:g}"


def _forest(rows: Sequence[tuple[str, Figure]], unit: str, cls: str, label: str) -> str:
    """Differences as dots with their intervals as lines, around a zero line."""
    label_width, right, row_height = 250.0, 24.0, 22.0
    width = 560.0
    usable = [(name, f) for name, f in rows if f.difference is not None and f.ci95 is not None]
    height = 40 + max(1, len(usable)) * row_height + 30
    reach = max([abs(x) for _, f in usable for x in (f.ci95 or (0.0, 0.0))] + [0.01])
    low, high, step = _axis_scale(-reach, reach, 6)
    plot = width - label_width - right

    def x(value: float) -> float:
        return label_width + plot * (value - low) / (high - low)

    axis_y = height - 26
    out = [_svg_open(width, height, cls, label)]
    tick = low
    while tick <= high + step / 2:
        out.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="18" y2="{axis_y:.1f}" stroke="#e3e0d6"/>'
                   f'<text x="{x(tick):.1f}" y="{axis_y + 16:.1f}" text-anchor="middle" fill="{INK}">'
                   f"{_tick_text(tick, unit)}</text>")
        tick += step
    out.append(f'<line class="zero" x1="{x(0):.1f}" x2="{x(0):.1f}" y1="14" y2="{axis_y:.1f}" '
               f'stroke="{MARK_COLOUR}" stroke-width="1.2"/>')
    for i, (name, f) in enumerate(usable):
        assert f.ci95 is not None and f.difference is not None
        y = 30 + i * row_height
        colour = SIDE_COLOURS[1] if f.significant else MARK_COLOUR
        fill = colour if f.significant else "#fffdf7"
        tip = (f"{name}: {format_value(f.difference, f.unit, signed=True)} (95% interval "
               f"{format_value(f.ci95[0], f.unit, signed=True)} to {format_value(f.ci95[1], f.unit, signed=True)}, "
               f"p {format_p(f.p_value)})")
        out.append(f'<text x="{label_width - 8:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">'
                   f"{esc(name)}</text>")
        out.append(f'<g class="interval" stroke="{colour}" stroke-width="1.6"><title>{esc(tip)}</title>'
                   f'<line x1="{x(f.ci95[0]):.1f}" x2="{x(f.ci95[1]):.1f}" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<circle class="estimate" cx="{x(f.difference):.1f}" cy="{y:.1f}" r="4" fill="{fill}"/></g>')
    out.append("</svg>")
    return "".join(out)


def _paired_bars(rows: Sequence[tuple[str, Figure]], cls: str, label: str,
                 a_ci: Sequence[tuple[float, float]], b_ci: Sequence[tuple[float, float]],
                 swatches: Sequence[str | None] | None = None, currency: str = "") -> str:
    """Two horizontal bars a row (A, then B), each with its 95% interval as an error bar."""
    label_width, right, bar, gap = 170.0, 70.0, 11.0, 10.0
    width = 560.0
    plot = width - label_width - right
    height = 30 + len(rows) * (2 * bar + gap) + 30
    unit = rows[0][1].unit if rows else "share"
    highest = max([hi for _, hi in list(a_ci) + list(b_ci)] + [(f.base or 0) for _, f in rows]
                  + [(f.other or 0) for _, f in rows] + [0.01 if unit == "share" else 1.0])
    _, top, step = _axis_scale(0.0, highest, 5)

    def x(value: float) -> float:
        return label_width + plot * max(0.0, value) / top

    axis_y = height - 26
    out = [_svg_open(width, height, f"chart-paired {cls}", label)]
    tick = 0.0
    while tick <= top + step / 2:
        out.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="18" y2="{axis_y:.1f}" stroke="#e3e0d6"/>'
                   f'<text x="{x(tick):.1f}" y="{axis_y + 16:.1f}" text-anchor="middle" fill="{INK}">'
                   f"{_tick_text(tick, unit, currency)}</text>")
        tick += step
    for i, (name, f) in enumerate(rows):
        y = 22 + i * (2 * bar + gap)
        swatch = safe_colour(swatches[i]) if swatches and swatches[i] else None
        text_x = label_width - 8
        if swatch is not None:
            out.append(f'<rect x="{label_width - 18:.1f}" y="{y + bar - 5:.1f}" width="10" height="10" '
                       f'fill="{swatch}" stroke="#555"/>')
            text_x = label_width - 24
        out.append(f'<text x="{text_x:.1f}" y="{y + bar + 4:.1f}" text-anchor="end" fill="{INK}">'
                   f"{esc(name)}</text>")
        for side, (value, (low, high)) in enumerate(((f.base, a_ci[i]), (f.other, b_ci[i]))):
            if value is None:
                continue
            top_y = y + side * bar
            mid = top_y + bar / 2
            letter = "AB"[side]
            tip = (f"{name}, {letter}: {format_value(value, unit)} (95% interval {format_value(low, unit)} to "
                   f"{format_value(high, unit)})")
            out.append(f'<rect class="bar bar-{letter.lower()}" x="{label_width:.1f}" y="{top_y:.1f}" '
                       f'width="{x(value) - label_width:.1f}" height="{bar - 1:.1f}" fill="{SIDE_COLOURS[side]}">'
                       f"<title>{esc(tip)}</title></rect>")
            out.append(f'<g class="error-bar" stroke="{MARK_COLOUR}" stroke-width="1.2">'
                       f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{mid:.1f}" y2="{mid:.1f}"/>'
                       f'<line x1="{x(low):.1f}" x2="{x(low):.1f}" y1="{mid - 4:.1f}" y2="{mid + 4:.1f}"/>'
                       f'<line x1="{x(high):.1f}" x2="{x(high):.1f}" y1="{mid - 4:.1f}" y2="{mid + 4:.1f}"/></g>')
            out.append(f'<text x="{x(high) + 5:.1f}" y="{mid + 4:.1f}" font-size="10" fill="{INK}">'
                       f"{letter} {esc(format_value(value, unit))}</text>")
    out.append(f'<line x1="{label_width}" x2="{label_width}" y1="18" y2="{axis_y:.1f}" stroke="{MARK_COLOUR}"/>')
    out.append("</svg>")
    return "".join(out)


def _length_bars(a: Sequence[int], b: Sequence[int], a_capped: Sequence[bool], b_capped: Sequence[bool]) -> str:
    """Games by length in bins, the two sides' bars side by side; capped games outlined."""
    width, height = 560.0, 300.0
    left, right, top_margin, bottom = 48.0, 16.0, 24.0, 44.0
    plot_w, plot_h = width - left - right, height - top_margin - bottom
    everything = list(a) + list(b)
    if not everything:
        return _svg_open(width, height, "length-compare", "no games") + "</svg>"
    low, high = min(everything), max(everything)
    bin_width = max(1, math.ceil(nice_step(max(1, high - low + 1), 20)))
    start = (low // bin_width) * bin_width
    bins = max(1, (high - start) // bin_width + 1)
    counts = [[0] * bins, [0] * bins]
    capped = [[0] * bins, [0] * bins]
    for side, (values, caps) in enumerate(((a, a_capped), (b, b_capped))):
        for value, cap in zip(values, caps, strict=True):
            slot = (value - start) // bin_width
            counts[side][slot] += 1
            capped[side][slot] += cap
    tallest = max(max(counts[0]), max(counts[1]), 1)
    y_step = max(1, math.ceil(nice_step(tallest, 5)))
    y_top = math.ceil(tallest / y_step) * y_step
    end = start + bins * bin_width

    def x(turn: float) -> float:
        return left + plot_w * (turn - start) / (end - start)

    def y(games: float) -> float:
        return top_margin + plot_h * (1 - games / y_top)

    out = [_svg_open(width, height, "length-compare", "game lengths of both sides")]
    out += count_grid(y, y_top, y_step, left, width - right)
    for slot in range(bins):
        x0, x1 = x(start + slot * bin_width), x(start + (slot + 1) * bin_width)
        half = (x1 - x0 - 1) / 2
        for side in (0, 1):
            count = counts[side][slot]
            if not count:
                continue
            letter = "AB"[side]
            span = f"{start + slot * bin_width}–{start + (slot + 1) * bin_width - 1}"
            outline = ' stroke="#1d1d1f" stroke-width="1"' if capped[side][slot] else ""
            out.append(f'<rect class="length-bar length-{letter.lower()}" x="{x0 + 0.5 + side * half:.1f}" '
                       f'y="{y(count):.1f}" width="{max(0.5, half):.1f}" height="{y(0) - y(count):.1f}" '
                       f'fill="{SIDE_COLOURS[side]}"{outline}><title>{letter}, {span} turns: {count} games'
                       f"{f' ({capped[side][slot]} stopped at the turn cap)' if capped[side][slot] else ''}"
                       "</title></rect>")
    ticks = max(1, math.ceil(bins / 8))
    for slot in range(0, bins + 1, ticks):
        turn = start + slot * bin_width
        out.append(f'<text x="{x(turn):.1f}" y="{height - bottom + 16:.1f}" text-anchor="middle" '
                   f'fill="{INK}">{turn}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="{MARK_COLOUR}"/>')
    out.append(f'<text x="{left}" y="{height - 8}" fill="{INK}">turns per game (bins of {bin_width})</text>')
    out.append("</svg>")
    return "".join(out)


def _money_lines(series: Sequence[Sequence[tuple[int, float, float, float]]], currency: str) -> str:
    """The mean money in play by turn, a line a side with its 95% band."""
    width, height = 560.0, 300.0
    left, right, top_margin, bottom = 70.0, 16.0, 20.0, 44.0
    plot_w, plot_h = width - left - right, height - top_margin - bottom
    points = [p for line in series for p in line]
    if not points:
        return _svg_open(width, height, "money-compare", "no data") + "</svg>"
    last = max(p[0] for p in points) or 1
    low_y, high_y, y_step = _axis_scale(min(0.0, min(p[2] for p in points)), max(p[3] for p in points), 5)
    x_step = float(nice_step(last, 8))

    def x(turn: float) -> float:
        return left + plot_w * turn / last

    def y(value: float) -> float:
        return top_margin + plot_h * (1 - (value - low_y) / (high_y - low_y))

    out = [_svg_open(width, height, "money-compare", "money in play by turn, both sides")]
    value = low_y
    while value <= high_y + y_step / 2:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                   f'stroke="#e3e0d6"/><text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" '
                   f'fill="{INK}">{_tick_text(value, "money", currency)}</text>')
        value += y_step
    turn = 0.0
    while turn <= last + x_step / 2:
        out.append(f'<text x="{x(turn):.1f}" y="{height - bottom + 16:.1f}" text-anchor="middle" '
                   f'fill="{INK}">{turn:g}</text>')
        turn += x_step
    for side, line in enumerate(series):
        if not line:
            continue
        letter = "AB"[side]
        band = [f"{x(t):.1f},{y(hi):.1f}" for t, _, _, hi in line] + \
               [f"{x(t):.1f},{y(lo):.1f}" for t, _, lo, _ in reversed(line)]
        out.append(f'<polygon class="band band-{letter.lower()}" points="{" ".join(band)}" '
                   f'fill="{SIDE_COLOURS[side]}" fill-opacity="0.18" stroke="none"/>')
        path = " ".join(f"{x(t):.1f},{y(m):.1f}" for t, m, _, _ in line)
        out.append(f'<polyline class="line line-{letter.lower()}" points="{path}" fill="none" '
                   f'stroke="{SIDE_COLOURS[side]}" stroke-width="2"/>')
        for t, m, lo, hi in line:
            out.append(f'<circle cx="{x(t):.1f}" cy="{y(m):.1f}" r="2.5" fill="{SIDE_COLOURS[side]}">'
                       f"<title>{letter}, after {t} turns: {_tick_text(m, 'money', currency)} (95% interval "
                       f"{_tick_text(lo, 'money', currency)} to {_tick_text(hi, 'money', currency)})</title>"
                       "</circle>")
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(low_y):.1f}" y2="{y(low_y):.1f}" '
               f'stroke="{MARK_COLOUR}"/>')
    out.append(f'<text x="{left}" y="{height - 8}" fill="{INK}">turns played</text>')
    out.append("</svg>")
    return "".join(out)


def version() -> str:
    try:
        return metadata.version("monopoly-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "(not installed)"


__all__ = [
    "FAMILIES", "Comparison", "Figure", "FiguresFactory", "GameFigures", "GameRecord", "Plan", "Precision", "Side",
    "beta_regularized", "chi2_upper", "compare", "format_text", "mean_figure", "proportion_figure",
    "render_compare_html",
    "t_quantile", "t_two_sided",
]
