"""Hostile answers: every answer of an agent is checked (types first, then legality) before it is used.

For each decision the engine asks (buy, bid, jail, choose, act, answer_trade,
raise_funds, lift_mortgage) an agent answers garbage: strings, floats, NaN, a
bool where an int goes, huge ints, None, lists, objects whose ``__eq__``,
``__hash__``, ``__bool__`` and ``__repr__`` raise, actions with fields of the
wrong type, actions of classes the engine does not know. The game must not
raise; the refused answer must change nothing (the game ends up exactly as
with the safe answer: decline, no bid, roll, the first option, no action);
and the agent's ``refused`` must be told a reason naming the problem.

A property test plays whole games with an agent whose every answer is drawn
at random, with the invariants of tests/test_invariants.py checked after every
event. The last part types garbage into ``monopoly play``: Unicode digits that
``str.isdigit()`` accepts, a 10,000-digit number, control characters and bytes
that are not UTF-8.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import monopoly
from monopoly import Build, Mortgage, SellBuilding, Trade, Unmortgage
from monopoly.cli.human import Invalid, parse_amount, parse_numbers, parse_yes_no, shown, typed_number
from monopoly.cli.main import cli
from monopoly.game.actions import safe_repr
from tests.scenario import ScriptedAgent, hold_card, neutral_turn, own, setup_game, snapshot
from tests.test_invariants import Checker
from tests.test_play import Table

NAN = float("nan")
HUGE = 10**5000  # too long for repr() or str(): Python refuses to print an int of more than 4300 digits


class Boom:
    """An answer that raises on every question asked of it."""

    def _boom(self, *args: Any) -> Any:
        raise RuntimeError("boom")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _boom
    __hash__ = __bool__ = __repr__ = __str__ = __len__ = __iter__ = __index__ = __int__ = __float__ = _boom
    __getitem__ = __contains__ = _boom


class Sneaky(str):
    """A str that says it equals anything (so ``x in options`` would let it through)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


class MyInt(int):
    """An int subclass: not an int for the engine."""


class BuildLike:
    """Not the engine's Build, though it looks like one."""

    def __init__(self, space: int):
        self.space = space


class SubBuild(Build):
    """A subclass of an action is not one of the engine's actions."""


def bare(kind: type) -> Any:
    """An action made without its constructor: its fields are not there at all."""
    return object.__new__(kind)


def label(value: Any, width: int) -> str:
    """A test id for ``value``: its repr without memory addresses (ids must be the same in every process, or
    pytest-xdist's workers collect different tests), cut to ``width``."""
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", safe_repr(value, 200))
    return text if len(text) <= width else text[:width] + "..."


def ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [label(case[0], 40) for case in cases]


# ---------------------------------------------------------------------- the scenarios, one per decision
#
# Each takes the answer of the seat under test to its first question of the kind and returns
# (game, the answering agent). Played with the safe answer, the game must end up the same.

def play_buy(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 lands on Baltic Avenue (unowned; nobody bids in the auction after a decline)."""
    game, _ = setup_game(agents=[ScriptedAgent(buy=[answer]), ScriptedAgent()])
    game.fix_dice([(1, 2)])
    game.play_turn()
    return game, game.agents[0]


def play_bid(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 declines Baltic Avenue and bids first in its auction; seat 1 passes."""
    game, _ = setup_game(agents=[ScriptedAgent(bid=[answer]), ScriptedAgent()])
    game.fix_dice([(1, 2)])
    game.play_turn()
    return game, game.agents[0]


def play_jail(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 starts its turn in jail with 1500 (it may roll or pay) and rolls no doubles."""
    game, _ = setup_game(agents=[ScriptedAgent(jail=[answer]), ScriptedAgent()])
    game.position[0] = game.tables.jail
    game.jail_turns[0] = 0
    game.fix_dice([(1, 2), (1, 2)])
    game.play_turn()
    return game, game.agents[0]


def play_choose(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 lands on Income Tax: pay 200 (option 0) or 10% of net worth (option 1, 150)."""
    game, _ = setup_game(agents=[ScriptedAgent(choose=[answer]), ScriptedAgent()])
    game.fix_dice([(1, 3)])
    game.play_turn()
    return game, game.agents[0]


def play_act(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 owns the brown group and a Get Out of Jail Free card; seat 1 accepts any trade."""
    game, _ = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    own(game, 0, "Mediterranean Avenue", "Baltic Avenue")
    own(game, 1, "Oriental Avenue")
    hold_card(game, 0, "chance", "Get out of Jail Free")
    neutral_turn(game, 0, answer)
    return game, game.agents[0]


def play_answer_trade(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 offers Mediterranean Avenue to seat 1 for 100; seat 1 answers."""
    game, _ = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=[answer])])
    mediterranean = own(game, 0, "Mediterranean Avenue")[0]
    neutral_turn(game, 0, Trade(0, 1, give_spaces=(mediterranean,), get_cash=100))
    return game, game.agents[1]


def play_raise_funds(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 has 10, owns Baltic Avenue and owes 25 rent on seat 1's Reading Railroad."""
    game, _ = setup_game(agents=[ScriptedAgent(raise_funds=[answer]), ScriptedAgent()], cash=[10, 1500])
    own(game, 0, "Baltic Avenue")
    own(game, 1, "Reading Railroad")
    game.fix_dice([(2, 3)])
    game.play_turn()
    return game, game.agents[0]


def play_lift_mortgage(answer: Any) -> tuple[monopoly.Game, ScriptedAgent]:
    """Seat 0 buys seat 1's mortgaged Oriental Avenue for 10 and is asked whether to lift the mortgage."""
    game, _ = setup_game(agents=[ScriptedAgent(lift=[answer]), ScriptedAgent(trade=True)])
    oriental = own(game, 1, "Oriental Avenue")[0]
    game.mortgaged[oriental] = True
    neutral_turn(game, 0, Trade(0, 1, give_cash=10, get_spaces=(oriental,)))
    return game, game.agents[0]


#: decision: (scenario, the safe answer the garbage must count as)
SCENARIOS = {
    "buy": (play_buy, False),
    "bid": (play_bid, 0),
    "jail": (play_jail, "roll"),
    "choose": (play_choose, 0),
    "act": (play_act, None),
    "answer_trade": (play_answer_trade, False),
    "raise_funds": (play_raise_funds, None),
    "lift_mortgage": (play_lift_mortgage, False),
}


def check_refused(decision: str, answer: Any, reason_has: str) -> None:
    """The garbage answer does not raise, changes nothing beyond the safe answer, and is refused with a reason."""
    scenario, safe = SCENARIOS[decision]
    game, agent = scenario(answer)
    expected, safe_agent = scenario(safe)
    assert agent.questions(decision), f"the scenario did not ask {decision}"
    assert snapshot(game) == snapshot(expected)
    assert (game.turn, game.current, game.finished) == (expected.turn, expected.current, expected.finished)
    assert not safe_agent.refusals, safe_agent.refusals  # the safe answer itself is fine
    assert agent.refusals, f"{safe_repr(answer)} was not refused"
    reasons = [reason for _action, reason in agent.refusals]
    assert any(reason_has in reason for reason in reasons), reasons


# ---------------------------------------------------------------------- yes-or-no questions

#: Answers that are not a bool, for buy, answer_trade and lift_mortgage.
NOT_BOOLS = ["yes", "True", "", "no", 1, 0, 1.0, 0.0, NAN, None, [], [True], (True,), {"yes": True}, HUGE,
             10**100, MyInt(1), Boom(), object(), Build(1), b"y"]


@pytest.mark.parametrize("decision", ["buy", "answer_trade", "lift_mortgage"])
@pytest.mark.parametrize("answer", NOT_BOOLS, ids=[label(a, 30) for a in NOT_BOOLS])
def test_a_yes_or_no_answer_that_is_not_a_bool_counts_as_no(decision, answer):
    check_refused(decision, answer, "True or False")


@pytest.mark.parametrize("decision", ["buy", "answer_trade", "lift_mortgage"])
def test_true_and_false_are_taken_as_they_are(decision):
    scenario, _ = SCENARIOS[decision]
    yes, yes_agent = scenario(True)
    no, no_agent = scenario(False)
    assert snapshot(yes) != snapshot(no)
    assert not yes_agent.refusals and not no_agent.refusals


def test_the_reason_says_what_a_wrong_buy_answer_counted_as():
    game, agent = play_buy("yes")
    [(action, reason)] = agent.refusals
    assert action == "buy answer 'yes'"
    assert reason == "answer buy with True or False (a bool); taken as False: not bought"
    assert game.owner[3] == -1


# ---------------------------------------------------------------------- bids

NOT_BIDS = ["10", "0", 10.0, 10.5, NAN, float("inf"), True, False, [10], (10,), {10}, -5, 1501, HUGE, 10**100,
            MyInt(10), Boom(), object(), 0.0, "", b"10"]


@pytest.mark.parametrize("answer", NOT_BIDS, ids=[label(a, 30) for a in NOT_BIDS])
def test_a_bid_that_is_not_a_whole_number_within_the_cash_is_refused(answer):
    check_refused("bid", answer, "a bid is a whole number (an int)")


@pytest.mark.parametrize("answer", [0, None])
def test_zero_or_none_is_a_plain_pass(answer):
    game, agent = play_bid(answer)
    assert game.owner[3] == -1 and game.cash == [1500, 1500]
    assert agent.questions("bid") and not agent.refusals


def test_a_garbage_bid_leaves_the_auction_to_the_others():
    game, _ = setup_game(agents=[ScriptedAgent(bid=[Boom()]), ScriptedAgent(bid=[10])])
    game.fix_dice([(1, 2)])
    game.play_turn()
    assert game.owner[3] == 1 and game.cash == [1500, 1490]


# ---------------------------------------------------------------------- jail and choices

NOT_JAIL = [1, 0, 2, True, "PAY", "pay ", "p", "", None, ["pay"], ("pay",), b"pay", Sneaky("pay"), Sneaky("zzz"),
            Boom(), HUGE, NAN, object()]


@pytest.mark.parametrize("answer", NOT_JAIL, ids=[label(a, 30) for a in NOT_JAIL])
def test_a_jail_answer_not_among_the_options_counts_as_roll(answer):
    check_refused("jail", answer, "choose one of roll, pay (a str); taken as roll")


NOT_CHOICES = [True, False, 1.0, 0.0, "1", "0", NAN, None, -1, 2, 10**100, HUGE, [0], (1,), MyInt(1), Boom(),
               object()]


@pytest.mark.parametrize("answer", NOT_CHOICES, ids=[label(a, 30) for a in NOT_CHOICES])
def test_a_choice_that_is_not_an_index_counts_as_the_first_option(answer):
    check_refused("choose", answer, "choose a number (an int) from 0 to 1")


def test_a_good_choice_is_taken():
    game, agent = play_choose(1)
    assert game.cash[0] == 1350 and not agent.refusals


# ---------------------------------------------------------------------- actions between turns

#: (action, what the reason says); seat 0 owns Mediterranean (1) and Baltic (3) and a chance card (index 6).
BAD_ACTIONS: list[tuple[Any, str]] = [
    # not an action at all
    ("build 1", "unknown action 'build 1'"),
    (1, "unknown action 1"),
    (True, "unknown action True"),
    (NAN, "unknown action nan"),
    ([Build(1)], "unknown action [Build(space=1)]"),
    ((Build, 1), "unknown action"),
    (Build, "unknown action"),
    (Boom(), "unknown action <a Boom that cannot be shown>"),
    (object(), "unknown action"),
    (BuildLike(1), "unknown action"),
    (SubBuild(1), "unknown action SubBuild(space=1)"),
    # an action with a space of the wrong type or off the board
    (Build("1"), "there is no space '1'"),
    (Build(True), "there is no space True"),
    (Build(1.0), "there is no space 1.0"),
    (Build(MyInt(1)), "there is no space 1"),
    (Build(None), "there is no space None"),
    (Build(-1), "there is no space -1"),
    (Build(40), "there is no space 40"),
    (Build(10**100), "there is no space an int of about 101 digits"),
    (Build(HUGE), "there is no space an int of about 5001 digits"),
    (Build([1]), "there is no space [1]"),
    (Build(Boom()), "there is no space <a Boom that cannot be shown>"),
    (SellBuilding((1,)), "there is no space (1,)"),
    (Mortgage(True), "there is no space True"),
    (Mortgage(NAN), "there is no space nan"),
    (Unmortgage("3"), "there is no space '3'"),
    (bare(Build), "Build without a space"),
    (bare(Mortgage), "Mortgage without a space"),
    # trades with fields of the wrong type
    (Trade(0, 1, give_spaces=([1],)), "there is no space [1]"),
    (Trade(0, 1, give_spaces=(True,)), "there is no space True"),
    (Trade(0, 1, give_spaces=(1.0,)), "there is no space 1.0"),
    (Trade(0, 1, give_spaces=(Boom(),)), "there is no space <a Boom that cannot be shown>"),
    (Trade(0, 1, give_spaces=(HUGE,)), "there is no space an int of about 5001 digits"),
    (Trade(0, 1, give_spaces=(1, 1)), "a lot is named twice"),
    (Trade(0, 1, give_spaces={1}), "lots and cards in a trade are given as lists"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces="1"), "lots and cards in a trade are given as lists"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces=None), "lots and cards in a trade are given as lists"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces=Boom()), "lots and cards in a trade are given as lists"),  # type: ignore[arg-type]
    (Trade(False, 1, give_spaces=(1,)), "a trade is proposed by the seat whose action it is"),
    (Trade(0.0, 1, give_spaces=(1,)), "a trade is proposed by the seat whose action it is"),  # type: ignore[arg-type]
    (Trade(Boom(), 1, give_spaces=(1,)), "a trade is proposed by the seat whose action it is"),  # type: ignore[arg-type]
    (Trade(1, 1, give_spaces=(1,)), "a trade is proposed by the seat whose action it is"),
    (Trade(0, True, give_spaces=(1,)), "seat True cannot trade with you"),
    (Trade(0, 1.0, give_spaces=(1,)), "seat 1.0 cannot trade with you"),  # type: ignore[arg-type]
    (Trade(0, Boom(), give_spaces=(1,)), "cannot trade with you"),  # type: ignore[arg-type]
    (Trade(0, 0, give_spaces=(1,)), "seat 0 cannot trade with you"),
    (Trade(0, 1, give_spaces=(1,), give_cash=True), "cash in a trade is a whole number (an int)"),
    (Trade(0, 1, give_spaces=(1,), get_cash=NAN), "cash in a trade is a whole number (an int)"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces=(1,), give_cash="5"), "cash in a trade is a whole number (an int)"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces=(1,), give_cash=Boom()), "cash in a trade is a whole number"),  # type: ignore[arg-type]
    (Trade(0, 1, give_spaces=(1,), get_cash=-1), "cash in a trade cannot be negative"),
    (Trade(0, 1, give_spaces=(1,), give_cash=HUGE), "you offer an int of about 5001 digits but have 1500"),
    (Trade(0, 1, give_cards=(("chance", 6.0),)), "('chance', 6.0) is not a card"),
    (Trade(0, 1, give_cards=(["chance", True],)), "['chance', True] is not a card"),
    (Trade(0, 1, give_cards=((Boom(), 6),)), "is not a card"),
    (Trade(0, 1, give_cards=(Boom(),)), "<a Boom that cannot be shown> is not a card"),
    (Trade(0, 1, give_cards=("chance",)), "'chance' is not a card"),
    (Trade(0, 1, give_cards=(("chance", 6, 0),)), "('chance', 6, 0) is not a card"),
    (Trade(0, 1, give_cards=((Sneaky("chance"), 6),)), "is not a card"),
    (Trade(0, 1, give_cards=(("chance", 6), ("chance", 6))), "seat 0 does not hold the card ('chance', 6)"),
    (bare(Trade), "a trade without all its fields"),
]


@pytest.mark.parametrize(("answer", "reason"), BAD_ACTIONS, ids=ids(BAD_ACTIONS))
def test_a_malformed_action_is_refused_and_changes_nothing(answer, reason):
    check_refused("act", answer, reason)


def test_the_refused_callback_gets_the_action_itself():
    trade = Trade(0, 1, give_spaces=([1],))
    _game, agent = play_act(trade)
    [(action, reason)] = agent.refusals
    assert action is trade and reason.startswith("there is no space [1]")


def test_a_refused_event_shows_any_action_safely():
    events: list[dict[str, Any]] = []
    game, _ = setup_game()
    game.observe(events.append)
    for action in (Boom(), Build(HUGE), Trade(0, 1, give_spaces=tuple(range(1000))), Build("\x1b[2J\udcff")):
        assert game.apply(0, action) is False
    refused = [e for e in events if e["type"] == "refused"]
    assert len(refused) == 4
    for event in refused:
        assert isinstance(event["action"], str) and len(event["action"]) <= 200
        assert event["action"].isprintable() and event["reason"].isprintable()


def test_a_trade_given_with_lists_reaches_the_partner_as_tuples():
    """Lists are accepted in an offer (docs/embedding.md), but the partner sees a plain Trade of tuples."""
    game, _ = setup_game(agents=[ScriptedAgent(), ScriptedAgent(trade=True)])
    mediterranean = own(game, 0, "Mediterranean Avenue")[0]
    card = hold_card(game, 0, "chance", "Get out of Jail Free")
    offer = Trade(0, 1, give_spaces=[mediterranean], give_cards=[list(card)])  # type: ignore[arg-type]
    assert game.apply(0, offer)
    [(shown_trade,)] = game.agents[1].questions("answer_trade")
    assert shown_trade == Trade(0, 1, give_spaces=(mediterranean,), give_cards=(card,))
    assert type(shown_trade.give_spaces) is tuple and type(shown_trade.give_cards[0]) is tuple
    assert game.owner[mediterranean] == 1 and game.held_cards == [[], [card]]


def test_apply_refuses_a_seat_that_is_not_an_int():
    game, _ = setup_game()
    own(game, 0, "Mediterranean Avenue")
    before = snapshot(game)
    for seat in ("0", 0.0, None, Boom()):
        assert game.apply(seat, Mortgage(1)) is False  # type: ignore[arg-type]
    assert snapshot(game) == before


# ---------------------------------------------------------------------- raising funds

BAD_RAISES: list[tuple[Any, str]] = [
    (Build(3), "only selling buildings (SellBuilding) and mortgaging (Mortgage) raise money"),
    (Unmortgage(3), "only selling buildings"),
    (Trade(0, 1, give_spaces=(3,), give_cash=10), "only selling buildings"),
    ("mortgage 3", "only selling buildings"),
    (3, "only selling buildings"),
    (True, "only selling buildings"),
    (NAN, "only selling buildings"),
    ([Mortgage(3)], "only selling buildings"),
    (Boom(), "only selling buildings"),
    (Mortgage("3"), "there is no space '3'"),
    (Mortgage(True), "there is no space True"),
    (Mortgage(3.0), "there is no space 3.0"),
    (Mortgage(HUGE), "there is no space an int of about 5001 digits"),
    (SellBuilding(Boom()), "there is no space <a Boom that cannot be shown>"),
    (SellBuilding(3), "Baltic Avenue has no buildings"),
    (Mortgage(5), "Reading Railroad is not yours"),
    (bare(Mortgage), "Mortgage without a space"),
]


@pytest.mark.parametrize(("answer", "reason"), BAD_RAISES, ids=ids(BAD_RAISES))
def test_a_malformed_answer_while_raising_funds_is_refused(answer, reason):
    check_refused("raise_funds", answer, reason)


# ---------------------------------------------------------------------- whole games of random answers

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-3, max_value=45), st.integers(),
    st.just(HUGE), st.floats(), st.text(max_size=6),
    st.sampled_from(["roll", "pay", "card", "chance", "community_chest"]), st.builds(Boom), st.builds(MyInt),
    st.builds(Sneaky, st.sampled_from(["roll", "pay", "card"])),
)
FIELDS = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.tuples(SCALARS, SCALARS))
SPACES = st.one_of(st.lists(st.integers(min_value=0, max_value=39), max_size=3).map(tuple), FIELDS)
CARDS = st.one_of(st.lists(st.tuples(st.sampled_from(["chance", "community_chest"]),
                                     st.integers(min_value=0, max_value=16)), max_size=2).map(tuple), FIELDS)
CASH = st.one_of(st.integers(min_value=0, max_value=400), FIELDS)
SEATS = st.one_of(st.integers(min_value=0, max_value=3), SCALARS)
ACTIONS = st.one_of(
    st.builds(Build, st.one_of(st.integers(min_value=0, max_value=39), FIELDS)),
    st.builds(SellBuilding, st.one_of(st.integers(min_value=0, max_value=39), FIELDS)),
    st.builds(Mortgage, st.one_of(st.integers(min_value=0, max_value=39), FIELDS)),
    st.builds(Unmortgage, st.one_of(st.integers(min_value=0, max_value=39), FIELDS)),
    st.builds(Trade, SEATS, SEATS, give_spaces=SPACES, give_cash=CASH, give_cards=CARDS, get_spaces=SPACES,
              get_cash=CASH, get_cards=CARDS),
    st.builds(SubBuild, st.integers(min_value=0, max_value=39)), st.builds(BuildLike, st.integers()),
)
ANSWERS = st.one_of(SCALARS, ACTIONS, st.lists(st.one_of(SCALARS, ACTIONS), max_size=3))
BOOLS = st.booleans()


class Anarchist(monopoly.Agent):
    """Half of its answers are drawn from ``ANSWERS`` (garbage), half are plausible for the question:
    a bool, a bid up to its cash, one of the jail options, an index, a legal action, a trade of lots
    it and another seat own, None. So the game moves on (lots are bought, built on, traded, mortgaged)
    with garbage coming in at every decision."""

    name = "anarchist"

    def __init__(self, data: Any):
        self.data = data
        self.refusals = 0
        self.asked: Counter[str] = Counter()

    def _draw(self, kind: str, plausible: Callable[[], Any]) -> Any:
        self.asked[kind] += 1
        return self.data.draw(ANSWERS) if self.data.draw(BOOLS) else plausible()

    def _move(self, game: monopoly.Game, seat: int, raising: bool) -> Any:
        draw = self.data.draw
        branch = draw(st.integers(0, 2))
        legal = game.legal_actions(seat, raising=raising)
        others = [q for q in range(game.players) if q != seat and not game.bankrupt[q]]
        if branch == 1 and legal:
            return draw(st.sampled_from(legal))
        if branch == 2 and others:
            partner = draw(st.sampled_from(others))
            mine = [s for s in game.tables.ownable if game.owner[s] == seat]
            theirs = [s for s in game.tables.ownable if game.owner[s] == partner]
            give = tuple(draw(st.lists(st.sampled_from(mine), max_size=2, unique=True))) if mine else ()
            get = tuple(draw(st.lists(st.sampled_from(theirs), max_size=2, unique=True))) if theirs else ()
            return Trade(seat, partner, give_spaces=give, give_cash=draw(st.integers(0, 300)), get_spaces=get,
                         get_cash=draw(st.integers(0, 300)))
        return None

    def buy(self, game, seat, space):
        return self._draw("buy", lambda: self.data.draw(BOOLS))

    def bid(self, game, seat, item, high_bid, leader):
        return self._draw("bid", lambda: self.data.draw(st.integers(0, max(0, game.cash[seat]))))

    def jail(self, game, seat, options):
        return self._draw("jail", lambda: self.data.draw(st.sampled_from(options)))

    def choose(self, game, seat, options):
        return self._draw("choose", lambda: self.data.draw(st.integers(0, len(options) - 1)))

    def act(self, game, seat):
        return self._draw("act", lambda: self._move(game, seat, raising=False))

    def answer_trade(self, game, seat, trade):
        return self._draw("answer_trade", lambda: self.data.draw(BOOLS))

    def raise_funds(self, game, seat, owed):
        return self._draw("raise_funds", lambda: self._move(game, seat, raising=True))

    def lift_mortgage(self, game, seat, space):
        return self._draw("lift_mortgage", lambda: self.data.draw(BOOLS))

    def refused(self, game: Any, seat: int, action: Any, reason: str) -> None:
        assert type(reason) is str and reason
        self.refusals += 1


CLASSIC = monopoly.load_ruleset("classic")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(min_value=0, max_value=2**32), others=st.lists(
    st.sampled_from(["greedy", "trader", "random", "anarchist"]), min_size=1, max_size=3))
def test_games_of_random_answers_always_finish(data, seed, others):
    note(f"seed {seed}; seat 0 and {others}")
    agents = [Anarchist(data)] + [Anarchist(data) if name == "anarchist" else monopoly.make_agent(name)
                                  for name in others]
    game = monopoly.Game(CLASSIC, agents, seed=seed, max_turns=60)
    checker = Checker(game)
    while not game.finished:
        game.play_turn()
        checker.settled()
        checker.always()
    checker.finish(game.result())
    note(f"refusals: {[a.refusals for a in agents if isinstance(a, Anarchist)]}")


# ---------------------------------------------------------------------- safe_repr

def test_safe_repr_never_raises_and_stays_short():
    assert safe_repr("3") == "'3'"
    assert safe_repr(HUGE) == "an int of about 5001 digits"
    assert safe_repr(-HUGE) == "an int of about 5001 digits"
    assert safe_repr([HUGE]) == "<a list that cannot be shown>"
    assert safe_repr(Boom()) == "<a Boom that cannot be shown>"
    assert len(safe_repr(list(range(1000)))) == 200 and safe_repr(list(range(1000))).endswith("...")
    assert safe_repr("\x1b\udcff") == "'\\x1b\\udcff'"  # repr escapes them itself

    class Shouting:
        def __repr__(self) -> str:
            return "\x1b[2J\udcff\n"

    assert safe_repr(Shouting()) == "?[2J??"
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested]
    assert safe_repr(nested) == "<a list that cannot be shown>"  # a RecursionError inside repr


# ---------------------------------------------------------------------- monopoly play: what a person types

#: Typed answers that are never a number of a menu: Unicode digits (superscript two, Arabic-Indic three,
#: fullwidth one), a 10,000-digit number, control characters, a NUL, an escape sequence, a lone surrogate.
GARBAGE = ["²", "٣", "１", "1" * 10_000, "9" * 13, "\x00", "\x1b[2J", "1\x08", "\x7f", "\udcff", "x" * 100_000]
#: What can be typed through a terminal that decodes its input (a lone surrogate cannot).
TYPED = [text for text in GARBAGE if text != "\udcff"]


@pytest.mark.parametrize("text", GARBAGE, ids=[repr(t[:8]) for t in GARBAGE])
def test_typed_number_takes_ascii_digits_only(text):
    assert typed_number(text) is None
    for parse in (parse_amount, lambda t: parse_numbers(t, 3, "lots you own"), parse_yes_no(None)):
        with pytest.raises(Invalid) as err:
            parse(text)
        message = str(err.value)
        assert message.isprintable() and len(message) < 200


def test_typed_number_and_shown():
    assert [typed_number(t) for t in ("0", "7", "007", "999999999999")] == [0, 7, 7, 999_999_999_999]
    assert [typed_number(t) for t in ("", " 7", "-7", "+7", "7.0", "1_000", "٣", "１")] == [None] * 8
    assert shown("\x1b[2J") == "?[2J" and shown("a" * 100) == "a" * 37 + "..."
    assert parse_amount("$1,200") == 1200


def test_unicode_digits_are_not_bids():
    with pytest.raises(Invalid, match="is not an amount"):
        parse_amount("１０")  # int() would read the fullwidth digits as 10


def explained(screen: str, count: int, message: str) -> None:
    assert screen.count(message) >= count, screen[-3000:]
    assert "Traceback" not in screen


@pytest.mark.parametrize("text", TYPED, ids=[repr(t[:8]) for t in TYPED])
def test_garbage_at_the_choose_prompt_is_asked_again(text):
    table = Table()
    table.ready([(1, 3)])  # onto Income Tax
    screen = table.play([text, "2", ""])
    explained(screen, 1, "is not a choice: type a number from 1 to 2.")
    assert table.of("choice", seat=0)[0]["chosen"] == 1 and table.game.cash[0] == 1350


def test_garbage_at_every_kind_of_prompt():
    """The act menu, a trade (partner, lots, cash), jail, raising funds and bids: each is asked again."""
    table = Table("you,trader,greedy")
    game = table.game
    game.give(1, 0)
    game.give(6, 1)
    table.ready([(4, 6)])
    lines = ["²", "１", "1" * 10_000, "\x1b[2J", "t",  # the act menu; then a trade
             "٣", "1",                                 # trade with whom
             "²", "1" * 10_000, "",                    # lots you give
             "１０", "1" * 10_000, "\x00", "",          # cash you give
             "١", "1",                                  # lots you want
             "", "n",                                   # no cash wanted; do not send it
             ""]
    screen = table.play(lines)
    explained(screen, 4, "is not a choice: type 1, t, or press Enter.")
    explained(screen, 1, "is not one of the players listed: type a number from 1 to 2.")
    explained(screen, 2, "is not one of the lots you own: type numbers from 1 to 1")
    explained(screen, 3, "is not an amount: type a whole number (digits 0-9, at most 12), like 120.")
    explained(screen, 1, "is not one of the lots trader owns")
    assert "'?[2J' is not a choice" in screen and "'\x1b" not in screen
    assert "'" + "1" * 37 + "...' is not a choice" in screen  # a long answer is cut when repeated
    assert game.owner[1] == 0 and game.owner[6] == 1 and not table.of("trade")

    table = Table()
    game = table.game
    game.position[0] = game.tables.jail
    game.jail_turns[0] = 0
    table.ready([(1, 2)])
    screen = table.play(["²", "٣", "\x00", "1" * 10_000, "1", ""])  # roll, then end the turn
    explained(screen, 4, "is not a choice here: type roll, pay.")
    assert game.jail_turns[0] == 1 and game.cash[0] == 1500

    table = Table()
    game = table.game
    game.give(3, 0)
    game.give(5, 1)
    game.cash[0] = 10
    table.ready([(2, 3)])  # to Reading Railroad: $25 rent to greedy
    screen = table.play(["²", "１", "1" * 10_000, "1", ""])
    explained(screen, 3, "is not a choice: type a number from 1 to 1, or press Enter.")
    assert game.mortgaged[3] and game.cash[0] == 15

    table = Table()
    table.ready([(1, 2)])
    screen = table.play(["n", "²", "１０", "1" * 10_000, "\x1b", "61", ""])
    explained(screen, 4, "is not an amount")
    assert table.game.owner[3] == 0 and table.game.cash[0] == 1500 - 61


def test_monopoly_play_survives_garbage_and_bytes_that_are_not_text():
    args = ["play", "classic", "--players", "you,greedy", "--seed", "3"]
    lines = ["²", "٣", "１", "1" * 10_000, "\x00", "\x1b[2J", "\x04", "quit", ""]
    result = CliRunner().invoke(cli, args, input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output[-2000:]
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "The game was not saved." in result.output and "Traceback" not in result.output
    # Bytes that are not UTF-8: explained, never a traceback (the rest of a piped input is lost with them).
    result = CliRunner().invoke(cli, args, input=b"\xff\xfe\n")
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "That was not readable text" in result.output
    assert "Interrupted" in result.output
