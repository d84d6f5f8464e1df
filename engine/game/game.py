"""The game: state, the turn loop, movement, landing, money, bankruptcy, auctions.

One ``Game`` plays any valid ruleset. Rules come from the ruleset's compiled
tables and closures (``tables.py``, ``effects/compile.py``); no code here names
a space, a card or a variant. All randomness comes from one
``random.Random(seed)``; agents get their own generators derived from the seed,
so the same ruleset, seed and agents give the same game, bit for bit.

The caller drives. The turn is written as generators that ``yield`` a
:class:`~monopoly.game.decisions.Decision` wherever a player decides and get the
answer back; :meth:`Game.advance` plays on to the next decision, :attr:`Game.pending` is the
decision waited for (reading it changes nothing), :meth:`Game.answer` takes one and plays on to the next
(an illegal answer is refused and changes nothing), and
:func:`play` is the loop that asks agents. Between turns the generator yields
``None`` (a turn boundary), where the position is plain data again.

Every change of state is one event, written by :mod:`monopoly.game.apply` and
recorded in ``game.events`` (small tuples; observers get each as a dict).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Generator, Sequence
from typing import Any

from .._mypyc import mypyc_attr
from ..ruleset.model import Ruleset
from . import actions as act
from . import apply as writes
from .apply import move as _move
from .apply import payment
from .apply import roll as _record_roll
from .auction import run_auction, shortage_auction, shortage_possible
from .decisions import (
    KINDS,
    NOT_YOUR_TURN,
    RAISED,
    TIME_UP,
    Caller,
    Decision,
    FunctionAgent,
    IllegalAnswer,
    agent_name,
    check_answer,
    legal_answers,
    new_decision,
    quiet_between,
)
from .dice import Dice
from .end import MAX_GAME_EVENTS, TURN_CEILING, Result, check_end, out_of_events, result_of, turn_cap
from .events import BANK, CHOICE, LOG_VERSION, POT, REFUSED, RULES_VERSION, from_dict, to_dict
from .events import TIME_UP as TIME_UP_EVENT
from .money import MAX_REFUSALS, Money
from .movement import go_passes, steps_ahead_to, steps_back_to
from .rent import live_rent
from .state import MAX_CASH, GameState, Pending, StateError, fixed_roll_problem
from .stock import on_board
from .tables import DRAW, NOTHING, OWNABLE, QUIET, tables_for

Event = dict[str, Any]
Observer = Callable[[Event], None]
#: A part of the turn that may ask players: it yields decisions, is sent the answers, and returns its value.
Steps = Generator[Decision | None, Any, Any]

#: Actions one seat may take in one between-turns phase.
MAX_ACTIONS_PER_PHASE = 200
#: Moves caused by one landing (cards that move, which land on cards that move...).
MAX_CHAINED_MOVES = 16


@mypyc_attr(native_class=False)
class _WorthNeeded(Exception):
    """An alternative's cost needs the player's worth added up (see :meth:`Game.option_costs`)."""


@mypyc_attr(native_class=False)
class GameOver(RuntimeError):
    """Raised when a finished game is asked to play on."""


@mypyc_attr(native_class=False)
class NoDecision(RuntimeError):
    """A decision was answered or looked into before the game was moved on to one (``Game.advance``)."""


@mypyc_attr(native_class=False)
class SetupError(ValueError):
    """A game cannot start as asked (wrong number of players, for example)."""


class Game(Money):
    """A game of a ruleset between agents, from a seed.

    >>> import monopoly
    >>> from monopoly.agents import GreedyAgent
    >>> game = Game(monopoly.load_ruleset("classic"), [GreedyAgent(), GreedyAgent()], seed=7, max_turns=50)
    >>> result = game.play()
    >>> result.turns <= 50
    True
    """

    def __init__(self, ruleset: Ruleset, agents: Sequence[Any] | None = None, seed: int = 0, *,
                 max_turns: Any = None, observers: Sequence[Observer] = (), players: int | None = None):
        if agents is None:  # a game driven from outside: plain agents hold the seats (play() may seat others)
            if players is None:
                raise SetupError("give the agents, or the number of players of a game you drive yourself")
            agents = [Caller() for _ in range(players)]
        elif players is not None and players != len(agents):
            raise SetupError(f"{players} players but {len(agents)} agents")
        n = len(agents)
        if not ruleset.min_players <= n <= ruleset.max_players:
            raise SetupError(f"{ruleset.name} is played by {ruleset.min_players} to {ruleset.max_players} "
                             f"players, not {n}")
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self._rent_in_jail = ruleset.rules.jail.rent_in_jail
        self.tables = t = tables_for(ruleset)
        self.players = n
        self.agents = list(agents)
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
        self.last_roll = (0, 0)
        self.last_extra = ()  # the extra die's face on the last throw (dice.extra), if thrown
        self.debt_depth = 0
        self.clock_out = False  # the driver's clock ran out during the turn in progress (time_up)
        self._chain = 0  # moves and draws caused by effects since the last roll
        self.event_amount = 0  # the money of the event whose triggers run (an effect's `amount`)
        self.chosen = -1  # the player a running statement's `a player you choose` names (effects/compile.py)
        self._firing: set[str] = set()  # the events whose triggers run now (they do not set themselves off)
        self._option_costs: tuple[Any, ...] = ()  # cost functions of the choice being made
        self._option_landings: tuple[Any, ...] = ()  # where each alternative of the choice moves the token
        self._option_worth = False  # a cost of the choice being made reads a player's net worth
        self._pricing = False  # option_costs is pricing the alternatives (net_worth is not to be added up)
        self._priced_worth: int | None = None  # the worth an agent gave option_costs to price them with
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
        if self._observers:
            self._observe_records()
        self.trades_this_phase = 0  # trades proposed in the after-turn phase going on
        self._act = [Decision(seat, "act") for seat in range(n)]  # the same question every turn: made once
        #: The other players' chance to act before the next turn (rules.between_turns): the questions, by seat
        #: and the seat to move, and who is asked after each mover (the others in turn order from the next).
        self._between = [[Decision(seat, "between", (to,)) for to in range(n)] for seat in range(n)]
        self._others = [tuple((p + i) % n for i in range(1, n)) for p in range(n)]
        self._between_all = self.rules.between_turns == "every_player" and n > 1
        # --- the driver (see run_machine): the generator of the game, where it waits, and how to copy it
        self._machine: Steps | None = None
        self._waiting: Decision | None = None  # the decision waited for; None between turns or at the end
        self._done = False  # the generator has returned: the game is over
        self._answers: list[Any] = []  # answers given since the mark, as given
        self._mark: tuple[GameState, tuple[tuple[int, ...], ...]] | None = None  # replaying _answers from it
        self._mark_each_turn = True  # take the mark at every turn's start (off in play(): see copy())
        self._pause_between_turns = False  # stop between turns (play_turn does)
        #: While play() drives: each seat's answering functions by decision kind, which the turn loop calls itself
        #: for the commonest decisions (act, bid) instead of yielding them to play() (see _ask_direct).
        self._direct: list[dict[str, Any]] | None = None
        self._raised: BaseException | None = None  # what an agent called directly raised, for play() to raise
        #: (seat, decision kind) when the last play() ended because that seat's agent raised while answering;
        #: None otherwise (the game then waits at that decision). Tells an agent's error from the engine's.
        self.agent_failure: tuple[int, str] | None = None
        #: The standings of the game's end, with the number of events then (end.result_of's, while no more follow)
        self.final_standings: tuple[int, tuple[Any, ...]] | None = None
        self.seat_agents(self.agents)

    def seat_agents(self, agents: Sequence[Any]) -> None:
        """Seat ``agents`` (one per seat; each set up with its own generator from the seed). An agent is an
        object with a method per decision kind (see :class:`~monopoly.Agent`), or a function of
        ``(game, decision)`` returning the answer."""
        if len(agents) != self.players:
            raise SetupError(f"{len(agents)} agents for {self.players} seats")
        self.agents = [agent if hasattr(agent, "act") or isinstance(agent, Caller) or not callable(agent)
                       else FunctionAgent(agent) for agent in agents]
        #: The seats whose agents never act between others' turns (decisions.quiet_between): answered None
        #: without a call by whoever asks them (play(), play_turn, carry_out).
        self._quiet = [quiet_between(agent) and not isinstance(agent, Caller) for agent in self.agents]
        self._quiet_all = all(self._quiet)
        #: While play() drives: each seat's `between`, None for a quiet one (what play() asks, by seat)
        self._between_asks: list[Any] = [None] * len(self.agents)
        self.final_standings = None  # the standings name the agents
        for seat, agent in enumerate(self.agents):
            setup = getattr(agent, "setup", None)
            if setup is not None:
                setup(self, seat, SeatRandom(self.seed * 1_000_003 + seat + 1))

    # ------------------------------------------------------------------ positions

    def state(self) -> GameState:
        """The position now, as plain data (a copy: :class:`~monopoly.game.state.GameState`)."""
        return GameState.of(self)

    @classmethod
    def from_state(cls, ruleset: Ruleset, agents: Sequence[Any], state: GameState, *, seed: int = 0,
                   max_turns: int | None = None, observers: Sequence[Observer] = (),
                   keep_dice: bool = True) -> Game:
        """A game going on from ``state`` (checked first: :class:`~monopoly.game.state.StateError` lists every
        rule it breaks). ``keep_dice``: the dice and shuffles go on as the state's random generator would;
        without it they come from ``seed`` (a new future from the same position, as ``simulate --from`` plays).
        Agents start fresh, seeded from ``seed``.

        >>> import monopoly
        >>> from monopoly.game.state import Setup
        >>> classic = monopoly.load_ruleset("classic")
        >>> position = Setup(classic, players=2).give("Boardwalk", 1).give("Park Place", 1).build("Boardwalk", 5)
        >>> position.problems()
        ['the buildings of the dark_blue group are uneven (0/5), but the rules build and sell evenly']
        >>> position.build("Park Place", 4).problems()
        []
        >>> game = Game.from_state(classic, [monopoly.make_agent("greedy") for _ in "ab"], position.state, seed=1)
        >>> game.owner[39], game.buildings[39], game.hotels_left
        (1, 5, 11)
        """
        problems = state.problems(ruleset, max_turns=max_turns)
        if problems:
            raise StateError(problems)
        game = cls(ruleset, agents, seed, max_turns=max_turns, observers=observers)
        state.put(game)
        if not keep_dice:
            game.rng.seed(seed)
        return game

    # ------------------------------------------------------------------ events

    def observe(self, observer: Observer) -> None:
        """Call ``observer(event)`` for every event from now on, each as the dict of the log (docs/events.md)."""
        self._observers.append(observer)
        self._observe_records()

    def _observe_records(self) -> None:
        events, observers = self.events, self._observers

        def record(entry: tuple[Any, ...]) -> None:
            events.append(entry)
            event = to_dict(entry)
            for observer in observers:
                observer(event)

        self.record = record

    def emit(self, event: Event) -> None:
        """Record an event of one's own that changes nothing (an agent's ``decision``), told to the observers."""
        writes.note(self, from_dict(event))

    # ------------------------------------------------------------------ driving

    @property
    def pending(self) -> Decision | None:
        """The decision the game waits for (whose, what kind, about what); None when none waits: the game is
        over (``finished``), or it has not been moved on to a decision yet (a new game, a game ``play_turn``
        left between turns: :meth:`advance` moves it). Reading it never changes the game."""
        return self._waiting

    def advance(self) -> Decision | None:
        """Play on to the next decision and return it (None when the game is over): the call that moves the
        game. The dice are rolled, tokens moved, rents paid, cards drawn, until a player is asked something.
        When a decision already waits, it is returned and nothing changes. (:meth:`answer` moves the game on
        to the next decision by itself.)

        >>> import monopoly
        >>> game = Game(monopoly.load_ruleset("classic"), players=2, seed=3, max_turns=20)
        >>> game.pending is None and game.turn == 0         # nothing played yet: reading moves nothing
        True
        >>> decision = game.advance()                       # the first roll, the move, the landing
        >>> decision.kind in ("buy", "act") and decision.seat == 0 and game.pending == decision
        True
        >>> while game.pending is not None:
        ...     game.answer(game.legal_answers()[0])        # each answer plays on to the next decision
        >>> game.finished
        True
        """
        if self._machine is None:
            self._start_machine()
        self._pause_between_turns = False
        if self._waiting is None and not self._done:  # paused between turns (by play_turn): go on
            self._send(None)
        return self._waiting

    def _decision(self) -> Decision:
        """The decision waiting, or the error that says why none does."""
        decision = self._waiting
        if decision is None:
            if self.finished or self._done:
                raise GameOver("the game is over")
            raise NoDecision("no decision waits yet: game.advance() plays the game on to its next decision")
        return decision

    def legal_answers(self) -> Any:
        """Every legal answer to the pending decision (see :func:`~monopoly.game.decisions.legal_answers`)."""
        return legal_answers(self, self._decision())

    def check(self, answer: Any) -> str | None:
        """Why ``answer`` would be refused by the pending decision, or None when it is legal."""
        return check_answer(self, self._decision(), answer)

    def answer(self, answer: Any) -> None:
        """Answer the pending decision, and play on to the next one (``pending``; None at the end). An illegal
        answer raises :class:`~monopoly.game.decisions.IllegalAnswer` with the reason, and nothing changes: the
        same decision is still pending."""
        self._not_in_play()
        reason = self.check(answer)
        if reason is not None:
            raise IllegalAnswer(reason)
        self._answers.append(answer)
        self._send(answer)

    def respond(self, answer: Any) -> None:
        """Answer the pending decision as an agent's answer is taken in play: anything illegal is refused (a
        ``refused`` event; the seat's agent is told) and the answer that risks nothing is taken instead (see
        :mod:`monopoly.agents.base`)."""
        self._not_in_play()
        self._decision()
        self._answers.append(answer)
        self._send(answer)

    def _not_in_play(self) -> None:
        """Refuse to drive the game from inside play(): an agent answers a decision by returning its answer."""
        if self._direct is not None:
            raise RuntimeError("play() is driving this game: an agent answers by returning its answer, not by "
                               "answering, stepping or playing the game itself (a copy of it may be played)")

    def copy(self) -> Game:
        """An independent copy of the game as it is, at any decision: play it on (``play(copy, agents)``, or
        ``answer``) and this game does not change. The copy has no observers, and plain seats.

        The pending work of a turn (a debt being raised, an auction, a card half resolved) is copied by
        playing the turn again from its start with the same answers: the rules are deterministic.
        """
        if self._machine is None or self._waiting is None:  # between turns (or over): the position is all
            return self._copy_from(self.state(), tuple(self._fixed_dice), None)
        assert self._mark is not None  # taken when the generator started, and at turn starts
        state, fixed = self._mark
        copy = self._copy_from(state, fixed, self._answers)
        if copy.rng.getstate() != self.rng.getstate() or copy._waiting != self._waiting:
            raise RuntimeError("the copy did not come out as the game is")  # the rules are not deterministic
        if not self._mark_each_turn:  # copied from the start of play(): keep marks from now on, copies are cheap
            self._mark_each_turn = True
        return copy

    def _copy_from(self, state: GameState, fixed: tuple[tuple[int, ...], ...], answers: Sequence[Any] | None) -> Game:
        """A new game at ``state``; with ``answers``, played on from there with them (to a decision)."""
        copy = Game(self.ruleset, [_Named(agent_name(a)) for a in self.agents], self.seed, max_turns=self.max_turns)
        state.put(copy)
        copy._fixed_dice.extend(fixed)
        if answers is not None:
            copy._start_machine()
            copy.advance()  # to the first decision after the mark
            copy._replay_answers(answers)
        return copy

    def _replay_answers(self, answers: Sequence[Any]) -> None:
        """Send recorded answers (the driver's clock running out where it did among them)."""
        for answer in answers:
            if answer is TIME_UP:
                self.time_up()
            elif self._waiting is not None:
                self._answers.append(answer)
                self._send(answer)

    def time_up(self) -> None:
        """The driver's clock ran out (the time-limit rules' minutes): the game ends at the end of the turn in
        progress, or at once between turns, the richest player winning. The engine keeps no clock, so the same
        seed and answers give the same game however fast they come, and a save or a log needs no time: the
        driver (``monopoly play``) keeps the clock and tells the game."""
        if self.finished:
            raise GameOver("the game is over")
        if self.rules.end.when != "time":
            raise ValueError(f"{self.ruleset.name} has no time limit: nothing ends on the clock")
        writes.note(self, (TIME_UP_EVENT, self.turn))
        if self._machine is None or self._waiting is None:  # between turns
            check_end(self, time_up=True)
        else:
            self.clock_out = True
            self._answers.append(TIME_UP)  # the turn's pending work replays it here

    def pending_work(self) -> Pending | None:
        """The work of the turn half played (the turn's start and the answers given since), while the game
        waits for a decision in the middle of a turn; None between turns."""
        if self._machine is None or self._waiting is None or self._mark is None:
            return None
        state, fixed = self._mark
        return Pending(state, fixed, self._answers, (self._waiting.seat, self._waiting.kind))

    def resume_pending(self, pending: Pending) -> None:
        """Put the turn's start of ``pending`` in this game and play the turn again to its decision."""
        pending.start.put(self)
        self._fixed_dice.clear()
        self._fixed_dice.extend(pending.fixed_dice)
        self._machine = None
        self._done = False
        self._start_machine()
        self.advance()  # to the first decision of the turn
        self._replay_answers(pending.answers)

    def _start_machine(self) -> None:
        self._firing = set()
        self._take_mark()
        self._machine = self._run()
        self._send(None)

    @property
    def max_turns(self) -> int | None:
        """The turn the caller caps the game at (None: no cap of the caller's; the game still stops at
        :data:`~monopoly.game.end.TURN_CEILING`, 10,000 turns, with the turn limit)."""
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

    def _take_mark(self) -> None:
        """Mark the position to copy from: the answers given after it replay the game to where it is."""
        self._mark = (GameState._copied(self, self.rng.getstate()), tuple(self._fixed_dice))  # between turns
        self._answers.clear()

    def _send(self, value: Any) -> None:
        assert self._machine is not None
        try:
            self._waiting = self._machine.send(value)
        except StopIteration:
            self._waiting = None
            self._done = True

    def _run(self) -> Steps:
        """The game as one generator: turns until it is over. Each turn: a jailed player's way out, rolls
        (doubles roll again, the rules' number of them sends to jail), moves and landings, then the actions
        after the turn. Between turns it pauses (yields None) when ``play_turn`` drives it, and takes the mark
        copies replay from. The common turn is inline: this is the hot loop of every simulation."""
        if not self.started:
            self.start()
        doubles_limit = self._doubles_limit
        two = self._two_dice
        passing = self.tables.has_pass_triggers
        act_of = self._act
        record_turn, record_to_move, next_turn, roll_and_move = (writes.turn, writes.to_move, writes.next_turn,
                                                                 writes.roll_and_move)
        n = self.players
        t = self.tables
        size, go, salary = t.size, t.go, self.rules.salary
        fixed, rnd, sides = self._fixed_dice, self._random, self._sides
        on_roll, on_turn_start, on_turn_end = t.on_roll, t.on_turn_start, t.on_turn_end
        jailing = t.jail_triggers
        special = t.dice  # dice with an extra die or their own doubles (game/dice.py): not the inline path
        # the common board: two dice, which never take a token past the go space twice
        plain_dice = two and not passing and not on_roll and special is None and 2 * sides <= size
        landing_of = t.landing
        # The state's lists, changed in place by the writers (GameState.put, which replaces them, starts a new
        # loop).
        position, owner, cash = self.position, self.owner, self.cash
        bankrupt, jail_turns = self.bankrupt, self.jail_turns
        begun = False  # the turn's event already recorded with the seat to move (writes.next_turn)
        events, event_limit = self.events, MAX_GAME_EVENTS
        between, others, between_of, answers = self._between_all, self._others, self._between, self._answers
        quiet_answers = (None,) * (n - 1)  # the others' answers when every one is quiet and still in the game
        # a game of the time-limit rules ends when a round limit is reached: no chance to act before that
        round_limit = self.rules.end.rounds if self.rules.end.when == "time" else 0
        while not self.finished:
            if begun:
                begun = False
            else:
                if self._pause_between_turns:
                    yield None
                if self._mark_each_turn:
                    self._take_mark()
                record_turn(self, self.turn + 1, self.round, self.current)
            p = self.current
            if on_turn_start:
                yield from self._fire("turn_start", on_turn_start, p)
            if on_turn_start and (bankrupt[p] or self.finished):
                pass  # the turn's trigger ended the player or the game
            elif jail_turns[p] < 0 or (yield from self._jail_start(p)):
                doubles = 0
                while True:
                    dice: tuple[int, ...]
                    if plain_dice and not fixed:
                        # _roll and _step inline, the roll and the move one call: the hottest lines of a
                        # simulation (the same dice formula as _roll, the same test as movement.passes_go)
                        d1 = int(rnd() * sides) + 1
                        d2 = int(rnd() * sides) + 1
                        dice = (d1, d2)
                        old = position[p]
                        s = (old + d1 + d2) % size
                        passed = go >= 0 and (go - old - 1) % size < d1 + d2
                        is_double = d1 == d2
                        if is_double:
                            doubles += 1
                            if doubles == doubles_limit:
                                writes.roll(self, p, dice)
                                if jailing:
                                    yield from self._jailed(p, "doubles")
                                else:
                                    self.send_to_jail(p, "doubles")
                                break
                        self._chain = 0
                        roll_and_move(self, p, dice, old, s, passed)
                        if passed and salary:
                            payment(self, BANK, p, salary, "salary")
                    elif special is not None:
                        doubles = yield from self._special_roll(p, doubles, special)
                        if doubles < 0:
                            break
                        continue
                    else:
                        dice = self._roll()
                        if on_roll:  # the roll's triggers, before the move
                            yield from self._fire("roll", on_roll, p)
                            if self.finished or bankrupt[p] or jail_turns[p] >= 0:
                                break
                        is_double = dice[0] == dice[1] if two else _all_same(dice)
                        if is_double:
                            doubles += 1
                            if doubles == doubles_limit:
                                if jailing:
                                    yield from self._jailed(p, "doubles")
                                else:
                                    self.send_to_jail(p, "doubles")
                                break
                        self._chain = 0
                        if passing:
                            yield from self._forward(p, dice[0] + dice[1] if two else sum(dice))
                        else:
                            self._step(p, dice[0] + dice[1] if two else sum(dice))
                        s = position[p]
                    # the landing: nothing to do, one's own lot and a rent in hand without a call to _land
                    landing = landing_of[s]
                    if landing == OWNABLE:
                        o = owner[s]
                        if o != p:
                            rent = self._rent_owed(p, s, None) if o >= 0 else -1
                            if rent < 0 or rent > cash[p]:  # to buy, or a rent to raise
                                yield from self._land(p, None)
                            elif rent:
                                payment(self, p, o, rent, "rent")
                    elif landing != QUIET:
                        yield from self._land(p, None)
                    if not is_double or jail_turns[p] >= 0 or bankrupt[p] or self.finished:
                        break
            if not bankrupt[p] and not self.finished:
                direct = self._direct
                if direct is None:
                    action = yield act_of[p]
                else:  # play() drives: its agent is asked here (what _ask_direct does, inline: once every turn)
                    decision = self._waiting = act_of[p]
                    try:
                        action = direct[p]["act"](self, p)
                    except BaseException as exc:
                        self._raised = exc
                        action = yield decision
                    else:
                        self._answers.append(action)
                if action is not None:
                    yield from self._between_turns(p, action)
                if on_turn_end and not bankrupt[p] and not self.finished:
                    yield from self._fire("turn_end", on_turn_end, p)
            if not self.finished:
                # The next seat still playing; a new round when every seat still playing has had its turn. The
                # round is counted first, so that a round limit ends the game right after it.
                seat = p + 1 if p + 1 < n else 0
                while bankrupt[seat]:
                    seat = (seat + 1) % n
                if between and self.turn < self.turn_cap and not self.clock_out and not (
                        round_limit and self.round + (seat <= p) >= round_limit):
                    # Every other player still in the game may build, sell, mortgage, lift mortgages and offer
                    # trades before the next turn (the rules' "at any time"), in turn order from the next to
                    # move: the decision `between` (none when the game ends here). A seat whose agent never
                    # acts out of turn (decisions.QUIET) is answered None without a call while play() drives.
                    if self._direct is not None and self._quiet_all and not self.bankrupt_order:
                        answers.extend(quiet_answers)  # nobody acts out of turn: all in one
                    else:
                        for q in others[p]:
                            if bankrupt[q]:
                                continue
                            decision = between_of[q][seat]
                            direct = self._direct  # play() may stop (an agent raised) or start within the phase
                            if direct is None:
                                action = yield decision
                            else:
                                ask = self._between_asks[q]
                                if ask is None:
                                    answers.append(None)
                                    continue
                                self._waiting = decision
                                try:
                                    action = ask(self, q, seat)
                                except BaseException as exc:
                                    self._raised = exc
                                    action = yield decision
                                else:
                                    answers.append(action)
                            if action is not None:
                                yield from self._between_turns(q, action, decision)
                                if self.finished or self.clock_out:
                                    break
                                while bankrupt[seat]:  # an action's trigger may have ended the next to move
                                    seat = (seat + 1) % n
                        if self.finished:
                            break
                if seat > p:
                    round_ = self.round
                else:  # a new round; the record's size is looked at here, once a round (effects look at each step)
                    round_ = self.round + 1
                    if len(events) >= event_limit and out_of_events(self):
                        break
                # A last-standing game ends at a bankruptcy (Money._bankrupt checks) or at the turn cap: between
                # turns only the cap and the other ends (a number of bankruptcies, the time) are checked.
                if self._end_each_turn or self.turn >= self.turn_cap:
                    record_to_move(self, seat, round_)
                    check_end(self)
                elif self._pause_between_turns or self._mark_each_turn:
                    record_to_move(self, seat, round_)
                else:  # nothing between the two turns: the seat to move and its turn, in one call
                    next_turn(self, seat, round_, self.turn + 1)
                    begun = True

    def _ask_direct(self, decision: Decision, ask: Callable[..., Any], *args: Any) -> Any:
        """Ask ``decision`` of the agent's function ``ask`` (its answering method for the decision's kind, called
        with the game and ``args``) here, as play() would ask it, without yielding the decision to play() and
        back: while play() drives (``_direct``), for the commonest decisions. The decision is pending while the
        agent answers (an agent may copy the game then), and the answer is kept for copies as play() keeps it.
        When the agent raises, returns :data:`RAISED` with what it raised kept for play(): the caller then yields
        the decision after all (``answer = yield decision``) and play() raises it, so the game waits at the
        decision, as when an agent asked by play() raises. A plain call, not a generator: it is on every busy
        turn's path (the turn loop's first act is the same lines, inline)."""
        self._waiting = decision
        try:
            answer = ask(self, *args)
        except BaseException as exc:
            self._raised = exc
            return RAISED
        self._answers.append(answer)
        return answer

    def _fire(self, event: str, runs: tuple[Any, ...], p: int, amount: int = 0) -> Steps:
        """The effects of an event's triggers (``Tables.on_event`` or ``instead_of``), for player ``p``, in file
        order, ``amount`` the event's money (an effect's `amount`); they stop when the player is bankrupt or the
        game over. A trigger's effect does not set off the triggers of the event it is on (a fee paid by a
        trigger on fees): no rule loops. Returns True when one replaced the event's default handling."""
        firing = self._firing
        if event in firing:
            return False
        firing.add(event)
        saved, self.event_amount = self.event_amount, amount
        replaced = False
        try:
            for run in runs:
                if self.bankrupt[p] or self.finished or (len(self.events) >= MAX_GAME_EVENTS and out_of_events(self)):
                    break
                if event in _FRESH:  # an event of the turn itself: its moves count from nothing
                    self._chain = 0
                if (yield from run(self, p, None)):
                    replaced = True
        finally:
            firing.discard(event)
            self.event_amount = saved
        return replaced

    def _event(self, event: str, p: int, amount: int = 0) -> Steps:
        """Fire the triggers on ``event`` that happened to ``p`` (after the default handling)."""
        runs = self.tables.on_event.get(event)
        if runs:
            yield from self._fire(event, runs, p, amount)

    def _replaced(self, event: str, p: int, amount: int = 0) -> Steps:
        """Fire the ``instead`` triggers on ``event`` (before the default handling): True when one replaced it."""
        runs = self.tables.instead_of.get(event)
        if runs:
            return (yield from self._fire(event, runs, p, amount))
        return False

    def _ask(self, decision: Decision) -> Any:
        """The answer of the seat's agent to ``decision``."""
        agent = self.agents[decision.seat]
        if decision.kind == "between" and self._quiet[decision.seat]:  # it never acts out of turn
            return None
        method = getattr(agent, decision.kind, None)
        if method is None:
            raise SetupError(f"seat {decision.seat} ({agent_name(agent)}) has no agent to answer {decision.kind}: "
                             "seat agents (play(game, agents)) or answer the game yourself (game.answer)")
        return method(self, decision.seat, *decision.args)

    def out_of_events(self) -> bool:
        """Whether the game has recorded all the events a game may (:data:`MAX_GAME_EVENTS`): it is then over
        (``end: event_limit``). The effects ask it at each of their steps."""
        return out_of_events(self)

    def carry_out(self, steps: Steps) -> Any:
        """Carry out ``steps`` (a part of a turn: ``game.carry_out(game.charge(0, BANK, 100, "tax"))``) at once, the
        seated agents answering whatever it asks; return its value. For set-ups and tests.

        What the steps ask is asked here, never by play()'s direct asking (``_direct``), even when an agent
        calls this (``game.apply``) while play() asks it something: an agent asked then that raises raises out
        of here, and the decision play() waits for stays the one pending."""
        direct, self._direct = self._direct, None
        try:
            decision = next(steps)
            while True:
                decision = steps.send(self._ask(decision) if decision is not None else None)
        except StopIteration as stop:
            return stop.value
        finally:
            self._direct = direct

    # ------------------------------------------------------------------ running

    def play(self) -> Result:
        """Play to the end, the seated agents answering, and return the :class:`~monopoly.game.end.Result`."""
        return play(self)

    def play_turn(self) -> None:
        """Play one player's turn (doubles re-rolls included) and the actions after it, the seated agents
        answering (a turn left half played by ``answer`` is finished)."""
        if self.finished:
            raise GameOver("the game is over")
        self._not_in_play()
        self._pause_between_turns = True
        if self._machine is None:
            self._start_machine()
        if self._waiting is None and not self._done:  # paused between turns: begin the turn
            self._send(None)
        while self._waiting is not None:
            answer = self._ask(self._waiting)
            self._answers.append(answer)
            self._send(answer)

    def start(self) -> None:
        """Shuffle the decks, pay the starting cash and deal deeds (once; play_turn does it by itself).

        Set-ups for a lesson or a test change the state after ``start()``.
        """
        if self.started:
            return
        rng = self.rng
        orders = []
        for key, deck in self.decks.items():
            order = list(deck)
            rng.shuffle(order)
            orders.append((key, tuple(order)))
        writes.game_start(self, self.ruleset.id, tuple(self.ruleset.variants), self.seed, self.max_turns,
                          tuple(agent_name(a) for a in self.agents), RULES_VERSION, LOG_VERSION, tuple(orders))
        start = self.ruleset.starting_cash
        for seat in range(self.players):
            payment(self, BANK, seat, start, "starting cash")
        deal = self.rules.deal_deeds
        if deal:
            deeds = list(self.tables.ownable)
            rng.shuffle(deeds)
            free = self.rules.deeds_free
            every = deal == "all"  # round after round until every deed is dealt, or none left can be paid for
            misses = 0
            for _ in range(len(deeds) if every else int(deal)):
                for seat in range(self.players):
                    if not deeds:
                        break
                    space = deeds.pop()
                    if not free and self.cash[seat] < self.tables.price[space]:
                        deeds.insert(0, space)  # this seat cannot pay for it: it stays with the bank
                        misses += 1
                        continue
                    if not free:
                        payment(self, seat, BANK, self.tables.price[space], "deed")
                    self._set_owner(space, seat, "deal")
                    misses = 0
                if every and (not deeds or misses >= len(deeds) * self.players):
                    break
        started = self.tables.on_event.get("game_start")
        if started:  # once the game is set out (what it asks, if anything, the seated agents answer at once)
            self.carry_out(self._fire("game_start", started, self.current))

    # ------------------------------------------------------------------ a turn

    def fix_dice(self, rolls: Sequence[Sequence[int]]) -> None:
        """Make the next rolls these (for lessons and scenario tests); the RNG takes over after them."""
        for roll in rolls:
            problem = fixed_roll_problem(self.ruleset, roll)
            if problem is not None:
                raise ValueError(problem)
            self._fixed_dice.append(tuple(roll))

    def give(self, space: int, seat: int) -> None:
        """Hand a lot to a seat (or back to the bank with -1) without payment: for set-ups."""
        self._set_owner(space, seat, "setup")

    def _roll(self) -> tuple[int, ...]:
        dice = self._counted_dice()
        _record_roll(self, self.current, dice)
        return dice

    def roll_afresh(self, p: int) -> None:
        """``p`` throws the counted dice afresh (an effect's `roll`): a `roll` event, and nobody moves."""
        writes.roll(self, p, self._counted_dice())

    def _counted_dice(self) -> tuple[int, ...]:
        """The counted dice of the next throw: fixed ones first (a fixed face of an extra die left out), then
        the generator's."""
        dice: tuple[int, ...]
        if self._fixed_dice:
            dice = self._fixed_dice.popleft()[:self.ruleset.dice_count]
        else:
            rnd = self._random
            sides = self._sides
            if self._two_dice:
                dice = (int(rnd() * sides) + 1, int(rnd() * sides) + 1)
            else:
                dice = tuple(int(rnd() * sides) + 1 for _ in range(self.ruleset.dice_count))
        return dice

    def _special_roll(self, p: int, doubles: int, d: Dice) -> Steps:
        """One roll to move with dice of their own (game/dice.py): the counted dice and, when its condition
        holds, the extra die. A triple does its effect in place of the move, is no doubles and ends the rolls; a
        number adds to the move; a symbol's effect replaces the move (``instead``) or follows its landing
        (``after``). Returns the doubles in a row so far, or -1 when the player rolls no more this turn."""
        fixed: tuple[Any, ...] = self._fixed_dice[0] if self._fixed_dice else ()  # numbers and symbols
        dice = self._counted_dice()
        extra: tuple[int | str, ...] = ()
        if d.thrown(self, p):
            extra = (fixed[len(dice)],) if len(fixed) > len(dice) else (d.face(self._random),)
        writes.roll(self, p, dice, extra)
        on_roll = self.tables.on_roll
        if on_roll:  # the roll's triggers, before the move
            yield from self._fire("roll", on_roll, p)
            if self.finished or self.bankrupt[p] or self.jail_turns[p] >= 0:
                return -1
        face = extra[0] if extra else None
        if d.triples is not None and type(face) is int and all(die == face for die in dice):
            self._chain = 0
            yield from d.triples(self, p, None)
            return -1
        is_double = d.doubles(dice)
        if is_double:
            doubles += 1
            if doubles == self._doubles_limit:
                if self.tables.jail_triggers:
                    yield from self._jailed(p, "doubles")
                else:
                    self.send_to_jail(p, "doubles")
                return -1
        self._chain = 0
        instead = d.instead.get(face) if type(face) is str else None
        if instead is not None:
            yield from instead(self, p, None)
        else:
            yield from self._forward(p, sum(dice) + (face if type(face) is int else 0))
            if self.tables.landing[self.position[p]] != QUIET:
                yield from self._land(p, None)
        after = d.after.get(face) if type(face) is str else None
        if after is not None and self._free(p):
            yield from after(self, p, None)
        return doubles if is_double and self._free(p) else -1

    def _jail_start(self, p: int) -> Steps:
        """A jailed player's turn begins. True when they are out and roll normally."""
        jail = self.rules.jail
        options = ["roll"]
        # The fine is paid before throwing on the turns before the last ("before you roll the dice on either of
        # your next two turns"); on the last the player throws, and pays only after failing.
        if self.cash[p] >= jail.fine and (self.jail_turns[p] < jail.max_turns - 1 or jail.pay_on_last_turn):
            options.append("pay")
        jail_card = self._jail_card(p)
        if jail_card is not None:
            options.append("card")
        choice: Any  # an agent's answer, checked below
        if len(options) == 1:
            choice = options[0]
        else:
            decision = new_decision((p, "jail", (tuple(options),)))
            direct = self._direct
            choice = RAISED if direct is None else self._ask_direct(decision, direct[p]["jail"], p, decision.args[0])
            if choice is RAISED:  # asked by play(), or the agent asked here raised
                choice = yield decision
            reason = check_answer(self, decision, choice)
            if reason is not None:
                self._refuse(p, f"jail choice {act.safe_repr(choice)}", f"{reason}; taken as roll")
                choice = "roll"
        leaving, fees = self.tables.on_leave_jail, self.tables.fee_triggers
        if choice == "pay":
            if fees:  # the fine is a fee
                yield from self._fee(p, self._fees_to(), jail.fine, "jail fine")
            else:
                yield from self.charge(p, self._fees_to(), jail.fine, "jail fine")
            if self.bankrupt[p] or self.finished:  # a fee's trigger may have ended the game
                return False
            self._leave_jail(p, "paid")
            if leaving:
                yield from self._fire("leave_jail", leaving, p)
                return self._free(p)
            return True
        if choice == "card" and jail_card is not None:
            writes.jail(self, p, "leave", "card", jail_card)  # the card goes back under its deck
            use = self.tables.card_use[jail_card][1]
            if use is not None:  # what the card does besides letting the player out
                self._chain = 0
                yield from use(self, p, None)
                if self.bankrupt[p] or self.finished or self.jail_turns[p] >= 0:
                    return False
            if leaving:
                yield from self._fire("leave_jail", leaving, p)
                return self._free(p)
            return True
        dice = self._roll()
        special = self.tables.dice
        if special.doubles(dice) if special is not None else _all_same(dice):
            self._leave_jail(p, "doubles")
        else:
            writes.jail(self, p, "stay", "roll", None)
            if self.jail_turns[p] < jail.max_turns:
                return False
            if fees:  # the fine is a fee
                yield from self._fee(p, self._fees_to(), jail.fine, "jail fine")
            else:
                yield from self.charge(p, self._fees_to(), jail.fine, "jail fine")
            if self.bankrupt[p] or self.finished:  # a fee's trigger may have ended the game
                return False
            self._leave_jail(p, "forced")
        if leaving:
            yield from self._fire("leave_jail", leaving, p)
            if not self._free(p):
                return False
        # Out by the roll: move by it, and no further roll this turn.
        self._chain = 0
        yield from self._forward(p, sum(dice))
        yield from self._land(p, None)
        return False

    def _jail_card(self, p: int) -> tuple[str, int] | None:
        """The first card ``p`` holds that is used in jail (a kept card's ``use: {when: in_jail}``), or None."""
        if not self.held_cards[p]:
            return None
        cards = act.held_for(self, p, "in_jail")
        return cards[0] if cards else None

    def _leave_jail(self, p: int, how: str) -> None:
        writes.jail(self, p, "leave", how, None)

    def _free(self, p: int) -> bool:
        """``p`` plays on: out of jail, not bankrupt, the game not over (after the triggers on leaving jail)."""
        return self.jail_turns[p] < 0 and not self.bankrupt[p] and not self.finished

    def _between_turns(self, p: int, action: Any, decision: Decision | None = None) -> Steps:
        """The seat's actions between turns, starting with ``action``, until it answers None: after its own
        turn (``act``), or before another's (``decision``, a ``between``)."""
        refusals = 0
        self.trades_this_phase = 0
        if decision is None:
            decision = self._act[p]
        kind = decision[1]
        try:
            for _ in range(MAX_ACTIONS_PER_PHASE):
                if type(action) is act.Trade:
                    if self.trades_this_phase >= self.rules.trades_per_phase:
                        return
                    self.trades_this_phase += 1
                done: bool | None
                if kind == "between" and type(action) is act.UseCard:
                    self._refuse(p, action, NOT_YOUR_TURN)
                    done = False
                else:
                    done = self._apply_now(p, action, self.debt_depth > 0)  # a plain call when it asks nobody
                    if done is None:
                        done = yield from self._apply_asking(p, action)
                if not done:
                    refusals += 1
                    if refusals >= MAX_REFUSALS:
                        return
                if self.finished or self.bankrupt[p] or (len(self.events) >= MAX_GAME_EVENTS and out_of_events(self)):
                    return
                direct = self._direct
                if direct is None:
                    action = yield decision
                else:  # play() drives: asked here (yielded all the same when the agent raised)
                    ask = direct[p][kind]
                    if ask is None:  # a quiet agent (decisions.QUIET): done
                        self._answers.append(None)
                        return
                    action = self._ask_direct(decision, ask, p, *decision[2])
                    if action is RAISED:
                        action = yield decision
                if action is None:
                    return
        finally:
            self.trades_this_phase = 0

    # ------------------------------------------------------------------ movement

    def _forward(self, p: int, steps: int) -> Steps:
        """Move ``p`` forward, with the salary and the triggers of the spaces passed."""
        if not self.tables.has_pass_triggers:
            self._step(p, steps)
            return
        t = self.tables
        old = self.position[p]
        new = (old + steps) % t.size
        passes = go_passes(t.go, old, steps, size=t.size)
        _move(self, p, old, new, passes > 0, passes)
        yield from self._pass_along(p, old, steps, new, passes > 0)

    def _step(self, p: int, steps: int) -> None:
        """Move ``p`` forward on a board with no pass triggers (nobody is asked anything): the salary each time
        the move passes the go space (more than once for a lap or more)."""
        t = self.tables
        old = self.position[p]
        new = (old + steps) % t.size
        passes = go_passes(t.go, old, steps, size=t.size)
        _move(self, p, old, new, passes > 0, passes)
        salary = self.rules.salary
        if passes and salary:
            for _ in range(passes):
                payment(self, BANK, p, salary, "salary")

    def _pass_along(self, p: int, old: int, steps: int, new: int, passed: bool) -> Steps:
        """Walk the path of a move that passes spaces with triggers: each passed space's triggers
        and the salary at the go space, in path order, once the token is on its new space.

        The walk stops when a trigger moves the token, sends it to jail, ends the player or
        the game, or when effects have already caused too many moves since the roll.
        """
        t = self.tables
        go_step = (t.go - old - 1) % t.size + 1 if passed else -1  # the first step onto the go space, then a lap on
        for i in range(1, steps + 1):
            if i == go_step:
                go_step += t.size
                if self.rules.salary:
                    payment(self, BANK, p, self.rules.salary, "salary")
            if i == steps:
                return
            for run in t.pass_triggers[(old + i) % t.size]:
                self._chain += 1
                if self._chain > MAX_CHAINED_MOVES:
                    return
                yield from run(self, p, None)
                if self.bankrupt[p] or self.finished or self.position[p] != new or self.jail_turns[p] >= 0:
                    return

    def _backward(self, p: int, steps: int) -> None:
        old = self.position[p]
        _move(self, p, old, (old - steps) % self.tables.size, False)

    def charges_rent(self, p: int, s: int) -> bool:
        """Whether ``p`` would be charged rent on ``s`` (owned by another, not mortgaged) by the rules: not when
        its owner is in jail and the rules say no rent then, nor when the ruleset's rent permission (asked as if
        ``p`` stood on ``s``) says no. What the filtered `nearest` of the speed die's Mr. Monopoly goes by."""
        o = self.owner[s]
        if o < 0 or o == p or self.mortgaged[s] or (self.jail_turns[o] >= 0 and not self._rent_in_jail):
            return False
        permit = self.tables.permit_rent
        if permit is None:
            return True
        position = self.position
        if position[p] == s:
            return bool(permit(self, p))
        here, position[p] = position[p], s  # the permission reads the owner of the space the player is on
        try:
            return bool(permit(self, p))
        finally:
            position[p] = here

    def _rent_owed(self, p: int, s: int, rent_mod: tuple[str, int] | None) -> int:
        """What ``p`` owes for landing on ``s`` (owned by another): the one place of who collects rent (not on
        a mortgaged lot; from a jailed owner only by the rules)."""
        if not self.charges_rent(p, s):
            return 0
        o = self.owner[s]
        if rent_mod is None:
            return self._rent_at(s, o, p)
        if rent_mod[0] == "dice":  # `with rent N x dice`: a fresh roll
            return rent_mod[1] * sum(self._roll())
        return self.rent_due(s, rent_mod)

    def _rent_at(self, s: int, o: int, p: int = -1) -> int:
        """The rent of lot ``s`` owned by ``o`` as the board stands, for visitor ``p``: looked up in the rows of
        game/rent.py (rent.lookup, inline), or worked out there when the kind's rent reads more of the game."""
        t = self.tables
        rows = t.rent_rows[s]
        if rows is None:
            return live_rent(self, s, o, p)
        row = rows[self.buildings[s]]
        if row.__class__ is int:
            value: int = row
            return value
        owner = self.owner
        if row.__class__ is list:  # [not whole, whole]: the whole group, or not
            for m in t.peers[s]:
                if owner[m] != o:
                    value = row[0]
                    return value
            value = row[1]
            return value
        owned = 0
        for m in t.peers[s]:
            if owner[m] == o:
                owned += 1
        cell = row[owned]
        if cell.__class__ is int:
            value = cell
            return value
        last = self.last_roll
        total = last[0] + last[1] if len(last) == 2 else sum(last)
        if self.last_extra:  # the extra die's number counts in the total, as `dice` reads it
            total += sum(face for face in self.last_extra if type(face) is int)
        if total < len(cell):
            value = cell[total]
            return value
        return live_rent(self, s, o, p)

    def _land(self, p: int, rent_mod: tuple[str, int] | None) -> Steps:
        t = self.tables
        s = self.position[p]
        if t.has_pass_triggers and (self.bankrupt[p] or self.finished or self.jail_turns[p] >= 0):
            return  # a pass trigger ended the move first
        if t.has_land_triggers:
            replaced = False
            for run in t.land_triggers[s]:
                if (yield from run(self, p, None)):
                    replaced = True  # an `instead` trigger: the space does nothing more
                if self.bankrupt[p] or self.finished or self.position[p] != s or self.jail_turns[p] >= 0:
                    return
            if replaced:
                return
        kind = t.kind[s]
        if kind == NOTHING:
            pass
        elif kind == DRAW:
            yield from self.draw_card(p, t.deck_of[s] or "")
        else:
            o = self.owner[s]
            if o < 0:
                yield from self._offer(p, s)
            elif o != p:
                rent = self._rent_owed(p, s, rent_mod)
                if rent and t.rent_triggers:
                    if not (yield from self._replaced("rent", p, rent)):
                        yield from self.charge(p, o, rent, "rent")
                    yield from self._event("rent", p, rent)
                elif rent:
                    yield from self.charge(p, o, rent, "rent")
        effect = t.space_effect[s]
        if effect is not None and not self.bankrupt[p] and not self.finished and self.position[p] == s \
                and self.jail_turns[p] < 0:
            yield from effect(self, p, None)

    def rent_due(self, s: int, rent_mod: tuple[str, int] | None = None) -> int:
        """The rent a visitor owes on space ``s`` now (0 when unowned or mortgaged); ``rent_mod`` ``("x", n)``
        multiplies it. A query: it changes nothing (a card's `with rent N x dice` rolls in the turn itself)."""
        o = self.owner[s]
        if o < 0 or self.mortgaged[s]:
            return 0
        kind = self.tables.kind[s]
        if kind in (NOTHING, DRAW) or (rent_mod is not None and rent_mod[0] == "dice"):
            return 0
        amount = self._rent_at(s, o)
        if rent_mod is not None and rent_mod[0] == "x":
            amount *= rent_mod[1]
        return amount

    def _offer(self, p: int, s: int) -> Steps:
        permit = self.tables.permit_buy
        if permit is not None and not permit(self, p):
            return  # the rules do not let this player buy yet: the lot is neither offered nor auctioned
        price = self.tables.price[s]
        if self.cash[p] < price:
            buys = False
        else:
            decision = new_decision((p, "buy", (s,)))
            direct = self._direct
            answer = RAISED if direct is None else self._ask_direct(decision, direct[p]["buy"], p, s)  # play() drives
            if answer is RAISED:
                answer = yield decision
            buys = self._yes(p, "buy", answer)
        if buys:
            payment(self, p, BANK, price, "buy")
            writes.buy(self, p, s, price)
            bought = self.tables.on_event.get("buy")
            if bought:
                yield from self._fire("buy", bought, p)
        elif self.rules.auction_on_decline:
            yield from self.auction(s)

    # ------------------------------------------------------------------ effect primitives

    def gain(self, p: int, amount: int, reason: str) -> None:
        """The bank pays ``p`` (an effect's `collect`), never past :data:`~monopoly.game.state.MAX_CASH` in
        hand: an effect such as `collect 100% of net worth` doubles cash each time, and no position may hold
        more."""
        amount = min(amount, MAX_CASH - self.cash[p])
        if amount > 0:
            payment(self, BANK, p, amount, reason)

    def pay_fee(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays a tax, fine or fee (an effect's `pay N`, the jail fine) to the bank, or the pot by the
        rules; the triggers on fees run."""
        if self.tables.fee_triggers:
            yield from self._fee(p, self._fees_to(), amount, reason)
        else:
            yield from self.charge(p, self._fees_to(), amount, reason)

    def pay_to_pot(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` into the pot (an effect's `pay N to pot`): a fee too."""
        if self.tables.fee_triggers:
            yield from self._fee(p, POT, amount, reason)
        else:
            yield from self.charge(p, POT, amount, reason)

    def _fee(self, p: int, to: int, amount: int, reason: str) -> Steps:
        """A fee of a ruleset with triggers on fees: an `instead` one may replace the payment; the others run
        after it. A fee of nothing is no fee."""
        if amount <= 0 or self.bankrupt[p]:
            return
        if not (yield from self._replaced("fee", p, amount)):
            yield from self.charge(p, to, amount, reason)
        yield from self._event("fee", p, amount)

    def pay_player(self, p: int, to: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` to seat ``to`` (an effect's `pay N to ...`); to nobody (-1) or a seat out of
        the game, the bank; to itself, nothing."""
        if to == p:
            return
        yield from self.charge(p, to if to >= 0 and not self.bankrupt[to] else BANK, amount, reason)

    def collect_from(self, p: int, source: int, amount: int, reason: str) -> Steps:
        """Seat ``source`` pays ``p`` ``amount`` (an effect's `collect N from ...`); nobody (-1) or a seat out
        of the game: the bank pays; itself: nothing."""
        if source == p:
            return
        if source < 0 or self.bankrupt[source]:
            self.gain(p, amount, reason)
            return
        yield from self.charge(source, p, amount, reason)

    def collect_from_each(self, p: int, amount: int, reason: str) -> Steps:
        for other in range(self.players):
            if self.bankrupt[p] or self.finished:
                return  # the collector went bankrupt (e.g. on the interest of a lot handed over)
            if other != p and not self.bankrupt[other]:
                yield from self.charge(other, p, amount, reason)

    def pay_each(self, p: int, amount: int, reason: str) -> Steps:
        """``p`` pays ``amount`` to every other player, raising the whole sum first. When even selling and
        mortgaging everything could not raise it, nothing is sold or mortgaged: the players are paid in turn
        from the cash there is, and the first who cannot be is the creditor of the bankruptcy."""
        others = [o for o in range(self.players) if o != p and not self.bankrupt[o]]
        total = amount * len(others)
        hopeless = False
        if self.cash[p] < total:
            hopeless = not self._can_raise(p, total)
            if not hopeless:
                yield from self._raise_funds(p, total)
        for other in others:
            if self.bankrupt[p] or self.finished:
                return
            if hopeless and self.cash[p] < amount:
                yield from self._bankrupt(p, other, amount, reason)
                return
            yield from self.charge(p, other, amount, reason)

    def add_to_pot(self, amount: int, reason: str) -> None:
        """The bank puts ``amount`` in the pot (an effect's `add N to pot`), never past
        :data:`~monopoly.game.state.MAX_CASH` in it."""
        amount = min(amount, MAX_CASH - self.pot)
        if amount > 0:
            payment(self, BANK, POT, amount, reason)

    def set_variable(self, index: int, name: str, value: int) -> None:
        """A variable of the game takes ``value`` (an effect's `set jackpot to ...`, `add ... to jackpot`)."""
        writes.variable(self, name, value)

    def take_pot(self, p: int) -> None:
        if self.pot > 0:
            payment(self, POT, p, self.pot, "pot")

    def collect_pot(self, p: int) -> Steps:
        """``p`` takes the pot (an effect's `collect pot`), then the triggers on taking it run."""
        self.take_pot(p)
        taken = self.tables.on_event.get("take_pot")
        if taken:
            yield from self._fire("take_pot", taken, p)

    # A player in jail does not move (an effect that runs there: a trigger on going to jail, on a jailed
    # player's turn).

    def advance_to(self, p: int, targets: tuple[int, ...], rent: tuple[str, int] | None) -> Steps:
        if self.jail_turns[p] >= 0 or not targets:
            return
        yield from self._forward(p, steps_ahead_to(self.position[p], targets, size=self.tables.size))
        yield from self._chain_land(p, rent)

    def go_back_to(self, p: int, targets: tuple[int, ...]) -> Steps:
        if self.jail_turns[p] >= 0 or not targets:
            return
        self._backward(p, steps_back_to(self.position[p], targets, size=self.tables.size))
        yield from self._chain_land(p, None)

    def move_by(self, p: int, steps: int) -> Steps:
        if self.jail_turns[p] >= 0:
            return
        if steps > 0:
            yield from self._forward(p, steps)
        else:
            self._backward(p, -steps)
        yield from self._chain_land(p, None)

    def _chain_land(self, p: int, rent: tuple[str, int] | None) -> Steps:
        self._chain += 1
        if self._chain <= MAX_CHAINED_MOVES:
            yield from self._land(p, rent)

    def send_to_jail(self, p: int, why: str = "sent") -> None:
        _move(self, p, self.position[p], self.tables.jail, False)
        writes.jail(self, p, "enter", why, None)

    def go_to_jail(self, p: int) -> Steps:
        """``p`` goes to jail (an effect's `go to jail`), with the triggers on it."""
        if self.tables.jail_triggers:
            yield from self._jailed(p, "sent")
        else:
            self.send_to_jail(p)

    def _jailed(self, p: int, why: str) -> Steps:
        """``p`` is sent to jail in a ruleset with triggers on it: an `instead` one may keep the player out; the
        others run after."""
        if not (yield from self._replaced("go_to_jail", p)):
            self.send_to_jail(p, why)
        yield from self._event("go_to_jail", p)

    def keep_card(self, p: int, card: Any) -> None:
        """``p`` keeps the card being resolved: it leaves the bottom of its deck for the player's hand."""
        if card is None:
            return
        if card.slot in self.decks[card.deck]:  # not when a second `keep` in the same effect comes along
            writes.keep(self, p, card.deck, card.index, card.slot)

    def draw_card(self, p: int, deck_key: str) -> Steps:
        deck = self.decks[deck_key]
        if not deck:
            return  # every card of the deck is held by players
        self._chain += 1
        if self._chain > MAX_CHAINED_MOVES or (len(self.events) >= MAX_GAME_EVENTS and out_of_events(self)):
            return  # a card drawing from its own deck, over and over; or the game's record full
        if self.rules.shuffle_before_draw and len(deck) > 1:
            order = list(deck)
            self.rng.shuffle(order)
            writes.shuffle(self, deck_key, tuple(order))
        slot = self.tables.decks[deck_key][deck[0]]
        # To the bottom at once, so the decks are whole whatever the card does (a card that is
        # kept leaves the bottom again in keep_card).
        writes.card(self, p, deck_key, slot.index, slot.text, slot.keeps)
        yield from slot.run(self, p, slot)

    def choose(self, p: int, options: tuple[str, ...], costs: tuple[Any, ...] = (),
               landings: tuple[Any, ...] = (), worth: bool = False) -> Steps:
        """``p`` chooses one of an effect's alternatives (the texts ``options``); returns the index. ``costs``
        and ``landings`` tell an agent what each would cost and where it would move the token
        (:meth:`option_costs`, :meth:`option_landings`); ``worth``: an alternative pays by a player's net worth,
        whatever happens (its cost cannot be told without adding the worth up)."""
        self._option_costs = costs
        self._option_landings = landings
        self._option_worth = worth
        decision = Decision(p, "choose", (options,))
        try:
            choice = yield decision
        finally:
            self._option_costs = ()
            self._option_landings = ()
        reason = check_answer(self, decision, choice)
        if reason is not None:
            self._refuse(p, f"choice {act.safe_repr(choice)}", f"{reason}; taken as 0")
            choice = 0
        writes.note(self, (CHOICE, p, options, choice))
        return choice

    def option_costs(self, seat: int, *, worth: int | None = None) -> list[int]:
        """While ``seat`` is choosing between an effect's alternatives: what each would cost it in
        cash now (payments less collections; moves and draws count 0). Empty at other times.

        Empty too when an alternative's cost needs the player's worth added up (``N% of net worth``,
        the classic Income Tax): the printed rule is to choose "before you add up your total worth",
        so the game does not add it up for the player. An agent may work out what it knows itself and
        give it as ``worth``: the alternatives are then priced with that figure instead (so
        ``worth=game.net_worth(seat)`` is the agent adding up for itself). An agent that takes the
        costs as its guide and gets none falls back on its own default, as when the game cannot say
        (the built-in bots take the first alternative, the classic flat 200).
        """
        if not self._option_costs or (worth is None and self._option_worth):
            return []  # the worth is not added up for the player
        self._pricing = True
        self._priced_worth = worth
        try:
            return [cost(self, seat) for cost in self._option_costs]
        except _WorthNeeded:
            return []
        finally:
            self._pricing = False

    def option_landings(self, seat: int) -> list[int | None]:
        """While ``seat`` is choosing between an effect's alternatives: the space each would move its token to
        first (None: no move, or one the game cannot say beforehand); empty when none of them moves (the
        speed die's Bus, `move forward die 1 spaces | ...`, and a space one chooses have them)."""
        return [None if landing is None else landing(self, seat) for landing in self._option_landings]

    def houses_of(self, p: int) -> int:
        return on_board([b for s, b in enumerate(self.buildings) if self.owner[s] == p],
                        hotel_level=self.tables.hotel_level)[0]

    def hotels_of(self, p: int) -> int:
        return on_board([b for s, b in enumerate(self.buildings) if self.owner[s] == p],
                        hotel_level=self.tables.hotel_level)[1]

    def count_owned(self, p: int, indexes: tuple[int, ...]) -> int:
        return sum(1 for s in indexes if self.owner[s] == p)

    def net_worth(self, p: int) -> int:
        """Cash, printed prices of all lots (mortgaged or not) and buildings at cost (the income-tax worth)."""
        if self._pricing:  # option_costs: the player chooses before the worth is added up
            if self._priced_worth is None:
                raise _WorthNeeded
            return self._priced_worth
        t = self.tables
        owner, buildings, price, cost_of = self.owner, self.buildings, t.price, t.building_cost_of
        total = self.cash[p]
        for s in t.ownable:
            if owner[s] == p:
                total += price[s] + buildings[s] * cost_of[s]
        return total

    def valuation(self, p: int) -> int:
        """The rulebook's worth for ending a game: cash, printed price of unmortgaged lots,
        the mortgage value of mortgaged ones, houses at cost, a hotel at cost with its houses."""
        t = self.tables
        owner, buildings, mortgaged, cost_of = self.owner, self.buildings, self.mortgaged, t.building_cost_of
        total = self.cash[p]
        for s in t.ownable:
            if owner[s] == p:
                total += (t.mortgage[s] if mortgaged[s] else t.price[s]) + buildings[s] * cost_of[s]
        return total

    def _set_owner(self, s: int, seat: int, how: str) -> None:
        """The lot ``s`` changes hands (``seat`` -1: back to the bank) other than by buying."""
        previous = self.owner[s]
        writes.property_(self, s, previous if previous >= 0 else BANK, seat if seat >= 0 else BANK, how)

    # ------------------------------------------------------------------ auctions

    def auction(self, s: int) -> Steps:
        """Auction a lot among every player still in the game (the one who declined too) whom the rules let buy it
        (``permissions.buy``)."""
        bidders = [(self.current + i) % self.players for i in range(self.players)]
        permit = self.tables.permit_buy
        bidders = [b for b in bidders if not self.bankrupt[b] and (permit is None or permit(self, b))]
        winner, price = yield from run_auction(self, bidders, ("space", s), self.rules.auction_min_bid)
        if winner is not None:  # the lot is the winner's (the auction event), who pays for it
            payment(self, winner, BANK, price, "auction")

    # ------------------------------------------------------------------ actions

    def legal_actions(self, seat: int, *, raising: bool = False) -> list[act.Action]:
        """What ``seat`` may build, sell, mortgage or unmortgage now."""
        return act.legal_actions(self, seat, raising=raising)

    def apply(self, seat: Any, action: Any, *, raising: bool = False) -> bool:  # Any: checked here
        """Take ``seat``'s action now if the rules allow it (True), or refuse it with a reason (False). What it
        asks others (a trade's partner, bids on the last houses) the seated agents answer at once: for set-ups
        and tests. In play, actions are answers to the ``act`` decision."""
        result: bool = self.carry_out(self._apply(seat, action, raising=raising))
        return result

    def _apply(self, seat: Any, action: Any, *, raising: bool = False) -> Steps:
        """Verify ``seat``'s ``action`` and take it (True), or refuse it with a reason (False)."""
        done = self._apply_now(seat, action, raising or self.debt_depth > 0)
        if done is None:
            done = yield from self._apply_asking(seat, action)
        return done

    def _apply_now(self, seat: Any, action: Any, raising: bool) -> bool | None:  # Any: checked here
        """The part of :meth:`_apply` that asks nobody, as a plain call (a build, a sale or a mortgage of a busy
        turn pays no generator): verify the action, refuse it (False) or take it when that asks nobody (True);
        None when it is verified but takes a step that may ask (a trade, a card's use, a shortage auction, the
        triggers on actions), which :meth:`_apply_asking` takes."""
        try:
            act.verify(self, seat, action, raising=raising)
        except act.IllegalAction as exc:
            self._refuse(seat, action, str(exc))
            return False
        kind = type(action)
        if kind is act.Trade or kind is act.UseCard or self.tables.action_triggers or \
                (kind is act.Build and shortage_possible(self, action.space)):
            return None
        self._do(seat, action)
        return True

    def _apply_asking(self, seat: int, action: Any) -> Steps:
        """A verified action whose taking may ask players (see :meth:`_apply_now`)."""
        if type(action) is act.Trade:
            return (yield from self._trade(action))
        if type(action) is act.UseCard:
            yield from self._use_card(seat, action)
            return True
        if type(action) is act.Build and shortage_possible(self, action.space) and \
                (yield from shortage_auction(self, seat, action.space)):
            return True
        amount = self._do(seat, action)
        if self.tables.action_triggers:
            yield from self._acted(seat, action, amount)
        return True

    def _acted(self, seat: int, action: act.Action, amount: int) -> Steps:
        """The triggers on a build, a mortgage or an unmortgage just done (``amount`` its money)."""
        kind = type(action)
        event = "build" if kind is act.Build else "mortgage" if kind is act.Mortgage else \
            "unmortgage" if kind is act.Unmortgage else None
        if event is not None:
            yield from self._event(event, seat, amount)

    def _do(self, seat: int, action: act.Action) -> int:
        """Carry out a verified build, sell, mortgage, unmortgage or sale of a lot to the bank; return the money
        it moved."""
        t = self.tables
        s = action.space  # type: ignore[union-attr]
        kind = type(action)
        if kind is act.Build:
            group = t.group_of[s]
            cost = t.house_cost[group]
            payment(self, seat, BANK, cost, "build")
            writes.build(self, seat, s, self.buildings[s] + 1)
            return cost
        if kind is act.SellBuilding:
            group = t.group_of[s]
            level = self.buildings[s]
            if level == t.hotel_level and self.houses_left < t.hph:  # a hotel in a housing shortage
                self._sell_down(seat, act.shortage_sale(t, self.buildings, self.houses_left, s,
                                                        self.rules.building.even))
                return 0
            payment(self, BANK, seat, self.sell_value(group), "sell building")
            writes.sell(self, seat, s, level - 1, 1)
            return self.sell_value(group)
        if kind is act.Mortgage:
            payment(self, BANK, seat, t.mortgage[s], "mortgage")
            writes.mortgage(self, seat, s)
            return t.mortgage[s]
        if kind is act.SellLot:
            value = self.lot_sale_value(s)
            payment(self, BANK, seat, value, "sell lot")
            writes.property_(self, s, seat, BANK, "sold")
            return value
        cost = self.unmortgage_cost(s)
        payment(self, seat, BANK, cost, "unmortgage")
        writes.unmortgage(self, seat, s)
        return cost

    def _use_card(self, seat: int, action: act.UseCard) -> Steps:
        """A verified use of a kept card on the turn: back under its deck, then its use's effect."""
        writes.use_card(self, seat, action.deck, action.card)
        use = self.tables.card_use[(action.deck, action.card)][1]
        if use is not None:
            self._chain = 0
            yield from use(self, seat, None)

    def _trade(self, trade: Any) -> Steps:  # Any: lists where tuples are due, made tuples here
        trade = act.clean_trade(trade)  # the partner is shown plain tuples, whatever the proposer sent
        partner = trade.partner
        decision = new_decision((partner, "answer_trade", (trade,)))
        direct = self._direct
        answer = RAISED if direct is None else self._ask_direct(decision, direct[partner]["answer_trade"], partner,
                                                                 trade)
        if answer is RAISED:  # asked by play(), or the agent asked here raised
            answer = yield decision
        accepted = self._yes(partner, "answer_trade", answer)
        writes.trade(self, accepted, trade.proposer, partner, trade.give_spaces, trade.give_cash,  # cards move here
                     trade.give_cards, trade.get_spaces, trade.get_cash, trade.get_cards)
        if not accepted:
            return True
        a, b = trade.proposer, partner
        if trade.give_cash:
            payment(self, a, b, trade.give_cash, "trade")
        if trade.get_cash:
            payment(self, b, a, trade.get_cash, "trade")
        for s in trade.give_spaces:
            self._set_owner(s, b, "trade")
        for s in trade.get_spaces:
            self._set_owner(s, a, "trade")
        for receiver, spaces in ((b, trade.give_spaces), (a, trade.get_spaces)):
            for s in spaces:  # not once the interest of one has ended the game (a bankruptcy, the last but one)
                if self.mortgaged[s] and not self.bankrupt[receiver] and not self.finished:
                    yield from self._receive_mortgaged(receiver, s)
        return True

    def _refuse(self, seat: Any, action: Any, reason: str) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            return  # `apply` called for no seat of this game: nobody to tell
        writes.note(self, (REFUSED, seat, act.safe_repr(action), reason))
        notify = getattr(self.agents[seat], "refused", None)
        if notify is not None:
            notify(self, seat, action, reason)

    # ------------------------------------------------------------------ the end

    def _check_end(self) -> None:
        if not self.finished:
            check_end(self)

    def result(self) -> Result:
        """The outcome so far (``end`` is "unfinished" until the game is over)."""
        return result_of(self)


@mypyc_attr(native_class=False)
class SeatRandom(random.Random):
    """A seat's own generator, as an agent's ``setup`` is given it: ``random.Random(seed)``, drawing exactly what
    that draws, but seeded when first used rather than when made, so that a game whose bots never draw (greedy,
    cautious, trader) seeds none of its four (seeding the Mersenne Twister is most of what a game costs before
    its first turn: 3.7 us each)."""

    def __init__(self, x: Any = None) -> None:  # not Random.__init__, which seeds at once
        self._unseeded = True
        self._seed = x
        self.gauss_next = None

    def _wake(self) -> None:
        self._unseeded = False
        super().seed(self._seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._unseeded = False
        super().seed(a, version)

    def random(self) -> float:
        if self._unseeded:
            self._wake()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if self._unseeded:
            self._wake()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        if self._unseeded:
            self._wake()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._unseeded = False
        super().setstate(state)


class _Named(Caller):
    """A seat of a copied game: it keeps the name of the agent it copies, and nothing else."""

    def __init__(self, name: str):
        self.name = name


def play(game: Game, agents: Sequence[Any] | None = None) -> Result:
    """Play ``game`` to the end, ``agents`` (one per seat; the game's own if None) answering every decision,
    and return the :class:`~monopoly.game.end.Result`. A thin loop over :attr:`Game.pending` and
    :meth:`Game.respond`: an agent's illegal answer is refused and the safe answer taken.

    >>> import monopoly
    >>> game = Game(monopoly.load_ruleset("classic"), players=2, seed=4, max_turns=40)
    >>> def cautious(game, decision):  # an agent can be one function of (game, decision)
    ...     return False if decision.kind in ("buy", "answer_trade", "lift_mortgage") else None
    >>> play(game, [cautious, monopoly.make_agent("greedy")]).turns
    40
    """
    game._not_in_play()
    if agents is not None:
        game.seat_agents(agents)
    asks: list[dict[str, Any]] = [{kind: getattr(agent, kind, None) for kind in KINDS} for agent in game.agents]
    for quiet, methods in zip(game._quiet, asks, strict=True):
        if quiet:
            methods["between"] = None  # it never acts out of turn: answered None without a call
    game._between_asks = [methods["between"] for methods in asks]
    missing = [f"seat {seat} ({agent_name(game.agents[seat])})" for seat, ask in enumerate(asks)
               if any(method is None for kind, method in ask.items() if kind != "between")]
    if missing:
        raise SetupError(f"{', '.join(missing)} cannot answer decisions: play(game, agents) with an agent a seat")
    if game.finished:
        return game.result()
    if game._machine is None:
        game._mark_each_turn = False  # the mark of the start stays: a copy replays from it, then marks each turn
        game._start_machine()
    game._pause_between_turns = False
    answers = game._answers
    machine = game._machine
    assert machine is not None
    waiting: Any = game._waiting  # a Decision, or None at the end
    game._direct = asks  # the turn loop asks the commonest decisions itself (Game._ask_direct)
    game.agent_failure = None
    try:
        if waiting is None and not game._done:  # paused between turns by play_turn
            try:
                waiting = game._waiting = machine.send(None)
            except StopIteration:  # the game's end (an agent's own StopIteration is not caught here)
                waiting, game._done = None, True
        # game._waiting is kept equal to `waiting` at every step, not set on the way out (a compiled build takes
        # `waiting` there for None): an agent may copy the game while it decides, and the game waits at the
        # decision if the agent raises (or Ctrl-C comes).
        while waiting is not None:
            if game._raised is not None:  # an agent asked directly raised: the decision waits for an answer
                raised, game._raised = game._raised, None
                game.agent_failure = (waiting[0], waiting[1])
                raise raised
            seat = waiting[0]
            try:
                ask = asks[seat][waiting[1]]
                answer = ask(game, seat, *waiting[2]) if ask is not None else None  # None: a quiet `between`
            except BaseException:
                game.agent_failure = (seat, waiting[1])
                raise
            answers.append(answer)
            try:
                waiting = game._waiting = machine.send(answer)
            except StopIteration:
                waiting, game._done = None, True
        game._waiting = None
    finally:
        game._direct = None
    return game.result()


#: The events of the turn itself: the moves their triggers cause count from nothing (the others happen inside
#: a move, whose count goes on).
_FRESH = frozenset({"game_start", "turn_start", "turn_end", "roll"})


def _all_same(dice: tuple[int, ...]) -> bool:
    """Doubles: every die shows the same face (one die alone never throws doubles)."""
    return len(dice) > 1 and len(set(dice)) == 1

