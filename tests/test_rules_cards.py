"""Rule scenarios: Chance and Community Chest."""

from __future__ import annotations

import pytest

from tests.scenario import (
    ScriptedAgent,
    build,
    card_slot,
    of_type,
    own,
    payments,
    rolls,
    setup_game,
    sp,
    stack_deck,
)


def test_a_drawn_card_goes_to_the_bottom_of_its_deck():
    game, events = setup_game()
    order = stack_deck(game, "chance", "Bank pays you dividend")
    game.fix_dice([(3, 4)])  # GO -> 7 Chance
    game.play_turn()
    assert list(game.decks["chance"]) == order[1:] + order[:1]
    assert game.cash[0] == 1550
    assert payments(events) == [("bank", 0, 50, "Bank pays you dividend of $50.")]
    [card] = of_type(events, "card")
    assert card["deck"] == "chance" and card["text"].startswith("Bank pays you dividend")


def test_get_out_of_jail_free_is_held_out_of_the_deck():
    game, _events = setup_game()
    order = stack_deck(game, "community_chest", "Get Out of Jail Free")
    game.fix_dice([(1, 1), (4, 5)])  # GO -> 2 Community Chest (doubles) -> 11
    game.play_turn()
    assert game.held_cards[0] == [("community_chest", game.tables.decks["community_chest"][order[0]].index)]
    assert list(game.decks["community_chest"]) == order[1:]
    assert len(game.decks["community_chest"]) == 15
    assert game.cash[0] == 1500


def test_nearest_railroad_card_pays_twice_the_rent():
    game, events = setup_game()
    own(game, 1, "Reading Railroad", "Pennsylvania Railroad")
    stack_deck(game, "chance", "Advance token to the nearest Railroad")
    game.position[0] = 3
    game.fix_dice([(1, 3)])  # 3 -> 7 Chance -> 15 Pennsylvania Railroad
    game.play_turn()
    assert game.position[0] == sp(game, "Pennsylvania Railroad")
    assert payments(events) == [(0, 1, 100, "rent")]  # 2 x 50
    assert game.cash == [1400, 1600]


def test_nearest_railroad_card_from_the_last_chance_passes_go():
    game, events = setup_game()
    own(game, 1, "Reading Railroad")
    stack_deck(game, "chance", "Advance token to the nearest Railroad")
    game.position[0] = 33
    game.fix_dice([(1, 2)])  # 33 -> 36 Chance -> 5 Reading Railroad
    game.play_turn()
    assert game.position[0] == sp(game, "Reading Railroad")
    assert payments(events) == [("bank", 0, 200, "salary"), (0, 1, 50, "rent")]
    assert game.cash == [1650, 1550]


def test_nearest_railroad_card_to_an_unowned_railroad_offers_it():
    game, _events = setup_game(agents=[ScriptedAgent(buy=True), ScriptedAgent()])
    stack_deck(game, "chance", "Advance token to the nearest Railroad")
    game.position[0] = 3
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[sp(game, "Pennsylvania Railroad")] == 0
    assert game.cash[0] == 1300


@pytest.mark.parametrize("owned", [("Electric Company",), ("Electric Company", "Water Works")])
def test_nearest_utility_card_pays_ten_times_a_fresh_roll_whatever_the_owner_has(owned):
    game, events = setup_game()
    own(game, 1, *owned)
    stack_deck(game, "chance", "Advance token to nearest Utility")
    game.position[0] = 3
    game.fix_dice([(1, 3), (5, 6)])  # 3 -> 7 Chance -> 12 Electric Company; then throw 11
    game.play_turn()
    assert game.position[0] == sp(game, "Electric Company")
    assert rolls(events) == [(1, 3), (5, 6)]
    assert payments(events) == [(0, 1, 110, "rent")]
    assert game.cash == [1390, 1610]


def test_go_back_three_spaces_from_the_last_chance_lands_on_community_chest_and_draws():
    game, events = setup_game()
    chance = stack_deck(game, "chance", "Go Back 3 Spaces")
    chest = stack_deck(game, "community_chest", "Bank error in your favor")
    game.position[0] = 33
    game.fix_dice([(1, 2)])  # 33 -> 36 Chance -> back to 33 Community Chest
    game.play_turn()
    assert game.position[0] == 33
    assert [(e["deck"], e["text"][:16]) for e in of_type(events, "card")] == [
        ("chance", "Go Back 3 Spaces"), ("community_chest", "Bank error in yo")]
    assert payments(events) == [("bank", 0, 200, "Bank error in your favor. Collect $200.")]
    assert game.cash[0] == 1700
    assert list(game.decks["chance"]) == chance[1:] + chance[:1]
    assert list(game.decks["community_chest"]) == chest[1:] + chest[:1]


def test_go_back_three_spaces_to_income_tax_is_taxed():
    game, events = setup_game()
    stack_deck(game, "chance", "Go Back 3 Spaces")
    game.fix_dice([(3, 4)])  # GO -> 7 Chance -> 4 Income Tax (no salary going backwards)
    game.play_turn()
    assert game.position[0] == 4
    assert payments(events) == [(0, "bank", 200, "Income Tax")]


def test_advance_to_a_street_passing_go_collects_salary_and_pays_rent():
    game, events = setup_game()
    own(game, 1, "St. Charles Place")
    stack_deck(game, "chance", "Advance to St. Charles Place")
    game.position[0] = 33
    game.fix_dice([(1, 2)])  # 36 Chance -> 11 St. Charles Place, passing GO
    game.play_turn()
    assert game.position[0] == sp(game, "St. Charles Place")
    assert payments(events) == [("bank", 0, 200, "salary"), (0, 1, 10, "rent")]


def test_general_repairs_charge_per_house_and_hotel():
    game, events = setup_game()
    own(game, 0, "Mediterranean Avenue", "Baltic Avenue", "Park Place", "Boardwalk")
    build(game, {"Mediterranean Avenue": 2, "Baltic Avenue": 3, "Park Place": 5, "Boardwalk": 5})
    stack_deck(game, "chance", "Make general repairs")
    game.position[0] = 4
    game.fix_dice([(1, 2)])  # -> 7 Chance
    game.play_turn()
    assert payments(events) == [(0, "bank", 5 * 25 + 2 * 100, game.tables.decks["chance"][
        card_slot(game, "chance", "Make general repairs")].text)]
    assert game.cash[0] == 1500 - 325


def test_pay_each_player_and_collect_from_each_player():
    game, _events = setup_game(seats=3)
    stack_deck(game, "chance", "You have been elected Chairman")
    game.fix_dice([(3, 4)])
    game.play_turn()
    assert game.cash == [1400, 1550, 1550]
    stack_deck(game, "community_chest", "Grand Opera Night")
    game.position[1] = 0
    game.fix_dice([(1, 1), (4, 4)])  # seat 1: GO -> 2 Community Chest, doubles -> 10
    game.play_turn()
    assert game.cash == [1350, 1650, 1500]
