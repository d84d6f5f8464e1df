"""The positions an outside examiner could not set up (issue 31, item 4), each set up exactly with ``Setup`` and
played on with ``Game.from_state``: a game the caller drives from a position, the bank's stock and the pot, a
hotel by name whatever level the ruleset gives it, the variants that deal deeds at the start without their deal,
a jailed seat asked about, and the decks by slot. Every bad set-up is a clear error saying what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

import monopoly
from monopoly import Build, Game, GameState, Setup, StateError
from monopoly.game.game import SetupError
from tests.scenario import ScriptedAgent, of_type, payments, ruleset

CLASSIC = ruleset()


def observed(game: Game) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    game.observe(events.append)
    return events


# ---------------------------------------------------------------- a game the caller drives, from a position


def test_a_position_becomes_a_game_the_caller_drives():
    """Seat 1 rolls 4 from Short Line onto seat 0's Boardwalk: the caller answers, and the rent is paid."""
    state = Setup(CLASSIC, players=2).give("Boardwalk", 0).place(1, "Short Line").to_move(1).checked()
    for game in (Game.from_state(CLASSIC, state, players=2), Game.from_state(CLASSIC, state),
                 Game.from_state(CLASSIC, None, state), Game.from_state(CLASSIC, agents=None, state=state)):
        assert game.players == 2 and game.pending is None
        events = observed(game)
        game.fix_dice([(1, 3)])
        assert game.advance() == monopoly.Decision(1, "act")
        assert payments(events) == [(1, 0, 50, "rent")]
        assert game.cash == [1550, 1450] and game.position == [0, 39]
    assert state.cash == [1500, 1500]  # the position itself is not played on


def test_a_position_with_agents_as_before():
    state = Setup(CLASSIC, players=2).place(0, "Short Line").checked()
    agents = [ScriptedAgent(buy=True), ScriptedAgent()]
    game = Game.from_state(CLASSIC, agents, state, seed=4)
    game.fix_dice([(1, 3)])
    game.play_turn()
    assert game.owner[39] == 0 and agents[0].questions("buy") == [(39,)]
    assert Game.from_state(CLASSIC, agents, state, players=2).players == 2


@pytest.mark.parametrize(("call", "words"), [
    (lambda s: Game.from_state(CLASSIC, s, players=3), "players=3, but the position has 2 seats"),
    (lambda s: Game.from_state(CLASSIC, s, players=1), "players=1, but the position has 2 seats"),
    (lambda s: Game.from_state(CLASSIC, [ScriptedAgent() for _ in range(3)], s),
     "3 agents for a position of 2 seats"),
    (lambda s: Game.from_state(CLASSIC, [ScriptedAgent() for _ in range(2)], s, players=3),
     "players=3, but the position has 2 seats"),
    (lambda s: Game.from_state(CLASSIC, s, s), "give the position once"),
    (lambda s: Game.from_state(CLASSIC, [ScriptedAgent() for _ in range(2)]), "no position given"),
    (lambda s: Game.from_state(CLASSIC, None, s.to_json()), "the position is dict, not a GameState"),
    (lambda s: Game.from_state(CLASSIC, s.to_json()), "the position is dict, not a GameState"),
])
def test_a_position_and_seats_that_do_not_match_are_refused_saying_why(call, words):
    state = Setup(CLASSIC, players=2).checked()
    with pytest.raises(SetupError) as caught:
        call(state)
    assert words in str(caught.value)


def test_a_three_seat_position_played_by_three_agents_not_two():
    """Before, two agents on a three-seat position made a game that failed with an IndexError when it played."""
    state = Setup(CLASSIC, players=3).checked()
    with pytest.raises(SetupError, match="2 agents for a position of 3 seats"):
        Game.from_state(CLASSIC, [ScriptedAgent(), ScriptedAgent()], state)
    assert Game.from_state(CLASSIC, state, players=3).players == 3


# ---------------------------------------------------------------- the bank's stock, hotels by name, the pot


def shortage() -> Setup:
    """Seat 2 has hotels on the dark blues (set up by name); seat 0 has the browns and seat 1 the light blues,
    neither built on; the bank has 2 houses left (the rest out of the game) and 10 hotels."""
    setup = Setup(CLASSIC, players=3)
    for seat, names in ((0, ("Mediterranean Avenue", "Baltic Avenue")),
                        (1, ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")),
                        (2, ("Park Place", "Boardwalk"))):
        for name in names:
            setup.give(name, seat)
    setup.build("Park Place", "hotel").build("Boardwalk", "hotel")
    return setup.set_stock(houses=2)


def test_a_hotel_by_name_is_the_rulesets_hotel_level():
    setup = shortage()
    assert setup.state.buildings[37] == setup.state.buildings[39] == 5  # classic: 4 houses a hotel
    assert (setup.state.houses_left, setup.state.hotels_left) == (2, 10)
    assert setup.problems() == []
    short = Setup(ruleset("classic", ("short-game",)), players=2, deal=False).give("Boardwalk", 0)
    short.give("Park Place", 0).build("Park Place", "hotel").build("Boardwalk", 3)
    assert short.state.buildings[37] == 4 and short.problems() == []  # short game: 3 houses a hotel
    assert (short.state.houses_left, short.state.hotels_left) == (29, 11)


def test_a_shortage_set_up_auctions_the_next_house():
    """Two houses left and two players who could build eight and twelve: the house seat 0 asks for goes to
    auction (the printed rule), seat 0 bidding 60, seat 1 passing. The hotels' owner wants no houses."""
    game = Game.from_state(CLASSIC, shortage().checked(), players=3)
    events = observed(game)
    game.fix_dice([(4, 6)])  # GO to Just Visiting: nothing happens
    assert game.advance() == monopoly.Decision(0, "act")
    game.answer(Build(1))
    assert game.pending == monopoly.Decision(0, "bid", (("house", None), 49, None))
    game.answer(60)
    assert game.pending == monopoly.Decision(1, "bid", (("house", None), 60, 0))
    game.answer(0)
    [auction] = of_type(events, "auction")
    assert (auction["item"], auction["winner"], auction["price"]) == ("house", 0, 60)
    assert payments(events) == [(0, "bank", 60, "building auction")]
    assert game.buildings[1] == 1 and (game.houses_left, game.hotels_left) == (1, 10)
    assert game.cash == [1440, 1500, 1500]


def test_no_hotel_in_the_bank_no_hotel_built():
    setup = Setup(CLASSIC, players=2).give("Mediterranean Avenue", 0).give("Baltic Avenue", 0)
    setup.build("Mediterranean Avenue", 4).build("Baltic Avenue", 4).set_stock(hotels=0)
    assert setup.problems() == []
    game = Game.from_state(CLASSIC, setup.state)
    game.fix_dice([(4, 6)])
    game.advance()
    assert "hotel" in (game.check(Build(1)) or "")
    with pytest.raises(monopoly.IllegalAnswer):
        game.answer(Build(1))
    assert game.buildings[1] == 4 and game.hotels_left == 0


@pytest.mark.parametrize(("stock", "words"), [
    ({"houses": 31}, "come to more than the box holds: 8 houses and 0 hotels built, 31 and 12 in the bank"),
    ({"hotels": 12, "houses": 0}, "come to more than the box holds: 0 houses and 2 hotels built, 0 and 12"),
    ({"houses": 33}, "state.houses_left is 33, not a number of houses from 0 to 32 (the box)"),
    ({"hotels": -1}, "state.hotels_left is -1, not a number of hotels from 0 to 12 (the box)"),
])
def test_a_stock_beyond_the_box_is_a_problem(stock, words):
    setup = Setup(CLASSIC, players=2)
    for name in ("Mediterranean Avenue", "Baltic Avenue"):
        setup.give(name, 0).build(name, 4)
    if "hotels" in stock:
        setup.build("Mediterranean Avenue", "hotel").build("Baltic Avenue", "hotel")
    problems = setup.set_stock(**stock).problems()
    assert any(words in p for p in problems), problems
    with pytest.raises(StateError):
        Game.from_state(CLASSIC, setup.state)


def test_a_level_that_is_not_one_is_refused_at_once():
    setup = Setup(CLASSIC, players=2).give("Boardwalk", 0)
    with pytest.raises(ValueError, match=r"the level is 'hotels', not a number of houses \(0 to 4\) or 'hotel' "
                                         r"\(level 5 in these rules\)"):
        setup.build("Boardwalk", "hotels")
    with pytest.raises(ValueError, match=r"the level is 2\.5"):
        setup.build("Boardwalk", 2.5)  # type: ignore[arg-type]
    assert setup.state.buildings[39] == 0 and setup.state.houses_left == 32
    assert any("buildings[39] is 9" in p for p in setup.build("Boardwalk", 9).problems())


def test_a_pot_set_up_is_taken_on_free_parking_with_the_jackpot_variant():
    jackpot = ruleset("classic", ("free-parking-jackpot",))
    state = Setup(jackpot, players=2).set_pot(500).place(0, "Pennsylvania Railroad").checked()
    assert state.pot == 500
    game = Game.from_state(jackpot, state)
    events = observed(game)
    game.fix_dice([(2, 3)])  # Pennsylvania Railroad (15) + 5: Free Parking
    game.advance()
    assert payments(events) == [("pot", 0, 500, "pot")]
    assert game.pot == 0 and game.cash == [2000, 1500] and game.position[0] == 20


def test_a_pot_set_up_stays_on_free_parking_without_the_variant():
    game = Game.from_state(CLASSIC, Setup(CLASSIC, players=2).set_pot(500).place(0, "Pennsylvania Railroad").state)
    events = observed(game)
    game.fix_dice([(2, 3)])
    game.advance()
    assert payments(events) == [] and game.pot == 500 and game.cash == [1500, 1500]


def test_a_negative_pot_is_a_problem():
    assert any("state.pot is -1" in p for p in Setup(CLASSIC, players=2).set_pot(-1).problems())


# ---------------------------------------------------------------- the short game and the time limit, without the deal


SHORT = ruleset("classic", ("short-game",))
TIME = ruleset("classic", ("time-limit",))


@pytest.mark.parametrize("rs", [SHORT, TIME], ids=["short-game", "time-limit"])
def test_the_start_without_the_deal(rs):
    dealt = Setup(rs, players=3, seed=2).state
    assert sum(o >= 0 for o in dealt.owner) == 6 and sum(dealt.cash) < 3 * 1500  # two deeds each, paid for
    bare = Setup(rs, players=3, seed=2, deal=False).state
    assert all(o == -1 for o in bare.owner) and bare.cash == [1500] * 3 and bare.started
    assert bare.decks == dealt.decks  # the same shuffle: the deal comes after it
    for state in (dealt, bare):  # a game put in either plays on from it: no second deal, no second cash
        game = Game.from_state(rs, state)
        game.fix_dice([(4, 6)])  # GO to Just Visiting
        game.advance()
        assert game.owner == state.owner and game.cash == state.cash


def test_a_short_game_position_without_the_deal_plays_by_its_rules():
    """Short game: hotels after 3 houses. Seat 0 has a hotel on Mediterranean (level 4 here) and 3 houses on
    Baltic; seat 1 goes from Luxury Tax past GO onto Mediterranean: salary, then the hotel's rent, 250."""
    setup = (Setup(SHORT, players=2, deal=False).give("Mediterranean Avenue", 0).give("Baltic Avenue", 0)
             .build("Mediterranean Avenue", "hotel").build("Baltic Avenue", 3).place(1, "Luxury Tax").to_move(1))
    game = Game.from_state(SHORT, setup.checked())
    events = observed(game)
    game.fix_dice([(1, 2)])
    game.advance()
    assert payments(events) == [("bank", 1, 200, "salary"), (1, 0, 250, "rent")]
    assert game.cash == [1750, 1450] and [s for s, o in enumerate(game.owner) if o >= 0] == [1, 3]


def test_a_time_limit_position_without_the_deal_ends_on_the_clock_the_richest_winning():
    """Seat 0 has 1,200 and Boardwalk (400): 1,600; seat 1 has 1,500 in cash. The clock runs out between
    turns: the game ends at once and seat 0, the richer by the rulebook's valuation, wins."""
    state = Setup(TIME, players=2, deal=False).give("Boardwalk", 0).set_cash(0, 1200).checked()
    game = Game.from_state(TIME, state)
    game.time_up()
    assert game.finished and game.end_reason == "time" and game.winner == 0
    assert [(s.seat, s.net_worth) for s in game.result().standings] == [(0, 1600), (1, 1500)]


def test_a_number_of_players_the_ruleset_does_not_take_is_refused():
    with pytest.raises(SetupError, match="is played by 2 to 8 players, not 1"):
        Setup(CLASSIC, players=1)
    with pytest.raises(SetupError, match="players='2', not a number of players"):
        Setup(CLASSIC, players="2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"give the number of players \(players=N\), or a state"):
        Setup(CLASSIC)


def test_deal_is_for_a_new_start_only():
    state = Setup(SHORT, players=2).state
    with pytest.raises(ValueError, match="deal=False is for a new start"):
        Setup(SHORT, state, deal=False)
    with pytest.raises(ValueError, match="players=3, but the state has 2 seats"):
        Setup(SHORT, state, players=3)
    with pytest.raises(ValueError, match="not a GameState"):
        Setup(SHORT, state.to_json())  # type: ignore[arg-type]


def test_a_position_not_started_holds_nothing_the_start_would_pay_on_top():
    """A game not started yet starts when it is played (starting cash, shuffle, deal): a position before the
    start with cash, deeds or stacked decks is refused; the empty one starts as a new game does."""
    before = Game(CLASSIC, players=2).state()
    assert not before.started and before.problems(CLASSIC) == []
    game = Game.from_state(CLASSIC, before)
    game.fix_dice([(4, 6)])
    game.advance()
    assert game.started and game.cash == [1500, 1500]  # paid once, at the start
    setup = Setup(CLASSIC, before.copy()).set_cash(0, 1000).give("Boardwalk", 1).stack("chance", [3])
    [problem] = setup.problems()
    assert problem.startswith("the game has not started (state.started is false), but its position has cash, "
                              "deeds, decks out of the ruleset's order: its start would pay the starting cash")
    with pytest.raises(StateError, match="has not started"):
        Game.from_state(CLASSIC, setup.state)


# ---------------------------------------------------------------- jail


def test_a_jailed_seat_asked_about_and_played():
    """Seat 1 in jail, no try failed yet; seat 0 only visiting. Seat 1 rolls (1, 2), no double: it stays, one try
    failed (the game's position says so)."""
    state = Setup(CLASSIC, players=2).jail(1).place(0, "Jail").to_move(1).checked()
    assert (state.in_jail(0), state.in_jail(1)) == (False, True) and state.position == [10, 10]
    game = Game.from_state(CLASSIC, state)
    game.fix_dice([(1, 2)])
    assert game.advance() == monopoly.Decision(1, "jail", (("roll", "pay"),))
    game.answer("roll")
    assert game.state().in_jail(1) and game.state().jail_turns == [-1, 1] and game.position == [10, 10]


@pytest.mark.parametrize("seat", [2, -1, "0", None])
def test_in_jail_of_no_seat_is_refused(seat):
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        Setup(CLASSIC, players=2).state.in_jail(seat)


# ---------------------------------------------------------------- decks: slots and cards


def test_a_card_printed_twice_is_two_slots():
    """Chance's fifth card ("the nearest Railroad", index 4) is printed twice: slots 4 and 5; the card after it
    (index 5) is slot 6. Stacked by its text twice, both copies go on top."""
    chance = CLASSIC.deck("chance")
    assert chance.cards[4].count == 2 and chance.size == len(chance.cards) + 1 == 16
    state = Setup(CLASSIC, players=2).stack("chance", ["Advance token to the nearest Railroad"] * 2 + ["Bank"]).state
    assert state.decks["chance"][:3] == [4, 5, 6] and sorted(state.decks["chance"]) == list(range(16))
    assert Setup(CLASSIC, players=2).give_card(0, "chance", "Get out of Jail").state.held_cards[0] == [("chance", 6)]


def test_the_top_of_a_stacked_deck_is_drawn_first():
    state = (Setup(CLASSIC, players=2).stack("chance", ["Take a walk on the Boardwalk", "Go to Jail"])
             .place(0, "Income Tax").checked())
    game = Game.from_state(CLASSIC, state)
    game.fix_dice([(1, 2)])  # Income Tax (4) + 3: Chance
    assert game.advance() == monopoly.Decision(0, "buy", (39,))
    assert game.position[0] == 39
    assert (game.decks["chance"][0], game.decks["chance"][-1]) == (9, 13)  # Go to Jail next; Boardwalk's below


def test_a_card_that_is_not_there_is_refused_saying_what_a_card_is():
    with pytest.raises(ValueError, match="no card 'Advance to Mars' in deck chance: give a slot from 0 to 15 or the "
                                         "start of a card's text"):
        Setup(CLASSIC, players=2).stack("chance", ["Advance to Mars"])
    with pytest.raises(ValueError, match="no deck 'tarot'"):
        Setup(CLASSIC, players=2).stack("tarot", [0])
    with pytest.raises(ValueError, match="no card 16 in deck chance"):
        Setup(CLASSIC, players=2).stack("chance", [16])


def test_a_state_from_json_is_a_game_state():
    state = Setup(CLASSIC, players=2).set_pot(40).checked()
    again = GameState.from_json(state.to_json(), CLASSIC, players=2)
    assert Game.from_state(CLASSIC, again).pot == 40


# ---------------------------------------------------------------- the start position, set out with nobody seated


@pytest.mark.parametrize(("name", "variants", "players", "seed"), [
    ("classic", (), 2, 0), ("classic", (), 4, 9), ("classic", ("jackpot-seeded",), 3, 5),
    ("classic", ("short-game",), 4, 2), ("classic", ("time-limit",), 2, 11)])
def test_the_start_position_is_the_start_of_a_game(name, variants, players, seed):
    """``GameState.new`` (and ``Setup``) set the start out without a Game: the same position a game's own start
    gives, the deal, the starting cash, the shuffled decks and the game-start triggers (the jackpot's $500)."""
    rules = ruleset(name, variants)
    game = Game(rules, players=players, seed=seed)
    game.start()
    new = GameState.new(rules, players, seed=seed)
    assert new.to_json() == GameState.of(game).to_json()
    assert Setup(rules, players=players, seed=seed).state.to_json() == new.to_json()
    assert new.started and new.pending is None
    if variants == ("jackpot-seeded",):
        assert new.pot == 500


def test_a_start_that_asks_a_player_cannot_be_set_out_with_nobody_seated(tmp_path):
    path = tmp_path / "asking.yaml"
    path.write_text("id: asking\nname: Asking\nextends: classic\ntriggers:\n  - name: opening_gift\n"
                    "    on: game_start\n    effect: \"choose: collect 100 | collect 200\"\n", encoding="utf-8")
    rules = monopoly.load_ruleset(str(path))
    with pytest.raises(SetupError, match="the game's start asks seat 0 to answer choose: a start position is set "
                                         r"out with nobody seated \(start a Game with agents"):
        GameState.new(rules, 2)
    with pytest.raises(SetupError, match="nobody seated"):
        Setup(rules, players=2)
    game = Game(rules, [ScriptedAgent(), ScriptedAgent()])  # a seated agent answers it (the first seat, once)
    game.start()
    assert game.cash == [1600, 1500]


@pytest.mark.parametrize("players", [1, 9, True, "2"])
def test_a_start_for_a_number_of_players_the_ruleset_does_not_take_is_refused(players):
    expected = "not a number of players" if type(players) is not int else "is played by 2 to 8 players, not"
    with pytest.raises(SetupError, match=expected):
        GameState.new(CLASSIC, players)
    if type(players) is int:
        with pytest.raises(SetupError, match=expected):
            monopoly.Replay.new_for(CLASSIC, players)
