"""Answers as JSON, for logs and saves: an answer written as the log's ``decision`` events and the saves'
pending work write it (:func:`encode_answer`), and read back (:func:`decode_answer`). What cannot be written as
the log's schema takes it is written as safe, bounded text, which is refused again on replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import Build, Mortgage, SellBuilding, SellLot, Trade, Unmortgage, UseCard
from .core import safe_repr
from .decisions import TIME_UP
from .log import event_problem

#: How each action class is written in a recorded answer.
ACTION_NAMES: dict[type, str] = {Build: "build", SellBuilding: "sell", Mortgage: "mortgage", Unmortgage: "unmortgage",
                                 SellLot: "sell_lot"}
_ACTION_CLASSES: dict[str, Any] = {name: cls for cls, name in ACTION_NAMES.items()}
_TRADE_FIELDS = ("proposer", "partner", "give_spaces", "give_cash", "give_cards", "get_spaces", "get_cash",
                 "get_cards")


def encode_answer(answer: Any) -> Any:
    """An agent's answer as JSON: bool, int, str and None as they are; actions and trades as objects.

    >>> encode_answer(Build(3))
    {'action': 'build', 'space': 3}
    >>> encode_answer(Trade(0, 1, give_cash=50, get_spaces=(3,)))["get_spaces"]
    [3]
    """
    if answer is None or isinstance(answer, (bool, str)):
        return answer
    if answer is TIME_UP:
        return {"clock": "time up"}
    if isinstance(answer, int) and _plain(int(answer)):
        return int(answer)
    kind = type(answer)
    try:
        if kind in ACTION_NAMES and _plain(answer.space) and _fits_log({"action": ACTION_NAMES[kind],
                                                                        "space": answer.space}):
            return {"action": ACTION_NAMES[kind], "space": answer.space}
        if kind is UseCard:
            encoded = {"action": "use_card", "deck": answer.deck, "card": answer.card}
            if _plain(encoded) and _fits_log(encoded):
                return encoded
        if kind is Trade:
            encoded = {
                "action": "trade", "proposer": answer.proposer, "partner": answer.partner,
                "give_spaces": list(answer.give_spaces), "give_cash": answer.give_cash,
                "give_cards": [list(card) for card in answer.give_cards],
                "get_spaces": list(answer.get_spaces), "get_cash": answer.get_cash,
                "get_cards": [list(card) for card in answer.get_cards],
            }
            if _plain(encoded) and _fits_log(encoded):
                return encoded
    except Exception:  # a hostile answer's fields may raise on any touch: recorded as text, refused again
        pass
    # not something the engine accepts: written as (safe, bounded) text, it is refused again on replay
    return safe_repr(answer)


def _fits_log(encoded: Any) -> bool:
    """Whether the event log's schema takes ``encoded`` as an answer (else it is written as text, so that
    the program can always read back the logs it writes)."""
    return event_problem({"type": "decision", "seat": 0, "kind": "act", "answer": encoded}) is None


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON a log reader takes back as it was (whole numbers of at most 15 digits)."""
    kind = type(value)
    if kind is int:
        return bool(-10**15 < value < 10**15)
    if kind is str or kind is bool or value is None:
        return True
    if kind is list and depth < 3:
        return all(_plain(item, depth + 1) for item in value)
    if kind is dict and depth < 3:
        return all(type(key) is str and _plain(item, depth + 1) for key, item in value.items())
    return False


def decode_answer(data: Any) -> Any:
    """The answer :func:`encode_answer` wrote, back as the object the agent returned."""
    if not isinstance(data, Mapping):
        return data
    if dict(data) == {"clock": "time up"}:
        return TIME_UP
    name = data.get("action")
    if name == "trade":
        fields = {key: data[key] for key in _TRADE_FIELDS}
        for key in ("give_spaces", "get_spaces"):
            fields[key] = tuple(fields[key])
        for key in ("give_cards", "get_cards"):
            fields[key] = tuple((str(deck), int(index)) for deck, index in fields[key])
        return Trade(**fields)
    if name == "use_card":
        return UseCard(data["deck"], data["card"])
    if name in _ACTION_CLASSES:
        return _ACTION_CLASSES[name](data["space"])
    raise ValueError(f"unknown action {name!r} in a recorded answer")


#: The longest name an agent goes by (logs, standings, tables).
