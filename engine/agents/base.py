"""The Agent protocol: one method per decision the engine asks of a player.

The engine calls these with the game (read it, do not change it: changes go
through the actions you return) and the seat deciding. Subclass :class:`Agent`
and override what you care about; the defaults are plain and legal.

Every answer is checked where it comes in, its type first (``type(x) is int``:
``True`` is no number, ``3.0`` and ``"3"`` are none either), then its legality.
A wrong answer never raises out of the engine and never changes the state: it
is refused (a ``refused`` event, and :meth:`Agent.refused` is called with a
reason naming the problem) and the engine goes on with the answer that risks
nothing:

=================  ==============================  ========================================
decision           a well-typed answer             anything else counts as (and is refused)
=================  ==============================  ========================================
``buy``            ``True`` or ``False``           ``False``: not bought (then auctioned,
                                                   when the rules auction declined lots)
``bid``            an ``int`` above the high bid,  no bid: out of the auction. 0 and
                   at most your cash               ``None`` are a plain pass (not refused)
``jail``           one of ``options`` (a ``str``)  ``"roll"``
``choose``         an ``int`` index of options     0, the first alternative
``act``            an action or ``None``           the action is skipped; after a few
                                                   refusals the phase ends
``between``        an action (no card use) or      as ``act``
                   ``None``
``answer_trade``   ``True`` or ``False``           ``False``: the trade is declined
``raise_funds``    a ``SellBuilding`` or           skipped; after a few refusals the engine
                   ``Mortgage``, or ``None``       sells and mortgages for you
``lift_mortgage``  ``True`` or ``False``           ``False``: the interest is paid now
=================  ==============================  ========================================

An action is refused when it is not one of the engine's own classes (a
subclass is not), when a field has the wrong type (``Build("3")``,
``Build(True)``, ``Build(10**100)``, ``Trade(give_spaces=([1],))``: spaces are
ints on the board, cash is an int, lots and cards are tuples or lists, a card
is a ``(deck, index)`` pair of a str and an int), or when the rules do not
allow it now. Answers are never compared, hashed or truth-tested before their
type is known, so an object whose ``__eq__``, ``__hash__``, ``__bool__`` or
``__repr__`` raises is refused like any other.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .._mypyc import mypyc_attr
from ..game.decisions import FORWARDING, QUIET

if TYPE_CHECKING:
    from ..game.actions import Action, Trade
    from ..game.game import Game

#: What an auction is for: ("space", index), ("house", None) or ("hotel", None).
AuctionItem = tuple[str, Any]


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent:
    """A player's decisions. ``name`` labels it in results and logs."""

    #: Typed Any, not str: whatever an agent sets is checked where it is shown (``decisions.agent_name``), and a
    #: compiled build would refuse a non-str at the assignment, where the pure package takes it. Subclasses
    #: declare theirs as Any too (a compiled subclass keeps its base's attribute type).
    name: Any = "agent"

    def setup(self, game: Game, seat: int, rng: random.Random) -> None:
        """Called once when the game is created; ``rng`` is this seat's own seeded generator."""
        self.seat = seat
        self.rng = rng

    def buy(self, game: Game, seat: int, space: int) -> bool:
        """Buy the unowned ``space`` at its printed price (True or False)? Only asked when the seat can pay it."""
        return True

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> int:
        """A bid (an int) above ``high_bid`` and at most your cash, or 0 (or None) to drop out of the auction."""
        return 0

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        """At the start of a turn in jail: one of the strings ``options`` ("roll", "pay", "card")."""
        return "card" if "card" in options else "roll"

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        """The index (an int from 0) of the chosen alternative of an effect's `choose:`, or of the player or
        space an effect lets you pick (texts in the effect language: `pay 50 to player 2`, `advance to "GO"`)."""
        return 0

    def act(self, game: Game, seat: int) -> Action | None:
        """After your turn: one action (build, sell, mortgage, unmortgage, trade), or None when done."""
        return None

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Before another player's turn (``to_move``'s: the rules let every player act between any two turns):
        one action as for :meth:`act` but a card's use, or None when done. Asked of every player still in the
        game after the mover's own actions, in turn order from ``to_move``. This default never acts, and an
        agent that keeps it is not even called while :func:`~monopoly.play` drives (its answer is None)."""
        return None

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        """Accept ``trade`` (you are its ``partner``)? True or False."""
        return False

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        """You owe ``owed`` and have less: a sell or mortgage action, or None to let the engine
        raise it the cheapest way, one step at a time (a mortgage gives up its 10% lifting interest, a
        building sold the half the bank keeps; ties: the larger step, then board order), selling evenly
        and stopping as soon as the debt is covered."""
        return None

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        """A mortgaged lot came to you: lift the mortgage now (True), or pay the interest now (False)?"""
        return False

    def refused(self, game: Game, seat: int, action: Any, reason: str) -> None:
        """The engine refused an answer of yours; ``reason`` says why (and what it took instead).

        ``action`` is the refused action itself, or for an answer to a question a short text
        such as ``"bid '10'"`` or ``"buy answer 'yes'"``.
        """

    def close(self) -> None:
        """Called once the game is over (or has failed) by the program's commands and ``simulate``: an agent that
        holds something outside the game (a process, a connection) lets it go. The default holds nothing."""

    def get_state(self) -> Any:
        """JSON data a saved game keeps for this agent (by default its generator's state)."""
        rng = getattr(self, "rng", None)
        if rng is None:
            return None
        version, internal, gauss = rng.getstate()
        return {"rng": [version, list(internal), gauss]}

    def set_state(self, state: Any) -> None:
        """Restore what :meth:`get_state` returned."""
        version, internal, gauss = state["rng"]
        self.rng.setstate((version, tuple(internal), gauss))


@mypyc_attr(allow_interpreted_subclasses=True)
class Wrapper(Agent):
    """An agent that wraps another (``inner``): it takes the inner agent's name, passes on set-up,
    refusals and the agent's saved state, and by default every decision too. Subclasses change the
    decisions they care about (a recorder writes them down; a test makes some of them odd)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = getattr(inner, "name", type(inner).__name__)

    def setup(self, game: Game, seat: int, rng: random.Random) -> None:
        setup = getattr(self.inner, "setup", None)
        if setup is not None:
            setup(game, seat, rng)

    def buy(self, game: Game, seat: int, space: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self.inner.buy(game, seat, space)

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> Any:
        return self.inner.bid(game, seat, item, high_bid, leader)

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self.inner.jail(game, seat, options)

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self.inner.choose(game, seat, options)

    def act(self, game: Game, seat: int) -> Any:  # the inner agent's answer, as it is: the engine checks it
        return self.inner.act(game, seat)

    def between(self, game: Game, seat: int, to_move: int) -> Any:
        ask = getattr(self.inner, "between", None)  # an agent without it never acts out of turn
        return ask(game, seat, to_move) if ask is not None else None

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> Any:
        return self.inner.answer_trade(game, seat, trade)

    def raise_funds(self, game: Game, seat: int, owed: int) -> Any:
        return self.inner.raise_funds(game, seat, owed)

    def lift_mortgage(self, game: Game, seat: int, space: int) -> Any:
        return self.inner.lift_mortgage(game, seat, space)

    def refused(self, game: Game, seat: int, action: Any, reason: str) -> None:
        notify = getattr(self.inner, "refused", None)
        if notify is not None:
            notify(game, seat, action, reason)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def get_state(self) -> Any:
        get = getattr(self.inner, "get_state", None)
        return get() if get is not None else None

    def set_state(self, state: Any) -> None:
        put = getattr(self.inner, "set_state", None)
        if put is not None and state is not None:
            put(state)


QUIET.add(Agent.between)
FORWARDING.add(Wrapper.between)
