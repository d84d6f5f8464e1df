"""Rule scenarios: trades of lots, cash and held cards; mortgaged lots changing hands; no loans."""

from __future__ import annotations

from monopoly import Trade
from tests.scenario import (
    ScriptedAgent,
    build,
    hold_card,
    neutral_turn,
    of_type,
    own,
    payments,
    refusals,
    setup_game,
    snapshot,
    sp,
)


def test_trade_lots_cash_and_a_get_out_of_jail_free_card():
    agents = [ScriptedAgent(), ScriptedAgent(trade=True)]
    game, events = setup_game(agents=agents)
    baltic, reading = own(game, 0, "Baltic Avenue")[0], own(game, 1, "Reading Railroad")[0]
    card = hold_card(game, 0, "community_chest", "Get Out of Jail Free")
    deck_before = list(game.decks["community_chest"])
    offer = Trade(0, 1, give_spaces=(baltic,), give_cash=100, give_cards=(card,), get_spaces=(reading,))
    neutral_turn(game, 0, offer)
    assert agents[1].questions("answer_trade") == [(offer,)]
    assert game.owner[baltic] == 1 and game.owner[reading] == 0
    assert game.cash == [1400, 1600]
    assert game.held_cards == [[], [card]]
    assert list(game.decks["community_chest"]) == deck_before  # the card stays out of its deck
    assert payments(events) == [(0, 1, 100, "trade")]
    [trade] = of_type(events, "trade")
    assert trade["accepted"] is True


def test_a_declined_trade_changes_nothing():
    game, events = setup_game()
    baltic = own(game, 0, "Baltic Avenue")[0]
    before = snapshot(game)
    assert game.apply(0, Trade(0, 1, give_spaces=(baltic,), get_cash=500))
    assert snapshot(game) == before
    [trade] = of_type(events, "trade")
    assert trade["accepted"] is False


def test_a_traded_card_can_be_used_and_goes_back_to_its_own_deck():
    agents = [ScriptedAgent(), ScriptedAgent(trade=True, jail="card")]
    game, _events = setup_game(agents=agents)
    card = hold_card(game, 0, "chance", "Get out of Jail Free")
    assert game.apply(0, Trade(0, 1, give_cards=(card,), get_cash=30))
    assert game.held_cards == [[], [card]] and game.cash == [1530, 1470]
    game.current = 1
    game.position[1] = sp(game, "Jail")
    game.jail_turns[1] = 1
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.jail_turns[1] == -1 and game.position[1] == 13
    assert game.held_cards == [[], []]
    slot = game.decks["chance"][-1]
    assert (game.tables.decks["chance"][slot].deck, game.tables.decks["chance"][slot].index) == card


def test_no_lot_of_a_group_with_buildings_can_be_traded():
    game, events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    med, _baltic = own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    build(game, {"Baltic Avenue": 1})
    before = snapshot(game)
    assert not game.apply(0, Trade(0, 1, give_spaces=(med,), get_cash=100))
    assert snapshot(game) == before
    assert refusals(events) == ["Mediterranean Avenue is in a group with buildings: sell them first"]
    assert game.agents[1].questions("answer_trade") == []


def test_no_lot_of_the_partners_built_group_can_be_asked_for():
    game, _events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    own(game, 1, "Park Place", "Boardwalk")
    build(game, {"Park Place": 2, "Boardwalk": 2})
    before = snapshot(game)
    assert not game.apply(0, Trade(0, 1, give_cash=1000, get_spaces=(sp(game, "Park Place"),)))
    assert snapshot(game) == before


def test_no_loans_cash_offered_must_be_on_hand():
    game, events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)], cash=[300, 200])
    baltic, reading = own(game, 0, "Baltic Avenue")[0], own(game, 1, "Reading Railroad")[0]
    before = snapshot(game)
    assert not game.apply(0, Trade(0, 1, give_cash=301, get_spaces=(reading,)))
    assert not game.apply(0, Trade(0, 1, give_spaces=(baltic,), get_cash=201))
    assert snapshot(game) == before
    assert refusals(events) == ["you offer 301 but have 300 (no loans between players)",
                                "seat 1 has only 200 (no loans between players)"]
    assert game.apply(0, Trade(0, 1, give_cash=300, get_spaces=(reading,)))
    assert game.cash == [0, 500] and game.owner[reading] == 0


def test_a_trade_of_cash_alone_is_refused():
    game, _events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    before = snapshot(game)
    assert not game.apply(0, Trade(0, 1, give_cash=100))
    assert snapshot(game) == before


def test_a_trade_of_what_you_do_not_hold_is_refused():
    game, events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    baltic = own(game, 1, "Baltic Avenue")[0]
    before = snapshot(game)
    assert not game.apply(0, Trade(0, 1, give_spaces=(baltic,)))
    assert not game.apply(0, Trade(0, 1, give_cards=(("chance", 6),), get_spaces=(baltic,)))
    assert not game.apply(1, Trade(0, 1, get_spaces=(baltic,)))  # not seat 1's offer to make
    assert snapshot(game) == before
    assert len(refusals(events)) == 3


def test_a_mortgaged_lot_received_in_a_trade_costs_ten_percent_at_once():
    game, events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True, lift=False)])
    boardwalk = own(game, 0, "Boardwalk")[0]
    game.mortgaged[boardwalk] = True
    assert game.apply(0, Trade(0, 1, give_spaces=(boardwalk,), get_cash=100))
    assert game.owner[boardwalk] == 1 and game.mortgaged[boardwalk]
    assert game.agents[1].questions("lift_mortgage") == [(boardwalk,)]
    assert payments(events) == [(1, 0, 100, "trade"), (1, "bank", 20, "mortgage interest")]
    assert game.cash == [1600, 1380]


def test_a_mortgaged_lot_received_in_a_trade_may_be_lifted_at_once():
    game, events = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True, lift=True)])
    med = own(game, 0, "Mediterranean Avenue")[0]
    game.mortgaged[med] = True
    assert game.apply(0, Trade(0, 1, give_spaces=(med,)))
    assert game.owner[med] == 1 and not game.mortgaged[med]
    assert payments(events) == [(1, "bank", 33, "unmortgage")]
    assert game.cash == [1500, 1467]


def test_both_sides_pay_for_the_mortgaged_lots_they_receive():
    game, _events = setup_game(agents=[ScriptedAgent(lift=False), ScriptedAgent(trade=True, lift=False)])
    med, reading = own(game, 0, "Mediterranean Avenue")[0], own(game, 1, "Reading Railroad")[0]
    game.mortgaged[med] = game.mortgaged[reading] = True
    assert game.apply(0, Trade(0, 1, give_spaces=(med,), get_spaces=(reading,)))
    assert game.cash == [1490, 1497]


def test_a_trade_whose_mortgage_interest_ends_the_game_stops_there():
    """Two mortgaged lots swapped: the partner cannot pay the interest on the one it gets, goes bankrupt, and
    that leaves one player: the game is over, and nobody pays the interest on the other lot after its end
    (found by the invariant tests: uk, seed 0, six bots)."""
    import monopoly
    from monopoly.game.state import Setup

    classic = monopoly.load_ruleset("classic")
    setup = Setup(classic, players=2).give("Baltic Avenue", 0).mortgage("Baltic Avenue")
    setup.give("Oriental Avenue", 1).mortgage("Oriental Avenue").set_cash(0, 500).set_cash(1, 0)
    game = monopoly.Game.from_state(classic, [monopoly.make_agent("greedy"), monopoly.Agent()], setup.checked())
    events = []
    game.observe(events.append)

    class Accepts(monopoly.Agent):
        def answer_trade(self, game, seat, trade):
            return True

    game.seat_agents([monopoly.make_agent("greedy"), Accepts()])
    baltic, oriental = classic.space("Baltic Avenue").index, classic.space("Oriental Avenue").index
    assert game.apply(0, monopoly.Trade(0, 1, give_spaces=(baltic,), get_spaces=(oriental,)))
    assert game.finished and game.winner == 0 and game.bankrupt[1]
    assert events[-1]["type"] == "game_end"
