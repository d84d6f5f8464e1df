"""The statistics of a comparison (:mod:`monopoly.analysis.compare`): each figure of two samples with the
difference, its 95% interval and the test fit for it (rates: the two-proportion z test with Newcombe's hybrid
score interval; means: Welch's t test and interval; medians and percentiles: a seeded bootstrap), and the
distributions they rest on, written here (the regularized incomplete beta by Lentz's continued fraction, t,
chi-square and the normal) so that the package needs no numerical library.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..sim import DECIMALS, wilson

#: Resamples of the bootstrap of medians and percentiles.
BOOTSTRAP = 1000
#: A p value below this is called significant (and marked ``*`` in the text).
ALPHA = 0.05


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
                "unit": self.unit, "base": rounded(self.base), "other": rounded(self.other),
                "difference": rounded(self.difference),
                "ci95": None if self.ci95 is None else [rounded(x) for x in self.ci95],
                "p_value": rounded(self.p_value), "significant": self.significant, "test": self.test,
                "games": list(self.n)}


def rounded(x: float | None) -> float | None:
    """``x`` to the figures' decimals (never -0.0); None stays None."""
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


def median_sorted(ordered: Sequence[float]) -> float:
    """The median of sorted values, as a float."""
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


__all__ = [
    "ALPHA", "BOOTSTRAP", "Figure", "beta_regularized", "bootstrap_figures", "chi2_upper", "mean_figure",
    "median_sorted", "nearest_rank", "normal_two_sided", "proportion_figure", "t_quantile", "t_two_sided",
]
