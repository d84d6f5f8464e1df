"""Steps a second of the learning environments with random legal actions (docs/env.md).

Usage: python tests/benchmarks/bench_env.py [--seconds S] [--repeats R] [--players N]

1. ``MonopolyEnv`` (PettingZoo AEC) on classic, N players (default 4): ``env.last()``, an action drawn from the
   mask, ``env.step``; games restarted as they end.
2. ``MonopolySeatEnv`` (Gymnasium), one seat against greedy bots: ``step`` with an action drawn from
   ``action_masks()`` (the bots' decisions in between are in the time).
3. The codec's mask alone, at the decisions of those games.

Best of R runs of S seconds each (defaults 3 and 3).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def legal_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A legal action drawn at random (an index draw: numpy's ``choice`` costs more than a step's work)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def aec_rate(seconds: float, players: int) -> float:
    from monopoly.env import MonopolyEnv

    env = MonopolyEnv(players=players, max_turns=1000)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
            else:
                env.step(legal_action(rng, observation["action_mask"]))
            steps += 1
            if not env.agents:
                env.reset()
    return steps / (time.perf_counter() - start)


def seat_rate(seconds: float, players: int) -> float:
    from monopoly.env import MonopolySeatEnv

    env = MonopolySeatEnv(opponents=("greedy",) * (players - 1), max_turns=1000)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            _, _, terminated, truncated, _ = env.step(legal_action(rng, env.action_masks()))
            steps += 1
            if terminated or truncated:
                env.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    import monopoly

    print(f"build: {'compiled (mypyc)' if monopoly.compiled() else 'pure Python'}; classic, {args.players} players, "
          f"best of {args.repeats} runs of {args.seconds:g} s")
    aec = [aec_rate(args.seconds, args.players) for _ in range(args.repeats)]
    seat = [seat_rate(args.seconds, args.players) for _ in range(args.repeats)]
    print(f"MonopolyEnv (PettingZoo AEC), random legal actions: {max(aec):,.0f} steps/s "
          f"(runs: {', '.join(f'{r:,.0f}' for r in aec)})")
    print(f"MonopolySeatEnv (Gymnasium) against greedy:       {max(seat):,.0f} steps/s "
          f"(runs: {', '.join(f'{r:,.0f}' for r in seat)})")


if __name__ == "__main__":
    main()
