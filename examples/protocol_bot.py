"""A reference client of the monopoly agents protocol (docs/protocol.md), written without the `monopoly`
package: standard library only, one JSON object a line on standard input and output.

It plays like the built-in greedy bot: buys whatever it is offered, bids up to the printed price, pays its way
out of jail, builds whenever it can (after its own turn and before its rivals' rolls), and leaves debts to the
engine. Run it against the program:

    monopoly simulate classic --players exec:"python examples/protocol_bot.py",greedy --games 50
    monopoly agent-test "python examples/protocol_bot.py" --games 5

A line it cannot read, or an answer the engine refuses, comes back in an `ack` with the reason; this client
only writes legal answers, so it never sees one.
"""

from __future__ import annotations

import json
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def answer(decision: dict, prices: dict[int, int]) -> object:
    """The answer to one decision, from its kind, arguments and legal answers alone."""
    kind, args, legal = decision["kind"], decision["args"], decision["legal"]
    if kind == "buy":
        return True
    if kind == "bid":
        item = args["item"]
        limit = prices.get(item[1], 0) if item[0] == "space" else 0
        return legal["min"] if legal["min"] <= min(limit, legal["max"]) else 0
    if kind == "jail":
        return "card" if "card" in legal else "pay" if "pay" in legal else "roll"
    if kind == "choose":
        return 0
    if kind in ("act", "between"):
        builds = [action for action in legal["actions"] if action["action"] == "build"]
        return builds[0] if builds else None
    if kind == "raise_funds":
        return None  # the engine raises it the cheapest way
    return False  # answer_trade, lift_mortgage


def main() -> None:
    prices: dict[int, int] = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            board = message["ruleset"]["resolved"]["board"]
            prices = {index: space.get("price", 0) for index, space in enumerate(board)}
            send({"type": "hello", "name": "protocol-greedy", "view": "json"})
        elif kind == "decision":
            send({"type": "answer", "id": message["id"], "answer": answer(message, prices)})
        elif kind == "ack" and not message["ok"]:
            print(f"refused: {message['reason']}", file=sys.stderr)
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
