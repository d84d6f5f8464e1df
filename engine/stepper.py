"""Drive a game one decision at a time, from outside (search and learning agents, UIs).

The engine asks agents by calling them. :class:`Stepper` turns that inside out:
the game runs in a helper thread, and each time it asks a seat you control,
:meth:`Stepper.next` hands you a :class:`Decision` and waits for
:meth:`Stepper.answer`. Only one of the two threads ever runs at a time, so the
game stays deterministic: the same seed and answers give the same game.

>>> import monopoly
>>> from monopoly.stepper import Stepper
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.Agent(), monopoly.make_agent("greedy")],
...                      seed=3, max_turns=30)
>>> stepper = Stepper(game, seats=[0])
>>> decision = stepper.next()
>>> decision.kind in ("buy", "act", "bid", "jail", "choose", "answer_trade", "raise_funds", "lift_mortgage")
True
>>> while decision is not None:
...     decision = stepper.next(stepper.default(decision))
>>> game.finished
True
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import attrs

from .agents.base import Agent

DECISIONS = ("buy", "bid", "jail", "choose", "act", "answer_trade", "raise_funds", "lift_mortgage")


@attrs.frozen
class Decision:
    """What the game asks ``seat``: ``kind`` is an :class:`~monopoly.Agent` method name,
    ``args`` its arguments after the game and the seat (for ``jail`` the options, for
    ``bid`` the item, the high bid and the leader...)."""

    seat: int
    kind: str
    args: tuple[Any, ...]


class _Remote(Agent):
    """Stands in a seat and forwards every question to the stepper."""

    def __init__(self, stepper: Stepper, seat: int, inner: Any):
        self._stepper = stepper
        self._seat = seat
        self._inner = inner
        self.name = getattr(inner, "name", "remote")

    def setup(self, game: Any, seat: int, rng: Any) -> None:  # the inner agent was set up already
        pass


def _forward(kind: str) -> Any:
    def ask(self: _Remote, game: Any, seat: int, *args: Any) -> Any:
        return self._stepper._ask(Decision(seat, kind, args))

    ask.__name__ = kind
    return ask


for _kind in DECISIONS:
    setattr(_Remote, _kind, _forward(_kind))


class Stepper:
    """Play ``game`` with the decisions of ``seats`` answered from outside."""

    def __init__(self, game: Any, seats: list[int]):
        self.game = game
        self._inner = {seat: game.agents[seat] for seat in seats}
        for seat in seats:
            game.agents[seat] = _Remote(self, seat, game.agents[seat])
        self._questions: queue.Queue[Decision | BaseException | None] = queue.Queue(maxsize=1)
        self._answers: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._pending: Decision | None = None
        self._thread = threading.Thread(target=self._run, name="monopoly-game", daemon=True)
        self._started = False

    def _run(self) -> None:
        try:
            self.game.play()
            self._questions.put(None)
        except BaseException as exc:  # handed to the caller of next()
            self._questions.put(exc)

    def _ask(self, decision: Decision) -> Any:
        self._questions.put(decision)
        return self._answers.get()

    def next(self, answer: Any = None) -> Decision | None:
        """Answer the pending decision (if any) and return the next one, or None when the game is over."""
        if not self._started:
            self._started = True
            self._thread.start()
        elif self._pending is not None:
            self._answers.put(answer)
        elif self.game.finished:
            return None
        item = self._questions.get()
        if isinstance(item, BaseException):
            self._pending = None
            raise item
        self._pending = item
        return item

    def default(self, decision: Decision) -> Any:
        """What the seat's own agent (the one replaced) would answer: handy as a fallback."""
        inner = self._inner[decision.seat]
        return getattr(inner, decision.kind)(self.game, decision.seat, *decision.args)
