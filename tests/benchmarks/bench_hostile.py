"""How fast, how big and how much memory `monopoly validate` takes on hostile files inside the size limit.

Usage: python tests/benchmarks/bench_hostile.py [REPEATS]

Each file is checked by a fresh `monopoly validate` process (the figure a person
sees, Python's start-up included); the best of REPEATS is kept for time, the
largest for memory (peak resident size of the child, from the kernel). The
target (docs/security.md): under 1 s, under 100 MB, under 1 MB of output. A cold
`monopoly validate classic` is printed beside them, as the floor.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hostile_files(folder: Path) -> dict[str, Path]:
    texts = {
        "200 KB on one line (99,990 items)": "id: x\nname: X\nboard: [" + ",".join(["0"] * 99_990) + "]\n",
        "80,000 unknown keys (790 KB)": "id: x\nname: X\n" + "".join(f"k{i}: 1\n" for i in range(80_000)),
        "19,990 unknown keys (under the value limit)": "id: x\nname: X\n"
                                                       + "".join(f"k{i}: 1\n" for i in range(19_990)),
        "a 200,000-character key": "id: x\nname: X\nextends: classic\n" + "k" * 200_000 + ": 1\n",
        "199 cards with bad effects": "id: c\nname: C\nextends: classic\ndecks:\n  chance:\n    name: Chance\n"
                                      "    cards:\n" + "".join(f"      - {{text: t{i}, effect: pay pay}}\n"
                                                           for i in range(199)),
        "a 1 MiB comment": "id: x\nname: X\n#" + "x" * (1024 * 1024 - 20) + "\n",
    }
    names = [f"Space{i:03d}-" + "x" * 70 for i in range(198)]
    base = "id: base\nname: Base\nboard:\n  - {name: Go, kind: go}\n  - {name: Jail, kind: jail}\n" + "".join(
        f"  - {{name: '{n}', kind: action}}\n" for n in names)
    (folder / "base.yaml").write_text(base)
    near = "; ".join(f'advance to \"Spaxe{i:03d}{"x" * 60}\"' for i in range(22))
    texts["100 triggers of 22 near-miss names (review)"] = "id: g\nname: G\nextends: base.yaml\ntriggers:\n" + "".join(
        f"  - {{space: Go, on: land, effect: '{near}'}}\n" for _ in range(100))
    texts["40 cards of 2,000-character effects"] = "id: w\nname: W\nextends: classic\ndecks:\n  chance:\n" \
        "    name: Chance\n    cards:\n" + "".join(f"      - {{text: t{i}, effect: 'collect 1{' + 1' * 480}'}}\n"
                                                 for i in range(40))
    paths = {}
    for index, (name, text) in enumerate(texts.items()):
        paths[name] = folder / f"hostile-{index}.yaml"
        paths[name].write_text(text)
    return paths


def measure(command: list[str], repeats: int) -> tuple[float, int, int]:
    """Best wall time, largest peak resident size (KiB) of the process itself, largest output (bytes)."""
    best, peak, output = float("inf"), 0, 0
    for _ in range(repeats):
        with tempfile.TemporaryFile() as out:
            start = time.perf_counter()
            child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
            _, _, usage = os.wait4(child.pid, 0)
            best = min(best, time.perf_counter() - start)
            child.returncode = 0  # reaped by wait4
            peak = max(peak, usage.ru_maxrss)
            output = max(output, out.tell())
    return best, peak, output


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    monopoly = shutil.which("monopoly") or str(Path(sys.executable).with_name("monopoly"))
    print(f"{'file':<46} {'best s':>7} {'peak MB':>8} {'output':>9}")
    with tempfile.TemporaryDirectory() as folder:
        floor = measure([monopoly, "validate", "classic"], repeats)
        print(f"{'classic (the floor)':<46} {floor[0]:7.2f} {floor[1] / 1024:8.1f} {floor[2]:9,}")
        for name, path in hostile_files(Path(folder)).items():
            seconds, peak, output = measure([monopoly, "validate", str(path)], repeats)
            print(f"{name:<46} {seconds:7.2f} {peak / 1024:8.1f} {output:9,}")


if __name__ == "__main__":
    main()
