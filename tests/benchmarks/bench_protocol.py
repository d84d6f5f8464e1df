"""Decisions a second over the agents protocol (docs/protocol.md): an agent in another process answering over
its standard input and output, against the same bot answering in process.

Usage: python tests/benchmarks/bench_protocol.py [--games G] [--repeats R] [--view json|text|both]

1. ``examples/protocol_bot.py`` (the reference client, plain Python, no monopoly) in seat 0 of classic games
   against three greedy bots (seeds 1..G, turn cap 300): decisions the client answered per second of the game,
   the engine's side included (building each message, checking each answer), and the client's; the start of
   the process and its hello (once a game) are not timed.
2. The same games with the client's own code answering the same JSON lines in this process (``client here``:
   the protocol's messages without the pipe and the second process).
3. The same games with seat 0 played in process by a bot that answers as the client does (``Mirror``): the
   seconds the protocol adds to a decision are the difference.

Best of R runs each, alternating.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "examples" / "protocol_bot.py"


def mirror() -> Any:
    """A bot answering in process as the reference client answers (its policy, from the engine's objects)."""
    from monopoly import Agent, Build

    class Mirror(Agent):
        name = "mirror"

        def bid(self, game: Any, seat: int, item: Any, high_bid: int, leader: Any) -> int:
            limit = game.tables.price[item[1]] if item[0] == "space" else 0
            low = high_bid + 1
            return low if low <= min(limit, game.cash[seat]) else 0

        def jail(self, game: Any, seat: int, options: Any) -> str:
            return "card" if "card" in options else "pay" if "pay" in options else "roll"

        def act(self, game: Any, seat: int) -> Any:
            builds = [a for a in game.legal_actions(seat) if type(a) is Build]
            return builds[0] if builds else None

        def between(self, game: Any, seat: int, to_move: int) -> Any:
            return self.act(game, seat)

    return Mirror()


def client_in_process() -> Any:
    """The reference client's own code answering the same JSON lines in this process (no pipe, no second
    process): what the protocol costs beside the process boundary."""
    import importlib.util
    import json

    from monopoly import ProcessAgent

    spec = importlib.util.spec_from_file_location("protocol_bot", CLIENT)
    assert spec is not None and spec.loader is not None
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)

    class InProcess(ProcessAgent):
        """A ProcessAgent whose lines go to the client's functions instead of a pipe."""

        def setup(self, game: Any, seat: int, rng: Any) -> None:
            self._replies: list[bytes] = []
            self._prices: dict[int, int] = {}
            self._process = True  # type: ignore[assignment]  # no process: the lines are answered here
            self._number = 0
            self._seen = 0
            self.view = self.view or "json"
            self._write(seat, "hello", (json.dumps(__import__("monopoly").agents.protocol.hello(
                game, seat, self.timeout)) + "\n").encode())
            self._line(seat, "hello", 0.0)

        def _write(self, seat: int, kind: str, data: bytes) -> None:
            message = json.loads(data)
            if message["type"] == "hello":
                board = message["ruleset"]["resolved"]["board"]
                self._prices = {i: space.get("price", 0) for i, space in enumerate(board)}
                self._replies.append(json.dumps({"type": "hello", "name": "in-process"}).encode())
            elif message["type"] == "decision":
                answer = client.answer(message, self._prices)
                self._replies.append(json.dumps({"type": "answer", "id": message["id"],
                                                 "answer": answer}).encode())

        def _line(self, seat: int, kind: str, deadline: float) -> bytes:
            return self._replies.pop(0)

        def close(self) -> None:
            self._process = None

    return InProcess(["in-process"])


def run(games: int, seat_zero: Any) -> tuple[int, float]:
    """(decisions of seat 0, seconds) of ``games`` games."""
    import monopoly

    classic = monopoly.load_ruleset("classic")
    decisions = 0
    seconds = 0.0
    for seed in range(1, games + 1):
        agent = seat_zero()
        counted = _Counting(agent)
        game = monopoly.Game(classic, [counted] + [monopoly.make_agent("greedy") for _ in range(3)], seed=seed,
                             max_turns=300)  # the process started and greeted: not timed
        start = time.perf_counter()
        game.play()
        seconds += time.perf_counter() - start
        agent.close()
        decisions += counted.count
    return decisions, seconds


class _Counting:
    """Counts the decisions its agent answers (a wrapper the engine asks like any agent)."""

    def __init__(self, inner: Any):
        from monopoly.agents.base import Wrapper

        self.count = 0
        self.inner = inner
        self.name = inner.name
        self._wrapper = Wrapper(inner)

    def setup(self, game: Any, seat: int, rng: Any) -> None:
        self.inner.setup(game, seat, rng)

    def __getattr__(self, kind: str) -> Any:
        ask = getattr(self.inner, kind)

        def answer(*args: Any) -> Any:
            self.count += 1
            return ask(*args)
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games a run (default 10)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side, alternating (default 3)")
    parser.add_argument("--view", choices=["json", "text", "both"], default=None,
                        help="the view the decisions carry (default: what the client asks, json)")
    args = parser.parse_args()
    import monopoly

    command = shlex.join([sys.executable, str(CLIENT)])
    print(f"build: {'compiled (mypyc)' if monopoly.compiled() else 'pure Python'}; client: {command}; "
          f"{args.games} games a run, best of {args.repeats}")
    rates: dict[str, list[float]] = {"protocol": [], "client here": [], "in process": []}
    per_decision: dict[str, list[float]] = {"protocol": [], "client here": [], "in process": []}
    for _ in range(args.repeats):
        for side, make in (("protocol", lambda: monopoly.ProcessAgent(command, view=args.view)),
                           ("client here", client_in_process), ("in process", mirror)):
            decisions, seconds = run(args.games, make)
            rates[side].append(decisions / seconds)
            per_decision[side].append(seconds / decisions)
    for side in rates:
        print(f"{side:10}: {max(rates[side]):,.0f} decisions of seat 0 a second of the game "
              f"({1e6 * min(per_decision[side]):.1f} us a decision, the game's other seats included)")
    ratio = min(per_decision["protocol"]) / min(per_decision["in process"])
    print(f"protocol / in process, time a decision: {ratio:.1f}x")
    here = min(per_decision["protocol"]) / min(per_decision["client here"])
    print(f"protocol / the same client answering the same JSON lines in this process: {here:.1f}x")


if __name__ == "__main__":
    main()
