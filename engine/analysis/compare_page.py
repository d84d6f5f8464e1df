"""The comparison as one HTML page (``monopoly compare --format html``): the figures' tables and charts in the
style of the designer's report, self-contained (no scripts, a content security policy, every text from a
ruleset escaped)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from ..game.core import TURN_CEILING
from ..game.end import Result
from ..sim import wilson
from .compare import TESTS, Comparison, format_p, format_value, version
from .render import INK, esc, nice_step, percent, safe_colour
from .report import BAR_COLOUR, CSP, MARK_COLOUR, STYLE, _svg_open, count_grid
from .stats import ALPHA, BOOTSTRAP, Figure

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


__all__ = ["render_compare_html"]
