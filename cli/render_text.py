"""Text views of a game: events told in words, a compact board, a player's holdings.

``monopoly play`` and ``monopoly replay`` print the same :class:`Narrator`
lines: it reads the event stream only, applying each event to a
:class:`monopoly.Replay` (the engine's one replayer), so a log file read back
tells the game exactly as it was told while it was played. The board and
holdings views read any object with the game's state lists (a ``Game`` or a
``Replay``). Nothing here decides anything: it only describes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import click

from monopoly import Replay, Ruleset

Event = Mapping[str, Any]

#: Agent names of people at the table: ``human`` or ``human:Name``.
HUMAN = "human"

#: Payments that the event right after them tells (with the amount).
_TOLD_BY_NEXT = frozenset({"buy", "build", "sell building", "mortgage", "unmortgage", "deed"})
#: Payments already told by the event before them.
_TOLD_BY_PREVIOUS = frozenset({"auction", "building auction", "trade"})

_ENDS = {
    "last_standing": "one player is left",
    "bankruptcies": "the bankruptcy that ends a short game",
    "time": "time is up",
    "turn_limit": "the turn limit",
    "event_limit": "the most events a game records (its rules made too many)",
}

_IRREGULAR = {"is": "are", "has": "have", "goes": "go", "passes": "pass", "does": "do"}


def is_human(name: str) -> bool:
    return name == HUMAN or name.startswith(HUMAN + ":")


def seat_labels(players: Sequence[str]) -> list[str]:
    """How each seat is called on screen, from the agents' names alone (so a log gives the same words).

    A single person is "You"; several are "Player N" unless named (``human:Ada`` is "Ada");
    a bot is its name. Labels used twice get the seat number.

    >>> seat_labels(["human", "greedy", "cautious"])
    ['You', 'greedy', 'cautious']
    >>> seat_labels(["human:Ada", "human", "greedy", "greedy"])
    ['Ada', 'Player 2', 'greedy-3', 'greedy-4']
    """
    humans = sum(1 for name in players if is_human(name))
    labels = []
    for seat, name in enumerate(players):
        if name.startswith(HUMAN + ":") and name[len(HUMAN) + 1:].strip():
            labels.append(name[len(HUMAN) + 1:].strip())
        elif is_human(name):
            labels.append("You" if humans == 1 else f"Player {seat + 1}")
        else:
            labels.append(name)
    return [f"{label}-{seat + 1}" if labels.count(label) > 1 else label for seat, label in enumerate(labels)]


class Words:
    """Names of seats, spaces, groups and money, with verbs that agree with "You"."""

    def __init__(self, players: Sequence[str], ruleset: Ruleset | None):
        self.players = list(players)
        self.labels = seat_labels(players)
        self.ruleset = ruleset
        self.currency = ruleset.currency if ruleset is not None else "$"
        self.hph = ruleset.rules.building.houses_per_hotel if ruleset is not None else 4
        self.jail = next((s.index for s in ruleset.board if s.kind == "jail"), -1) if ruleset is not None else -1

    # -- who
    def you(self, seat: int) -> bool:
        return 0 <= seat < len(self.labels) and self.labels[seat] == "You"

    def subject(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"Seat {seat}"

    def object(self, seat: int) -> str:
        return "you" if self.you(seat) else self.subject(seat)

    def possessive(self, seat: int) -> str:
        return "your" if self.you(seat) else f"{self.subject(seat)}'s"

    def verb(self, seat: int, verb: str) -> str:
        """The verb as written for a third person (``buys``), made to agree with the seat."""
        if not self.you(seat):
            return verb
        return _IRREGULAR.get(verb, verb[:-1] if verb.endswith("s") else verb)

    def says(self, seat: int, verb: str, rest: str = "") -> str:
        """``subject verb rest``, e.g. ``greedy buys Boardwalk``."""
        return f"{self.subject(seat)} {self.verb(seat, verb)}{' ' + rest if rest else ''}"

    def party(self, who: Any) -> str:
        """A payer or payee: a seat, the bank or the pot."""
        if who == "bank":
            return "the bank"
        if who == "pot":
            return "the pot"
        return self.object(int(who))

    # -- what
    def money(self, amount: int) -> str:
        sign = "-" if amount < 0 else ""
        return f"{sign}{self.currency}{abs(amount):,}"

    def space(self, index: int) -> str:
        if self.ruleset is not None and 0 <= index < len(self.ruleset.board):
            return self.ruleset.board[index].name
        return f"space {index}"

    def card(self, card: Sequence[Any]) -> str:
        """A kept card ``[deck, index]`` by the first sentence of its text ("the Get out of Jail Free card")."""
        key, index = str(card[0]), card[1]
        if self.ruleset is not None:
            for deck in self.ruleset.decks:
                if deck.key == key and type(index) is int and 0 <= index < len(deck.cards):
                    return f'the "{deck.cards[index].text.split(". ")[0].rstrip(".")}" card'
        return f"a {self.deck(key)} card"

    def deck(self, key: str) -> str:
        if self.ruleset is not None:
            for deck in self.ruleset.decks:
                if deck.key == key:
                    return deck.name
        return key

    def level(self, level: int) -> str:
        """Buildings on a street: ``no buildings``, ``2 houses``, ``a hotel``."""
        if level <= 0:
            return "no buildings"
        if level > self.hph:
            return "a hotel"
        return f"{level} house{'s' * (level != 1)}"

    def building(self, level: int) -> str:
        """What the building at ``level`` is: the hotel one level above the last house."""
        return "a hotel" if level > self.hph else "a house"

    def lots(self, spaces: Sequence[int]) -> str:
        return _join([self.space(s) for s in spaces])

    def offer_side(self, spaces: Sequence[int], cash: int, cards: Sequence[Sequence[Any]]) -> str:
        parts = [self.space(s) for s in spaces]
        if cash:
            parts.append(self.money(cash))
        parts += [self.card(card) for card in cards]
        return _join(parts) or "nothing"


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


class GameState(Protocol):
    """The state lists the views read (a ``Game`` has them; so has a :class:`~monopoly.Replay`)."""

    players: int
    cash: list[int]
    position: list[int]
    owner: list[int]
    buildings: list[int]
    mortgaged: list[bool]
    bankrupt: list[bool]
    jail_turns: list[int]
    held_cards: list[Any]


class Narrator:
    """An observer that tells every event in words, one or a few lines each.

    ``echo`` prints a line (``click.echo`` by default). A move onto the jail
    space waits for the next event, so that "goes to jail" is told in one
    line; :meth:`flush` prints anything held back (call it before asking a
    person anything).
    """

    def __init__(self, ruleset: Ruleset | None, echo: Callable[[str], Any] | None = None):
        self.ruleset = ruleset
        self.echo: Callable[[str], Any] = echo if echo is not None else click.echo
        self.words = Words([], ruleset)
        self.state = Replay.new_for(ruleset, 0)
        self._pending_amount = 0
        self._held: Event | None = None
        self._last_card = ""
        self._round = -1

    def __call__(self, event: Event) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            if event["type"] == "jail" and event["action"] == "enter" and event["seat"] == held["seat"]:
                self.state.apply_dict(held)
                self._say(self._jailed(event))
                self.state.apply_dict(event)
                return
            self._say(self._moved(held))
            self.state.apply_dict(held)
        if event["type"] == "move" and event["to"] == self.words.jail and not event["passed_go"]:
            self._held = event
            return
        if event["type"] == "game_start":
            self.words = Words(event["players"], self.ruleset)
            self.state = Replay.new_for(self.ruleset, len(event["players"]))
        lines = self.describe(event)
        self.state.apply_dict(event)
        for line in lines:
            self._say(line)

    def start_from(self, game: Any, players: Sequence[str]) -> None:
        """Go on telling a game restored from a save (no ``game_start`` will come)."""
        self.words = Words(players, self.ruleset)
        self.state = Replay.new_for(self.ruleset, game.players, game.state())

    def flush(self) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            self._say(self._moved(held))
            self.state.apply_dict(held)

    def _say(self, line: str) -> None:
        self.echo(line)

    # ------------------------------------------------------------------ events in words

    def describe(self, e: Event) -> list[str]:
        """The lines that tell ``e`` (some events are told by the one before or after them)."""
        w = self.words
        kind = e["type"]
        method = getattr(self, f"_{kind}", None)
        if method is None:
            return []
        told = method(e, w)
        if told is None:
            return []
        return [told] if isinstance(told, str) else list(told)

    def _game_start(self, e: Event, w: Words) -> list[str]:
        title = self.ruleset.name if self.ruleset is not None else e["ruleset"]
        variants = f" with {', '.join(e['variants'])}" if e["variants"] else ""
        cap = f", at most {e['max_turns']} turns" if e.get("max_turns") else ""
        players = "  ".join(f"{i + 1}. {label}" for i, label in enumerate(w.labels))
        return [f"New game: {title}{variants} (seed {e['seed']}{cap}).", f"Players: {players}"]

    def _turn(self, e: Event, w: Words) -> list[str]:
        lines = [""]
        if e["round"] != self._round:
            self._round = e["round"]
            lines += [f"Round {e['round'] + 1}: " + status_line(self.state, w), ""]
        seat = e["seat"]
        where = w.space(self.state.position[seat]) if seat < len(self.state.position) else "?"
        jailed = " (in jail)" if seat < len(self.state.jail_turns) and self.state.jail_turns[seat] >= 0 else ""
        cash = w.money(self.state.cash[seat]) if seat < len(self.state.cash) else "?"
        lines.append(f"--- Turn {e['turn']}: {w.subject(seat)}, on {where}{jailed}, {cash} ---")
        return lines

    def _roll(self, e: Event, w: Words) -> str:
        dice = [int(d) for d in e["dice"]]
        faces = _join([str(d) for d in dice])
        double = ": doubles!" if len(dice) > 1 and len(set(dice)) == 1 else "."
        extra = e.get("extra")
        if extra:  # the extra die (the speed die): a number adds to the total, a symbol is named
            face = extra[0]
            shown = str(face) if isinstance(face, int) else str(face).replace("_", " ")
            total = sum(dice) + (face if isinstance(face, int) else 0)
            return w.says(e["seat"], "rolls", f"{faces}, the extra die {shown} ({total}){double}")
        return w.says(e["seat"], "rolls", f"{faces} ({sum(dice)}){double}")

    def _move(self, e: Event, w: Words) -> str:
        return self._moved(e)

    def _moved(self, e: Event) -> str:
        w = self.words
        to = e["to"]
        if to == w.jail and not e["passed_go"]:
            return w.says(e["seat"], "moves", f"to {w.space(to)} (just visiting).")
        passes = e.get("passes", 1)
        if passes > 1:  # round the board and past GO more than once in one move
            times = "twice" if passes == 2 else f"{passes} times"
            return w.says(e["seat"], "moves", f"to {w.space(to)}, past GO {times}.")
        passing = " passing GO" if e["passed_go"] and to != self.state.go else ""
        return w.says(e["seat"], "moves", f"to {w.space(to)}{passing}.")

    def _jailed(self, e: Event) -> str:
        w = self.words
        seat = e["seat"]
        if e["how"] == "doubles":
            return f"Doubles again: {w.says(seat, 'goes', 'straight to jail.')}"
        return w.says(seat, "goes", "to jail.")

    def _jail(self, e: Event, w: Words) -> str:
        seat = e["seat"]
        if e["action"] == "enter":
            return self._jailed(e)
        how = e["how"]
        if how == "doubles":
            return f"Doubles: {w.says(seat, 'is', 'out of jail.')}"
        if how == "card":
            used = w.card(e["card"]) if e.get("card") else "a card"
            return f"{w.says(seat, 'uses', used)} and {w.verb(seat, 'is')} out of jail."
        if how == "forced":
            return w.says(seat, "is", "out of jail after the last failed roll.")
        return w.says(seat, "is", "out of jail.")

    def _use_card(self, e: Event, w: Words) -> str:
        return w.says(e["seat"], "uses", w.card((e["deck"], e["card"])) + ".")

    def _buy(self, e: Event, w: Words) -> str:
        return w.says(e["seat"], "buys", f"{w.space(e['space'])} for {w.money(e['price'])}.")

    def _auction(self, e: Event, w: Words) -> str:
        item = w.space(e["space"]) if e["item"] == "space" else f"one of the bank's last {e['item']}s"
        bids = f"{e['bids']} bid{'s' * (e['bids'] != 1)}"
        if e["winner"] is None:
            rest = "it stays with the bank." if e["item"] == "space" else "nobody takes it."
            return f"Auction of {item}: no bids; {rest}"
        won = w.says(e["winner"], "wins", f"it for {w.money(e['price'])} ({bids}).")
        return f"Auction of {item}: {won}"

    def _card(self, e: Event, w: Words) -> str:
        self._last_card = e["text"]
        kept = f" ({w.subject(e['seat'])} {w.verb(e['seat'], 'keeps')} it.)" if e["kept"] else ""
        return w.says(e["seat"], "draws", f"{w.deck(e['deck'])}: \"{e['text']}\"{kept}")

    def _choice(self, e: Event, w: Words) -> str:
        options = e["options"]
        chosen = options[e["chosen"]] if 0 <= e["chosen"] < len(options) else "?"
        return w.says(e["seat"], "chooses", f"\"{chosen}\" (of {' | '.join(options)}).")

    def _variable(self, e: Event, w: Words) -> str:
        return f"{e['name'].replace('_', ' ').capitalize()} is now {e['value']:,}."

    def _payment(self, e: Event, w: Words) -> str | None:
        reason = e["reason"]
        amount = w.money(e["amount"])
        frm, to = e["from"], e["to"]
        if reason in _TOLD_BY_NEXT:
            self._pending_amount = e["amount"]
            return None
        if reason in _TOLD_BY_PREVIOUS:
            return None
        if reason == "starting cash":
            return w.says(to, "gets", f"{amount} to start.")
        if reason == "salary":
            return w.says(to, "collects", f"{amount} salary.")
        if reason == "rent":
            where = self.state.position[frm] if isinstance(frm, int) and frm < len(self.state.position) else -1
            lot = f" for {w.space(where)}" if where >= 0 else ""
            return w.says(frm, "pays", f"{amount} rent to {w.party(to)}{lot}.")
        if reason == "jail fine":
            return w.says(frm, "pays", f"the {amount} jail fine.")
        if reason == "mortgage interest":
            return w.says(frm, "pays", f"{amount} interest on the mortgaged lot received.")
        if reason == "bankruptcy":
            return w.says(frm, "hands", f"over {amount}, everything left, to {w.party(to)}.")
        if reason == "debt written off":
            return f"The bank writes off {w.possessive(to)} debt of {amount}."
        if reason == "pot":
            return w.says(to, "takes", f"the pot: {amount}!")
        why = "" if reason == self._last_card else f" ({reason})"
        if isinstance(frm, int):
            if to == "bank":
                return w.says(frm, "pays", f"{amount}{why}.")
            if to == "pot":
                return w.says(frm, "pays", f"{amount} into the pot{why}.")
            return w.says(frm, "pays", f"{amount} to {w.party(to)}{why}.")
        if isinstance(to, int):
            return w.says(to, "collects", f"{amount} from {w.party(frm)}{why}.")
        return f"{w.party(frm).capitalize()} pays {amount} to {w.party(to)}{why}."

    def _property(self, e: Event, w: Words) -> str | None:
        how, space, to = e["how"], w.space(e["space"]), e["to"]
        if how == "trade":
            return None  # the trade line says what moved
        if how == "deal":
            return w.says(to, "is", f"dealt {space} for {w.money(self._pending_amount)}.")
        if how == "sold" and isinstance(e["from"], int):
            return w.says(e["from"], "sells", f"{space} back to the bank.")
        if to == "bank":
            return f"{space} goes back to the bank."
        if how == "setup":
            return f"{space} is given to {w.party(to)}."
        return f"{space} goes to {w.party(to)}."

    def _build(self, e: Event, w: Words) -> str:
        level = e["level"]
        return w.says(e["seat"], "builds", f"{w.building(level)} on {w.space(e['space'])}"
                      f" (now {w.level(level)}).")

    def _sell(self, e: Event, w: Words) -> str:
        space, sold, level = w.space(e["space"]), e["sold"], e["level"]
        money = w.money(self._pending_amount)
        if sold == 1:
            what = w.building(level + 1)
            return w.says(e["seat"], "sells", f"{what} on {space} for {money} (now {w.level(level)}).")
        return w.says(e["seat"], "sells", f"the {sold} buildings on {space} for {money}.")

    def _mortgage(self, e: Event, w: Words) -> str:
        return w.says(e["seat"], "mortgages", f"{w.space(e['space'])} for {w.money(self._pending_amount)}.")

    def _unmortgage(self, e: Event, w: Words) -> str:
        return w.says(e["seat"], "lifts", f"the mortgage on {w.space(e['space'])} for "
                                         f"{w.money(self._pending_amount)}.")

    def _trade(self, e: Event, w: Words) -> str:
        p, q = e["proposer"], e["partner"]
        give = w.offer_side(e["give_spaces"], e["give_cash"], e["give_cards"])
        get = w.offer_side(e["get_spaces"], e["get_cash"], e["get_cards"])
        answer = w.says(q, "accepts") if e["accepted"] else w.says(q, "declines")
        return f"{w.says(p, 'offers', w.object(q))} {give} for {get}: {answer}."

    def _refused(self, e: Event, w: Words) -> str:
        return f"Not allowed for {w.object(e['seat'])}: {e['reason']}."

    def _bankrupt(self, e: Event, w: Words) -> str:
        return w.says(e["seat"], "goes", f"bankrupt, owing {w.money(e['owed'])} ({e['reason']}) to "
                                        f"{w.party(e['creditor'])}.")

    def _game_end(self, e: Event, w: Words) -> list[str]:
        self.flush()
        winner = e["winner"]
        lines = ["", f"Game over after {e['turns']} turns: {_ENDS.get(e['end'], e['end'])}.",
                 f"Winner: {w.subject(winner)}." if winner is not None else "No winner."]
        for place, standing in enumerate(e["standings"], 1):
            seat = standing["seat"]
            if standing["bankrupt"]:
                lines.append(f"  {place}. {w.subject(seat)}: bankrupt")
            else:
                lines.append(f"  {place}. {w.subject(seat)}: worth {w.money(standing['net_worth'])} "
                             f"(cash {w.money(standing['cash'])})")
        return lines


# ---------------------------------------------------------------------- views of the state


def status_line(state: GameState, w: Words) -> str:
    """Every player's cash and place on one line."""
    parts = []
    for seat in range(state.players):
        if state.bankrupt[seat]:
            parts.append(f"{w.subject(seat)} bankrupt")
            continue
        where = "in jail" if state.jail_turns[seat] >= 0 else f"on {w.space(state.position[seat])}"
        parts.append(f"{w.subject(seat)} {w.money(state.cash[seat])} {where}")
    return " | ".join(parts)


def _lot_note(state: GameState, w: Words, s: int) -> str:
    notes = []
    if state.buildings[s]:
        notes.append(w.level(state.buildings[s]))
    if state.mortgaged[s]:
        notes.append("mortgaged")
    return f" ({', '.join(notes)})" if notes else ""


def holdings_lines(state: GameState, w: Words, seat: int) -> list[str]:
    """A player's cash, place, cards and lots by group, with buildings and mortgages."""
    ruleset = w.ruleset
    where = "in jail" if state.jail_turns[seat] >= 0 else f"on {w.space(state.position[seat])}"
    if state.bankrupt[seat]:
        return [f"{w.subject(seat)}: bankrupt."]
    held = f", {_join([w.card(card) for card in state.held_cards[seat]])}" if state.held_cards[seat] else ""
    lines = [f"{w.subject(seat)}: {w.money(state.cash[seat])} cash, {where}{held}."]
    if ruleset is None:
        return lines
    any_lot = False
    for group in ruleset.groups:
        mine = [s for s in group.members if state.owner[s] == seat]
        if not mine:
            continue
        any_lot = True
        full = " - full group" if len(mine) == len(group.members) else f" - {len(mine)} of {len(group.members)}"
        lots = ", ".join(w.space(s) + _lot_note(state, w, s) for s in mine)
        lines.append(f"  {group.name}{full}: {lots}")
    if not any_lot:
        lines.append("  no property")
    return lines


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "."


def board_lines(state: GameState, w: Words) -> list[str]:
    """A compact board: every space in two columns with its owner, buildings and the tokens on it.

    Tokens and owners are written by seat number (1 for the first seat).
    """
    ruleset = w.ruleset
    if ruleset is None:
        return ["(the board is not known: the ruleset of this game could not be loaded)"]
    board = ruleset.board
    groups = {g.key: g.name for g in ruleset.groups}
    cells = []
    for space in board:
        s = space.index
        tokens = "".join(str(p + 1) for p in range(state.players)
                         if not state.bankrupt[p] and state.position[p] == s)
        owner = state.owner[s] if s < len(state.owner) else -1
        if space.ownable:
            deed = f"{w.currency}{space.price}" if owner < 0 else f"#{owner + 1}"
            if owner >= 0 and state.buildings[s]:
                level = state.buildings[s]
                deed += " H" if level > w.hph else f" {level}h"
            if owner >= 0 and state.mortgaged[s]:
                deed += " M"
            group = _short(groups.get(space.group or "", ""), 10)
        else:
            deed = group = ""
        cells.append(f"{s:>2} {_short(space.name, 21):<21} {group:<10} {deed:<9} {tokens:<4}")
    half = (len(cells) + 1) // 2
    lines = []
    for i in range(half):
        right = cells[i + half] if i + half < len(cells) else ""
        lines.append(f"{cells[i]}| {right}".rstrip())
    legend = "  ".join(f"{p + 1}={w.subject(p)}" for p in range(state.players))
    lines.append(f"Tokens and owners: {legend}.  2h: 2 houses, H: hotel, M: mortgaged, "
                 f"{w.currency}N: unowned (its price).")
    return lines
