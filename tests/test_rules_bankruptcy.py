"""Rule scenarios: raising funds when short, bankruptcy to a player and to the bank, the end."""

from __future__ import annotations

import pytest

from monopoly import Build, GameOver, Mortgage, SellBuilding
from tests.scenario import (
    ScriptedAgent,
    build,
    hold_card,
    of_type,
    own,
    payments,
    refusals,
    setup_game,
    sp,
)


def land_on_luxury_tax(game, seat=0):
    game.current = seat
    game.position[seat] = 35
    game.fix_dice([(1, 2)])  # -> 38 Luxury Tax: owe 100
    game.play_turn()


def test_raising_funds_the_agent_mortgages_and_illegal_answers_are_refused():
    baltic_name = "Baltic Avenue"
    agents = [ScriptedAgent(), ScriptedAgent()]
    game, events = setup_game(agents=agents, cash=[0, 1500])
    reading, oriental = own(game, 0, "Reading Railroad", "Oriental Avenue")
    baltic = own(game, 1, baltic_name)[0]
    agents[0].script("raise_funds", [Mortgage(baltic), Mortgage(reading)])
    game.fix_dice([(1, 2)])  # GO -> 3 Baltic Avenue: rent 4
    game.play_turn()
    assert agents[0].questions("raise_funds") == [(4,), (4,)]
    assert refusals(events) == ["Baltic Avenue is not yours"]
    assert game.mortgaged[reading] and not game.mortgaged[oriental]
    assert payments(events) == [("bank", 0, 100, "mortgage"), (0, 1, 4, "rent")]
    assert game.cash == [96, 1504]
    assert not game.bankrupt[0]


def test_raising_funds_the_agent_sells_a_house():
    agents = [ScriptedAgent(), ScriptedAgent()]
    game, _events = setup_game(agents=agents, cash=[10, 1500])
    med, baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    agents[0].script("raise_funds", [SellBuilding(baltic), SellBuilding(med)])
    land_on_luxury_tax(game)
    assert (game.buildings[med], game.buildings[baltic]) == (0, 0)
    assert game.cash[0] == 10 + 25 + 25 + 30 + 30 - 100  # then the engine mortgages the rest
    assert game.houses_left == 32


def test_raising_funds_accepts_only_sales_and_mortgages():
    agents = [ScriptedAgent(), ScriptedAgent()]
    game, events = setup_game(agents=agents, cash=[60, 1500])
    med, _baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    agents[0].script("raise_funds", [Build(med)])
    land_on_luxury_tax(game)  # owes 100 with 60 in hand
    assert len(refusals(events)) == 1
    assert game.buildings[med] == 0
    # The engine then mortgages Mediterranean (30) and Baltic (30): 120 in hand, 20 left after the tax.
    assert game.cash[0] == 20 and not game.bankrupt[0]


def test_when_the_agent_gives_up_the_engine_raises_the_money_at_the_least_loss():
    # Mortgaging Reading gives up its 10% interest (10); each brown house sold would give up 25.
    game, events = setup_game(cash=[0, 1500])
    med, baltic, reading = own(game, 0, "Mediterranean Avenue", "Baltic Avenue", "Reading Railroad")
    build(game, {"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    land_on_luxury_tax(game)
    assert payments(events) == [("bank", 0, 100, "mortgage"), (0, "bank", 100, "Luxury Tax")]
    assert (game.buildings[med], game.buildings[baltic]) == (1, 1) and game.houses_left == 30
    assert not game.mortgaged[med] and not game.mortgaged[baltic] and game.mortgaged[reading]
    assert game.cash[0] == 0 and not game.bankrupt[0]


def test_the_engine_sells_the_cheapest_houses_first_and_stops_when_enough():
    game, _events = setup_game(cash=[0, 1500])
    own(game, 0, "Mediterranean Avenue", "Baltic Avenue", "Park Place", "Boardwalk")
    build(game, {"Mediterranean Avenue": 3, "Baltic Avenue": 3, "Park Place": 2, "Boardwalk": 2})
    land_on_luxury_tax(game)
    # A brown house gives up 25, a dark blue one 100: four brown houses, evenly, make exactly 100.
    assert [game.buildings[sp(game, n)] for n in ("Mediterranean Avenue", "Baltic Avenue", "Park Place",
                                                  "Boardwalk")] == [1, 1, 2, 2]
    assert game.cash[0] == 0
    assert not any(game.mortgaged)


def test_bankruptcy_to_a_player():
    agents = [ScriptedAgent(), ScriptedAgent(lift=lambda g, seat, space: space == sp(g, "Reading Railroad")),
              ScriptedAgent()]
    game, events = setup_game(agents=agents, cash=[50, 1500, 1500])
    med, baltic, reading = own(game, 0, "Mediterranean Avenue", "Baltic Avenue", "Reading Railroad")
    build(game, {"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    card = hold_card(game, 0, "community_chest", "Get Out of Jail Free")
    own(game, 1, "Park Place", "Boardwalk")
    build(game, {"Park Place": 5, "Boardwalk": 5})
    game.position[0] = 35
    game.fix_dice([(1, 3)])  # -> 39 Boardwalk with a hotel: rent 2000
    game.play_turn()
    assert game.bankrupt == [True, False, False]
    [bankrupt] = of_type(events, "bankrupt")
    assert (bankrupt["seat"], bankrupt["creditor"]) == (0, 1)
    # Owes 2000; everything would raise 260 at most: bankrupt at once, nothing mortgaged first. Houses back
    # to the bank at half (25 each), all the cash (50 + 50) to the creditor, the lots as they are.
    assert game.houses_left == 32 and game.hotels_left == 10
    assert [game.owner[s] for s in (med, baltic, reading)] == [1, 1, 1]
    assert [game.mortgaged[s] for s in (med, baltic, reading)] == [False, False, False]
    assert game.cash == [0, 1500 + 100, 1500]
    assert game.held_cards == [[], [card], []]
    assert agents[1].questions("lift_mortgage") == []
    assert payments(events)[-3:] == [("bank", 0, 25, "sell building"), ("bank", 0, 25, "sell building"),
                                     (0, 1, 100, "bankruptcy")]
    assert not game.finished and game.current == 1


def test_bankruptcy_to_the_bank_auctions_the_lots_and_returns_the_cards():
    agents = [ScriptedAgent(), ScriptedAgent(bid=[40]), ScriptedAgent(bid=[0])]
    game, events = setup_game(agents=agents, cash=[0, 1500, 1500])
    med = own(game, 0, "Mediterranean Avenue")[0]
    card = hold_card(game, 0, "chance", "Get out of Jail Free")
    deck_before = list(game.decks["chance"])
    land_on_luxury_tax(game)
    assert game.bankrupt == [True, False, False]
    [bankrupt] = of_type(events, "bankrupt")
    assert bankrupt["creditor"] == "bank"
    assert payments(events) == [(1, "bank", 40, "auction")]  # 30 could not cover 100: nothing mortgaged
    assert game.owner[med] == 1 and not game.mortgaged[med]
    assert game.cash == [0, 1460, 1500]
    assert game.held_cards[0] == []
    slots = game.tables.decks["chance"]
    assert list(game.decks["chance"]) == deck_before + [next(i for i, s in enumerate(slots) if s.index == card[1])]
    assert agents[0].questions("bid") == []  # the bankrupt does not bid
    assert not game.finished and game.current == 1


def test_a_lot_nobody_bids_for_stays_with_the_bank_unmortgaged():
    game, _events = setup_game(seats=3, cash=[0, 1500, 1500])
    med = own(game, 0, "Mediterranean Avenue")[0]
    land_on_luxury_tax(game)
    assert game.owner[med] == -1 and not game.mortgaged[med]


def test_the_game_ends_with_the_last_player_standing():
    game, events = setup_game(cash=[0, 1500])
    land_on_luxury_tax(game)
    assert game.finished and game.winner == 1 and game.end_reason == "last_standing"
    result = game.result()
    assert result.winner == 1 and result.end == "last_standing"
    assert [(s.seat, s.bankrupt) for s in result.standings] == [(1, False), (0, True)]
    assert events[-1]["type"] == "game_end" and events[-1]["winner"] == 1
    with pytest.raises(GameOver):
        game.play_turn()


def test_three_players_play_on_after_one_bankruptcy_until_one_is_left():
    game, _events = setup_game(seats=3, cash=[0, 0, 1500])
    land_on_luxury_tax(game, 0)
    assert not game.finished
    land_on_luxury_tax(game, 1)
    assert game.finished and game.winner == 2
    assert [s.seat for s in game.result().standings] == [2, 1, 0]
