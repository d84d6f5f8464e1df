"""What acting between turns costs: the same seeded games with every player asked between turns
(``rules.between_turns: every_player``, the printed rules) and with only the mover asked (``mover``), in
one process, alternating, best of R runs each.

Usage: python tests/benchmarks/bench_between.py [--games G] [--repeats R]

Bots, four of a kind on classic (turn cap 1000, seeds 1..G, events unobserved):

- ``quiet``: greedy whose ``between`` is the base Agent's (never acts out of turn; play() answers None for it
  without a call): the engine's own cost of the others' chance to act.
- ``empty``: greedy with a ``between`` of its own that returns None at once: the cost of asking a bot (a call
  a seat a turn).
- ``greedy``: the built-in greedy, which looks for a building before each rival's roll (and builds when it
  has the cash): the games themselves change with ``every_player``.
- ``trader``: the built-in trader (builds like greedy between turns; offers trades only on its own turn).

Ratio = turns/s with every player asked / turns/s with the mover alone.
"""

from __future__ import annotations

import argparse
import time
from typing import Any


def bots() -> dict[str, Any]:
    from monopoly.agents import Agent, GreedyAgent, TraderAgent

    def empty(self: Any, game: Any, seat: int, to_move: int) -> None:
        return None

    return {
        "quiet": type("QuietGreedy", (GreedyAgent,), {"between": Agent.between}),
        "empty": type("EmptyGreedy", (GreedyAgent,), {"between": empty}),
        "greedy": GreedyAgent,
        "trader": TraderAgent,
    }


def rate(ruleset: Any, cls: Any, games: int) -> float:
    """Turns per second of ``games`` seeded games of four ``cls`` bots."""
    import monopoly

    turns = 0
    seconds = 0.0
    for seed in range(1, games + 1):
        start = time.perf_counter()
        turns += monopoly.Game(ruleset, [cls() for _ in range(4)], seed=seed, max_turns=1000).play().turns
        seconds += time.perf_counter() - start
    return turns / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each side, alternating (default 5)")
    args = parser.parse_args()

    import attrs

    import monopoly

    every = monopoly.load_ruleset("classic")
    mover = attrs.evolve(every, rules=attrs.evolve(every.rules, between_turns="mover"))
    print(f"build: {'compiled (mypyc)' if monopoly.compiled() else 'pure Python'}; {args.games} games a run, "
          f"best of {args.repeats}")
    for name, cls in bots().items():
        rate(every, cls, 2)  # warm up
        runs: dict[str, list[float]] = {"every_player": [], "mover": []}
        for _ in range(args.repeats):
            runs["every_player"].append(rate(every, cls, args.games))
            runs["mover"].append(rate(mover, cls, args.games))
        best = {side: max(rates) for side, rates in runs.items()}
        print(f"{name:7}: every_player {best['every_player']:,.0f} turns/s, mover {best['mover']:,.0f} turns/s, "
              f"ratio {best['every_player'] / best['mover']:.3f}")


if __name__ == "__main__":
    main()
