"""Rule scenarios: building and selling evenly, hotels, the bank's stock and its shortage auction,
mortgages, and the refusal of illegal actions."""

from __future__ import annotations

import pytest

from monopoly import Build, Mortgage, SellBuilding, Trade, Unmortgage
from tests.scenario import (
    ScriptedAgent,
    build,
    neutral_turn,
    of_type,
    own,
    payments,
    refusals,
    setup_game,
    snapshot,
    sp,
)


def browns(game, seat=0):
    return own(game, seat, "Mediterranean Avenue", "Baltic Avenue")


def test_build_a_house_at_the_group_cost_in_the_between_turns_phase():
    game, events = setup_game()
    med, baltic = browns(game)
    neutral_turn(game, 0, Build(med))
    assert game.buildings[med] == 1 and game.buildings[baltic] == 0
    assert game.cash[0] == 1450
    assert game.houses_left == 31 and game.hotels_left == 12
    assert (0, "bank", 50, "build") in payments(events)
    assert [(e["space"], e["level"]) for e in of_type(events, "build")] == [(med, 1)]


def test_building_needs_the_whole_group():
    game, events = setup_game()
    med = sp(game, "Mediterranean Avenue")
    game.give(med, 0)
    before = snapshot(game)
    assert not game.apply(0, Build(med))
    assert snapshot(game) == before
    assert refusals(events) == ["you need the whole brown group to build on Mediterranean Avenue"]


def test_building_is_refused_when_a_lot_of_the_group_is_mortgaged():
    game, events = setup_game()
    med, baltic = browns(game)
    game.mortgaged[baltic] = True
    before = snapshot(game)
    assert not game.apply(0, Build(med))
    assert snapshot(game) == before and len(refusals(events)) == 1


def test_build_evenly():
    game, events = setup_game()
    med, baltic = browns(game)
    assert game.apply(0, Build(med))
    before = snapshot(game)
    assert not game.apply(0, Build(med))  # Baltic has none yet
    assert snapshot(game) == before
    assert refusals(events) == ["build evenly: another lot of the group has fewer buildings than "
                                "Mediterranean Avenue"]
    assert game.apply(0, Build(baltic)) and game.apply(0, Build(med))
    assert (game.buildings[med], game.buildings[baltic]) == (2, 1)
    assert game.cash[0] == 1350 and game.houses_left == 29


def test_a_hotel_only_on_a_full_row_of_houses():
    game, events = setup_game()
    med, baltic = browns(game)
    build(game, {"Mediterranean Avenue": 4, "Baltic Avenue": 3})
    assert game.houses_left == 25
    before = snapshot(game)
    assert not game.apply(0, Build(med))
    assert snapshot(game) == before
    assert game.apply(0, Build(baltic))
    assert game.apply(0, Build(med))  # the hotel: four houses go back to the bank
    assert (game.buildings[med], game.buildings[baltic]) == (5, 4)
    assert game.houses_left == 24 + 4 and game.hotels_left == 11
    assert game.cash[0] == 1500 - 50 - 50
    assert not game.apply(0, Build(med))  # already a hotel
    assert refusals(events)[-1] == "Mediterranean Avenue already has a hotel"


def test_a_hotel_is_level_houses_per_hotel_plus_one_and_earns_the_last_rent_figure():
    game, _events = setup_game()
    browns(game)
    build(game, {"Mediterranean Avenue": 5, "Baltic Avenue": 5})
    assert game.rent_due(sp(game, "Baltic Avenue")) == 450


def test_no_house_when_the_bank_has_none_left():
    game, events = setup_game()
    med, _baltic = browns(game)
    game.houses_left = 0
    before = snapshot(game)
    assert not game.apply(0, Build(med))
    assert snapshot(game) == before
    assert refusals(events) == ["the bank has no houses left"]


def test_no_hotel_when_the_bank_has_none_left():
    game, events = setup_game()
    med, _baltic = browns(game)
    build(game, {"Mediterranean Avenue": 4, "Baltic Avenue": 4})
    game.hotels_left = 0
    before = snapshot(game)
    assert not game.apply(0, Build(med))
    assert snapshot(game) == before
    assert refusals(events) == ["the bank has no hotels left"]


def test_the_bank_starts_with_32_houses_and_12_hotels():
    game, _events = setup_game()
    assert (game.houses_left, game.hotels_left) == (32, 12)


def shortage_position(game):
    """Seat 0 has the browns, seat 1 the light blues; 31 houses are out, one is left."""
    browns(game, 0)
    own(game, 1, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue",
        "Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue",
        "Atlantic Avenue", "Ventnor Avenue", "Marvin Gardens", "Park Place", "Boardwalk")
    build(game, {"Pacific Avenue": 4, "North Carolina Avenue": 4, "Pennsylvania Avenue": 4,
                 "Atlantic Avenue": 4, "Ventnor Avenue": 4, "Marvin Gardens": 4,
                 "Park Place": 4, "Boardwalk": 3})
    assert game.houses_left == 1


def test_shortage_auction_when_several_players_want_the_last_house():
    agents = [ScriptedAgent(bid=[60, 0]), ScriptedAgent(bid=[70])]
    game, events = setup_game(agents=agents)
    shortage_position(game)
    med = sp(game, "Mediterranean Avenue")
    assert game.apply(0, Build(med))
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("house", 1, 70)
    assert agents[0].questions("bid")[0] == (("house", None), 49, None)  # opens at the brown house cost, 50
    # Seat 1 won: it pays its bid and its house goes on a lot where it may build.
    assert game.houses_left == 0
    assert game.buildings[med] == 0
    assert sum(game.buildings[s] for s in game.tables.ownable if game.owner[s] == 1) == 32
    assert game.cash == [1500, 1430]
    assert payments(events) == [(1, "bank", 70, "building auction")]


def test_shortage_auction_won_by_the_builder_places_the_house_where_asked():
    agents = [ScriptedAgent(bid=[55]), ScriptedAgent(bid=[0])]
    game, _events = setup_game(agents=agents)
    shortage_position(game)
    baltic = sp(game, "Baltic Avenue")
    assert game.apply(0, Build(baltic))
    assert game.buildings[baltic] == 1 and game.houses_left == 0
    assert game.cash == [1445, 1500]


def test_shortage_auction_for_the_last_hotel():
    agents = [ScriptedAgent(bid=[100, 0]), ScriptedAgent(bid=[150])]
    game, events = setup_game(agents=agents)
    med, _baltic = browns(game, 0)
    own(game, 1, "St. James Place", "Tennessee Avenue", "New York Avenue",
        "Kentucky Avenue", "Indiana Avenue", "Illinois Avenue", "Atlantic Avenue", "Ventnor Avenue",
        "Marvin Gardens", "Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue", "Park Place",
        "Boardwalk")
    build(game, {"Mediterranean Avenue": 4, "Baltic Avenue": 4,
                 "St. James Place": 4, "Tennessee Avenue": 4, "New York Avenue": 4})
    build(game, {name: 5 for name in ("Kentucky Avenue", "Indiana Avenue", "Illinois Avenue", "Atlantic Avenue",
                                      "Ventnor Avenue", "Marvin Gardens", "Pacific Avenue",
                                      "North Carolina Avenue", "Pennsylvania Avenue", "Park Place", "Boardwalk")})
    assert (game.houses_left, game.hotels_left) == (12, 1)
    assert game.apply(0, Build(med))
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("hotel", 1, 150)
    assert game.buildings[sp(game, "St. James Place")] == 5 and game.buildings[med] == 4
    assert (game.houses_left, game.hotels_left) == (16, 0)
    assert game.cash == [1500, 1350]


def test_no_shortage_auction_when_only_one_player_can_build():
    game, events = setup_game()
    shortage_position(game)
    game.cash[1] = 10  # cannot pay for a house
    med = sp(game, "Mediterranean Avenue")
    assert game.apply(0, Build(med))
    assert of_type(events, "auction") == []
    assert game.buildings[med] == 1 and game.cash[0] == 1450 and game.houses_left == 0


# ---------------------------------------------------------------- selling


def test_sell_a_house_back_at_half_price():
    game, events = setup_game()
    own(game, 0, "Park Place", "Boardwalk")
    build(game, {"Park Place": 1, "Boardwalk": 1})
    boardwalk = sp(game, "Boardwalk")
    neutral_turn(game, 0, SellBuilding(boardwalk))
    assert game.buildings[boardwalk] == 0 and game.cash[0] == 1600
    assert game.houses_left == 31
    assert ("bank", 0, 100, "sell building") in payments(events)


def test_sell_evenly():
    game, events = setup_game()
    med, baltic = browns(game)
    build(game, {"Mediterranean Avenue": 2, "Baltic Avenue": 3})
    before = snapshot(game)
    assert not game.apply(0, SellBuilding(med))
    assert snapshot(game) == before
    assert refusals(events) == ["sell evenly: another lot of the group has more buildings than "
                                "Mediterranean Avenue"]
    assert game.apply(0, SellBuilding(baltic))
    assert (game.buildings[med], game.buildings[baltic]) == (2, 2) and game.cash[0] == 1525


def test_breaking_a_hotel_down_gives_back_four_houses_and_half_the_hotel_cost():
    game, _events = setup_game()
    _med, baltic = browns(game)
    build(game, {"Mediterranean Avenue": 5, "Baltic Avenue": 5})
    assert (game.houses_left, game.hotels_left) == (32, 10)
    assert game.apply(0, SellBuilding(baltic))
    assert game.buildings[baltic] == 4
    assert (game.houses_left, game.hotels_left) == (28, 11)
    assert game.cash[0] == 1525


def test_selling_a_hotel_without_four_houses_in_the_bank_breaks_the_group_down_as_far_as_they_allow():
    game, _events = setup_game()
    med, baltic = browns(game)
    build(game, {"Mediterranean Avenue": 5, "Baltic Avenue": 5})
    game.houses_left = 2
    assert game.apply(0, SellBuilding(baltic))
    assert (game.buildings[med], game.buildings[baltic]) == (1, 1)  # the bank's 2 houses, evenly
    assert (game.houses_left, game.hotels_left) == (0, 12)
    assert game.cash[0] == 1500 + 8 * 25


# ---------------------------------------------------------------- mortgages


def test_mortgage_pays_the_mortgage_value():
    game, events = setup_game()
    boardwalk = sp(game, "Boardwalk")
    game.give(boardwalk, 0)
    neutral_turn(game, 0, Mortgage(boardwalk))
    assert game.mortgaged[boardwalk] and game.cash[0] == 1700
    assert ("bank", 0, 200, "mortgage") in payments(events)


def test_no_mortgage_while_the_group_has_buildings():
    game, events = setup_game()
    med, _baltic = browns(game)
    build(game, {"Mediterranean Avenue": 0, "Baltic Avenue": 1})
    before = snapshot(game)
    assert not game.apply(0, Mortgage(med))
    assert snapshot(game) == before
    assert refusals(events) == ["sell the buildings of the brown group before mortgaging Mediterranean Avenue"]


def test_no_double_mortgage():
    game, _events = setup_game()
    med, _baltic = browns(game)
    game.mortgaged[med] = True
    before = snapshot(game)
    assert not game.apply(0, Mortgage(med))
    assert snapshot(game) == before


@pytest.mark.parametrize(("name", "cost"), [("Mediterranean Avenue", 33), ("Electric Company", 83),
                                            ("Park Place", 193), ("Boardwalk", 220)])
def test_unmortgage_at_ten_percent_rounded_up(name, cost):
    game, events = setup_game()
    s = sp(game, name)
    game.give(s, 0)
    game.mortgaged[s] = True
    neutral_turn(game, 0, Unmortgage(s))
    assert not game.mortgaged[s]
    assert game.cash[0] == 1500 - cost
    assert (0, "bank", cost, "unmortgage") in payments(events)


def test_unmortgage_needs_the_cash():
    game, _events = setup_game(cash=[32, 1500])
    med = sp(game, "Mediterranean Avenue")
    game.give(med, 0)
    game.mortgaged[med] = True
    before = snapshot(game)
    assert not game.apply(0, Unmortgage(med))
    assert snapshot(game) == before


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("action", [
    Build(3), SellBuilding(3), Mortgage(3), Unmortgage(3),  # not yours
    Build(0), Mortgage(7), Build(5),  # nothing to build or mortgage there
    Build(99), "fly to the moon", Trade(0, 0, give_spaces=(1,)),
])
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(action):
    game, events = setup_game()
    game.give(sp(game, "Baltic Avenue"), 1)
    game.give(sp(game, "Mediterranean Avenue"), 0)
    game.give(sp(game, "Reading Railroad"), 0)
    game.mortgaged[sp(game, "Baltic Avenue")] = True
    before = snapshot(game)
    neutral_turn(game, 0, action)
    after = snapshot(game)
    # Only the quiet turn's move happened.
    before["position"][0] = 10
    assert after == before
    [refused] = of_type(events, "refused")
    assert refused["seat"] == 0 and refused["reason"]
    assert game.agents[0].refusals and game.agents[0].refusals[0][1] == refused["reason"]
