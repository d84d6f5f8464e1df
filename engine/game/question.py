"""What a game asks a player: the kinds of decision and the :class:`Decision` record (who is asked, what kind,
about what), with the marker of an answer that did not come (:data:`RAISED`). Nothing here knows the game:
what each kind accepts is decided in :mod:`monopoly.game.decisions`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final, NamedTuple, cast

#: Every kind of decision, each also the name of the :class:`~monopoly.Agent` method that answers it.
KINDS = ("buy", "bid", "jail", "choose", "act", "between", "answer_trade", "raise_funds", "lift_mortgage")

#: The decisions whose answer is an action between turns (``None`` when done): ``act``, the player whose turn
#: just ended; ``between``, every other player still in the game, before the next turn.
ACTING = ("act", "between")

class Decision(NamedTuple):
    """What the game asks ``seat``: ``kind`` (one of :data:`KINDS`) and its ``args`` (see the module table)."""

    seat: int
    kind: str
    args: tuple[Any, ...] = ()


#: ``new_decision((seat, kind, args))`` is ``Decision(seat, kind, args)``, made without the named tuple's own
#: ``__new__`` (a Python function, three times the cost): what the rules ask at every bid, offer and debt.
new_decision = cast("Callable[[tuple[int, str, tuple[Any, ...]]], Decision]", partial(tuple.__new__, Decision))


class _Raised:
    """What ``core.ask_direct`` answers when the agent it asked raised (see there)."""

    def __repr__(self) -> str:
        return "RAISED"


#: No answer: the agent asked directly raised, and the decision is yielded to play(), which raises it.
RAISED: Final[Any] = _Raised()  # Any: it stands where any answer may; Final: a constant of the compiled build
