"""What the garbage collector costs a game: settings compared game by game in one process.

Usage: python tests/benchmarks/bench_gc.py [--bot greedy] [--games N]

Four bots play classic (seeds 1..N, max_turns 1000) after the loaded heap is frozen. Each seed is played once
in every setting in turn (Python's young threshold of 700, a threshold of 20,000 as
``monopoly.dedicate_process`` sets, and no collection at all), each followed by a full collection outside the
timing, so that on a machine whose speed swings every setting sees the same moments. Prints turns a second
of each and its speed against the default.
"""

from __future__ import annotations

import argparse
import gc
import time

import monopoly
from monopoly.sim import YOUNG_THRESHOLD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="greedy", help="the bot of all four seats (default greedy)")
    parser.add_argument("--games", type=int, default=150, help="seeds to play in every setting (default 150)")
    args = parser.parse_args()
    ruleset = monopoly.load_ruleset("classic")
    monopoly.Game(ruleset, [monopoly.make_agent(args.bot) for _ in range(4)], seed=0, max_turns=50).play()
    gc.freeze()
    default = gc.get_threshold()
    settings = {"young 700": default, f"young {YOUNG_THRESHOLD:,}": (YOUNG_THRESHOLD, *default[1:]), "none": None}
    seconds = dict.fromkeys(settings, 0.0)
    turns = dict.fromkeys(settings, 0)
    for seed in range(1, args.games + 1):
        for name, threshold in settings.items():
            if threshold is None:
                gc.disable()
            else:
                gc.set_threshold(*threshold)
            start = time.perf_counter()
            game = monopoly.Game(ruleset, [monopoly.make_agent(args.bot) for _ in range(4)], seed=seed,
                                 max_turns=1000)
            turns[name] += game.play().turns
            seconds[name] += time.perf_counter() - start
            gc.enable()
            gc.set_threshold(*default)
            gc.collect()
    first = next(iter(settings))
    for name in settings:
        print(f"{args.bot}, collection {name}: {turns[name] / seconds[name]:,.0f} turns/s, "
              f"x{seconds[first] / seconds[name]:.3f}")


if __name__ == "__main__":
    main()
