"""Rules perft and a golden replay: seeded games whose events are checked against files in the repository.

*Rules perft* (after chess's move-path enumeration): for each built-in edition,
and each variant alone on the classic edition, a few seeded games (seeds
``SEEDS``, the bots ``PLAYERS``, ``MAX_TURNS``) are played and their counts of
events per type, payments per reason and money per reason are compared with
``tests/data/perft/<edition>[+<variant>].json``. Any change to how the rules
play shows up as a changed count, per ruleset.

*Golden replay*: the full event log of one short game is stored at
``tests/data/golden/classic-seed-7.jsonl``; the same ruleset, seed and agents
(read from its ``game_start`` line) must replay it event for event. The first
difference is reported with its line number and the keys that differ.

When a change of the rules is intended, regenerate the files and review the diff
(``git diff tests/data``) before committing them::

    python -m tests.test_perft --regenerate             # from the repository root
    MONOPOLY_REGENERATE_GOLDEN=1 pytest tests/test_perft.py

With the environment variable set, the tests write the files instead of
comparing, and are reported as skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import monopoly
from monopoly.game import Game
from monopoly.game.log import EventLog, read_log

DATA = Path(__file__).resolve().parent / "data"
PERFT_DIR = DATA / "perft"
GOLDEN_LOG = DATA / "golden" / "classic-seed-7.jsonl"
REGENERATE_VARIABLE = "MONOPOLY_REGENERATE_GOLDEN"

SEEDS = (1, 2, 3)
PLAYERS = ("greedy", "cautious", "random", "trader")
MAX_TURNS = 300
#: The golden game: ruleset, variants and seed are also in its game_start line; the cap is not.
GOLDEN_GAME: dict[str, Any] = {"ruleset": "classic", "variants": (), "seed": 7, "players": PLAYERS, "max_turns": 60}

HOW_TO_REGENERATE = "If the rules changed on purpose, regenerate: python -m tests.test_perft --regenerate"

Setup = tuple[str, tuple[str, ...]]


def setups() -> list[Setup]:
    """Every built-in edition alone, and every built-in variant alone on the classic edition."""
    builtins = monopoly.builtin_rulesets()
    return ([(b.id, ()) for b in builtins if b.kind == "edition"] +
            [("classic", (b.id,)) for b in builtins if b.kind == "variant"])


def setup_name(setup: Setup) -> str:
    return "+".join((setup[0], *setup[1]))


def perft_path(setup: Setup) -> Path:
    return PERFT_DIR / f"{setup_name(setup)}.json"


def regenerating() -> bool:
    return os.environ.get(REGENERATE_VARIABLE, "") not in ("", "0")


def play_events(ruleset: str, variants: Sequence[str], seed: int, players: Sequence[str],
                max_turns: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    game = Game(monopoly.load_ruleset(ruleset, variants), [monopoly.make_agent(p) for p in players], seed=seed,
                max_turns=max_turns, observers=[events.append])
    game.play()
    return events


# ---------------------------------------------------------------------- perft


def count(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What one game's perft records: the result, and counts per event type and payment reason."""
    kinds = Counter(e["type"] for e in events)
    payments = [e for e in events if e["type"] == "payment"]
    end = next(e for e in reversed(events) if e["type"] == "game_end")
    return {
        "end": end["end"], "winner": end["winner"], "turns": end["turns"], "rounds": end["rounds"],
        "events": dict(sorted(kinds.items())),
        "payments": dict(sorted(Counter(e["reason"] for e in payments).items())),
        "paid": dict(sorted(_sum_by_reason(payments).items())),
    }


def _sum_by_reason(payments: list[dict[str, Any]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for e in payments:
        total[e["reason"]] = total.get(e["reason"], 0) + e["amount"]
    return total


def perft(setup: Setup) -> dict[str, Any]:
    edition, variants = setup
    return {
        "ruleset": edition, "variants": list(variants), "players": list(PLAYERS), "max_turns": MAX_TURNS,
        "runs": {str(seed): count(play_events(edition, variants, seed, PLAYERS, MAX_TURNS)) for seed in SEEDS},
    }


def perft_differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Every difference between two perft records, one line each ('seed 2: events.rent: 120 -> 118')."""
    lines = []
    for key in ("ruleset", "variants", "players", "max_turns"):
        if expected.get(key) != got[key]:
            lines.append(f"{key}: the file has {expected.get(key)!r}, the test plays {got[key]!r}")
    runs = expected.get("runs", {})
    for seed, run in got["runs"].items():
        if seed not in runs:
            lines.append(f"seed {seed}: not in the file")
            continue
        old = runs[seed]
        for key, value in run.items():
            if isinstance(value, dict):
                before = old.get(key, {})
                for name in sorted(set(before) | set(value)):
                    if before.get(name, 0) != value.get(name, 0):
                        lines.append(f"seed {seed}: {key}[{name!r}]: expected {before.get(name, 0)}, "
                                     f"got {value.get(name, 0)}")
            elif old.get(key) != value:
                lines.append(f"seed {seed}: {key}: expected {old.get(key)!r}, got {value!r}")
    return lines


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.mark.parametrize("setup", setups(), ids=setup_name)
def test_rules_perft(setup):
    got = perft(setup)
    path = perft_path(setup)
    if regenerating():
        write_json(path, got)
        pytest.skip(f"regenerated {path}")
    if not path.exists():
        pytest.fail(f"{path} is missing; create it with `python -m tests.test_perft --regenerate`")
    expected = json.loads(path.read_text(encoding="utf-8"))
    differences = perft_differences(expected, got)
    if differences:
        pytest.fail(f"{setup_name(setup)} plays differently from {path.name} ({len(differences)} differences):\n  "
                    + "\n  ".join(differences[:40]) + f"\n{HOW_TO_REGENERATE}", pytrace=False)


def test_no_stale_perft_files():
    wanted = {perft_path(s).name for s in setups()}
    stale = sorted(p.name for p in PERFT_DIR.glob("*.json") if p.name not in wanted)
    assert not stale, f"perft files for no built-in ruleset: {stale}"


# ---------------------------------------------------------------------- golden replay


def record_golden() -> list[dict[str, Any]]:
    g = GOLDEN_GAME
    return play_events(g["ruleset"], g["variants"], g["seed"], g["players"], g["max_turns"])


def first_difference(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> str | None:
    """A readable account of the first event where two logs part, or None when they are equal."""
    for number, (old, new) in enumerate(zip(expected, got, strict=False), 1):
        if old != new:
            keys = sorted(set(old) | set(new), key=lambda k: (k != "type", k))
            changed = ", ".join(f"{k}: {old.get(k, '<missing>')!r} -> {new.get(k, '<missing>')!r}"
                                for k in keys if old.get(k, "<missing>") != new.get(k, "<missing>"))
            first = max(1, number - 3)
            context = "".join(f"\n    {n}: {json.dumps(expected[n - 1])}" for n in range(first, number))
            return (f"line {number} differs ({changed})\n  golden:   {json.dumps(old)}\n"
                    f"  replayed: {json.dumps(new)}" + (f"\n  after the same lines:{context}" if context else ""))
    if len(expected) != len(got):
        shorter = min(len(expected), len(got))
        extra = (expected if len(expected) > len(got) else got)[shorter]
        side = "golden log" if len(expected) > len(got) else "replay"
        return (f"the golden log has {len(expected)} events and the replay {len(got)}; "
                f"line {shorter + 1}, only in the {side}: {json.dumps(extra)}")
    return None


def write_golden(events: list[dict[str, Any]]) -> None:
    GOLDEN_LOG.parent.mkdir(parents=True, exist_ok=True)
    with EventLog(GOLDEN_LOG) as log:
        for event in events:
            log(event)


def test_golden_replay():
    if regenerating():
        write_golden(record_golden())
        pytest.skip(f"regenerated {GOLDEN_LOG}")
    expected = read_log(GOLDEN_LOG)  # validates every line against the schema as well
    start = expected[0]
    assert start["type"] == "game_start"
    assert (start["ruleset"], tuple(start["variants"]), start["seed"]) == \
        (GOLDEN_GAME["ruleset"], GOLDEN_GAME["variants"], GOLDEN_GAME["seed"])
    got = play_events(start["ruleset"], start["variants"], start["seed"], start["players"], GOLDEN_GAME["max_turns"])
    difference = first_difference(expected, got)
    if difference is not None:
        pytest.fail(f"{GOLDEN_LOG.name}: {difference}\n{HOW_TO_REGENERATE}", pytrace=False)


def test_first_difference_names_the_line_and_the_keys():
    events = [{"type": "turn", "turn": 1, "round": 0, "seat": 0},
              {"type": "payment", "from": 0, "to": 1, "amount": 24, "reason": "rent"}]
    assert first_difference(events, events) is None
    changed = [events[0], dict(events[1], amount=28)]
    message = first_difference(events, changed)
    assert message is not None and message.startswith("line 2 differs (amount: 24 -> 28)")
    message = first_difference(events, events[:1])
    assert message is not None and "line 2, only in the golden log" in message


# ---------------------------------------------------------------------- regeneration


def regenerate() -> list[Path]:
    """Write every perft file and the golden log from the engine as it plays now."""
    written = []
    for setup in setups():
        write_json(perft_path(setup), perft(setup))
        written.append(perft_path(setup))
    for stale in PERFT_DIR.glob("*.json"):
        if stale not in written:
            stale.unlink()
    write_golden(record_golden())
    written.append(GOLDEN_LOG)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.test_perft", description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", action="store_true",
                        help="rewrite tests/data/perft/*.json and the golden log from the engine as it plays now")
    args = parser.parse_args(argv)
    if not args.regenerate:
        parser.print_help()
        return 2
    for path in regenerate():
        print(f"wrote {path.relative_to(DATA.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
