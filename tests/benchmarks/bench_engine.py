"""Engine speed: turns per second against the bare loop, and games per second of `simulate` by jobs.

Usage: python tests/benchmarks/bench_engine.py [--turns N] [--games G] [--repeats R] [--bare PATH]

1. Four `greedy` bots play classic (max_turns 1000 a game, seeds 1, 2, ...) in
   this process with nobody observing events, game after game until at least
   N turns (default 100,000) have been played.
2. `python <shared>/bench/bare_loop.py GAMES 1000` runs in a fresh process with
   GAMES = N / 1000 (rounded up): the hard-coded loop with no rules data, the
   speed limit for Python. Ratio = our turns/s / its turns/s (target >= 0.20,
   aim 0.33).
3. `simulate` plays G games (default 200) with jobs 1 and with jobs 2, best of
   R runs each; ratio = games/s with 2 jobs / games/s with 1 (target >= 1.7).

A turn is one player's turn, doubles re-rolls included.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_BARE = Path(__file__).resolve().parents[3] / "shared" / "bench" / "bare_loop.py"


def engine_turns(target: int, max_turns: int) -> tuple[int, int, float]:
    """(turns, games, seconds) of 4 greedy bots on classic until ``target`` turns."""
    import monopoly

    classic = monopoly.load_ruleset("classic")
    # warm up: tables compiled once per ruleset, first-call costs out of the measurement
    monopoly.Game(classic, [monopoly.make_agent("greedy") for _ in range(4)], seed=0, max_turns=50).play()
    turns = games = 0
    seconds = 0.0
    while turns < target:
        games += 1
        start = time.perf_counter()
        game = monopoly.Game(classic, [monopoly.make_agent("greedy") for _ in range(4)], seed=games,
                             max_turns=max_turns)
        turns += game.play().turns
        seconds += time.perf_counter() - start
    return turns, games, seconds


def bare_turns(bare: Path, games: int, max_turns: int) -> tuple[int, float, str]:
    """(turns, turns per second, command) of the bare loop in a fresh process."""
    command = [sys.executable, str(bare), str(games), str(max_turns)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    turns = re.search(r"\bturns=(\d+)", out)
    rate = re.search(r"\bturns_per_s=([\d.]+)", out)
    if not turns or not rate:
        raise SystemExit(f"cannot read the bare loop's output: {out!r}")
    return int(turns.group(1)), float(rate.group(1)), shlex.join(command)


def simulate_rate(games: int, jobs: int, repeats: int) -> list[float]:
    """Games per second of `simulate` (4 greedy, classic, cap 1000), one figure per run."""
    import monopoly
    from monopoly.sim import simulate

    classic = monopoly.load_ruleset("classic")
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        simulate(classic, ["greedy"] * 4, games, seed=1, jobs=jobs, max_turns=1000)
        rates.append(games / (time.perf_counter() - start))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000, help="turns to play in one process (default 100000)")
    parser.add_argument("--games", type=int, default=200, help="games per simulate run (default 200)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of the engine, the bare loop and simulate per job count; the best of each is kept")
    parser.add_argument("--bare", type=Path, default=DEFAULT_BARE, help=f"bare_loop.py (default {DEFAULT_BARE})")
    args = parser.parse_args()
    if not args.bare.is_file():
        parser.error(f"no bare loop at {args.bare}; give its path with --bare")

    print("command:", shlex.join([sys.executable, *sys.argv]))
    # other work on the machine skews the jobs-2 figure first: show how busy it was
    print(f"cpus={os.cpu_count()} load_average_1min={os.getloadavg()[0]:.2f}")
    max_turns = 1000

    # Engine and bare loop alternate, each best of --repeats: a noisy neighbour slows single runs.
    ours_runs: list[float] = []
    bare_runs: list[float] = []
    for _ in range(args.repeats):
        turns, games, seconds = engine_turns(args.turns, max_turns)
        ours_runs.append(turns / seconds)
        bare_games = math.ceil(turns / max_turns)
        b_turns, bare_rate, bare_command = bare_turns(args.bare, bare_games, max_turns)
        bare_runs.append(bare_rate)
    ours, bare = max(ours_runs), max(bare_runs)
    show_runs = lambda rates: ", ".join(f"{r:.0f}" for r in rates)
    print(f"engine  : 4 greedy on classic, events unobserved: games={games} turns={turns} "
          f"turns_per_s={ours:.0f}  (runs: {show_runs(ours_runs)})")
    print(f"bare    : {bare_command}: games={bare_games} turns={b_turns} turns_per_s={bare:.0f}  "
          f"(runs: {show_runs(bare_runs)})")
    print(f"ratio   : ours / bare = {ours / bare:.3f}, best of {args.repeats} each  (target >= 0.20, aim 0.33)")

    one = simulate_rate(args.games, 1, args.repeats)
    two = simulate_rate(args.games, 2, args.repeats)
    show = lambda rates: ", ".join(f"{r:.1f}" for r in rates)
    print(f"simulate: {args.games} games, 4 greedy, classic, cap {max_turns}, best of {args.repeats}")
    print(f"  jobs 1: games_per_s={max(one):.1f}  (runs: {show(one)})")
    print(f"  jobs 2: games_per_s={max(two):.1f}  (runs: {show(two)})")
    print(f"  ratio jobs 2 / jobs 1 = {max(two) / max(one):.2f}  (target >= 1.7)")


if __name__ == "__main__":
    main()
