"""Static checks of effects against a ruleset's names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monopoly.effects import EffectNames, EffectProblem, check_effect, parse_and_check, parse_effect
from monopoly.effects.check import suggest

NAMES = EffectNames(
    spaces=[
        "GO",
        "Mediterranean Avenue",
        "Community Chest",
        "Reading Railroad",
        "Illinois Avenue",
        "Jail",
        "Free Parking",
        "Boardwalk",
    ],
    kinds={"street", "railroad", "utility", "tax", "draw", "jail", "go", "plain", "action"},
    groups={"brown", "light_blue", "dark_blue"},
    decks={"chance", "community_chest"},
)


def problems(text: str, where: str = "card") -> list[EffectProblem]:
    return check_effect(parse_effect(text), NAMES, where)


def test_names_are_normalised_to_tuple_and_frozensets() -> None:
    assert NAMES.spaces[0] == "GO"
    assert isinstance(NAMES.spaces, tuple)
    assert isinstance(NAMES.kinds, frozenset) and isinstance(NAMES.decks, frozenset)


@pytest.mark.parametrize(
    "text",
    [
        'advance to "Illinois Avenue"',
        "advance to GO",
        "go back to Jail",
        "advance to nearest railroad with rent x2",
        "advance to nearest dark_blue",
        "collect 10 per railroad + 5 per brown",
        "pay 25 per house + 100 per hotel",
        "draw community_chest",
        "choose: pay 10 | draw chance",
        "collect pot",
        "go to jail; move -3; pay 10% of net worth",
    ],
)
def test_valid_effects_have_no_problems(text: str) -> None:
    for where in ("card", "space", "trigger"):
        assert problems(text, where) == []


def test_unknown_space_with_suggestion_and_position() -> None:
    assert problems('pay 5;\nadvance to "Boardwalkk"') == [
        EffectProblem("unknown-space", 'unknown space "Boardwalkk"', 'did you mean "Boardwalk"?', 2, 12)
    ]


def test_space_suggestion_is_case_insensitive() -> None:
    (problem,) = problems("advance to go")
    assert problem.code == "unknown-space"
    assert problem.hint == 'did you mean "GO"? (names are case-sensitive)'
    assert (problem.line, problem.column) == (1, 12)
    (problem,) = problems('go back to "illinois avenu"')
    assert problem.hint == 'did you mean "Illinois Avenue"?'


def test_unknown_space_without_a_close_name_has_no_hint() -> None:
    (problem,) = problems('advance to "Zanzibar"')
    assert problem.hint is None


def test_unknown_deck() -> None:
    (problem,) = problems("draw chanse")
    assert problem == EffectProblem("unknown-deck", 'unknown deck "chanse"', 'did you mean "chance"?', 1, 6)
    (problem,) = problems("draw surprise")
    assert problem.hint == 'known names: "chance", "community_chest"'


def test_unknown_kind_or_group_in_nearest_and_per() -> None:
    assert problems("advance to nearest railway; collect 10 per brwn") == [
        EffectProblem(
            "unknown-kind-or-group", 'unknown space kind or group "railway"', 'did you mean "railroad"?', 1, 20
        ),
        EffectProblem("unknown-kind-or-group", 'unknown space kind or group "brwn"', 'did you mean "brown"?', 1, 44),
    ]


def test_per_houses_suggests_the_building_word() -> None:
    (problem,) = problems("pay 40 per houses")
    assert problem.code == "unknown-kind-or-group"
    assert problem.hint == 'did you mean "house"?'


def test_keep_only_on_cards() -> None:
    assert problems("keep", "card") == []
    for where in ("space", "trigger"):
        (problem,) = problems("pay 5; keep", where)
        assert problem.code == "keep-outside-card"
        assert (problem.line, problem.column) == (1, 8)
        assert where in problem.message


def test_collect_pot_is_fine_anywhere() -> None:
    for where in ("card", "space", "trigger"):
        assert problems("collect pot", where) == []


def test_all_problems_are_collected_in_text_order() -> None:
    text = 'choose: draw bonus; advance to "Bordwalk" | keep;\n  go back to "Nowhere"; pay 5 per reds'
    found = problems(text, "space")
    assert [(p.code, p.line, p.column) for p in found] == [
        ("unknown-deck", 1, 14),
        ("unknown-space", 1, 32),
        ("keep-outside-card", 1, 45),
        ("unknown-space", 2, 14),
        ("unknown-kind-or-group", 2, 35),
    ]


def test_where_must_be_known() -> None:
    with pytest.raises(ValueError):
        check_effect(parse_effect("pay 5"), NAMES, "board")


def test_parse_and_check() -> None:
    effect, found = parse_and_check("draw chance", NAMES, "space")
    assert effect is not None and found == []
    effect, found = parse_and_check("draw chancey", NAMES, "space")
    assert effect is not None and [p.code for p in found] == ["unknown-deck"]
    effect, found = parse_and_check("pay $50", NAMES, "card")
    assert effect is None
    assert found == [
        EffectProblem(
            "syntax",
            'expected a number after "pay", found "$"',
            'amounts are written without the currency sign: write "50", not "$50"',
            1,
            5,
        )
    ]


def test_suggest() -> None:
    assert suggest("boardwalk", ["Boardwalk", "GO"]) == "Boardwalk"
    assert suggest("Illinois Av", ["Illinois Avenue", "Indiana Avenue"]) == "Illinois Avenue"
    assert suggest("xyz", ["Boardwalk"]) is None
    assert suggest("x", []) is None


# A few names with tricky characters, to check that positions point at the name.
board_names = st.lists(
    st.text(alphabet=st.characters(blacklist_characters='"\n', blacklist_categories=("Cs",)), min_size=1, max_size=12)
    .filter(lambda name: name.strip() != ""),
    min_size=1,
    max_size=5,
    unique=True,
)


@settings(max_examples=200)
@given(board_names, st.sampled_from(["advance to", "go back to"]), st.text(alphabet=" \n", max_size=3))
def test_problem_positions_point_at_the_name(names: list[str], verb: str, gap: str) -> None:
    board = EffectNames(spaces=["GO"], kinds=set(), groups=set(), decks=set())
    text = f";{gap}".join(f'{verb} "{name}"' for name in names)
    found = check_effect(parse_effect(text), board, "space")
    unknown = [name for name in names if name != "GO"]
    assert len(found) == len(unknown)
    lines = text.split("\n")
    for problem, name in zip(found, unknown, strict=True):
        assert problem.code == "unknown-space"
        assert lines[problem.line - 1][problem.column - 1 :].startswith(f'"{name}"')
