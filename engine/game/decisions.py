"""What a game waits for: a :class:`Decision` (whose, what kind, about what), its legal answers, and the
check of an answer: the one home of what each kind of decision accepts.

A game is driven from outside: :meth:`Game.advance <monopoly.game.game.Game.advance>` plays on to the next
decision, :attr:`Game.pending <monopoly.game.game.Game.pending>` is the decision it waits for (a read: it
never moves the game), :meth:`Game.answer <monopoly.game.game.Game.answer>` takes an answer and plays on to
the next decision (an illegal one is refused with the reason and changes nothing), and :func:`monopoly.play`
is the loop that asks agents.

=================  ==================================================  =============================
kind               ``args``                                            legal answers
=================  ==================================================  =============================
``buy``            ``(space,)``                                        ``True``, ``False``
``bid``            ``(item, high_bid, leader)``; item ``("space", i)``  0 (pass), or an ``int`` above
                   or ``("house", None)``/``("hotel", None)``           the high bid, at most the cash
``jail``           ``(options,)``: "roll", "pay", "card"               one of ``options``
``choose``         ``(options,)``: the alternatives' texts (of a       an index of ``options``
                   ``choose:``, or one a player or a space to pick:
                   ``pay 50 to player 2``, ``advance to "GO"``)
``act``            ``()``                                              ``None`` (done), a build, sell,
                                                                       mortgage, unmortgage or card
                                                                       use of :meth:`legal_actions`,
                                                                       or a ``Trade`` the rules allow
``between``        ``(to_move,)``: the seat whose turn is next         as ``act``, but no card use
                                                                       (a card is used on one's own
                                                                       turn)
``answer_trade``   ``(trade,)``                                        ``True``, ``False``
``raise_funds``    ``(owed,)``                                         ``None`` (let the engine
                                                                       raise it), or a sale or
                                                                       mortgage the rules allow
``lift_mortgage``  ``(space,)``                                        ``True``, ``False``
=================  ==================================================  =============================

>>> import monopoly
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), players=2, seed=1)   # two seats you answer for
>>> game.fix_dice([(1, 2)])                                                     # onto Baltic Avenue
>>> game.advance()                                   # the roll, the move: the game waits for an answer
Decision(seat=0, kind='buy', args=(3,))
>>> game.legal_answers(), game.check("yes")
((True, False), 'answer buy with True or False (a bool)')
>>> game.answer(True)
>>> game.owner[3], game.cash[0], game.pending
(0, 1440, Decision(seat=0, kind='act', args=()))
>>> done, mortgage, trades = game.legal_answers()         # done, the actions, the trades with each partner
>>> done, mortgage
(None, Mortgage(space=3))
>>> trades.partner, trades.give_spaces, trades.give_cash, trades.get_spaces, trades.get_cash
(1, (3,), 1440, (), 1500)
>>> monopoly.Trade(0, 1, give_spaces=(3,), get_cash=100) in trades, monopoly.Trade(0, 1, get_cash=100) in trades
(True, False)
>>> game.answer(monopoly.Build(3))
Traceback (most recent call last):
  ...
monopoly.game.decisions.IllegalAnswer: you need the whole brown group to build on Baltic Avenue
>>> game.pending                     # refused: nothing changed
Decision(seat=0, kind='act', args=())
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from .._mypyc import mypyc_attr
from . import actions as act
from .core import refuse, safe_repr
from .question import ACTING as ACTING
from .question import KINDS as KINDS
from .question import RAISED as RAISED
from .question import Decision as Decision
from .question import new_decision as new_decision

if TYPE_CHECKING:
    import random

    from .core import Core

#: The ``between`` methods that answer None without looking at the game (the :class:`~monopoly.Agent` base's,
#: put here by it): while :func:`~monopoly.play` drives, a seat whose agent has one is answered None without a
#: call, so a game of agents that never act out of turn pays next to nothing for the others' chance to.
QUIET: set[Any] = set()
#: The ``between`` methods that hand the decision to the agent's ``inner`` agent (a wrapper's, a recorder's):
#: such an agent is quiet when the agent it wraps is.
FORWARDING: set[Any] = set()


def ask_agent(agent: Any, game: Any, decision: Decision) -> Any:
    """The answer of ``agent`` to ``decision``, as play() would take it: None, without a call, to a ``between``
    of an agent that never acts out of turn (for drivers of their own: the web table, the single-seat env)."""
    if decision.kind == "between" and quiet_between(agent):
        return None
    return getattr(agent, decision.kind)(game, decision.seat, *decision.args)


def quiet_between(agent: Any) -> bool:
    """Whether ``agent`` never acts between others' turns: it has no ``between``, or the base's, or says so
    itself (an attribute ``quiet_between`` that is True: a replayed seat that recorded none), or wraps an agent
    that is quiet (see :data:`QUIET`)."""
    for _ in range(8):
        if getattr(agent, "quiet_between", None) is True:
            return True
        method = getattr(type(agent), "between", None)
        if method is None and getattr(agent, "between", None) is None:
            return True
        if method in QUIET:
            return True
        inner = getattr(agent, "inner", None)
        if method not in FORWARDING or inner is None:
            return False
        agent = inner
    return False


@mypyc_attr(native_class=False)
class IllegalAnswer(ValueError):
    """An answer the pending decision does not accept; ``reason`` says why. The game did not change."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class Bids(NamedTuple):
    """The legal answers to a bid: 0 (pass), or any whole number from ``low`` to ``high``."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return type(value) is int and (value == 0 or self.low <= value <= self.high)

    def __iter__(self) -> Iterator[int]:
        yield 0
        yield from range(self.low, self.high + 1)

    def __len__(self) -> int:
        return 1 + max(0, self.high - self.low + 1)


class Trades(NamedTuple):
    """The legal trades ``proposer`` may offer ``partner`` now, as a space (like :class:`Bids`, a range): any
    :class:`~monopoly.Trade` that gives some of ``give_spaces`` and ``give_cards`` and at most ``give_cash``,
    and asks some of ``get_spaces`` and ``get_cards`` and at most ``get_cash``, moving at least one lot or
    card. The lots are those of groups with no buildings (the rules trade no built group); the cash is what
    each seat has (no loans between players). ``trade in trades`` tells whether a trade is one of them;
    :meth:`sample` draws one at random (for agents that explore)."""

    proposer: int
    partner: int
    give_spaces: tuple[int, ...]
    give_cash: int
    give_cards: tuple[tuple[str, int], ...]
    get_spaces: tuple[int, ...]
    get_cash: int
    get_cards: tuple[tuple[str, int], ...]

    def __contains__(self, offer: object) -> bool:
        trade: Any = offer  # its fields hold anything an agent put there
        if offer.__class__ is not act.Trade or trade.proposer != self.proposer or trade.partner != self.partner:
            return False
        return (_some_of(trade.give_spaces, self.give_spaces) and _some_of(trade.get_spaces, self.get_spaces)
                and _some_of(trade.give_cards, self.give_cards) and _some_of(trade.get_cards, self.get_cards)
                and _cash(trade.give_cash, self.give_cash) and _cash(trade.get_cash, self.get_cash)
                and bool(trade.give_spaces or trade.get_spaces or trade.give_cards or trade.get_cards))

    def sample(self, rng: random.Random) -> act.Trade:
        """A trade of this space drawn at random with ``rng``: each lot and card in or out with even chances
        (drawn again until something moves), the cash of each side uniform from 0 to its most."""
        while True:
            give = tuple(s for s in self.give_spaces if rng.random() < 0.5)
            get = tuple(s for s in self.get_spaces if rng.random() < 0.5)
            give_cards = tuple(c for c in self.give_cards if rng.random() < 0.5)
            get_cards = tuple(c for c in self.get_cards if rng.random() < 0.5)
            if give or get or give_cards or get_cards:
                return act.Trade(self.proposer, self.partner, give_spaces=give,
                                 give_cash=rng.randint(0, self.give_cash), give_cards=give_cards, get_spaces=get,
                                 get_cash=rng.randint(0, self.get_cash), get_cards=get_cards)


def _some_of(chosen: Any, allowed: tuple[Any, ...]) -> bool:
    """``chosen`` (a tuple or list) names each of its entries once, all of them in ``allowed``."""
    if type(chosen) is not tuple and type(chosen) is not list:
        return False
    pool = list(allowed)
    for entry in chosen:
        entry = tuple(entry) if type(entry) is list else entry
        if entry not in pool:
            return False
        pool.remove(entry)
    return True


def _cash(amount: Any, most: int) -> bool:
    return type(amount) is int and 0 <= amount <= most


def trade_spaces(game: Core, seat: int) -> tuple[Trades, ...]:
    """The :class:`Trades` ``seat`` may propose now, one per partner with whom anything can change hands."""
    if game.trades_this_phase >= game.rules.trades_per_phase or game.bankrupt[seat] or \
            not act.permitted(game, "trade", seat):
        return ()
    owner, buildings, t = game.owner, game.buildings, game.tables
    group_of = t.group_of
    built = {group_of[s] for s in t.ownable if buildings[s]}  # the groups with buildings: their lots stay put
    free = [s for s in t.ownable if owner[s] >= 0 and group_of[s] not in built]
    mine = tuple(s for s in free if owner[s] == seat)
    my_cards = tuple(game.held_cards[seat])
    spaces = []
    for partner in range(game.players):
        if partner == seat or game.bankrupt[partner]:
            continue
        theirs = tuple(s for s in free if owner[s] == partner)
        their_cards = tuple(game.held_cards[partner])
        if mine or theirs or my_cards or their_cards:
            spaces.append(Trades(seat, partner, mine, game.cash[seat], my_cards, theirs, game.cash[partner],
                                 their_cards))
    return tuple(spaces)


#: The yes-or-no decisions.
_YES_NO = ("buy", "answer_trade", "lift_mortgage")


def legal_answers(game: Core, decision: Decision) -> Any:
    """Every legal answer to ``decision`` now: a tuple, or :class:`Bids` for a bid. For ``act``: ``None`` (done),
    every build, sell, mortgage and unmortgage, then a :class:`Trades` per partner, the space of the trades
    that may be offered them (too many to list one by one: ``trade in trades``); for ``between`` the same
    without the uses of cards."""
    kind, seat = decision.kind, decision.seat
    if kind in _YES_NO:
        return (True, False)
    if kind == "jail":
        return tuple(decision.args[0])
    if kind == "choose":
        return tuple(range(len(decision.args[0])))
    if kind == "bid":
        return Bids(decision.args[1] + 1, game.cash[seat])
    if kind == "act":
        return (None, *act.legal_actions(game, seat), *trade_spaces(game, seat))
    if kind == "between":
        return (None, *(a for a in act.legal_actions(game, seat) if type(a) is not act.UseCard),
                *trade_spaces(game, seat))
    if kind == "raise_funds":
        return (None, *(a for a in act.legal_actions(game, seat, raising=True) if type(a) in _RAISING))
    raise ValueError(f"no decision of kind {kind!r}")


def check_answer(game: Core, decision: Decision, answer: Any) -> str | None:
    """Why ``answer`` is not a legal answer to ``decision`` now, or None when it is.

    The type is checked first (``True`` is no number, ``3.0`` and ``"3"`` are none either), so an answer is
    never compared, hashed or truth-tested before it is known to be plain data.
    """
    kind, seat = decision.kind, decision.seat
    if kind in _YES_NO:
        return None if answer is True or answer is False else f"answer {kind} with True or False (a bool)"
    if kind == "jail":
        options = decision.args[0]
        if type(answer) is str and answer in options:
            return None
        return f"choose one of {', '.join(options)} (a str)"
    if kind == "choose":
        count = len(decision.args[0])
        if type(answer) is int and 0 <= answer < count:
            return None
        return f"choose a number (an int) from 0 to {count - 1}"
    if kind == "bid":
        high = decision.args[1]
        if answer is None or (type(answer) is int and (answer == 0 or high < answer <= game.cash[seat])):
            return None
        return f"a bid is a whole number (an int) more than {high} and at most your cash ({game.cash[seat]})"
    if kind == "act" or kind == "between":
        if answer is None:
            return None
        if kind == "between" and type(answer) is act.UseCard:
            return NOT_YOUR_TURN
        if type(answer) is act.Trade and game.trades_this_phase >= game.rules.trades_per_phase:
            return f"no more trades this turn (the rules allow {game.rules.trades_per_phase})"
        return _verified(game, seat, answer, raising=False)
    if kind == "raise_funds":
        if answer is None:
            return None
        if type(answer) not in _RAISING:
            if game.rules.sell_lots_to_bank:
                return ("while paying a debt, only selling buildings (SellBuilding), mortgaging (Mortgage) and selling "
                        "lots to the bank (SellLot) raise money")
            return "while paying a debt, only selling buildings (SellBuilding) and mortgaging (Mortgage) raise money"
        return _verified(game, seat, answer, raising=True)
    raise ValueError(f"no decision of kind {kind!r}")


#: Why a card is not used between others' turns.
NOT_YOUR_TURN = "a card is used as an action of one's own turn, not between the turns of others"

#: The actions that raise money for a debt.
_RAISING = (act.SellBuilding, act.Mortgage, act.SellLot)


def _verified(game: Core, seat: int, action: Any, *, raising: bool) -> str | None:
    try:
        act.verify(game, seat, action, raising=raising or game.debt_depth > 0)
    except act.IllegalAction as exc:
        return str(exc)
    return None


class Caller:
    """Holds a seat of a game driven from outside (``Game(ruleset, players=n)``): the caller answers."""

    name = "caller"


class FunctionAgent:
    """An agent that is one function of ``(game, decision)`` returning the answer, seated as an object with a
    method per decision kind (the shape the game asks in)."""

    def __init__(self, function: Any):
        self.function = function
        self.name = getattr(function, "__name__", "function")

    def __repr__(self) -> str:
        return f"FunctionAgent({self.name})"


def _method(kind: str) -> Any:
    def ask(self: FunctionAgent, game: Any, seat: int, *args: Any) -> Any:
        return self.function(game, Decision(seat, kind, args))

    ask.__name__ = kind
    return ask


for _kind in KINDS:
    setattr(FunctionAgent, _kind, _method(_kind))


# ---------------------------------------------------------------------- answers as JSON (logs and saves)


class _TimeUp:
    """Where the driver told the game its clock ran out, among a turn's answers (see ``Game.time_up``)."""

    def __repr__(self) -> str:
        return "TIME_UP"


#: The mark of ``Game.time_up`` in a turn's pending work (it replays as the clock running out there).
TIME_UP = _TimeUp()

MAX_AGENT_NAME = 64


def safe_name(name: Any, fallback: str) -> str:
    """``name`` when it is a printable string of 1 to :data:`MAX_AGENT_NAME` characters, else ``fallback`` (a class's
    name): what an agent's or a factory's ``name`` becomes in logs and terminal text, whatever a user's class says
    (a name with escape sequences, a number, a megabyte)."""
    if isinstance(name, str) and 0 < len(name) <= MAX_AGENT_NAME and name.isprintable():
        return name
    return fallback


def agent_name(agent: Any) -> str:
    """The name an agent goes by in logs and standings: its ``name`` (when printable and short), else its
    class's name (the class of the agent a wrapper such as the recorder stands in front of)."""
    named = agent
    for _ in range(8):  # a wrapper's name is its inner agent's: so is the name in its stead
        inner = getattr(named, "inner", None)
        if inner is None:
            break
        named = inner
    return safe_name(getattr(agent, "name", None), type(named).__name__)


#: What a yes-or-no answer that is not a bool counts as, by question (always no: the answer that risks nothing).
_TAKEN_AS_NO = {
    "buy": "taken as False: not bought",
    "answer_trade": "taken as False: the trade is declined",
    "lift_mortgage": "taken as False: the mortgage stays and its interest is due now",
}


def yes(game: Core, seat: int, question: str, answer: Any) -> bool:
    """An agent's answer to the yes-or-no ``question`` (an Agent method name): True only for True.

    Anything but a bool (1, "yes", None, an object whose ``__bool__`` raises...) is refused,
    told to the agent, and counts as False.
    """
    if answer is True:
        return True
    if answer is not False:
        reason = check_answer(game, Decision(seat, question), answer)
        refuse(game, seat, f"{question} answer {safe_repr(answer)}", f"{reason}; {_TAKEN_AS_NO[question]}")
    return False
