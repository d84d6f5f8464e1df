"""Recording the decisions of a seat, and answering from a recording.

Built-in bots are deterministic: the ruleset, the seed and their names are
enough to play a game again. A person (or any agent that is not a built-in
bot) is not, so :class:`RecordingAgent` stands in front of such an agent and
writes each of its answers into the event stream as a ``decision`` event
(docs/events.md). :class:`ReplayAgent` answers from those events, in order, so
that a logged game can be played again event for event (``monopoly replay
--verify``).

>>> import monopoly
>>> from monopoly.agents.recorder import RecordingAgent, ReplayAgent, decisions_by_seat
>>> events = []
>>> ruleset = monopoly.load_ruleset("classic")
>>> seats = [RecordingAgent(monopoly.make_agent("random")), monopoly.make_agent("greedy")]
>>> game = monopoly.Game(ruleset, seats, seed=4, max_turns=60, observers=[events.append])
>>> _ = game.play()
>>> recorded = decisions_by_seat(events)
>>> again = []
>>> replay = monopoly.Game(ruleset, [RecordingAgent(ReplayAgent(recorded[0], "random")), monopoly.make_agent("greedy")],
...                        seed=4, max_turns=60, observers=[again.append])
>>> _ = replay.play()
>>> again == events
True
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..game.actions import Trade
from ..game.answers import decode_answer, encode_answer
from ..game.decisions import FORWARDING
from ..game.decisions import KINDS as DECISION_KINDS
from ..game.events import LOG_V2_ONLY, LOG_VERSION, RULES_VERSION
from .base import Agent, AuctionItem, Wrapper
from .bots import BOTS, make_agent

if TYPE_CHECKING:
    import random

    from ..game.game import Game

class ReplayMismatch(RuntimeError):
    """The game asked a replayed seat something other than what was recorded next."""


class ReplayExhausted(ReplayMismatch):
    """The game asked a replayed seat for a decision after its last recorded one."""


def decisions_by_seat(events: Iterable[Mapping[str, Any]]) -> dict[int, list[tuple[str, Any]]]:
    """The recorded ``(kind, answer)`` pairs of every seat that has any, in order."""
    found: dict[int, list[tuple[str, Any]]] = {}
    for event in events:
        if event.get("type") == "decision":
            found.setdefault(event["seat"], []).append((event["kind"], event["answer"]))
    return found


class RecordingAgent(Wrapper):
    """Forwards every decision to ``inner`` and records its answer as a ``decision`` event.

    The event goes to the game's observers (nothing is built when nobody
    observes the game), just after the answer and before what it causes.
    The wrapper takes the inner agent's name, so results and saves read the same.
    """

    def __init__(self, inner: Any):
        super().__init__(inner)
        self._game: Game | None = None

    def setup(self, game: Game, seat: int, rng: random.Random) -> None:
        self._game = game
        self.seat = seat
        super().setup(game, seat, rng)

    def _record(self, game: Game, seat: int, kind: str, answer: Any) -> Any:
        game.emit({"type": "decision", "seat": seat, "kind": kind, "answer": encode_answer(answer)})
        return answer

    def buy(self, game: Game, seat: int, space: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self._record(game, seat, "buy", self.inner.buy(game, seat, space))

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> Any:
        return self._record(game, seat, "bid", self.inner.bid(game, seat, item, high_bid, leader))

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._record(game, seat, "jail", self.inner.jail(game, seat, options))

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._record(game, seat, "choose", self.inner.choose(game, seat, options))

    def act(self, game: Game, seat: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self._record(game, seat, "act", self.inner.act(game, seat))

    def between(self, game: Game, seat: int, to_move: int) -> Any:
        """The inner agent's answer, recorded. An inner agent that never acts out of turn makes the recorder quiet
        too (FORWARDING): it is not asked, and nothing is recorded (see :class:`ReplayAgent`)."""
        ask = getattr(self.inner, "between", None)
        return self._record(game, seat, "between", ask(game, seat, to_move) if ask is not None else None)

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> Any:
        return self._record(game, seat, "answer_trade", self.inner.answer_trade(game, seat, trade))

    def raise_funds(self, game: Game, seat: int, owed: int) -> Any:
        return self._record(game, seat, "raise_funds", self.inner.raise_funds(game, seat, owed))

    def lift_mortgage(self, game: Game, seat: int, space: int) -> Any:
        return self._record(game, seat, "lift_mortgage", self.inner.lift_mortgage(game, seat, space))


FORWARDING.add(RecordingAgent.between)


class ReplayAgent(Agent):
    """Answers from recorded ``(kind, answer)`` pairs, in order; see :func:`decisions_by_seat`.

    Raises :class:`ReplayMismatch` when the game asks a different kind of
    decision than the next one recorded, and :class:`ReplayExhausted` when it
    asks after the last one.
    """

    def __init__(self, decisions: Sequence[tuple[str, Any]], name: str = "replay"):
        self.name = name
        self._decisions = deque(decisions)
        self.answered = 0
        # A seat whose agent never acted out of turn has no `between` recorded (its recorder was not asked):
        # it answers None without taking a recorded decision.
        self.quiet_between = not any(kind == "between" for kind, _ in self._decisions)

    def _next(self, seat: int, kind: str) -> Any:
        if not self._decisions:
            raise ReplayExhausted(f"the game asks seat {seat} to decide '{kind}' after its "
                                  f"{self.answered} recorded decisions")
        recorded_kind, answer = self._decisions[0]
        if recorded_kind != kind:
            raise ReplayMismatch(f"the game asks seat {seat} to decide '{kind}' where decision "
                                 f"{self.answered + 1} of the seat was '{recorded_kind}'")
        self._decisions.popleft()
        self.answered += 1
        return decode_answer(answer)

    def buy(self, game: Game, seat: int, space: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self._next(seat, "buy")

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> Any:
        return self._next(seat, "bid")

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._next(seat, "jail")

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._next(seat, "choose")

    def act(self, game: Game, seat: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self._next(seat, "act")

    def between(self, game: Game, seat: int, to_move: int) -> Any:
        return None if self.quiet_between else self._next(seat, "between")

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> Any:
        return self._next(seat, "answer_trade")

    def raise_funds(self, game: Game, seat: int, owed: int) -> Any:
        return self._next(seat, "raise_funds")

    def lift_mortgage(self, game: Game, seat: int, space: int) -> Any:
        return self._next(seat, "lift_mortgage")

    def get_state(self) -> Any:
        return None


# ---------------------------------------------------------------------- replaying a log


@attrs.frozen
class Difference:
    """Where a replayed game first differs from its log.

    ``number`` is the event's number from 1 (its line in the log);
    ``expected`` is the logged event (None when the log had ended) and ``got``
    the replayed one (None when the replay stopped or ended first). ``cut`` is
    True when the log simply stops where the game goes on, at a place where a
    log that is whole never stops (see :func:`replay_log`): ``got`` is then the
    event the log should have had next.
    """

    number: int
    expected: dict[str, Any] | None
    got: dict[str, Any] | None
    reason: str
    cut: bool = False


#: Why a log without ``game_end`` is damaged: it stops just before the game's end...
CUT_BEFORE_END = "the log stops before the game_end event the game reaches (cut off?)"
#: ... or in the middle of a turn, where nobody was being asked anything.
CUT_MID_TURN = "the log stops in the middle of turn {turn} (cut off?)"


@attrs.frozen
class ReplayCheck:
    """The outcome of :func:`replay_log`: ``difference`` is None when every event matched.

    ``stops`` says where an unfinished log that passes stops: ``"between turns"``
    (the game goes on with a new turn) or ``"at a question"`` (the game goes on by
    asking a person a decision the log does not have: they quit there). None for
    a complete log and for one that does not pass.
    """

    events: int  # logged events that the replay matched
    complete: bool  # the log ends with game_end (else it stops in the middle of the game)
    difference: Difference | None
    stops: str | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


class _Stop(Exception):
    def __init__(self, difference: Difference):
        super().__init__(difference.reason)
        self.difference = difference


def replay_agents(events: Sequence[Mapping[str, Any]]) -> list[Agent]:
    """The agents of a logged game: seats with recorded decisions answer from them (and record them
    again); the others are built-in bots, found by name."""
    players = list(events[0]["players"])
    recorded = decisions_by_seat(events)
    agents: list[Agent] = []
    for seat, name in enumerate(players):
        if seat in recorded or name not in BOTS:
            agents.append(RecordingAgent(ReplayAgent(recorded.get(seat, []), name)))
        else:
            agents.append(make_agent(name))
    return agents


class _ClockTold(Wrapper):
    """A replayed seat that, before it answers, tells the game its clock ran out when the log says the driver
    did so just there (``time_up`` is the next logged event)."""

    def __init__(self, inner: Any, due: Any):
        super().__init__(inner)
        self.due = due


def _told_then_asked(kind: str) -> Any:
    def ask(self: _ClockTold, game: Any, seat: int, *args: Any) -> Any:
        if self.due():
            game.time_up()
        return getattr(self.inner, kind)(game, seat, *args)

    ask.__name__ = kind
    return ask


for _kind in DECISION_KINDS:
    setattr(_ClockTold, _kind, _told_then_asked(_kind))
FORWARDING.add(_ClockTold.between)  # quiet when the replayed seat is


def as_played_by(ruleset: Any, version: int) -> Any:
    """``ruleset`` as an engine of rules version ``version`` played it, where a knob of the rules says how: before
    version 4 only the mover acted between turns (``rules.between_turns: mover``) and the fine could be paid
    first on the last turn in jail too (``rules.jail.pay_on_last_turn``). The other changes of version 4 (the
    tournament rule's breakdowns, the speed die's cash) have no knob: a log that reaches them differs, and the
    replay says which version played it."""
    if version >= 4:
        return ruleset
    rules = ruleset.rules
    return attrs.evolve(ruleset, rules=attrs.evolve(rules, between_turns="mover",
                                                    jail=attrs.evolve(rules.jail, pay_on_last_turn=True)))


def replay_log(events: Sequence[Mapping[str, Any]], ruleset: Any) -> ReplayCheck:
    """Play a logged game again from its ruleset, seed and recorded decisions, comparing every event.

    ``events`` start with ``game_start`` (read them with
    :func:`monopoly.game.log.read_log`); ``ruleset`` is the ruleset the game was
    played on, variants applied. A game stopped by the clock (the time-limit
    variant) is stopped after the same turn.

    A log that does not end with ``game_end`` is unfinished. The replay plays on
    past its last event, and what the game does next decides whether the log is
    one of a game really stopped part way or a damaged one:

    - the game starts a new turn (its next event is ``turn``): the log stops
      between turns (a game stopped, or saved and not resumed, after a turn): it
      passes, ``stops="between turns"``;
    - the game asks a person a decision the log does not have: the log stops
      where a person quit ``monopoly play`` (or its input ended): it passes,
      ``stops="at a question"``;
    - the game's next event is ``game_end``: the log was cut off just before its
      end: a :class:`Difference` with ``cut=True`` (:data:`CUT_BEFORE_END`);
    - any other event: the log stops in the middle of a turn where nobody was
      asked anything: a :class:`Difference` with ``cut=True`` (:data:`CUT_MID_TURN`).

    A log cut exactly where a person was about to be asked, or exactly between two
    turns, looks like a game stopped there, and passes. So does the log of a game
    the time-limit variant's clock ended (its minutes, not its rounds), cut just
    before its ``game_end``: the clock is not in the log.
    """
    from ..game.game import Game

    if not events or events[0].get("type") != "game_start":
        raise ValueError("the log does not start with a game_start event")
    start = events[0]
    logged_rules = start.get("rules", 1)
    ruleset = as_played_by(ruleset, logged_rules if type(logged_rules) is int else RULES_VERSION)
    log = _LoggedEvents(events, _version_note(logged_rules))
    clock_turn = _clock_turn(log, ruleset)

    def clock_due() -> bool:
        """The log says the driver's clock ran out just here."""
        return log.time_up_next() and ruleset.rules.end.when == "time" and not game.finished

    agents: list[Any] = [_ClockTold(agent, clock_due) for agent in replay_agents(events)]
    game = Game(ruleset, agents, seed=start["seed"], max_turns=start.get("max_turns"), observers=[log])
    try:
        _play_out(game, clock_due, clock_turn)
    except _Stop as stop:
        if stop.difference.number == 0:
            return ReplayCheck(log.seen, log.complete, None, "between turns")
        return ReplayCheck(log.seen, log.complete, stop.difference)
    except ReplayMismatch as exc:
        if isinstance(exc, ReplayExhausted) and not log.complete and log.seen == len(log.expected):
            return ReplayCheck(log.seen, log.complete, None, "at a question")  # the log stops where a person was asked
        difference = Difference(log.seen + 1, log.logged_next(), None, str(exc) + log.note)
        return ReplayCheck(log.seen, log.complete, difference)
    if log.seen < len(log.expected):
        difference = Difference(log.seen + 1, log.logged_next(), None,
                                "the replayed game ended before the log" + log.note)
        return ReplayCheck(log.seen, log.complete, difference)
    return ReplayCheck(log.seen, log.complete, None)


def _version_note(logged_rules: Any) -> str:
    """What a difference adds when another rules version than this engine's played the log ("" when this one)."""
    return "" if logged_rules == RULES_VERSION else (
        f" (the log was played by rules version {logged_rules}, this engine plays version {RULES_VERSION}: a game "
        "that reaches a rule changed since plays differently, so such a log cannot be verified by this version)")


class _LoggedEvents:
    """The observer of a replay: each event the replayed game gives is compared with the next logged one."""

    def __init__(self, events: Sequence[Mapping[str, Any]], note: str):
        self.expected = [dict(e) for e in events]
        self.complete = self.expected[-1]["type"] == "game_end"
        self.old_format = events[0].get("log", 1) < LOG_VERSION  # written before the events that complete the record
        self.note = note  # added to the reason of a difference
        self.seen = 0  # logged events matched so far

    def logged_next(self) -> dict[str, Any] | None:
        """The logged event to be matched next (None past the end of the log)."""
        return self.expected[self.seen] if self.seen < len(self.expected) else None

    def time_up_next(self) -> bool:
        """The next logged event is a ``time_up``: the driver's clock ran out there."""
        return self.seen < len(self.expected) and self.expected[self.seen]["type"] == "time_up"

    def __call__(self, event: dict[str, Any]) -> None:
        got = self._as_logged(json.loads(json.dumps(event)))
        if got is None:
            return
        if self.seen >= len(self.expected):
            raise _Stop(self._past_the_end(got))
        if self.seen == 0 and got["type"] == "game_start":  # the rules version is compared apart (replay_log)
            got.pop("rules", None)
            self.expected[0].pop("rules", None)
        if got != self.expected[self.seen]:
            raise _Stop(Difference(self.seen + 1, self.expected[self.seen], got,
                                   "the replayed event is not the logged one" + self.note))
        self.seen += 1

    def _as_logged(self, got: dict[str, Any]) -> dict[str, Any] | None:
        """The event as the log's version wrote it: without the keys added since, None for an event added since."""
        if self.old_format:
            if got["type"] in LOG_V2_ONLY["types"] or (got["type"] == "jail" and got["action"] == "stay"):
                return None
            if got["type"] == "game_start":
                for key in LOG_V2_ONLY["game_start"]:
                    got.pop(key, None)
        return got

    def _past_the_end(self, got: dict[str, Any]) -> Difference:
        """What a replayed event after the last logged one says: the game goes on past a complete log, an
        unfinished log stops between turns (number 0), or it was cut off."""
        if self.complete:
            return Difference(self.seen + 1, None, got, "the replayed game goes on after the end of the log")
        if got["type"] == "turn":
            return Difference(0, None, None, "end of an unfinished log")
        if got["type"] == "game_end":
            reason = CUT_BEFORE_END
        else:
            turn = next((e for e in reversed(self.expected) if e["type"] == "turn"), None)
            reason = CUT_MID_TURN.format(turn=turn["turn"]) if turn is not None else \
                "the log stops in the middle of the game's set-up (cut off?)"
        return Difference(self.seen + 1, None, got, reason, cut=True)


def _clock_turn(log: _LoggedEvents, ruleset: Any) -> Any:
    """The turn after which the clock ended the game of a log of version 1, which has no time_up (a game the clock
    ended before its round limit ended after its last turn): its game_end's ``turns``; None for any other log."""
    end = log.expected[-1] if log.complete else None
    if log.old_format and end is not None and end["end"] == "time" and ruleset.rules.end.when == "time" and \
            end["rounds"] < ruleset.rules.end.rounds:
        return end["turns"]
    return None


def _play_out(game: Any, clock_due: Callable[[], bool], clock_turn: int | None) -> None:
    """Play the replayed game to its end, telling it its clock ran out where the log says it did."""
    while not game.finished:
        if clock_due():
            game.time_up()  # the driver's clock ran out here, between turns
            continue
        game.play_turn()
        if clock_turn is not None and game.turn >= clock_turn and not game.finished:
            game.time_up()
