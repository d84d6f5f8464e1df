"""Helpers for the rule scenario tests (tests/test_rules_*.py).

A scenario sets a position up exactly with the engine's public facilities
(``game.start()``, ``game.fix_dice``, ``game.give`` and assignment to the state
lists), lets the engine play (``game.play_turn()`` or ``game.apply``), and
checks the exact outcome.

Every decision of a :class:`ScriptedAgent` comes from the test: a constant, a
list (a queue, consumed one answer per question; the default answers once it
is empty) or a callable ``f(game, seat, *question)``. The agent records every
question it was asked in ``asked`` so a test can check who was asked what.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cache
from typing import Any

import monopoly
from monopoly.agents import Agent
from monopoly.game import Game
from monopoly.game.state import GameState
from monopoly.game.stock import stock_change

#: What a scripted agent answers when its script for a question is empty.
DEFAULTS = {
    "buy": False,
    "bid": 0,
    "jail": "roll",
    "choose": 0,
    "act": None,
    "between": None,
    "answer_trade": False,
    "raise_funds": None,
    "lift_mortgage": False,
}


class ScriptedAgent(Agent):
    """An agent whose answers are given by the test, question by question.

    Keyword arguments are named after the questions: ``buy``, ``bid``, ``jail``,
    ``choose``, ``act``, ``between``, ``answer_trade`` (alias ``trade``), ``raise_funds`` and
    ``lift_mortgage`` (alias ``lift``). Each is a constant, a list (answers in
    order, then the default) or a callable taking ``(game, seat, *question)``.
    """

    name = "scripted"

    def __init__(self, **scripts: Any):
        if "trade" in scripts:
            scripts["answer_trade"] = scripts.pop("trade")
        if "lift" in scripts:
            scripts["lift_mortgage"] = scripts.pop("lift")
        unknown = set(scripts) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"no such question: {', '.join(sorted(unknown))}")
        self.scripts: dict[str, Any] = {}
        for key, value in scripts.items():
            self.script(key, value)
        self.asked: list[tuple[str, tuple[Any, ...]]] = []
        self.refusals: list[tuple[Any, str]] = []

    def script(self, question: str, answers: Any) -> None:
        """Replace the script of one question (lists become queues)."""
        if question not in DEFAULTS:
            raise TypeError(f"no such question: {question}")
        if isinstance(answers, (list, tuple, deque)):
            answers = deque(answers)
        self.scripts[question] = answers

    def queue(self, question: str, *answers: Any) -> None:
        """Add answers to the end of a question's queue."""
        current = self.scripts.get(question)
        if not isinstance(current, deque):
            current = deque()
            self.scripts[question] = current
        current.extend(answers)

    def questions(self, question: str) -> list[tuple[Any, ...]]:
        """The arguments of every time this agent was asked ``question``."""
        return [args for name, args in self.asked if name == question]

    def _answer(self, question: str, game: Game, seat: int, *args: Any) -> Any:
        self.asked.append((question, args))
        source = self.scripts.get(question, DEFAULTS[question])
        if isinstance(source, deque):
            return source.popleft() if source else DEFAULTS[question]
        if callable(source) and not isinstance(source, type):
            return source(game, seat, *args)
        return source

    # -- the Agent protocol

    def buy(self, game: Game, seat: int, space: int) -> bool:
        return self._answer("buy", game, seat, space)

    def bid(self, game: Game, seat: int, item: Any, high_bid: int, leader: int | None) -> int:
        return self._answer("bid", game, seat, item, high_bid, leader)

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        return self._answer("jail", game, seat, options)

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        return self._answer("choose", game, seat, options)

    def act(self, game: Game, seat: int) -> Any:
        return self._answer("act", game, seat)

    def between(self, game: Game, seat: int, to_move: int) -> Any:
        return self._answer("between", game, seat, to_move)

    def answer_trade(self, game: Game, seat: int, trade: Any) -> bool:
        return self._answer("answer_trade", game, seat, trade)

    def raise_funds(self, game: Game, seat: int, owed: int) -> Any:
        return self._answer("raise_funds", game, seat, owed)

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        return self._answer("lift_mortgage", game, seat, space)

    def refused(self, game: Game, seat: int, action: Any, reason: str) -> None:
        self.refusals.append((action, reason))


@cache
def ruleset(name: str = "classic", variants: tuple[str, ...] = ()) -> Any:
    """A loaded ruleset (cached: loading is the slow part of a set-up)."""
    return monopoly.load_ruleset(name, list(variants))


class Scenario:
    """A started game with scripted agents and the events seen since the set-up."""

    def __init__(self, game: Game, agents: list[ScriptedAgent], events: list[dict[str, Any]]):
        self.game = game
        self.agents = agents
        self.events = events

    def __iter__(self):  # g, events = setup_game(...)
        return iter((self.game, self.events))


def setup_game(ruleset_name: str = "classic", variants: Iterable[str] = (), seats: int = 2, *,
               agents: list[ScriptedAgent] | None = None, seed: int = 0, max_turns: int | None = None,
               cash: int | list[int] | None = None, clear_deeds: bool = False) -> Scenario:
    """A started game of ``seats`` scripted agents, observed from the end of the set-up.

    ``cash`` sets every seat's cash (one number) or each seat's (a list) after the start.
    ``clear_deeds`` starts without the deal of the deeds (short-game, time-limit deal them at the
    start): the position of ``Setup(..., deal=False)``, for scenarios that need an empty board.
    Unpack as ``game, events = setup_game(...)``; ``.agents`` are the scripted agents.
    """
    rs = ruleset(ruleset_name, tuple(variants))
    if agents is None:
        agents = [ScriptedAgent() for _ in range(seats)]
    events: list[dict[str, Any]] = []
    if clear_deeds:
        start = GameState.new(rs, len(agents), seed=seed, deal=False)
        game = Game.from_state(rs, agents, start, seed=seed, max_turns=max_turns)
        game.observe(events.append)
    else:
        game = Game(rs, agents, seed=seed, max_turns=max_turns)
        game.observe(events.append)
        game.start()
    if cash is not None:
        game.cash[:] = [cash] * len(agents) if isinstance(cash, int) else list(cash)
    events.clear()
    return Scenario(game, agents, events)


# ---------------------------------------------------------------- board and decks

def sp(game: Game, name: str) -> int:
    """The index of the first space called ``name``."""
    return game.ruleset.space(name).index


def spaces(game: Game, name: str) -> list[int]:
    """Every space called ``name`` (Chance, Community Chest)."""
    return [s.index for s in game.ruleset.board if s.name == name]


def card_slot(game: Game, deck: str, text: str) -> int:
    """The slot index (into ``game.tables.decks[deck]``) of the first card whose text starts with ``text``."""
    for slot_index, slot in enumerate(game.tables.decks[deck]):
        if slot.text.startswith(text):
            return slot_index
    raise KeyError(f"no card of {deck} starts with {text!r}")


def card_index(game: Game, deck: str, text: str) -> int:
    """The card index (as held in ``held_cards``) of the card whose text starts with ``text``."""
    return game.tables.decks[deck][card_slot(game, deck, text)].index


def stack_deck(game: Game, deck: str, *texts: str) -> list[int]:
    """Put these cards on top of ``deck`` in this order (the rest keep their order); the new order."""
    top = [card_slot(game, deck, text) for text in texts]
    rest = [s for s in game.decks[deck] if s not in top]
    game.decks[deck] = deque(top + rest)
    return list(game.decks[deck])


def hold_card(game: Game, seat: int, deck: str, text: str) -> tuple[str, int]:
    """Give ``seat`` a Get Out of Jail Free card, taken out of its deck."""
    slot_index = card_slot(game, deck, text)
    game.decks[deck] = deque(s for s in game.decks[deck] if s != slot_index)
    card = (deck, game.tables.decks[deck][slot_index].index)
    game.held_cards[seat].append(card)
    return card


def own(game: Game, seat: int, *names: str) -> list[int]:
    """Give lots (by name) to ``seat`` without payment; their indexes."""
    indexes = [sp(game, name) for name in names]
    for s in indexes:
        game.give(s, seat)
    return indexes


def build(game: Game, levels: dict[str, int]) -> None:
    """Place buildings by hand (level hph+1 is a hotel), keeping the bank's stock consistent."""
    for name, level in levels.items():
        s = sp(game, name)
        houses, hotels = stock_change(game.buildings[s], level, hotel_level=game.tables.hotel_level)
        game.houses_left += houses
        game.hotels_left += hotels
        game.buildings[s] = level


def neutral_turn(game: Game, seat: int, *actions: Any) -> None:
    """Play a quiet turn for ``seat`` (GO to Just Visiting, no salary) with ``actions`` queued
    for its between-turns phase."""
    game.current = seat
    game.position[seat] = max(game.tables.go, 0)
    game.fix_dice([(4, 6)])
    agent = game.agents[seat]
    agent.queue("act", *actions)
    game.play_turn()


# ---------------------------------------------------------------- events

def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def payments(events: list[dict[str, Any]]) -> list[tuple[Any, Any, int, str]]:
    """(from, to, amount, reason) of every payment event."""
    return [(e["from"], e["to"], e["amount"], e["reason"]) for e in events if e["type"] == "payment"]


def rolls(events: list[dict[str, Any]]) -> list[tuple[int, ...]]:
    return [tuple(e["dice"]) for e in events if e["type"] == "roll"]


def refusals(events: list[dict[str, Any]]) -> list[str]:
    return [e["reason"] for e in events if e["type"] == "refused"]


def snapshot(game: Game) -> dict[str, Any]:
    """The whole mutable state, to check that something changed nothing."""
    return {
        "cash": list(game.cash), "position": list(game.position), "jail": list(game.jail_turns),
        "held": [list(h) for h in game.held_cards], "owner": list(game.owner),
        "buildings": list(game.buildings), "mortgaged": list(game.mortgaged),
        "houses_left": game.houses_left, "hotels_left": game.hotels_left, "pot": game.pot,
        "decks": {k: list(v) for k, v in game.decks.items()}, "bankrupt": list(game.bankrupt),
    }

