"""`extends` and variants layer files into one ruleset; conflicts name both files."""

from __future__ import annotations

import itertools
import textwrap

import pytest

from monopoly.ruleset import RulesetError, RulesetNotFound, builtin_rulesets, check_ruleset, load_ruleset

from .conftest import DATA
from .strategies import EXCLUSIVE_VARIANTS

VARIANTS = [b.id for b in builtin_rulesets() if b.kind == "variant"]
EDITIONS = [b.id for b in builtin_rulesets() if b.kind == "edition"]
def fits(combo: tuple[str, ...]) -> bool:
    """The variants may be combined (short-game and time-limit each end the game their own way; the two
    Income Tax rules set one space two ways)."""
    return not any(len(group & set(combo)) > 1 for group in EXCLUSIVE_VARIANTS)


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_builtins_are_the_ones_the_brief_names():
    assert set(EDITIONS) >= {"classic", "uk"}
    assert set(VARIANTS) >= {"short-game", "time-limit", "income-tax-2008", "free-parking-jackpot", "tournament"}


def _combinations(size: int) -> list[tuple[str, ...]]:
    """Every fitting combination of ``size`` variants, up to pairs; beyond, 30 of them drawn with a fixed seed
    (the catalogue makes thousands), and every variant that fits at once."""
    import random

    combos = [combo for combo in itertools.combinations(VARIANTS, size) if fits(combo)]
    if size <= 2:
        return combos
    return random.Random(size).sample(combos, min(30, len(combos)))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 8])
def test_every_edition_with_every_fitting_combination_of_variants_loads(edition, size):
    for combo in _combinations(size):
        ruleset, problems = check_ruleset(edition, combo)
        assert ruleset is not None, [p.format() for p in problems]
        assert [p for p in problems if p.severity == "error"] == []
        assert ruleset.variants == combo


def test_short_game_and_time_limit_conflict_names_both_files_and_lines():
    ruleset, problems = check_ruleset("classic", ["short-game", "time-limit"])
    assert ruleset is None
    [problem] = problems
    assert problem.code == "variant-conflict"
    assert problem.file.endswith("time-limit.yaml")
    assert "short-game" in problem.message and "time-limit" in problem.message
    assert "short-game.yaml:" in problem.hint


def test_same_value_from_two_variants_is_not_a_conflict(tmp_path):
    one = write(tmp_path, "one.yaml", """\
        id: one
        kind: variant
        name: One
        description: deals two deeds
        rules: {setup: {deal_deeds: 2}}
        """)
    two = write(tmp_path, "two.yaml", """\
        id: two
        kind: variant
        name: Two
        description: also deals two deeds
        rules: {setup: {deal_deeds: 2}, salary: 400}
        """)
    ruleset = load_ruleset("classic", [str(one), str(two)])
    assert ruleset.rules.deal_deeds == 2 and ruleset.rules.salary == 400


def test_variants_apply_to_the_uk_edition_too():
    uk = load_ruleset("uk", ["income-tax-2008", "free-parking-jackpot"])
    assert uk.space("Free Parking").effect_text == "collect pot"
    assert uk.rules.fees_to == "pot"


def test_variant_patch_of_unknown_space_suggests_the_name():
    ruleset, problems = check_ruleset(DATA / "broken" / "variant-unknown-space.yaml")
    assert ruleset is None
    [problem] = problems
    assert problem.code == "unknown-space"
    assert (problem.line, problem.column) == (6, 3)
    assert problem.hint == 'did you mean "Free Parking"?'


def test_extends_changes_only_what_it_states(tmp_path):
    mine = write(tmp_path, "mine.yaml", """\
        id: mine
        name: Mine
        extends: classic
        bank: {starting_cash: 2000}
        spaces:
          Marvin Gardens: {name: Marven Gardens, price: 290}
        """)
    ruleset = load_ruleset(str(mine))
    classic = load_ruleset("classic")
    assert ruleset.starting_cash == 2000 and ruleset.houses == 32
    assert ruleset.board[29].name == "Marven Gardens" and ruleset.board[29].price == 290
    assert ruleset.board[29].rent == classic.board[29].rent
    assert ruleset.board[:29] == classic.board[:29] and ruleset.board[30:] == classic.board[30:]


def test_renaming_a_space_a_card_names_says_which_card_to_change(tmp_path):
    mine = write(tmp_path, "mine.yaml", """\
        id: mine
        name: Mine
        extends: classic
        spaces:
          Boardwalk: {name: Harbour Walk}
        """)
    ruleset, problems = check_ruleset(str(mine))
    assert ruleset is None
    [problem] = problems
    assert problem.code == "effect-unknown-space"
    assert problem.file.endswith("classic.yaml")
    assert 'renamed to "Harbour Walk"' in problem.hint and "mine.yaml:5:3" in problem.hint


def test_problem_in_an_extending_file_points_at_that_file(tmp_path):
    mine = write(tmp_path, "mine.yaml", """\
        id: mine
        name: Mine
        extends: classic
        spaces:
          Boardwalk: {group: dark_bleu}
        """)
    ruleset, problems = check_ruleset(str(mine))
    assert ruleset is None
    [problem] = problems
    assert problem.file.endswith("mine.yaml") and (problem.line, problem.column) == (5, 22)
    assert problem.hint == "did you mean 'dark_blue'?"


def test_extends_cycle_is_an_error(tmp_path):
    write(tmp_path, "a.yaml", "id: a\nname: A\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "id: b\nname: B\nextends: a.yaml\n")
    ruleset, problems = check_ruleset(str(tmp_path / "a.yaml"))
    assert ruleset is None and problems[0].code == "extends-cycle"


def test_extends_unknown_edition_suggests_one():
    ruleset, problems = check_ruleset(DATA / "broken" / "extends-missing.yaml")
    assert ruleset is None
    assert problems[0].code == "unknown-extends" and problems[0].hint == "did you mean 'classic'?"


def test_an_edition_given_as_variant_is_an_error():
    ruleset, problems = check_ruleset("classic", [str(DATA / "good" / "mini.yaml")])
    assert ruleset is None and problems[0].code == "not-a-variant"


def test_the_same_variant_twice_is_an_error(tmp_path):
    # named twice: refused before anything is read (a usage error)
    with pytest.raises(RulesetNotFound, match="is given twice"):
        check_ruleset("classic", ["tournament", "tournament"])
    # the same variant under two names (a copy of its file): a problem in the second file
    from .conftest import RULESETS

    copy = tmp_path / "copy.yaml"
    copy.write_text((RULESETS / "variants" / "tournament.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    ruleset, problems = check_ruleset("classic", ["tournament", str(copy)])
    assert ruleset is None and problems[0].code == "variant-twice"


def test_unknown_names_are_usage_errors_with_a_suggestion():
    with pytest.raises(RulesetNotFound) as info:
        load_ruleset("clasic")
    assert info.value.hint == "did you mean 'classic'?"
    with pytest.raises(RulesetNotFound):
        load_ruleset("classic", ["tornament"])
    with pytest.raises(RulesetNotFound):
        load_ruleset("no/such/file.yaml")


def test_ruleset_error_lists_all_problems():
    with pytest.raises(RulesetError) as info:
        load_ruleset(DATA / "broken" / "unknown-group.yaml")
    assert info.value.problems and "unknown group 'bleu'" in str(info.value)
