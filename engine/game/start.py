"""The position a game starts from, set out with nobody seated: what ``GameState.new`` and ``Setup`` start from.

A game's start (:func:`~monopoly.game.turn.set_out`: the decks shuffled, the starting cash paid, the deeds dealt
where the rules deal them, the triggers on the game's start) is run here on a :class:`~monopoly.game.host.Host`
without a driver: no agent is seated, so a start that asks a player something cannot be set out this way (a
:class:`~monopoly.game.core.SetupError` says so; ``Game(ruleset, agents).start()`` asks the agents).
"""

from __future__ import annotations

from typing import Any

import attrs

from ..ruleset.model import Ruleset
from .core import SetupError, Steps
from .host import Host
from .turn import set_out


class _Unseated(Host):
    """A game with nobody seated, which carries out steps that ask nobody anything."""

    def carry_out(self, steps: Steps) -> Any:
        """Carry out ``steps`` at once: a decision asked is a :class:`SetupError` (nobody is seated to answer)."""
        try:
            decision = next(steps)
            while True:
                if decision is not None:
                    raise SetupError(f"the game's start asks seat {decision.seat} to answer {decision.kind}: a "
                                     "start position is set out with nobody seated (start a Game with agents "
                                     "instead: Game(ruleset, agents).start())")
                decision = steps.send(None)
        except StopIteration as stop:
            return stop.value


def started(ruleset: Ruleset, players: Any, seed: int, *, deal: bool = True) -> Host:  # Any: checked here
    """A game of ``players`` seats of ``ruleset`` from ``seed``, set out (``deal=False``: no deeds dealt, whatever
    the rules deal) with nobody seated."""
    if type(players) is not int:
        raise SetupError(f"players={players!r}, not a number of players")
    problem = ruleset.players_problem(players)
    if problem is not None:
        raise SetupError(problem)
    game = _Unseated(ruleset, players, seed, None, ())
    game.agents = [None] * players
    if not deal:  # the start deals as its rules say: this game's rules deal nothing
        game.rules = attrs.evolve(game.rules, deal_deeds=0)
    set_out(game)
    return game
