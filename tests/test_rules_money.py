"""Rule scenarios: buying, auctions, rent (streets, railroads, utilities), taxes."""

from __future__ import annotations

import pytest

from tests.scenario import ScriptedAgent, build, of_type, own, payments, setup_game, sp

# ---------------------------------------------------------------- buying and auctions


def test_buy_at_the_printed_price():
    game, events = setup_game()
    game.agents[0].script("buy", True)
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # -> 39 Boardwalk
    game.play_turn()
    boardwalk = sp(game, "Boardwalk")
    assert game.owner[boardwalk] == 0
    assert game.cash == [1100, 1500]
    assert payments(events) == [(0, "bank", 400, "buy")]
    assert [(e["seat"], e["space"], e["price"]) for e in of_type(events, "buy")] == [(0, boardwalk, 400)]
    assert game.agents[0].questions("buy") == [(boardwalk,)]
    assert of_type(events, "auction") == []


def test_buying_with_exactly_the_price_in_hand():
    game, _events = setup_game(agents=[ScriptedAgent(buy=True), ScriptedAgent()], cash=[400, 1500])
    game.position[0] = 35
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[sp(game, "Boardwalk")] == 0 and game.cash == [0, 1500]


def test_declining_starts_an_auction_open_to_everyone_including_the_decliner():
    agents = [
        ScriptedAgent(buy=False, bid=[1, 0]),  # the decliner opens at 1 (below the price), then drops
        ScriptedAgent(bid=[0]),  # passes at once
        ScriptedAgent(bid=[5]),
    ]
    game, events = setup_game(agents=agents)
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # -> Boardwalk
    game.play_turn()
    boardwalk = sp(game, "Boardwalk")
    # Every seat was asked, the decliner first, from an opening of 0 (any price from min_bid 1).
    assert agents[0].questions("bid")[0] == (("space", boardwalk), 0, None)
    assert agents[1].questions("bid") == [(("space", boardwalk), 1, 0)]
    assert agents[2].questions("bid") == [(("space", boardwalk), 1, 0)]
    assert agents[0].questions("bid")[1] == (("space", boardwalk), 5, 2)
    assert game.owner[boardwalk] == 2
    assert game.cash == [1500, 1500, 1495]
    assert payments(events) == [(2, "bank", 5, "auction")]
    [auction] = of_type(events, "auction")
    assert (auction["space"], auction["winner"], auction["price"], auction["bids"]) == (boardwalk, 2, 5, 2)


def test_the_decliner_may_win_the_auction():
    agents = [ScriptedAgent(buy=False, bid=[10, 30]), ScriptedAgent(bid=[20, 0])]
    game, _events = setup_game(agents=agents)
    game.position[0] = 35
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[sp(game, "Boardwalk")] == 0
    assert game.cash == [1470, 1500]


def test_nobody_bidding_leaves_the_lot_with_the_bank():
    game, events = setup_game()
    game.position[0] = 35
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[sp(game, "Boardwalk")] == -1
    assert game.cash == [1500, 1500]
    [auction] = of_type(events, "auction")
    assert auction["winner"] is None and auction["price"] == 0


def test_an_unaffordable_lot_goes_to_auction_without_asking_to_buy():
    agents = [ScriptedAgent(buy=True, bid=[50, 0]), ScriptedAgent(bid=[250])]
    game, _events = setup_game(agents=agents, cash=[100, 1500])
    game.position[0] = 35
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert agents[0].questions("buy") == []
    assert game.owner[sp(game, "Boardwalk")] == 1
    assert game.cash == [100, 1250]


def test_a_bid_above_cash_is_refused_and_drops_the_bidder():
    agents = [ScriptedAgent(buy=False, bid=[2000]), ScriptedAgent(bid=[10])]
    game, events = setup_game(agents=agents)
    game.position[0] = 35
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[sp(game, "Boardwalk")] == 1
    assert game.cash == [1500, 1490]
    assert len(of_type(events, "refused")) == 1 and agents[0].refusals


# ---------------------------------------------------------------- street rent


def land_on_baltic(game):
    game.position[0] = 0
    game.fix_dice([(1, 2)])  # -> 3 Baltic Avenue
    game.play_turn()


def test_rent_on_a_lone_street():
    game, events = setup_game()
    own(game, 1, "Baltic Avenue")
    land_on_baltic(game)
    assert game.cash == [1496, 1504]
    assert payments(events) == [(0, 1, 4, "rent")]


def test_rent_doubled_on_an_unimproved_full_group():
    game, _events = setup_game()
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    land_on_baltic(game)
    assert game.cash == [1492, 1508]


def test_rent_still_doubled_when_another_lot_of_the_group_is_mortgaged():
    game, _events = setup_game()
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    game.mortgaged[sp(game, "Mediterranean Avenue")] = True
    land_on_baltic(game)
    assert game.cash == [1492, 1508]


def test_an_unimproved_lot_of_a_full_group_is_doubled_even_when_another_lot_has_a_house():
    # The rulebook: the owner of a whole group "may charge double rent for unimproved properties" of it.
    game, events = setup_game()
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": 1})
    land_on_baltic(game)
    assert payments(events) == [(0, 1, 8, "rent")]


def test_no_rent_on_a_mortgaged_lot():
    game, events = setup_game()
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    game.mortgaged[sp(game, "Baltic Avenue")] = True
    land_on_baltic(game)
    assert game.cash == [1500, 1500]
    assert payments(events) == []


@pytest.mark.parametrize(("level", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), (5, 450)])
def test_rent_by_houses_and_hotel(level, rent):
    game, events = setup_game()
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": level, "Baltic Avenue": level})
    land_on_baltic(game)
    assert game.cash == [1500 - rent, 1500 + rent]
    assert payments(events) == [(0, 1, rent, "rent")]


def test_rent_is_collected_while_the_owner_is_in_jail():
    game, _events = setup_game()
    own(game, 1, "Baltic Avenue")
    game.position[1] = sp(game, "Jail")
    game.jail_turns[1] = 1
    land_on_baltic(game)
    assert game.cash == [1496, 1504]


def test_no_rent_on_your_own_lot():
    game, events = setup_game()
    own(game, 0, "Baltic Avenue")
    land_on_baltic(game)
    assert game.cash == [1500, 1500] and payments(events) == []


# ---------------------------------------------------------------- railroads and utilities

RAILROADS = ["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]


@pytest.mark.parametrize(("count", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_by_number_owned(count, rent):
    game, events = setup_game()
    own(game, 1, *RAILROADS[:count])
    game.fix_dice([(1, 4)])  # GO -> 5 Reading Railroad
    game.play_turn()
    assert game.cash == [1500 - rent, 1500 + rent]
    assert payments(events) == [(0, 1, rent, "rent")]


@pytest.mark.parametrize(("owned", "rent"), [(("Electric Company",), 4 * 7),
                                             (("Electric Company", "Water Works"), 10 * 7)])
def test_utility_rent_is_a_multiple_of_the_dice(owned, rent):
    game, events = setup_game()
    own(game, 1, *owned)
    game.position[0] = 5
    game.fix_dice([(3, 4)])  # 5 -> 12 Electric Company
    game.play_turn()
    assert game.cash == [1500 - rent, 1500 + rent]
    assert payments(events) == [(0, 1, rent, "rent")]


def test_mortgaged_railroads_still_count_for_the_rent_of_the_others():
    game, events = setup_game()
    own(game, 1, "Reading Railroad", "Short Line")
    game.mortgaged[sp(game, "Short Line")] = True
    game.fix_dice([(1, 4)])
    game.play_turn()
    assert payments(events) == [(0, 1, 50, "rent")]


# ---------------------------------------------------------------- taxes


def land_on_income_tax(game):
    game.position[0] = 0
    game.fix_dice([(1, 3)])
    game.play_turn()


def test_income_tax_pay_200():
    game, events = setup_game(agents=[ScriptedAgent(choose=[0]), ScriptedAgent()])
    land_on_income_tax(game)
    assert game.agents[0].questions("choose") == [(("pay 200", "pay 10% of net worth"),)]
    assert game.cash == [1300, 1500]
    assert payments(events) == [(0, "bank", 200, "Income Tax")]


def test_income_tax_ten_percent_of_net_worth():
    game, events = setup_game(agents=[ScriptedAgent(choose=[1]), ScriptedAgent()], cash=[1000, 1500])
    own(game, 0, "Boardwalk", "Mediterranean Avenue", "Baltic Avenue",
        "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    game.mortgaged[sp(game, "Boardwalk")] = True  # counted at its printed price all the same
    build(game, {"Mediterranean Avenue": 2, "Baltic Avenue": 2,
                 "Oriental Avenue": 5, "Vermont Avenue": 5, "Connecticut Avenue": 5})
    # cash 1000 + prices 400 + 60 + 60 + 100 + 100 + 120 + 4 houses x 50 + 3 hotels x (4 + 1) x 50
    worth = 1000 + 400 + 60 + 60 + 100 + 100 + 120 + 200 + 750
    assert game.net_worth(0) == worth == 2790
    land_on_income_tax(game)
    assert game.cash == [1000 - 279, 1500]
    assert payments(events) == [(0, "bank", 279, "Income Tax")]


def test_an_impossible_choice_is_refused_and_counts_as_the_first():
    game, events = setup_game(agents=[ScriptedAgent(choose=[5]), ScriptedAgent()])
    land_on_income_tax(game)
    assert len(of_type(events, "refused")) == 1
    assert payments(events) == [(0, "bank", 200, "Income Tax")]


def test_luxury_tax():
    game, events = setup_game()
    game.position[0] = 35
    game.fix_dice([(1, 2)])  # -> 38 Luxury Tax
    game.play_turn()
    assert game.cash == [1400, 1500]
    assert payments(events) == [(0, "bank", 100, "Luxury Tax")]
    assert game.pot == 0


def test_the_prices_of_lifting_a_mortgage_and_selling_back_follow_the_games_rules():
    """Lifting a mortgage costs its value and the interest rounded up (Boardwalk: 200 + 20), a building sells back at
    half its cost (dark blue: 100); worked out once by the game's rules, and again when the game's rules change."""
    import attrs

    game, _events = setup_game()
    boardwalk = sp(game, "Boardwalk")
    dark_blue = game.tables.group_of[boardwalk]
    assert (game.unmortgage_cost(boardwalk), game.sell_value(dark_blue)) == (220, 100)
    assert game.unmortgage_cost(sp(game, "Mediterranean Avenue")) == 33  # 30 and 10% of it, 3
    rules = game.rules
    game.rules = attrs.evolve(rules, mortgage_interest=0.25,
                              building=attrs.evolve(rules.building, sell_back=0.75))
    assert (game.unmortgage_cost(boardwalk), game.sell_value(dark_blue)) == (250, 150)
    assert game.unmortgage_cost(sp(game, "Mediterranean Avenue")) == 38  # 30 and 7.5 rounded up
    game.rules = rules
    assert (game.unmortgage_cost(boardwalk), game.sell_value(dark_blue)) == (220, 100)
