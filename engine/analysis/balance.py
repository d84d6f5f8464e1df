"""Seat balance: the starting cash per seat that evens out the win rates by seat, for the given agents.

The seats' shares of the wins are modelled as a conditional logit: in a game
where seat ``i`` starts with ``h[i]`` more (or less) than the ruleset's
starting cash, seat ``i`` wins a decided game with probability proportional
to ``exp(a[i] + b * h[i])``. ``a`` is each seat's own strength (the order of
play, and the agent in it); ``b`` is what one unit of cash is worth. Rounds of
games are played on fresh seeds: the first without a handicap, the second
with a probe handicap against the advantage seen, the later ones at the
current estimate. The model is fitted to every round at once by maximum
likelihood (Newton's method), and the handicap that gives every seat the same
chance is ``h[i] = -(a[i] - mean(a)) / b``: it adds up to zero, so the money
at the table stays the same. Its 95% intervals come from the fit's
information matrix (the delta method). The handicap, rounded to ``step``, is
then re-checked on seeds no round used: each seat's share of the wins with its
Wilson interval, and a chi-square test of equal shares.

A game without a winner (stopped by the turn cap) counts for nobody with
``score="wins"``; with ``score="leader"`` the richest player then counts as its
winner, which uses every game.

>>> import monopoly
>>> from monopoly.analysis.balance import balance
>>> found = balance(monopoly.load_ruleset("classic"), ["greedy", "cautious"], games=60, rounds=3, seed=5,
...                 max_turns=300)
>>> sum(found.handicap), len(found.recheck.wins)
(0, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..game.end import Result
from ..ruleset.model import Ruleset
from ..sim import DECIMALS, Z95, AgentSpec, Progress, ray_cluster, simulate, spec_name, wilson
from .stats import chi2_upper

#: Games a round, and rounds of the search, by default (the re-check plays as many games as a round).
GAMES = 4000
ROUNDS = 4
#: Handicaps are multiples of this.
STEP = 10
SCORES = ("wins", "leader")
#: The probe of the second round moves the seats' cash by up to this share of the starting cash.
PROBE = 0.1
#: Pseudo-wins added to every seat in every round, so a seat that never wins keeps a finite strength.
PRIOR = 0.5


@attrs.frozen
class Round:
    """Games played with one handicap: the wins of each seat among the games that count (``decided``)."""

    handicap: tuple[int, ...]
    seeds: tuple[int, int]
    games: int
    decided: int
    wins: tuple[int, ...]

    def shares(self) -> list[float]:
        return [w / self.decided if self.decided else 0.0 for w in self.wins]

    def intervals(self) -> list[tuple[float, float]]:
        return [wilson(w, self.decided) for w in self.wins]

    def to_json(self) -> dict[str, Any]:
        return {"handicap": list(self.handicap), "seeds": list(self.seeds), "games": self.games,
                "decided": self.decided, "wins": list(self.wins),
                "shares": [_r(x) for x in self.shares()],
                "ci95": [[_r(lo), _r(hi)] for lo, hi in self.intervals()]}


def _r(x: float) -> float:
    value = round(x, DECIMALS)
    return 0.0 if value == 0 else value


@attrs.frozen
class Fit:
    """The fitted model: each seat's strength (seat 0 is 0), the worth of one unit of cash, their covariance."""

    strengths: tuple[float, ...]
    per_unit: float
    per_unit_ci95: tuple[float, float]
    handicap: tuple[float, ...]  # exact, before rounding
    handicap_ci95: tuple[tuple[float, float], ...]


@attrs.frozen
class BalanceResult:
    """The handicap found, the rounds that found it, and its re-check on fresh seeds."""

    ruleset: str
    variants: tuple[str, ...]
    players: tuple[str, ...]
    starting_cash: int
    currency: str
    score: str
    max_turns: int | None
    rounds: tuple[Round, ...]
    fit: Fit | None
    handicap: tuple[int, ...]
    clamped: bool  # the handicap hit the limit (no handicap within it evens the seats out)
    recheck: Round
    chi2: float
    p_value: float
    problem: str | None = None  # why no handicap could be fitted (cash makes no measurable difference...)

    @property
    def fair(self) -> float:
        return 1 / len(self.players)

    @property
    def balanced(self) -> bool:
        """Every seat's interval of its share in the re-check holds the fair share."""
        return all(lo <= self.fair <= hi for lo, hi in self.recheck.intervals())

    @property
    def cash(self) -> tuple[int, ...]:
        return tuple(self.starting_cash + h for h in self.handicap)

    def to_json(self) -> dict[str, Any]:
        fit = None
        if self.fit is not None:
            fit = {"strengths": [_r(a) for a in self.fit.strengths], "win_odds_per_100": _r(100 * self.fit.per_unit),
                   "win_odds_per_100_ci95": [_r(100 * x) for x in self.fit.per_unit_ci95],
                   "handicap": [_r(h) for h in self.fit.handicap],
                   "handicap_ci95": [[_r(lo), _r(hi)] for lo, hi in self.fit.handicap_ci95]}
        return {"ruleset": self.ruleset, "variants": list(self.variants), "players": list(self.players),
                "starting_cash": self.starting_cash, "score": self.score, "max_turns": self.max_turns,
                "handicap": list(self.handicap), "cash": list(self.cash), "clamped": self.clamped,
                "fit": fit, "rounds": [r.to_json() for r in self.rounds], "recheck": self.recheck.to_json(),
                "fair_share": _r(self.fair), "chi2": _r(self.chi2), "p_value": _r(self.p_value),
                "balanced": self.balanced, "problem": self.problem}

    def to_text(self) -> str:
        return format_text(self)


# ---------------------------------------------------------------------------- the model


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix @ x = vector`` by Gaussian elimination with partial pivoting (``ValueError`` when singular)."""
    n = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ValueError("singular")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                if factor:
                    rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def fit_rounds(rounds: Sequence[Round], scale: float = 100.0) -> Fit:
    """The conditional logit of the module's docstring, fitted to ``rounds`` (``ValueError`` when the rounds
    cannot tell the worth of cash: one handicap only, or cash that does not help)."""
    n = len(rounds[0].wins)
    p = n  # a[1..n-1] and b (the worth of ``scale`` units of cash)
    theta = [0.0] * p

    def design(seat: int, cash: float) -> list[float]:
        x = [0.0] * p
        if seat:
            x[seat - 1] = 1.0
        x[-1] = cash / scale
        return x

    info: list[list[float]] = []
    for _ in range(100):
        gradient = [0.0] * p
        info = [[0.0] * p for _ in range(p)]
        for rnd in rounds:
            wins = [w + PRIOR for w in rnd.wins]
            total = sum(wins)
            xs = [design(i, rnd.handicap[i]) for i in range(n)]
            etas = [sum(t * x for t, x in zip(theta, xi, strict=True)) for xi in xs]
            top = max(etas)
            weights = [math.exp(e - top) for e in etas]
            norm = sum(weights)
            probs = [w / norm for w in weights]
            mean_x = [sum(probs[i] * xs[i][j] for i in range(n)) for j in range(p)]
            for i in range(n):
                for j in range(p):
                    gradient[j] += (wins[i] - total * probs[i]) * xs[i][j]
                    for k in range(p):
                        info[j][k] += total * probs[i] * (xs[i][j] - mean_x[j]) * (xs[i][k] - mean_x[k])
        try:
            change = _solve(info, gradient)
        except ValueError:
            raise ValueError("the rounds cannot tell what cash is worth (every round had the same handicap)") from None
        largest = max(abs(c) for c in change)
        if largest > 5:  # keep Newton's steps sane far from the optimum
            change = [c * 5 / largest for c in change]
        theta = [t + c for t, c in zip(theta, change, strict=True)]
        if largest < 1e-10:
            break
    covariance = _inverse(info)
    strengths = [0.0, *theta[:-1]]
    b = theta[-1]
    se_b = math.sqrt(max(0.0, covariance[-1][-1]))
    if b - Z95 * se_b <= 0:
        raise ValueError("more starting cash does not measurably win more games for these agents "
                         f"(worth of {scale:g}: {b:.3f} ± {Z95 * se_b:.3f} on the log-odds scale)")
    mean_a = sum(strengths) / n
    handicap = [-(a - mean_a) / b * scale for a in strengths]
    intervals = []
    for i in range(n):
        # the gradient of h[i] = -(a[i] - mean(a)) / b * scale in (a[1..n-1], b)
        grad = [-((1.0 if j + 1 == i else 0.0) - 1 / n) / b * scale for j in range(n - 1)]
        grad.append((strengths[i] - mean_a) / (b * b) * scale)
        var = sum(grad[j] * covariance[j][k] * grad[k] for j in range(p) for k in range(p))
        half = Z95 * math.sqrt(max(0.0, var))
        intervals.append((handicap[i] - half, handicap[i] + half))
    return Fit(tuple(strengths), b / scale, ((b - Z95 * se_b) / scale, (b + Z95 * se_b) / scale),
               tuple(handicap), tuple(intervals))


def round_handicap(values: Sequence[float], step: int, limit: int) -> tuple[tuple[int, ...], bool]:
    """``values`` as multiples of ``step`` within ``-limit .. limit``, adding up to zero; and whether any
    value had to be brought within the limit.

    >>> round_handicap([-104.0, -31.0, 37.0, 98.0], 10, 1500)
    ((-110, -30, 40, 100), False)
    """
    clamped = any(abs(v) > limit for v in values)
    exact = [max(-limit, min(limit, v)) for v in values]
    rounded = [step * round(v / step) for v in exact]
    # bring the sum back to zero, moving first the seats whose rounding went furthest
    while sum(rounded) != 0:
        direction = -1 if sum(rounded) > 0 else 1
        order = sorted(range(len(rounded)), key=lambda i: direction * (exact[i] - rounded[i]), reverse=True)
        for i in order:
            if -limit <= rounded[i] + direction * step <= limit:
                rounded[i] += direction * step
                break
        else:  # pragma: no cover - a zero sum is always reachable within the limit
            break
    return tuple(int(r) for r in rounded), clamped


def _score(score: str) -> Callable[[Result], int | None]:
    if score == "wins":
        return lambda result: result.winner
    return lambda result: result.winner if result.winner is not None else result.standings[0].seat


def balance(ruleset: Ruleset, players: Sequence[AgentSpec], games: int = GAMES, rounds: int = ROUNDS,
            seed: int = 1, jobs: int | None = None, max_turns: int | None = 1000, *, score: str = "wins",
            step: int = STEP, recheck_games: int | None = None, backend: str = "local",
            address: str | None = None, progress: Progress | None = None,
            on_round: Callable[[int, tuple[int, ...]], None] | None = None) -> BalanceResult:
    """Find the starting cash per seat that evens out the seats' win rates (see the module docstring).

    Round ``k`` (from 0) plays ``games`` games on seeds ``seed + k * games`` onwards; the re-check plays
    ``recheck_games`` (``games`` by default) on the seeds after the last round. The handicap is a multiple
    of ``step`` and stays within the starting cash either way. ``on_round(k, handicap)`` is told when a round
    starts (the re-check is round ``rounds``); ``progress`` is :func:`monopoly.sim.simulate`'s.
    """
    names = tuple(spec_name(spec) for spec in players)
    if score not in SCORES:
        raise ValueError(f"score must be one of {', '.join(SCORES)}, not {score!r}")
    if games < 1 or rounds < 2:
        raise ValueError("balance needs at least 1 game a round and 2 rounds (one to measure, one to probe)")
    if step < 1:
        raise ValueError(f"step must be at least 1, not {step}")
    refused = ruleset.players_problem(len(names))
    if refused is not None:
        raise ValueError(refused)
    n = len(names)
    limit = ruleset.starting_cash
    winner_of = _score(score)
    played: list[Round] = []
    next_seed = seed

    def play(handicap: tuple[int, ...], count: int) -> Round:
        nonlocal next_seed
        run = simulate(ruleset, players, count, seed=next_seed, jobs=jobs, max_turns=max_turns,
                       handicap=handicap, progress=progress, backend=backend, address=address)
        winners = [winner_of(r) for r in run.results]
        wins = tuple(sum(1 for w in winners if w == s) for s in range(n))
        done = Round(handicap, (next_seed, next_seed + count - 1), count, sum(wins), wins)
        next_seed += count
        return done

    fit: Fit | None = None
    problem: str | None = None
    handicap = (0,) * n
    clamped = False
    with ray_cluster(backend, address, jobs):
        for k in range(rounds):
            if k == 1:
                handicap = _probe(played[0], n, max(step, round(PROBE * limit)), step)
            elif k > 1 and fit is not None:
                handicap, clamped = round_handicap(fit.handicap, step, limit)
            if on_round is not None:
                on_round(k, handicap)
            played.append(play(handicap, games))
            if k >= 1:
                try:
                    fit = fit_rounds(played)
                    problem = None
                except ValueError as exc:
                    fit, problem = None, str(exc)
        if fit is not None:
            handicap, clamped = round_handicap(fit.handicap, step, limit)
        else:
            handicap, clamped = (0,) * n, False
        if on_round is not None:
            on_round(rounds, handicap)
        recheck = play(handicap, recheck_games or games)
    expected = recheck.decided / n
    chi2 = sum((w - expected) ** 2 / expected for w in recheck.wins) if expected else 0.0
    return BalanceResult(ruleset.id, tuple(ruleset.variants), names, ruleset.starting_cash, ruleset.currency, score,
                         max_turns, tuple(played), fit, handicap, clamped, recheck, chi2,
                         chi2_upper(chi2, n - 1) if expected else 1.0, problem)


def _probe(first: Round, n: int, size: int, step: int) -> tuple[int, ...]:
    """The second round's handicap: cash against the advantage the first round saw (alternating seats when it
    saw none), up to ``size``."""
    shares = first.shares()
    gaps = [s - 1 / n for s in shares]
    largest = max(abs(g) for g in gaps)
    raw: list[float]
    if largest == 0:
        raw = [float(size * (1 if i % 2 else -1)) for i in range(n)]
    else:
        raw = [-size * g / largest for g in gaps]
    mean = sum(raw) / n
    rounded, _ = round_handicap([r - mean for r in raw], step, size)
    if not any(rounded):  # too small to show at this step: one step apart, seat by seat in pairs
        rounded = tuple(0 if n % 2 and i == n - 1 else (step if i % 2 else -step) for i in range(n))
    return rounded


# ---------------------------------------------------------------------------- text


def format_text(result: BalanceResult) -> str:
    r = result
    title = r.ruleset + "".join(f" + {v}" for v in r.variants)
    counted = "games with a winner" if r.score == "wins" else "games, the richest player winning those capped"
    lines = [f"{title}: seat balance for {', '.join(r.players)} "
             f"({sum(x.games for x in r.rounds)} games in {len(r.rounds)} rounds, then a re-check)",
             f"Win shares count {counted}; the fair share is {100 * r.fair:.1f}% a seat.", ""]
    if r.problem is not None or r.fit is None:
        lines += [f"No handicap found: {r.problem}", ""]
    else:
        f = r.fit
        lines.append(f"Starting cash that evens out the seats ({r.currency}; the handicap adds up to zero, 95% "
                     "intervals of the exact handicap):")
        rows = [["seat", "agent", "cash", "handicap", "exact", "95% CI"]]
        for seat, name in enumerate(r.players):
            lo, hi = f.handicap_ci95[seat]
            rows.append([str(seat), name, f"{r.cash[seat]:,}", f"{r.handicap[seat]:+d}", f"{f.handicap[seat]:+.0f}",
                         f"{lo:+.0f} .. {hi:+.0f}"])
        lines += _table(rows, {0, 2, 3, 4, 5})
        lines.append(f"Each {r.currency}100 of starting cash multiplies a seat's odds of winning by "
                     f"{math.exp(100 * f.per_unit):.3f} (95% CI {math.exp(100 * f.per_unit_ci95[0]):.3f} .. "
                     f"{math.exp(100 * f.per_unit_ci95[1]):.3f}).")
        if r.clamped:
            lines.append(f"The handicap was held within ±{r.starting_cash:,}: no handicap within it evens the "
                         "seats out.")
        lines.append("")
    lines.append("Rounds (win shares by seat):")
    rows = [["round", "handicap", "seeds", "counted", *[f"seat {s}" for s in range(len(r.players))]]]
    for k, rnd in enumerate(r.rounds):
        rows.append([str(k), " ".join(f"{h:+d}" for h in rnd.handicap), f"{rnd.seeds[0]}..{rnd.seeds[1]}",
                     str(rnd.decided), *[f"{100 * s:.1f}%" for s in rnd.shares()]])
    lines += _table(rows, {0, 3, *range(4, 4 + len(r.players))})
    rc = r.recheck
    lines += ["", f"Re-check on fresh seeds {rc.seeds[0]}..{rc.seeds[1]} ({rc.games} games, {rc.decided} counted), "
                  f"cash {', '.join(f'{c:,}' for c in r.cash)}:"]
    rows = [["seat", "agent", "wins", "share", "95% CI", f"holds {100 * r.fair:.1f}%"]]
    for seat, (name, (lo, hi)) in enumerate(zip(r.players, rc.intervals(), strict=True)):
        rows.append([str(seat), name, str(rc.wins[seat]), f"{100 * rc.shares()[seat]:.1f}%",
                     f"{100 * lo:5.1f}% - {100 * hi:5.1f}%", "yes" if lo <= r.fair <= hi else "no"])
    lines += _table(rows, {0, 2, 3, 4})
    verdict = ("every seat's interval holds the fair share" if r.balanced
               else "some seat's interval misses the fair share")
    lines.append(f"Chi-square test of equal shares: {r.chi2:.2f} on {len(r.players) - 1} degrees of freedom, "
                 f"p = {r.p_value:.3f}; {verdict}.")
    return "\n".join(lines)


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]


__all__ = ["GAMES", "ROUNDS", "SCORES", "BalanceResult", "Fit", "Round", "balance", "fit_rounds", "round_handicap"]
