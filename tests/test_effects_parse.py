"""The effect language parser: exact ASTs, canonical text, errors a designer can act on."""

from __future__ import annotations

import logging
import pickle

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monopoly.effects import ast
from monopoly.effects.ast import (
    AdvanceTo,
    Amount,
    Choice,
    Collect,
    CollectPot,
    Draw,
    Effect,
    Fixed,
    GoBackTo,
    GoToJail,
    Keep,
    Move,
    NearestTarget,
    Pay,
    PercentOfNetWorth,
    PerHotel,
    PerHouse,
    PerOwned,
    RentFromDice,
    RentMultiplier,
    Sequence,
    SpaceTarget,
)
from monopoly.effects.parse import EffectSyntaxError, keywords, parse_effect, parser


def one(statement: ast.Statement) -> Effect:
    return Effect(Sequence([statement]))


def amount(*terms: ast.Term) -> Amount:
    return Amount(terms)


# --------------------------------------------------------------------------- every construct

CONSTRUCTS = [
    ("collect 50", one(Collect(amount(Fixed(50))))),
    ("collect 10 from each player", one(Collect(amount(Fixed(10)), from_each_player=True))),
    ("pay 15", one(Pay(amount(Fixed(15))))),
    ("pay 50 to each player", one(Pay(amount(Fixed(50)), to_each_player=True))),
    ("pay 25 per house + 100 per hotel", one(Pay(amount(PerHouse(25), PerHotel(100))))),
    ("pay 10% of net worth", one(Pay(amount(PercentOfNetWorth(10))))),
    ("collect 10 per railroad", one(Collect(amount(PerOwned(10, "railroad"))))),
    ("collect 20 per brown + 5", one(Collect(amount(PerOwned(20, "brown"), Fixed(5))))),
    ("collect pot", one(CollectPot())),
    ('advance to "Illinois Avenue"', one(AdvanceTo(SpaceTarget("Illinois Avenue")))),
    ("advance to GO", one(AdvanceTo(SpaceTarget("GO")))),
    ("advance to nearest railroad", one(AdvanceTo(NearestTarget("railroad")))),
    (
        "advance to nearest railroad with rent x2",
        one(AdvanceTo(NearestTarget("railroad"), RentMultiplier(2))),
    ),
    (
        "advance to nearest utility with rent 10 x dice",
        one(AdvanceTo(NearestTarget("utility"), RentFromDice(10))),
    ),
    ('advance to "Boardwalk" with rent x3', one(AdvanceTo(SpaceTarget("Boardwalk"), RentMultiplier(3)))),
    ('go back to "Old Kent Road"', one(GoBackTo(SpaceTarget("Old Kent Road")))),
    ("go back to Jail", one(GoBackTo(SpaceTarget("Jail")))),
    ("move 3", one(Move(3))),
    ("move -3", one(Move(-3))),
    ("go back to nearest railroad", one(GoBackTo(NearestTarget("railroad")))),
    ("advance to a space you choose with rent x2", one(AdvanceTo(ast.ChosenTarget(), RentMultiplier(2)))),
    ("go back to a space you choose", one(GoBackTo(ast.ChosenTarget()))),
    ("pay 50 to a player you choose", one(ast.PayTo(amount(Fixed(50)), ast.Ref("chosen")))),
    ("collect 10 from a player you choose", one(ast.CollectFrom(amount(Fixed(10)), ast.Ref("chosen")))),
    # a constant count of spaces is the plain move it always was; any other is worked out in the game
    ("move forward 3 spaces", one(Move(3))),
    ("go back 1 + 2 spaces", one(Move(-3))),
    ("move back 1 space", one(Move(-1))),
    ("move forward dice spaces", one(ast.MoveBy(amount(ast.Quantity("dice"))))),
    ("go back 2 x dice spaces", one(ast.MoveBy(amount(ast.Arith("x", Fixed(2), ast.Quantity("dice"))),
                                               forward=False))),
    ("move back 1 per railroad spaces", one(ast.MoveBy(amount(PerOwned(1, "railroad")), forward=False))),
    ("collect 10 x railroads owned by owner",
     one(Collect(amount(ast.Arith("x", Fixed(10), ast.Owned("railroads", ast.Ref("owner"))))))),
    ("pay lots of group dark_blue owned by richest player",
     one(Pay(amount(ast.Owned("dark_blue", ast.Ref("richest"), group=True))))),
    ("go to jail", one(GoToJail())),
    ("keep", one(Keep())),
    ("draw chance", one(Draw("chance"))),
    ("draw community_chest", one(Draw("community_chest"))),
    (
        "choose: pay 10 | draw chance",
        Effect(Choice([Sequence([Pay(amount(Fixed(10)))]), Sequence([Draw("chance")])])),
    ),
    (
        "choose: pay 200 | pay 10% of net worth",
        Effect(Choice([Sequence([Pay(amount(Fixed(200)))]), Sequence([Pay(amount(PercentOfNetWorth(10)))])])),
    ),
    (
        "pay 50; draw chance; move -2",
        Effect(Sequence([Pay(amount(Fixed(50))), Draw("chance"), Move(-2)])),
    ),
    (
        "choose: pay 10; go to jail | collect 5 | keep",
        Effect(
            Choice(
                [
                    Sequence([Pay(amount(Fixed(10))), GoToJail()]),
                    Sequence([Collect(amount(Fixed(5)))]),
                    Sequence([Keep()]),
                ]
            )
        ),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CONSTRUCTS, ids=[text for text, _ in CONSTRUCTS])
def test_every_construct_parses_to_the_exact_ast(text: str, expected: Effect) -> None:
    assert parse_effect(text) == expected


@pytest.mark.parametrize(("text", "expected"), CONSTRUCTS, ids=[text for text, _ in CONSTRUCTS])
def test_canonical_text_round_trips(text: str, expected: Effect) -> None:
    canonical = expected.to_text()
    assert parse_effect(canonical) == expected
    assert str(parse_effect(text)) == canonical
    assert parse_effect(canonical).to_text() == canonical


def test_canonical_text_quotes_bare_space_names_and_normalises_spacing() -> None:
    assert parse_effect("advance   to\n GO").to_text() == 'advance to "GO"'
    assert parse_effect("pay 007 +1per house").to_text() == "pay 7 + 1 per house"
    assert parse_effect("choose:pay 1|pay 2").to_text() == "choose: pay 1 | pay 2"
    assert parse_effect("pay 10 %of net worth").to_text() == "pay 10% of net worth"


def test_keywords_are_not_reserved_where_a_name_is_expected() -> None:
    # The contextual lexer only knows the keywords that fit at each place.
    assert parse_effect("advance to go") == one(AdvanceTo(SpaceTarget("go")))
    assert parse_effect("advance to nearest jail") == one(AdvanceTo(NearestTarget("jail")))
    assert parse_effect("draw pot") == one(Draw("pot"))
    assert parse_effect("collect 5 per player") == one(Collect(amount(PerOwned(5, "player"))))


def test_names_carry_their_position() -> None:
    effect = parse_effect('pay 10 per railroad;\n  advance to "Boardwalk";\ndraw chance; keep;\ngo back to GO')
    pay, advance, draw, keep, back = effect.statements()
    term = pay.amount.terms[0]
    assert (term.line, term.column) == (1, 12)
    assert (advance.target.line, advance.target.column) == (2, 14)
    assert (draw.line, draw.column) == (3, 6)
    assert (keep.line, keep.column) == (3, 14)
    assert (back.target.line, back.target.column) == (4, 12)
    nearest = parse_effect("advance to nearest utility").body.statements[0].target
    assert (nearest.line, nearest.column) == (1, 20)


def test_positions_do_not_take_part_in_equality() -> None:
    assert Draw("chance", line=3, column=7) == Draw("chance")
    assert hash(SpaceTarget("GO", line=1, column=1)) == hash(SpaceTarget("GO"))


def test_effect_walks_all_statements_of_all_alternatives() -> None:
    effect = parse_effect("choose: pay 10; move 2 | draw chance")
    assert [type(s) for s in effect.statements()] == [Pay, Move, Draw]
    assert list(ast.walk(effect)) == list(effect.statements())
    assert effect.is_choice
    assert len(effect.alternatives) == 2
    plain = parse_effect("pay 10")
    assert not plain.is_choice
    assert plain.alternatives == (plain.body,)


def test_amount_constant() -> None:
    assert parse_effect("pay 10 + 5").body.statements[0].amount.constant == 15
    assert parse_effect("pay 10 per house").body.statements[0].amount.constant is None


def test_ast_nodes_are_frozen_and_slotted() -> None:
    node = Move(3)
    with pytest.raises(AttributeError):
        node.steps = 4  # type: ignore[misc]
    assert not hasattr(node, "__dict__")


@pytest.mark.parametrize(
    "build",
    [
        lambda: Fixed(-1),
        lambda: Fixed(ast.AMOUNT_MAX + 1),
        lambda: PercentOfNetWorth(0),
        lambda: PercentOfNetWorth(101),
        lambda: RentMultiplier(0),
        lambda: RentFromDice(1001),
        lambda: Move(0),
        lambda: Move(101),
        lambda: PerOwned(5, "house"),
        lambda: PerOwned(5, "Railroad"),
        lambda: Draw("Chance"),
        lambda: SpaceTarget('Say "hi"'),
        lambda: SpaceTarget("  "),
        lambda: Amount([]),
        lambda: Sequence([]),
        lambda: Choice([Sequence([Keep()])]),
        lambda: Sequence([Choice([Sequence([Keep()]), Sequence([Keep()])])]),
    ],
)
def test_ast_validators_reject_nonsense(build) -> None:
    with pytest.raises((ValueError, TypeError)):
        build()


# --------------------------------------------------------------------------- syntax errors

STATEMENT_KEYWORDS = ['"add"', '"advance"', '"collect"', '"draw"', '"every"', '"go"', '"if"', '"keep"', '"move"',
                      '"pay"', '"roll"', '"set"']


def error_for(text: str) -> EffectSyntaxError:
    with pytest.raises(EffectSyntaxError) as caught:
        parse_effect(text)
    return caught.value


def test_empty_text() -> None:
    error = error_for("")
    assert (error.line, error.column) == (1, 1)
    assert error.expected == ['"add"', '"advance"', '"choose"', *STATEMENT_KEYWORDS[2:], '"("']  # ( a choice
    assert error.message.startswith("the effect is empty: expected")
    assert error_for("   \n  ").message.startswith("the effect is empty")


def test_missing_amount_at_end_of_input() -> None:
    error = error_for("pay")
    assert (error.line, error.column) == (1, 4)  # just after "pay": lark itself says -1
    assert error.expected == ["a number"]
    assert error.message == 'expected a number after "pay", found the end of the effect'
    assert error.caret() == "pay\n   ^"


def test_currency_sign() -> None:
    error = error_for("pay $50")
    assert (error.line, error.column) == (1, 5)
    assert error.expected == ["a number"]
    assert error.message == 'expected a number after "pay", found "$"'
    assert error.hint == 'amounts are written without the currency sign: write "50", not "$50"'
    assert error.caret() == "pay $50\n    ^"


def test_unquoted_multi_word_space_name() -> None:
    error = error_for("advance to Illinois Avenue")
    assert (error.line, error.column) == (1, 21)
    assert error.expected == ['"with"', '";"', "the end of the effect"]
    assert error.message == (
        'expected "with", ";" or the end of the effect after "advance to Illinois", found "Avenue"'
    )
    assert error.hint == 'put a space name of more than one word in double quotes: "Illinois Avenue"'
    dotted = error_for("go back to St. Charles Place; pay 5")
    assert dotted.hint == 'put a space name of more than one word in double quotes: "St. Charles Place"'


def test_choice_with_one_alternative() -> None:
    error = error_for("choose: pay 10")
    assert (error.line, error.column) == (1, 15)
    assert '"|"' in error.expected
    assert "the end of the effect" not in error.expected
    assert error.hint == 'a choice needs at least two alternatives separated by "|"'


def test_move_zero() -> None:
    error = error_for("move 0")
    assert (error.line, error.column) == (1, 6)
    assert "cannot be 0" in error.message
    assert error.expected == []


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("pay 2000000", 5, "an amount must be between 0 and 1000000, not 2000000"),
        ("collect 1000001 from each player", 9, "an amount must be between 0 and 1000000, not 1000001"),
        ("pay 25 per house + 9999999 per hotel", 20, "an amount must be between 0 and 1000000, not 9999999"),
        ("pay -5", 5, "an amount must be between 0 and 1000000, not -5"),
        ("pay 0% of net worth", 5, "a percentage must be between 1 and 100, not 0"),
        ("pay 101% of net worth", 5, "a percentage must be between 1 and 100, not 101"),
        ("advance to GO with rent x0", 25, "a rent multiplier must be between 1 and 100, not 0"),
        ("advance to GO with rent x101", 25, "a rent multiplier must be between 1 and 100, not 101"),
        ("advance to GO with rent 1001 x dice", 25, "a dice multiple must be between 1 and 1000, not 1001"),
        ("move 101", 6, "the number of spaces to move must be between -100 and 100, not 101"),
        ("move -101", 6, "the number of spaces to move must be between -100 and 100, not -101"),
    ],
)
def test_sanity_limits(text: str, column: int, message: str) -> None:
    error = error_for(text)
    assert (error.line, error.column, error.message) == (1, column, message)


def test_limits_are_inclusive() -> None:
    assert parse_effect("pay 1000000; pay 0; pay 100% of net worth; move -100; move 100")
    assert parse_effect("advance to GO with rent x100; advance to GO with rent 1000 x dice")
    assert parse_effect("advance to GO with rent x1; advance to GO with rent 1 x dice; pay 1% of net worth")


def test_huge_number_is_a_range_error_not_a_crash() -> None:
    error = error_for("move " + "9" * 5000)
    assert "between -100 and 100" in error.message


def test_unknown_keyword() -> None:
    error = error_for("teleport 3")
    assert (error.line, error.column) == (1, 1)
    assert error.expected == ['"add"', '"advance"', '"choose"', *STATEMENT_KEYWORDS[2:], '"("']  # ( a choice
    assert error.message.endswith('at the start of the effect, found "teleport"')
    assert error.hint is None


def test_error_on_second_line() -> None:
    error = error_for('advance to "Boardwalk";\n  pay $200')
    assert (error.line, error.column) == (2, 7)
    assert error.caret() == "  pay $200\n      ^"
    assert str(error).startswith("2:7: expected a number after")


def test_end_of_input_on_a_later_line_ignores_trailing_whitespace() -> None:
    error = error_for("pay 10;\ncollect   \n\n  ")
    assert (error.line, error.column) == (2, 8)
    assert error.expected == ["a number"]  # where an amount starts (a number, a quantity such as pot, a bracket)


@pytest.mark.parametrize(
    ("text", "line", "column", "hint"),
    [
        ("pay 50;", 1, 8, 'remove the trailing ";" (or add the next statement after it)'),
        ("pay 50.", 1, 7, 'effects do not end with a full stop: remove the "."'),
        ("Pay 50", 1, 1, 'keywords are lowercase: write "pay"'),
        ("colect 50", 1, 1, 'did you mean "collect"?'),
        ("pay 1,000", 1, 6, 'write numbers without separators: "1000"'),
        ('advance to "Boardwalk', 1, 12, "the space name has no closing double quote (names cannot span lines)"),
        ("advance to “Boardwalk”", 1, 12, 'use straight double quotes (") around space names'),
        ("move - 3", 1, 6, 'write the minus sign next to the number: "-3"'),
        ("advance to GO with rent x 2", 1, 25, 'write the multiplier without a space: "x2"'),
        ("advance to GO with rent = 10 x dice", 1, 25, None),
        (
            "advance to nearest railroad; rent x2",
            1,
            30,
            'a rent change belongs to the move: write "advance to nearest railroad with rent x2"',
        ),
        (
            "collect 10 per railroad owned",
            1,
            25,
            '"per railroad" already counts the spaces the player owns: remove "owned"',
        ),
        ("pay 10 per dark blue", 1, 17, 'kind and group keys are one word: did you mean "dark_blue"?'),
        ("draw Chance", 1, 6, 'write "chance"'),
        ("pay 5 per Railroad", 1, 11, 'write "railroad"'),
        (
            "pay 10; choose: pay 1 | pay 2",
            1,
            9,
            '"choose:" can only start an effect, once: a choice cannot be nested or follow another statement',
        ),
        (
            "choose: pay 1 | choose: pay 2 | pay 3",
            1,
            17,
            '"choose:" can only start an effect, once: a choice cannot be nested or follow another statement',
        ),
        ("if rolled then collect 5", 1, 16,
         'after "rolled" comes a face of the extra die, then "then": "if rolled bus then collect 50"'),
        ("if rolled 6 then collect 5", 1, 11,
         '"rolled" takes a symbol face; a number is read with "die": "if die 3 = 6 then ..."'),
    ],
)
def test_errors_with_hints(text: str, line: int, column: int, hint: str | None) -> None:
    error = error_for(text)
    assert (error.line, error.column) == (line, column)
    if hint is not None:
        assert error.hint == hint


def test_rent_modifier_only_after_advance() -> None:
    error = error_for('go back to "GO" with rent x2')
    assert (error.line, error.column) == (1, 17)
    assert error.expected == ['";"', "the end of the effect"]
    error = error_for("pay 10 with rent x2")
    assert '"with"' not in error.expected


@pytest.mark.parametrize(
    "text",
    ["gotojail", "go tojail", "collect 10 from eachplayer", "keepkeep", "draw chance2x; pay", "advance tonearest x"],
)
def test_keywords_must_stand_alone(text: str) -> None:
    """Glued keywords are one unknown word: a syntax error, or (where a name may stand) a name the ruleset
    lacks."""
    from monopoly.effects import EffectNames, parse_and_check

    names = EffectNames(spaces=("GO", "Jail"), kinds={"railroad"}, groups={"brown"}, decks={"chance"})
    assert parse_and_check(text, names, "card")[1], text


def test_glued_keyword_error_points_at_the_whole_word() -> None:
    from monopoly.effects import EffectNames, parse_and_check

    names = EffectNames(spaces=("GO", "Jail"), kinds={"railroad"}, groups={"brown"}, decks={"chance"})
    [problem] = parse_and_check("collect potatoes", names, "card")[1]
    assert (problem.code, problem.column, problem.message) == ("unknown-quantity", 9, 'unknown quantity "potatoes"')
    assert problem.hint == 'did you mean "pot"?'


def test_empty_quoted_name() -> None:
    error = error_for('advance to "  "')
    assert (error.column, error.message) == (12, "a space name cannot be empty")


def test_error_context_is_the_current_statement() -> None:
    error = error_for("collect 50; pay 25 per")
    assert error.message == (
        'expected a space kind or group key, "hotel" or "house" after "pay 25 per", found the end of the effect'
    )
    error = error_for("draw")
    assert error.expected == ["a deck key"]
    error = error_for("advance to")
    assert error.expected == ["a space name in double quotes", '"nearest"', '"a space you choose"']


def test_caret_keeps_tabs() -> None:
    error = error_for("pay 10;\n\tpay $5")
    assert (error.line, error.column) == (2, 6)
    assert error.caret() == "\tpay $5\n\t    ^"


def test_error_pickles() -> None:
    error = error_for("pay $50")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.message, copy.line, copy.column, copy.expected, copy.hint, copy.text) == (
        error.message,
        error.line,
        error.column,
        error.expected,
        error.hint,
        error.text,
    )


def test_non_text_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        parse_effect(None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the parser itself


def test_parser_is_built_once() -> None:
    assert parser() is parser()
    assert parser().options.parser == "lalr"
    assert parser().options.propagate_positions


def test_grammar_has_no_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    # lark resolves shift/reduce conflicts silently unless strict mode is on, and
    # strict mode needs the optional `interegular`; with debug=True it logs them.
    from importlib.resources import files

    grammar = files("monopoly.grammar").joinpath("effects.lark").read_text(encoding="utf-8")
    previous = lark.logger.level
    lark.logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            lark.Lark(grammar, parser="lalr", debug=True)
    finally:
        lark.logger.setLevel(previous)
    assert not [record for record in caplog.records if "conflict" in record.getMessage().lower()]


def test_grammar_builds_in_strict_mode() -> None:
    # strict mode turns shift/reduce conflicts and terminal collisions into errors
    # (it needs `interegular`, a test dependency).
    pytest.importorskip("interegular")
    from monopoly.effects.parse import GRAMMAR_OPTIONS, _WordEverywhere, grammar_text

    lark.Lark(grammar_text(), strict=True, postlex=_WordEverywhere(), **GRAMMAR_OPTIONS)


def test_shipped_parser_tables_are_current() -> None:
    # The tables beside the grammar must be rebuilt when the grammar changes:
    # python -m monopoly.effects.write_tables
    import json
    from importlib import resources

    from monopoly.effects import parse as parse_module
    from monopoly.effects import tables

    shipped = json.loads(resources.files("monopoly.grammar").joinpath(tables.TABLES_FILE).read_text("utf-8"))
    current = tables.grammar_key(parse_module.grammar_text(), parse_module.parser_options())
    assert shipped["grammar_sha256"] == current, "stale tables: run python -m monopoly.effects.write_tables"


def test_parser_from_tables_parses_like_the_grammar() -> None:
    from monopoly.effects import parse as parse_module
    from monopoly.effects.tables import load_tables

    live = {"postlex": parse_module._WordEverywhere()}
    loaded = load_tables(parse_module.grammar_text(), parse_module.parser_options(), live)
    if loaded is None:  # the tables were made by another lark version: the grammar is used
        assert lark.__version__ != _shipped_lark_version()
        return
    fresh = parse_module.build_parser()
    import monopoly

    texts = [card.effect_text for name in ("classic", "uk") for deck in monopoly.load_ruleset(name).decks
             for card in deck.cards]
    texts += ["advance to nearest utility with rent 10 x dice", "choose: pay 10 | draw chance"]
    assert len(texts) > 30
    for text in texts:
        assert loaded.parse(text, start="start") == fresh.parse(text, start="start"), text
    for text in ("doubles and dice = 12", "amount > 100 or owner is in jail"):  # a trigger's condition
        assert loaded.parse(text, start="permission") == fresh.parse(text, start="permission"), text
    for condition in ("laps >= 1", "not owner is in jail and cash of owner > 5 or doubles"):
        assert loaded.parse(condition, start="permission") == fresh.parse(condition, start="permission")
    with pytest.raises(lark.exceptions.UnexpectedInput):
        loaded.parse("pay 10 10", start="start")
    with pytest.raises(lark.exceptions.UnexpectedInput):
        loaded.parse("pay 10", start="permission")


def _shipped_lark_version() -> str:
    import json
    from importlib import resources

    from monopoly.effects import tables

    return json.loads(resources.files("monopoly.grammar").joinpath(tables.TABLES_FILE).read_text("utf-8"))["lark"]


def test_tables_for_another_grammar_are_not_used() -> None:
    from monopoly.effects import parse as parse_module
    from monopoly.effects.tables import load_tables

    live = {"postlex": parse_module._WordEverywhere()}
    assert load_tables(parse_module.grammar_text() + "\n// changed", parse_module.parser_options(), live) is None


def test_no_cache_file_is_read_or_written(tmp_path) -> None:
    # lark's cache is a pickle read before any check: a file planted where a
    # cache could be must never run. The program keeps no per-user cache at all.
    import pickle
    import subprocess
    import sys

    marker = tmp_path / "ran"

    class Planted:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    cache = tmp_path / "cache"
    (cache / "monopoly").mkdir(parents=True)
    for name in ("effects.lark", "effects-0000000000000000.lark", "lark.cache"):
        (cache / "monopoly" / name).write_bytes(pickle.dumps(Planted()))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(cache),
           "MONOPOLY_CACHE_DIR": str(cache / "monopoly")}
    out = subprocess.run([sys.executable, "-m", "monopoly.cli.main", "validate", "classic"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert not marker.exists()
    assert sorted(p.name for p in (cache / "monopoly").iterdir()) == sorted(
        ["effects.lark", "effects-0000000000000000.lark", "lark.cache"])
    assert not (tmp_path / ".cache").exists()


def test_keyword_list() -> None:
    assert {"pay", "collect", "advance", "nearest", "choose", "dice", "x"} <= keywords()
    assert ";" not in keywords()


# --------------------------------------------------------------------------- properties

FRAGMENTS = [
    "collect", "pay", "advance", "to", "go", "back", "jail", "move", "keep", "draw", "choose", ":",
    "|", ";", "+", "%", "of", "net", "worth", "per", "house", "hotel", "from", "each", "player",
    "nearest", "with", "rent", "x", "x2", "dice", "pot", "chance", "railroad", "GO", '"Boardwalk"',
    '"', "10", "-3", "0", "2000000", "$", ".", ",", "\n", "\t", "é", "“", "=",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_text_gives_an_effect_or_an_effect_syntax_error(text: str) -> None:
    check_total(text)


@settings(max_examples=600)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14), st.sampled_from([" ", "", "  "]))
def test_token_soup_gives_an_effect_or_an_effect_syntax_error(parts: list[str], glue: str) -> None:
    check_total(glue.join(parts))


def check_total(text: str) -> None:
    try:
        effect = parse_effect(text)
    except EffectSyntaxError as error:
        lines = text.split("\n")
        assert 1 <= error.line <= len(lines)
        assert 1 <= error.column <= len(lines[error.line - 1]) + 1
        assert error.message
        assert isinstance(error.expected, list)
        assert error.caret().endswith("^")
    else:
        assert isinstance(effect, Effect)
        assert parse_effect(effect.to_text()) == effect


identifiers = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
space_names = st.text(
    alphabet=st.characters(blacklist_characters='"\n', blacklist_categories=("Cs",)), min_size=1, max_size=20
).filter(lambda name: name.strip() != "")
amounts = st.integers(0, ast.AMOUNT_MAX)
terms = st.one_of(
    st.builds(Fixed, amounts),
    st.builds(PerHouse, amounts),
    st.builds(PerHotel, amounts),
    st.builds(PerOwned, amounts, identifiers.filter(lambda name: name not in ast.BUILDING_WORDS)),
    st.builds(PercentOfNetWorth, st.integers(ast.PERCENT_MIN, ast.PERCENT_MAX)),
)
amount_nodes = st.builds(Amount, st.lists(terms, min_size=1, max_size=4))
space_targets = st.builds(SpaceTarget, space_names)
rents = st.one_of(
    st.none(),
    st.builds(RentMultiplier, st.integers(ast.RENT_MULTIPLIER_MIN, ast.RENT_MULTIPLIER_MAX)),
    st.builds(RentFromDice, st.integers(ast.DICE_MULTIPLE_MIN, ast.DICE_MULTIPLE_MAX)),
)
statements = st.one_of(
    st.builds(Collect, amount_nodes, st.booleans()),
    st.builds(Pay, amount_nodes, st.booleans()),
    st.just(CollectPot()),
    st.builds(AdvanceTo, st.one_of(space_targets, st.builds(NearestTarget, identifiers)), rents),
    st.builds(GoBackTo, space_targets),
    st.builds(Move, st.integers(ast.MOVE_MIN, ast.MOVE_MAX).filter(bool)),
    st.just(GoToJail()),
    st.just(Keep()),
    st.builds(Draw, identifiers),
)
sequences = st.builds(Sequence, st.lists(statements, min_size=1, max_size=4))
effects = st.builds(Effect, st.one_of(sequences, st.builds(Choice, st.lists(sequences, min_size=2, max_size=4))))


@settings(max_examples=300)
@given(effects)
def test_generated_asts_print_and_parse_back_equal(effect: Effect) -> None:
    text = effect.to_text()
    assert parse_effect(text) == effect
    assert parse_effect(text).to_text() == text


@settings(max_examples=200, deadline=None)  # a check of meaning, not speed (the machine is shared)
@given(effects, st.sampled_from([" ", "\n", "  \t", "\n  "]))
def test_any_whitespace_between_tokens_parses_the_same(effect: Effect, gap: str) -> None:
    # Rebuild the text with a different gap wherever canonical text has a space
    # outside quotes; the meaning must not change.
    text, quoted = [], False
    for char in effect.to_text():
        if char == '"':
            quoted = not quoted
        text.append(gap if char == " " and not quoted else char)
    assert parse_effect("".join(text)) == effect

