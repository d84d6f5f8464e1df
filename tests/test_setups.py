"""The positions an outside examiner could not set up (issue 31, item 4), each set up exactly with ``Setup`` and
played on with ``Game.from_state``: a game the caller drives from a position. Every bad set-up is a clear error
saying what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

import monopoly
from monopoly import Game, Setup
from monopoly.game.game import SetupError
from tests.scenario import ScriptedAgent, payments, ruleset

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
