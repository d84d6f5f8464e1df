"""Kinds as data (`kinds:`): the classic kinds are written in rulesets/base/defaults.yaml, a designer adds a kind
or changes one's rent in a file, and the rent of every lot comes from its kind's rent expression."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

import monopoly
from monopoly.effects.check import EffectNames, parse_and_check_number
from monopoly.game.rent import rent_at
from monopoly.game.tables import tables_for

from .scenario import ScriptedAgent

FERRIES = """\
    id: ferries
    kind: variant
    name: Ferries and tolls
    description: Two railroads become ferries, a utility a toll bridge.
    kinds:
      ferry: {owned: true, mortgaged: true, rent: 50 x owned in group}
      toll: {owned: true, rent: figure 1 x dice + 5 x owned in group}
    groups:
      ferries: {name: Ferries}
      tolls: {name: Toll bridges}
    spaces:
      Reading Railroad: {kind: ferry, group: ferries}
      Short Line: {kind: ferry, group: ferries}
      Pennsylvania Railroad: {rent: [25, 50]}
      B. & O. Railroad: {rent: [25, 50]}
      Electric Company: {kind: toll, group: tolls, rent: [3]}
      Water Works: {rent: [4]}
    triggers:
      - {on: land, space: Free Parking, effect: advance to nearest ferry}
    """


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def _game(ruleset: Any, setup: Any) -> monopoly.Game:
    return monopoly.Game.from_state(ruleset, [ScriptedAgent(), ScriptedAgent()], setup.checked())


def test_a_designer_kind_pays_its_rent_and_is_found_by_nearest(tmp_path: Path) -> None:
    ruleset = monopoly.load_ruleset("classic", [write(tmp_path, "ferries.yaml", FERRIES)])
    assert ruleset.space("Reading Railroad").kind == "ferry" and ruleset.space("Reading Railroad").ownable
    setup = (monopoly.Setup(ruleset, players=2).give("Reading Railroad", 1).give("Short Line", 1)
             .place(0, "Jail").to_move(0))
    game = _game(ruleset, setup)
    game.fix_dice([(4, 6)])  # Jail (just visiting) -> Free Parking -> the nearest ferry: Short Line
    game.play_turn()
    assert game.tables.names[game.position[0]] == "Short Line"
    assert (game.cash[0], game.cash[1]) == (1400, 1600)  # 50 for each of the two ferries
    setup = setup.give("Short Line", 0).place(0, "GO")  # now one ferry each: 50
    game = _game(ruleset, setup)
    game.fix_dice([(2, 3)])  # GO -> Reading Railroad
    game.play_turn()
    assert (game.cash[0], game.cash[1]) == (1450, 1550)


def test_a_kind_whose_rent_reads_the_dice_and_cannot_be_mortgaged(tmp_path: Path) -> None:
    ruleset = monopoly.load_ruleset("classic", [write(tmp_path, "ferries.yaml", FERRIES)])
    setup = monopoly.Setup(ruleset, players=2).give("Electric Company", 1).place(0, "Jail").to_move(0)
    game = _game(ruleset, setup)
    game.fix_dice([(1, 1), (3, 4)])  # doubles onto Electric Company (3 x 2 + 5), then on to Virginia Avenue
    game.play_turn()
    assert (game.cash[0], game.cash[1]) == (1500 - 11, 1500 + 11)
    t = tables_for(ruleset)
    electric = t.names.index("Electric Company")
    assert [rent_at(t, electric, 0, 1, dice) for dice in (2, 7, 12)] == [11, 26, 41]
    from monopoly.game.actions import Mortgage, legal_actions
    assert Mortgage(electric) not in legal_actions(game, 1)
    assert not game.apply(1, Mortgage(electric))


def test_a_variant_changes_the_street_rent(tmp_path: Path) -> None:
    flat = write(tmp_path, "flat.yaml", """\
        id: flat-streets
        kind: variant
        name: Flat streets
        description: A street's rent is its first figure times one more than its houses.
        kinds:
          street: {rent: figure 1 x (level + 1)}
        """)
    ruleset = monopoly.load_ruleset("classic", [flat])
    setup = (monopoly.Setup(ruleset, players=2).give("Mediterranean Avenue", 1).give("Baltic Avenue", 1)
             .build("Mediterranean Avenue", 3).build("Baltic Avenue", 3).place(0, "GO").to_move(0))
    game = _game(ruleset, setup)
    game.fix_dice([(1, 2)])  # GO -> Baltic Avenue, 3 houses: 4 x 4
    game.play_turn()
    assert (game.cash[0], game.cash[1]) == (1484, 1516)


def test_no_full_set_bonus_keeps_its_meaning() -> None:
    t = tables_for(monopoly.load_ruleset("classic", ["no-full-set-bonus"]))
    baltic = t.names.index("Baltic Avenue")
    assert (rent_at(t, baltic, 0, 1), rent_at(t, baltic, 0, 2), rent_at(t, baltic, 1, 2)) == (4, 4, 20)


@pytest.mark.parametrize("edition", ["classic", "uk"])
@pytest.mark.parametrize("variants", [(), ("short-game",)])
def test_the_classic_kinds_give_the_printed_rents(edition: str, variants: tuple[str, ...]) -> None:
    """Every lot of classic and uk at every level, against its printed rent list read by the printed rules."""
    ruleset = monopoly.load_ruleset(edition, list(variants))
    t = tables_for(ruleset)
    hph = ruleset.rules.building.houses_per_hotel
    checked = 0
    for space in ruleset.board:
        printed, s = space.rent, space.index
        size = len(ruleset.group(space.group).members) if space.group else 1
        if space.kind == "street":
            assert rent_at(t, s, 0, 1) == printed[0]
            assert rent_at(t, s, 0, size) == 2 * printed[0]
            for houses in range(1, hph + 1):
                assert rent_at(t, s, houses, size) == printed[houses]
            assert rent_at(t, s, hph + 1, size) == printed[-1]
        elif space.kind == "railroad":
            assert [rent_at(t, s, 0, n) for n in range(1, size + 1)] == list(printed)
        elif space.kind == "utility":
            for n in range(1, size + 1):
                assert [rent_at(t, s, 0, n, dice) for dice in range(2, 13)] == [printed[n - 1] * d
                                                                              for d in range(2, 13)]
        else:
            assert t.rent_rows[s] is None
            continue
        checked += 1
    assert checked == 28


def _problems(tmp_path: Path, text: str) -> list[Any]:
    ruleset, problems = monopoly.check_ruleset(write(tmp_path, "mine.yaml", text))
    assert ruleset is None
    return [p for p in problems if p.severity == "error"]


BASE = "id: mine\nname: Mine\nextends: classic\n"


def test_a_rent_of_the_wrong_type_is_located(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, BASE + "kinds:\n  railroad: {rent: level > 2}\n")
    assert (problem.line, problem.column, problem.code) == (5, 20, "effect-type-mismatch")
    assert "a number was expected" in problem.message
    [problem] = _problems(tmp_path, BASE + "kinds:\n  railroad: {rent: figure owned in group x cash of Boardwalk}\n")
    assert (problem.line, problem.column, problem.code) == (5, 52, "effect-type-mismatch")
    assert "Boardwalk is a space, a player was expected" in problem.message


def test_a_figure_past_the_end_names_the_space_and_the_kind(tmp_path: Path) -> None:
    problems = _problems(tmp_path, BASE + "kinds:\n  utility: {rent: figure 3 x dice}\n")
    assert [(p.code, p.file.endswith("classic.yaml")) for p in problems] == [("rent-length", True)] * 2
    assert problems[0].message == '"Electric Company" has 2 rent figures; the rent of kind utility reads 3 of them'
    [problem] = _problems(tmp_path, BASE + "spaces:\n  Reading Railroad: {rent: [25, 50]}\n")
    assert (problem.line, problem.column) == (5, 28)
    assert problem.message == ('"Reading Railroad" has 2 rent figures; its group \'railroads\' has 4 railroad '
                               "spaces, so it needs one for each number owned (1 to 4)")


def test_an_owned_kind_without_rent_and_building_on_a_kind_not_owned(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, BASE + "kinds:\n  ferry: {owned: true}\n")
    assert (problem.line, problem.column, problem.code) == (5, 18, "missing-key")
    assert problem.message == "kind ferry is owned but has no rent"
    [problem] = _problems(tmp_path, BASE + "kinds:\n  tax: {build: true}\n")
    assert (problem.line, problem.column, problem.code) == (5, 9, "kind-not-owned")
    assert problem.message == "kind tax is not owned, so it cannot be built on"


def test_an_unknown_kind_on_a_space_is_located_with_a_did_you_mean(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, BASE + "spaces:\n  Boardwalk: {kind: fery}\nkinds:\n"
                                           "  ferry: {owned: true, rent: figure owned in group}\n")
    assert (problem.line, problem.column) == (5, 21)
    assert "'fery' is not allowed" in problem.message and problem.hint == "did you mean 'ferry'?"


def test_the_lot_quantities_are_known_only_in_a_rent(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, BASE + "spaces:\n  Free Parking: {effect: collect 10 x level}\n")
    assert (problem.line, problem.column, problem.code) == (5, 39, "effect-rent-outside-kind")


def test_two_variants_that_set_a_kind_differently_are_reported(tmp_path: Path) -> None:
    one = write(tmp_path, "one.yaml", "id: one\nkind: variant\nname: One\ndescription: One.\n"
                                      "kinds:\n  railroad: {rent: 2 x figure owned in group}\n")
    two = write(tmp_path, "two.yaml", "id: two\nkind: variant\nname: Two\ndescription: Two.\n"
                                      "kinds:\n  railroad: {rent: 3 x figure owned in group}\n")
    ruleset, problems = monopoly.check_ruleset("classic", [one, two])
    [problem] = problems
    assert ruleset is None and problem.file.endswith("two.yaml") and (problem.line, problem.column) == (6, 20)
    assert problem.message == "variants 'one' and 'two' set kinds.railroad.rent differently"
    assert problem.hint is not None and "one.yaml:6:20" in problem.hint


def test_the_rent_examples_of_the_docs_parse_and_print_back() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text[text.index("## A kind's rent"):text.index("## Limits")]
    blocks = [line for block in re.findall(r"```\n(.*?)```", section, flags=re.S) for line in block.splitlines()]
    inline = [m for m in re.findall(r"`([^`\n]+)`", re.sub(r"```\n.*?```", "", section, flags=re.S))
              if m.split()[0] in ("figure", "if", "50") and " " in m and not re.search(r"\b[A-Z]\b", m)
              and m != "figure level + 1"]
    classic = monopoly.load_ruleset("classic")
    names = EffectNames(spaces=tuple(s.name for s in classic.board), kinds={s.kind for s in classic.board},
                        groups={g.key for g in classic.groups}, decks={d.key for d in classic.decks},
                        rules=classic.rule_values)
    assert len(blocks) == 3 and len(inline) >= 4
    for example in blocks + inline:
        number, problems = parse_and_check_number(example, names)
        assert number is not None and problems == [], (example, problems)
        assert number.to_text() == example


def test_a_rent_that_reads_the_game_is_worked_out_at_each_payment(tmp_path: Path) -> None:
    greedy = write(tmp_path, "greedy.yaml", """\
        id: greedy-railroads
        kind: variant
        name: Greedy railroads
        description: A railroad's rent grows with the visitor's cash.
        kinds:
          railroad: {rent: figure owned in group + 10% of cash}
        """)
    ruleset = monopoly.load_ruleset("classic", [greedy])
    t = tables_for(ruleset)
    reading = t.names.index("Reading Railroad")
    assert t.rent_rows[reading] is None and rent_at(t, reading, 0, 1) == 0  # known only in a game
    setup = monopoly.Setup(ruleset, players=2).give("Reading Railroad", 1).place(0, "GO").to_move(0)
    game = _game(ruleset, setup.set_cash(0, 1000))
    game.fix_dice([(2, 3)])  # GO -> Reading Railroad: 25 + 10% of the visitor's 1000 (after no salary)
    game.play_turn()
    assert (game.cash[0], game.cash[1]) == (1000 - 125, 1500 + 125)
    assert game.rent_due(reading) == 25  # a query of nobody in particular: `cash` is nobody's


def test_nearest_a_group_with_no_spaces_is_a_located_error_not_a_crash_in_play(tmp_path: Path) -> None:
    """Found by a review: a declared group that no space is in passed validate, then play crashed on `nearest`."""
    path = tmp_path / "harbours.yaml"
    path.write_text("id: harbours\nname: Harbours\nextends: classic\ngroups:\n  harbours: {name: Harbours}\n"
                    "decks:\n  chance:\n    add:\n      - {text: Go to the nearest harbour., "
                    "effect: advance to nearest harbours}\n", encoding="utf-8")
    with pytest.raises(monopoly.RulesetError) as caught:
        monopoly.load_ruleset(str(path))
    [problem] = [p for p in caught.value.problems if p.severity == "error"]
    assert (problem.code, problem.line, problem.column) == ("effect-nearest-nothing", 9, 71)
    assert problem.hint == 'give spaces "group: harbours", or name a kind or group the board has'


def test_a_declared_kind_with_no_space_says_so_at_nearest_and_at_a_count(tmp_path: Path) -> None:
    """Found by a review: a kind declared under `kinds:` but given no space was an "unknown kind" to `nearest`
    and to counts; it is known, and the board has none of it."""
    problems = _problems(tmp_path, BASE + "kinds:\n  ferry: {owned: true, mortgaged: true, rent: 25 x owned in group}\n"
                         "spaces:\n  Income Tax: {effect: advance to nearest ferry}\n"
                         "  Luxury Tax: {effect: collect 10 x ferries owned by you}\n")
    assert [(p.code, p.line, p.column) for p in problems] == [
        ("effect-kind-not-on-board", 7, 43), ("effect-kind-not-on-board", 8, 37)]
    assert problems[0].message == 'no space of kind "ferry" is on this board: "nearest ferry" finds nothing'
    assert problems[1].message == 'no space of kind "ferry" is on this board: "ferries owned by you" is always 0'
    assert problems[0].hint == 'give spaces "kind: ferry", or name a kind or group the board has'


def test_a_variants_rent_that_the_editions_lots_do_not_fit_names_the_variants_line(tmp_path: Path) -> None:
    """Found by a review: a variant's `kinds:` rent that reads more figures than the edition's railroads have was
    reported only at the edition's lots; the hint now says where the rent is written."""
    variant = write(tmp_path, "figures.yaml", "id: figures\nkind: variant\nname: Figures\ndescription: More.\n"
                                              "kinds:\n  railroad: {rent: figure 9}\n")
    ruleset, problems = monopoly.check_ruleset("classic", [str(variant)])
    assert ruleset is None
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 4 and all(p.code == "rent-length" and p.file.endswith("classic.yaml") for p in errors)
    assert all(p.hint == f"the rent of kind railroad is written at {variant}:6:20" for p in errors)


def test_rent_figures_no_rent_can_read_are_a_warning(tmp_path: Path) -> None:
    """Found by a review: a figure more than a kind's rent ever reads was not reported (only a railroad's, by
    the count owned, was); it is a warning, located at the list, with the kind's file when another wrote it."""
    path = write(tmp_path, "ferry.yaml", BASE + "groups:\n  ferries: {name: Ferries}\n"
                 "kinds:\n  ferry: {owned: true, mortgaged: true, rent: figure 2}\n"
                 "spaces:\n  Luxury Tax: {kind: ferry, group: ferries, price: 150, mortgage: 75, rent: [10, 20, 30]}\n")
    ruleset, problems = monopoly.check_ruleset(path)
    assert ruleset is not None  # a warning only
    [warning] = [p for p in problems if p.code == "rent-unread"]
    assert (warning.severity, warning.line) == ("warning", 9)
    assert warning.message == '"Luxury Tax" has 3 rent figures; the rent of kind ferry reads 2 of them: the last is ' \
        "never used"
    for name in ("classic", "uk"):  # the shipped editions have no figure too many
        assert not [p for p in monopoly.check_ruleset(name)[1] if p.code == "rent-unread"]


def test_analyze_names_the_lots_whose_rent_is_known_only_in_play(tmp_path: Path) -> None:
    """Found by a review: a rent that reads the game has no money rows, and the analysis said nothing of it."""
    from click.testing import CliRunner

    from monopoly.analysis.analyze import analyze
    from monopoly.cli.main import cli

    path = tmp_path / "cashy.yaml"
    path.write_text("id: cashy\nname: Cashy\nextends: classic\n"
                    "kinds: {railroad: {rent: \"figure owned in group + 10% of cash of owner\"}}\n", encoding="utf-8")
    data = analyze(monopoly.load_ruleset(str(path)))
    assert data["money"]["left_out"] == ["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    assert analyze(monopoly.load_ruleset("classic"))["money"]["left_out"] == []
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 0 and "Not in these tables" in result.output and "Short Line" in result.output
