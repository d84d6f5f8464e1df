"""The board drawn from the ruleset as SVG: a square ring for any number of spaces.

Nothing here knows the classic board. For ``n`` spaces the corner squares sit
at indexes ``0, n/4, n/2, 3n/4`` (rounded half up) and the other spaces share
the four sides evenly between them; the first space is at the bottom right and
play runs clockwise on screen (left along the bottom, up the left side, as on
the printed board). Every piece of text comes from a user's file, so all of it
goes through :func:`esc`.

Squares are drawn in board coordinates (``<rect class="square">``, one per
space, which tests and other tools can read directly); only the text is
rotated so that each side reads from outside the board.

>>> import monopoly
>>> svg = render_board_svg(monopoly.load_ruleset("classic"))
>>> svg.startswith("<svg") and svg.count('class="square') == 40
True
"""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Sequence

import attrs

from ..ruleset.model import Ruleset, Space

#: Width of a square along its side, and its depth (also the size of a corner), in SVG units.
CELL = 64.0
DEPTH = 104.0
#: The colour bar of a street, across the inner end of its square.
BAR = 21.0
#: The fewest cells a side is laid out for, so that a small board still has room for the title.
MIN_SIDE_CELLS = 5
#: A corner is at least this much wider than the widest square of a side.
CORNER_OVER_CELL = 1.2
MARGIN = 3.0

#: System fonts only: the file must render the same offline.
FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
INK = "#1d1d1f"
PAPER = "#f7f4ea"
CENTRE = "#dcebdc"
LINE = "#3b3b3b"

#: The heat ramp, light to dark: (position 0..1, red, green, blue).
HEAT_RAMP: tuple[tuple[float, int, int, int], ...] = (
    (0.00, 0xFB, 0xF8, 0xEF),
    (0.30, 0xFD, 0xEA, 0xB0),
    (0.55, 0xFB, 0xC4, 0x66),
    (0.70, 0xF2, 0x8C, 0x3C),
    (0.85, 0xD6, 0x45, 0x3A),
    (1.00, 0x7A, 0x11, 0x31),
)

_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

# Side numbers: 0 bottom, 1 left, 2 top, 3 right; the angle that makes text read from outside.
_SIDE_ROTATION = (0, 90, 180, -90)
# Corners: 0 bottom right, 1 bottom left, 2 top left, 3 top right; text along the diagonal.
_CORNER_ROTATION = (-45, 45, 135, -135)


def esc(text: object) -> str:
    """Text made safe for XML content and attribute values (``& < > " '``)."""
    return html.escape(str(text), quote=True)


def money(currency: str, amount: float) -> str:
    """``$1,500``: the ruleset's currency sign before a whole amount."""
    return f"{currency}{amount:,.0f}"


def percent(p: float, decimals: int = 2) -> str:
    return f"{100 * p:.{decimals}f}%"


def _num(x: float) -> str:
    """A coordinate without trailing noise (``12.5``, ``40``)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# ---------------------------------------------------------------------------- layout


@attrs.frozen
class Cell:
    """Where one space is drawn: its square in board coordinates, its side and whether it is a corner.

    ``side`` is 0 (bottom), 1 (left), 2 (top) or 3 (right); for a corner it is the
    number of the corner (0 bottom right, 1 bottom left, 2 top left, 3 top right).
    """

    index: int
    side: int
    corner: bool
    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    @property
    def depth(self) -> float:
        """The length of the square from the edge of the board inwards."""
        return self.height if self.side in (0, 2) else self.width

    @property
    def along(self) -> float:
        """The length of the square along its side (the width its text has)."""
        return self.width if self.side in (0, 2) else self.height


def corner_indexes(count: int) -> tuple[int, int, int, int]:
    """The indexes of the four corner squares of a board of ``count`` spaces (at least 4).

    >>> corner_indexes(40), corner_indexes(24), corner_indexes(42)
    ((0, 10, 20, 30), (0, 6, 12, 18), (0, 11, 21, 32))
    """
    if count < 4:
        raise ValueError(f"a board needs at least 4 spaces to make a ring, not {count}")
    first, second, third = (math.floor(k * count / 4 + 0.5) for k in (1, 2, 3))
    return (0, first, second, third)


def board_geometry(count: int) -> tuple[float, float]:
    """(depth, span) of a board of ``count`` spaces: the size of a corner, and the length between corners.

    The span holds the longest side at ``CELL`` a square (and at least
    ``MIN_SIDE_CELLS`` squares, to leave room for the title). A side with
    fewer spaces has wider squares; the corners grow with the widest so that
    they stay the largest squares of the board.
    """
    sides = _side_counts(count, corner_indexes(count))
    span = max(MIN_SIDE_CELLS, *sides) * CELL
    widest = max((span / n for n in sides if n), default=0.0)
    return (max(DEPTH, CORNER_OVER_CELL * widest), span)


def board_size(count: int) -> float:
    """The side of the square board (without its margin) for ``count`` spaces."""
    depth, span = board_geometry(count)
    return 2 * depth + span


def _side_counts(count: int, corners: tuple[int, int, int, int]) -> list[int]:
    ends = (*corners[1:], count)
    return [ends[k] - corners[k] - 1 for k in range(4)]


def board_layout(count: int) -> list[Cell]:
    """One :class:`Cell` per space, in board order: the square ring for ``count`` spaces.

    The corners are ``DEPTH`` square; the spaces of a side share its length
    evenly, so sides with fewer spaces have wider squares.
    """
    corners = corner_indexes(count)
    depth, span = board_geometry(count)
    far = depth + span  # where the last side square ends and the far corner begins
    corner_at = ((far, far), (0.0, far), (0.0, 0.0), (far, 0.0))
    cells: list[Cell] = []
    for side, between in enumerate(_side_counts(count, corners)):
        x, y = corner_at[side]
        cells.append(Cell(corners[side], side, True, x, y, depth, depth))
        width = span / between if between else 0.0
        for j in range(between):
            index = corners[side] + 1 + j
            if side == 0:  # bottom, right to left
                cell = Cell(index, 0, False, far - (j + 1) * width, far, width, depth)
            elif side == 1:  # left, bottom to top
                cell = Cell(index, 1, False, 0.0, far - (j + 1) * width, depth, width)
            elif side == 2:  # top, left to right
                cell = Cell(index, 2, False, depth + j * width, 0.0, width, depth)
            else:  # right, top to bottom
                cell = Cell(index, 3, False, far, depth + j * width, depth, width)
            cells.append(cell)
    return cells


# ---------------------------------------------------------------------------- colours


def heat_rgb(t: float) -> tuple[int, int, int]:
    """The colour of the heat ramp at ``t`` (0 light .. 1 dark), clamped."""
    t = min(1.0, max(0.0, t)) if math.isfinite(t) else 0.0
    for (t0, *low), (t1, *high) in itertools.pairwise(HEAT_RAMP):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            r, g, b = (round(a + (c - a) * f) for a, c in zip(low, high, strict=True))
            return (r, g, b)
    _, r, g, b = HEAT_RAMP[-1]
    return (r, g, b)


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def heat_colour(t: float) -> str:
    return hex_colour(heat_rgb(t))


def ink_on(rgb: tuple[int, int, int]) -> str:
    """Dark text on a light fill, white on a dark one (relative luminance, WCAG weights)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return "#ffffff" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.22 else INK


def safe_colour(colour: str | None, fallback: str = "#9a9a9a") -> str:
    """A group's colour if it is ``#rrggbb`` (the schema says so, but a Ruleset can be built by hand)."""
    return colour if colour and _HEX_COLOUR.match(colour) else fallback


def nice_step(top: float, most: int = 7) -> float:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving at most ``most`` steps up to ``top``.

    >>> nice_step(3.19), nice_step(100), nice_step(0.07)
    (0.5, 20, 0.01)
    """
    if top <= 0 or not math.isfinite(top):
        return 1
    magnitude = 10 ** math.floor(math.log10(top / most))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if top / step <= most + 1e-9:
            return round(step, 12) if step < 1 else (int(step) if float(step).is_integer() else step)
    return 10 * magnitude  # pragma: no cover - the loop always returns


def heat_scale(heat: Sequence[float]) -> tuple[float, float]:
    """(top of the scale, tick step), both in percent: a round number at or above the largest value."""
    largest = 100 * max(heat, default=0.0)
    step = nice_step(largest) if largest > 0 else 1
    top = math.ceil(largest / step - 1e-9) * step if largest > 0 else step
    return (float(top), float(step))


# ---------------------------------------------------------------------------- text


def wrap(text: str, width: float, size: float, lines: int) -> tuple[list[str], float]:
    """``text`` in lines that fit ``width`` at a font size up to ``size``, at most ``lines`` of them.

    The size shrinks (to 70% at least) before a word is split; a text that still
    does not fit ends in an ellipsis. The width of a character is estimated from
    the font size, which is close enough for the sans-serif system fonts.
    """
    words = text.split() or [""]
    for scale in (1.0, 0.92, 0.84, 0.77, 0.7):
        fitted = _wrap_words(words, max(1, int(width / (0.56 * size * scale))))
        if len(fitted) <= lines and all(len(w) * 0.56 * size * scale <= width for w in fitted):
            return fitted, size * scale
    chars = max(1, int(width / (0.56 * size * 0.7)))
    pieces: list[str] = []
    for word in words:
        while len(word) > chars:
            pieces.append(word[: chars - 1] + "-")
            word = word[chars - 1:]
        pieces.append(word)
    fitted = _wrap_words(pieces, chars)
    if len(fitted) > lines:
        fitted = fitted[:lines]
        fitted[-1] = fitted[-1][: max(1, chars - 1)].rstrip() + "…"
    return fitted, size * 0.7


def _wrap_words(words: list[str], chars: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > chars:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return lines


def _text_block(lines: list[str], x: float, y: float, size: float, *, fill: str, weight: str = "normal",
                cls: str = "name") -> str:
    """A ``<text>`` of centred lines whose first baseline is at ``y``."""
    spans = []
    for i, line in enumerate(lines):
        dy = "0" if i == 0 else _num(size * 1.15)
        spans.append(f'<tspan x="{_num(x)}" dy="{dy}">{esc(line)}</tspan>')
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="middle">{"".join(spans)}</text>')


# ---------------------------------------------------------------------------- the board


def render_board_svg(ruleset: Ruleset, heat: Sequence[float] | None = None, *, id_prefix: str = "board") -> str:
    """The board of ``ruleset`` as a self-contained SVG document (a string starting with ``<svg``).

    ``heat``: one probability per space (board order), e.g. the landing odds;
    each square is then shaded on a light-to-dark ramp, with a legend in % in
    the middle. ``id_prefix`` keeps the ids apart when several SVGs share a page.
    """
    count = len(ruleset.board)
    if heat is not None:
        heat = [float(p) for p in heat]
        if len(heat) != count:
            raise ValueError(f"heat has {len(heat)} values for a board of {count} spaces")
        if any(not math.isfinite(p) or p < -1e-9 for p in heat):
            raise ValueError("heat values must be finite probabilities, not negative")
        heat = [max(0.0, p) for p in heat]  # a solver's rounding may leave -1e-18 on a square never landed on
    cells = board_layout(count)
    size = board_size(count)
    top, step = heat_scale(heat) if heat is not None else (0.0, 0.0)
    total = size + 2 * MARGIN
    title = ruleset.name + (f" + {', '.join(ruleset.variants)}" if ruleset.variants else "")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{_num(-MARGIN)} {_num(-MARGIN)} '
        f'{_num(total)} {_num(total)}" width="{_num(total)}" height="{_num(total)}" role="img" '
        f'aria-labelledby="{esc(id_prefix)}-title" font-family="{esc(FONT)}" data-spaces="{count}">',
        f'<title id="{esc(id_prefix)}-title">{esc(title)}'
        f'{" — landing odds" if heat is not None else ""}</title>',
        f'<rect class="board-edge" x="0" y="0" width="{_num(size)}" height="{_num(size)}" fill="{CENTRE}" '
        f'stroke="{LINE}" stroke-width="2"/>',
    ]
    if heat is not None:
        out.append(_gradient(id_prefix))
    for cell, space in zip(cells, ruleset.board, strict=True):
        p = heat[space.index] if heat is not None else None
        out.append(_space(ruleset, space, cell, p, top))
    out.append(_centre(ruleset, size, cells[0].width, heat, top, step, id_prefix))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _gradient(id_prefix: str) -> str:
    stops = "".join(f'<stop offset="{_num(100 * t)}%" stop-color="{hex_colour((r, g, b))}"/>'
                    for t, r, g, b in HEAT_RAMP)
    return (f'<defs><linearGradient id="{esc(id_prefix)}-ramp" x1="0" x2="1" y1="0" y2="0">{stops}'
            "</linearGradient></defs>")


def _space(ruleset: Ruleset, space: Space, cell: Cell, p: float | None, top: float) -> str:
    if p is not None:
        rgb = heat_rgb(100 * p / top if top else 0.0)
        fill, ink = hex_colour(rgb), ink_on(rgb)
    else:
        fill, ink = PAPER, INK
    tooltip = [f"{space.index} · {space.name}", space.kind]
    if space.price is not None:
        tooltip.append(money(ruleset.currency, space.price))
    if p is not None:
        tooltip.append(percent(p))
    classes = "space corner" if cell.corner else "space"
    parts = [
        f'<g class="{classes}" data-index="{space.index}" data-name="{esc(space.name)}" data-kind="{esc(space.kind)}"'
        + (f' data-probability="{p:.6f}"' if p is not None else "") + ">",
        f"<title>{esc(' · '.join(tooltip))}</title>",
        f'<rect class="square{" corner" if cell.corner else ""}" x="{_num(cell.x)}" y="{_num(cell.y)}" '
        f'width="{_num(cell.width)}" height="{_num(cell.height)}" fill="{fill}" stroke="{LINE}" stroke-width="1"/>',
    ]
    colour = _bar_colour(ruleset, space)
    if cell.corner:
        parts.append(_corner_content(ruleset, space, cell, colour, p, ink))
    else:
        if colour is not None:
            parts.append(_bar(cell, colour))
        parts.append(_side_content(ruleset, space, cell, colour is not None, p, ink))
    parts.append("</g>")
    return "".join(parts)


def _bar_colour(ruleset: Ruleset, space: Space) -> str | None:
    """Lots that are built on (streets) carry their group's colour bar; other spaces none."""
    if not space.buildable or space.group is None:
        return None
    try:
        return safe_colour(ruleset.group(space.group).color)
    except KeyError:
        return safe_colour(None)


def _bar(cell: Cell, colour: str) -> str:
    """The colour bar across the inner end of a side square."""
    if cell.side == 0:
        x, y, w, h = cell.x, cell.y, cell.width, BAR
    elif cell.side == 1:
        x, y, w, h = cell.x + cell.width - BAR, cell.y, BAR, cell.height
    elif cell.side == 2:
        x, y, w, h = cell.x, cell.y + cell.height - BAR, cell.width, BAR
    else:
        x, y, w, h = cell.x, cell.y, BAR, cell.height
    return (f'<rect class="bar" x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{colour}" stroke="{LINE}" stroke-width="1"/>')


def _side_content(ruleset: Ruleset, space: Space, cell: Cell, has_bar: bool, p: float | None, ink: str) -> str:
    """Name, odds and price, drawn in the square's own frame: y from -DEPTH/2 (inner end) to +DEPTH/2."""
    cx, cy = cell.centre
    half = cell.depth / 2
    width = cell.along - 6
    name_top = -half + (BAR if has_bar else 0) + 4
    footer = 13 if space.price is not None else 0
    odds = 12 if p is not None else 0
    room = cell.depth - (name_top + half) - footer - odds - 4
    lines, size = wrap(space.label, width, 8.6, max(1, int(room / (8.6 * 1.15))))
    body = [_text_block(lines, 0, name_top + size, size, fill=ink)]
    if p is not None:
        body.append(_text_block([percent(p)], 0, half - footer - 4, 8.4, fill=ink, weight="bold", cls="odds"))
    if space.price is not None:
        price, price_size = wrap(money(ruleset.currency, space.price), width, 8.6, 1)
        body.append(_text_block(price, 0, half - 4, price_size, fill=ink, weight="bold", cls="price"))
    rotation = _SIDE_ROTATION[cell.side]
    return f'<g transform="translate({_num(cx)} {_num(cy)}) rotate({rotation})">{"".join(body)}</g>'


def _corner_content(ruleset: Ruleset, space: Space, cell: Cell, colour: str | None, p: float | None,
                    ink: str) -> str:
    """A corner: the name larger, along the diagonal; a street's colour as a triangle at its inner point."""
    cx, cy = cell.centre
    parts = []
    if colour is not None:
        leg = cell.width * 0.36
        # the inner point of each corner (towards the middle of the board), then along its two edges
        ix = cell.x if cell.side in (0, 3) else cell.x + cell.width
        iy = cell.y if cell.side in (0, 1) else cell.y + cell.height
        sx = leg if ix == cell.x else -leg
        sy = leg if iy == cell.y else -leg
        points = f"{_num(ix)},{_num(iy)} {_num(ix + sx)},{_num(iy)} {_num(ix)},{_num(iy + sy)}"
        parts.append(f'<polygon class="bar" points="{points}" fill="{colour}" stroke="{LINE}" stroke-width="1"/>')
    lines, size = wrap(space.label, cell.width * 0.95, 12.5, 3)
    extra = [(percent(p), "odds")] if p is not None else []
    if space.price is not None:
        extra.append((money(ruleset.currency, space.price), "price"))
    height = len(lines) * size * 1.15 + len(extra) * 12
    y = -height / 2 + size * 0.85
    body = [_text_block(lines, 0, y, size, fill=ink, weight="bold")]
    y += len(lines) * size * 1.15
    for text, cls in extra:
        body.append(_text_block([text], 0, y, 9.5, fill=ink, weight="bold", cls=cls))
        y += 12
    rotation = _CORNER_ROTATION[cell.side]
    parts.append(f'<g transform="translate({_num(cx)} {_num(cy)}) rotate({rotation})">{"".join(body)}</g>')
    return "".join(parts)


def _centre(ruleset: Ruleset, size: float, depth: float, heat: Sequence[float] | None, top: float, step: float,
            id_prefix: str) -> str:
    """The title in the middle of the board, and the legend of the heat scale."""
    inner = size - 2 * depth
    mid = size / 2
    parts = ['<g class="centre">']
    lines, title_size = wrap(ruleset.name, inner * 0.8, min(34.0, inner / 9), 3)
    title_height = len(lines) * title_size * 1.15
    title_y = mid - (inner * 0.12 if heat is not None else 0) - title_height / 2 + title_size * 0.8
    parts.append(_text_block(lines, mid, title_y, title_size, fill=INK, weight="bold", cls="title"))
    facts = f"{len(ruleset.board)} spaces · {money(ruleset.currency, ruleset.starting_cash)} to start"
    if ruleset.variants:
        facts += f" · with {', '.join(ruleset.variants)}"
    facts_lines, facts_size = wrap(facts, inner * 0.85, min(13.0, inner / 22), 2)
    parts.append(_text_block(facts_lines, mid, title_y + title_height + 2, facts_size, fill="#404040",
                             cls="subtitle"))
    if heat is not None:
        parts.append(_legend(mid, mid + inner * 0.2, inner * 0.7, top, step, id_prefix))
    parts.append("</g>")
    return "".join(parts)


def _legend(mid: float, y: float, width: float, top: float, step: float, id_prefix: str) -> str:
    """A gradient bar from 0 to ``top`` percent with a tick every ``step``."""
    x0 = mid - width / 2
    caption_size = min(11.0, width / 26)
    parts = [
        '<g class="legend">',
        _text_block(["Share of rolls ending on each square"], mid, y - 8, caption_size, fill=INK, cls="legend-title"),
        f'<rect x="{_num(x0)}" y="{_num(y)}" width="{_num(width)}" height="12" fill="url(#{esc(id_prefix)}-ramp)" '
        f'stroke="{LINE}" stroke-width="0.8"/>',
    ]
    ticks = round(top / step)
    decimals = 0 if float(step).is_integer() else (1 if float(step * 10).is_integer() else 2)
    for k in range(ticks + 1):
        x = x0 + width * k / ticks
        parts.append(f'<line x1="{_num(x)}" x2="{_num(x)}" y1="{_num(y + 12)}" y2="{_num(y + 16)}" '
                     f'stroke="{LINE}" stroke-width="0.8"/>')
        parts.append(_text_block([f"{k * step:.{decimals}f}%"], x, y + 26, caption_size * 0.9, fill=INK,
                                 cls="tick"))
    parts.append("</g>")
    return "".join(parts)


__all__ = [
    "Cell",
    "board_geometry",
    "board_layout",
    "board_size",
    "corner_indexes",
    "esc",
    "heat_colour",
    "heat_scale",
    "render_board_svg",
]
