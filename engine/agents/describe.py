"""The position and a decision in compact plain text, for agents that read text (a language model behind the
agents protocol's ``"view": "text"``): who has what, where everyone stands, and the legal answers numbered.

>>> import monopoly
>>> game = monopoly.Game(monopoly.load_ruleset("classic"), players=2, seed=1)
>>> game.fix_dice([(1, 2)])
>>> print(monopoly.describe(game, 0))  # doctest: +ELLIPSIS
Monopoly (US, classic), turn 1, round 1. You are seat 0.
Seat 0 (you): $1,500, on Baltic Avenue.
Seat 1: $1,500, on GO.
Nothing is owned yet.
Bank: 32 houses, 12 hotels.
Decision: buy Baltic Avenue (street, brown) for $60? Printed rents: 4, 20, 60, 180, 320, 450.
Answers:
  1. yes
  2. no
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..game import actions as act
from ..game.decisions import Bids, Decision, Trades, legal_answers

if TYPE_CHECKING:
    from ..game.game import Game


def describe(game: Game, seat: int, decision: Decision | None = None) -> str:
    """The position as ``seat`` sees it and, when ``decision`` (by default the game's pending one) is that seat's,
    what it asks with its answers numbered from 1 (the protocol's ``choice``). Reading it changes nothing."""
    if decision is None:
        decision = game.pending
    t = game.tables
    ruleset = game.ruleset
    money = _money(ruleset.currency)
    lines = [f"{ruleset.name}, turn {max(game.turn, 1)}, round {game.round + 1}. You are seat {seat}."]
    for other in range(game.players):
        who = f"Seat {other}{' (you)' if other == seat else ''}"
        if game.bankrupt[other]:
            lines.append(f"{who}: bankrupt.")
            continue
        where = ruleset.board[game.position[other]].name
        jail = f", in jail ({game.jail_turns[other]} tries failed)" if game.jail_turns[other] >= 0 else ""
        cards = f", holds {len(game.held_cards[other])} card(s)" if game.held_cards[other] else ""
        lines.append(f"{who}: {money(game.cash[other])}, on {where}{jail}{cards}.")
    owned = False
    for group in ruleset.groups:
        members = [s for s in group.members if game.ruleset.board[s].ownable]
        held = [s for s in members if game.owner[s] >= 0]
        if not held:
            continue
        owned = True
        parts = []
        for s in members:
            owner = game.owner[s]
            if owner < 0:
                parts.append(f"{t.names[s]} (bank)")
                continue
            notes = [f"seat {owner}"]
            if game.buildings[s]:
                level = game.buildings[s]
                notes.append("a hotel" if level > t.hph else f"{level} house{'s' if level > 1 else ''}")
            if game.mortgaged[s]:
                notes.append("mortgaged")
            parts.append(f"{t.names[s]} ({', '.join(notes)})")
        lines.append(f"{group.name}: {'; '.join(parts)}.")
    loose = [s for s in t.ownable if t.group_of[s] < 0 and game.owner[s] >= 0]
    for s in loose:
        owned = True
        lines.append(f"{t.names[s]}: seat {game.owner[s]}{', mortgaged' if game.mortgaged[s] else ''}.")
    if not owned:
        lines.append("Nothing is owned yet.")
    pot = f"; pot {money(game.pot)}" if game.pot else ""
    lines.append(f"Bank: {game.houses_left} houses, {game.hotels_left} hotels{pot}.")
    if decision is not None and decision.seat == seat:
        lines.extend(_decision_lines(game, decision, money))
    return "\n".join(lines)


def _money(currency: str) -> Any:
    return lambda amount: f"{'-' if amount < 0 else ''}{currency}{abs(amount):,}"


def _decision_lines(game: Game, decision: Decision, money: Any) -> list[str]:
    t = game.tables
    kind, args = decision.kind, decision.args
    lines: list[str]
    if kind == "buy":
        s = args[0]
        lines = [f"Decision: buy {_lot(game, s)} for {money(t.price[s])}?{_rent(game, s)}"]
    elif kind == "bid":
        item, high, leader = args
        what = _lot(game, item[1]) if item[0] == "space" else f"the bank's next {item[0]}"
        lead = f" by seat {leader}" if leader is not None else ""
        bids = legal_answers(game, decision)
        assert isinstance(bids, Bids)
        lines = [f"Decision: an auction of {what}. The high bid is {money(high)}{lead}. Bid a whole number from "
                 f"{bids.low} to {bids.high} (your cash), or 0 to drop out."]
    elif kind == "jail":
        lines = [f"Decision: you are in jail ({game.jail_turns[decision.seat]} tries failed). The fine is "
                 f"{money(game.rules.jail.fine)}."]
    elif kind == "choose":
        lines = ["Decision: choose one of the alternatives."]
    elif kind in ("act", "between"):
        when = "after your turn" if kind == "act" else \
            "before your turn" if args[0] == decision.seat else f"before seat {args[0]}'s turn"
        lines = [f"Decision: {when} you may build, sell, mortgage, lift a mortgage or offer a trade, one at a time; "
                 "answer 1 when done."]
    elif kind == "answer_trade":
        trade = args[0]
        lines = [f"Decision: seat {trade.proposer} offers you {_side(game, trade.give_spaces, trade.give_cash, money)}"
                 f" for {_side(game, trade.get_spaces, trade.get_cash, money)}. Accept?"]
    elif kind == "raise_funds":
        lines = [f"Decision: you owe {money(args[0])} and have {money(game.cash[decision.seat])}: sell or mortgage "
                 "(answer 1 to let the bank raise it the cheapest way)."]
    else:  # lift_mortgage
        s = args[0]
        lines = [f"Decision: {t.names[s]} came to you mortgaged. Lift the mortgage now "
                 f"({money(game.unmortgage_cost(s))})? Otherwise you pay the interest now."]
    lines.append("Answers:")
    for number, answer in enumerate(options(game, decision), 1):
        lines.append(f"  {number}. {_answer_words(game, decision, answer, money)}")
    trades = [a for a in legal_answers(game, decision) if isinstance(a, Trades)] if kind in ("act", "between") else []
    if trades:
        partners = ", ".join(f"seat {trade.partner}" for trade in trades)
        lines.append(f"  or a trade offer to {partners} (a JSON answer: see docs/protocol.md).")
    return lines


def _lot(game: Game, s: int) -> str:
    t = game.tables
    group = t.group_keys[t.group_of[s]] if t.group_of[s] >= 0 else None
    kind = game.ruleset.board[s].kind
    return f"{t.names[s]} ({kind}{', ' + group if group else ''})"


def _rent(game: Game, s: int) -> str:
    rents = game.ruleset.board[s].rent
    return f" Printed rents: {', '.join(map(str, rents))}." if rents else ""


def _side(game: Game, spaces: tuple[int, ...], cash: int, money: Any) -> str:
    parts = [game.tables.names[s] for s in spaces]
    if cash:
        parts.append(money(cash))
    return ", ".join(parts) if parts else "nothing"


def _answer_words(game: Game, decision: Decision, answer: Any, money: Any) -> str:
    t = game.tables
    kind = decision.kind
    if kind in ("buy", "answer_trade", "lift_mortgage"):
        return "yes" if answer else "no"
    if kind == "bid":
        return "drop out (0)" if answer == 0 else f"bid {answer}"
    if kind == "jail":
        return {"roll": "roll for doubles", "pay": f"pay the {money(game.rules.jail.fine)} fine",
                "card": "use a Get Out of Jail card"}.get(answer, str(answer))
    if kind == "choose":
        return str(decision.args[0][answer])
    if answer is None:
        return "done" if kind != "raise_funds" else "let the bank raise it"
    kind_of = type(answer)
    if kind_of is act.UseCard:
        return f"use the card {answer.deck} {answer.card}"
    s = answer.space
    if kind_of is act.Build:
        level = game.buildings[s] + 1
        return f"build {'a hotel' if level > t.hph else 'a house'} on {t.names[s]} " \
               f"({money(t.house_cost[t.group_of[s]])})"
    if kind_of is act.SellBuilding:
        return f"sell a building on {t.names[s]}"
    if kind_of is act.Mortgage:
        return f"mortgage {t.names[s]} (+{money(t.mortgage[s])})"
    if kind_of is act.SellLot:
        return f"sell {t.names[s]} to the bank (+{money(game.lot_sale_value(s))})"
    return f"lift the mortgage on {t.names[s]} ({money(game.unmortgage_cost(s))})"


def options(game: Game, decision: Decision) -> list[Any]:
    """The answers the text view numbers (its ``choice``): every legal answer of a finite kind; for a bid, the
    pass and a few bids (the least, +10, +50, and 25/50/100% of the printed price, within the cash); for the
    actions, done first then each action (trades are answered with ``answer``)."""
    answers = legal_answers(game, decision)
    if isinstance(answers, Bids):
        found = [0]
        low, high = answers.low, answers.high
        if low <= high:
            price = 0
            item = decision.args[0]
            if item[0] == "space":
                price = game.tables.price[item[1]]
            for bid in (low, low + 9, low + 49, price // 4, price // 2, price):
                if low <= bid <= high and bid not in found:
                    found.append(bid)
        return found
    return [answer for answer in answers if not isinstance(answer, Trades)]
