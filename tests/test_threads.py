"""Games played at once in threads of one process are the games played one after another: what the bots find
once an ownership version for every bot of a game (agents/bots.py) is never another game's."""

from __future__ import annotations

import sys
import threading

import monopoly
from monopoly import Game

CLASSIC = monopoly.load_ruleset("classic")


def events_of(seed: int) -> list:
    game = Game(CLASSIC, [monopoly.make_agent("trader") for _ in range(4)], seed=seed, max_turns=300)
    game.play()
    return game.events


def test_trader_games_in_threads_are_the_games_played_alone():
    seeds = list(range(1, 9))
    alone = {seed: events_of(seed) for seed in seeds}
    together: dict[int, list] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can: the interleavings a cache meets
    try:
        threads = [threading.Thread(target=lambda seed=seed: together.__setitem__(seed, events_of(seed)))
                   for seed in seeds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert [seed for seed in seeds if together.get(seed) != alone[seed]] == []
