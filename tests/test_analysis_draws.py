"""Exact odds when cards draw cards: a deck drawing from itself, decks drawing from each other.

The engine bounds the moves and draws effects cause after one roll (MAX_CHAINED_MOVES); the
analysis follows draws with the same bound as moves, and what passes the bound is handled as
the engine does: a draw over the bound is not made, a move over it moves but does not land.
The fixtures are in tests/data/hostile/draws/ (tiny.yaml says what each of its decks does).
"""

from __future__ import annotations

import json
import math
import textwrap

import pytest

import monopoly
from monopoly.analysis.markov import MAX_CHAIN, _Board, landing_odds
from monopoly.game.core import MAX_CHAINED_MOVES

from .conftest import DATA
from .scenario import ScriptedAgent

DRAWS = DATA / "hostile" / "draws"
TINY = str(DRAWS / "tiny.yaml")

#: (ruleset, variants): a deck drawing itself, two decks drawing each other, a tree of draws, the tiny board.
CASES = {
    "self-draw": (str(DRAWS / "self-draw.yaml"), ()),
    "ping-pong": (str(DRAWS / "ping-pong.yaml"), ()),
    "fan-out": ("classic", (str(DRAWS / "fan-out.yaml"),)),
    "tiny": (TINY, ()),
}


def _args(case: str) -> list[str]:
    ruleset, variants = CASES[case]
    return [ruleset, *(arg for variant in variants for arg in ("--variant", variant))]


@pytest.mark.parametrize("jail", ["short", "long"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_analyze_a_ruleset_whose_cards_draw_cards(runner, cli, case, jail):
    result = runner.invoke(cli, ["analyze", *_args(case), "--format", "json", "--jail", jail])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    shares = [row["probability"] for row in data["landing"]] + [data["in_jail"]]
    assert all(math.isfinite(p) and p >= 0 for p in shares)
    assert math.isclose(sum(shares), 1.0, abs_tol=1e-12)
    assert math.isfinite(data["rolls_per_turn"]) and data["rolls_per_turn"] >= 1
    text = runner.invoke(cli, ["analyze", *_args(case), "--jail", jail])
    assert text.exit_code == 0, text.output


@pytest.mark.parametrize("case", sorted(CASES))
def test_render_heat_of_a_ruleset_whose_cards_draw_cards(runner, cli, case, tmp_path):
    out = tmp_path / f"{case}.svg"
    result = runner.invoke(cli, ["render", *_args(case), "--heat", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_a_deck_drawing_itself_moves_nothing(tmp_path):
    """Chance's one card draws Chance again: the token stays on the Chance square, and the odds are
    those of classic with one Chance card that only pays."""
    drawing = monopoly.load_ruleset(CASES["self-draw"][0])
    board = _Board(drawing)
    chances = [s.index for s in drawing.board if s.deck == "chance"]
    assert len(chances) == 3
    for index in chances:
        assert board.settle(index) == {index: 1.0}
    paying_file = tmp_path / "paying-chance.yaml"
    paying_file.write_text(textwrap.dedent("""\
        id: paying-chance
        name: Paying Chance
        extends: classic
        decks:
          chance: {cards: [{text: Collect 1., effect: collect 1}]}
        """), encoding="utf-8")
    paying = monopoly.load_ruleset(str(paying_file))
    for jail in ("short", "long"):
        a, b = landing_odds(drawing, jail), landing_odds(paying, jail)
        assert a.landing == pytest.approx(b.landing, abs=1e-12)
        assert a.in_jail == pytest.approx(b.in_jail, abs=1e-12)


def test_half_the_cards_drawing_again_keep_the_token_with_probability_two_to_the_minus_sixteen():
    """Fortune: "draw fortune" or "advance to Start", one each. A roll onto Fortune allows 16 draws
    (the bound); the token stays only when all 16 say "draw fortune": (1/2)^16. A bound one lower
    or higher would give twice or half that."""
    ruleset = monopoly.load_ruleset(TINY)
    fortune = ruleset.space("Fortune").index
    start = ruleset.space("Start").index
    ends = _Board(ruleset).settle(fortune)
    assert set(ends) == {fortune, start}
    assert ends[fortune] == pytest.approx(2.0**-16, rel=1e-12)
    assert ends[start] == pytest.approx(1 - 2.0**-16, rel=1e-12)


def test_each_hop_is_one_draw_and_one_move_as_in_the_engine():
    """Hop's one card says "move 1": each hop costs a draw and a move, so a roll onto a Hop is followed
    by 16 / 2 = 8 hops, and the engine plays exactly that."""
    assert MAX_CHAIN == MAX_CHAINED_MOVES == 16
    ruleset = monopoly.load_ruleset(TINY)
    board = _Board(ruleset)
    hops = [s.index for s in ruleset.board if s.name == "Hop"]
    red = ruleset.space("Red One").index
    assert hops == list(range(2, 13)) and red == 13
    for index in hops:
        assert board.settle(index) == {min(index + 8, red): 1.0}, index
    for start, dice, end, cards in [(0, (1, 2), 11, 8), (0, (2, 3), 13, 8), (11, (1, 3), 15, 16)]:
        game = monopoly.Game(ruleset, [ScriptedAgent(), ScriptedAgent()], seed=0)
        events: list[dict] = []
        game.observe(events.append)
        game.start()
        game.position[0] = start
        game.fix_dice([dice])
        game.play_turn()
        assert game.position[0] == end
        assert sum(e["type"] == "card" for e in events) == cards  # 15 is Echo: 16 draws, then the bound
    echo = ruleset.space("Echo").index
    assert board.settle(echo) == {echo: 1.0}
