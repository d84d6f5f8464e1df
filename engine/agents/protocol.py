"""The agents protocol: one JSON object a line between the engine and an agent in another process, in any
language (docs/protocol.md, ``schema/protocol.schema.json``). This module makes and reads the messages;
:mod:`monopoly.agents.process` runs the process.

The engine writes ``hello`` once a game, a ``decision`` for each question the seat is asked, an ``ack`` for
each line the agent writes, and ``end`` when the game is over; the agent writes ``hello`` back and an
``answer`` to each decision. What the agent sees is what a player at the table sees: the position without the
dice generator's state or the order of the decks (``public_state``), and the events of the game without the
seed and the shuffled decks of ``game_start``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..game import actions as act
from ..game.answers import ACTION_NAMES, decode_answer, encode_answer
from ..game.decisions import Bids, Decision, Trades, legal_answers
from ..game.events import to_dict
from .describe import describe

if TYPE_CHECKING:
    from ..game.game import Game
    from ..ruleset.model import Ruleset

#: The protocol's version, in ``hello``: a new version is one an agent of the old one may not understand.
PROTOCOL_VERSION = 1
#: The longest line either side may write, in bytes (the newline included); a longer one is refused unread.
MAX_LINE_BYTES = 1 << 20
#: The views of the position a decision may carry: ``json`` (``state`` and ``events``), ``text`` (``text``,
#: :func:`monopoly.describe`), or both.
VIEWS = ("json", "text", "both")

#: What ``args`` of a decision holds, by kind (the decision's arguments by name).
ARG_NAMES: dict[str, tuple[str, ...]] = {
    "buy": ("space",), "bid": ("item", "high_bid", "leader"), "jail": ("options",), "choose": ("options",),
    "act": (), "between": ("to_move",), "answer_trade": ("trade",), "raise_funds": ("owed",),
    "lift_mortgage": ("space",),
}

#: The fields of a position an agent sees (``game.state()`` less what no player at a table knows).
PUBLIC_FIELDS = ("cash", "position", "jail_turns", "laps", "bankrupt", "bankrupt_order", "owner", "buildings",
                 "mortgaged", "houses_left", "hotels_left", "pot", "turn", "round", "current", "finished",
                 "end_reason", "winner", "last_roll")


def ruleset_hash(ruleset: Ruleset) -> str:
    """``sha256:`` and the hex digest of the resolved ruleset as canonical JSON (``monopoly show --format json``):
    two sides agree on the rules when their hashes do."""
    text = json.dumps(ruleset.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def hello(game: Game, seat: int, timeout: float) -> dict[str, Any]:
    """The first message of a game to the agent of ``seat``."""
    ruleset = game.ruleset
    from ..game.decisions import agent_name

    return {
        "type": "hello", "protocol": PROTOCOL_VERSION, "seat": seat,
        "players": [agent_name(agent) for agent in game.agents],
        "ruleset": {"id": ruleset.id, "variants": list(ruleset.variants), "name": ruleset.name,
                    "hash": ruleset_hash(ruleset), "resolved": ruleset.to_dict()},
        "views": list(VIEWS), "limits": {"line_bytes": MAX_LINE_BYTES, "seconds_per_decision": timeout},
    }


def public_state(game: Game) -> dict[str, Any]:
    """The position as a player at the table sees it: every public field of ``game.state()``, the cards each
    player holds, the number of cards left in each deck (not their order), and the ruleset's variables."""
    data: dict[str, Any] = {}
    for name in PUBLIC_FIELDS:
        value = getattr(game, name)
        data[name] = list(value) if isinstance(value, (list, tuple)) else value
    data["held_cards"] = [[list(card) for card in cards] for cards in game.held_cards]
    data["deck_sizes"] = {key: len(order) for key, order in game.decks.items()}
    if game.variables:
        data["variables"] = dict(zip((name for name, _ in game.ruleset.variables), game.variables, strict=True))
    return data


def public_event(record: tuple[Any, ...]) -> dict[str, Any]:
    """An event as the log writes it, less what no player knows: the seed and the decks' order of ``game_start``."""
    event = to_dict(record)
    if event["type"] == "game_start":
        event.pop("seed", None)
        event.pop("decks", None)
    elif event["type"] == "shuffle":
        event.pop("order", None)  # the cards' new order: nobody at the table sees it
    return event


def arguments(decision: Decision) -> dict[str, Any]:
    """The decision's arguments by name, as JSON (a trade offered as its log form)."""
    names = ARG_NAMES.get(decision.kind, ())
    values = list(decision.args)
    out: dict[str, Any] = {}
    for name, value in zip(names, values, strict=False):
        if name == "trade":
            value = encode_answer(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def legal(game: Game, decision: Decision) -> Any:
    """The legal answers as JSON: a list for yes-or-no, jail and choose; ``{"pass": 0, "min", "max"}`` for a bid
    (no bid above the pass when ``min`` > ``max``); for the actions (``act``, ``between``, ``raise_funds``)
    ``{"done": null, "actions": [...], "trades": [templates]}``, a template being the partner and what may be
    given and asked (every trade of some of those lots and cards, and cash up to the most, moving one lot or
    card at least)."""
    answers = legal_answers(game, decision)
    if isinstance(answers, Bids):
        return {"pass": 0, "min": answers.low, "max": answers.high}
    if decision.kind in ("act", "between", "raise_funds"):
        actions: list[Any] = []
        trades: list[Any] = []
        for answer in answers:
            if answer is None:
                continue
            if isinstance(answer, Trades):
                trades.append({"partner": answer.partner, "give_spaces": list(answer.give_spaces),
                               "give_cash_max": answer.give_cash, "give_cards": [list(c) for c in answer.give_cards],
                               "get_spaces": list(answer.get_spaces), "get_cash_max": answer.get_cash,
                               "get_cards": [list(c) for c in answer.get_cards]})
            else:
                actions.append(action_json(answer))
        return {"done": None, "actions": actions, "trades": trades}
    return list(answers)  # true/false, the jail's options, the indexes of a choice: JSON as they are


def written(answer: Any) -> Any:
    """How the protocol writes an action the engine read from an agent (the log's form, without its check of
    what fits a log: an agent's answer is compared with it)."""
    if type(answer) is act.Trade:
        return {"action": "trade", "proposer": answer.proposer, "partner": answer.partner,
                "give_spaces": list(answer.give_spaces), "give_cash": answer.give_cash,
                "give_cards": [list(card) for card in answer.give_cards], "get_spaces": list(answer.get_spaces),
                "get_cash": answer.get_cash, "get_cards": [list(card) for card in answer.get_cards]}
    return action_json(answer)


def action_json(action: Any) -> dict[str, Any]:
    """One of the engine's own legal actions as the log writes it (without the log's check of what an agent
    made, which these need not)."""
    if type(action) is act.UseCard:
        return {"action": "use_card", "deck": action.deck, "card": action.card}
    return {"action": ACTION_NAMES[type(action)], "space": action.space}


def decision_message(game: Game, decision: Decision, number: int, events: list[dict[str, Any]],
                     view: str) -> dict[str, Any]:
    """The ``decision`` message: its number, kind and arguments, the legal answers, and the view asked for."""
    message: dict[str, Any] = {"type": "decision", "id": number, "seat": decision.seat, "kind": decision.kind,
                               "args": arguments(decision), "legal": legal(game, decision)}
    if view in ("json", "both"):
        message["state"] = public_state(game)
        message["events"] = events
    if view in ("text", "both"):
        message["text"] = describe(game, decision.seat, decision)
    return message


class BadLine(ValueError):
    """A line of the agent's that is not a message the engine takes: ``code`` says what kind of wrong."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def read_message(line: bytes) -> dict[str, Any]:
    """The JSON object of one line the agent wrote; :class:`BadLine` when it is none."""
    if len(line) > MAX_LINE_BYTES:
        raise BadLine("too_long", f"a line of more than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise BadLine("bad_json", "the line is not UTF-8 text") from None
    try:
        message = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise BadLine("bad_json", f"the line is not JSON: {str(exc)[:120]}") from None
    if not isinstance(message, dict):
        raise BadLine("bad_type", "a message is a JSON object")
    try:  # a lone surrogate (an escape JSON allows) is no text: nothing of it may reach a log
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, RecursionError):
        raise BadLine("bad_json", "the line holds a string that is not text (a lone surrogate)") from None
    kind = message.get("type")
    if not isinstance(kind, str):
        raise BadLine("bad_type", "a message has a \"type\" (a string)")
    return message


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON has")


def answer_of(message: Mapping[str, Any], decision: Decision, number: int, options: list[Any] | None) -> Any:
    """The answer an ``answer`` message gives to decision ``number`` (``answer``, in the form the log writes, or
    ``choice``, the 1-based number of one of the text view's ``options``); :class:`BadLine` when it gives none."""
    if message.get("type") != "answer":
        raise BadLine("bad_type", f"expected an answer to decision {number}, got a {str(message['type'])[:40]!r}")
    if message.get("id") != number or type(message.get("id")) is not int:
        raise BadLine("wrong_id", f"the answer is to decision {safe_id(message.get('id'))}; the decision waiting is "
                                  f"{number}")
    if "choice" in message:
        choice = message["choice"]
        if options is None:
            raise BadLine("bad_type", "\"choice\" answers a decision of the text view; give \"answer\"")
        if type(choice) is not int or not 1 <= choice <= len(options):
            raise BadLine("bad_type", f"\"choice\" is a whole number from 1 to {len(options)}")
        return options[choice - 1]
    if "answer" not in message:
        raise BadLine("bad_type", "an answer message has \"answer\" (or \"choice\")")
    given = message["answer"]
    if isinstance(given, dict) and "action" not in given:
        raise BadLine("bad_type", "an action is an object with \"action\" (build, sell, mortgage, unmortgage, "
                                  "sell_lot, use_card or trade)")
    try:
        answer = decode_answer(given) if isinstance(given, dict) else given
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise BadLine("bad_type", f"not an answer the engine reads: {type(exc).__name__}: {str(exc)[:120]}") \
            from None
    if isinstance(given, dict) and written(answer) != given:
        # an answer is read as the protocol writes it, nothing looser (1.9 is no card number, nor "1")
        raise BadLine("bad_type", "the action is not written as the protocol writes actions (docs/protocol.md)")
    return answer


def safe_id(value: Any) -> str:
    return str(value)[:20] if type(value) in (int, str) else type(value).__name__


def is_action(value: Any) -> bool:
    """Whether ``value`` is one of the engine's actions (what the text view names in words)."""
    return type(value) in (act.Build, act.SellBuilding, act.Mortgage, act.Unmortgage, act.SellLot, act.UseCard,
                           act.Trade)
