"""Engine speed: turns per second against the bare loop, and games per second of `simulate` by jobs.

Usage: python tests/benchmarks/bench_engine.py [--turns N] [--games G] [--repeats R] [--bare PATH]
                                               [--peer [PATH]] [--split]

1. Four `greedy` bots play classic (max_turns 1000 a game, seeds 1, 2, ...) in
   this process with nobody observing events, game after game until at least
   N turns (default 100,000) have been played. Then four greedy bots that never act between others'
   turns (``quiet``: their ``between`` the base Agent's): what the others' chance to act costs the engine.
2. Four `trader` bots do the same. They trade to complete colour groups, so their
   games are short and full of houses, auctions and debts: a turn costs more.
3. `python <shared>/bench/bare_loop.py GAMES 1000` runs in a fresh process with
   GAMES = N / 1000 (rounded up): the hard-coded loop with no rules data, the
   speed limit for Python. Ratios = our turns/s / its turns/s: greedy (target
   >= 0.30) and trader (target >= 0.18, aim 0.35). The three alternate, best of
   R runs each, so all three figures come from the same stretch of machine time;
   the "paired" lines give the median of each repeat's own ratios (figures taken
   seconds apart), which a lucky moment for one figure does not move.
4. ``--peer``: the peer simulator's trading bots (<shared>/bench/peers/bench_gcp.py,
   run as is, for comparison only) in a fresh process; ratio = trader / peer.
5. ``--split``: the trader games are played again with every answer of the bots
   replayed from a recording: the engine alone. What is left is the bots' share.
6. ``--freeze``: the benchmark's process is set as the `monopoly` command and simulate's workers set theirs
   (``monopoly.dedicate_process()``: the loaded heap set apart from the garbage collector, the young
   generation collected after 20,000 new objects instead of 700); without it, the engine as a library in a
   process that does not.
7. `simulate` plays G games (default 200) with jobs 1 and with jobs 2, best of
   R runs each; ratio = games/s with 2 jobs / games/s with 1 (target >= 1.7).

A turn is one player's turn, doubles re-rolls included. The figures are of the package ``import monopoly``
finds, which the ``build`` line names: the pure-Python package of this tree, or the compiled build installed
with ``MONOPOLY_COMPILE=1 pip install --target DIR .`` and put first with ``PYTHONPATH=DIR`` (docs/performance.md).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_BARE = Path(__file__).resolve().parents[3] / "shared" / "bench" / "bare_loop.py"
DEFAULT_PEER = Path(__file__).resolve().parents[3] / "shared" / "bench" / "peers" / "bench_gcp.py"
#: The agent methods whose answers --split records and replays.
DECISIONS = ("buy", "bid", "jail", "choose", "act", "between", "answer_trade", "raise_funds", "lift_mortgage")


def make_bot(bot: str) -> Any:
    """A bot by name; ``quiet`` is greedy that never acts between others' turns (its ``between`` the base
    Agent's, which play() answers without a call): what the others' chance to act costs the engine alone. On a
    tree from before that chance (no ``Agent.between``) it is plain greedy."""
    import monopoly
    from monopoly.agents import Agent, GreedyAgent

    if bot != "quiet":
        return monopoly.make_agent(bot)
    quiet = getattr(Agent, "between", None)
    cls = type("QuietGreedy", (GreedyAgent,), {"between": quiet} if quiet is not None else {})
    return cls()


def engine_turns(target: int, max_turns: int, bot: str = "greedy") -> tuple[int, int, float]:
    """(turns, games, seconds) of 4 ``bot`` bots on classic until ``target`` turns."""
    import monopoly

    classic = monopoly.load_ruleset("classic")
    # warm up: tables compiled once per ruleset, first-call costs out of the measurement
    monopoly.Game(classic, [make_bot(bot) for _ in range(4)], seed=0, max_turns=50).play()
    turns = games = 0
    seconds = 0.0
    while turns < target:
        games += 1
        start = time.perf_counter()
        game = monopoly.Game(classic, [make_bot(bot) for _ in range(4)], seed=games, max_turns=max_turns)
        turns += game.play().turns
        seconds += time.perf_counter() - start
    return turns, games, seconds


class _Recorder:
    """Stands in front of a bot and keeps its answers, in order, per decision."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = inner.name
        self.answers: dict[str, list[Any]] = {kind: [] for kind in DECISIONS}

    def setup(self, game: Any, seat: int, rng: Any) -> None:
        self.inner.setup(game, seat, rng)

    def __getattr__(self, kind: str) -> Any:
        if kind not in DECISIONS:
            raise AttributeError(kind)
        ask, keep = getattr(self.inner, kind), self.answers[kind].append

        def answer(*args: Any) -> Any:
            value = ask(*args)
            keep(value)
            return value
        return answer


class _Replayer:
    """Gives a recorded bot's answers back, in order, without thinking."""

    def __init__(self, name: str, answers: dict[str, list[Any]]):
        self.name = name
        for kind in DECISIONS:
            next_answer = iter(answers[kind]).__next__
            setattr(self, kind, lambda *args, next_answer=next_answer: next_answer())

    def setup(self, game: Any, seat: int, rng: Any) -> None:
        pass


def engine_alone(games: int, max_turns: int, bot: str) -> tuple[int, float, float]:
    """(turns, seconds with the bots, seconds with their answers replayed) of the first ``games`` games."""
    import monopoly

    classic = monopoly.load_ruleset("classic")
    turns = 0
    with_bots = replayed = 0.0
    for seed in range(1, games + 1):
        start = time.perf_counter()
        monopoly.Game(classic, [monopoly.make_agent(bot) for _ in range(4)], seed=seed, max_turns=max_turns).play()
        with_bots += time.perf_counter() - start
        recorders = [_Recorder(monopoly.make_agent(bot)) for _ in range(4)]
        turns += monopoly.Game(classic, recorders, seed=seed, max_turns=max_turns).play().turns
        replayers = [_Replayer(r.name, r.answers) for r in recorders]
        start = time.perf_counter()
        monopoly.Game(classic, replayers, seed=seed, max_turns=max_turns).play()
        replayed += time.perf_counter() - start
    return turns, with_bots, replayed


def peer_turns(peer: Path, games: int) -> tuple[float, str]:
    """(turns per second, command) of the peer simulator's trading bots in a fresh process."""
    command = [sys.executable, str(peer), str(games)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rate = re.search(r"\bturns_per_s=([\d.]+)", out)
    if not rate:
        raise SystemExit(f"cannot read the peer's output: {out!r}")
    return float(rate.group(1)), shlex.join(command)


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
    parser.add_argument("--peer", type=Path, nargs="?", const=DEFAULT_PEER, default=None,
                        help=f"also time the peer simulator's trading bots (default path {DEFAULT_PEER})")
    parser.add_argument("--peer-games", type=int, default=300, help="games of the peer per run (default 300)")
    parser.add_argument("--freeze", action="store_true",
                        help="set the process's garbage collector as the monopoly command does "
                             "(monopoly.dedicate_process: the loaded heap frozen, young collections less often)")
    parser.add_argument("--split", action="store_true",
                        help="also time the trader games with the bots' answers replayed (the engine alone)")
    args = parser.parse_args()
    if not args.bare.is_file():
        parser.error(f"no bare loop at {args.bare}; give its path with --bare")
    if args.peer is not None and not args.peer.is_file():
        parser.error(f"no peer benchmark at {args.peer}")

    print("command:", shlex.join([sys.executable, *sys.argv]))
    # other work on the machine skews the jobs-2 figure first: show how busy it was
    print(f"cpus={os.cpu_count()} load_average_1min={os.getloadavg()[0]:.2f}")
    import monopoly as package

    print(f"build   : {'compiled (mypyc)' if package.compiled() else 'pure Python'}, {Path(package.__file__).parent}")
    max_turns = 1000
    if args.freeze:
        import monopoly

        monopoly.load_ruleset("classic")
        monopoly.dedicate_process()
        print("heap    : frozen after loading, young collections after 20,000 objects (monopoly.dedicate_process), "
              "as the monopoly command runs")

    # Greedy, trader, bare loop (and peer) alternate, each best of --repeats: a noisy neighbour slows
    # single runs, and every ratio compares figures taken in the same stretch of time.
    ours_runs: list[float] = []
    quiet_runs: list[float] = []
    trader_runs: list[float] = []
    bare_runs: list[float] = []
    peer_runs: list[float] = []
    peer_command = ""
    for _ in range(args.repeats):
        turns, games, seconds = engine_turns(args.turns, max_turns)
        ours_runs.append(turns / seconds)
        q_turns, q_games, q_seconds = engine_turns(args.turns, max_turns, "quiet")
        quiet_runs.append(q_turns / q_seconds)
        t_turns, t_games, t_seconds = engine_turns(args.turns, max_turns, "trader")
        trader_runs.append(t_turns / t_seconds)
        bare_games = math.ceil(turns / max_turns)
        b_turns, bare_rate, bare_command = bare_turns(args.bare, bare_games, max_turns)
        bare_runs.append(bare_rate)
        if args.peer is not None:
            peer_rate, peer_command = peer_turns(args.peer, args.peer_games)
            peer_runs.append(peer_rate)
    ours, trader, bare = max(ours_runs), max(trader_runs), max(bare_runs)
    show_runs = lambda rates: ", ".join(f"{r:.0f}" for r in rates)
    print(f"engine  : 4 greedy on classic, events unobserved: games={games} turns={turns} "
          f"turns_per_s={ours:.0f}  (runs: {show_runs(ours_runs)})")
    print(f"quiet   : 4 greedy that never act out of turn: games={q_games} turns={q_turns} "
          f"turns_per_s={max(quiet_runs):.0f}  (runs: {show_runs(quiet_runs)})")
    print(f"trader  : 4 trader on classic, events unobserved: games={t_games} turns={t_turns} "
          f"turns_per_s={trader:.0f}  (runs: {show_runs(trader_runs)})")
    print(f"bare    : {bare_command}: games={bare_games} turns={b_turns} turns_per_s={bare:.0f}  "
          f"(runs: {show_runs(bare_runs)})")
    if peer_runs:
        print(f"peer    : {peer_command}: turns_per_s={max(peer_runs):.0f}  (runs: {show_runs(peer_runs)})")
    print(f"ratio   : greedy / bare = {ours / bare:.3f}  (target >= 0.30)")
    print(f"ratio   : quiet / bare = {max(quiet_runs) / bare:.3f}")
    print(f"ratio   : trader / bare = {trader / bare:.3f}  (target >= 0.18, aim 0.35)")
    if peer_runs:
        print(f"ratio   : trader / peer = {trader / max(peer_runs):.2f}")
    print(f"          best of {args.repeats} each")
    # Each repeat's own ratios (its figures taken seconds apart): on a machine whose speed swings between runs,
    # the best of each figure may come from different moments; the median of the paired ratios does not.
    paired = lambda ours_rates, theirs: sorted(a / b for a, b in zip(ours_rates, theirs, strict=True))
    pairs = [("greedy / bare", paired(ours_runs, bare_runs)), ("quiet / bare", paired(quiet_runs, bare_runs)),
             ("trader / bare", paired(trader_runs, bare_runs))]
    if peer_runs:
        pairs.append(("trader / peer", paired(trader_runs, peer_runs)))
    for label, ratios in pairs:
        print(f"paired  : {label} = {statistics.median(ratios):.3f} median of the repeats' own ratios "
              f"(from {ratios[0]:.3f} to {ratios[-1]:.3f})")
    if args.split:
        split_games = min(t_games, 300)
        s_turns, with_bots, replayed = engine_alone(split_games, max_turns, "trader")
        print(f"split   : the first {split_games} trader games ({s_turns} turns): with the bots "
              f"{1e6 * with_bots / s_turns:.2f} us/turn, answers replayed (the engine alone) "
              f"{1e6 * replayed / s_turns:.2f} us/turn, so the bots {1e6 * (with_bots - replayed) / s_turns:.2f} "
              f"us/turn; engine alone / bare = {s_turns / replayed / bare:.3f}")

    one = simulate_rate(args.games, 1, args.repeats)
    two = simulate_rate(args.games, 2, args.repeats)
    show = lambda rates: ", ".join(f"{r:.1f}" for r in rates)
    print(f"simulate: {args.games} games, 4 greedy, classic, cap {max_turns}, best of {args.repeats}")
    print(f"  jobs 1: games_per_s={max(one):.1f}  (runs: {show(one)})")
    print(f"  jobs 2: games_per_s={max(two):.1f}  (runs: {show(two)})")
    print(f"  ratio jobs 2 / jobs 1 = {max(two) / max(one):.2f}  (target >= 1.7)")


if __name__ == "__main__":
    main()
