"""The caller drives: pending decisions, legal answers, answers refused with nothing changed, copies at any
decision, and the play loop over it all giving the games the agents play."""

from __future__ import annotations

import random

import pytest

import monopoly
from monopoly.game.decisions import KINDS, Bids, Trades, check_answer, legal_answers
from monopoly.game.game import play

CLASSIC = monopoly.load_ruleset("classic")
NAMES = ("trader", "cautious", "random", "greedy")


def events_of(game):
    events = []
    game.observe(events.append)
    return events


def agents(names=NAMES):
    return [monopoly.make_agent(name) for name in names]


def straight_game(seed, names=NAMES, max_turns=150):
    game = monopoly.Game(CLASSIC, agents(names), seed=seed, max_turns=max_turns)
    events = events_of(game)
    game.play()
    return game, events


def test_answering_from_outside_with_the_agents_answers_is_the_same_game():
    for seed in (9, 10):
        _, straight = straight_game(seed)
        bots = agents()
        game = monopoly.Game(CLASSIC, bots, seed=seed, max_turns=150)
        driven = events_of(game)
        kinds = set()
        while (decision := game.advance()) is not None:
            kinds.add(decision.kind)
            answer = getattr(bots[decision.seat], decision.kind)(game, decision.seat, *decision.args)
            if game.check(answer) is None:
                game.answer(answer)
            else:
                game.respond(answer)  # the bots' refused answers are taken as in play
        assert driven == straight
        assert {"act", "buy", "bid", "answer_trade"} <= kinds


def test_an_illegal_answer_is_refused_with_the_reason_and_changes_nothing():
    game = monopoly.Game(CLASSIC, players=2, seed=1)
    game.fix_dice([(1, 2)])
    assert game.advance() == monopoly.Decision(0, "buy", (3,))
    before = game.state()
    for wrong, reason in [("yes", "True or False"), (1, "True or False"), (None, "True or False")]:
        with pytest.raises(monopoly.IllegalAnswer, match=reason):
            game.answer(wrong)
        assert game.state() == before and game.pending == monopoly.Decision(0, "buy", (3,))
    game.answer(False)  # declined: the auction opens, seat 0 first
    decision = game.pending
    assert decision.kind == "bid" and decision.seat == 0 and decision.args == (("space", 3), 0, None)
    assert isinstance(game.legal_answers(), Bids) and 1500 in game.legal_answers()
    assert 1501 not in game.legal_answers() and True not in game.legal_answers()
    with pytest.raises(monopoly.IllegalAnswer, match="at most your cash"):
        game.answer(1501)
    game.answer(10)
    game.answer(0)  # seat 1 passes: seat 0 has it for 10
    assert game.owner[3] == 0 and game.cash[0] == 1490
    assert game.pending == monopoly.Decision(0, "act")
    with pytest.raises(monopoly.IllegalAnswer, match="whole brown group"):
        game.answer(monopoly.Build(3))
    assert game.pending == monopoly.Decision(0, "act")


def test_respond_takes_answers_as_play_does_refused_and_the_safe_answer_taken():
    game = monopoly.Game(CLASSIC, players=2, seed=1)
    events = events_of(game)
    game.fix_dice([(1, 2)])
    game.advance()
    game.respond("yes")  # refused: not bought, so auctioned
    refused = [e for e in events if e["type"] == "refused"]
    assert len(refused) == 1 and "taken as False" in refused[0]["reason"]
    assert game.pending.kind == "bid" and game.owner[3] == -1


def test_every_listed_legal_answer_is_accepted_and_every_kind_is_met():
    """Over random games: each decision's listed answers pass the check, and the kinds cover the protocol."""
    seen = set()
    rng = random.Random(5)
    offered = 0
    for seed in range(12):
        game = monopoly.Game(CLASSIC, agents(("trader", "random", "trader", "random")), seed=seed, max_turns=300)
        bots = game.agents
        while (decision := game.advance()) is not None:
            seen.add(decision.kind)
            legal = legal_answers(game, decision)
            listed = list(legal)[:40] if isinstance(legal, Bids) else list(legal)
            assert listed, decision
            spaces = [answer for answer in listed if isinstance(answer, Trades)]
            for answer in listed:
                if isinstance(answer, Trades):  # a space of trades: those drawn from it are legal
                    for _ in range(3):
                        trade = answer.sample(rng)
                        assert trade in answer and check_answer(game, decision, trade) is None, (decision, trade)
                else:
                    assert check_answer(game, decision, answer) is None, (decision, answer)
            answer = getattr(bots[decision.seat], decision.kind)(game, decision.seat, *decision.args)
            if isinstance(answer, monopoly.Trade) and check_answer(game, decision, answer) is None:
                assert any(answer in space for space in spaces), answer  # the spaces hold every legal trade
                offered += 1
            game.respond(answer)
    assert set(KINDS) - {"choose"} <= seen  # the classic choice is Income Tax: asked of the next test's agent
    assert offered > 0  # the traders offered trades, each found in the listed spaces


def kinds_until(game, kind, bots):
    """Play ``game`` with ``bots`` until a decision of ``kind`` is pending (True), or the game ends."""
    while (decision := game.advance()) is not None:
        if decision.kind == kind:
            return True
        game.respond(getattr(bots[decision.seat], decision.kind)(game, decision.seat, *decision.args))
    return False


@pytest.mark.parametrize("kind", ["bid", "raise_funds", "answer_trade", "lift_mortgage", "jail", "choose"])
def test_a_copy_mid_turn_plays_on_alone_and_as_the_original_would(kind):
    """Copied at a decision in the middle of a turn (an auction, a debt being raised, a trade being answered, a
    card half resolved...): the copy plays on, the original is unchanged by it, and the original played on
    with the same (deterministic) agents gives the same game as the copy."""
    for seed in range(60):
        names = ("trader", "cautious", "trader", "greedy")
        game = monopoly.Game(CLASSIC, agents(names), seed=seed, max_turns=400)
        if kinds_until(game, kind, game.agents):
            break
    else:
        pytest.fail(f"no {kind} decision in 60 games")
    pending, before = game.advance(), game.state()
    copy = game.copy()
    assert copy.pending == pending and copy.state() == before
    copy_events = events_of(copy)
    copied = play(copy, agents(names))
    assert game.state() == before and game.pending == pending  # the original did not move
    original_events = events_of(game)
    result = play(game, agents(names))
    assert original_events == copy_events and result == copied


def test_a_search_agent_copies_the_game_while_it_decides():
    """An agent that looks ahead: at every purchase it copies the game (inside play(), where the game keeps
    no marks until a copy asks), plays the copy on a few turns both ways, and buys if it is better off."""

    class LookAhead(monopoly.Agent):
        name = "look-ahead"
        copies = 0

        def buy(self, game, seat, space):
            outcome = {}
            for choice in (True, False):
                trial = game.copy()
                type(self).copies += 1
                trial.answer(choice)
                trial.seat_agents(agents(("greedy",) * game.players))
                for _ in range(6):
                    if trial.finished:
                        break
                    trial.play_turn()
                outcome[choice] = trial.valuation(seat) - max(trial.valuation(s) for s in range(game.players)
                                                              if s != seat)
            before = game.state()
            assert game.state() == before
            return outcome[True] >= outcome[False]

    results = []
    for _ in range(2):
        game = monopoly.Game(CLASSIC, [LookAhead(), *agents(("greedy", "cautious"))], seed=3, max_turns=120)
        results.append((game.play(), game.state()))
    assert results[0] == results[1]  # copies change nothing: the same game twice
    assert LookAhead.copies > 10


def test_agents_may_be_plain_functions_of_game_and_decision():
    def thrifty(game, decision):
        if decision.kind in ("buy", "answer_trade", "lift_mortgage"):
            return game.cash[decision.seat] > 1000
        return None if decision.kind in ("act", "raise_funds", "bid") else legal_answers(game, decision)[0]

    game = monopoly.Game(CLASSIC, players=3, seed=8, max_turns=200)
    result = play(game, [thrifty, thrifty, monopoly.make_agent("greedy")])
    assert result.turns > 0 and [s.agent for s in sorted(result.standings, key=lambda s: s.seat)] == [
        "thrifty", "thrifty", "greedy"]


def test_play_turn_answer_and_play_mix_in_one_game():
    _, straight = straight_game(21, names=("greedy", "cautious"), max_turns=120)
    bots = agents(("greedy", "cautious"))
    game = monopoly.Game(CLASSIC, bots, seed=21, max_turns=120)
    events = events_of(game)
    for _ in range(5):
        game.play_turn()
    for _ in range(7):  # a few answers by hand, stopping mid-turn
        decision = game.advance()
        game.answer(getattr(bots[decision.seat], decision.kind)(game, decision.seat, *decision.args))
    game.play_turn()  # finishes the turn left half played
    game.play()
    assert events == straight


def test_a_driven_game_cannot_be_played_without_agents():
    game = monopoly.Game(CLASSIC, players=2, seed=1)
    with pytest.raises(monopoly.SetupError, match="cannot answer decisions"):
        game.play()
    with pytest.raises(monopoly.SetupError, match="give the agents"):
        monopoly.Game(CLASSIC, seed=1)


def test_a_copy_between_turns_and_of_a_finished_game():
    game = monopoly.Game(CLASSIC, agents(("greedy", "greedy")), seed=5, max_turns=30)
    game.play_turn()
    copy = game.copy()
    assert copy.state() == game.state()
    game.play()
    assert game.copy().state() == game.state() and game.copy().pending is None


def mid_turn_game(kind="bid", seed=4, names=("trader", "cautious", "trader")):
    for s in range(seed, seed + 40):
        game = monopoly.Game(CLASSIC, agents(names), seed=s, max_turns=300)
        if kinds_until(game, kind, game.agents):
            return game, names
    pytest.fail(f"no {kind} decision")


@pytest.mark.parametrize("kind", ["bid", "raise_funds", "answer_trade"])
def test_a_position_taken_mid_turn_holds_its_pending_work_and_resumes_there(kind):
    """The state of a game waiting in the middle of a turn is plain data with the turn's pending work: to JSON
    and back, into a new game, it waits for the same decision and plays on as the original does."""
    import json

    game, names = mid_turn_game(kind)
    state = game.state()
    assert state.pending is not None and state.pending.decision == (game.advance().seat, kind)
    data = json.loads(json.dumps(state.to_json()))
    assert data["pending"]["decision"] == {"seat": game.pending.seat, "kind": kind}
    again = monopoly.GameState.from_json(data, CLASSIC, players=len(names))
    assert again == state
    resumed = monopoly.Game.from_state(CLASSIC, agents(names), again, seed=game.seed, max_turns=300)
    assert resumed.pending == game.pending and resumed.state() == state
    resumed_events = events_of(resumed)
    original_events = events_of(game)
    assert play(resumed, agents(names)) == play(game, agents(names))
    assert resumed_events == original_events


def test_a_save_mid_turn_resumes_at_the_decision():
    import json

    game, names = mid_turn_game("bid")
    data = json.loads(json.dumps(monopoly.game_to_json(game)))
    resumed = monopoly.game_from_json(data, CLASSIC, agents(names))
    assert resumed.advance() == game.pending and resumed.state() == game.state()


@pytest.mark.parametrize("damage, words", [
    (lambda d: d["cash"].__setitem__(0, d["cash"][0] + 5), "does not follow from its turn's start"),
    (lambda d: d["pending"].__setitem__("answers", "yes"), "state.pending.answers is"),
    (lambda d: d["pending"]["answers"].append({"action": "fly", "space": 1}), "state.pending.answers[1]"),
    (lambda d: d["pending"].__setitem__("decision", {"seat": 0, "kind": "sing"}), "state.pending.decision is"),
    (lambda d: d["pending"]["start"].__setitem__("pending", {}), "has pending work of its own"),
    (lambda d: d["pending"]["start"]["buildings"].__setitem__(1, 9), "state.pending.start: "),
    (lambda d: d["pending"].__setitem__("fixed_dice", [[7, 7]]), "state.pending.fixed_dice is"),
    (lambda d: d["pending"].pop("start"), "state.pending has no 'start'"),
])
def test_damaged_pending_work_is_refused_with_the_problem(damage, words):
    import json

    game, names = mid_turn_game("bid")
    data = json.loads(json.dumps(game.state().to_json()))
    damage(data)
    with pytest.raises(monopoly.StateError) as refused:
        state = monopoly.GameState.from_json(data, CLASSIC, players=len(names))
        monopoly.Game.from_state(CLASSIC, agents(names), state, seed=1, max_turns=300)
    assert any(words in problem for problem in refused.value.problems), refused.value.problems


def test_the_trade_spaces_hold_exactly_the_trades_the_rules_allow():
    """``legal_answers`` for ``act`` ends with one :class:`Trades` per partner: lots of groups without buildings,
    each side's cash at most, the cards held; a trade is in it exactly when the game would take it."""
    from monopoly.game.state import Setup

    position = (Setup(CLASSIC, players=3).give("Baltic Avenue", 0).give("Mediterranean Avenue", 0)
                .build("Baltic Avenue", 1).build("Mediterranean Avenue", 1).give("Boardwalk", 0)
                .give("Park Place", 1).give("Reading Railroad", 2).set_cash(0, 300).set_cash(1, 50).set_cash(2, 0))
    game = monopoly.Game.from_state(CLASSIC, agents(("greedy",) * 3), position.state)
    game.fix_dice([(2, 3)])  # onto Reading Railroad, seat 2's: rent 25
    while game.advance().kind != "act":
        game.respond(getattr(game.agents[game.pending.seat], game.pending.kind)(game, game.pending.seat,
                                                                                 *game.pending.args))
    spaces = [answer for answer in game.legal_answers() if isinstance(answer, monopoly.Trades)]
    assert [(space.partner, space.give_spaces, space.get_spaces, space.give_cash, space.get_cash)
            for space in spaces] == [(1, (39,), (37,), 275, 50), (2, (39,), (5,), 275, 25)]  # brown is built on
    to_one = spaces[0]
    legal = monopoly.Trade(0, 1, give_spaces=(39,), get_spaces=[37], get_cash=50)
    assert legal in to_one and game.check(legal) is None
    for trade in (monopoly.Trade(0, 1, give_spaces=(1,)),           # a built group
                  monopoly.Trade(0, 1, give_spaces=(39, 39)),       # a lot twice
                  monopoly.Trade(0, 1, give_spaces=(39,), get_cash=51),  # more than the partner has
                  monopoly.Trade(0, 1, give_cash=10),               # nothing but cash moves
                  monopoly.Trade(0, 2, give_spaces=(39,))):         # another partner's space
        assert trade not in to_one and (game.check(trade) is not None or trade.partner != 1), trade
    game.trades_this_phase = game.rules.trades_per_phase  # the rules' trades a turn used up: no space listed
    assert not [answer for answer in game.legal_answers() if isinstance(answer, monopoly.Trades)]


def test_a_game_without_a_turn_cap_stops_at_the_ceiling_and_max_turns_is_checked() -> None:
    from monopoly.game.core import TURN_CEILING

    classic = monopoly.load_ruleset("classic")
    never = [lambda game, decision: False if decision.kind in ("buy", "answer_trade", "lift_mortgage") else None
             for _ in range(2)]  # nobody buys: nobody ever goes bankrupt
    game = monopoly.Game(classic, players=2, seed=1)
    assert (game.max_turns, game.turn_cap) == (None, TURN_CEILING)
    result = monopoly.play(game, never)
    assert (result.end, result.turns, result.winner) == ("turn_limit", TURN_CEILING, None)
    assert monopoly.GameState.of(game).problems(classic) == []  # the final position is a legal one
    for wrong in (0, -3, TURN_CEILING + 1, 2.5, True):
        with pytest.raises(monopoly.SetupError, match="max_turns is a number of turns from 1 to 10000"):
            monopoly.Game(classic, players=2, max_turns=wrong)
    game.max_turns = 50  # the property sets the cap the loop reads
    assert game.turn_cap == 50
    with pytest.raises(ValueError, match="max_turns must be from 1 to 10000"):
        monopoly.simulate(classic, ["greedy", "greedy"], games=1, max_turns=TURN_CEILING + 1)


class _Greedy:
    """A greedy bot (or another built-in one) inside a wrapper that the tests below change one answer of (not an
    Agent subclass, so that ``__getattr__`` is asked for every decision)."""

    name = "greedy"

    def __init__(self, bot: str = "greedy"):
        self.inner = monopoly.make_agent(bot)
        self.name = bot

    def setup(self, game, seat, rng):
        self.inner.setup(game, seat, rng)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class _Flaky(_Greedy):
    """Greedy, but its answer to one decision of a kind (the ``nth`` of them) raises, once."""

    def __init__(self, kind: str, nth: int, bot: str = "greedy"):
        super().__init__(bot)
        self.kind, self.nth, self.seen = kind, nth, 0

    def __getattr__(self, kind):
        answer = getattr(self.inner, kind)
        if kind != self.kind:
            return answer

        def flaky(*args):
            self.seen += 1
            if self.seen == self.nth:
                raise KeyboardInterrupt  # a person at the terminal, say, pressing Ctrl-C
            return answer(*args)
        return flaky


@pytest.mark.parametrize(("kind", "nth"), [("act", 1), ("act", 40), ("act", 90), ("bid", 5)])
def test_an_agent_that_raises_leaves_the_game_waiting_at_its_decision(kind, nth):
    """The decisions play() asks most (act, bid) are asked by the turn loop itself, not yielded to play(); when
    the agent raises there, play() raises it all the same, and the game waits at that decision: played on, it
    is the game that was never interrupted."""
    _, straight = straight_game(5, names=("greedy",) * 3, max_turns=300)
    flaky = _Flaky(kind, nth)
    game = monopoly.Game(CLASSIC, [flaky, *agents(("greedy",) * 2)], seed=5, max_turns=300)
    events = events_of(game)
    with pytest.raises(KeyboardInterrupt):
        game.play()
    assert game.pending is not None and game.pending.kind == kind and game.pending.seat == 0
    copy = game.copy()
    assert copy.pending == game.pending
    game.play()
    assert events == straight
    copy.seat_agents(agents(("greedy",) * 3))
    copy.play()
    assert copy.state() == game.state()


@pytest.mark.parametrize(("kind", "nth", "seed"), [("buy", 3, 2), ("raise_funds", 1, 2), ("raise_funds", 5, 2),
                                                   ("jail", 1, 3), ("answer_trade", 1, 1), ("answer_trade", 3, 1),
                                                   ("lift_mortgage", 1, 2), ("lift_mortgage", 2, 2),
                                                   ("between", 1, 2), ("between", 60, 2)])
def test_an_agent_that_raises_at_any_decision_asked_directly_leaves_the_game_waiting_there(kind, nth, seed):
    """Buying, raising a debt, the jail's choice, answering a trade, lifting a mortgage handed over and acting
    before another's turn are asked by the rules themselves while play() drives, as act and bid are: a trader
    that raises at one of them leaves the game waiting at that decision, and played on (or copied and played on)
    it is the game never interrupted. (In the game of ``seed`` seat 0 is asked ``kind`` at least ``nth`` times.)"""
    _, straight = straight_game(seed, names=("trader",) * 4, max_turns=400)
    flaky = _Flaky(kind, nth, "trader")
    game = monopoly.Game(CLASSIC, [flaky, *agents(("trader",) * 3)], seed=seed, max_turns=400)
    events = events_of(game)
    with pytest.raises(KeyboardInterrupt):
        game.play()
    assert flaky.seen == nth  # the game asked seat 0 that often before it raised
    assert game.pending is not None and game.pending.kind == kind and game.pending.seat == 0
    copy = game.copy()
    assert copy.pending == game.pending
    minds = [agent.get_state() for agent in game.agents]  # the traders remember the offers they made
    game.play()
    assert events == straight
    copy.seat_agents(agents(("trader",) * 4))
    for agent, mind in zip(copy.agents, minds, strict=True):
        agent.set_state(mind)
    copy.play()
    assert copy.state() == game.state()


@pytest.mark.parametrize("kind", ["act", "bid"])
def test_a_copy_taken_while_the_agent_answers_a_decision_play_asks_directly(kind):
    """An agent may copy the game while it answers the act and bid decisions too (asked by the turn loop
    itself): the copy waits at that decision and plays on as the original does."""
    copies = []

    class Copier(_Greedy):
        def __getattr__(self, name):
            answer = getattr(self.inner, name)
            if name != kind:
                return answer

            def copying(game, seat, *args):
                if len(copies) < 3 and game.turn > 30:
                    copy = game.copy()
                    assert copy.pending == game.pending and copy.pending.kind == kind
                    copies.append((copy, answer(copy, seat, *args)))
                return answer(game, seat, *args)
            return copying

    game = monopoly.Game(CLASSIC, [Copier(), *agents(("greedy",) * 2)], seed=9, max_turns=200)
    game.play()
    assert len(copies) == 3
    for copy, answer in copies:
        copy.answer(answer)
        copy.seat_agents(agents(("greedy",) * 3))
        copy.play()
        assert copy.state() == game.state()


@pytest.mark.parametrize("kind", ["act", "jail"])  # asked by the turn loop itself, and by play()
def test_an_agents_own_stop_iteration_is_raised_not_taken_for_the_games_end(kind):
    flaky = _Flaky(kind, 1)

    def stop(*args):
        raise StopIteration

    flaky.__dict__[kind] = stop  # its answer to this kind raises (the first one already stops play())
    game = monopoly.Game(CLASSIC, [flaky, *agents(("greedy",) * 2)], seed=5, max_turns=300)
    if kind == "jail":
        game.start()
        game.send_to_jail(0)
    with pytest.raises(StopIteration):
        game.play()
    assert not game.finished and game.pending is not None and game.pending.kind == kind


def test_an_agent_cannot_drive_the_game_play_asks_it_about():
    """Inside play(), an agent answers by returning; answering, stepping or playing its own game is refused with
    the reason, and the game is as it was: played on, the game that was never disturbed."""
    _, straight = straight_game(5, names=("greedy",) * 3, max_turns=300)
    tries = []

    class Meddler(_Greedy):
        def act(self, game, seat):
            if len(tries) < 4:
                for meddle in (lambda: game.answer(None), lambda: game.respond(None), game.play_turn,
                               lambda: play(game)):
                    with pytest.raises(RuntimeError, match="play\\(\\) is driving this game"):
                        meddle()
                    tries.append(meddle)
            return self.inner.act(game, seat)

    game = monopoly.Game(CLASSIC, [Meddler(), *agents(("greedy",) * 2)], seed=5, max_turns=300)
    events = events_of(game)
    game.play()
    assert len(tries) == 4 and events == straight


def test_a_decision_made_the_quick_way_is_the_same_decision():
    """The rules make their commonest decisions with ``new_decision`` (no named tuple ``__new__`` in Python): the
    same value, type and fields as ``Decision(...)``, so agents, copies and saves see no difference."""
    from monopoly.game.decisions import Decision, new_decision

    quick, plain = new_decision((2, "bid", (("space", 3), 50, 1))), Decision(2, "bid", (("space", 3), 50, 1))
    assert quick == plain and type(quick) is Decision and hash(quick) == hash(plain)
    assert (quick.seat, quick.kind, quick.args) == (2, "bid", (("space", 3), 50, 1))
    assert quick._replace(seat=0) == Decision(0, "bid", (("space", 3), 50, 1))


def test_what_an_agent_carries_out_itself_while_play_asks_it_is_asked_there_not_by_play():
    """An agent answering under play() may call ``game.apply`` (a set-up's tool): the partner of a trade it applies
    is asked by ``apply`` itself, so a partner that raises raises out of ``apply`` (the trade not made), and the
    decision play() waits for stays the agent's own."""
    seen = []

    class Applier(_Greedy):
        def __getattr__(self, kind):
            answer = getattr(self.inner, kind)
            if kind != "act":
                return answer

            def act(game, seat):
                lots = [s for s in game.tables.ownable if game.owner[s] == 0 and
                        not any(game.buildings[m] for m in game.tables.peers[s])]
                if not seen and game.turn > 20 and lots:
                    try:
                        game.apply(0, monopoly.Trade(0, 1, give_spaces=(lots[0],), get_cash=1))
                    except _PartnerRaised:
                        seen.append((game.pending, game.owner[lots[0]]))
                return answer(game, seat)
            return act

    class Partner(_Greedy):
        def answer_trade(self, game, seat, trade):
            raise _PartnerRaised

    game = monopoly.Game(CLASSIC, [Applier(), Partner()], seed=3, max_turns=200)
    game.play()  # what the partner raised came out of apply, to the agent, and not out of play() later
    assert seen == [(monopoly.Decision(0, "act"), 0)]  # the act still pending; the lot still seat 0's


class _PartnerRaised(Exception):
    """What the partner of a trade raises in the test above."""


def test_reading_the_game_never_moves_it_and_advance_does():
    """``pending``, ``state()``, ``legal_answers`` and ``describe`` are reads; ``advance`` plays on to the next
    decision (and answers play on to the one after)."""
    game = monopoly.Game(CLASSIC, players=2, seed=1)
    game.fix_dice([(1, 2)])
    before = game.state()
    assert game.pending is None and not game.finished
    with pytest.raises(monopoly.NoDecision, match=r"game.advance\(\) plays the game on"):
        game.legal_answers()
    with pytest.raises(monopoly.NoDecision):
        game.answer(True)
    with pytest.raises(monopoly.NoDecision):
        game.respond(True)
    monopoly.describe(game, 0)
    assert game.state() == before and game.events == [] and game.pending is None  # nothing rolled, nothing moved
    decision = game.advance()
    assert decision == monopoly.Decision(0, "buy", (3,)) and game.position[0] == 3
    moved = game.state()
    assert game.advance() == decision and game.pending == decision and game.state() == moved  # it waits
    game.answer(False)
    assert game.pending is not None and game.pending.kind == "bid"  # the answer played on to the next decision


def test_a_game_left_between_turns_by_play_turn_waits_for_advance():
    game = monopoly.Game(CLASSIC, agents(("greedy", "greedy")), seed=2, max_turns=30)
    game.play_turn()
    turn = game.turn
    assert game.pending is None and not game.finished and game.turn == turn  # between turns: nothing waits
    assert game.advance() is not None and game.turn == turn + 1


def test_a_finished_game_says_so():
    game = monopoly.Game(CLASSIC, agents(("greedy", "greedy")), seed=2, max_turns=5)
    game.play()
    assert game.pending is None and game.advance() is None
    with pytest.raises(monopoly.GameOver):
        game.legal_answers()
