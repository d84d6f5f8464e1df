"""Event types of the structured log (one JSON object per line; see docs/events.md).

Events are plain dicts built only when somebody observes the game. Seats are
numbers; the bank and the pot are the strings below.
"""

from __future__ import annotations

BANK = -1
POT = -2

#: The version of the rules the engine plays, written in every log's ``game_start`` (``rules``). A log of
#: another version may not replay identically: the rules it was played by are not these. Version 1: the
#: engine before 2026-12-01 (logs without ``rules``); 2: the rule fixes of that day (a hotel sold in a
#: shortage, the engine's fund raising, hopeless debts, the short game's end, income tax chosen before
#: adding up worth, shortage auctions, the tournament rule, mortgaged lots at their mortgage value).
RULES_VERSION = 2

#: How a payer or payee is written in the log.
PARTY_NAMES = {BANK: "bank", POT: "pot"}

EVENT_TYPES = (
    "game_start",  # ruleset, variants, seed, max_turns, players (agent names), rules (version)
    "turn",  # turn number, round, seat
    "roll",  # seat, dice
    "move",  # seat, from, to, passed_go
    "jail",  # seat, action: enter | leave, how (and the card used)
    "buy",  # seat, space, price
    "auction",  # space (or building), winner (seat or null), price, bids
    "card",  # seat, deck, card index, text, kept
    "choice",  # seat, options (effect texts), chosen index
    "payment",  # from, to, amount, reason
    "property",  # space, from, to (ownership changes other than buying: trades, bankruptcy, deals)
    "build",  # seat, space, level (houses; houses_per_hotel + 1 is a hotel)
    "sell",  # seat, space, level after, buildings sold
    "mortgage",  # seat, space
    "unmortgage",  # seat, space
    "trade",  # the accepted offer
    "refused",  # seat, action, reason: an illegal action the engine refused
    "decision",  # seat, kind, answer: a recorded answer of a seat that is not a bot (agents/recorder.py)
    "bankrupt",  # seat, creditor, owed, reason
    "game_end",  # end, winner, turns, rounds, standings with cash, net worth, bankrupt
)


def party(who: int) -> int | str:
    return PARTY_NAMES.get(who, who)
