"""Time of the exact analysis (landing odds for both jail rules + money tables) of a ruleset.

Usage: python tests/benchmarks/bench_analysis.py [NAME_OR_PATH] [REPEATS]
Target (issue 4): classic under 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time

import monopoly
from monopoly.analysis.analyze import analyze


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "classic"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    ruleset = monopoly.load_ruleset(name)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for jail in ("short", "long"):
            analyze(ruleset, jail)
        times.append((time.perf_counter() - start) / 2)
    print(f"analyze {name} (odds + money tables, per jail rule): median {statistics.median(times) * 1000:.1f} ms, "
          f"min {min(times) * 1000:.1f} ms  (target < 1000 ms)")


if __name__ == "__main__":
    main()
