"""Replaying: :class:`Replay`, a state that a game's events are applied to from outside the game.

The narration of ``monopoly replay``, ``replay --until``, the payment checks and the tests' shadow ledgers
read a log or a game's record through it; each event goes through :func:`monopoly.game.apply.apply`, the
one writer, as in the live game.

>>> import monopoly
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), [monopoly.make_agent("greedy") for _ in "ab"], seed=3,
...                      max_turns=40)
>>> result = game.play()
>>> replayed = Replay.of_records(game.events, game.ruleset)
>>> replayed.cash == game.cash and replayed.owner == game.owner and replayed.buildings == game.buildings
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, cast

from .apply import Record, apply
from .core import Core, SetupError
from .events import AUCTION, BUILD, BUY, CARD, GAME_START, MORTGAGE, PROPERTY, SELL, UNMORTGAGE, from_dict
from .state import GameState


class Replay(GameState):
    """A state that events are applied to from outside a game: a log's, or a game's record played back.

    ``of_records`` and ``of_log`` start from the ruleset's first position for the players the ``game_start``
    names (or from ``start``, a :class:`~monopoly.game.state.GameState`, for a game resumed from a save) and
    apply every event. ``apply`` goes on one event at a time (a narration, ``replay --until``).
    """

    __slots__ = ("events", "log_version", "tables")

    tables: Any
    events: list[Record]
    log_version: int
    decks: dict[str, deque[int]]  # type: ignore[assignment]  # deques here: a draw takes the top card

    @classmethod
    def new_for(cls, ruleset: Any, players: int, start: GameState | None = None) -> Replay:
        """An empty board for ``players`` (or the position ``start``), to apply a game's events to."""
        from .tables import tables_for

        if start is None and ruleset is not None and players:  # before the start: game_start and payments follow
            problem = ruleset.players_problem(players)
            if problem is not None:
                raise SetupError(problem)
            unstarted = Core(ruleset, players, 0, None, ())
            start = GameState._copied(unstarted, unstarted.rng.getstate())
        if start is not None:
            replay = cast("Replay", cls._copied(start, start.rng))  # _copied makes a cls
            replay.decks = {key: deque(order) for key, order in replay.decks.items()}  # a draw takes the top card
            replay.pending = None  # events are applied to it from here: no half-played turn to resume
        else:  # no players yet, or a log read without its ruleset: lists grow as the events name spaces
            replay = cls.__new__(cls)
            replay._blank(players)
            if ruleset is not None:
                size = len(ruleset.board)
                replay.owner, replay.buildings, replay.mortgaged = [-1] * size, [0] * size, [False] * size
                replay.variables = [value for _, value in ruleset.variables]
        replay.tables = tables_for(ruleset) if ruleset is not None else None
        replay.events = []
        replay.record = replay.events.append
        replay.log_version = 2
        return replay

    def _blank(self, players: int) -> None:
        self.cash, self.position, self.jail_turns = [0] * players, [0] * players, [-1] * players
        self.laps = [0] * players
        self.bankrupt, self.bankrupt_order = [False] * players, []
        self.owner, self.buildings, self.mortgaged = [], [], []
        self.houses_left = self.hotels_left = self.pot = self.turn = self.round = self.current = 0
        self.started = self.finished = False
        self.end_reason = self.winner = None
        self.owner_version = 0
        self.held_cards = [[] for _ in range(players)]
        self.decks = {}
        self.last_roll = ()
        self.last_extra = ()
        self.rng = (3, tuple([0] * 625), None)  # not (0,) * 625: mypyc writes that out 625 times
        self.variables = []

    @classmethod
    def of_records(cls, records: Iterable[Record], ruleset: Any, *, start: GameState | None = None) -> Replay:
        """Every record of a game applied, from its first position (or ``start``)."""
        records = list(records)
        players = len(records[0][5]) if records and records[0][0] == GAME_START else len(start.cash) if start else 0
        replay = cls.new_for(ruleset, players, start)
        for record in records:
            replay.apply(record)
        return replay

    @classmethod
    def of_log(cls, events: Iterable[Mapping[str, Any]], ruleset: Any, *,
               start: GameState | None = None) -> Replay:
        """Every event of a log (dicts, as :func:`~monopoly.game.log.read_log` returns them) applied."""
        replay: Replay | None = None
        if start is not None:
            replay = cls.new_for(ruleset, len(start.cash), start)
        for event in events:
            if replay is None:
                players = len(event["players"]) if event["type"] == "game_start" else 0
                replay = cls.new_for(ruleset, players)
            replay.apply_dict(event)
        return replay if replay is not None else cls.new_for(ruleset, 0)

    @property
    def players(self) -> int:
        return len(self.cash)

    @property
    def go(self) -> int:
        """The go space (0 for a log read without its ruleset)."""
        return max(self.tables.go, 0) if self.tables is not None else 0

    def apply(self, record: Record) -> None:
        """Apply one record (the board grows for a log read without its ruleset)."""
        if self.tables is None:
            self._grow(record)
        apply(self, record)

    def apply_dict(self, event: Mapping[str, Any]) -> None:
        """Apply one event of a log. A version-1 log's kept card (no ``keep`` event then) is kept here."""
        record = from_dict(event)
        if record[0] == GAME_START:
            self.log_version = record[7]
        self.apply(record)
        if record[0] == CARD and record[5] and self.log_version < 2:
            self.held_cards[record[1]].append((record[2], record[3]))

    def _grow(self, record: Record) -> None:
        code = record[0]
        space = None
        if code in (BUY, BUILD, SELL, MORTGAGE, UNMORTGAGE):
            space = record[2]
        elif code in (AUCTION, PROPERTY):
            space = record[2] if code == AUCTION else record[1]
        if isinstance(space, int) and space >= len(self.owner):
            extra = space + 1 - len(self.owner)
            self.owner += [-1] * extra
            self.buildings += [0] * extra
            self.mortgaged += [False] * extra
        if code == GAME_START and not self.cash:
            self._blank(len(record[5]))
            self.record = self.events.append


__all__ = ["Replay"]
