"""The expression language of effects (issue 10, part 1): numbers and quantities with arithmetic, players and
spaces as values, conditions and `if`, payments between any two players, each checked for its type with a
located message, and each with its exact outcome in a set-up position."""

from __future__ import annotations

import functools
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import monopoly
from monopoly.effects import EffectNames, ast, parse_and_check, parse_effect
from monopoly.effects.compile import LIMIT, Names, compile_effect
from monopoly.game.state import Setup

CLASSIC = monopoly.load_ruleset("classic")
NAMES = EffectNames(spaces=tuple(space.name for space in CLASSIC.board),
                    kinds={space.kind for space in CLASSIC.board},
                    groups={group.key for group in CLASSIC.groups},
                    decks={deck.key for deck in CLASSIC.decks})


# --------------------------------------------------------------------------- today's effects keep their meaning


@pytest.mark.parametrize(("text", "node"), [
    ("pay 25 per house + 100 per hotel", ast.Pay(ast.Amount([ast.PerHouse(25), ast.PerHotel(100)]))),
    ("collect 10 + 20", ast.Collect(ast.Amount([ast.Fixed(10), ast.Fixed(20)]))),
    ("pay 10% of net worth", ast.Pay(ast.Amount([ast.PercentOfNetWorth(10)]))),
    ("collect 10 per railroad", ast.Collect(ast.Amount([ast.PerOwned(10, "railroad")]))),
    ("collect pot", ast.CollectPot()),
])
def test_the_phrases_of_the_classic_cards_parse_to_the_nodes_they_always_did(text: str, node: Any) -> None:
    assert parse_effect(text) == ast.single(node)


def test_every_shipped_effect_parses_to_the_same_text() -> None:
    for name in ("classic", "uk"):
        ruleset = monopoly.load_ruleset(name)
        texts = [card.effect for deck in ruleset.decks for card in deck.cards]
        texts += [space.effect for space in ruleset.board if space.effect is not None]
        for text in texts:
            text = text if isinstance(text, str) else text.to_text()
            assert parse_effect(parse_effect(text).to_text()) == parse_effect(text)


# --------------------------------------------------------------------------- parsing and printing


@pytest.mark.parametrize("text", [
    "pay 5% of cash",
    "pay min(200, 10% of net worth)",
    "pay (cash - 100) / 2",
    "pay 10 - (5 - 2)",
    "pay 2 x 3 + 4 x (5 + 1)",
    "pay 50% of (price of \"Boardwalk\" + 100)",
    "collect houses of owner x 10",
    "pay 10 to owner",
    "collect 20 from richest player",
    "pay max(dice x 10, round, players left) to poorest player",
    "if you are in jail then pay 10 else (collect 5; move 3)",
    "if cash of owner < 100 and not doubles then collect 20 from richest player",
    "if owner owns \"Park Place\" or dice > 10 then go to jail",
    "if doubles then (if dice = 12 then collect 100); move 2",
    "choose: pay 200 | if net worth > 2000 then pay 10% of net worth else pay 100",
    "if turns in jail of you >= 2 then pay mortgage value of \"Boardwalk\" + rent of \"Boardwalk\"",
])
def test_an_expression_prints_as_it_reads_and_reads_back_the_same(text: str) -> None:
    effect = parse_effect(text)
    assert effect.to_text() == text
    assert parse_effect(effect.to_text()) == effect


def test_precedence_and_grouping_are_kept() -> None:
    [pay] = parse_effect("pay 1 + 2 x 3 - 4 / 2").statements()
    assert isinstance(pay, ast.Pay)
    [tree] = pay.amount.terms
    assert tree == ast.Arith("-", ast.Arith("+", ast.Fixed(1), ast.Arith("x", ast.Fixed(2), ast.Fixed(3))),
                             ast.Arith("/", ast.Fixed(4), ast.Fixed(2)))
    [condition] = [s.condition for s in parse_effect("if doubles or cash < 5 and not dice = 2 then pay 1")
                   .statements() if isinstance(s, ast.If)]
    assert condition == ast.Logic("or", ast.Doubles(), ast.Logic(
        "and", ast.Compare("<", ast.Amount([ast.Quantity("cash")]), ast.Amount([ast.Fixed(5)])),
        ast.Not(ast.Compare("=", ast.Amount([ast.Quantity("dice")]), ast.Amount([ast.Fixed(2)])))))


# --------------------------------------------------------------------------- types and names, located


@pytest.mark.parametrize(("text", "code", "column", "message", "hint"), [
    ("pay cash of Boardwalk", "type-mismatch", 13, '"cash of "Boardwalk"": Boardwalk is a space, a player was '
     "expected", 'a player is "you", "owner", "richest player" or "poorest player"'),
    ("pay 10 to Boardwalk", "type-mismatch", 11, '"pay 10 to "Boardwalk"": Boardwalk is a space, a player was '
     "expected", 'a player is "you", "owner", "richest player" or "poorest player"'),
    ("pay price of owner", "type-mismatch", 14, '"price of owner": owner is a player, a space was expected',
     'name a space, in double quotes as on the board: "Boardwalk"'),
    ("if you own you then pay 1", "type-mismatch", 12, '"you own you": you is a player, a space was expected',
     'name a space, in double quotes as on the board: "Boardwalk"'),
    ("pay 5% of wealth", "unknown-quantity", 11, 'unknown quantity "wealth"', None),
    ("pay 5% of csh", "unknown-quantity", 11, 'unknown quantity "csh"', 'did you mean "cash"?'),
    ("pay price of Bordwalk", "unknown-space", 14, 'unknown space "Bordwalk"', 'did you mean "Boardwalk"?'),
    ("collect 10 from eachplayer", "unknown-player", 17, 'unknown player "eachplayer"',
     'write "each player", in two words'),
    ("keep; if doubles then keep", "keep-in-if", 23, '"keep" cannot be in a branch of an "if": a card is kept, '
     "or not, whatever happens", 'write "keep" on its own, outside the "if"'),
])
def test_every_type_and_name_error_is_located_with_a_hint(text: str, code: str, column: int, message: str,
                                                          hint: str | None) -> None:
    effect, problems = parse_and_check(text, NAMES, "card")
    assert effect is not None
    [problem] = problems
    assert (problem.code, problem.line, problem.column, problem.message) == (code, 1, column, message)
    if hint is not None:
        assert problem.hint == hint
    else:
        assert problem.hint is not None and "cash" in problem.hint


def test_all_problems_of_an_effect_come_together_in_text_order() -> None:
    _, problems = parse_and_check("if cash of Boardwalk > 1 then pay wealth to Jail", NAMES, "space")
    assert [(p.code, p.column) for p in problems] == [("type-mismatch", 12), ("unknown-quantity", 35),
                                                      ("type-mismatch", 45)]


def test_a_designers_file_gets_one_located_message_with_a_hint_per_mistake(tmp_path: Any) -> None:
    """The issue's check: a file using expressions and a trigger, with one type error and one unknown quantity."""
    path = tmp_path / "house.yaml"
    path.write_text(
        "id: house\nname: House rules\nextends: classic\n"
        "triggers:\n"
        "  - on: land\n"
        "    space: Free Parking\n"
        "    effect: if cash < 500 then collect 100 else pay 5% of cash of Boardwalk\n"
        "  - on: land\n"
        "    space: GO\n"
        "    effect: collect min(200, 10% of wealth)\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "monopoly.cli.main", "validate", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() + result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 2, result.stdout + result.stderr
    assert f"{path}:7:" in errors[0] and "Boardwalk is a space, a player was expected" in errors[0]
    assert f"{path}:10:" in errors[1] and 'unknown quantity "wealth"' in errors[1]
    assert result.stdout.count("hint:") + result.stderr.count("hint:") == 2


# --------------------------------------------------------------------------- exact outcomes


def _position() -> Setup:
    """Seat 0 on Boardwalk (seat 1's), 1000 cash; seat 1 300, seat 2 50."""
    return (Setup(CLASSIC, players=3).give("Boardwalk", 1).set_cash(0, 1000).set_cash(1, 300).set_cash(2, 50)
            .place(0, "Boardwalk"))


def _run(text: str, setup: Setup | None = None, **state: Any) -> monopoly.Game:
    game = monopoly.Game.from_state(CLASSIC, [monopoly.make_agent("greedy") for _ in range(3)],
                                    (setup or _position()).state)
    for name, value in state.items():
        setattr(game, name, value)
    effect = parse_effect(text)
    assert not parse_and_check(text, NAMES, "card")[1]
    game.carry_out(compile_effect(effect, Names(CLASSIC.board), text)(game, 0, None))
    return game


@pytest.mark.parametrize(("text", "cash"), [
    ("pay 5% of cash", [950, 300, 50]),
    ("pay 10 to owner", [990, 310, 50]),                         # Boardwalk's owner
    ("collect 20 from poorest player", [1020, 300, 30]),
    ("collect 20 from richest player", [1000, 300, 50]),          # the richest is seat 0 itself: nothing moves
    ("pay min(200, 10% of net worth)", [900, 300, 50]),          # net worth 1000: cash, no lots
    ("pay (cash - 100) / 3", [700, 300, 50]),                     # rounds down
    ("pay 7 / 0", [1000, 300, 50]),                               # division by 0 gives 0
    ("pay 100 - cash", [1000, 300, 50]),                          # below nothing: nothing moves
    ("pay price of Boardwalk / 4 + mortgage value of Boardwalk", [700, 300, 50]),  # 100 + 200
    ("pay rent of Boardwalk", [950, 300, 50]),                    # 50 to the bank, as the card says
    ("pay cash of owner - cash of poorest player", [750, 300, 50]),
    ("pay players left x 10 + round", [970, 300, 50]),
    ("if owner is in jail then pay 1 else pay 2", [998, 300, 50]),
    ("if you own Boardwalk then pay 7 else pay 8", [992, 300, 50]),
    ("if owner owns Boardwalk and cash > 999 then pay price of Boardwalk / 4", [900, 300, 50]),
    ("if cash < 1000 or doubles then pay 1", [1000, 300, 50]),
    ("if not cash < 1000 then (pay 1; pay 2 to owner) else pay 3", [997, 302, 50]),
])
def test_each_expression_moves_exactly_the_money_it_says(text: str, cash: list[int]) -> None:
    assert _run(text).cash == cash


def test_quantities_read_the_game() -> None:
    setup = _position().give("Park Place", 1).build("Park Place", 2).build("Boardwalk", 2).jail(1, 2)
    game = _run("pay houses of owner x 10 + turns in jail of owner x 100 + dice", setup, last_roll=(3, 4))
    assert game.cash[0] == 1000 - (40 + 200 + 7)
    game = _run("if owner is in jail and doubles then collect pot", setup, last_roll=(2, 2), pot=250)
    assert (game.cash[0], game.pot) == (1250, 0)


def test_the_bank_adds_to_the_pot() -> None:
    game = _run("add 100 to pot; add dice x 10 to pot", last_roll=(2, 3), pot=20)
    assert (game.pot, game.cash) == (170, [1000, 300, 50])


def test_a_payment_to_nobody_goes_to_the_bank_and_a_collection_from_nobody_comes_from_it() -> None:
    setup = _position().place(0, "Park Place")  # nobody owns it
    game = _run("pay 40 to owner; collect 15 from owner", setup)
    assert game.cash == [975, 300, 50]


def test_a_debt_to_a_player_is_raised_or_ends_in_bankruptcy_to_that_player() -> None:
    setup = _position().set_cash(0, 30)
    game = _run("pay 100 to owner", setup)
    assert game.bankrupt[0] and game.cash[1] == 330  # all it had went to its creditor


def test_an_if_in_a_trigger_fires_in_play(tmp_path: Any) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("id: t\nname: T\nextends: classic\ntriggers:\n  - on: land\n    space: Free Parking\n"
                    "    effect: if cash < 1400 then collect 100 else pay 5% of cash\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game(ruleset, [monopoly.make_agent("greedy") for _ in range(2)], seed=1)
    game.start()
    game.position[:] = [10, 10]  # just visiting
    game.cash[1] = 1000
    game.fix_dice([(4, 6), (6, 4)])  # each onto Free Parking
    game.play_turn()
    game.play_turn()
    assert game.cash == [1500 - 75, 1000 + 100]


# --------------------------------------------------------------------------- properties over random expressions

_PLAYERS = st.sampled_from([ast.Ref("you"), ast.Ref("owner"), ast.Ref("richest"), ast.Ref("poorest")])
_SPACES = st.sampled_from([ast.Ref(name, space=True) for name in ("Boardwalk", "Park Place", "GO", "Reading Railroad")])
_LEAVES = st.one_of(
    st.builds(ast.Fixed, st.integers(0, 2000)),
    st.builds(ast.PerHouse, st.integers(0, 100)),
    st.builds(ast.PerOwned, st.integers(0, 100), st.sampled_from(["railroad", "brown", "utility"])),
    st.builds(ast.PercentOfNetWorth, st.integers(1, 100)),
    st.builds(ast.Quantity, st.sampled_from(["cash", "net_worth", "houses", "hotels", "turns_in_jail"]),
              st.one_of(st.none(), _PLAYERS)),
    st.builds(ast.Quantity, st.sampled_from(["price", "mortgage_value", "rent"]), _SPACES),
    st.builds(ast.Quantity, st.sampled_from(["pot", "dice", "round", "players_left"])),
)
_NUMBERS = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.builds(ast.Arith, st.sampled_from(["+", "-", "x", "/"]), inner, inner),
    st.builds(ast.Extreme, st.sampled_from(["min", "max"]), st.lists(inner, min_size=2, max_size=3)),
    st.builds(ast.PercentOf, st.integers(1, 100), inner),
), max_leaves=8)
_AMOUNTS = st.builds(lambda n: ast.Amount([n]), _NUMBERS)
_TESTS = st.one_of(
    st.builds(ast.Compare, st.sampled_from(list(ast.COMPARISONS)), _AMOUNTS, _AMOUNTS),
    st.builds(ast.InJail, _PLAYERS),
    st.builds(ast.Owns, _PLAYERS, _SPACES),
    st.just(ast.Doubles()),
)
_NEGATED = st.recursive(_TESTS, lambda inner: st.builds(ast.Not, inner), max_leaves=2)
_ANDS = st.recursive(_NEGATED, lambda inner: st.builds(functools.partial(ast.Logic, "and"), inner, _NEGATED),
                     max_leaves=3)
_CONDITIONS = st.recursive(_ANDS, lambda inner: st.builds(functools.partial(ast.Logic, "or"), inner, _ANDS),
                           max_leaves=3)
_MONEY = st.one_of(st.builds(ast.Pay, _AMOUNTS), st.builds(ast.Collect, _AMOUNTS),
                   st.builds(ast.PayTo, _AMOUNTS, _PLAYERS), st.builds(ast.CollectFrom, _AMOUNTS, _PLAYERS),
                   st.builds(ast.Move, st.sampled_from([-3, 2, 5])))
_STATEMENTS = st.recursive(_MONEY, lambda inner: st.builds(
    lambda c, t, o: ast.If(c, ast.Sequence(t), ast.Sequence(o) if o else None), _CONDITIONS,
    st.lists(inner, min_size=1, max_size=2), st.lists(inner, max_size=2)), max_leaves=4)


def _canonical(effect: ast.Effect) -> ast.Effect:
    """A hand-built effect as the parser would build it from its own text: a sum of classic terms is a list of
    terms (the language always read it so), and ``collect pot`` takes the pot."""
    return parse_effect(effect.to_text())


@settings(max_examples=150, deadline=None)
@given(st.lists(_STATEMENTS, min_size=1, max_size=3))
def test_any_effect_prints_to_a_text_that_reads_back_to_it_and_checks_clean(statements: list[Any]) -> None:
    effect = ast.Effect(ast.Sequence(statements))
    once = _canonical(effect)
    assert parse_effect(once.to_text()) == once
    assert parse_and_check(effect.to_text(), NAMES, "card")[1] == []


@settings(max_examples=150, deadline=None)
@given(st.lists(_STATEMENTS, min_size=1, max_size=3), st.integers(0, 2**16))
def test_any_effect_runs_in_any_position_and_keeps_the_money_whole(statements: list[Any], seed: int) -> None:
    """Carried out from a position, an effect raises nothing, keeps every amount within the limit, and money
    moves only between the players, the bank and the pot (what the bank gave out balances the sum)."""
    import random

    rng = random.Random(seed)
    setup = _position().set_cash(0, rng.randint(0, 3000)).place(0, rng.choice(["Boardwalk", "Park Place", "GO"]))
    game = monopoly.Game.from_state(CLASSIC, [monopoly.make_agent("greedy") for _ in range(3)], setup.state)
    game.last_roll = (rng.randint(1, 6), rng.randint(1, 6))
    before = sum(game.cash) + game.pot
    mark = len(game.events)
    text = ast.Effect(ast.Sequence(statements)).to_text()
    game.carry_out(compile_effect(parse_effect(text), Names(CLASSIC.board), text)(game, 0, None))
    from monopoly.game.events import PAYMENT

    paid = [record for record in game.events[mark:] if record[0] == PAYMENT]
    assert all(0 <= record[3] <= LIMIT for record in paid)
    from_bank = sum(record[3] for record in paid if record[1] == monopoly.BANK)
    to_bank = sum(record[3] for record in paid if record[2] == monopoly.BANK)
    assert sum(game.cash) + game.pot == before + from_bank - to_bank


def test_every_example_of_the_language_reference_reads_and_checks_clean_on_classic() -> None:
    """The examples of docs/effects.md's expression sections (every backquoted effect and every line of their
    code blocks) parse, print back to themselves, and name only what classic has."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    start, end = text.index("## Numbers: expressions and quantities"), text.index("## Names")
    section = text[start:end]
    blocks = re.findall(r"```\n(.*?)```", section, flags=re.S)
    inline = re.sub(r"```\n.*?```", "", section, flags=re.S)
    examples = [m for m in re.findall(r"`([^`\n]+)`", inline)
                if len(m.split()) > 1 and m.split()[0] in ("pay", "collect", "if")]
    examples += [line for block in blocks for line in block.splitlines()]
    # not the error shown there, nor the forms written with placeholders in capitals
    examples = [example for example in examples if "cash of Boardwalk" not in example and "CONDITION" not in example]
    assert len(examples) >= 25
    for example in examples:  # `amount` is known in a trigger on an event with money, as the reference says
        amount = "the fee owed" if "amount" in example.split() else None
        effect, problems = parse_and_check(example, NAMES, "trigger" if amount else "card", amount=amount)
        assert effect is not None and problems == [], (example, problems)
        assert effect.to_text() == example, example


def test_the_exact_odds_say_plainly_when_an_if_makes_them_approximate(tmp_path: Any, runner: Any, cli: Any) -> None:
    from monopoly.analysis.markov import landing_odds

    path = tmp_path / "iffy.yaml"
    path.write_text("id: iffy\nname: Iffy\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"if cash < 100 then go to jail\"}\n"
                    "  Luxury Tax: {effect: \"if cash < 100 then pay 50 else pay 100\"}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    odds = landing_odds(ruleset)
    [reason] = odds.approximate  # the tax's if moves nobody: exact there
    assert '"if cash < 100 then go to jail"' in reason and "even chances" in reason
    assert landing_odds(CLASSIC).approximate == () and landing_odds(CLASSIC).to_json()["exact"] is True
    result = runner.invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 0 and "These odds are approximate:" in result.output
    assert "These odds are approximate" not in runner.invoke(cli, ["analyze", "classic"]).output


def test_the_bank_pays_no_seat_past_the_most_a_position_may_hold() -> None:
    """`collect 100% of net worth` doubles cash each time: the bank stops at MAX_CASH, so every save the
    engine writes loads back (found by the save property test on a generated ruleset)."""
    from monopoly.game.state import MAX_CASH

    setup = _position().set_cash(0, MAX_CASH - 1000)
    game = _run("collect 100% of net worth; add 100% of net worth to pot", setup, pot=MAX_CASH - 5)
    assert (game.cash[0], game.pot) == (MAX_CASH, MAX_CASH)
    assert game.state().problems(CLASSIC) == []
