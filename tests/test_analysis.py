"""Exact landing odds and money tables, checked against published figures and the engine itself."""

from __future__ import annotations

import json
import math
import textwrap

import pytest

import monopoly
from monopoly.analysis.analyze import analyze
from monopoly.analysis.markov import dice_outcomes, landing_odds
from monopoly.analysis.money import money_tables

from .conftest import DATA

CLASSIC = monopoly.load_ruleset("classic")


@pytest.fixture(scope="module")
def short():
    return landing_odds(CLASSIC, "short")


@pytest.fixture(scope="module")
def long():
    return landing_odds(CLASSIC, "long")


def test_dice_outcomes_of_two_dice():
    outcomes = dice_outcomes(2, 6)
    assert math.isclose(sum(p for _, _, p in outcomes), 1.0)
    doubles = {total: p for total, double, p in outcomes if double}
    assert doubles == pytest.approx({t: 1 / 36 for t in (2, 4, 6, 8, 10, 12)})
    sevens = sum(p for total, _, p in outcomes if total == 7)
    assert sevens == pytest.approx(6 / 36)


@pytest.mark.parametrize("jail", ["short", "long"])
def test_shares_sum_to_one_and_go_to_jail_is_never_an_end(jail):
    odds = landing_odds(CLASSIC, jail)
    assert math.isclose(sum(odds.landing) + odds.in_jail, 1.0, abs_tol=1e-12)
    assert odds.landing[CLASSIC.space("Go To Jail").index] == pytest.approx(0.0, abs=1e-15)
    assert all(p >= 0 for p in odds.landing)


def test_classic_matches_the_published_headline_figures(short, long):
    # Published exact tables (Truman Collins, "Probabilities in the Game of Monopoly"): Illinois
    # Avenue about 3.2% (short stay), In Jail about 3.9% short and 9.4% long.
    illinois = CLASSIC.space("Illinois Avenue").index
    assert 100 * short.landing[illinois] == pytest.approx(3.18, abs=0.02)
    assert 100 * short.in_jail == pytest.approx(3.94, abs=0.02)
    assert 100 * long.in_jail == pytest.approx(9.39, abs=0.02)
    assert 100 * long.landing[illinois] == pytest.approx(2.99, abs=0.02)
    # the most landed-on square is Illinois Avenue in both
    assert max(range(40), key=short.landing.__getitem__) == illinois
    assert max(range(40), key=long.landing.__getitem__) == illinois


PUBLISHED = DATA / "published_landing.json"


@pytest.mark.parametrize("jail", ["short", "long"])
def test_classic_matches_the_published_table_square_by_square(jail):
    """Within 0.02 percentage points of every figure of the published table (see its "source")."""
    table = json.loads(PUBLISHED.read_text(encoding="utf-8"))[jail]
    assert len(table) >= 26
    odds = landing_odds(CLASSIC, jail)
    for key, percent in table.items():
        ours = odds.in_jail if key == "in_jail" else odds.landing[int(key)]
        assert 100 * ours == pytest.approx(percent, abs=0.02), key


def test_rolls_per_turn_counts_doubles(short):
    # without jail effects a turn has 1/(1 - 1/6) rolls less the third double: about 1.19
    assert short.rolls_per_turn == pytest.approx(1.19, abs=0.01)


def test_cards_that_move_are_read_from_the_decks(short, tmp_path):
    # St. Charles Place gets extra landings from its Chance card; its neighbour States Avenue does not.
    st_charles = CLASSIC.space("St. Charles Place").index
    states = CLASSIC.space("States Avenue").index
    assert short.landing[st_charles] > short.landing[states] + 0.002
    plain = monopoly.load_ruleset(_write_without_cards(tmp_path))
    plain_odds = landing_odds(plain, "short")
    assert abs(plain_odds.landing[st_charles] - plain_odds.landing[states]) < 0.002


def _write_without_cards(folder):
    text = textwrap.dedent("""\
        id: no-moving-cards
        name: No moving cards
        extends: classic
        decks:
          chance: {cards: [{text: Nothing., effect: collect 1}]}
          community_chest: {cards: [{text: Nothing., effect: collect 1}]}
        """)
    path = folder / "no-moving-cards.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("size", [12, 24, 48])
def test_boards_of_other_sizes_analyze(size, tmp_path):
    path = tmp_path / f"ring-{size}.yaml"
    path.write_text(_ring(size), encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    for jail in ("short", "long"):
        odds = landing_odds(ruleset, jail)
        assert len(odds.landing) == size
        assert math.isclose(sum(odds.landing) + odds.in_jail, 1.0, abs_tol=1e-12)
    tables = money_tables(ruleset, landing_odds(ruleset))
    assert {row["group"] for row in tables["groups"]} == {"a", "b"}


def _ring(size: int) -> str:
    quarter = size // 4
    board = []
    for i in range(size):
        if i == 0:
            board.append("{name: Start, kind: go}")
        elif i == quarter:
            board.append("{name: Jail, kind: jail}")
        elif i == 3 * quarter:
            board.append("{name: Go To Jail, kind: action, effect: go to jail}")
        elif i in (1, 3):
            board.append(f"{{name: A{i}, kind: street, group: a, price: 60, rent: [2, 10, 30, 90, 160, 250]}}")
        elif i in (size - 3, size - 1):
            board.append(f"{{name: B{i}, kind: street, group: b, price: 90, rent: [6, 30, 90, 270, 400, 550]}}")
        elif i == 2:
            board.append("{name: Luck, kind: draw, deck: luck}")
        else:
            board.append(f"{{name: Lot {i}, kind: plain}}")
    lines = "\n".join(f"  - {space}" for space in board)
    return textwrap.dedent("""\
        id: ring
        name: Ring
        groups:
          a: {house_cost: 50}
          b: {house_cost: 100}
        decks:
          luck:
            cards:
              - {text: Back to the start., effect: advance to Start}
              - {text: Three back., effect: move -3}
              - {text: Jail., effect: go to jail}
              - {text: Keep., effect: keep}
        board:
        """) + lines + "\n"


def test_money_tables_for_classic(short):
    tables = money_tables(CLASSIC, short)
    boardwalk = {row["level"]: row for row in tables["spaces"] if row["name"] == "Boardwalk"}
    assert list(boardwalk) == ["site", "group", "1 house", "2 houses", "3 houses", "4 houses", "hotel"]
    per_turn = short.per_turn(39)
    assert boardwalk["hotel"]["rent_per_turn"] == pytest.approx(per_turn * 2000)
    assert boardwalk["hotel"]["cost"] == 400 + 5 * 200
    assert boardwalk["group"]["rent"] == 100
    assert boardwalk["hotel"]["payback_turns"] == pytest.approx(1400 / (per_turn * 2000))
    orange = {row["level"]: row for row in tables["groups"] if row["group"] == "orange"}
    assert orange["hotel"]["cost"] == 180 + 180 + 200 + 3 * 5 * 100
    rails = [row for row in tables["groups"] if row["group"] == "railroads"]
    assert [row["level"] for row in rails] == ["4 owned"] and rails[0]["cost"] == 800
    # with three houses the orange group pays back faster than the dark blue one, as players say
    dark_blue = {row["level"]: row for row in tables["groups"] if row["group"] == "dark_blue"}
    assert orange["3 houses"]["payback_turns"] < dark_blue["3 houses"]["payback_turns"]


def test_analysis_json_shape():
    data = analyze(CLASSIC, "long")
    assert [row["index"] for row in data["landing"]] == list(range(40))
    assert set(data["landing"][0]) == {"index", "name", "probability"}
    assert 0 < data["in_jail"] < 1 and data["jail"] == "long"
    assert {"spaces", "groups"} <= set(data["money"])


def test_analyze_command_text_and_json(runner, cli):
    result = runner.invoke(cli, ["analyze", "classic", "--format", "json", "--jail", "long"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["in_jail"] == pytest.approx(0.0939, abs=0.0002)
    text = runner.invoke(cli, ["analyze", "classic"])
    assert text.exit_code == 0 and "Illinois Avenue" in text.output.splitlines()[3]
    assert runner.invoke(cli, ["analyze", "classic", "--format", "html"]).exit_code == 2  # needs -o
    assert runner.invoke(cli, ["analyze", "nope"]).exit_code == 2


# --------------------------------------------------------------------------- the engine agrees


class Wanderer(monopoly.Agent):
    """Buys nothing and bids nothing, so money never stops it; leaves jail as the strategy says."""

    name = "wanderer"

    def __init__(self, jail: str):
        self.strategy = jail

    def buy(self, game, seat, space):
        return False

    def jail(self, game, seat, options):
        if self.strategy == "long":
            return "roll"
        return "card" if "card" in options else "pay" if "pay" in options else "roll"


@pytest.fixture(scope="module")
def no_keep(tmp_path_factory):
    """Classic with its Get Out of Jail Free cards made plain cards that stay in the deck.

    The exact odds count a held card as one that does not move; in real games a held card
    leaves its deck (for ever, when a long-stay player never uses it), so every other card of
    that deck comes up 1 in 15 instead of 1 in 16. Comparing on this edition leaves only the
    difference between cycling real decks and random draws."""
    import yaml

    decks = {}
    for deck in CLASSIC.decks:
        cards = [{"text": c.text, "effect": "collect 0" if c.effect_text == "keep" else c.effect_text,
                  **({"count": c.count} if c.count != 1 else {})} for c in deck.cards]
        decks[deck.key] = {"cards": cards}
    path = tmp_path_factory.mktemp("no-keep") / "no-keep.yaml"
    path.write_text(yaml.safe_dump({"id": "no-keep", "name": "No keep", "extends": "classic", "decks": decks}),
                    encoding="utf-8")
    return monopoly.load_ruleset(str(path))


def simulated_shares(ruleset, jail: str, rolls: int, seed: int = 1) -> tuple[list[float], float, int]:
    """Share of rolls ending on each square (and in jail) in real games of the engine."""
    counts = [0] * 40
    in_jail = 0
    total = 0
    while total < rolls:
        game = monopoly.Game(ruleset, [Wanderer(jail), Wanderer(jail)], seed=seed, max_turns=2000)
        pending: list[int] = []

        def observe(event, game=game, pending=pending):
            nonlocal in_jail, total
            if event["type"] in ("roll", "turn", "game_end") and pending:
                seat = pending.pop()
                total += 1
                if game.jail_turns[seat] >= 0:
                    in_jail += 1
                else:
                    counts[game.position[seat]] += 1
            if event["type"] == "roll":
                pending.append(event["seat"])

        game.observe(observe)
        game.play()
        seed += 1
    return [c / total for c in counts], in_jail / total, total


@pytest.mark.parametrize("jail", ["short", "long"])
def test_the_engines_own_games_agree_with_the_exact_odds(jail, no_keep):
    """Real decks cycle in order (cards go to the bottom) instead of being drawn at random; over
    many shuffled games that moves the shares by far less than the sampling error of 150,000
    rolls. The tolerance is 5 standard errors of a binomial share, times 1.5 for the correlation
    between successive rolls. (Held cards: see the ``no_keep`` fixture.)"""
    exact = landing_odds(no_keep, jail)
    shares, jailed, total = simulated_shares(no_keep, jail, 150_000)
    for index, share in enumerate(shares):
        p = exact.landing[index]
        sigma = math.sqrt(max(p * (1 - p), 1e-9) / total) * 1.5
        assert abs(share - p) < 5 * sigma + 1e-9, (CLASSIC.board[index].name, share, p)
    sigma = math.sqrt(exact.in_jail * (1 - exact.in_jail) / total) * 1.5
    assert abs(jailed - exact.in_jail) < 5 * sigma


@pytest.mark.slow
@pytest.mark.parametrize("jail", ["short", "long"])
def test_the_engine_agrees_over_two_million_rolls(jail, no_keep):
    exact = landing_odds(no_keep, jail)
    shares, jailed, _ = simulated_shares(no_keep, jail, 2_000_000, seed=1000)
    worst = max(abs(s - p) for s, p in zip(shares, exact.landing, strict=True))
    assert worst < 0.0007  # 0.07 percentage points
    assert abs(jailed - exact.in_jail) < 0.0007


def _long_board(folder, spaces: int, doubles: int):
    lines = ["id: long-board", "name: Long board", f"rules: {{jail: {{doubles_to_jail: {doubles}, max_turns: 3}}}}",
             "board:", "  - {name: GO, kind: go}", "  - {name: Jail, kind: jail}"]
    lines += [f"  - {{name: P{i}, kind: plain}}" for i in range(spaces - 2)]
    path = folder / "long-board.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_chain_too_large_for_the_exact_odds_is_refused_at_once(tmp_path):
    """200 spaces and 10 doubles in a row: 2,001 states, which the dense solution would take many minutes
    over. Refused before any work with what to change; the command exits 1 with it."""
    import subprocess
    import sys
    import time

    from monopoly.analysis.markov import MAX_STATES, ChainTooLarge

    path = _long_board(tmp_path, 200, 10)
    ruleset = monopoly.load_ruleset(path)
    with pytest.raises(ChainTooLarge, match=r"a chain of 2,001 states \(200 spaces times 10 counts of doubles"):
        landing_odds(ruleset)
    assert MAX_STATES >= 200 * 3 + 3  # the largest board with the usual three doubles still analyses
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "monopoly.cli.main", "analyze", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Error: Long board: its exact odds are a chain of 2,001 states" in done.stderr
    assert "bug in monopoly" not in done.stderr and time.monotonic() - start < 60
