"""A table of the web server (docs/web.md): one game, its seats (people at a browser, or bots), and the lines of
the agents protocol each seat is sent. The table is authoritative: it drives the game itself (the caller's API:
``pending``, ``answer``), answers the bots' decisions at once, and for a person's decision sends that seat a
``decision`` line (the protocol's, with both views) and waits for its ``answer`` line. Nothing here knows of
HTTP: the server hands lines in and takes lines out.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..agents import Agent, make_agent
from ..agents.describe import options
from ..agents.protocol import (
    BadLine,
    answer_of,
    decision_message,
    hello,
    public_event,
    public_state,
    read_message,
)
from ..game.decisions import Decision, ask_agent, check_answer, legal_answers
from ..game.game import Game
from ..ruleset.model import Ruleset

#: The lines a seat's outbox keeps at most (a browser that stops reading loses the oldest; the page asks again).
MAX_OUTBOX = 10_000
#: Seats a table may have.
MAX_SEATS = 8
#: The per-decision clock a table may set, in seconds (0: none).
MIN_CLOCK, MAX_CLOCK = 5, 3600


@attrs.define
class Seat:
    """A seat: a person (``bot`` None) with the secret ``token`` of its link, or a bot by name."""

    name: str
    bot: str | None
    token: str
    outbox: list[dict[str, Any]] = attrs.field(factory=list)
    seen: int = 0  # the game's events this seat has been sent


class TableError(ValueError):
    """A request a table refuses (an unknown seat, a game over): the message says why."""


class Table:
    """One game between people and bots. ``seats``: (name, bot or None) by seat; a person's seat gets a token
    (``secrets.token_urlsafe``) that its link carries.

    Two clocks, both kept here (the engine keeps none, so the game stays the same whatever the time):
    ``clock``, seconds a person has for each decision (None: no limit), after which the table answers for them
    with the answers that risk nothing (declined, passed, no action: see ``_OutOfTime``); and, when the
    ruleset ends on time (the time-limit variant), the game's minutes, after which the table tells the game
    (``game.time_up()``: it ends after the turn in progress). Both run while the server runs; :meth:`expire`
    applies them (the server calls it at :meth:`next_deadline`). ``now``: the clock read (monotonic seconds).
    """

    def __init__(self, table_id: str, ruleset: Ruleset, seats: Sequence[tuple[str, str | None]], seed: int,
                 max_turns: int | None = None, *, clock: float | None = None, saved: dict[str, Any] | None = None,
                 now: Callable[[], float] = time.monotonic):
        problem = ruleset.players_problem(len(seats))
        if problem is None and len(seats) > MAX_SEATS:
            problem = f"a table seats at most {MAX_SEATS} players, not {len(seats)}"
        if problem is not None:
            raise TableError(problem)
        self.id = table_id
        self.ruleset = ruleset
        self.seats = [Seat(name, bot, secrets.token_urlsafe(24)) for name, bot in seats]
        agents = [make_agent(bot) if bot is not None else _Person(name) for name, bot in seats]
        self.watch_token = secrets.token_urlsafe(24)
        self._number = 0
        if clock is not None and not MIN_CLOCK <= clock <= MAX_CLOCK:  # NaN fails too
            raise TableError(f"the clock gives each decision {MIN_CLOCK} to {MAX_CLOCK} seconds")
        self.clock = clock
        self._now = now
        self._deadline: float | None = None  # when the person asked now runs out of time
        end = ruleset.rules.end
        game_seconds = end.minutes * 60.0 if end.when == "time" else None
        if saved is not None:  # a table saved by the server, resumed: the same game, the same links
            from ..game.save import game_from_json

            self.game = game_from_json(saved["game"], ruleset, agents)
            for entry, token in zip(self.seats, saved["tokens"], strict=True):
                entry.token = token
            self._number = saved["number"]
            if game_seconds is not None:  # the time left when it was saved (the clock stood while it was away)
                game_seconds = saved.get("time_left", game_seconds)  # None: the game was told already
        else:
            self.game = Game(ruleset, agents, seed=seed, max_turns=max_turns)
        #: when the game's time runs out (the time-limit rules), None without one or once the game was told
        self._game_ends = None if game_seconds is None else now() + max(0.0, game_seconds)
        self._asked: tuple[int, Decision] | None = None  # (number, decision) sent to a person and waited for
        for seat in range(len(self.seats)):
            if self.seats[seat].bot is None:
                self._send(seat, hello(self.game, seat, self.clock or 0.0))

    # ------------------------------------------------------------------ who is who

    def seat_of(self, token: str) -> int:
        """The seat whose link carries ``token`` (a TableError for any other)."""
        for seat, entry in enumerate(self.seats):
            if entry.bot is None and secrets.compare_digest(entry.token, token):
                return seat
        raise TableError("no seat of this table has that link")

    @property
    def waiting_for(self) -> int | None:
        """The seat of the person whose answer the game waits for; None while bots play or when it is over."""
        return self._asked[1].seat if self._asked is not None else None

    # ------------------------------------------------------------------ playing

    def advance(self, limit: int = 100_000) -> None:
        """Play on: the bots answer their decisions, until a person is asked (their seat is sent the decision)
        or the game is over (every person is sent ``end``). ``limit`` bounds the decisions taken in one call."""
        game = self.game
        if self._asked is not None:
            return
        self._game_clock()
        for _ in range(limit):
            decision = game.advance()
            if decision is None:
                self._flush_events()
                for seat, entry in enumerate(self.seats):
                    if entry.bot is None:
                        self._send(seat, {"type": "end", "result": game.result().to_json()})
                return
            if self.seats[decision.seat].bot is not None:
                game.respond(ask_agent(game.agents[decision.seat], game, decision))
                continue
            if decision.kind == "between" and legal_answers(game, decision) == (None,):
                game.answer(None)  # a person with nothing to do before another's turn is not asked
                continue
            self._number += 1
            self._asked = (self._number, decision)
            self._deadline = None if self.clock is None else self._now() + self.clock
            self._flush_events()
            self._send(decision.seat, self._decision_line(decision, self._number))
            return

    def next_deadline(self) -> float | None:
        """When a clock of the table next runs out (in ``now`` seconds), None when none is running."""
        times = [t for t in (self._deadline if self._asked is not None else None,
                             None if self.game.finished else self._game_ends) if t is not None]
        return min(times) if times else None

    def expire(self) -> bool:
        """Apply the clocks that have run out: a person out of time is answered for (every person is sent a
        ``timeout`` line naming the seat), and a game out of time is told so. True when anything changed."""
        changed = self._game_clock()
        asked = self._asked
        if asked is not None and self._deadline is not None and self._now() >= self._deadline:
            number, decision = asked
            self._asked = self._deadline = None
            self.game.answer(ask_agent(_PLAIN, self.game, decision))
            for seat, entry in enumerate(self.seats):
                if entry.bot is None:
                    self._send(seat, {"type": "timeout", "id": number if seat == decision.seat else None,
                                      "seat": decision.seat, "kind": decision.kind})
            changed = True
        if changed:
            self.advance()
        return changed

    def _game_clock(self) -> bool:
        """Tell the game its time is up when the time-limit rules' minutes have run out (once)."""
        if self._game_ends is None or self._now() < self._game_ends or self.game.finished:
            return False
        self._game_ends = None
        self.game.time_up()  # between turns the game ends now; during a turn, after it
        return True

    def clocks(self) -> dict[str, float | None]:
        """The seconds left on the table's clocks: ``decision`` (the person asked now), ``game`` (time-limit)."""
        now = self._now()
        return {"decision": None if self._asked is None or self._deadline is None else max(0.0, self._deadline - now),
                "game": None if self._game_ends is None or self.game.finished else max(0.0, self._game_ends - now)}

    def _decision_line(self, decision: Decision, number: int) -> dict[str, Any]:
        return {**decision_message(self.game, decision, number, self._events_for(decision.seat), "both"),
                "clocks": self.clocks()}

    def receive(self, seat: int, line: bytes) -> None:
        """A line from ``seat``'s browser: an answer to its decision (acknowledged; a refused one changes nothing
        and the decision stays open: a person may try again), or a ``check`` of an answer (see :meth:`_check`)."""
        asked = self._asked
        try:
            message = read_message(line)
            if message["type"] == "check":  # the trade builder's question: nothing changes
                self._check(seat, message)
                return
            if asked is None or asked[1].seat != seat:
                raise BadLine("wrong_id", "nothing is asked of this seat now")
            number, decision = asked
            answer = answer_of(message, decision, number, options(self.game, decision))
        except BadLine as bad:
            self._send(seat, {"type": "ack", "id": asked[0] if asked is not None else 0, "ok": False, "code": bad.code,
                              "reason": bad.reason, "retry": True})
            return
        reason = check_answer(self.game, decision, answer)
        if reason is not None:
            self._send(seat, {"type": "ack", "id": number, "ok": False, "code": "illegal", "reason": reason,
                              "retry": True})
            return
        self._send(seat, {"type": "ack", "id": number, "ok": True})
        self._asked = self._deadline = None
        self.game.answer(answer)
        self.advance()

    def rejoin(self, seat: int) -> None:
        """A page (re)opens the seat's link: it is sent hello, every event so far, and the decision that waits for
        it, if one does (what it had been sent before is dropped)."""
        entry = self.seats[seat]
        entry.outbox = []
        entry.seen = 0
        self._send(seat, hello(self.game, seat, self.clock or 0.0))
        if self._asked is not None and self._asked[1].seat == seat:
            number, decision = self._asked
            self._send(seat, self._decision_line(decision, number))
        else:
            self._send(seat, {"type": "events", "events": self._events_for(seat), "state": public_state(self.game),
                              "clocks": self.clocks()})
        if self.game.finished:
            self._send(seat, {"type": "end", "result": self.game.result().to_json()})

    def _check(self, seat: int, message: dict[str, Any]) -> None:
        """A ``check`` line from ``seat``'s page, ``{"type": "check", "answer": ...}``: would this answer be taken
        now? (The trade builder asks at each change.) The seat is sent ``{"type": "checked", "ok", "reason"}``;
        nothing changes."""
        asked = self._asked
        try:
            if asked is None or asked[1].seat != seat:
                raise BadLine("wrong_id", "nothing is asked of this seat now")
            number, decision = asked
            answer = answer_of({**message, "type": "answer", "id": number}, decision, number, None)
        except BadLine as bad:
            self._send(seat, {"type": "checked", "ok": False, "reason": bad.reason})
            return
        reason = check_answer(self.game, decision, answer)
        self._send(seat, {"type": "checked", "ok": reason is None, "reason": reason or ""})

    def saved(self) -> dict[str, Any]:
        """What the server keeps of the table (with the source of its ruleset): the seats' links and the game."""
        from ..game.save import game_to_json

        kept = {"tokens": [seat.token for seat in self.seats], "number": self._number, "clock": self.clock,
                "game": game_to_json(self.game)}
        if self.ruleset.rules.end.when == "time":  # None once the game was told its time is up
            kept["time_left"] = None if self._game_ends is None else max(0.0, self._game_ends - self._now())
        return kept

    # ------------------------------------------------------------------ lines out

    def take(self, seat: int) -> list[dict[str, Any]]:
        """The lines waiting for ``seat``, in order (they are taken)."""
        entry = self.seats[seat]
        lines, entry.outbox = entry.outbox, []
        return lines

    def _send(self, seat: int, message: dict[str, Any]) -> None:
        outbox = self.seats[seat].outbox
        outbox.append(message)
        if len(outbox) > MAX_OUTBOX:
            del outbox[:len(outbox) - MAX_OUTBOX]

    def _events_for(self, seat: int) -> list[dict[str, Any]]:
        entry = self.seats[seat]
        events = [public_event(record) for record in self.game.events[entry.seen:]]
        entry.seen = len(self.game.events)
        return events

    def _flush_events(self) -> None:
        """Send every person the events of the game they have not been sent (what they watch between their own
        decisions)."""
        for seat, entry in enumerate(self.seats):
            if entry.bot is None and entry.seen < len(self.game.events):
                self._send(seat, {"type": "events", "events": self._events_for(seat),
                                  "state": public_state(self.game), "clocks": self.clocks()})


class _OutOfTime(Agent):
    """The answers given for a person out of time: those that risk nothing (the plain agent's, but a lot is
    not bought): declined, passed, a card or the roll in jail, the first alternative, no action, a trade
    declined, debts raised the engine's cheapest way, a mortgage's interest paid."""

    def buy(self, game: Any, seat: int, space: int) -> bool:
        return False


_PLAIN = _OutOfTime()


class _Person:
    """A person's seat in the table's game: the table answers for it (never asked by the game itself)."""

    def __init__(self, name: str):
        self.name = name
