"""The designer's report: one self-contained HTML file with the board, the odds, the money and the games.

Everything is inline: the board and the charts are SVG written here, the
style is one ``<style>`` element, there is no script, and a Content Security
Policy forbids the page from loading anything, so the file looks the same
offline, attached to a mail or opened years later. All text that comes from a
ruleset file or the data is escaped.

``analysis`` is the data of ``monopoly analyze --format json``
(:func:`monopoly.analysis.analyze.analyze`): ``landing`` (one row per space:
``index``, ``name``, ``probability``), ``in_jail``, ``jail``,
``rolls_per_turn`` and ``money`` (``spaces`` and ``groups`` rows with
``level``, ``rent_per_turn``, ``cost`` and ``payback_turns``). ``simulation``
is :meth:`monopoly.sim.SimulationResult.to_json`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from typing import Any

from ..ruleset.model import Ruleset
from .render import INK, esc, heat_colour, nice_step, percent, render_board_svg, safe_colour

#: Forbid every fetch: the report must never reach the network (and has nothing to fetch).
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

#: Chart colours: one for bars, one for the error bars and marks, one for capped games.
BAR_COLOUR = "#2f6f9f"
MARK_COLOUR = "#1d1d1f"
CAPPED_COLOUR = "#d9a441"

STYLE = """
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d6cc; --paper: #fffdf7; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink);
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 48px; }
header h1 { margin: 0 0 4px; font-size: 28px; }
.meta { margin: 0; color: var(--muted); }
nav { margin: 12px 0 8px; font-size: 14px; }
nav a { color: #1f5f8b; margin-right: 16px; }
section { margin-top: 28px; }
h2 { font-size: 21px; margin: 0 0 10px; border-bottom: 2px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 17px; margin: 18px 0 8px; }
.columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(320px, 400px); gap: 24px; align-items: start; }
@media (max-width: 980px) { .columns { grid-template-columns: minmax(0, 1fr); } }
figure { margin: 0; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: middle; }
th { background: #efece2; font-weight: 600; position: sticky; top: 0; }
td.num, th.num { text-align: right; white-space: nowrap; }
table.landing td { padding: 2px 6px; }
table.landing td:nth-child(2) { white-space: nowrap; }
tr.jail td { font-style: italic; background: #f4f1e8; }
tr.best td { font-weight: 600; }
.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border: 1px solid #555;
          vertical-align: -1px; }
.meter { display: inline-block; height: 9px; vertical-align: 0; border: 1px solid rgba(0, 0, 0, 0.25); }
.note { color: var(--muted); font-size: 13px; }
details summary { cursor: pointer; margin: 12px 0 6px; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 24px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { th { position: static; } section { break-inside: avoid-page; } }
"""


def render_report_html(ruleset: Ruleset, analysis: Mapping[str, Any], simulation: Mapping[str, Any] | None) -> str:
    """The whole report as one HTML document (a string).

    Raises ``ValueError`` when ``analysis`` does not describe this board (a
    landing row missing, or one too many).
    """
    landing = _landing(ruleset, analysis)
    title = ruleset.name + (f" + {', '.join(ruleset.variants)}" if ruleset.variants else "")
    sections = [
        _board_section(ruleset, analysis, landing),
        _payback_section(ruleset, analysis.get("money")),
    ]
    links = [("board", "Board and landing odds"), ("payback", "Rent and payback")]
    if simulation is not None:
        sections.append(_simulation_section(simulation))
        links.append(("simulation", "Simulated games"))
    nav = "".join(f'<a href="#{anchor}">{esc(text)}</a>' for anchor, text in links)
    jail = analysis.get("jail", "short")
    stay = ("a jailed player pays the fine and leaves at once" if jail == "short"
            else "a jailed player waits for doubles up to the limit")
    facts = [f"ruleset <code>{esc(ruleset.id)}</code>", f"{len(ruleset.board)} spaces",
             f"jail stay: {esc(jail)} ({esc(stay)})"]
    if analysis.get("rolls_per_turn"):
        facts.append(f"{float(analysis['rolls_per_turn']):.3f} rolls per turn")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="monopoly-engine {esc(_version())}">',
        f"<title>{esc(title)} — designer's report</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        f'<header><h1>{esc(title)}</h1><p class="meta">{" · ".join(facts)}</p></header>',
        f"<nav>{nav}</nav>",
        *sections,
        f'<footer>Made by monopoly-engine {esc(_version())}. Landing odds are exact long-run shares of rolls '
        f"from a Markov chain built from the ruleset; rent per turn counts one opponent's turn, doubles "
        f"included.</footer>",
        "</main>",
        "</body>",
        "</html>",
        "",
    ])


def _version() -> str:
    try:
        return metadata.version("monopoly-engine")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "(not installed)"


def _landing(ruleset: Ruleset, analysis: Mapping[str, Any]) -> list[float]:
    """The landing probability of each space, in board order, from the rows of ``analysis["landing"]``."""
    rows = analysis.get("landing")
    if not isinstance(rows, Sequence) or len(rows) != len(ruleset.board):
        count = len(rows) if isinstance(rows, Sequence) else 0
        raise ValueError(f"the analysis has {count} landing rows for a board of {len(ruleset.board)} spaces")
    values = [0.0] * len(rows)
    seen = set()
    for position, row in enumerate(rows):
        index = int(row.get("index", position)) if isinstance(row, Mapping) else position
        if not 0 <= index < len(values) or index in seen:
            raise ValueError(f"the analysis has a landing row for space {index} twice or out of the board")
        seen.add(index)
        values[index] = float(row["probability"] if isinstance(row, Mapping) else row)
    return values


def _money(currency: str, amount: float | None, decimals: int = 0) -> str:
    if amount is None:
        return "—"
    return f"{esc(currency)}{amount:,.{decimals}f}"


def _swatch(colour: str | None) -> str:
    return f'<span class="swatch" style="background:{safe_colour(colour)}"></span>'


def _meter(fraction: float, colour: str, width: float = 120) -> str:
    size = max(0.0, min(1.0, fraction)) * width
    return f'<span class="meter" style="width:{size:.1f}px;background:{colour}"></span>'


# ---------------------------------------------------------------------------- board and odds


def _board_section(ruleset: Ruleset, analysis: Mapping[str, Any], landing: list[float]) -> str:
    svg = render_board_svg(ruleset, landing, id_prefix="report-board")
    in_jail = analysis.get("in_jail")
    top = max(landing, default=0.0) or 1.0
    rows = []
    for space, p in zip(ruleset.board, landing, strict=True):
        colour = _group_colour(ruleset, space.group) if space.buildable else None
        swatch = _swatch(colour) if colour else ""
        rows.append(f'<tr data-index="{space.index}"><td class="num">{space.index}</td>'
                    f"<td>{swatch}{esc(space.name)}</td><td class=\"num\">{percent(p, 3)}</td>"
                    f"<td>{_meter(p / top, heat_colour(p / top), 56)}</td></tr>")
    if in_jail is not None:
        rows.append(f'<tr class="jail"><td class="num">—</td><td>In Jail (not Just Visiting)</td>'
                    f'<td class="num">{percent(float(in_jail), 3)}</td><td></td></tr>')
    table = ('<table id="landing-table" class="landing"><thead><tr><th class="num">#</th><th>Space</th>'
             '<th class="num">Share of rolls</th><th></th></tr></thead><tbody>'
             + "".join(rows) + "</tbody></table>")
    ranked = sorted(range(len(landing)), key=lambda i: -landing[i])[:3]
    hottest = ", ".join(f"{esc(ruleset.board[i].name)} ({percent(landing[i])})" for i in ranked)
    caption = (f"Each square shaded by the share of rolls that end on it. Most landed on: {hottest}."
               + (f" In Jail: {percent(float(in_jail))} of rolls, apart from Just Visiting."
                  if in_jail is not None else ""))
    return (f'<section id="board"><h2>Board and landing odds</h2><div class="columns">'
            f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"
            f"<div>{table}</div></div></section>")


def _group_colour(ruleset: Ruleset, key: str | None) -> str | None:
    if key is None:
        return None
    try:
        return ruleset.group(key).color
    except KeyError:
        return None


# ---------------------------------------------------------------------------- money


def _money_rows(money: Any) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(space rows, group rows) of the money tables, whichever of the two shapes they come in."""
    if isinstance(money, Mapping):
        return list(money.get("spaces", [])), list(money.get("groups", []))
    if isinstance(money, Sequence):
        return list(money), []
    return [], []


def _payback_section(ruleset: Ruleset, money: Any) -> str:
    spaces, groups = _money_rows(money)
    currency = ruleset.currency
    parts = ['<section id="payback"><h2>Rent and payback</h2>',
             '<p class="note">Rent per opponent turn: how much one opponent pays on average each turn '
             "(landings per turn times the rent at that level). Payback: the opponent turns it takes to "
             "earn back the cost of getting there. The fastest level of each group is in bold.</p>"]
    if groups:
        parts.append("<h3>By group</h3>")
        parts.append(_group_table(ruleset, groups, currency))
    if spaces:
        parts.append(f"<details><summary>Every property and level ({len(spaces)} rows)</summary>"
                     f"{_space_table(ruleset, spaces, currency)}</details>")
    if not groups and not spaces:
        parts.append('<p class="note">No money tables in this analysis.</p>')
    parts.append("</section>")
    return "".join(parts)


def _payback_key(row: Mapping[str, Any]) -> float:
    value = row.get("payback_turns")
    return float(value) if value is not None else math.inf


def _group_table(ruleset: Ruleset, rows: list[Mapping[str, Any]], currency: str) -> str:
    by_group: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_group.setdefault(str(row.get("group")), []).append(row)
    fastest = min((_payback_key(r) for r in rows), default=math.inf)
    body = []
    for key, members in by_group.items():
        best = min(members, key=_payback_key)
        name = members[0].get("name") or key
        colour = _group_colour(ruleset, key)
        for position, row in enumerate(members):
            head = ""
            if position == 0:
                head = f'<td rowspan="{len(members)}">{_swatch(colour)}{esc(name)}</td>'
            payback = _payback_key(row)
            # the speed of payback next to the fastest row of the table (full bar)
            meter = _meter(fastest / payback, BAR_COLOUR, 90) if math.isfinite(payback) and payback > 0 else ""
            css = ' class="best"' if row is best and math.isfinite(payback) else ""
            body.append(f'<tr{css} data-group="{esc(key)}">{head}<td>{esc(row.get("level", ""))}</td>'
                        f'<td class="num">{_money(currency, row.get("rent_per_turn"), 2)}</td>'
                        f'<td class="num">{_money(currency, row.get("cost"))}</td>'
                        f'<td class="num">{_turns(row.get("payback_turns"))}</td><td>{meter}</td></tr>')
    return ('<table id="group-payback" class="payback"><thead><tr><th>Group</th><th>Level</th>'
            '<th class="num">Rent per opponent turn</th><th class="num">Cost</th>'
            '<th class="num">Payback (opponent turns)</th><th>Speed (fastest = full bar)</th></tr></thead><tbody>'
            + "".join(body) + "</tbody></table>")


def _space_table(ruleset: Ruleset, rows: list[Mapping[str, Any]], currency: str) -> str:
    body = []
    for row in rows:
        colour = _group_colour(ruleset, row.get("group"))
        rent = row.get("rent")
        body.append(f'<tr><td class="num">{esc(row.get("index", ""))}</td>'
                    f'<td>{_swatch(colour) if colour else ""}{esc(row.get("name", ""))}</td>'
                    f'<td>{esc(row.get("level", ""))}</td>'
                    f'<td class="num">{_money(currency, rent) if rent is not None else ""}</td>'
                    f'<td class="num">{_money(currency, row.get("rent_per_turn"), 2)}</td>'
                    f'<td class="num">{_money(currency, row.get("cost"))}</td>'
                    f'<td class="num">{_turns(row.get("payback_turns"))}</td></tr>')
    return ('<table id="space-payback" class="payback"><thead><tr><th class="num">#</th><th>Space</th>'
            '<th>Level</th><th class="num">Rent</th><th class="num">Rent per opponent turn</th>'
            '<th class="num">Cost</th><th class="num">Payback (opponent turns)</th></tr></thead><tbody>'
            + "".join(body) + "</tbody></table>")


def _turns(value: Any) -> str:
    return "never" if value is None else f"{float(value):,.1f}"


# ---------------------------------------------------------------------------- simulation


def _simulation_section(simulation: Mapping[str, Any]) -> str:
    summary = simulation.get("summary", {})
    games = simulation.get("games", [])
    players = summary.get("players", [])
    count = summary.get("games", len(games))
    seeds = summary.get("seeds", [])
    facts = [f"{count} games", "seats: " + ", ".join(esc(p) for p in players)]
    if len(seeds) == 2:
        facts.append(f"seeds {seeds[0]}–{seeds[1]}")
    if summary.get("max_turns"):
        facts.append(f"stopped after {summary['max_turns']} turns")
    no_winner = summary.get("no_winner", 0)
    parts = ['<section id="simulation"><h2>Simulated games</h2>',
             f'<p class="meta">{" · ".join(facts)}. {no_winner} game{"s" * (no_winner != 1)} without a winner. '
             "Bars are win rates with their 95% confidence intervals (Wilson); the dashed line is the share "
             "each seat would win if all were equally strong.</p>",
             '<div class="charts">']
    seats = summary.get("seats", [])
    fair = 1 / len(players) if players else None
    parts.append(_figure(_win_chart([(f"Seat {s['seat'] + 1} · {s['agent']}", s) for s in seats], fair,
                                    "win-rates-seats"), "Win rate by seat"))
    agents = summary.get("agents", [])
    if any(a.get("seats", 1) > 1 for a in agents):
        labelled = [(f"{a['agent']} ({a['seats']} seat{'s' * (a['seats'] != 1)})", a) for a in agents]
        parts.append(_figure(_win_chart(labelled, None, "win-rates-agents"), "Win rate by agent (all its seats)"))
    turns = [int(g["turns"]) for g in games if "turns" in g]
    if turns:
        capped = [g.get("end") == "turn_limit" for g in games if "turns" in g]
        parts.append(_figure(_length_histogram(turns, capped, summary.get("turns", {})), "Game length"))
    parts.append("</div>")
    parts.append(_seat_table(seats))
    ends = summary.get("ends", {})
    if ends:
        cells = "".join(f'<tr><td>{esc(end)}</td><td class="num">{n}</td></tr>' for end, n in ends.items())
        parts.append('<h3>How the games ended</h3><table id="ends" style="max-width:360px"><thead><tr>'
                     f'<th>End</th><th class="num">Games</th></tr></thead><tbody>{cells}</tbody></table>')
    parts.append("</section>")
    return "".join(parts)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"


def _seat_table(seats: Sequence[Mapping[str, Any]]) -> str:
    rows = "".join(
        f'<tr><td class="num">{s["seat"] + 1}</td><td>{esc(s["agent"])}</td><td class="num">{s["wins"]}</td>'
        f'<td class="num">{percent(s["win_rate"], 1)}</td>'
        f'<td class="num">{percent(s["ci95"][0], 1)} – {percent(s["ci95"][1], 1)}</td></tr>'
        for s in seats)
    return ('<h3>Win rates</h3><table id="win-table" style="max-width:620px"><thead><tr><th class="num">Seat</th>'
            '<th>Agent</th><th class="num">Wins</th><th class="num">Win rate</th><th class="num">95% interval</th>'
            f"</tr></thead><tbody>{rows}</tbody></table>")


def _svg_open(width: float, height: float, cls: str, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {cls}" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" role="img" aria-label="{esc(label)}" '
            f'font-family="system-ui, -apple-system, \'Segoe UI\', Helvetica, Arial, sans-serif" font-size="12">')


def count_grid(y: Callable[[float], float], top: int, step: int, left: float, right: float) -> list[str]:
    """The horizontal lines and labels of a chart's axis of counts (0 to ``top`` by ``step``; ``y`` places a
    count), shared by the charts of game lengths."""
    lines = []
    for k in range(top // step + 1):
        count = k * step
        lines.append(f'<line x1="{left}" x2="{right}" y1="{y(count):.1f}" y2="{y(count):.1f}" '
                     f'stroke="#e3e0d6"/><text x="{left - 6}" y="{y(count) + 4:.1f}" text-anchor="end" '
                     f'fill="{INK}">{count}</text>')
    return lines


def _win_chart(rows: Sequence[tuple[str, Mapping[str, Any]]], fair: float | None, cls: str) -> str:
    """Horizontal bars of win rates with their confidence intervals as error bars."""
    label_width, right, bar, gap = 170.0, 70.0, 22.0, 12.0
    width = 560.0
    plot = width - label_width - right
    height = 30 + len(rows) * (bar + gap) + 30
    highest = max([float(r["ci95"][1]) for _, r in rows] + [float(r.get("fair_share") or 0) for _, r in rows]
                  + [fair or 0.0, 0.01])
    step = nice_step(100 * highest, 5) / 100
    top = math.ceil(highest / step - 1e-9) * step

    def x(rate: float) -> float:
        return label_width + plot * rate / top

    out = [_svg_open(width, height, cls, "win rates with 95% confidence intervals")]
    axis_y = height - 26
    for k in range(round(top / step) + 1):
        tick = k * step
        out.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="18" y2="{axis_y:.1f}" stroke="#e3e0d6"/>')
        out.append(f'<text x="{x(tick):.1f}" y="{axis_y + 16:.1f}" text-anchor="middle" fill="{INK}">'
                   f"{100 * tick:.0f}%</text>")
    for i, (label, row) in enumerate(rows):
        y = 24 + i * (bar + gap)
        rate = float(row["win_rate"])
        low, high = (float(v) for v in row["ci95"])
        mid = y + bar / 2
        out.append(f'<text x="{label_width - 8:.1f}" y="{mid + 4:.1f}" text-anchor="end" fill="{INK}">'
                   f"{esc(label)}</text>")
        out.append(f'<rect class="win-bar" x="{label_width:.1f}" y="{y:.1f}" width="{x(rate) - label_width:.1f}" '
                   f'height="{bar:.1f}" fill="{BAR_COLOUR}"><title>{esc(label)}: {percent(rate, 1)} '
                   f"(95% interval {percent(low, 1)} – {percent(high, 1)})</title></rect>")
        out.append(f'<g class="error-bar" stroke="{MARK_COLOUR}" stroke-width="1.5">'
                   f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{mid:.1f}" y2="{mid:.1f}"/>'
                   f'<line x1="{x(low):.1f}" x2="{x(low):.1f}" y1="{mid - 6:.1f}" y2="{mid + 6:.1f}"/>'
                   f'<line x1="{x(high):.1f}" x2="{x(high):.1f}" y1="{mid - 6:.1f}" y2="{mid + 6:.1f}"/></g>')
        out.append(f'<text x="{x(high) + 6:.1f}" y="{mid + 4:.1f}" fill="{INK}">{percent(rate, 1)}</text>')
        share = row.get("fair_share") if fair is None else None
        if share is not None:
            out.append(f'<line x1="{x(share):.1f}" x2="{x(share):.1f}" y1="{y - 3:.1f}" y2="{y + bar + 3:.1f}" '
                       f'stroke="{MARK_COLOUR}" stroke-dasharray="4 3"/>')
    if fair is not None:
        out.append(f'<line class="fair-share" x1="{x(fair):.1f}" x2="{x(fair):.1f}" y1="16" y2="{axis_y:.1f}" '
                   f'stroke="{MARK_COLOUR}" stroke-dasharray="5 4"/>')
        out.append(f'<text x="{x(fair):.1f}" y="12" text-anchor="middle" fill="{INK}" font-size="11">'
                   f"fair share {percent(fair, 1)}</text>")
    out.append(f'<line x1="{label_width}" x2="{label_width}" y1="18" y2="{axis_y:.1f}" stroke="{MARK_COLOUR}"/>')
    out.append("</svg>")
    return "".join(out)


def _length_histogram(turns: Sequence[int], capped: Sequence[bool], lengths: Mapping[str, Any]) -> str:
    """Games by length in turns, in bins; games stopped by the turn cap stacked in another colour."""
    width, height = 560.0, 300.0
    left, right, top_margin, bottom = 48.0, 16.0, 36.0, 44.0
    plot_w, plot_h = width - left - right, height - top_margin - bottom
    low, high = min(turns), max(turns)
    bin_width = max(1, math.ceil(nice_step(max(1, high - low + 1), 20)))
    start = (low // bin_width) * bin_width
    bins = max(1, (high - start) // bin_width + 1)
    finished = [0] * bins
    stopped = [0] * bins
    for value, cap in zip(turns, capped, strict=True):
        slot = (value - start) // bin_width
        (stopped if cap else finished)[slot] += 1
    tallest = max(f + s for f, s in zip(finished, stopped, strict=True))
    y_step = max(1, math.ceil(nice_step(tallest, 5)))
    y_top = math.ceil(tallest / y_step) * y_step
    end = start + bins * bin_width

    def x(turn: float) -> float:
        return left + plot_w * (turn - start) / (end - start)

    def y(games: float) -> float:
        return top_margin + plot_h * (1 - games / y_top)

    out = [_svg_open(width, height, "length-histogram", "histogram of game lengths in turns")]
    out += count_grid(y, y_top, y_step, left, width - right)
    for slot in range(bins):
        x0, x1 = x(start + slot * bin_width), x(start + (slot + 1) * bin_width)
        base = 0
        for count, colour, what in ((finished[slot], BAR_COLOUR, "finished"),
                                    (stopped[slot], CAPPED_COLOUR, "stopped at the turn cap")):
            if count:
                span = f"{start + slot * bin_width}–{start + (slot + 1) * bin_width - 1}"
                out.append(f'<rect class="length-bar" x="{x0 + 0.5:.1f}" y="{y(base + count):.1f}" '
                           f'width="{max(0.5, x1 - x0 - 1):.1f}" height="{y(base) - y(base + count):.1f}" '
                           f'fill="{colour}"><title>{span} turns: {count} games {what}</title></rect>')
            base += count
    ticks = max(1, math.ceil(bins / 8))
    for slot in range(0, bins + 1, ticks):
        turn = start + slot * bin_width
        out.append(f'<text x="{x(turn):.1f}" y="{height - bottom + 16:.1f}" text-anchor="middle" '
                   f'fill="{INK}">{turn}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="{MARK_COLOUR}"/>')
    out.append(f'<text x="{left}" y="{height - 8}" fill="{INK}">turns per game (bins of {bin_width})</text>')
    # one row of the top margin each, so the two labels never overlap
    for row, (key, dash) in enumerate((("median", "5 4"), ("mean", "2 3"))):
        if lengths.get(key) is None or not start <= float(lengths[key]) <= end:
            continue
        mark = float(lengths[key])
        label_y = top_margin - 6 - 13 * row
        out.append(f'<line class="{key}" x1="{x(mark):.1f}" x2="{x(mark):.1f}" y1="{label_y - 9}" '
                   f'y2="{y(0):.1f}" stroke="{MARK_COLOUR}" stroke-dasharray="{dash}"/>')
        anchor, shift = ("start", 4) if x(mark) < width - 90 else ("end", -4)
        out.append(f'<text x="{x(mark) + shift:.1f}" y="{label_y}" text-anchor="{anchor}" '
                   f'font-size="11" fill="{INK}">{key} {mark:.0f}</text>')
    if any(capped):
        out.append(f'<rect x="{width - right - 150}" y="{height - 17}" width="10" height="10" '
                   f'fill="{CAPPED_COLOUR}"/><text x="{width - right - 136}" y="{height - 8}" '
                   f'font-size="11" fill="{INK}">stopped at the turn cap</text>')
    out.append("</svg>")
    return "".join(out)


__all__ = ["render_report_html"]
