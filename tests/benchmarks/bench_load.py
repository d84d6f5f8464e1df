"""Ruleset load times: warm in-process, and a cold `monopoly validate` process.

Usage: python tests/benchmarks/bench_load.py [REPEATS]

Targets (issue 2): classic with every variant that combines with the others,
loaded and validated in-process, under 50 ms warm; `monopoly validate
rulesets/classic.yaml` as a fresh process under 0.5 s. The bare Python start-up
time is printed beside the cold figure, since it is part of it.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ["short-game", "income-tax-2008", "free-parking-jackpot", "tournament"]


def warm(repeats: int) -> list[float]:
    from monopoly import load_ruleset

    load_ruleset("classic", VARIANTS)  # builds the schema validator and the effect parser once
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        load_ruleset("classic", VARIANTS)
        times.append(time.perf_counter() - start)
    return times


def cold(command: list[str], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    monopoly = shutil.which("monopoly") or os.path.join(os.path.dirname(sys.executable), "monopoly")
    warm_times = warm(repeats)
    cold_times = cold([monopoly, "validate", "rulesets/classic.yaml"], max(5, repeats // 4))
    bare = cold([sys.executable, "-c", "pass"], max(5, repeats // 4))
    ms = lambda values: f"median {statistics.median(values) * 1000:.1f} ms, min {min(values) * 1000:.1f} ms"
    print(f"warm load classic + {len(VARIANTS)} variants: {ms(warm_times)}  (target < 50 ms)")
    print(f"cold `monopoly validate rulesets/classic.yaml`: {ms(cold_times)}  (target < 500 ms)")
    print(f"cold bare `python -c pass`: {ms(bare)}")


if __name__ == "__main__":
    main()
