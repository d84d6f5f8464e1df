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
    ("collect 1; (choose: keep | pay 5)", "keep-in-choice", 21, '"keep" cannot be in an alternative of a "(choose: '
     '...)" statement: only a choice that is the whole effect ("choose: keep | ...") may keep the card',
     'start the effect with "choose:" to let the player choose to keep it, or write "keep" on its own'),
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
    st.builds(ast.Owned, st.sampled_from(["railroads", "utilities", "streets"]), _PLAYERS),
    st.builds(functools.partial(ast.Owned, group=True), st.sampled_from(["brown", "dark_blue"]), _PLAYERS),
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
                   st.builds(ast.Move, st.sampled_from([-3, 2, 5])),
                   st.builds(ast.MoveBy, st.builds(lambda n: ast.Amount([ast.Arith("x", n, ast.Quantity("dice"))]),
                                                   _NUMBERS), st.booleans()))
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


# --------------------------------------------------------------------------- counts of what a player owns


def _owning() -> Setup:
    """Seat 0 on Boardwalk (seat 1's) with two railroads, a utility and a brown lot; seat 1 the dark blues."""
    return (_position().give("Reading Railroad", 0).give("Pennsylvania Railroad", 0).give("Electric Company", 0)
            .give("Mediterranean Avenue", 0).give("Park Place", 1))


@pytest.mark.parametrize(("text", "cash"), [
    ("collect 10 x railroads you own", [1020, 300, 50]),
    ("collect 10 x railroads owned by you", [1020, 300, 50]),
    ("pay 5 x utilities owned by you", [995, 300, 50]),
    ("collect streets owned by owner x 7", [1014, 300, 50]),             # seat 1: Park Place, Boardwalk
    ("collect 100 x lots of group dark_blue owned by owner", [1200, 300, 50]),
    ("collect 100 x lots of group brown owned by you", [1100, 300, 50]),
    ("pay 10 x railroads owned by poorest player", [1000, 300, 50]),       # seat 2 owns none
    ("if railroads you own = 2 and lots of group dark_blue owned by owner > 1 then pay 1", [999, 300, 50]),
])
def test_each_count_counts_exactly_what_that_player_owns(text: str, cash: list[int]) -> None:
    assert _run(text, _owning()).cash == cash


def test_a_count_of_nobody_is_zero() -> None:
    game = _run("collect 1 + railroads owned by owner", _owning().place(0, "Short Line"))  # nobody's
    assert game.cash[0] == 1001


@pytest.mark.parametrize(("text", "code", "column", "message", "hint"), [
    ("pay railroad owned by you", "unknown-kind", 5, 'unknown space kind "railroad" (a count names the kind in '
     "the plural)", 'a count takes the plural: write "railroads"'),
    ("pay railways owned by you", "unknown-kind", 5, 'unknown space kind "railways" (a count names the kind in '
     "the plural)", 'did you mean "railroads"?'),
    ("pay 2 x red owned by you", "unknown-kind", 9, 'unknown space kind "red" (a count names the kind in the '
     "plural)", 'red is a group: write "lots of group red owned by ..."'),
    ("pay lots of group redd owned by you", "unknown-group", 19, 'unknown group "redd"', 'did you mean "red"?'),
    ("pay lots of group street owned by you", "unknown-group", 19, 'unknown group "street"',
     'street is a space kind: write "streets owned by ..."'),
    ("pay streets owned by Boardwalk", "type-mismatch", 22, '"streets owned by "Boardwalk"": Boardwalk is a '
     "space, a player was expected", 'a player is "you", "owner", "richest player" or "poorest player"'),
    ("pay 10 x streets", "unknown-quantity", 10, '"streets" counts the streets of a player: say whose',
     'write "streets owned by you" (or by owner, ...)'),
])
def test_a_count_of_an_unknown_kind_or_group_is_located_with_a_hint(text: str, code: str, column: int,
                                                                    message: str, hint: str) -> None:
    effect, problems = parse_and_check(text, NAMES, "card")
    assert effect is not None
    [problem] = problems
    assert (problem.code, problem.line, problem.column, problem.message, problem.hint) == (code, 1, column,
                                                                                           message, hint)


def test_the_plural_of_a_kind_is_the_english_one() -> None:
    assert [ast.plural(kind) for kind in ("railroad", "utility", "tax", "day", "plain")] == [
        "railroads", "utilities", "taxes", "days", "plains"]


def test_a_kind_of_another_ruleset_is_counted_by_its_own_plural(tmp_path: Any) -> None:
    """Kinds come from the ruleset: a board without utilities has no `utilities` to count."""
    names = EffectNames(spaces=NAMES.spaces, kinds={"street", "ferry"}, groups=NAMES.groups, decks=NAMES.decks)
    assert parse_and_check("collect 10 x ferries owned by you", names, "card")[1] == []
    [problem] = parse_and_check("collect 10 x utilities owned by you", names, "card")[1]
    assert problem.code == "unknown-kind"


# --------------------------------------------------------------------------- moves by an amount, back to the nearest


def _run_scripted(text: str, setup: Setup, **state: Any) -> monopoly.Game:
    """As _run, with players who buy nothing (so a landing's outcome is the rule's alone)."""
    from tests.scenario import ScriptedAgent

    game = monopoly.Game.from_state(CLASSIC, [ScriptedAgent() for _ in range(3)], setup.state)
    for name, value in state.items():
        setattr(game, name, value)
    assert not parse_and_check(text, NAMES, "card")[1]
    game.carry_out(compile_effect(parse_effect(text), Names(CLASSIC.board), text)(game, 0, None))
    return game


def test_move_forward_by_the_dice_passes_go_for_the_salary() -> None:
    game = _run_scripted("move forward dice spaces", _position(), last_roll=(5, 6))  # 39 + 11: Just Visiting
    assert (game.position[0], game.cash) == (10, [1200, 300, 50])


def test_go_back_by_an_amount_pays_the_rent_where_it_lands_and_never_the_salary() -> None:
    game = _run_scripted("go back dice spaces", _position().place(0, "Connecticut Avenue"), last_roll=(6, 4))
    assert (game.position[0], game.cash) == (39, [950, 350, 50])  # back over GO onto Boardwalk: rent, no salary


def test_a_move_of_nothing_lands_nowhere() -> None:
    game = _run_scripted("move forward railroads you own spaces", _position())  # on seat 1's Boardwalk
    assert (game.position[0], game.cash) == (39, [1000, 300, 50])  # no second rent
    game = _run_scripted("go back 10 - cash spaces", _position())
    assert (game.position[0], game.cash) == (39, [1000, 300, 50])


def test_a_move_by_an_amount_goes_at_most_the_limit_of_a_move() -> None:
    game = _run_scripted("move forward 1000 x dice spaces", _position().place(0, 10),
                         last_roll=(1, 2))
    # 100 spaces from 10 is 30, Go To Jail: twice round the board (past GO at the 30th and the 70th step: the
    # salary twice, as for "move 100") and to jail
    assert (game.position[0], game.jail_turns[0] >= 0, game.cash[0]) == (10, True, 1400)


def test_go_back_to_the_nearest_railroad_behind() -> None:
    setup = _position().give("Reading Railroad", 1).give("Short Line", 1)
    game = _run_scripted("go back to nearest railroad", setup.place(0, 7))  # Chance -> Reading Railroad
    assert (game.position[0], game.cash) == (5, [950, 350, 50])  # seat 1 has two railroads: 50
    game = _run_scripted("go back to nearest railroad", setup.place(0, 2))  # Community Chest, back over GO
    assert (game.position[0], game.cash) == (35, [950, 350, 50])           # Short Line: rent, no salary


def test_a_literal_count_keeps_the_limits_of_move() -> None:
    from monopoly.effects import EffectSyntaxError

    for text in ("move forward 0 spaces", "go back 101 spaces", "move forward 60 + 41 spaces"):
        with pytest.raises(EffectSyntaxError, match="between 1 and 100") as caught:
            parse_effect(text)
        assert caught.value.column == len(" ".join(text.split()[:2])) + 2  # at the count


def test_the_exact_odds_follow_a_move_back_to_the_nearest_and_say_a_move_by_an_amount_is_approximate(
        tmp_path: Any) -> None:
    from monopoly.analysis.markov import landing_odds

    path = tmp_path / "back.yaml"
    path.write_text("id: back\nname: Back\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"go back to nearest railroad\"}\n", encoding="utf-8")
    odds = landing_odds(monopoly.load_ruleset(str(path)))
    assert odds.approximate == () and odds.landing[20] == 0
    assert odds.landing[15] > landing_odds(CLASSIC).landing[15]  # Pennsylvania Railroad, just behind
    path.write_text("id: by\nname: By\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"move forward dice spaces\"}\n", encoding="utf-8")
    [reason] = landing_odds(monopoly.load_ruleset(str(path))).approximate
    assert '"move forward dice spaces"' in reason and "no move" in reason


# --------------------------------------------------------------------------- rounding as the rules say


@pytest.mark.parametrize(("rounding", "paid"), [
    ("down", [250, 250, 251]),
    ("up", [251, 251, 250]),
    ("nearest", [250, 251, 250]),
])
def test_a_fraction_rounds_as_the_rules_say(rounding: str, paid: list[int]) -> None:
    """cash / 4 of 1001 is 250.25; 25% of 1002 is 250.5; 0 - (0 - 1001) / 4 rounds -250.25."""
    texts = [("pay cash / 4", 1001), ("pay 25% of cash", 1002), ("pay 0 - (0 - cash) / 4", 1001)]
    for (text, cash), expected in zip(texts, paid, strict=True):
        game = monopoly.Game.from_state(CLASSIC, [monopoly.make_agent("greedy") for _ in range(3)],
                                        _position().set_cash(0, cash).state)
        game.carry_out(compile_effect(parse_effect(text), Names(CLASSIC.board, rounding), text)(game, 0, None))
        assert cash - game.cash[0] == expected, (rounding, text)


@pytest.mark.parametrize(("rules", "paid"), [("", 100), ("rules: {rounding: up}\n", 101),
                                              ("rules: {rounding: nearest}\n", 100)])
def test_the_rounding_of_a_ruleset_applies_in_play(tmp_path: Any, rules: str, paid: int) -> None:
    path = tmp_path / "round.yaml"
    path.write_text("id: round\nname: Round\nextends: classic\n" + rules
                    + "spaces:\n  Luxury Tax: {effect: \"pay 10% of cash\"}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game(ruleset, [monopoly.make_agent("greedy") for _ in range(2)], seed=1)
    game.start()
    game.position[:] = [34, 34]  # Pennsylvania Avenue: 4 to Luxury Tax
    game.cash[0] = 1001
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.cash[0] == 1001 - paid


def test_an_unknown_rounding_is_a_located_error_listing_the_choices(tmp_path: Any) -> None:
    path = tmp_path / "round.yaml"
    path.write_text("id: round\nname: Round\nextends: classic\nrules: {rounding: sideways}\n", encoding="utf-8")
    with pytest.raises(monopoly.RulesetError) as caught:
        monopoly.load_ruleset(str(path))
    [problem] = caught.value.problems
    assert problem.line == 4 and "down" in problem.message + (problem.hint or "")
    with pytest.raises(ValueError):
        Names(CLASSIC.board, "sideways")


def test_every_move_of_the_language_reference_reads_and_checks_clean() -> None:
    """The effects of docs/effects.md's "Moving" section parse and name only what classic (or the UK edition,
    for its street names) has."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text[text.index("### Moving"):text.index("### Cards and decks")]
    examples = [m for m in re.findall(r"`([^`\n]+)`", section) if m.split()[0] in ("advance", "go", "move")
                and len(m.split()) > 1 and "..." not in m]
    assert {"go back to nearest railroad", "move forward dice spaces", "move forward 3 spaces"} <= set(examples)
    uk = monopoly.load_ruleset("uk")
    uk_names = EffectNames(spaces=tuple(space.name for space in uk.board), kinds=NAMES.kinds, groups=NAMES.groups,
                           decks=NAMES.decks)
    for example in examples:
        effect, problems = parse_and_check(example, NAMES, "card")
        if problems:
            effect, problems = parse_and_check(example, uk_names, "card")
        assert effect is not None and problems == [], (example, problems)


# --------------------------------------------------------------------------- a player or a space one chooses


def _run_choosing(text: str, setup: Setup, choose: Any) -> tuple[monopoly.Game, Any]:
    from tests.scenario import ScriptedAgent

    agents = [ScriptedAgent(choose=choose), ScriptedAgent(), ScriptedAgent()]
    game = monopoly.Game.from_state(CLASSIC, agents, setup.state)
    assert not parse_and_check(text, NAMES, "card")[1]
    game.carry_out(compile_effect(parse_effect(text), Names(CLASSIC.board), text)(game, 0, None))
    return game, agents[0]


def test_pay_a_player_you_choose_asks_which_of_the_others_and_pays_that_one() -> None:
    game, agent = _run_choosing("pay 50 to a player you choose", _position(), choose=1)
    assert game.cash == [950, 300, 100]
    assert agent.questions("choose") == [(("pay 50 to player 2", "pay 50 to player 3"),)]
    game, agent = _run_choosing("collect 20 from a player you choose", _position(), choose=1)
    assert game.cash == [1020, 300, 30]


def test_with_one_other_player_left_nobody_is_asked() -> None:
    setup = _position()
    setup.state.bankrupt[2] = True
    setup.state.bankrupt_order.append(2)
    setup.state.cash[2] = 0
    game, agent = _run_choosing("pay 50 to a player you choose", setup, choose=0)
    assert game.cash[:2] == [950, 350] and agent.questions("choose") == []


def test_advance_to_a_space_you_choose_moves_there_as_if_named() -> None:
    def free_parking(game: Any, seat: int, options: tuple[str, ...]) -> int:
        return options.index('advance to "Free Parking"')

    game, agent = _run_choosing("advance to a space you choose", _position(), choose=free_parking)
    [(options,)] = agent.questions("choose")
    assert options[:2] == ('advance to "GO"', 'advance to "Mediterranean Avenue"')
    assert len(options) == len({space.name for space in CLASSIC.board})  # one a name: three Chances, one choice
    assert (game.position[0], game.cash[0]) == (20, 1200)  # round past GO
    game, _ = _run_choosing("go back to a space you choose", _position().place(0, 2),
                            choose=lambda game, seat, options: options.index('go back to "Boardwalk"'))
    assert (game.position[0], game.cash[:2]) == (39, [950, 350])  # seat 1's Boardwalk: rent, no salary


def test_a_chosen_player_is_a_decision_the_caller_answers_from_its_listed_legal_answers(tmp_path: Any) -> None:
    path = tmp_path / "gift.yaml"
    path.write_text("id: gift\nname: Gift\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"pay 50 to a player you choose\"}\n", encoding="utf-8")
    from monopoly.game.game import Caller

    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game.from_state(ruleset, [Caller() for _ in range(3)],
                                    Setup(ruleset, players=3).place(0, 10).state)  # the caller answers
    game.fix_dice([(4, 6)])  # onto Free Parking
    decision = game.advance()
    assert decision is not None and decision.kind == "choose"
    assert decision.args == (("pay 50 to player 2", "pay 50 to player 3"),) and game.legal_answers() == (0, 1)
    assert game.check(2) is not None
    copy = game.copy()  # a copy at the decision asks the same, and goes on the same
    assert copy.pending == decision
    game.answer(1)
    copy.answer(1)
    assert game.cash == copy.cash == [1450, 1500, 1550]


@pytest.mark.parametrize("bot", ["random", "greedy", "cautious", "trader"])
def test_every_bot_answers_a_chosen_player_or_space_legally(tmp_path: Any, bot: str) -> None:
    from monopoly.game.events import CHOICE, REFUSED

    path = tmp_path / "choosy.yaml"
    path.write_text("id: choosy\nname: Choosy\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"pay 10 to a player you choose\"}\n"
                    "  Luxury Tax: {effect: \"advance to a space you choose\"}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game(ruleset, [monopoly.make_agent(bot) for _ in range(3)], seed=3, max_turns=300)
    monopoly.play(game)
    assert any(record[0] == CHOICE for record in game.events)
    assert not any(record[0] == REFUSED for record in game.events)


@pytest.mark.parametrize(("text", "column"), [
    ("if a player you choose is in jail then pay 1", 4),
    ("if cash of a player you choose > 100 then pay 1", 12),
    ("if 5 x railroads owned by a player you choose > 10 then pay 1", 27),
])
def test_a_chosen_player_in_a_condition_is_a_located_error(text: str, column: int) -> None:
    [problem] = parse_and_check(text, NAMES, "card")[1]
    assert (problem.code, problem.column) == ("choice-not-here", column)
    assert "not in a condition" in problem.message
    assert problem.hint == ('choose in the statement instead: "pay 10% of cash of a player you choose to a player '
                            'you choose"')


def test_a_chosen_permission_or_trigger_condition_is_refused_with_its_place(tmp_path: Any) -> None:
    path = tmp_path / "pick.yaml"
    path.write_text("id: pick\nname: Pick\nextends: classic\npermissions:\n"
                    "  buy: cash of a player you choose > 100\n", encoding="utf-8")
    with pytest.raises(monopoly.RulesetError) as error:
        monopoly.load_ruleset(str(path))
    assert "choice-not-here" in str(error.value) or "not in a condition" in str(error.value)
    assert "pick.yaml:5:" in str(error.value)


@pytest.mark.parametrize(("text", "choose", "options", "cash"), [
    # seat 0 (1000) picks seat 2 (50) or seat 1 (300): whose cash the number reads
    ("pay 10% of cash of a player you choose", 0,
     ("pay 10% of cash of player 2", "pay 10% of cash of player 3"), [970, 300, 50]),
    # one choice for the statement: the player whose cash is read is the one who pays
    ("collect 50% of cash of a player you choose from a player you choose", 1,
     ("collect 50% of cash of player 2 from player 2", "collect 50% of cash of player 3 from player 3"),
     [1025, 300, 25]),
    ("collect 10 x railroads owned by a player you choose", 0,
     ("collect 10 x railroads owned by player 2", "collect 10 x railroads owned by player 3"), [1010, 300, 50]),
])
def test_a_chosen_player_inside_a_number_is_one_choice_for_the_statement(
        text: str, choose: int, options: tuple[str, ...], cash: list[int]) -> None:
    setup = _position().give("Reading Railroad", 1)
    game, agent = _run_choosing(text, setup, choose=choose)
    assert agent.questions("choose") == [(options,)]
    assert game.cash == cash


def test_a_chosen_player_inside_a_move_or_a_variable_is_asked_too(tmp_path: Any) -> None:
    from tests.scenario import ScriptedAgent

    path = tmp_path / "count.yaml"
    path.write_text("id: count\nname: Count\nextends: classic\nvariables: {mark: 0}\nspaces:\n"
                    "  Free Parking: {effect: \"set mark to cash of a player you choose; "
                    "move forward houses of a player you choose + 1 spaces\"}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    agents = [ScriptedAgent(choose=1), ScriptedAgent(), ScriptedAgent()]
    state = (Setup(ruleset, players=3).place(0, 10).set_cash(1, 700).set_cash(2, 900)
             .give("Park Place", 2).give("Boardwalk", 2).build("Park Place", 2).build("Boardwalk", 2).state)
    game = monopoly.Game.from_state(ruleset, agents, state)
    game.fix_dice([(4, 6)])  # onto Free Parking
    game.play_turn()
    # two statements, two questions; seat 3 both times: its cash, then its 4 houses + 1: Free Parking + 5
    assert [q[0][1] for q in agents[0].questions("choose")] == [
        "set mark to cash of player 3", "move forward houses of player 3 + 1 spaces"]
    assert game.variables == [900] and game.position[0] == 25


def test_the_cost_of_a_chosen_payment_is_what_that_choice_costs(tmp_path: Any) -> None:
    from monopoly.game.game import Caller

    path = tmp_path / "share.yaml"
    path.write_text("id: share\nname: Share\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"pay 10% of cash of a player you choose to a player you choose\"}\n",
                    encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    state = Setup(ruleset, players=3).place(0, 10).set_cash(1, 700).set_cash(2, 900).state
    game = monopoly.Game.from_state(ruleset, [Caller() for _ in range(3)], state)
    game.fix_dice([(4, 6)])
    assert game.advance() is not None and game.pending.kind == "choose"
    assert game.option_costs(0) == [70, 90]
    game.answer(0)
    assert game.cash == [1430, 770, 900] and game.chosen == -1


def _free_parking_odds_reason(tmp_path: Any, effect: str) -> str:
    """The one reason the landing odds give for being approximate, Free Parking doing ``effect`` on classic (the
    odds still add up to 1)."""
    from monopoly.analysis.markov import landing_odds

    path = tmp_path / "odds.yaml"
    path.write_text(f'id: odds\nname: Odds\nextends: classic\nspaces:\n  Free Parking: {{effect: "{effect}"}}\n',
                    encoding="utf-8")
    odds = landing_odds(monopoly.load_ruleset(str(path)))
    [reason] = odds.approximate
    assert abs(sum(odds.landing) + odds.in_jail - 1) < 1e-9
    return str(reason)


def test_the_exact_odds_say_a_chosen_space_is_approximate(tmp_path: Any) -> None:
    reason = _free_parking_odds_reason(tmp_path, "advance to a space you choose")
    assert '"advance to a space you choose"' in reason and "even chance" in reason


# --------------------------------------------------------------------------- variables of the game

_JACKPOT = ("id: jackpot\nname: Jackpot\nextends: classic\nvariables: {jackpot: 0}\nspaces:\n"
            "  Luxury Tax: {effect: \"pay 100; add 100 to jackpot\"}\n"
            "  Free Parking: {effect: \"collect jackpot; set jackpot to 0\"}\n")


def _jackpot(tmp_path: Any) -> Any:
    path = tmp_path / "jackpot.yaml"
    path.write_text(_JACKPOT, encoding="utf-8")
    return monopoly.load_ruleset(str(path))


def test_a_variable_is_added_to_read_and_set_in_play_and_each_change_is_an_event(tmp_path: Any) -> None:
    from monopoly.game.events import VARIABLE
    from monopoly.game.replay import Replay

    ruleset = _jackpot(tmp_path)
    assert ruleset.variables == (("jackpot", 0),)
    game = monopoly.Game(ruleset, [monopoly.make_agent("greedy") for _ in range(2)], seed=1)
    game.start()
    game.position[:] = [34, 10]
    game.fix_dice([(1, 3), (4, 6)])  # seat 0 onto Luxury Tax, seat 1 onto Free Parking
    game.play_turn()
    assert (game.cash[0], game.variables) == (1400, [100])
    assert Replay.of_records(game.events, ruleset).variables == [100]  # the record says it
    game.play_turn()
    assert (game.cash[1], game.variables) == (1600, [0])
    assert [record[1:] for record in game.events if record[0] == VARIABLE] == [("jackpot", 100), ("jackpot", 0)]


def test_a_variable_is_part_of_the_position(tmp_path: Any) -> None:
    from monopoly.game.state import MAX_CASH, GameState

    ruleset = _jackpot(tmp_path)
    setup = Setup(ruleset, players=2).set_variable("jackpot", 250).place(0, "Free Parking")
    data = setup.state.to_json()
    assert data["variables"] == [250]
    assert GameState.from_json(data, ruleset, players=2).variables == [250]
    assert "variables" not in Setup(CLASSIC, players=2).state.to_json()  # no variables: the JSON it always was
    game = monopoly.Game.from_state(ruleset, [monopoly.make_agent("greedy") for _ in range(2)], setup.state)
    assert game.state().variables == [250] and game.copy().variables == [250]
    names = Names(ruleset.board, variables=("jackpot",))
    game.carry_out(compile_effect(parse_effect("collect jackpot"), names, "t")(game, 0, None))
    assert game.cash[0] == 1750
    game.variables[0] = MAX_CASH - 1
    game.carry_out(compile_effect(parse_effect("add 5 to jackpot"), names, "t")(game, 0, None))
    assert game.variables == [MAX_CASH]  # at most 10^12
    [problem] = _problems_of({**data, "variables": [1, 2]}, ruleset)
    assert "variables" in problem and "jackpot" in problem
    with pytest.raises(ValueError, match="declares none"):
        Setup(CLASSIC, players=2).set_variable("jackpot", 1)


def _problems_of(data: dict[str, Any], ruleset: Any) -> list[str]:
    from monopoly.game.state import GameState, StateError

    try:
        GameState.from_json(data, ruleset, players=2)
    except StateError as error:
        return error.problems
    return []


@pytest.mark.parametrize(("text", "variables", "code", "column", "hint"), [
    ("set jackpt to 5", {"jackpot"}, "unknown-variable", 5, 'did you mean "jackpot"?'),
    ("add 5 to jackpot", set(), "unknown-variable", 10, 'declare it in the ruleset, with the value it starts at: '
     '"variables: {jackpot: 0}"'),
    ("collect jackpt", {"jackpot"}, "unknown-quantity", 9, 'did you mean "jackpot"?'),
])
def test_an_undeclared_variable_is_a_located_error_with_a_hint(text: str, variables: set[str], code: str,
                                                               column: int, hint: str) -> None:
    names = EffectNames(spaces=NAMES.spaces, kinds=NAMES.kinds, groups=NAMES.groups, decks=NAMES.decks,
                        variables=variables)
    [problem] = parse_and_check(text, names, "card")[1]
    assert (problem.code, problem.column, problem.hint) == (code, column, hint)


def test_a_variable_named_after_a_word_of_the_language_is_an_error_in_its_file(tmp_path: Any) -> None:
    path = tmp_path / "pot.yaml"
    path.write_text("id: pot\nname: Pot\nextends: classic\nvariables: {pot: 0, jackpot: 0}\n", encoding="utf-8")
    with pytest.raises(monopoly.RulesetError) as caught:
        monopoly.load_ruleset(str(path))
    [problem] = caught.value.problems
    assert (problem.code, problem.line, problem.column) == ("variable-name", 4, 13)  # the key, not its value
    assert '"pot" is a word' in problem.message


@pytest.mark.parametrize(("body", "where", "code"), [
    ("variables:\n  jackpot: 0\n  amount: 5\n", (6, 3), "variable-name"),
    ("variables:\n  jackpot: 0\n  \"bad name\": 1\n", (6, 3), "bad-key-name"),
])
def test_a_bad_variable_name_points_at_that_name(tmp_path: Any, body: str, where: tuple[int, int], code: str) -> None:
    path = tmp_path / "names.yaml"
    path.write_text("id: names\nname: Names\nextends: classic\n" + body, encoding="utf-8")
    with pytest.raises(monopoly.RulesetError) as caught:
        monopoly.load_ruleset(str(path))
    [problem] = caught.value.problems
    assert (problem.code, (problem.line, problem.column)) == (code, where)


def test_the_variables_section_of_the_reference_reads_and_checks_clean() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text[text.index("### Variables"):text.index("### Choices")]
    import re

    examples = [m for m in re.findall(r"`([^`\n]+)`", section) if m.split()[0] in ("set", "add", "collect")]
    assert len(examples) >= 4
    names = EffectNames(spaces=NAMES.spaces, kinds=NAMES.kinds, groups=NAMES.groups, decks=NAMES.decks,
                        variables={"jackpot"})
    for example in examples:
        effect, problems = parse_and_check(example, names, "space")
        assert effect is not None and problems == [] and effect.to_text() == example, example


def test_a_negative_count_of_spaces_gets_a_hint_about_going_back() -> None:
    from monopoly.effects import EffectSyntaxError

    with pytest.raises(EffectSyntaxError) as caught:
        parse_effect("move forward -3 spaces")
    assert (caught.value.column, caught.value.hint) == (
        14, 'a count of spaces is a number of at least 1: "go back 3 spaces" moves back')


def test_the_examples_of_the_types_table_read_and_check_clean_on_classic() -> None:
    """docs/effects.md's table of the six types: one example a type, each a whole effect that checks clean."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text[text.index("## Types"):text.index("## The grammar at a glance")]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Type")]
    assert [row.split("|")[1].strip() for row in rows] == ["number", "player", "players", "space", "spaces",
                                                           "condition"]
    for row in rows:
        example = re.findall(r"`([^`]+)`", row.split("|")[4])[-1]
        effect, problems = parse_and_check(example, NAMES, "card")
        assert effect is not None and problems == [], (example, problems)


# --------------------------------------------------------------------------- every player


def test_every_player_runs_the_statement_for_each_player_in_seat_order_from_you() -> None:
    # seat 0 (1000 cash), seat 1 (300), seat 2 (50): each pays 10% of their own cash, then the poor collect
    game = _run("every player: (pay 10% of cash; if cash < 100 then collect 100)")
    assert game.cash == [900, 270, 145]
    from monopoly.game.events import PAYMENT

    payers = [record[1] for record in game.events if record[0] == PAYMENT and record[2] == monopoly.BANK]
    assert payers == [0, 1, 2]  # the player the effect happens to first, then the others in seat order


def test_every_player_passes_over_the_bankrupt_and_starts_from_you() -> None:
    setup = Setup(CLASSIC, players=3).set_cash(0, 1000).set_cash(1, 0).set_cash(2, 50)
    setup.state.bankrupt[1] = True
    setup.state.bankrupt_order.append(1)
    game = monopoly.Game.from_state(CLASSIC, [monopoly.make_agent("greedy") for _ in range(3)], setup.state)
    text = "every player: collect 5"
    game.carry_out(compile_effect(parse_effect(text), Names(CLASSIC.board), text)(game, 2, None))
    assert game.cash == [1005, 0, 55]


@pytest.mark.parametrize(("text", "code", "column"), [
    ("every player: keep", "keep-in-every", 15),
])
def test_every_player_problems_are_located(text: str, code: str, column: int) -> None:
    [problem] = parse_and_check(text, NAMES, "card")[1]
    assert (problem.code, problem.column) == (code, column)


def test_every_player_inside_every_player_is_a_syntax_error_with_a_hint() -> None:
    from monopoly.effects import EffectSyntaxError

    for text in ("every player: (pay 1; every player: pay 1)",
                 "every player: (choose: every player: pay 1 | pay 2)"):  # inside a choice too (it was let through)
        with pytest.raises(EffectSyntaxError) as caught:
            parse_effect(text)
        assert "cannot hold another" in caught.value.message
    assert parse_effect("every player: pay 1; every player: collect 1").to_text() == (
        "every player: pay 1; every player: collect 1")  # one after the other is fine


def test_every_player_moving_makes_the_odds_say_so(tmp_path: Any) -> None:
    assert "moves every player" in _free_parking_odds_reason(tmp_path, "every player: advance to GO")


def test_the_every_player_section_of_the_reference_reads_and_checks_clean() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    start = text.index("### Every player")
    examples = [m for m in re.findall(r"`([^`\n]+)`", text[start:text.index("\n### ", start + 1)])
                if m.startswith("every player: ")]
    assert len(examples) == 3
    for example in examples:
        effect, problems = parse_and_check(example, NAMES, "card")
        assert effect is not None and problems == [] and effect.to_text() == example, (example, problems)


# --------------------------------------------------------------------------- a choice anywhere


@pytest.mark.parametrize(("text", "choose", "cash"), [
    ("pay 10; (choose: collect 50 | pay 20); collect 5", 0, 1000 - 10 + 50 + 5),
    ("pay 10; (choose: collect 50 | pay 20); collect 5", 1, 1000 - 10 - 20 + 5),
    ("if cash > 500 then (choose: pay 100 | pay 5% of cash) else pay 1", 1, 1000 - 50),
])
def test_a_choice_inside_a_sequence_or_a_branch_is_asked_and_the_sequence_goes_on(
        text: str, choose: int, cash: int) -> None:
    game, agent = _run_choosing(text, _position(), choose=choose)
    [(options,)] = agent.questions("choose")
    assert len(options) == 2 and game.cash[0] == cash
    assert parse_effect(text).to_text() == text


def test_a_choice_inside_an_effect_is_priced_and_its_odds_are_even_chances(tmp_path: Any) -> None:
    from monopoly.analysis.markov import landing_odds
    from monopoly.game.game import Caller

    path = tmp_path / "pick.yaml"
    path.write_text("id: pick\nname: Pick\nextends: classic\nspaces:\n"
                    "  Free Parking: {effect: \"pay 10; (choose: pay 30 | collect 20)\"}\n", encoding="utf-8")
    ruleset = monopoly.load_ruleset(str(path))
    game = monopoly.Game.from_state(ruleset, [Caller() for _ in range(2)], Setup(ruleset, players=2).place(0, 10).state)
    game.fix_dice([(4, 6)])
    assert game.advance() is not None and game.pending.args == (("pay 30", "collect 20"),)
    assert game.option_costs(0) == [30, -20] and game.cash[0] == 1490
    game.answer(1)
    assert game.cash[0] == 1510
    assert landing_odds(ruleset).approximate == ()  # it moves nobody


def test_the_statements_sections_examples_read_and_check_clean_on_classic() -> None:
    """Every line of the code blocks and every backquoted effect of docs/effects.md's Statements section (money,
    moving, cards, variables, every player, choices) parses, prints back to itself and checks clean."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text[text.index("## Statements"):text.index("## Numbers: expressions and quantities")]
    blocks = re.findall(r"```\n(.*?)```", section, flags=re.S)
    inline = re.sub(r"```.*?```", "", section, flags=re.S)
    starts = ("pay", "collect", "if", "advance", "go", "move", "draw", "every", "choose", "(choose", "set", "add")
    examples = [m for m in re.findall(r"`([^`\n]+)`", inline) if len(m.split()) > 1 and m.split()[0] in starts]
    examples += [line for block in blocks for line in block.splitlines() if line.split() and line.split()[0] in starts]
    # not the placeholders (capitals, N, ...), a variable, a currency sign shown as wrong, the UK board's names,
    # nor the bare words "every player" the prose names
    examples = [e for e in examples if not re.search(r"[A-Z]{2,}|\bN\b|jackpot|\.\.\.|\$|Old Kent", e)
                and e.rstrip(":") != "every player"]
    assert len(examples) >= 20
    for example in examples:
        effect, problems = parse_and_check(example, NAMES, "card")
        assert effect is not None and problems == [], (example, problems)
        assert parse_effect(effect.to_text()) == effect, example  # its canonical text means the same
