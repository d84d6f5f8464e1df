"""The same games, event for event: a hash of every event of 60 games of each built-in bot on classic.

Usage: python tests/benchmarks/same_games.py [--write FILE] [--check FILE] [--kinds trader,greedy,...]

For each bot kind (``trader``, ``greedy``, ``cautious``, ``random``), four bots of that kind play the classic
ruleset with seeds 1 to 60 and ``max_turns`` 1000 (bench_engine.py's cap), one game after another in this
process. Every event of every game is taken as the log's JSON object (``Game.observe``: the dict an
``EventLog`` writes, docs/events.md), written in one canonical form (``json.dumps`` with sorted keys, no spaces,
UTF-8, no NaN; one line each) and fed to SHA-256: one digest a kind over its 60 games in seed order, and a total
over the four kinds' streams in the order above. Each game's own digest (its first 16 hex digits) is kept too,
so that a difference names the seeds where it lies.

``--write FILE`` writes the figures as JSON; ``--check FILE`` plays the games again and exits 1 naming the kinds
(and seeds) that differ from the file, 2 when the file was made with other settings. The baseline of the code
before issue #31's refactor is tests/data/same_games.json, which tests/test_same_games.py checks.

Games are fixed by their seeds (the dice and each seat's generator come from the seed, the bots decide from
the state), so the figures do not depend on ``PYTHONHASHSEED``, the machine or the build (pure or compiled).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import monopoly

KINDS = ("trader", "greedy", "cautious", "random")
RULESET = "classic"
PLAYERS = 4
SEEDS = range(1, 61)
MAX_TURNS = 1000
#: The settings that make the games; a file made with others cannot be compared.
SETTINGS = {"ruleset": RULESET, "players": PLAYERS, "seeds": [SEEDS[0], SEEDS[-1]], "max_turns": MAX_TURNS}
BASELINE = Path(__file__).resolve().parents[1] / "data" / "same_games.json"


def canonical(event: Mapping[str, Any]) -> bytes:
    """One event as one line of canonical JSON."""
    text = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8") + b"\n"


class _Hasher:
    """An observer that feeds every event of one game, as canonical JSON, to its own digest and to others."""

    def __init__(self, *also: Any):
        self.game = hashlib.sha256()
        self.updates = [self.game.update, *(digest.update for digest in also)]
        self.events = 0

    def __call__(self, event: Mapping[str, Any]) -> None:
        line = canonical(event)
        for update in self.updates:
            update(line)
        self.events += 1


def play_kind(ruleset: Any, kind: str, total: Any = None) -> dict[str, Any]:
    """The games of one bot kind: the digest of all their events, each game's, and their counts. Every event is
    fed to ``total`` too (a hashlib object), when given."""
    digest = hashlib.sha256()
    games: list[str] = []
    events = turns = 0
    for seed in SEEDS:
        hasher = _Hasher(digest, *([total] if total is not None else []))
        game = monopoly.Game(ruleset, [monopoly.make_agent(kind) for _ in range(PLAYERS)], seed=seed,
                             max_turns=MAX_TURNS)
        game.observe(hasher)
        turns += game.play().turns
        events += hasher.events
        games.append(hasher.game.hexdigest()[:16])
    return {"sha256": digest.hexdigest(), "games": len(games), "events": events, "turns": turns,
            "game_sha256": games}


def play_all(kinds: Sequence[str] = KINDS) -> dict[str, Any]:
    """The figures of ``kinds`` (the total only when all four are played)."""
    ruleset = monopoly.load_ruleset(RULESET)
    total = hashlib.sha256()
    figures: dict[str, Any] = {**SETTINGS, "kinds": {}}
    for kind in kinds:
        figures["kinds"][kind] = play_kind(ruleset, kind, total)
    if tuple(kinds) == KINDS:
        figures["total"] = total.hexdigest()
    return figures


def differences(expected: Mapping[str, Any], found: Mapping[str, Any]) -> list[str]:
    """What differs between two sets of figures, one line a kind (empty: the same games)."""
    lines = []
    for kind, figures in found["kinds"].items():
        before = expected["kinds"].get(kind)
        if before is None:
            lines.append(f"{kind}: not in the file")
            continue
        if before["sha256"] == figures["sha256"]:
            continue
        seeds = [seed for seed, old, new in zip(SEEDS, before["game_sha256"], figures["game_sha256"], strict=True)
                 if old != new]
        shown = ", ".join(map(str, seeds[:10])) + (f" and {len(seeds) - 10} more" if len(seeds) > 10 else "")
        lines.append(f"{kind}: differs in {len(seeds)} of {len(SEEDS)} games (seeds {shown}); events "
                     f"{before['events']:,} -> {figures['events']:,}, turns {before['turns']:,} -> "
                     f"{figures['turns']:,}")
    if "total" in found and not lines and found["total"] != expected.get("total"):
        lines.append("total: differs")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the figures as JSON to FILE")
    parser.add_argument("--check", type=Path, metavar="FILE", help="exit 1 when the games differ from FILE's")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"the bot kinds to play (default {','.join(KINDS)})")
    args = parser.parse_args(argv)
    kinds = [kind for kind in args.kinds.split(",") if kind]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown or not kinds:
        parser.error(f"--kinds takes some of {', '.join(KINDS)}")
    if args.write and tuple(kinds) != KINDS:
        parser.error("--write records all four kinds")
    expected = None
    if args.check:
        expected = json.loads(args.check.read_text(encoding="utf-8"))
        settings = {key: expected.get(key) for key in SETTINGS}
        if settings != SETTINGS:
            print(f"{args.check} was made with other settings: {settings}, not {SETTINGS}", file=sys.stderr)
            return 2

    print(f"same games: {RULESET}, {PLAYERS} bots of one kind, seeds {SEEDS[0]}..{SEEDS[-1]}, "
          f"max_turns {MAX_TURNS}; sha256 of every event")
    start = time.perf_counter()
    found = play_all(kinds)
    seconds = time.perf_counter() - start
    for kind, figures in found["kinds"].items():
        print(f"{kind:9} {figures['sha256']}  {figures['games']} games, {figures['turns']:,} turns, "
              f"{figures['events']:,} events")
    if "total" in found:
        print(f"{'total':9} {found['total']}")
    print(f"played in {seconds:.1f} s")

    if args.write:
        args.write.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.write}")
    if expected is not None:
        lines = differences(expected, found)
        for line in lines:
            print(line, file=sys.stderr)
        if lines:
            return 1
        print(f"the same games as {args.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
