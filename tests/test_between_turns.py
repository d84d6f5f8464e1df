"""Acting between turns (issue 28, item 1): every player still in the game may build, sell, mortgage, lift
mortgages and offer trades between two turns, not only the player whose turn just ended.

The printed rules (Parker Brothers): "A player may buy and erect at any time as many houses as his judgment and
financial standing will allow"; "Houses and hotels may be sold back to the Bank at any time"; "Unimproved
properties can be mortgaged through the Bank at any time". The engine asks the mover first (``act``), then
every other player still in the game (``between``, jailed or not), in turn order from the player to move next;
each scenario sets the position up exactly and checks the exact outcome.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly import Build, Decision, Mortgage, SellBuilding, Trade, UseCard
from monopoly.agents import Agent, make_agent
from monopoly.cli.main import cli
from monopoly.game.decisions import NOT_YOUR_TURN, Caller, IllegalAnswer
from monopoly.game.state import GameState
from tests.scenario import ScriptedAgent, hold_card, neutral_turn, of_type, own, payments, refusals, setup_game, sp

DATA = Path(__file__).resolve().parent / "data"


class Witness(ScriptedAgent):
    """A scripted agent that writes every question it is asked into a list shared by the table."""

    def __init__(self, seen: list[tuple[int, str, tuple[Any, ...]]], **scripts: Any):
        super().__init__(**scripts)
        self.seen = seen

    def _answer(self, question: str, game: Any, seat: int, *args: Any) -> Any:
        self.seen.append((seat, question, args))
        return super()._answer(question, game, seat, *args)


def table(seats: int = 4, variants: tuple[str, ...] = (), **scripts: dict[str, Any]) -> tuple[Any, list, list]:
    """A game of ``seats`` witnesses (``scripts["s1"]`` the scripts of seat 1...), the questions they are asked, and
    the events since the set-up."""
    seen: list[tuple[int, str, tuple[Any, ...]]] = []
    agents = [Witness(seen, **scripts.get(f"s{seat}", {})) for seat in range(seats)]
    game, events = setup_game(variants=variants, seats=seats, agents=agents)
    return game, seen, events


def test_after_the_mover_every_other_player_is_asked_in_turn_order_from_the_next_to_move():
    game, seen, _events = table(4)
    game.current = 2
    game.position[2] = 0
    game.fix_dice([(4, 6)])  # GO to Just Visiting: nobody is asked anything on the way
    game.play_turn()
    assert seen == [(2, "act", ()), (3, "between", (3,)), (0, "between", (3,)), (1, "between", (3,))]
    assert game.current == 3


def test_a_player_in_jail_is_asked_too_and_a_bankrupt_one_is_not():
    game, seen, _events = table(4)
    game.position[1], game.jail_turns[1] = sp(game, "Jail"), 0
    game.bankrupt[3] = True
    neutral_turn(game, 0)
    assert [(seat, kind) for seat, kind, _ in seen] == [(0, "act"), (1, "between"), (2, "between")]


def test_a_player_builds_before_a_rivals_roll_and_the_rival_pays_the_house_rent():
    """Seat 2 builds on the browns between seat 0's turn and seat 1's roll: seat 1 then lands on Baltic Avenue
    and pays the rent of one house (20), not the doubled bare rent (8)."""
    game, _seen, events = table(3, s2={"between": [Build(1), Build(3), None]})
    med, baltic = own(game, 2, "Mediterranean Avenue", "Baltic Avenue")
    neutral_turn(game, 0)
    assert (game.buildings[med], game.buildings[baltic]) == (1, 1)
    assert game.cash[2] == 1500 - 100 and game.houses_left == 30
    assert [(e["seat"], e["space"], e["level"]) for e in of_type(events, "build")] == [(2, med, 1), (2, baltic, 1)]
    events.clear()
    assert game.current == 1
    game.position[1] = 0
    game.fix_dice([(1, 2)])  # seat 1 from GO onto Baltic Avenue
    game.play_turn()
    assert payments(events) == [(1, 2, 20, "rent")]


def test_a_jailed_player_mortgages_and_sells_between_turns():
    game, _seen, events = table(3, s1={"between": [SellBuilding(1), SellBuilding(3), Mortgage(5), None]})
    med, baltic = own(game, 1, "Mediterranean Avenue", "Baltic Avenue")
    reading = own(game, 1, "Reading Railroad")[0]
    game.buildings[med] = game.buildings[baltic] = 1
    game.houses_left -= 2
    game.position[1], game.jail_turns[1] = sp(game, "Jail"), 1
    neutral_turn(game, 0)
    assert (game.buildings[med], game.buildings[baltic], game.mortgaged[reading]) == (0, 0, True)
    assert game.cash[1] == 1500 + 25 + 25 + 100 and game.houses_left == 32
    assert game.jail_turns[1] == 1  # still in jail: acting changes nothing of that
    assert [e["type"] for e in events if e["type"] in ("sell", "mortgage")] == ["sell", "sell", "mortgage"]


def test_a_trade_offered_between_turns_is_answered_and_takes_effect():
    offer = Trade(2, 0, give_cash=300, get_spaces=(39,))
    game, seen, events = table(3, s2={"between": [offer, None]}, s0={"answer_trade": True})
    own(game, 0, "Boardwalk")
    neutral_turn(game, 0)
    assert (2, "answer_trade", ()) not in seen and (0, "answer_trade", (offer,)) in seen
    assert game.owner[39] == 2 and game.cash[0] == 1800 and game.cash[2] == 1200
    assert [e["accepted"] for e in of_type(events, "trade")] == [True]


def test_a_kept_card_is_used_on_ones_own_turn_only(tmp_path):
    """A card used as an action of the turn (``use: {when: turn}``) is no action between others' turns: refused
    with the reason, and nothing changes."""
    variant = tmp_path / "bonus-card.yaml"
    variant.write_text("id: bonus-card\nkind: variant\nname: Bonus card\ndescription: A card kept and cashed on a "
                       "turn.\ndecks:\n  chance:\n    add:\n      - {text: Bonus, effect: keep, use: {when: turn, "
                       "effect: collect 100}}\n", encoding="utf-8")
    game, _seen, events = table(2, (str(variant),))
    card = hold_card(game, 1, "chance", "Bonus")
    game.agents[1].script("between", [UseCard(*card), None])
    neutral_turn(game, 0)
    assert game.held_cards[1] == [card] and game.cash[1] == 1500
    assert refusals(events) == [NOT_YOUR_TURN]


def test_the_decision_is_pending_with_its_legal_answers_for_a_game_driven_from_outside():
    ruleset = monopoly.load_ruleset("classic")
    game = monopoly.Game(ruleset, players=3, seed=1)
    game.start()
    game.give(1, 1)
    game.give(3, 1)
    game.fix_dice([(4, 6)])
    assert game.advance() == Decision(0, "act")
    game.answer(None)
    assert game.pending == Decision(1, "between", (1,))
    legal = game.legal_answers()
    assert legal[0] is None and Build(1) in legal and Build(3) in legal
    assert not any(type(answer) is UseCard for answer in legal)
    assert game.check(UseCard("chance", 0)) == NOT_YOUR_TURN
    with pytest.raises(IllegalAnswer):
        game.answer(Build(39))
    game.answer(Build(1))
    assert game.buildings[1] == 1 and game.pending == Decision(1, "between", (1,))  # asked again until None
    game.answer(None)
    assert game.pending == Decision(2, "between", (1,))
    game.answer(None)
    assert game.pending.seat == 1 and game.pending.kind != "between"  # seat 1's turn has begun


def test_a_position_saved_at_the_decision_loads_and_goes_on_as_the_game_does():
    ruleset = monopoly.load_ruleset("classic")
    game = monopoly.Game(ruleset, players=3, seed=4)
    game.start()
    game.give(1, 2)
    game.give(3, 2)
    while game.advance().kind != "between" or game.pending.seat != 2:
        game.answer(None if game.pending.kind in ("act", "between") else game.legal_answers()[0])
    state = GameState.from_json(json.loads(json.dumps(game.state().to_json())), ruleset, players=3)
    again = monopoly.Game.from_state(ruleset, [Caller() for _ in range(3)], state, seed=4)
    copy = game.copy()
    assert again.pending == copy.pending == game.pending
    for g in (game, again, copy):
        g.answer(Build(1))
        g.answer(None)
    assert again.state() == copy.state() == game.state() and again.pending == copy.pending == game.pending
    assert game.buildings[1] == 1 and game.owner[1] == 2


def test_the_rules_may_let_only_the_mover_act(tmp_path):
    variant = tmp_path / "own-turn.yaml"
    variant.write_text("id: own-turn\nkind: variant\nname: Own turn\ndescription: Only the mover acts.\n"
                       "rules: {between_turns: mover}\n", encoding="utf-8")
    game, seen, _events = table(3, (str(variant),))
    neutral_turn(game, 0)
    assert seen == [(0, "act", ())]


def test_an_agent_that_never_acts_out_of_turn_is_not_called_and_plays_the_game_a_caller_plays():
    """The base Agent's ``between`` is quiet: play() answers None for it without a call. A game of such agents
    is the game a caller plays answering ``between`` with None: the same events, and copies alike."""
    ruleset = monopoly.load_ruleset("classic")
    quiet = [Agent() for _ in range(3)]
    played = monopoly.Game(ruleset, quiet, seed=8, max_turns=80)
    played.play()
    driven = monopoly.Game(ruleset, players=3, seed=8, max_turns=80)
    copies = 0
    while driven.advance() is not None:
        decision = driven.pending
        if decision.kind == "between" and copies < 3 and driven.turn > 20:
            copy = driven.copy()
            assert copy.pending == decision
            copies += 1
        agent = quiet[decision.seat]
        driven.answer(None if decision.kind == "between" else getattr(agent, decision.kind)(driven, decision.seat,
                                                                                              *decision.args))
    assert driven.events[1:-1] == played.events[1:-1] and copies == 3  # the first and last name the agents


def test_four_greedy_bots_build_before_their_rivals_rolls():
    """Greedy builds as soon as it can: between turns too, with the rent it collected since its own turn. Those
    builds are in the event log, after another seat's turn event."""
    ruleset = monopoly.load_ruleset("classic")
    out_of_turn = 0
    for seed in range(1, 6):
        events: list[dict[str, Any]] = []
        monopoly.Game(ruleset, [make_agent("greedy") for _ in range(4)], seed=seed, max_turns=300,
                      observers=[events.append]).play()
        mover = None
        for event in events:
            if event["type"] == "turn":
                mover = event["seat"]
            elif event["type"] == "build" and event["seat"] != mover:
                out_of_turn += 1
    assert out_of_turn > 20, out_of_turn


def test_a_log_written_before_acting_between_turns_still_verifies():
    """The golden game as rules version 3 logged it (before this change): ``replay --verify`` plays it with the
    knobs of that version (only the mover acts; the fine may be paid first on the last turn) and passes."""
    log = DATA / "golden" / "classic-seed-7-rules3.jsonl"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["rules"] == 3
    result = CliRunner().invoke(cli, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay identically" in result.output


class Boom(Agent):
    """Raises at its first `between`, then never acts out of turn."""

    name = "boom"

    def __init__(self) -> None:
        self.armed = True

    def between(self, game: Any, seat: int, to_move: int) -> Any:
        if self.armed:
            self.armed = False
            raise RuntimeError("boom")
        return None


class Spy(Agent):
    """Counts the times it is asked `between`."""

    name = "spy"

    def __init__(self) -> None:
        self.calls = 0

    def between(self, game: Any, seat: int, to_move: int) -> Any:
        self.calls += 1
        return None


def test_when_an_agent_raises_in_the_phase_the_others_wait_for_the_caller():
    """play() stops at the decision of the agent that raised; a caller answering by hand from there is asked the
    other seats' decisions (the agents are not called behind its back), and play() goes on cleanly after."""
    ruleset = monopoly.load_ruleset("classic")
    spy = Spy()
    game = monopoly.Game(ruleset, [make_agent("greedy"), Boom(), spy], seed=3, max_turns=50)
    with pytest.raises(RuntimeError, match="boom"):
        game.play()
    assert game.pending == Decision(1, "between", (1,)) and game.agent_failure == (1, "between")
    game.answer(None)
    assert game.pending == Decision(2, "between", (1,)) and spy.calls == 0
    game.answer(None)
    assert game.play().turns == 50 and spy.calls > 0


def test_no_chance_to_act_when_the_round_limit_ends_the_game(tmp_path):
    """The time-limit rules end the game when the round limit is reached: nobody is asked to act before a turn
    that will not come."""
    variant = tmp_path / "two-rounds.yaml"
    variant.write_text("id: two-rounds\nkind: variant\nname: Two rounds\ndescription: Two rounds.\n"
                       "rules: {end: {when: time, rounds: 2}}\n", encoding="utf-8")
    game = monopoly.Game(monopoly.load_ruleset("classic", [str(variant)]), players=3, seed=1)
    asked = []
    quiet = {"buy": False, "answer_trade": False, "lift_mortgage": False, "bid": 0, "jail": "roll", "choose": 0}
    while game.advance() is not None:
        decision = game.pending
        asked.append((game.turn, decision.kind))
        game.answer(quiet.get(decision.kind))
    assert game.end_reason == "time" and game.turn == 6
    assert (6, "act") in asked and (6, "between") not in asked and (5, "between") in asked


def test_the_next_to_move_is_found_again_when_an_action_ends_a_player(tmp_path):
    """A trigger on building bankrupts the player to move next, in the middle of the others' chance to act: the
    seats asked after that are told the player who moves instead."""
    variant = tmp_path / "levy.yaml"
    variant.write_text("id: levy\nkind: variant\nname: Levy\ndescription: Building collects 500 from each player.\n"
                       "triggers:\n  - {on: build, effect: collect 500 from each player}\n", encoding="utf-8")
    game, seen, _events = table(4, (str(variant),), s2={"between": [Build(1), None]})
    own(game, 2, "Mediterranean Avenue", "Baltic Avenue")
    game.cash[1] = 100  # seat 1, to move next, cannot pay the levy
    neutral_turn(game, 0)
    assert game.bankrupt[1]
    # seat 1 first (the next to move), then seat 2 builds and is asked again in its phase; seat 3 is told seat 2
    assert [(seat, args) for seat, kind, args in seen if kind == "between"] == \
        [(1, (1,)), (2, (1,)), (2, (1,)), (3, (2,))]
    assert game.current == 2


class Taker(Agent):
    """Declines every lot (so the game runs long) and takes the position at one turn while it acts."""

    name = "taker"

    def __init__(self, turn: int) -> None:
        self.turn = turn
        self.taken: Any = None

    def buy(self, game: Any, seat: int, space: int) -> bool:
        return False

    def act(self, game: Any, seat: int) -> Any:
        if 0 <= self.turn <= game.turn and self.taken is None:
            self.taken = game.state()
        return None


def test_a_position_taken_late_inside_play_loads():
    """Inside play() a position holds every answer since play() began (four a turn at least, with the others'
    chance to act): one taken at turn 1,500 still loads and goes on as the game did."""
    ruleset = monopoly.load_ruleset("classic")
    taker = Taker(1500)
    agents = [taker] + [Taker(-1) for _ in range(3)]
    game = monopoly.Game(ruleset, agents, seed=2, max_turns=1600)
    game.play()
    assert taker.taken is not None and len(taker.taken.pending.answers) > 5_000
    state = GameState.from_json(json.loads(json.dumps(taker.taken.to_json())), ruleset, players=4)
    again = monopoly.Game.from_state(ruleset, [Taker(-1) for _ in range(4)], state, seed=2, max_turns=1600)
    again.play()
    assert again.state() == game.state()
