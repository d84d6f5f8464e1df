"""Variants and extending editions patch decks and triggers instead of replacing them.

A deck's ``remove``, ``change`` and ``add`` find cards by their printed text; ``triggers`` written as a
mapping find triggers by their ``name``. Each test sets up its files exactly and checks the composed
result, or the problem (code, file, line, column, message, hint) exactly.
"""

from __future__ import annotations

import copy
import json
import tempfile
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monopoly.ruleset import check_ruleset, find_ruleset, load_ruleset
from monopoly.ruleset.compose import MAX_CARDS, compose
from monopoly.ruleset.load import display_path

from .conftest import DATA, RULESETS

PATCHES = DATA / "patches"
CLASSIC = display_path(find_ruleset("classic"))
UK = display_path(find_ruleset("uk"))
CLASSIC_DATA = yaml.safe_load((RULESETS / "classic.yaml").read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def variant(tmp_path: Path, name: str, body: str) -> Path:
    """A variant file: four lines of header, then ``body`` from line 5."""
    head = f"id: {name}\nkind: variant\nname: {name}\ndescription: a test variant\n"
    return write(tmp_path, f"{name}.yaml", head + textwrap.dedent(body))


def cards_of(ruleset: Any, key: str) -> list[tuple[str, str, int]]:
    return [(card.text, card.effect_text, card.count) for card in ruleset.deck(key).cards]


def classic_cards(key: str) -> list[tuple[str, str, int]]:
    return [(c["text"], c["effect"], c.get("count", 1)) for c in CLASSIC_DATA["decks"][key]["cards"]]


def errors(name_or_path: Any, variants: Sequence[Any] = ()) -> list[tuple[str, str, int, int, str, str | None]]:
    ruleset, problems = check_ruleset(name_or_path, [str(v) for v in variants])
    assert ruleset is None
    return [(p.code, p.file, p.line, p.column, p.message, p.hint) for p in problems if p.severity == "error"]


# --- decks: the composed cards ------------------------------------------------------------------------------


def test_remove_change_and_add_patch_the_deck_in_place():
    ruleset = load_ruleset("classic", [str(PATCHES / "calm-chance.yaml")])
    expected = []
    for text, effect, count in classic_cards("chance"):
        if text == "Pay poor tax of $15.":
            continue
        if text == "Bank pays you dividend of $50.":
            text, effect = "Bank pays you dividend of $100.", "collect 100"
        if text == "Go Back 3 Spaces.":
            count = 2
        expected.append((text, effect, count))
    expected.append(("Your yacht wins the regatta. Collect $100.", "collect 100", 1))
    assert cards_of(ruleset, "chance") == expected
    classic = load_ruleset("classic")
    assert len(expected) == len(classic.deck("chance").cards) == 15
    assert ruleset.deck("chance").size == classic.deck("chance").size + 1 == 17  # -1, +1 copy, +1
    # the other deck, and everything else, is classic's
    assert ruleset.deck("community_chest") == classic.deck("community_chest")
    assert ruleset.board == classic.board and ruleset.rules == classic.rules


def test_the_changed_card_keeps_its_place_and_the_added_one_goes_last():
    ruleset = load_ruleset("classic", [str(PATCHES / "calm-chance.yaml")])
    texts = [card.text for card in ruleset.deck("chance").cards]
    classic_texts = [text for text, _, _ in classic_cards("chance")]
    assert texts.index("Bank pays you dividend of $100.") == classic_texts.index("Bank pays you dividend of $50.")
    assert texts[0] == classic_texts[0] and texts[-1] == "Your yacht wins the regatta. Collect $100."


def test_cards_still_replace_the_whole_deck(tmp_path):
    mine = variant(tmp_path, "only-one", """\
        decks:
          chance:
            cards:
              - {text: The only card., effect: collect 1, count: 3}
        """)
    ruleset = load_ruleset("classic", [str(mine)])
    assert cards_of(ruleset, "chance") == [("The only card.", "collect 1", 3)]
    assert ruleset.deck("chance").name == "Chance"


def test_a_deck_can_be_renamed_without_its_cards(tmp_path):
    mine = variant(tmp_path, "renamed", "decks:\n  chance: {name: Fortune}\n")
    ruleset = load_ruleset("classic", [str(mine)])
    assert ruleset.deck("chance").name == "Fortune"
    assert cards_of(ruleset, "chance") == classic_cards("chance")


def test_remove_takes_every_card_of_that_text_and_change_changes_them_all(tmp_path):
    base = write(tmp_path, "twins.yaml", """\
        id: twins
        name: Twins
        extends: classic
        decks:
          chance:
            cards:
              - {text: Twin., effect: collect 1}
              - {text: Other., effect: collect 2}
              - {text: Twin., effect: collect 3, count: 2}
        """)
    changed = variant(tmp_path, "change-twins", """\
        decks:
          chance:
            change:
              Twin.: {effect: collect 9}
        """)
    removed = variant(tmp_path, "remove-twins", """\
        decks:
          chance:
            remove: [Twin.]
        """)
    assert cards_of(load_ruleset(str(base), [str(changed)]), "chance") == [
        ("Twin.", "collect 9", 1), ("Other.", "collect 2", 1), ("Twin.", "collect 9", 2)]
    assert cards_of(load_ruleset(str(base), [str(removed)]), "chance") == [("Other.", "collect 2", 1)]


def test_removing_and_adding_a_text_in_one_file_replaces_the_card_at_the_end(tmp_path):
    mine = variant(tmp_path, "moved", """\
        decks:
          chance:
            remove: [Pay poor tax of $15.]
            add:
              - {text: Pay poor tax of $15., effect: pay 30}
        """)
    cards = cards_of(load_ruleset("classic", [str(mine)]), "chance")
    assert cards[-1] == ("Pay poor tax of $15.", "pay 30", 1)
    assert cards[:-1] == [c for c in classic_cards("chance") if c[0] != "Pay poor tax of $15."]


def test_an_extending_edition_patches_its_base_and_a_variant_patches_the_result(tmp_path):
    edition = write(tmp_path, "calm.yaml", """\
        id: calm
        name: Calm
        extends: classic
        decks:
          community_chest:
            change:
              Pay hospital $100.: {text: Pay hospital $10., effect: pay 10}
        """)
    later = variant(tmp_path, "later", """\
        decks:
          community_chest:
            change:
              Pay hospital $10.: {count: 2}
        """)
    cards = cards_of(load_ruleset(str(edition), [str(later)]), "community_chest")
    index = [text for text, _, _ in classic_cards("community_chest")].index("Pay hospital $100.")
    assert cards[index] == ("Pay hospital $10.", "pay 10", 2)
    assert len(cards) == len(classic_cards("community_chest"))


def test_two_variants_removing_the_same_card_or_adding_the_same_card_agree(tmp_path):
    body = """\
        decks:
          chance:
            remove: [Pay poor tax of $15.]
            add:
              - {text: A gift., effect: collect 5}
        """
    one, two = variant(tmp_path, "one", body), variant(tmp_path, "two", body)
    cards = cards_of(load_ruleset("classic", [str(one), str(two)]), "chance")
    assert [c[0] for c in cards].count("A gift.") == 1
    assert "Pay poor tax of $15." not in [c[0] for c in cards]


def test_classic_and_uk_compose_as_before():
    """The composed trees are what the files say, merged as before the patches existed."""
    classic = compose("classic").data
    expected = copy.deepcopy(CLASSIC_DATA)
    assert classic == expected
    uk_data = yaml.safe_load((RULESETS / "uk.yaml").read_text(encoding="utf-8"))
    for key in ("id", "name", "description", "currency"):
        expected[key] = uk_data[key]
    expected["groups"]["railroads"]["name"] = "Stations"
    names = [space["name"] for space in expected["board"]]
    for old, patch in uk_data["spaces"].items():
        expected["board"][names.index(old)].update(patch)
    for key, deck in uk_data["decks"].items():
        expected["decks"][key]["cards"] = deck["cards"]
    assert compose("uk").data == expected
    uk = load_ruleset("uk")
    assert cards_of(uk, "chance") == [(c["text"], c["effect"], 1) for c in uk_data["decks"]["chance"]["cards"]]
    assert uk.space("Mayfair").price == 400 and uk.deck("chance").name == "Chance"


def test_added_and_changed_cards_report_effect_problems_in_the_variant(tmp_path):
    mine = variant(tmp_path, "bad-effects", """\
        decks:
          chance:
            change:
              "Bank pays you dividend of $50.": {effect: advance to "Boardwalkk"}
            add:
              - text: A ship comes in.
                effect: colect 100
        """)
    found = errors("classic", [mine])
    assert [(code, file, line, column) for code, file, line, column, _, _ in found] == [
        ("effect-unknown-space", display_path(mine), 8, 61),
        ("effect-syntax", display_path(mine), 11, 17),
    ]
    assert found[0][5] == 'did you mean "Boardwalk"?'


# --- decks: what a patch must find, and its limits ----------------------------------------------------------


def test_an_unknown_card_names_both_files_and_suggests_the_text():
    assert errors(PATCHES / "typo-card.yaml") == [
        ("unknown-card", display_path(PATCHES / "typo-card.yaml"), 9, 9,
         f"no card \"Pay poor tax of $51.\" in deck 'chance' of classic ({CLASSIC})",
         'did you mean "Pay poor tax of $15."?'),
    ]


def test_a_long_card_text_is_suggested_by_its_start_and_its_end(tmp_path):
    mine = variant(tmp_path, "long", """\
        decks:
          chance:
            remove:
              - Advance to St. Charles Place. If you pass GO, collect $250.
              - Take a walk on the Boardwalk.
        """)
    hints = [hint for *_, hint in errors("classic", [mine])]
    assert hints == ['did you mean "Advance to St. Charles Place. If you pass GO, collect $200."?',
                     'did you mean "Take a walk on the Boardwalk. Advance token to Boardwalk."?']


def test_an_unknown_card_without_a_close_text_says_where_the_deck_is_listed(tmp_path):
    mine = variant(tmp_path, "far", """\
        decks:
          community_chest:
            change:
              Something else entirely: {count: 2}
        """)
    [(code, _, line, column, message, hint)] = errors("classic", [mine])
    assert (code, line, column) == ("unknown-card", 8, 7)
    assert message == f"no card \"Something else entirely\" in deck 'community_chest' of classic ({CLASSIC})"
    assert hint == f"the deck's cards are listed at {CLASSIC}:116:7"


def test_an_unknown_deck_names_both_files_and_suggests_the_key():
    assert errors(PATCHES / "typo-deck.yaml") == [
        ("unknown-deck", display_path(PATCHES / "typo-deck.yaml"), 7, 3,
         f"no deck named 'chanse' in classic ({CLASSIC})", "did you mean 'chance'?"),
    ]


def test_a_new_deck_needs_cards(tmp_path):
    mine = variant(tmp_path, "new-deck", "decks:\n  bonus: {name: Bonus}\n")
    [(code, _, line, column, message, _)] = errors("classic", [mine])
    assert (code, line, column, message) == ("missing-key", 6, 3, "missing required key 'cards' in decks.bonus")


def test_cards_and_a_patch_in_one_deck_is_an_error(tmp_path):
    mine = variant(tmp_path, "both", """\
        decks:
          chance:
            cards: [{text: A., effect: collect 1}]
            remove: [Pay poor tax of $15.]
        """)
    [(code, _, line, column, message, _)] = errors("classic", [mine])
    assert (code, line, column) == ("cards-and-patch", 8, 5)
    assert message == ("deck 'chance' gives both `cards:`, which replaces the whole deck, and `remove:`, which "
                       "patches the deck underneath")


def test_adding_a_text_the_deck_has_is_an_error_that_points_at_the_card(tmp_path):
    mine = variant(tmp_path, "again", """\
        decks:
          chance:
            add:
              - {text: Pay poor tax of $15., effect: pay 15}
        """)
    [(code, _, line, column, message, hint)] = errors("classic", [mine])
    assert (code, line, column) == ("duplicate-card", 8, 9)
    assert message == "deck 'chance' already has a card \"Pay poor tax of $15.\""
    assert hint == (f"it is written at {CLASSIC}:103:9; for more copies of it, change its `count` under "
                    "`change:`, or give this card its own text")


def test_renaming_a_card_to_a_text_the_deck_has_is_an_error(tmp_path):
    mine = variant(tmp_path, "clash", """\
        decks:
          chance:
            change:
              Pay poor tax of $15.: {text: Go Back 3 Spaces.}
        """)
    [(code, _, line, column, _, _)] = errors("classic", [mine])
    assert (code, line, column) == ("duplicate-card", 8, 36)


def test_removing_and_changing_one_card_in_one_file_is_an_error(tmp_path):
    mine = variant(tmp_path, "undecided", """\
        decks:
          chance:
            remove: [Pay poor tax of $15., Pay poor tax of $15.]
            change:
              Pay poor tax of $15.: {effect: pay 1}
        """)
    assert [(code, line, column) for code, _, line, column, _, _ in errors("classic", [mine])] == [
        ("patch-twice", 7, 36), ("patch-twice", 9, 7)]


def test_a_deck_keeps_at_least_one_card_and_at_most_the_limit(tmp_path):
    texts = [text for text, _, _ in classic_cards("community_chest")]
    empty = variant(tmp_path, "empty", "decks:\n  community_chest:\n    remove:\n"
                    + "".join(f"      - {json.dumps(text)}\n" for text in texts))
    [(code, _, line, column, message, _)] = errors("classic", [empty])
    assert (code, line, column) == ("empty-deck", 7 + len(texts), 9)
    assert message == "removing this card leaves deck 'community_chest' with no cards"
    room = MAX_CARDS - len(classic_cards("chance"))
    full = variant(tmp_path, "full", "decks:\n  chance:\n    add:\n"
                   + "".join(f"      - {{text: card {i}, effect: collect 1}}\n" for i in range(room + 5)))
    [(code, _, line, column, message, _)] = errors("classic", [full])
    assert (code, line, column) == ("too-many-cards", 8 + room, 9)
    assert message == f"deck 'chance' would hold more than {MAX_CARDS} cards"


def test_an_edition_that_extends_nothing_has_nothing_to_patch(tmp_path):
    root = write(tmp_path, "root.yaml", """\
        id: root
        name: Root
        board:
          - {name: GO, kind: go}
          - {name: Jail, kind: jail}
          - {name: Chance, kind: draw, deck: chance}
          - {name: Lot, kind: plain}
        spaces:
          Lot: {label: L}
        decks:
          chance:
            add: [{text: A., effect: collect 1}]
        triggers:
          remove: [bonus]
        """)
    assert [(code, line, column, message) for code, _, line, column, message, _ in errors(root)] == [
        ("unknown-space", 9, 3, 'no space named "Lot" to change: this edition extends no other'),
        ("unknown-deck", 11, 3, "deck 'chance' has no cards to patch: this edition extends no other"),
        ("unknown-trigger", 14, 12, "no trigger named 'bonus' to remove: this edition extends no other"),
    ]


# --- spaces ---------------------------------------------------------------------------------------------


def test_an_unknown_space_names_both_files_and_where_it_was_renamed():
    assert errors("uk", [PATCHES / "dear-boardwalk.yaml"]) == [
        ("unknown-space", display_path(PATCHES / "dear-boardwalk.yaml"), 7, 3,
         f'no space named "Boardwalk" on the board of uk ({UK})',
         f'"Boardwalk" was renamed to "Mayfair" at {UK}:52:3'),
    ]
    assert load_ruleset("classic", [str(PATCHES / "dear-boardwalk.yaml")]).space("Boardwalk").price == 450


def test_an_unknown_space_suggests_the_name():
    [(code, _, line, column, message, hint)] = errors(DATA / "broken" / "variant-unknown-space.yaml")
    assert (code, line, column) == ("unknown-space", 6, 3)
    assert message == f'no space named "Free Parkin" on the board of classic ({CLASSIC})'
    assert hint == 'did you mean "Free Parking"?'


# --- triggers -------------------------------------------------------------------------------------------


def test_triggers_are_changed_and_removed_by_name(tmp_path):
    lucky = PATCHES / "lucky-go.yaml"
    changed = load_ruleset("classic", [str(lucky), str(PATCHES / "luckier-go.yaml")])
    assert [(t.on, t.space_name, t.effect_text) for t in changed.triggers] == [("land", "GO", "collect 400")]
    edition = write(tmp_path, "bonuses.yaml", """\
        id: bonuses
        name: Bonuses
        extends: classic
        triggers:
          - {name: go_bonus, on: land, space: GO, effect: collect 100}
          - {on: pass, space: Jail, effect: collect 1}
          - {name: jail_bonus, on: land, space: Jail, effect: collect 10}
        """)
    gone = variant(tmp_path, "gone", """\
        triggers:
          remove: [go_bonus]
          change:
            jail_bonus: {on: pass}
          add:
            - {on: pass, space: Free Parking, effect: collect 10}
        """)
    ruleset = load_ruleset(str(edition), [str(gone)])
    assert [(t.on, t.space_name, t.effect_text) for t in ruleset.triggers] == [
        ("pass", "Jail", "collect 1"), ("pass", "Jail", "collect 10"), ("pass", "Free Parking", "collect 10")]


def test_removing_a_trigger_another_variant_adds_is_a_conflict(tmp_path):
    gone = variant(tmp_path, "gone", "triggers:\n  remove: [lucky_go]\n")
    lucky = display_path(PATCHES / "lucky-go.yaml")
    assert errors("classic", [PATCHES / "lucky-go.yaml", gone]) == [
        ("variant-conflict", display_path(gone), 6, 12,
         "variants 'lucky-go' and 'gone' both patch the trigger 'lucky_go'",
         f"{lucky}:7:5 adds it, this file removes it; use only one of these variants"),
    ]


def test_a_list_of_triggers_is_still_appended(tmp_path):
    more = variant(tmp_path, "more", "triggers:\n  - {on: land, space: Jail, effect: pay 5}\n")
    ruleset = load_ruleset("classic", [str(PATCHES / "lucky-go.yaml"), str(more)])
    assert [t.effect_text for t in ruleset.triggers] == ["collect 200", "pay 5"]


def test_a_renamed_trigger_is_found_by_its_new_name(tmp_path):
    rename = variant(tmp_path, "rename", "triggers:\n  change:\n    lucky_go: {name: go_bonus, space: Jail}\n")
    after = variant(tmp_path, "after", "triggers:\n  change:\n    go_bonus: {effect: collect 1}\n")
    ruleset = load_ruleset("classic", [str(PATCHES / "lucky-go.yaml"), str(rename), str(after)])
    assert [(t.space_name, t.effect_text) for t in ruleset.triggers] == [("Jail", "collect 1")]


def test_an_unknown_trigger_names_both_files_and_suggests_the_name():
    unlucky = PATCHES / "unlucky-go.yaml"
    assert errors("classic", [PATCHES / "lucky-go.yaml", unlucky]) == [
        ("unknown-trigger", display_path(unlucky), 7, 12,
         f"no trigger named 'lucky_goo' in classic ({CLASSIC}) with the variant 'lucky-go'",
         "did you mean 'lucky_go'?"),
    ]
    assert errors(unlucky) == [
        ("unknown-trigger", display_path(unlucky), 7, 12, f"no trigger named 'lucky_goo' in classic ({CLASSIC})",
         "none of its triggers has a name; a trigger is changed or removed by its `name`"),
    ]


def test_a_trigger_name_is_taken_once(tmp_path):
    again = variant(tmp_path, "again", "triggers:\n  - {name: lucky_go, on: land, space: Jail, effect: pay 5}\n")
    lucky = display_path(PATCHES / "lucky-go.yaml")
    assert errors("classic", [PATCHES / "lucky-go.yaml", again]) == [
        ("variant-conflict", display_path(again), 6, 5,
         "variants 'lucky-go' and 'again' both add the trigger 'lucky_go', differently",
         f"{lucky}:7:5 adds one, this file adds another; use only one of these variants"),
    ]
    edition = write(tmp_path, "twice.yaml", """\
        id: twice
        name: Twice
        extends: classic
        triggers:
          - {name: bonus, on: land, space: GO, effect: collect 1}
          - {name: bonus, on: land, space: Jail, effect: collect 2}
        """)
    [(code, _, line, column, message, hint)] = errors(edition)
    assert (code, line, column, message) == ("duplicate-trigger", 6, 5, "there is already a trigger named 'bonus'")
    assert hint is not None and hint.startswith(f"it is written at {display_path(edition)}:5:5;")


def test_a_trigger_that_is_not_a_list_or_a_mapping_is_a_schema_error(tmp_path):
    mine = variant(tmp_path, "text", "triggers: go bonus\n")
    [(code, _, line, column, message, _)] = errors(mine)
    assert (code, line, column) == ("wrong-type", 5, 11)
    assert message == "expected a list or a mapping of keys in triggers, got text 'go bonus'"


# --- conflicts between variants -------------------------------------------------------------------------


def test_a_removed_card_that_another_variant_changes_is_a_conflict_naming_both_files():
    calm, taxing = PATCHES / "calm-chance.yaml", PATCHES / "taxing-chance.yaml"
    assert errors("classic", [calm, taxing]) == [
        ("variant-conflict", display_path(taxing), 9, 7,
         "variants 'calm-chance' and 'taxing-chance' both patch the card \"Pay poor tax of $15.\" of deck 'chance'",
         f"{display_path(calm)}:9:9 removes it, this file changes it; use only one of these variants"),
    ]
    # the other way round: the change renamed the card, and the removal finds it gone
    assert errors("classic", [taxing, calm]) == [
        ("variant-conflict", display_path(calm), 9, 9,
         "variants 'taxing-chance' and 'calm-chance' both patch the card \"Pay poor tax of $15.\" of deck 'chance'",
         f"{display_path(taxing)}:9:38 renames it to 'Pay poor tax of $50.', this file removes it; use only one of "
         "these variants"),
    ]


def test_two_variants_changing_a_trigger_differently_conflict():
    luckier, modest = PATCHES / "luckier-go.yaml", PATCHES / "modest-go.yaml"
    assert errors("classic", [PATCHES / "lucky-go.yaml", luckier, modest]) == [
        ("variant-conflict", display_path(modest), 8, 24,
         "variants 'luckier-go' and 'modest-go' change the effect of the trigger 'lucky_go' differently",
         f"{display_path(luckier)}:8:24 sets it to 'collect 400', this file to 'collect 100'; use only one of these "
         "variants"),
    ]


def test_two_variants_changing_a_card_differently_conflict_and_alike_agree(tmp_path):
    one = variant(tmp_path, "one", 'decks:\n  chance:\n    change:\n      "Go Back 3 Spaces.": {count: 2}\n')
    same = variant(tmp_path, "same", 'decks:\n  chance:\n    change:\n      "Go Back 3 Spaces.": {count: 2}\n')
    other = variant(tmp_path, "other", 'decks:\n  chance:\n    change:\n      "Go Back 3 Spaces.": {count: 3}\n')
    assert ("Go Back 3 Spaces.", "move -3", 2) in cards_of(load_ruleset("classic", [str(one), str(same)]), "chance")
    assert errors("classic", [one, other]) == [
        ("variant-conflict", display_path(other), 8, 36,
         "variants 'one' and 'other' change the count of the card \"Go Back 3 Spaces.\" of deck 'chance' differently",
         f"{display_path(one)}:8:36 sets it to 2, this file to 3; use only one of these variants"),
    ]


def test_a_change_of_a_renamed_card_meets_the_changes_made_with_the_rename(tmp_path):
    taxing = PATCHES / "taxing-chance.yaml"
    change = 'decks:\n  chance:\n    change:\n      "Pay poor tax of $50.": {effect: %s}\n'
    same, kinder = variant(tmp_path, "same", change % "pay 50"), variant(tmp_path, "kinder", change % "pay 5")
    cards = cards_of(load_ruleset("classic", [str(taxing), str(same)]), "chance")
    assert ("Pay poor tax of $50.", "pay 50", 1) in cards
    [(code, file, line, column, message, hint)] = errors("classic", [taxing, kinder])
    assert (code, file, line, column) == ("variant-conflict", display_path(kinder), 8, 40)
    assert message == ("variants 'taxing-chance' and 'kinder' change the effect of the card \"Pay poor tax of $50.\" "
                       "of deck 'chance' differently")
    assert hint == (f"{display_path(taxing)}:9:68 sets it to 'pay 50', this file to 'pay 5'; use only one of "
                    "these variants")


def test_a_card_one_variant_adds_and_another_removes_conflicts(tmp_path):
    adds = variant(tmp_path, "adds", "decks:\n  chance:\n    add:\n      - {text: A gift., effect: collect 5}\n")
    removes = variant(tmp_path, "removes", "decks:\n  chance:\n    remove: [A gift.]\n")
    assert errors("classic", [adds, removes]) == [
        ("variant-conflict", display_path(removes), 7, 14,
         "variants 'adds' and 'removes' both patch the card \"A gift.\" of deck 'chance'",
         f"{display_path(adds)}:8:9 adds it, this file removes it; use only one of these variants"),
    ]


def test_replacing_a_deck_another_variant_patched_is_a_conflict(tmp_path):
    calm = PATCHES / "calm-chance.yaml"
    whole = variant(tmp_path, "whole", "decks:\n  chance:\n    cards: [{text: A., effect: collect 1}]\n")
    assert errors("classic", [calm, whole]) == [
        ("variant-conflict", display_path(whole), 7, 5,
         "variants 'calm-chance' and 'whole' both change deck 'chance'",
         f"{display_path(calm)}:8:5 patches its cards, and this file's `cards:` replace the whole deck and drop "
         "those changes; use only one of these variants, or apply 'whole' first"),
    ]
    # replaced first, the patches apply to the new cards: here they do not find theirs
    [(code, _, line, column, message, hint)] = errors("classic", [whole, calm])[:1]
    assert (code, line, column) == ("unknown-card", 9, 9)
    assert message.endswith("with the variant 'whole'")
    assert hint == f"the deck's cards are listed at {display_path(whole)}:7:12"


# --- like a user ---------------------------------------------------------------------------------------


def test_validate_reports_a_patch_problem_without_a_traceback(runner, cli):
    result = runner.invoke(cli, ["validate", str(PATCHES / "typo-card.yaml")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines()[0] == (
        f"{display_path(PATCHES / 'typo-card.yaml')}:9:9: error: no card \"Pay poor tax of $51.\" in deck 'chance' "
        f"of classic ({CLASSIC})")
    ok = runner.invoke(cli, ["validate", "classic", "--variant", str(PATCHES / "calm-chance.yaml"),
                             "--variant", str(PATCHES / "lucky-go.yaml")])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("name", sorted(p.name for p in PATCHES.glob("*.yaml")))
def test_every_fixture_starts_with_the_schema_line(name):
    text = (PATCHES / name).read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../../schema/ruleset.schema.json\n")


# --- properties -----------------------------------------------------------------------------------------


DECKS = {key: [c["text"] for c in deck["cards"]] for key, deck in CLASSIC_DATA["decks"].items()}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(DECKS)).flatmap(
    lambda key: st.tuples(st.just(key), st.lists(st.sampled_from(DECKS[key]), min_size=1, unique=True),
                          st.randoms(use_true_random=False))))
def test_removing_cards_then_adding_them_back_keeps_the_multiset_of_cards(case):
    key, texts, rng = case
    removed = [c for c in CLASSIC_DATA["decks"][key]["cards"] if c["text"] in texts]
    back = list(removed)
    rng.shuffle(back)
    with tempfile.TemporaryDirectory() as folder:
        patch = {"id": "round-trip", "kind": "variant", "name": "Round trip", "description": "out and back",
                 "decks": {key: {"remove": texts, "add": back}}}
        path = Path(folder) / "round-trip.yaml"
        path.write_text(yaml.safe_dump(patch, sort_keys=False), encoding="utf-8")
        cards = cards_of(load_ruleset("classic", [str(path)]), key)
    assert Counter(cards) == Counter(classic_cards(key))
    kept = [c for c in classic_cards(key) if c[0] not in texts]
    assert cards[:len(kept)] == kept
    assert cards[len(kept):] == [(c["text"], c["effect"], c.get("count", 1)) for c in back]
