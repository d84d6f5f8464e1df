"""The game's driving surface: :class:`Game` and :func:`play`.

One ``Game`` plays any valid ruleset. Rules come from the ruleset's compiled
tables and closures (``tables.py``, ``effects/compile.py``) and are run by the
rule modules, one per concern (``turn``, ``movement``, ``landing``, ``jail``,
``money``, ``building``, ``auction``, ``cards``, ``acting``, ``end``: see
:mod:`monopoly.game.core`); no code here names a space, a card or a variant.
All randomness comes from one ``random.Random(seed)``; agents get their own
generators derived from the seed, so the same ruleset, seed and agents give
the same game, bit for bit.

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
from collections.abc import Sequence
from typing import Any

from .._mypyc import mypyc_attr
from ..ruleset.model import Ruleset
from . import acting
from . import apply as writes
from .core import Event, GameOver, NoDecision, Observer, SetupError, Steps, set_owner
from .decisions import (
    KINDS,
    TIME_UP,
    Caller,
    Decision,
    FunctionAgent,
    IllegalAnswer,
    agent_name,
    check_answer,
    legal_answers,
    quiet_between,
)
from .end import Result, check_end, result_of
from .events import TIME_UP as TIME_UP_EVENT
from .events import from_dict, to_dict
from .host import Host
from .state import GameState, Pending, StateError, fixed_roll_problem
from .turn import run, set_out

__all__ = ["Game", "GameOver", "NoDecision", "SeatRandom", "SetupError", "play"]


class Game(Host):
    """A game of a ruleset between agents, from a seed: the driving surface (advance, pending, legal answers,
    answer, respond, copy, state, observe, play) over the state and the rule modules.

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
        problem = ruleset.players_problem(n)
        if problem is not None:
            raise SetupError(problem)
        super().__init__(ruleset, n, seed, max_turns, observers)
        self.agents = list(agents)
        if self._observers:
            self._observe_records()
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
    def from_state(cls, ruleset: Ruleset, agents: Any = None, state: Any = None, *,  # Any: checked here
                   players: int | None = None, seed: int = 0, max_turns: int | None = None,
                   observers: Sequence[Observer] = (), keep_dice: bool = True) -> Game:
        """A game going on from ``state`` (checked first: :class:`~monopoly.game.state.StateError` lists every
        rule it breaks), its seats taken by ``agents`` (one a seat of the position), or, given no agents
        (``Game.from_state(ruleset, state)``; ``players=N``, if given, must be the position's seats), by the
        caller, who drives the game as one made with ``Game(ruleset, players=N)``. ``keep_dice``: the dice and
        shuffles go on as the state's random generator would; without it they come from ``seed`` (a new future
        from the same position, as ``simulate --from`` plays). Agents start fresh, seeded from ``seed``. The
        position is played on as it is: a started one (as every set-up is) is never started again, nor dealt on
        top.

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
        >>> Game.from_state(classic, position.state, players=2).pending is None   # the caller drives both seats
        True
        >>> Game.from_state(classic, position.state, players=3)
        Traceback (most recent call last):
          ...
        monopoly.game.core.SetupError: players=3, but the position has 2 seats
        """
        # agents: a sequence of agents, or the position (state then None), or None; state: a GameState, or None.
        # New names, not the arguments: the compiled build keeps a variable to the type a test narrowed it to.
        seated: Sequence[Any] | None
        position: object
        if state is None and not isinstance(agents, Sequence):  # from_state(ruleset, state): the caller drives
            seated, position = None, agents
        elif isinstance(agents, GameState):
            raise SetupError("give the position once: Game.from_state(ruleset, state, players=N) for a game you "
                             "drive, or Game.from_state(ruleset, agents, state)")
        else:
            seated, position = agents, state
        if not isinstance(position, GameState):
            raise SetupError(f"the position is {type(position).__name__}, not a GameState (Setup(...).state, "
                             "game.state() or GameState.from_json give one)" if position is not None else
                             "no position given: Game.from_state(ruleset, state, players=N) for a game you drive, "
                             "or Game.from_state(ruleset, agents, state)")
        seats = len(position.cash)
        if players is not None and players != seats:
            raise SetupError(f"players={players}, but the position has {seats} seats")
        if seated is not None and len(seated) != seats:
            raise SetupError(f"{len(seated)} agents for a position of {seats} seats")
        problems = position.problems(ruleset, max_turns=max_turns)
        if problems:
            raise StateError(problems)
        game = cls(ruleset, seated, seed, max_turns=max_turns, observers=observers, players=seats)
        position.put(game)
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

    def forget_turn(self) -> None:
        """Forget the turn in progress (its loop holds the old lists) and the final standings: the position is
        being replaced (``GameState.put``)."""
        if self._machine is not None:
            self._machine = self._waiting = None
            self._done = False
        self.final_standings = None

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
        self.take_mark()
        self._machine = run(self)
        self._send(None)

    def take_mark(self) -> None:
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
        if not self.started:
            set_out(self)

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
        set_owner(self, space, seat, "setup")

    def apply(self, seat: Any, action: Any, *, raising: bool = False) -> bool:  # Any: checked here
        """Take ``seat``'s action now if the rules allow it (True), or refuse it with a reason (False). What it
        asks others (a trade's partner, bids on the last houses) the seated agents answer at once: for set-ups
        and tests. In play, actions are answers to the ``act`` decision."""
        result: bool = self.carry_out(acting.apply_steps(self, seat, action, raising=raising))
        return result

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
    game._direct = asks  # the turn loop asks the commonest decisions itself (core.ask_direct)
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
