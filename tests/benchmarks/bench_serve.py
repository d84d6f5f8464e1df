"""The web table under load (docs/web.md): N tables at once, each one scripted browser-protocol client (a seat
answering over its WebSocket) against bots, on a `monopoly serve` in its own process.

Usage: python tests/benchmarks/bench_serve.py [--tables N] [--turns T] [--port P]

Each client answers every decision with its first numbered answer (`choice: 1`) as soon as it comes. Timed per
decision: the round trip from the client's answer to the server's ack, and from the answer to the next decision
of that seat (the bots' turns in between included). Figures: the median, p90 and p99 of each, over every
decision of every table, and the decisions a second in all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=30) as response:
        return json.loads(response.read())


async def client(base: str, table: dict[str, Any], acks: list[float], nexts: list[float]) -> int:
    import websockets

    token = table["seats"][0]["link"].split("#")[1]
    decisions = 0
    async with websockets.connect(base.replace("http", "ws") + f"/ws/{table['id']}", max_size=None) as socket_:
        await socket_.send(json.dumps({"type": "join", "token": token}))
        sent = 0.0
        while True:
            message = json.loads(await socket_.recv())
            now = time.perf_counter()
            if message["type"] == "ack" and sent:
                acks.append(now - sent)
            elif message["type"] == "decision":
                if sent:
                    nexts.append(now - sent)
                sent = time.perf_counter()
                await socket_.send(json.dumps({"type": "answer", "id": message["id"], "choice": 1}))
                decisions += 1
            elif message["type"] == "end":
                return decisions


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--turns", type=int, default=100, help="turn cap of each table's game (default 100)")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args()
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "monopoly.cli.main", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.build_opener(urllib.request.ProxyHandler({})).open(base + "/api/rulesets", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        tables = [post(base, "/api/tables", {"ruleset": "classic", "seed": seed, "max_turns": args.turns,
                                              "seats": [{"name": "bench"}, {"bot": "greedy"}, {"bot": "greedy"}]})
                  for seed in range(1, args.tables + 1)]
        acks: list[float] = []
        nexts: list[float] = []
        start = time.perf_counter()

        async def everyone() -> list[int]:
            return await asyncio.gather(*(client(base, table, acks, nexts) for table in tables))

        decisions = sum(asyncio.run(everyone()))
        seconds = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{args.tables} tables (one scripted browser-protocol seat and two greedy bots each, {args.turns} turns), "
          f"a server process, cpus={os.cpu_count()}")
    print(f"decisions: {decisions:,} in {seconds:.1f} s ({decisions / seconds:,.0f} a second in all)")
    for label, values in (("answer -> ack", acks), ("answer -> next decision", nexts)):
        print(f"{label:24}: median {1000 * statistics.median(values):.1f} ms, p90 {1000 * percentile(values, 0.9):.1f} "
              f"ms, p99 {1000 * percentile(values, 0.99):.1f} ms")


if __name__ == "__main__":
    main()
