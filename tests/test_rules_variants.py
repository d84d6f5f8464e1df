"""Rule scenarios: the shipped variants (short-game, time-limit, free-parking-jackpot, income-tax-2008,
tournament)."""

from __future__ import annotations

import pytest

from monopoly import Build, SellBuilding
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
    stack_deck,
)

# ---------------------------------------------------------------- short game and time limit


@pytest.mark.parametrize("variant", ["short-game", "time-limit"])
@pytest.mark.parametrize("seed", [1, 2])
def test_two_deeds_dealt_to_each_player_at_the_printed_price(variant, seed):
    game, _events = setup_game(variants=[variant], seats=4, seed=seed)
    price = game.tables.price
    for seat in range(4):
        lots = [s for s in game.tables.ownable if game.owner[s] == seat]
        assert len(lots) == 2
        assert game.cash[seat] == 1500 - sum(price[s] for s in lots)
    assert not any(game.mortgaged) and not any(game.buildings)


def test_classic_deals_no_deeds():
    game, _events = setup_game(seats=4)
    assert all(o == -1 for o in game.owner) and game.cash == [1500] * 4


def test_short_game_hotel_after_three_houses():
    game, _events = setup_game(variants=["short-game"], clear_deeds=True)
    med, baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": 3, "Baltic Avenue": 3})
    assert game.houses_left == 26
    assert game.apply(0, Build(med))
    assert game.buildings[med] == 4 == game.tables.hotel_level
    assert (game.houses_left, game.hotels_left) == (29, 11)
    assert game.cash[0] == 1500 - 50
    assert game.rent_due(med) == 250  # the hotel rent
    assert game.rent_due(baltic) == 180  # three houses
    assert not game.apply(0, Build(med))  # nothing above a hotel


def test_short_game_ends_at_the_second_bankruptcy_and_the_richest_by_valuation_wins():
    game, _events = setup_game(variants=["short-game"], seats=4, clear_deeds=True, cash=[100, 250, 0, 0])
    boardwalk = own(game, 0, "Boardwalk")[0]
    game.mortgaged[boardwalk] = True  # valued at half its price: 100 + 200 = 300 > 250
    for seat in (2, 3):
        game.current = seat
        game.position[seat] = 35
        game.fix_dice([(1, 2)])  # Luxury Tax, nothing to pay it with
        game.play_turn()
        if seat == 2:
            assert not game.finished
    assert game.bankrupt == [False, False, True, True]
    assert game.finished and game.end_reason == "bankruptcies" and game.winner == 0
    assert [s.seat for s in game.result().standings] == [0, 1, 3, 2]
    assert [s.net_worth for s in game.result().standings][:2] == [300, 250]


def test_time_limit_does_not_stop_before_the_round_limit():
    game, _events = setup_game(variants=["time-limit"], clear_deeds=True)
    game.round = 98
    game.current = 1  # the last seat of round 98 (the 99th round)
    game.fix_dice([(4, 6)])
    game.play_turn()
    assert not game.finished and game.round == 99


def test_time_limit_ends_when_the_last_round_is_complete():
    game, events = setup_game(variants=["time-limit"], clear_deeds=True, cash=[1500, 1600])
    assert game.rules.end.rounds == 100
    game.round = 99
    game.current = 1  # the last seat of the 100th round
    game.fix_dice([(4, 6), (4, 6)])
    game.play_turn()
    assert game.finished and game.end_reason == "time" and game.winner == 1
    assert len(of_type(events, "turn")) == 1


def test_time_limit_ends_at_the_round_limit_and_the_richest_wins():
    game, _events = setup_game(variants=["time-limit"], clear_deeds=True, cash=[1500, 1600])
    game.round = 99
    game.current = 1
    game.fix_dice([(4, 6), (4, 6)])
    for _ in range(2):
        if not game.finished:
            game.play_turn()
    assert game.finished and game.end_reason == "time" and game.winner == 1
    assert game.result().end == "time"


# ---------------------------------------------------------------- free parking jackpot


def test_jackpot_fills_with_taxes_fines_and_card_payments_and_free_parking_takes_it():
    agents = [ScriptedAgent(choose=[0], jail="pay"), ScriptedAgent()]
    game, events = setup_game(variants=["free-parking-jackpot"], agents=agents)
    game.fix_dice([(1, 3)])  # GO -> Income Tax: 200
    game.play_turn()
    assert game.pot == 200 and game.cash[0] == 1300
    stack_deck(game, "chance", "Pay poor tax")
    game.current, game.position[1] = 1, 4
    game.fix_dice([(1, 2)])  # -> 7 Chance: poor tax 15
    game.play_turn()
    assert game.pot == 215 and game.cash[1] == 1485
    game.current = 0
    game.position[0], game.jail_turns[0] = sp(game, "Jail"), 0
    game.fix_dice([(4, 6)])  # pays the fine (50) and rolls 10 -> Free Parking
    game.play_turn()
    assert payments(events)[-2:] == [(0, "pot", 50, "jail fine"), ("pot", 0, 265, "pot")]
    assert game.pot == 0
    assert game.cash == [1300 - 50 + 265, 1485]


def test_classic_has_no_pot():
    agents = [ScriptedAgent(choose=[0]), ScriptedAgent()]
    game, events = setup_game(agents=agents)
    game.fix_dice([(1, 3), (4, 6)])
    game.play_turn()
    assert payments(events) == [(0, "bank", 200, "Income Tax")] and game.pot == 0
    game.current, game.position[1] = 1, 10
    game.play_turn()  # 10 -> Free Parking: nothing
    assert game.cash == [1300, 1500] and game.pot == 0


def test_rent_and_buying_do_not_go_to_the_pot():
    game, _events = setup_game(variants=["free-parking-jackpot"])
    own(game, 1, "Baltic Avenue")
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.pot == 0 and game.cash == [1496, 1504]


# ---------------------------------------------------------------- 2008 income tax


def test_income_tax_2008_is_a_flat_200_with_no_choice():
    game, events = setup_game(variants=["income-tax-2008"], cash=[1000, 1500])
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.agents[0].questions("choose") == []
    assert payments(events) == [(0, "bank", 200, "Income Tax")]
    assert game.cash[0] == 800


# ---------------------------------------------------------------- tournament


def hotels_on_browns(variants, players=2):
    agents = [ScriptedAgent() for _ in range(players)]
    game, events = setup_game(variants=variants, agents=agents, seats=players, cash=[0] + [1500] * (players - 1))
    med, baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": 5, "Baltic Avenue": 5})
    own(game, 1, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")  # a rival who may build (50 a house)
    return game, events, med, baltic


SHORTAGE_REFUSED = ("breaking the hotel on {} down into houses would leave the bank with fewer houses than the "
                    "other players could build: hotels may not be broken down to create a housing shortage, only to "
                    "raise money for a debt")


def test_tournament_refuses_breaking_a_hotel_down_into_a_shortage_outside_a_debt():
    game, events, med, _baltic = hotels_on_browns(["tournament"])
    game.houses_left = 4  # breaking the hotel would take the bank's last houses; the rival wants 12
    before = snapshot(game)
    neutral_turn(game, 0, SellBuilding(med))
    before["position"][0] = 10
    assert snapshot(game) == before
    assert refusals(events) == [SHORTAGE_REFUSED.format("Mediterranean Avenue")]


def test_tournament_the_1983_ruling_as_written_three_hotels_to_twelve_houses():
    """The tournament rule (the 1983 ruling): hotels may not be broken down into houses to create a housing
    shortage, only to raise money for a debt. The tactic it forbade: three hotels broken down into twelve houses so
    that the rivals cannot buy. With 13 houses in the bank and two rivals who could build two houses each (their
    cash allowing), the first two breakdowns leave 9 and 5 houses, enough for the four wanted; the third would
    leave one for the four: refused, and nothing changes."""
    game, events = setup_game(variants=["tournament"], seats=3, cash=[0, 100, 200])
    lots = own(game, 0, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    build(game, {"Oriental Avenue": 5, "Vermont Avenue": 5, "Connecticut Avenue": 5})
    own(game, 1, "Mediterranean Avenue", "Baltic Avenue")  # houses at 50: 100 pays for two
    own(game, 2, "St. Charles Place", "States Avenue", "Virginia Avenue")  # houses at 100: 200 pays for two
    game.houses_left = 13
    assert game.apply(0, SellBuilding(lots[0])) and game.houses_left == 9
    assert game.apply(0, SellBuilding(lots[1])) and game.houses_left == 5
    before = snapshot(game)
    assert SellBuilding(lots[2]) not in game.legal_actions(0)
    assert not game.apply(0, SellBuilding(lots[2]))
    assert snapshot(game) == before and game.buildings[lots[2]] == 5
    assert refusals(events) == [SHORTAGE_REFUSED.format("Connecticut Avenue")]


def test_tournament_allows_a_breakdown_that_empties_the_bank_when_no_rival_could_build():
    """What is measured is what the other players could want: none of them owns a group to build on (or has the
    cash), so the bank's last houses go to the hotel's owner."""
    game, events = setup_game(variants=["tournament"], cash=[0, 1500])
    med, _baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": 5, "Baltic Avenue": 5})
    own(game, 1, "Oriental Avenue", "Vermont Avenue")  # two of three light blues: nothing to build on
    game.houses_left = 4
    assert game.apply(0, SellBuilding(med))
    assert game.buildings[med] == 4 and game.houses_left == 0 and refusals(events) == []


def test_tournament_allows_breaking_a_hotel_down_when_it_causes_no_shortage():
    game, _events, med, _baltic = hotels_on_browns(["tournament"])
    assert game.apply(0, SellBuilding(med))
    assert game.buildings[med] == 4 and game.houses_left == 28 and game.cash[0] == 25


def test_classic_allows_breaking_a_hotel_down_any_time():
    game, _events, med, _baltic = hotels_on_browns([])
    assert game.apply(0, SellBuilding(med))
    assert game.buildings[med] == 4 and game.cash[0] == 25


def test_tournament_allows_breaking_a_hotel_down_to_raise_money_for_a_debt():
    game, events, med, baltic = hotels_on_browns(["tournament"])
    game.agents[0].script("raise_funds", [SellBuilding(med), SellBuilding(baltic), SellBuilding(med),
                                          SellBuilding(baltic)])
    game.current, game.position[0] = 0, 35
    game.fix_dice([(1, 2)])  # Luxury Tax: 100
    game.play_turn()
    assert refusals(events) == []
    assert (game.buildings[med], game.buildings[baltic]) == (3, 3)
    assert (game.houses_left, game.hotels_left) == (26, 12)
    assert game.cash[0] == 0
    assert of_type(events, "bankrupt") == []


def test_tournament_engine_breaks_hotels_down_when_the_agent_gives_up_on_a_debt():
    game, events, med, baltic = hotels_on_browns(["tournament"])
    game.current, game.position[0] = 0, 35
    game.fix_dice([(1, 2)])  # Luxury Tax: 100, four sales of 25
    game.play_turn()
    assert refusals(events) == []
    assert (game.buildings[med], game.buildings[baltic]) == (3, 3)
    assert game.cash[0] == 0 and not game.bankrupt[0]
