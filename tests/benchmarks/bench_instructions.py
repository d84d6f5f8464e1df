"""Engine cost in instructions a turn: the repeatable measure on a shared, noisy machine.

Usage: python tests/benchmarks/bench_instructions.py [--bots greedy,trader] [--games N] [--after K]
                                                     [--variant V ...] [--bare PATH] [--cache]

Wall clock on a machine other work shares swings 20-40% between runs; the number of instructions a game
takes does not. For each bot, this counts the instructions (valgrind's lackey tool, ``--basic-counts``) of a
fresh Python playing N seeded games of four such bots on classic (seeds 1..N, max_turns 1000, with the
variants given), minus the same process playing no game (imports, the ruleset load), and divides by the
turns played. ``--bare`` counts ``../shared/bench/bare_loop.py`` (the hard-coded loop, the speed limit for
Python) the same way, for the ratio bot / bare by instructions. Runs under PYTHONHASHSEED=0, with the
compiled modules in a folder of its own (written by a first run, read by both counted ones), so the counts
are the same from run to run, and from one copy of the tree to another, within a few hundred instructions a
turn.

``--cache`` counts with valgrind's cachegrind instead (``--cache-sim=yes --branch-sim=yes``, a model of this
machine's caches): besides the instructions, the first-level instruction and data cache misses and the
mispredicted branches a turn, for the bots and the bare loop. They say why a turn's wall-clock time is not in
proportion to its instructions: a turn that reaches more code and data than the first-level caches hold, or
that branches less predictably, runs fewer instructions a second.

Needs valgrind (``apt-get install valgrind``); without it, says so and exits 2. Each count takes about a
minute (valgrind runs Python some 50 times slower; cachegrind some 100 times).
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The games, in a child process: prints the turns played.
GAMES = """
import sys, monopoly
bot, n, variants = sys.argv[1], int(sys.argv[2]), [v for v in sys.argv[3].split(",") if v]
ruleset = monopoly.load_ruleset("classic", variants)
turns = 0
for seed in range(1, n + 1):
    game = monopoly.Game(ruleset, [monopoly.make_agent(bot) for _ in range(4)], seed=seed, max_turns=1000)
    turns += game.play().turns
print("turns", turns)
"""


#: What each tool counts, as (name, the line of valgrind's summary it is read from).
LACKEY = (("instructions", r"guest instrs:"),)
CACHEGRIND = (("instructions", r"I\s+refs:"), ("I1 misses", r"I1\s+misses:"), ("D1 misses", r"D1\s+misses:"),
              ("branches", r"Branches:"), ("mispredicted", r"Mispredicts:"))


#: The compiled modules of every run, in a folder of this benchmark's own: the first run writes them, and each
#: counted run reads the same ones, whatever the machine's PYTHONDONTWRITEBYTECODE or another process does to
#: the package's __pycache__ folders in between (a run that compiles the package and one that reads it differ
#: by some 50 million instructions, which would land in the difference of the two runs).
PYC = tempfile.mkdtemp(prefix="bench-instructions-pyc-")
atexit.register(shutil.rmtree, PYC, ignore_errors=True)


def environment() -> dict[str, str]:
    """The environment of every run: string hashing fixed, bytecode written to and read from :data:`PYC`."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": PYC}


def count(argv: list[str], cache: bool = False) -> tuple[dict[str, int], str]:
    """The counts of running ``argv`` under valgrind (lackey's instructions; with ``cache``, cachegrind's
    instructions, cache misses and mispredicted branches), and its standard output."""
    env = environment()
    tool = ["--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=/dev/null"] \
        if cache else ["--tool=lackey", "--basic-counts=yes"]
    done = subprocess.run(["valgrind", *tool, *argv], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    counts = {}
    for name, line in CACHEGRIND if cache else LACKEY:
        found = re.search(line + r"\s*([\d,]+)", done.stderr)
        if found is None:
            raise SystemExit(f"no {name} count in valgrind's output:\n{done.stderr[-2000:]}")
        counts[name] = int(found.group(1).replace(",", ""))
    return counts, done.stdout


def _per(full: dict[str, int], base: dict[str, int], turns: int) -> dict[str, int]:
    return {name: (full[name] - base[name]) // max(turns, 1) for name in full}


def per_turn(bot: str, games: int, variants: str, after: int = 0, cache: bool = False) -> tuple[dict[str, int], int]:
    """(counts a turn, turns) of ``games`` games of four ``bot`` bots, less the first ``after`` of them
    (``after`` > 0: what is paid once a process, the ruleset's tables, cancels out: the turn alone)."""
    script = [sys.executable, "-c", GAMES, bot]
    subprocess.run([*script, "1", variants], check=True, capture_output=True, cwd=ROOT,
                   env=environment())  # the .pyc files written, for both counted runs to read
    base, out = count([*script, str(after), variants], cache)
    before = int(out.split()[-1])
    full, out = count([*script, str(games), variants], cache)
    turns = int(out.split()[-1]) - before
    return _per(full, base, turns), turns


def bare(path: Path, games: int, cache: bool = False) -> tuple[dict[str, int], int]:
    """Counts a turn of the bare loop (``games`` games of at most 1000 turns)."""
    subprocess.run([sys.executable, str(path), "0", "1000"], check=True, capture_output=True, cwd=ROOT,
                   env=environment())
    base, _ = count([sys.executable, str(path), "0", "1000"], cache)
    full, out = count([sys.executable, str(path), str(games), "1000"], cache)
    found = re.search(r"turns=(\d+)", out)
    if found is None:
        raise SystemExit(f"the bare loop printed no turns: {out[-500:]!r}")
    turns = int(found.group(1))
    return _per(full, base, turns), turns


def _misses(counts: dict[str, int]) -> str:
    """The cache misses and mispredicted branches of a turn, for --cache."""
    if "I1 misses" not in counts:
        return ""
    return (f"; I1 misses {counts['I1 misses']:,}, D1 misses {counts['D1 misses']:,}, "
            f"mispredicted branches {counts['mispredicted']:,} of {counts['branches']:,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="greedy,trader", help="comma-separated bots (default greedy,trader)")
    parser.add_argument("--games", type=int, default=10, help="games a bot (default 10)")
    parser.add_argument("--variant", action="append", default=[], help="a variant to play with (repeatable)")
    parser.add_argument("--after", type=int, default=0, metavar="K",
                        help="count games K+1..N only (the base plays K games, not none): the turn alone, without "
                             "what a process pays once")
    parser.add_argument("--bare", type=Path, default=ROOT.parent / "shared" / "bench" / "bare_loop.py",
                        help="the bare loop script (default ../shared/bench/bare_loop.py)")
    parser.add_argument("--cache", action="store_true",
                        help="count with cachegrind: the instructions and also the first-level cache misses and "
                             "mispredicted branches a turn")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): no instruction counts", file=sys.stderr)
        return 2
    variants = ",".join(args.variant)
    floor = None
    if args.bare.is_file():
        counts, turns = bare(args.bare, 20, args.cache)
        floor = counts["instructions"]
        print(f"bare loop: {floor:,} instructions a turn ({turns} turns){_misses(counts)}")
    for bot in [b for b in args.bots.split(",") if b]:
        counts, turns = per_turn(bot, args.games, variants, args.after, args.cache)
        cost = counts["instructions"]
        ratio = f", {bot} / bare {floor / cost:.3f}" if floor else ""  # its cost over ours: as turns/s
        games = f"classic games {args.after + 1}..{args.games}" if args.after else f"{args.games} classic games"
        print(f"4 {bot}, {games}{' + ' + variants if variants else ''} ({turns:,} turns): "
              f"{cost:,} instructions a turn{ratio}{_misses(counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
