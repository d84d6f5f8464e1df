"""How a game ends, who wins, and the result record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from ..effects.host import MAX_GAME_EVENTS
from .decisions import agent_name

if TYPE_CHECKING:
    from .core import Core


@attrs.frozen
class Standing:
    seat: int
    agent: str
    cash: int
    net_worth: int  # the rulebook valuation
    bankrupt: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "cash": self.cash, "net_worth": self.net_worth,
                "bankrupt": self.bankrupt}


@attrs.frozen
class Result:
    """The outcome of a game: ``winner`` is a seat, or None when the turn cap stopped it."""

    seed: int
    winner: int | None
    end: str  # last_standing | bankruptcies | time | turn_limit | event_limit
    turns: int
    rounds: int
    standings: tuple[Standing, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "winner": self.winner, "turns": self.turns, "rounds": self.rounds,
                "end": self.end, "standings": [s.to_json() for s in self.standings]}


def check_end(game: Core, *, time_up: bool = False) -> None:
    """Finish the game if the rules (or the turn cap) say it is over; ``time_up``: the driver's clock ran out
    (the time-limit rules' minutes: the engine keeps no clock of its own)."""
    end = game.rules.end
    gone = len(game.bankrupt_order)
    if gone == 0 and end.when == "last_standing" and game.turn < game.turn_cap and not time_up:
        return  # the common case, decided without looking at anyone
    alive = [s for s in range(game.players) if not game.bankrupt[s]]
    if len(alive) <= 1:
        _finish(game, "last_standing", alive[0] if alive else None)
    elif end.when == "bankruptcies" and len(game.bankrupt_order) >= end.bankruptcies:
        _finish(game, "bankruptcies", richest(game, alive))
    elif end.when == "time" and (game.round >= end.rounds or time_up or game.clock_out):
        _finish(game, "time", richest(game, alive))
    elif game.turn >= game.turn_cap:
        _finish(game, "turn_limit", None)


def out_of_events(game: Core) -> bool:
    """Whether ``game`` has recorded :data:`MAX_GAME_EVENTS` events; if so it is finished here (``event_limit``,
    no winner), once. Looked at as each round begins, at each action between turns, and at each step of an
    effect, trigger and card, where a ruleset's rules can make events without end (a game stops within a
    round's plain turns of the limit: a log has room for them)."""
    if len(game.events) < MAX_GAME_EVENTS:
        return False
    if not game.finished:
        _finish(game, "event_limit", None)
    return True


def richest(game: Core, seats: list[int]) -> int:
    """The seat with the highest valuation; ties go to more cash, then to the earlier seat."""
    return min(seats, key=lambda s: (-valuation(game, s), -game.cash[s], s))


def standings(game: Core, winner: int | None = None) -> tuple[Standing, ...]:
    """Players in order of finish: the winner (``game.winner`` unless given), the others by valuation, then the
    bankrupt, last out first."""
    first = game.winner if winner is None else winner
    worth = [valuation(game, s) for s in range(game.players)]
    cash = game.cash
    alive = [s for s in range(game.players) if not game.bankrupt[s]]
    alive.sort(key=lambda s: (s != first, -worth[s], -cash[s], s))
    order = alive + list(reversed(game.bankrupt_order))
    return tuple(Standing(s, agent_name(game.agents[s]), cash[s], worth[s], game.bankrupt[s]) for s in order)


def _finish(game: Core, reason: str, winner: int | None) -> None:
    from .apply import game_end  # (the writers import the state, which imports this module)

    final = standings(game, winner)
    game_end(game, reason, winner, game.turn, game.round, tuple(s.to_json() for s in final))
    game.final_standings = (len(game.events), final)  # what result_of answers while nothing follows the end


def result_of(game: Core) -> Result:
    final = game.final_standings
    if final is not None and final[0] == len(game.events):
        ranked = final[1]
    else:
        ranked = standings(game)
    return Result(game.seed, game.winner, game.end_reason or "unfinished", game.turn, game.round, ranked)


def valuation(game: Core, p: int) -> int:
    """The rulebook's worth for ending a game: cash, printed price of unmortgaged lots,
    the mortgage value of mortgaged ones, houses at cost, a hotel at cost with its houses."""
    t = game.tables
    owner, buildings, mortgaged, cost_of = game.owner, game.buildings, game.mortgaged, t.building_cost_of
    total = game.cash[p]
    for s in t.ownable:
        if owner[s] == p:
            total += (t.mortgage[s] if mortgaged[s] else t.price[s]) + buildings[s] * cost_of[s]
    return total
