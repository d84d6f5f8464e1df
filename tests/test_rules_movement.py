"""Rule scenarios: turn order, doubles, the third double, GO salary, Go to Jail."""

from __future__ import annotations

import pytest

import monopoly
from tests.scenario import ScriptedAgent, of_type, payments, rolls, setup_game, sp, stack_deck


def test_turn_order_goes_round_the_table_and_counts_rounds():
    game, events = setup_game(seats=3)
    game.fix_dice([(4, 6), (4, 6), (4, 6), (4, 6)])  # GO -> Just Visiting, no doubles
    seen = []
    for _ in range(4):
        seen.append(game.current)
        game.play_turn()
    assert seen == [0, 1, 2, 0]
    assert [e["seat"] for e in of_type(events, "turn")] == [0, 1, 2, 0]
    assert [e["round"] for e in of_type(events, "turn")] == [0, 0, 0, 1]
    assert game.current == 1 and game.turn == 4
    assert game.position == [20, 10, 10]
    assert game.cash == [1500, 1500, 1500]


def test_turn_order_skips_a_bankrupt_seat():
    game, events = setup_game(seats=3)
    game.bankrupt[1] = True  # out of the game
    game.fix_dice([(4, 6), (4, 6)])
    game.play_turn()
    assert game.current == 2
    game.play_turn()
    assert game.current == 0 and game.round == 1
    assert [e["seat"] for e in of_type(events, "turn")] == [0, 2]


def test_doubles_roll_again_and_a_plain_roll_ends_the_turn():
    game, events = setup_game()
    game.agents[0].script("buy", True)
    game.fix_dice([(3, 3), (2, 1), (5, 6)])
    game.play_turn()
    assert rolls(events) == [(3, 3), (2, 1)]
    assert game.position[0] == sp(game, "Connecticut Avenue")  # 0 + 6 + 3
    assert game.owner[sp(game, "Oriental Avenue")] == 0 and game.owner[sp(game, "Connecticut Avenue")] == 0
    assert game.cash[0] == 1500 - 100 - 120
    assert game.current == 1 and game.turn == 1
    assert [e["to"] for e in of_type(events, "move")] == [6, 9]


def test_third_double_in_a_row_goes_to_jail_without_moving():
    game, events = setup_game()
    game.position[0] = sp(game, "Jail")  # just visiting
    game.fix_dice([(1, 1), (4, 4), (6, 6)])
    game.play_turn()
    assert rolls(events) == [(1, 1), (4, 4), (6, 6)]
    # Moved by the first two doubles only (10 -> 12 Electric Company, declined -> 20 Free Parking).
    assert [e["to"] for e in of_type(events, "move")] == [12, 20, sp(game, "Jail")]
    assert game.position[0] == sp(game, "Jail")
    assert game.jail_turns[0] == 0
    assert [(e["action"], e["how"]) for e in of_type(events, "jail")] == [("enter", "doubles")]
    assert game.cash == [1500, 1500]
    assert payments(events) == []
    assert game.owner[sp(game, "North Carolina Avenue")] == -1
    assert game.current == 1


def test_two_doubles_then_a_plain_roll_is_no_jail():
    game, _events = setup_game()
    game.position[0] = sp(game, "Jail")
    game.fix_dice([(1, 1), (4, 4), (1, 2)])
    game.play_turn()
    assert game.position[0] == 23  # Indiana Avenue
    assert game.jail_turns[0] == -1


def test_salary_for_passing_go():
    game, events = setup_game()
    game.position[0] = 37  # Park Place
    game.fix_dice([(2, 4)])  # 37 + 6 -> 3 Baltic Avenue (declined, nobody bids)
    game.play_turn()
    assert game.position[0] == sp(game, "Baltic Avenue")
    assert game.cash[0] == 1700
    assert payments(events) == [("bank", 0, 200, "salary")]
    assert of_type(events, "move")[0]["passed_go"] is True


def test_salary_for_landing_on_go_is_paid_once():
    game, events = setup_game()
    game.position[0] = sp(game, "Short Line")  # 35
    game.fix_dice([(2, 3)])
    game.play_turn()
    assert game.position[0] == 0
    assert game.cash[0] == 1700
    assert payments(events) == [("bank", 0, 200, "salary")]


def test_no_salary_without_passing_go():
    game, events = setup_game()
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.position[0] == 3 and game.cash[0] == 1500 and payments(events) == []


def test_advance_to_go_after_passing_go_pays_salary_twice():
    game, events = setup_game()
    game.position[0] = 38
    stack_deck(game, "community_chest", "Advance to GO")
    game.fix_dice([(1, 3)])  # 38 -> 2 Community Chest, passing GO
    game.play_turn()
    assert game.position[0] == 0
    assert game.cash[0] == 1900
    assert payments(events) == [("bank", 0, 200, "salary"), ("bank", 0, 200, "salary")]


def test_go_to_jail_space_sends_to_jail_without_salary():
    game, events = setup_game()
    game.position[0] = sp(game, "B. & O. Railroad")  # 25
    game.fix_dice([(2, 3)])  # -> 30 Go To Jail
    game.play_turn()
    assert game.position[0] == sp(game, "Jail")
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500 and payments(events) == []
    assert [(e["action"]) for e in of_type(events, "jail")] == ["enter"]


def test_go_to_jail_on_doubles_ends_the_turn():
    game, events = setup_game()
    game.position[0] = 26  # Atlantic Avenue
    game.fix_dice([(2, 2), (1, 2)])  # -> 30 Go To Jail; no second roll
    game.play_turn()
    assert rolls(events) == [(2, 2)]
    assert game.position[0] == sp(game, "Jail") and game.jail_turns[0] == 0
    assert game.current == 1


def test_go_to_jail_card_sends_to_jail_without_salary():
    game, events = setup_game()
    game.position[0] = 31  # Pacific Avenue
    stack_deck(game, "chance", "Go to Jail")
    game.fix_dice([(2, 3)])  # -> 36 Chance; jail is "ahead" past GO but no salary
    game.play_turn()
    assert game.position[0] == sp(game, "Jail")
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500 and payments(events) == []


def test_laps_count_passing_and_landing_on_go_not_going_to_jail_or_moving_back():
    game, events = setup_game(seats=2)
    assert game.laps == [0, 0]
    game.position[0] = 36
    game.fix_dice([(2, 3)])  # 36 -> 1: past GO
    game.play_turn()
    assert game.laps == [1, 0] and payments(events)[0] == ("bank", 0, 200, "salary")
    game.position[1] = 35
    game.fix_dice([(2, 3)])  # 35 -> 0: onto GO
    game.play_turn()
    assert game.laps == [1, 1] and game.position[1] == 0
    game.position[0] = 25
    game.fix_dice([(2, 3)])  # 25 -> 30, Go to Jail: no lap though the token goes round to the jail
    game.play_turn()
    assert game.laps[0] == 1 and game.jail_turns[0] == 0
    assert game.state().laps == [1, 1] and game.state().to_json()["laps"] == [1, 1]


def test_laps_are_part_of_a_position_and_a_save_without_them_reads_as_none_yet():
    import json

    import monopoly
    from monopoly.game.state import GameState, Setup

    classic = monopoly.load_ruleset("classic")
    setup = Setup(classic, players=2).set_laps(1, 3)
    assert setup.state.laps == [0, 3] and setup.problems() == []
    data = json.loads(json.dumps(setup.state.to_json()))
    assert GameState.from_json(data, classic, players=2).laps == [0, 3]
    del data["laps"]  # a position written before laps were kept
    assert GameState.from_json(data, classic, players=2).laps == [0, 0]
    data["laps"] = [0, -1]
    problems = Setup(classic, GameState._unchecked(data)).problems()
    assert problems == ["state.laps[1] is -1, not a whole number of at least 0 (the times past or onto the go space)"]


# A board of six spaces: two dice take a token round it and past Start twice.
TINY = """
id: tiny
name: Tiny board
description: Six spaces, smaller than a throw of two dice.
currency: "$"
bank: {houses: 8, hotels: 2, starting_cash: 500}
groups:
  red: {name: Red, color: "#ff0000", house_cost: 20}
board:
  - {name: Start, kind: go}
  - {name: Red One, kind: street, group: red, price: 40, rent: [2, 10, 30, 90, 160, 250]}
  - {name: Red Two, kind: street, group: red, price: 50, rent: [3, 15, 45, 120, 200, 300]}
  - {name: Jail, kind: jail}
  - {name: Rest, kind: plain}
  - {name: Corner, kind: plain}
rules:
  salary: 20
"""
TINY_PASSING = TINY + """triggers:
  - {on: pass, space: Rest, effect: collect 1}
"""


def tiny_game(text: str):
    from tests.strategies import load_text

    game = monopoly.Game(load_text(text), [ScriptedAgent(), ScriptedAgent()], seed=1)
    events: list[dict] = []
    game.observe(events.append)
    game.start()
    events.clear()
    return game, events


@pytest.mark.parametrize("text", [TINY, TINY_PASSING], ids=["plain", "pass-trigger"])
def test_a_throw_round_a_small_board_pays_the_salary_each_time_it_passes_go(text):
    """Passing GO twice in one move (11 from Red Two on six spaces: past Start at the 4th and the 10th step)
    pays the salary twice and counts two laps; the move records how many times (`passes`)."""
    game, events = tiny_game(text)
    game.position[0] = 2
    game.fix_dice([(5, 6)])
    game.play_turn()
    assert game.position[0] == 1  # (2 + 11) % 6: Red One
    assert [e for e in of_type(events, "move")] == [
        {"type": "move", "seat": 0, "from": 2, "to": 1, "passed_go": True, "passes": 2}]
    salaries = [p for p in payments(events) if p[3] == "salary"]
    assert salaries == [("bank", 0, 20, "salary"), ("bank", 0, 20, "salary")]
    assert game.laps[0] == 2
    if text is TINY_PASSING:  # Rest (4) is passed twice too, at the 2nd and the 8th step: in the order of the path
        rest = ("bank", 0, 1, "trigger on pass Rest")
        assert [p for p in payments(events) if p[3] != "buy"] == [
            rest, ("bank", 0, 20, "salary"), rest, ("bank", 0, 20, "salary")]


def test_a_long_move_of_an_effect_passes_go_as_often_as_it_goes_round():
    """`move forward 85 spaces` from Short Line (35) on the classic board: past GO at the 5th, 45th and 85th
    step (ending on it): three salaries, three laps, one move."""
    game, events = setup_game()
    game.position[0] = sp(game, "Short Line")
    game.carry_out(game.move_by(0, 85))
    assert game.position[0] == sp(game, "GO")
    assert of_type(events, "move") == [
        {"type": "move", "seat": 0, "from": 35, "to": 0, "passed_go": True, "passes": 3}]
    assert payments(events) == [("bank", 0, 200, "salary")] * 3
    assert game.laps[0] == 3


def test_a_move_past_go_more_than_once_reads_back_from_its_log_line():
    from monopoly.game.events import from_dict, to_dict, typed

    record = (monopoly.game.events.MOVE, 2, 35, 0, True, 3)
    assert to_dict(record) == {"type": "move", "seat": 2, "from": 35, "to": 0, "passed_go": True, "passes": 3}
    assert from_dict(to_dict(record)) == record
    assert typed(record).passes == 3 and typed(record[:5]).passes == 0
    once = (monopoly.game.events.MOVE, 0, 36, 2, True)
    assert to_dict(once) == {"type": "move", "seat": 0, "from": 36, "to": 2, "passed_go": True}
    assert from_dict(to_dict(once)) == once
