"""A person at the terminal as an :class:`~monopoly.Agent`: every decision asked in plain words.

The human agent only chooses among what the engine offers: the actions of
``game.legal_actions(seat)``, the options passed to ``jail`` and ``choose``,
and trades checked by ``actions.verify`` before they are sent. The engine
validates every answer again. A wrong answer is explained and asked again;
``help``, ``board``, ``me``, ``players`` and ``quit`` work at every question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from monopoly import Agent, Build, IllegalAction, Mortgage, SellBuilding, SellLot, Trade, Unmortgage, UseCard
from monopoly import verify_action as verify

from .render_text import Narrator, Words, board_lines, holdings_lines, is_human

if TYPE_CHECKING:
    from monopoly import Action, Game

T = TypeVar("T")

COMMANDS = [
    "  board    the board: owners, buildings and tokens",
    "  me       your cash, cards and properties by group",
    "  players  everyone's cash, cards and properties",
    "  help     what you can answer now",
    "  quit     stop playing (you are offered to save the game)",
]

YES = ("y", "yes")
NO = ("n", "no")

#: The most digits a typed number may have: more than any amount or menu needs (and ``int()``
#: of a few thousand digits is refused by Python).
MAX_DIGITS = 12
#: How much of a wrong answer is repeated back in the explanation.
SHOWN_LIMIT = 40
#: Unreadable lines (bytes that do not decode) in a row after which the input counts as closed.
MAX_UNREADABLE = 20


def typed_number(text: str) -> int | None:
    """``text`` as a whole number when it is 1 to :data:`MAX_DIGITS` ASCII digits, else None.

    ``str.isdigit()`` alone says yes to '²' (which ``int()`` refuses), '٣' or '１'
    (which it reads as 3 and 1): only 0-9 count here.

    >>> typed_number("12"), typed_number("²"), typed_number("١"), typed_number("1" * 13)
    (12, None, None, None)
    """
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def shown(text: str) -> str:
    """A typed answer as an explanation repeats it: control characters as '?', at most :data:`SHOWN_LIMIT` long."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= SHOWN_LIMIT else text[:SHOWN_LIMIT - 3] + "..."


class QuitGame(Exception):
    """The person typed ``quit``."""


class Invalid(ValueError):
    """An answer that does not fit the question; ``str()`` says what would."""


class _Trade:
    """The act menu's answer "propose a trade" (the offer is built next)."""


TRADE = _Trade()


def parse_yes_no(default: bool | None) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        low = text.lower()
        if low in YES:
            return True
        if low in NO:
            return False
        if not low and default is not None:
            return default
        enter = "" if default is None else f", or press Enter for {'yes' if default else 'no'}"
        raise Invalid(f"'{shown(text)}' is not an answer here: please answer yes or no (y or n){enter}.")

    return parse


def parse_amount(text: str) -> int:
    cleaned = text.replace(",", "").replace("_", "").strip().lstrip("$£€").strip()
    amount = typed_number(cleaned)
    if amount is None:
        raise Invalid(f"'{shown(text)}' is not an amount: type a whole number (digits 0-9, at most {MAX_DIGITS}), "
                      f"like 120.")
    return amount


def parse_numbers(text: str, count: int, what: str) -> list[int]:
    """1-based numbers separated by commas or spaces, each at most ``count``, as 0-based indexes."""
    picked: list[int] = []
    for part in text.replace(",", " ").split():
        number = typed_number(part)
        if number is None or not 1 <= number <= count:
            raise Invalid(f"'{shown(part)}' is not one of the {what}: type numbers from 1 to {count}, "
                          f"separated by commas, or press Enter for none.")
        index = number - 1
        if index in picked:
            raise Invalid(f"{number} is named twice.")
        picked.append(index)
    return picked


#: The kinds of action of the menu between turns, in the order they are listed, with their headings.
MENU_KINDS: dict[type, str] = {Build: "build", SellBuilding: "sell", Mortgage: "mortgage", Unmortgage: "lift mortgage",
                               SellLot: "sell to bank", UseCard: "use a card"}


def menu_order(legal: Sequence[Action]) -> list[Action]:
    """The engine's legal actions in the order the menu numbers them: by kind, then board order."""
    kinds = list(MENU_KINDS)
    return sorted(legal, key=lambda action: kinds.index(type(action)) if type(action) in MENU_KINDS else len(kinds))


def _card_text(game: Game, action: UseCard) -> str:
    """The printed text of the card a :class:`UseCard` names."""
    return next(slot.text for slot in game.tables.decks[action.deck] if slot.index == action.card)


def _numbers(count: int) -> str:
    return "1" if count == 1 else f"a number from 1 to {count}"


class HumanAgent(Agent):
    """A person deciding through the terminal (click prompts), with the narration of ``narrator``."""

    def __init__(self, name: str, narrator: Narrator):
        self.name = name
        self.narrator = narrator
        self._phase = -1
        self._between_phase: tuple[int, int] | None = None  # (turn, seat to move) of the last `between` asked
        self._trades = 0
        self.clock: Any = None  # the session's clock of a time-limit game (its seconds left shown after a turn)

    # ------------------------------------------------------------------ asking

    @property
    def words(self) -> Words:
        return self.narrator.words

    def label(self, seat: int) -> str:
        return self.words.subject(seat)

    def _prompt(self, seat: int) -> str:
        label = self.label(seat)
        return "you> " if label == "You" else f"{label}> "

    def ask(self, game: Game, seat: int, lines: Sequence[str], parse: Callable[[str], T],
            answers: Sequence[str]) -> T:
        """Print ``lines``, read answers until ``parse`` accepts one (commands are served in between).

        ``answers`` says, for ``help``, what may be answered here.
        """
        self.narrator.flush()
        for line in lines:
            click.echo(line)
        unreadable = 0
        while True:
            try:
                text = click.prompt("", prompt_suffix=self._prompt(seat), default="", show_default=False).strip()
            except UnicodeDecodeError:  # bytes that are not text in the terminal's encoding
                unreadable += 1
                if unreadable > MAX_UNREADABLE:
                    raise click.Abort() from None
                click.echo("That was not readable text: please type your answer again.")
                continue
            low = text.lower()
            if low in ("help", "?", "h"):
                click.echo("You can answer:")
                for line in answers:
                    click.echo(f"  {line}")
                click.echo("At any question:")
                for line in COMMANDS:
                    click.echo(line)
                continue
            if low == "board":
                for line in board_lines(game, self.words):
                    click.echo(line)
                continue
            if low in ("me", "props", "properties"):
                for line in holdings_lines(game, self.words, seat):
                    click.echo(line)
                continue
            if low == "players":
                for other in range(game.players):
                    for line in holdings_lines(game, self.words, other):
                        click.echo(line)
                continue
            if low in ("quit", "exit"):
                raise QuitGame()
            try:
                return parse(text)
            except Invalid as exc:
                click.echo(str(exc))

    def _money(self, amount: int) -> str:
        return self.words.money(amount)

    def _you(self, game: Game, seat: int) -> str:
        """How the seat is addressed at the start of a question when several people play."""
        humans = sum(1 for name in self.words.players if is_human(name))
        return f"{self.label(seat)}: " if humans > 1 else ""

    # ------------------------------------------------------------------ decisions

    def buy(self, game: Game, seat: int, space: int) -> bool:
        w = self.words
        t = game.tables
        info = game.ruleset.board[space]
        group = t.group_of[space]
        extra = ""
        if group >= 0:
            members = t.members[group]
            owned = sum(1 for m in members if game.owner[m] == seat)
            gname = game.ruleset.groups[group].name
            extra = f" {gname}: you own {owned} of {len(members)}."
        rent = f", rent {self._money(info.rent[0])}" if info.buildable and info.rent else ""
        otherwise = " If you don't, it is auctioned." if game.rules.auction_on_decline else ""
        lines = [f"{self._you(game, seat)}{w.space(space)} is for sale at {self._money(t.price[space])}{rent}; "
                 f"you have {self._money(game.cash[seat])}.{extra}{otherwise}",
                 "Buy it? [Y/n]"]
        return self.ask(game, seat, lines, parse_yes_no(True),
                        ["y or yes: buy it", "n or no: do not buy it", "Enter: buy it"])

    def bid(self, game: Game, seat: int, item: Any, high_bid: int, leader: int | None) -> int:
        w = self.words
        what = w.space(item[1]) if item[0] == "space" else f"one of the bank's last {item[0]}s"
        cash = game.cash[seat]
        if cash <= high_bid:
            click.echo(f"Auction of {what}: the bid is {self._money(high_bid)} and you have "
                       f"{self._money(cash)}, so you are out.")
            return 0
        if leader is not None:
            state = f"the highest bid is {self._money(high_bid)}, by {w.object(leader)}"
        else:
            state = f"no bid yet; bids start at {self._money(high_bid + 1)}"
        price = f" (printed price {self._money(game.tables.price[item[1]])})" if item[0] == "space" else ""
        lines = [f"{self._you(game, seat)}Auction of {what}{price}: {state}. You have {self._money(cash)}.",
                 f"Your bid, from {self._money(high_bid + 1)} to {self._money(cash)} (Enter or 0 to drop out):"]

        def parse(text: str) -> int:
            if text.lower() in ("", "0", "pass", "p", "no", "n"):
                return 0
            amount = parse_amount(text)
            if amount <= high_bid:
                raise Invalid(f"A bid must be more than the highest bid, {self._money(high_bid)}; "
                              f"or press Enter to drop out.")
            if amount > cash:
                raise Invalid(f"You have only {self._money(cash)}: bid at most that (no loans).")
            return amount

        return self.ask(game, seat, lines, parse,
                        [f"a whole number from {high_bid + 1} to {cash}: your bid",
                         "Enter, 0 or pass: drop out of this auction (for good)"])

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> str:
        rules = game.rules.jail
        attempt = game.jail_turns[seat] + 1
        texts = {
            "roll": f"roll for doubles (attempt {attempt} of {rules.max_turns})",
            "pay": f"pay the {self._money(rules.fine)} fine, then roll and move",
            "card": "use your Get Out of Jail Free card, then roll and move",
        }
        lines = [f"{self._you(game, seat)}You are in jail. What do you do?"]
        lines += [f"  {i}. {option}: {texts.get(option, option)}" for i, option in enumerate(options, 1)]
        lines.append(f"Type {', '.join(options[:-1])} or {options[-1]} (or the number; Enter: {options[0]}):")

        def parse(text: str) -> str:
            low = text.lower()
            if not low:
                return options[0]
            number = typed_number(low)
            if number is not None and 1 <= number <= len(options):
                return options[number - 1]
            for option in options:
                if option.startswith(low):
                    return option
            raise Invalid(f"'{shown(text)}' is not a choice here: type {', '.join(options)}.")

        return self.ask(game, seat, lines, parse, [f"{option}: {texts.get(option, option)}" for option in options])

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> int:
        lines = [f"{self._you(game, seat)}Choose one:"]
        costs = game.option_costs(seat)
        for i, option in enumerate(options, 1):
            note = ""
            cost = costs[i - 1] if len(costs) == len(options) else 0
            if cost > 0:
                note = f" (costs you {self._money(cost)})"
            elif cost < 0:
                note = f" (you get {self._money(-cost)})"
            lines.append(f"  {i}. {option}{note}")
        lines.append(f"Type {_numbers(len(options))} (Enter: 1):")

        def parse(text: str) -> int:
            if not text:
                return 0
            number = typed_number(text)
            if number is not None and 1 <= number <= len(options):
                return number - 1
            raise Invalid(f"'{shown(text)}' is not a choice: type a number from 1 to {len(options)}.")

        return self.ask(game, seat, lines, parse, [f"{i}: {option}" for i, option in enumerate(options, 1)])

    def describe_action(self, game: Game, action: Action) -> str:
        w = self.words
        t = game.tables
        if isinstance(action, UseCard):
            return f'use the card "{_card_text(game, action)}"'
        s = action.space  # type: ignore[union-attr]
        name = w.space(s)
        if isinstance(action, Build):
            cost = t.house_cost[t.group_of[s]]
            return f"build {w.building(game.buildings[s] + 1)} on {name} ({self._money(cost)})"
        if isinstance(action, SellBuilding):
            return f"sell {w.building(game.buildings[s])} on {name}"
        if isinstance(action, Mortgage):
            return f"mortgage {name} (get {self._money(t.mortgage[s])})"
        if isinstance(action, SellLot):
            return f"sell {name} to the bank (get {self._money(game.lot_sale_value(s))})"
        return f"lift the mortgage on {name} ({self._money(game.unmortgage_cost(s))})"

    def _menu(self, game: Game, legal: Sequence[Action]) -> list[str]:
        """The actions (in :func:`menu_order`), numbered from 1 and grouped by kind, wrapped at 100 columns."""
        w = self.words
        t = game.tables
        sections: dict[type, list[str]] = {kind: [] for kind in MENU_KINDS}
        for i, action in enumerate(legal, 1):
            if isinstance(action, UseCard):
                sections[UseCard].append(f'{i}. "{_card_text(game, action)}"')
                continue
            s = action.space  # type: ignore[union-attr]
            if isinstance(action, Build):
                what = "hotel" if game.buildings[s] + 1 > t.hph else f"house {game.buildings[s] + 1}"
                note = f"{what}, {self._money(t.house_cost[t.group_of[s]])}"
            elif isinstance(action, SellBuilding):
                note = "the hotel" if game.buildings[s] > t.hph else f"house {game.buildings[s]}"
            elif isinstance(action, Mortgage):
                note = f"+{self._money(t.mortgage[s])}"
            elif isinstance(action, SellLot):
                note = f"+{self._money(game.lot_sale_value(s))}"
            else:
                note = self._money(game.unmortgage_cost(s))
            sections[type(action)].append(f"{i}. {w.space(s)} ({note})")
        lines = []
        for kind, items in sections.items():
            if not items:
                continue
            head = f"  {MENU_KINDS[kind] + ':':<15}"
            row: list[str] = []
            for item in items:
                if row and len(head) + len("  ".join([*row, item])) > 100:
                    lines.append(head + "  ".join(row))
                    head, row = " " * len(head), []
                row.append(item)
            lines.append(head + "  ".join(row))
        return lines

    def act(self, game: Game, seat: int) -> Action | None:
        if game.turn != self._phase:
            self._phase = game.turn
            self._trades = 0
            self.narrator.flush()
            click.echo("")
            for line in holdings_lines(game, self.words, seat):
                click.echo(line)
            if self.clock is not None:
                left = int(self.clock.left())
                click.echo(f"Time left: {left // 3600}:{left // 60 % 60:02}:{left % 60:02}")
        return self._actions(game, seat, "Before the next turn you may:", "end your turn", cards=True)

    def between(self, game: Game, seat: int, to_move: int) -> Action | None:
        """Before a rival's turn: one line, Enter to pass; ``a`` opens the menu of :meth:`act` (without cards).
        Not asked at all when there is nothing to do."""
        key = (game.turn, to_move)
        fresh = key != self._between_phase  # a new chance (not the same one asked again after an action)
        if fresh:
            self._trades = 0
        legal = [a for a in game.legal_actions(seat) if not isinstance(a, UseCard)]
        can_trade = self._can_trade(game, seat) and any(game.owner[s] >= 0 for s in game.tables.ownable)
        if not legal and not can_trade:
            return None
        whose = "your" if to_move == seat else f"{self.label(to_move)}'s"
        if fresh:  # the question first
            self._between_phase = key

            def parse(text: str) -> bool:
                low = text.lower()
                if low in ("", "pass", "p", "n", "no"):
                    return False
                if low in ("a", "act"):
                    return True
                raise Invalid(f"'{shown(text)}' is not a choice: press Enter to pass, or type a to act.")

            wanted = self.ask(game, seat, [f"{self._you(game, seat)}Before {whose} turn: press Enter to pass, or type "
                                           "a to build, sell, mortgage or trade."], parse,
                              ["Enter or pass: let the next turn begin", "a: build, sell, mortgage, lift or trade"])
            if not wanted:
                return None
        return self._actions(game, seat, f"Before {whose} turn you may:", "let the turn begin", cards=False)

    def _can_trade(self, game: Game, seat: int) -> bool:
        return self._trades < game.rules.trades_per_phase and any(
            q != seat and not game.bankrupt[q] for q in range(game.players))

    def _actions(self, game: Game, seat: int, heading: str, done: str, *, cards: bool) -> Action | None:
        """The menu of what ``seat`` may do now (a card's use only when ``cards``), until one is chosen or Enter
        says ``done``."""
        while True:
            legal = menu_order([a for a in game.legal_actions(seat) if cards or not isinstance(a, UseCard)])
            can_trade = self._can_trade(game, seat)
            lines = [f"{self._you(game, seat)}{heading}"] + self._menu(game, legal)
            if can_trade:
                lines.append(f"  {'trade:':<15}t. propose a trade")
            choices = ([_numbers(len(legal))] if legal else []) + (["t"] if can_trade else [])
            lines.append(f"Type {', '.join(choices + [f'or press Enter to {done}'])}:")

            def parse(text: str, legal: list[Action] = legal, can_trade: bool = can_trade,
                      choices: list[str] = choices) -> Action | _Trade | None:
                low = text.lower()
                if low in ("", "done", "end", "d"):
                    return None
                if low in ("t", "trade") and can_trade:
                    return TRADE
                number = typed_number(low)
                if number is not None and 1 <= number <= len(legal):
                    return legal[number - 1]
                if low in ("t", "trade"):
                    raise Invalid(f"You have made {game.rules.trades_per_phase} offers here: that is all the "
                                  f"engine takes until your next chance to act.")
                raise Invalid(f"'{shown(text)}' is not a choice: type {', '.join(choices + ['or press Enter'])}.")

            helps = [f"{i}: {self.describe_action(game, a)}" for i, a in enumerate(legal, 1)]
            helps += ["t: propose a trade to another player"] if can_trade else []
            helps += [f"Enter or done: {done}"]
            answer = self.ask(game, seat, lines, parse, helps)
            if isinstance(answer, _Trade):
                trade = self.build_trade(game, seat)
                if trade is None:
                    continue
                self._trades += 1
                return trade
            return answer

    # ------------------------------------------------------------------ trades

    def build_trade(self, game: Game, seat: int) -> Trade | None:
        """Ask who to trade with and what goes each way; None when the person cancels."""
        return _TradeDialogue(self, game, seat).offer()

    def answer_trade(self, game: Game, seat: int, trade: Trade) -> bool:
        w = self.words
        p = trade.proposer
        lines = [f"{self._you(game, seat)}{w.says(p, 'offers', 'you')} "
                 f"{w.offer_side(trade.give_spaces, trade.give_cash, trade.give_cards)} "
                 f"for {w.offer_side(trade.get_spaces, trade.get_cash, trade.get_cards)}. "
                 f"You have {self._money(game.cash[seat])}.",
                 "Accept? [y/N]"]
        return self.ask(game, seat, lines, parse_yes_no(False),
                        ["y or yes: accept the offer", "n, no or Enter: decline it"])

    # ------------------------------------------------------------------ debts

    def raise_funds(self, game: Game, seat: int, owed: int) -> Action | None:
        raising = game.legal_actions(seat, raising=True)
        legal = menu_order([a for a in raising if isinstance(a, (SellBuilding, Mortgage, SellLot))])
        if not legal:
            return None
        lines = [f"{self._you(game, seat)}You must pay {self._money(owed)} and have "
                 f"{self._money(game.cash[seat])}: sell or mortgage to raise "
                 f"{self._money(owed - game.cash[seat])}."]
        lines += self._menu(game, legal)
        lines.append(f"Type {_numbers(len(legal))}, or press Enter to let the bank raise it the cheapest way "
                     "(mortgages and sales, one at a time, until the debt is covered):")

        def parse(text: str) -> Action | None:
            if not text:
                return None
            number = typed_number(text)
            if number is not None and 1 <= number <= len(legal):
                return legal[number - 1]
            raise Invalid(f"'{shown(text)}' is not a choice: type a number from 1 to {len(legal)}, or press Enter.")

        return self.ask(game, seat, lines, parse,
                        [f"{i}: {self.describe_action(game, a)}" for i, a in enumerate(legal, 1)]
                        + ["Enter: let the bank do it"])

    def lift_mortgage(self, game: Game, seat: int, space: int) -> bool:
        w = self.words
        lift = game.unmortgage_cost(space)
        interest = lift - game.tables.mortgage[space]
        lines = [f"{self._you(game, seat)}{w.space(space)} comes to you mortgaged. Lift the mortgage now for "
                 f"{self._money(lift)}, or keep it mortgaged and pay {self._money(interest)} interest now? "
                 f"You have {self._money(game.cash[seat])}.",
                 "Lift it now? [y/N]"]
        return self.ask(game, seat, lines, parse_yes_no(False),
                        ["y or yes: lift the mortgage now", "n, no or Enter: pay the interest and keep it mortgaged"])



class _TradeDialogue:
    """The questions that make ``seat``'s trade offer (``HumanAgent.build_trade``): whom with, then what goes each
    way from numbered lists of lots and cards, then the offer checked and confirmed."""

    def __init__(self, agent: HumanAgent, game: Game, seat: int):
        self.agent = agent
        self.game = game
        self.seat = seat
        self.words = agent.words

    def lots_of(self, holder: int) -> list[int]:
        """The lots ``holder`` owns, in board order (the numbers of the lists)."""
        return [s for s in self.game.tables.ownable if self.game.owner[s] == holder]

    def list_assets(self, holder: int, lots: list[int]) -> list[str]:
        """``holder``'s cash, numbered lots (with their buildings and mortgages) and kept cards."""
        game, w = self.game, self.words
        t = game.tables
        lines = [f"{w.subject(holder)} {w.verb(holder, 'has')} {w.money(game.cash[holder])}."]
        for i, s in enumerate(lots, 1):
            notes = []
            group = t.group_of[s]
            if game.buildings[s]:
                notes.append(w.level(game.buildings[s]))
            elif group >= 0 and any(game.buildings[m] for m in t.members[group]):
                notes.append("its group has buildings")
            if game.mortgaged[s]:
                notes.append("mortgaged")
            note = f" ({', '.join(notes)})" if notes else ""
            lines.append(f"  {i}. {w.space(s)}{note}")
        for j, (deck, _index) in enumerate(game.held_cards[holder], 1):
            lines.append(f"  card {j}: {w.deck(deck)} Get Out of Jail Free")
        return lines

    def pick(self, question: str, count: int, what: str) -> list[int]:
        """Numbers from a list of ``count`` (none when it is empty or on Enter), as indexes from 0."""
        if count == 0:
            return []
        return self.agent.ask(self.game, self.seat, [question], lambda text: parse_numbers(text, count, what),
                              [f"numbers from 1 to {count}, separated by commas", "Enter: none"])

    def cash(self, question: str) -> int:
        """An amount of cash (0 on Enter)."""
        return self.agent.ask(self.game, self.seat, [question], lambda text: parse_amount(text) if text else 0,
                              ["a whole number", "Enter: none"])

    def partner(self) -> int | None:
        """The player to trade with, by number or name; None when the person cancels."""
        w = self.words
        others = [q for q in range(self.game.players) if q != self.seat and not self.game.bankrupt[q]]
        lines = ["Trade with whom?"] + [f"  {i}. {w.subject(q)}" for i, q in enumerate(others, 1)]
        lines.append(f"Type {_numbers(len(others))} or the name (Enter to cancel):")

        def who(text: str) -> int | None:
            if not text:
                return None
            number = typed_number(text)
            if number is not None and 1 <= number <= len(others):
                return others[number - 1]
            for q in others:
                if w.subject(q).lower() == text.lower():
                    return q
            raise Invalid(f"'{shown(text)}' is not one of the players listed: type a number from 1 to "
                          f"{len(others)}.")

        return self.agent.ask(self.game, self.seat, lines, who,
                              [f"{i}: {w.subject(q)}" for i, q in enumerate(others, 1)] + ["Enter: cancel"])

    def sides(self, partner: int) -> Trade:
        """What goes each way between the seat and ``partner``, picked from their lists."""
        game, seat, w = self.game, self.seat, self.words
        mine, theirs = self.lots_of(seat), self.lots_of(partner)
        for line in self.list_assets(seat, mine):
            click.echo(line)
        give = self.pick("Lots you give (numbers from your list, Enter for none):", len(mine), "lots you own")
        give_cash = self.cash("Cash you give (Enter for none):")
        my_cards = game.held_cards[seat]
        give_cards = self.pick("Cards you give (card numbers, Enter for none):", len(my_cards), "cards you hold")
        for line in self.list_assets(partner, theirs):
            click.echo(line)
        get = self.pick(f"Lots you want from {w.object(partner)} (numbers from the list, Enter for none):",
                        len(theirs), f"lots {w.object(partner)} owns")
        get_cash = self.cash(f"Cash you want from {w.object(partner)} (Enter for none):")
        their_cards = game.held_cards[partner]
        get_cards = self.pick("Cards you want (card numbers, Enter for none):", len(their_cards),
                              f"cards {w.object(partner)} holds")
        return Trade(seat, partner,
                     give_spaces=tuple(mine[i] for i in give), give_cash=give_cash,
                     give_cards=tuple(my_cards[i] for i in give_cards),
                     get_spaces=tuple(theirs[i] for i in get), get_cash=get_cash,
                     get_cards=tuple(their_cards[i] for i in get_cards))

    def offer(self) -> Trade | None:
        """The whole dialogue, asked again from the start while the offer breaks a rule; None when cancelled."""
        w = self.words
        while True:
            partner = self.partner()
            if partner is None:
                return None
            trade = self.sides(partner)
            try:
                verify(self.game, self.seat, trade)
            except IllegalAction as exc:
                click.echo(f"That offer is not allowed: {exc}. Let's start again.")
                continue
            gives = w.offer_side(trade.give_spaces, trade.give_cash, trade.give_cards)
            gets = w.offer_side(trade.get_spaces, trade.get_cash, trade.get_cards)
            summary = f"Offer {w.object(partner)} {gives} for {gets}?"
            if self.agent.ask(self.game, self.seat, [summary + " [Y/n]"], parse_yes_no(True),
                              ["y or Enter: send the offer", "n: cancel it"]):
                return trade
            return None


__all__ = ["HumanAgent", "Invalid", "QuitGame", "parse_amount", "parse_numbers", "parse_yes_no", "shown",
           "typed_number"]
