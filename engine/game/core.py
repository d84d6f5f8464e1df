"""The game's state and what every rule module shares: the one room each rule module opens first.

:class:`Core` holds a game in play: the position (flat lists by seat and by space, the bank's stock, the
pot, the decks), the ruleset's compiled tables, the agents, and the driver's bookkeeping (where the turn
loop waits, the answers given since the mark copies replay from, play()'s direct asking). It holds no rule:
the rules are plain functions over it, one module per concern (docs/architecture.md, "Rooms"):

==============  ===========================================================================================
``turn``        the turn loop (one generator, the hot loop inline), dice, the game's setting out
``movement``    moving tokens: steps, the salary, the triggers of the spaces passed, jail's square
``landing``     landing on a space: rent, buying and declining, cards' moves that land
``jail``        a jailed player's turn, going to jail with its triggers
``money``       payments, debts, raising funds, bankruptcy, net worth, the effects' money primitives
``building``    building, selling, mortgaging: an action carried out, the bank's stock following
``auction``     auctions of a lot and of the last buildings
``cards``       cards and effects at run time: triggers fired, cards drawn and kept, choices
``acting``      the actions between turns (act, between): trades, card uses, the phase's loop
``end``         the end of the game: its checks, standings, the result
==============  ===========================================================================================

Here too: the few helpers every rule module uses (asking an agent as play() would, refusing an answer with
the reason, a yes-or-no answer, where fees go, a lot changing hands). :class:`~monopoly.game.game.Game`
adds the driving surface; :class:`~monopoly.game.host.Host` the methods the effect language and agents
call on a game in play.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Generator, Sequence
from typing import Any

from .._mypyc import mypyc_attr
from ..ruleset.model import Ruleset
from . import apply as writes
from .events import BANK, POT, REFUSED
from .fields import Fields
from .question import RAISED, Decision
from .tables import Tables, tables_for

Event = dict[str, Any]
Observer = Callable[[Event], None]
#: A part of the turn that may ask players: it yields decisions, is sent the answers, and returns its value.
Steps = Generator[Decision | None, Any, Any]

#: Actions one seat may take in one between-turns phase.
MAX_ACTIONS_PER_PHASE = 200
#: Moves caused by one landing (cards that move, which land on cards that move...).
MAX_CHAINED_MOVES = 16
#: Refused or useless answers an agent may give in one phase before the engine moves on.
MAX_REFUSALS = 8
#: No seat's cash, nor the pot, gets anywhere near this in a game.
MAX_CASH = 10**12

#: The most turns a game plays, whatever the caller says (``max_turns`` None: this is the cap). A game's record
#: stays within what a log holds (about 7 events a turn; game/log.py reads at most 100,000 lines), and a game
#: whose players never go bankrupt ends, with the turn limit, instead of filling memory.
TURN_CEILING = 10_000


def turn_cap(max_turns: int | None) -> int:
    """The turn a game with this ``max_turns`` stops at (None: :data:`TURN_CEILING`)."""
    return TURN_CEILING if max_turns is None else max_turns


#: The longest text :func:`safe_repr` gives.
REPR_LIMIT = 200


def safe_repr(value: Any, limit: int = REPR_LIMIT) -> str:
    """``repr(value)`` for a message about an agent's answer: never raises, printable, at most ``limit`` long.

    An answer may be anything: an int too long to print, an object whose
    ``__repr__`` raises or returns control characters.

    >>> safe_repr("3")
    "'3'"
    >>> safe_repr(10**5000)
    'an int of about 5001 digits'
    >>> len(safe_repr(list(range(1000))))
    200
    """
    if type(value) is int and value.bit_length() > 64:
        return f"an int of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = str.__str__(repr(value))  # a plain str, whatever __repr__ returned
    except Exception:  # a hostile or broken __repr__ (or an int too long inside a container)
        try:
            text = "<a " + str.__str__(type(value).__name__) + " that cannot be shown>"
        except Exception:
            text = "<an answer that cannot be shown>"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@mypyc_attr(native_class=False)
class GameOver(RuntimeError):
    """Raised when a finished game is asked to play on."""


@mypyc_attr(native_class=False)
class NoDecision(RuntimeError):
    """A decision was answered or looked into before the game was moved on to one (``Game.advance``)."""


@mypyc_attr(native_class=False)
class SetupError(ValueError):
    """A game cannot start as asked (wrong number of players, for example)."""


@mypyc_attr(native_class=False)
class WorthNeeded(Exception):
    """An alternative's cost needs the player's worth added up (see :func:`~monopoly.game.cards.option_costs`)."""


class Core(Fields):
    """A game in play: its state and the driver's bookkeeping, set out for ``players`` seats of ``ruleset``
    from ``seed`` (nobody seated yet: :class:`~monopoly.game.game.Game` seats the agents)."""

    agents: list[Any]

    def __init__(self, ruleset: Ruleset, players: int, seed: int, max_turns: Any,
                 observers: Sequence[Observer]) -> None:
        n = players
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self._rent_in_jail = ruleset.rules.jail.rent_in_jail
        self.tables: Tables = tables_for(ruleset)
        t = self.tables
        self.players = n
        self.seed = seed
        self._set_max_turns(max_turns)  # checked, and the turn cap set
        self.rng = random.Random(seed)
        # --- state: flat lists by seat and by space
        self.cash = [0] * n
        self.position = [0] * n
        self.jail_turns = [-1] * n  # -1: free; otherwise failed attempts so far
        self.laps = [0] * n  # times past or onto the go space
        self.held_cards: list[list[tuple[str, int]]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.bankrupt_order: list[int] = []
        self.owner = [-1] * t.size
        self.buildings = [0] * t.size
        self.mortgaged = [False] * t.size
        self.houses_left = ruleset.houses
        self.hotels_left = ruleset.hotels
        self.pot = 0
        self.variables = list(t.variable_start)  # the ruleset's named numbers, in its order
        self.decks: dict[str, deque[int]] = {key: deque(range(len(slots))) for key, slots in t.decks.items()}
        self.turn = 0
        self.round = 0
        self.current = 0
        self.started = False
        self.finished = False
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.last_roll: tuple[int, ...] = (0, 0)
        self.last_extra: tuple[int | str, ...] = ()  # the extra die's face on the last throw (dice.extra), if thrown
        self.debt_depth = 0
        self.clock_out = False  # the driver's clock ran out during the turn in progress (time_up)
        self._chain = 0  # moves and draws caused by effects since the last roll
        self._firing: set[str] = set()  # the events whose triggers run now (they do not set themselves off)
        self.owner_version = 0  # changes whenever a lot changes hands (agents cache on it)
        #: The groups to build on owned whole, at the ownership version whole_version (auction.whole_groups)
        self.whole: tuple[tuple[int, tuple[int, ...], int], ...] = ()
        self.whole_version = -1
        self.whole_cheapest: tuple[tuple[int, int], ...] = ()  # each of their owners' cheapest building
        self._fixed_dice: deque[tuple[int, ...]] = deque()
        self._doubles_limit = self.rules.jail.doubles_to_jail
        # Only a last-standing game can skip the end check on a turn nobody went bankrupt.
        self._end_each_turn = self.rules.end.when != "last_standing"
        self._two_dice = ruleset.dice_count == 2
        self._sides = ruleset.dice_sides
        self._random = self.rng.random
        self._observers: list[Observer] = list(observers)
        #: Every event of the game so far, as records (see :mod:`monopoly.game.events`).
        self.events: list[tuple[Any, ...]] = []
        self.record = self.events.append
        self.trades_this_phase = 0  # trades proposed in the after-turn phase going on
        self._act = [Decision(seat, "act") for seat in range(n)]  # the same question every turn: made once
        #: The other players' chance to act before the next turn (rules.between_turns): the questions, by seat
        #: and the seat to move, and who is asked after each mover (the others in turn order from the next).
        self._between = [[Decision(seat, "between", (to,)) for to in range(n)] for seat in range(n)]
        self._others = [tuple((p + i) % n for i in range(1, n)) for p in range(n)]
        self._between_all = self.rules.between_turns == "every_player" and n > 1
        self._mark_each_turn = True  # take the mark at every turn's start (off in play(): see Game.copy)
        self._pause_between_turns = False  # stop between turns (play_turn does)
        #: While play() drives: each seat's answering functions by decision kind, which the turn loop calls itself
        #: for the commonest decisions (act, bid) instead of yielding them to play() (see ask_direct).
        self._direct: list[dict[str, Any]] | None = None
        self._raised: BaseException | None = None  # what an agent called directly raised, for play() to raise
        #: The seats whose agents never act between others' turns (decisions.quiet_between), and whether all do
        self._quiet: list[bool] = [False] * n
        self._quiet_all = False
        #: While play() drives: each seat's `between`, None for a quiet one (what play() asks, by seat)
        self._between_asks: list[Any] = [None] * n
        # The attributes above are set before self is handed to a method: the compiled build reads them without
        # asking whether they are set yet. Those below are read off the hot path.
        self._set_choice_bookkeeping()
        self._set_driver()

    def _set_choice_bookkeeping(self) -> None:
        """What the effect language's choices and triggers keep while they run (effects/compile.py, cards.py)."""
        self.event_amount = 0  # the money of the event whose triggers run (an effect's `amount`)
        self.chosen = -1  # the player a running statement's `a player you choose` names (effects/compile.py)
        self._option_costs: tuple[Any, ...] = ()  # cost functions of the choice being made
        self._option_landings: tuple[Any, ...] = ()  # where each alternative of the choice moves the token
        self._option_worth = False  # a cost of the choice being made reads a player's net worth
        self._pricing = False  # option_costs is pricing the alternatives (net_worth is not to be added up)
        self._priced_worth: int | None = None  # the worth an agent gave option_costs to price them with

    def _set_driver(self) -> None:
        """The driver's bookkeeping (Game): the generator of the game, where it waits, how to copy it, and how
        the last play() ended."""
        self._machine: Steps | None = None
        self._waiting: Decision | None = None  # the decision waited for; None between turns or at the end
        self._done = False  # the generator has returned: the game is over
        self._answers: list[Any] = []  # answers given since the mark, as given
        self._mark: tuple[Any, tuple[tuple[int, ...], ...]] | None = None  # replaying _answers from it
        #: (seat, decision kind) when the last play() ended because that seat's agent raised while answering;
        #: None otherwise (the game then waits at that decision). Tells an agent's error from the engine's.
        self.agent_failure: tuple[int, str] | None = None
        #: The standings of the game's end, with the number of events then (end.result_of's, while no more follow)
        self.final_standings: tuple[int, tuple[Any, ...]] | None = None

    @property
    def max_turns(self) -> int | None:
        """The turn the caller caps the game at (None: no cap of the caller's; the game still stops at
        :data:`~monopoly.game.core.TURN_CEILING`, 10,000 turns, with the turn limit)."""
        return self._max_turns

    @max_turns.setter
    def max_turns(self, value: int | None) -> None:
        self._set_max_turns(value)

    def _set_max_turns(self, value: Any) -> None:  # Any: a number from 1 to TURN_CEILING or None, checked here
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= TURN_CEILING):
            raise SetupError(f"max_turns is a number of turns from 1 to {TURN_CEILING} (or None, which stops "
                             f"the game at {TURN_CEILING} all the same), not {value!r}")
        self._max_turns = value
        self.turn_cap = turn_cap(value)  # the turn the game stops at, read by the turn loop and check_end

    def take_mark(self) -> None:
        """Mark the position copies replay from (the turn loop calls it at each turn's start): the driver's."""
        raise NotImplementedError

    def carry_out(self, steps: Steps) -> Any:
        """Carry out ``steps`` at once, the seated agents answering: the driver's (see ``Game.carry_out``)."""
        raise NotImplementedError


def compiled() -> bool:
    """True when the engine's rules run compiled (the build of ``MONOPOLY_COMPILE=1 pip install .``)."""
    return not __file__.endswith(".py")


def ask_direct(game: Core, decision: Decision, ask: Callable[..., Any], seat: int, a: Any = RAISED, b: Any = RAISED,
               c: Any = RAISED) -> Any:
    """Ask ``decision`` of the agent's function ``ask`` (its answering method for the decision's kind, called
    with the game, the seat and the arguments given) here, as play() would ask it, without yielding the
    decision to play() and back: while play() drives (``_direct``), for the commonest decisions. The decision
    is pending while the agent answers (an agent may copy the game then), and the answer is kept for copies
    as play() keeps it.
    When the agent raises, returns :data:`RAISED` with what it raised kept for play(): the caller then yields
    the decision after all (``answer = yield decision``) and play() raises it, so the game waits at the
    decision, as when an agent asked by play() raises. A plain call, not a generator: it is on every busy
    turn's path (the turn loop's first act is the same lines, inline)."""
    game._waiting = decision
    try:  # the seat and up to three more arguments (RAISED: none), each passed as itself: no tuple made of them
        answer = ask(game, seat) if a is RAISED else ask(game, seat, a) if b is RAISED else \
            ask(game, seat, a, b) if c is RAISED else ask(game, seat, a, b, c)
    except BaseException as exc:
        game._raised = exc
        return RAISED
    game._answers.append(answer)
    return answer


def refuse(game: Core, seat: Any, action: Any, reason: str) -> None:
    """Refuse ``seat``'s answer or action with the reason: a ``refused`` event, and its agent told."""
    if type(seat) is not int or not 0 <= seat < game.players:
        return  # `apply` called for no seat of this game: nobody to tell
    writes.note(game, (REFUSED, seat, safe_repr(action), reason))
    notify = getattr(game.agents[seat], "refused", None)
    if notify is not None:
        notify(game, seat, action, reason)


def fees_to(game: Core) -> int:
    """Where the rules send taxes, fines and fees: the bank, or the pot."""
    return POT if game.rules.fees_to == "pot" else BANK


def set_owner(game: Core, s: int, seat: int, how: str) -> None:
    """The lot ``s`` changes hands (``seat`` -1: back to the bank) other than by buying."""
    previous = game.owner[s]
    writes.property_(game, s, previous if previous >= 0 else BANK, seat if seat >= 0 else BANK, how)
