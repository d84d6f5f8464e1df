"""The board drawn from data: any size of ring, colour bars, prices, escaping, the heat map, the command."""

from __future__ import annotations

import doctest
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import monopoly
from monopoly.analysis import render
from monopoly.analysis.markov import landing_odds
from monopoly.analysis.render import (
    DEPTH,
    board_geometry,
    board_layout,
    board_size,
    corner_indexes,
    render_board_svg,
    wrap,
)

from .conftest import DATA, ROOT

SVG = "{http://www.w3.org/2000/svg}"
GOOD = DATA / "good"
BOARDS = {
    "classic": "classic",
    "uk": "uk",
    "mini-12": str(GOOD / "mini.yaml"),
    "harbour-24": str(GOOD / "harbour-24.yaml"),
    "metro-48": str(GOOD / "metro-48.yaml"),
}


def parse(svg: str) -> ET.Element:
    """The SVG as XML: a parse error fails the test."""
    return ET.fromstring(svg)


def squares(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}rect") if "square" in e.get("class", "").split()]


def spaces(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}g") if "space" in e.get("class", "").split()]


def box(rect: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(rect.get(k, "nan")) for k in ("x", "y", "width", "height"))
    return (x, y, x + w, y + h)


def luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_docstring_examples():
    failures, tried = doctest.testmod(render)
    assert tried > 0 and failures == 0


def test_corners_are_at_the_quarters():
    assert corner_indexes(40) == (0, 10, 20, 30)
    assert corner_indexes(24) == (0, 6, 12, 18)
    assert corner_indexes(48) == (0, 12, 24, 36)
    assert corner_indexes(42) == (0, 11, 21, 32)  # halves round up
    assert corner_indexes(4) == (0, 1, 2, 3)
    with pytest.raises(ValueError):
        corner_indexes(3)
    classic = monopoly.load_ruleset("classic")
    assert [classic.board[i].name for i in corner_indexes(40)] == ["GO", "Jail", "Free Parking", "Go To Jail"]


@pytest.mark.parametrize("count", [4, 5, 7, 12, 24, 40, 42, 48, 61, 200])
def test_layout_is_a_ring_of_squares_that_do_not_overlap(count):
    cells = board_layout(count)
    size = board_size(count)
    assert [c.index for c in cells] == list(range(count))
    corners = corner_indexes(count)
    assert [c.index for c in cells if c.corner] == list(corners)
    for cell in cells:
        assert cell.x >= 0 and cell.x + cell.width <= size + 1e-9
        assert cell.y >= 0 and cell.y + cell.height <= size + 1e-9
        # every square touches the edge of the board and reaches DEPTH into it: the ring
        assert cell.x == 0 or cell.y == 0 or cell.x + cell.width == pytest.approx(size) \
            or cell.y + cell.height == pytest.approx(size)
    depth, _ = board_geometry(count)
    for cell in cells:
        assert cell.depth == depth  # every square reaches the same way into the board
        if cell.corner:
            assert cell.width == cell.height == depth >= DEPTH
        else:
            assert cell.along < depth  # corners are the largest squares
    for a in cells:
        for b in cells:
            if a.index < b.index:
                overlap_w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
                overlap_h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
                assert overlap_w <= 1e-6 or overlap_h <= 1e-6, (a, b)
    # consecutive spaces are neighbours: the ring is walked in order
    for a, b in zip(cells, cells[1:] + cells[:1], strict=True):
        gap_x = max(a.x, b.x) - min(a.x + a.width, b.x + b.width)
        gap_y = max(a.y, b.y) - min(a.y + a.height, b.y + b.height)
        if all(side >= 1 for side in _sides(count)):
            assert gap_x <= 1e-6 and gap_y <= 1e-6, (a, b)


def _sides(count: int) -> list[int]:
    corners = (*corner_indexes(count), count)
    return [corners[k + 1] - corners[k] - 1 for k in range(4)]


@pytest.mark.parametrize("name", list(BOARDS))
def test_any_board_renders_as_well_formed_svg_with_one_square_per_space(name):
    ruleset = monopoly.load_ruleset(BOARDS[name])
    root = parse(render_board_svg(ruleset))
    count = len(ruleset.board)
    assert root.tag == f"{SVG}svg" and root.get("data-spaces") == str(count)
    assert len(squares(root)) == count
    groups = spaces(root)
    assert [int(g.get("data-index")) for g in groups] == list(range(count))
    assert [g.get("data-name") for g in groups] == [s.name for s in ruleset.board]
    corners = [int(g.get("data-index")) for g in groups if "corner" in g.get("class").split()]
    assert corners == list(corner_indexes(count))
    # the squares cover the ring exactly: their areas add up to the board minus its middle
    size = board_size(count)
    depth, _ = board_geometry(count)
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in map(box, squares(root)))
    assert area == pytest.approx(size * size - (size - 2 * depth) ** 2)
    # the title is in the middle
    title = next(e for e in root.iter(f"{SVG}text") if e.get("class") == "title")
    assert "".join(title.itertext()).replace(" ", "") == ruleset.name.replace(" ", "")


def test_streets_carry_their_group_colour_and_prices_their_currency():
    ruleset = monopoly.load_ruleset(BOARDS["harbour-24"])
    root = parse(render_board_svg(ruleset))
    for g, space in zip(spaces(root), ruleset.board, strict=True):
        bars = [e for e in g if e.get("class") == "bar"]
        if space.kind == "street":
            assert len(bars) == 1 and bars[0].get("fill") == ruleset.group(space.group).color
        else:
            assert bars == []
        prices = [e for e in g.iter(f"{SVG}text") if e.get("class") == "price"]
        if space.price is not None:
            assert "".join(prices[0].itertext()) == f"€{space.price:,}"
        else:
            assert prices == []
    classic = parse(render_board_svg(monopoly.load_ruleset("classic")))
    boardwalk = spaces(classic)[39]
    assert "".join(next(e for e in boardwalk.iter(f"{SVG}text") if e.get("class") == "price").itertext()) == "$400"


def test_a_street_on_a_corner_gets_its_colour_too():
    # mini has 12 spaces: its corners 3 and 6 are a railroad and a street
    ruleset = monopoly.load_ruleset(BOARDS["mini-12"])
    root = parse(render_board_svg(ruleset))
    corner = spaces(root)[6]
    assert ruleset.board[6].kind == "street" and "corner" in corner.get("class")
    assert [e.get("fill") for e in corner if e.get("class") == "bar"] == ["#0000ff"]


def test_long_names_wrap_and_shrink_to_fit():
    lines, size = wrap("Mediterranean Avenue", 58, 8.6, 4)
    assert lines == ["Mediterranean", "Avenue"] and size <= 8.6
    lines, size = wrap("Supercalifragilisticexpialidocious Boulevard", 40, 8.6, 3)
    assert len(lines) <= 3 and all(len(line) * 0.56 * size <= 40 + 1e-9 for line in lines)
    lines, _ = wrap("one two three four five six seven eight nine ten eleven twelve", 30, 9, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")


def _hostile_edition(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(
        "id: hostile\n"
        "name: 'Tom & Jerry''s <script>alert(1)</script>'\n"
        f"extends: {(GOOD / 'harbour-24.yaml').as_posix()}\n"
        "currency: '<&>'\n"
        "spaces:\n"
        "  Shell Lane: {name: 'Tom & Jerry''s \"<Diner>\"'}\n"
        "  Free Mooring: {label: '<i>Free</i> & \"Mooring\"'}\n"
        "groups:\n"
        "  sand: {name: '<b>Sand</b> & \"Co\"'}\n",
        encoding="utf-8")
    return path


def test_names_from_user_files_are_escaped(tmp_path):
    ruleset = monopoly.load_ruleset(_hostile_edition(tmp_path))
    svg = render_board_svg(ruleset)
    root = parse(svg)  # would fail on a raw < or &
    assert "<script" not in svg and "<Diner>" not in svg and "<b>" not in svg
    assert root.find(f"{SVG}title").text == "Tom & Jerry's <script>alert(1)</script>"
    names = [g.get("data-name") for g in spaces(root)]
    assert "Tom & Jerry's \"<Diner>\"" in names
    texts = [" ".join(e.itertext()) for e in root.iter(f"{SVG}text")]
    assert "<&>60" in texts  # the currency, read back unescaped by the parser
    assert '<i>Free</i> & "Mooring"' in texts  # the label, drawn as text


def test_the_svg_is_self_contained():
    svg = render_board_svg(monopoly.load_ruleset("classic"), [1 / 40] * 40)
    links = re.findall(r"(?:https?:|//|@import|url\()[^\"'\s)]*", svg)
    assert {link for link in links if not link.startswith("url(#")} == {"http://www.w3.org/2000/svg"}
    assert "<script" not in svg and "<image" not in svg and "href" not in svg
    assert "font-face" not in svg and "sans-serif" in svg


def test_heat_shades_each_square_and_adds_a_legend():
    ruleset = monopoly.load_ruleset("classic")
    heat = [0.0 if i == 30 else 0.01 + 0.0005 * i for i in range(40)]
    root = parse(render_board_svg(ruleset, heat))
    fills = [sq.get("fill") for sq in squares(root)]
    assert len(set(fills)) > 20  # shaded, not one colour
    darkest = min(range(40), key=lambda i: luminance(fills[i]))
    assert darkest == 39  # the highest value
    assert max(range(40), key=lambda i: luminance(fills[i])) == 30  # zero: the lightest
    probabilities = [float(g.get("data-probability")) for g in spaces(root)]
    assert probabilities == pytest.approx(heat, abs=1e-6)
    legend = next(e for e in root.iter(f"{SVG}g") if e.get("class") == "legend")
    ticks = ["".join(e.itertext()) for e in legend.iter(f"{SVG}text") if e.get("class") == "tick"]
    assert ticks[0] == "0.0%" and ticks[-1] == "3.0%" and all(t.endswith("%") for t in ticks)
    odds = [e for e in root.iter(f"{SVG}text") if e.get("class") == "odds"]
    assert len(odds) == 40 and "".join(odds[39].itertext()) == "2.95%"
    # without heat: one paper colour, no legend
    plain = parse(render_board_svg(ruleset))
    assert len({sq.get("fill") for sq in squares(plain)}) == 1
    assert not [e for e in plain.iter(f"{SVG}g") if e.get("class") == "legend"]


def test_heat_must_fit_the_board():
    ruleset = monopoly.load_ruleset("classic")
    with pytest.raises(ValueError, match="40 spaces"):
        render_board_svg(ruleset, [0.025] * 39)
    with pytest.raises(ValueError, match="negative"):
        render_board_svg(ruleset, [-0.1] + [0.025] * 39)


def test_two_boards_on_one_page_have_distinct_ids():
    ruleset = monopoly.load_ruleset("classic")
    one = render_board_svg(ruleset, [0.025] * 40, id_prefix="a")
    two = render_board_svg(ruleset, [0.025] * 40, id_prefix="b")
    ids = re.findall(r'id="([^"]+)"', one) + re.findall(r'id="([^"]+)"', two)
    assert len(ids) == len(set(ids))


# ---------------------------------------------------------------------------- the command


@pytest.mark.parametrize("name", list(BOARDS))
def test_render_command_writes_the_file(name, runner, cli, tmp_path):
    out = tmp_path / "board.svg"
    result = runner.invoke(cli, ["render", BOARDS[name], "-o", str(out)])
    assert result.exit_code == 0, result.output
    count = len(monopoly.load_ruleset(BOARDS[name]).board)
    assert len(squares(parse(out.read_text(encoding="utf-8")))) == count
    assert f"wrote {out} ({count} spaces)" in result.output


def test_render_command_prints_to_standard_output_and_takes_variants(runner, cli):
    result = runner.invoke(cli, ["render", "classic", "--variant", "free-parking-jackpot"])
    assert result.exit_code == 0, result.output
    root = parse(result.stdout)
    assert "free-parking-jackpot" in "".join(root.find(f"{SVG}title").itertext())


def test_render_command_errors(runner, cli, tmp_path):
    assert runner.invoke(cli, ["render", "no-such-edition"]).exit_code == 2
    assert runner.invoke(cli, ["render", str(DATA / "broken" / "unknown-key.yaml")]).exit_code == 1
    assert runner.invoke(cli, ["render", "classic", "--jail", "forever"]).exit_code == 2
    result = runner.invoke(cli, ["render", "classic", "-o", str(tmp_path / "missing" / "board.svg")])
    assert result.exit_code == 1 and "board.svg: it cannot be written" in result.output


def test_render_heat_uses_the_exact_landing_odds(runner, cli, tmp_path):
    out = tmp_path / "heat.svg"
    result = runner.invoke(cli, ["render", "classic", "--heat", "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    odds = landing_odds(monopoly.load_ruleset("classic"), jail="short")
    probabilities = [float(g.get("data-probability")) for g in spaces(root)]
    assert probabilities == pytest.approx(list(odds.landing), abs=1e-6)
    fills = [sq.get("fill") for sq in squares(root)]
    illinois, go_to_jail = 24, 30
    assert min(range(40), key=lambda i: luminance(fills[i])) == illinois  # the most landed on
    assert max(range(40), key=lambda i: luminance(fills[i])) == go_to_jail  # never the end of a move
    long = runner.invoke(cli, ["render", "classic", "--heat", "--jail", "long"])
    assert long.exit_code == 0 and long.stdout != out.read_text(encoding="utf-8")
    for board in ("harbour-24", "metro-48"):
        result = runner.invoke(cli, ["render", BOARDS[board], "--heat"])
        assert result.exit_code == 0, result.output
        assert len(squares(parse(result.stdout))) == len(monopoly.load_ruleset(BOARDS[board]).board)


def test_the_walkthrough_edition_is_the_test_fixture():
    """docs/workbench.md builds harbour-24.yaml: the file it shows is the file the tests render."""
    text = (ROOT / "docs" / "workbench.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    full = [b for b in blocks if b.startswith("# yaml-language-server") and "id: harbour" in b and "\nboard:" in b]
    assert full, "the walkthrough shows the whole harbour edition in one yaml block"
    fixture = (GOOD / "harbour-24.yaml").read_text(encoding="utf-8")
    assert _without_schema_line(full[0]) == _without_schema_line(fixture)


def _without_schema_line(text: str) -> str:
    return "\n".join(line for line in text.strip().splitlines() if "yaml-language-server" not in line)
