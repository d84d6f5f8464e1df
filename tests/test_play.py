"""`monopoly play`: a person against bots through stdin, with save, quit, resume and a log.

The whole-game tests are driven by a scripted person: :class:`ScriptedPerson`
is the terminal's :class:`HumanAgent` with its keyboard replaced by a policy
that writes down the lines a person would type (wrong answers and commands
included). The script is made in-process, then typed into ``monopoly play``
through stdin (click's CliRunner), which must play the very same game. The
policy reads the game, so the script follows the engine when its rules change.

Scenario tests set a position up exactly (fixed dice, deeds handed out) and
type into the real play loop, one question at a time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import monopoly
from monopoly.agents import RecordingAgent, make_agent
from monopoly.cli.human import HumanAgent, Invalid, menu_order
from monopoly.cli.main import cli
from monopoly.cli.play_command import Session, make_agents, parse_players
from monopoly.cli.render_text import Narrator, seat_labels
from monopoly.game import Build, Game, Mortgage, Unmortgage
from monopoly.game.log import read_log

# ---------------------------------------------------------------------- the scripted person

#: The game the whole-game tests play: short-game ends at the second bankruptcy.
RULESET = "classic"
VARIANT = "short-game"
PLAYERS = "you,trader,greedy"
SEED = 3
MAX_TURNS = 150
GAME_ARGS = [RULESET, "--variant", VARIANT, "--players", PLAYERS, "--seed", str(SEED), "--max-turns",
             str(MAX_TURNS)]

#: A wrong answer for each question, typed the first time it is asked (it must be explained and asked again).
WRONG = {
    "buy": "maybe", "bid": "lots", "jail": "dance", "choose": "7", "act": "99", "trade_who": "nobody",
    "give_lots": "0", "give_cash": "ten", "give_cards": "9", "get_lots": "1,1", "get_cash": "-5",
    "get_cards": "9", "confirm": "perhaps", "answer_trade": "hmm", "raise_funds": "x", "lift_mortgage": "later",
    "between": "wait", "between_menu": "98",
}
#: What the play loop says about each wrong answer.
EXPLAINED = {
    "maybe": "please answer yes or no", "lots": "is not an amount", "dance": "is not a choice here",
    "7": "is not a choice", "99": "is not a choice", "nobody": "is not one of the players listed",
    "0": "is not one of the lots you own", "ten": "is not an amount", "1,1": "is named twice",
    "-5": "is not an amount", "perhaps": "please answer yes or no", "hmm": "please answer yes or no",
    "x": "is not a choice", "later": "please answer yes or no", "9": "is not one of the cards",
    "wait": "press Enter to pass, or type a to act", "98": "is not a choice",
}
#: Commands typed at the first question between turns (they answer nothing and ask again).
COMMANDS = ["help", "board", "me", "players"]


def _kind(lines: Sequence[str], context: str) -> str:
    first, last = lines[0], lines[-1]
    for start, kind in (("Trade with whom?", "trade_who"), ("Lots you give", "give_lots"),
                        ("Cash you give", "give_cash"), ("Cards you give", "give_cards"),
                        ("Lots you want", "get_lots"), ("Cash you want", "get_cash"),
                        ("Cards you want", "get_cards"), ("Offer ", "confirm")):
        if first.startswith(start):
            return kind
    if context == "between":  # the one-line question, then the menu when the person asked for it
        return "between_menu" if first.endswith("turn you may:") else "between"
    assert context, f"a question without a decision: {last}"
    return context


class ScriptedPerson(HumanAgent):
    """A HumanAgent whose answers come from a policy, written down as the lines typed."""

    def __init__(self, name: str, narrator: Narrator):
        super().__init__(name, narrator)
        self.typed: list[str] = []
        self.turns: list[int] = []  # the turn in which each line was typed
        self.kinds: list[str] = []
        self.context = ""
        self.question: tuple[Any, ...] = ()
        self.wrong_done: set[str] = set()
        self.offered: set[tuple[int, int]] = set()
        self.plan: dict[str, str] = {}

    def _type(self, game: Game, text: str, kind: str) -> None:
        self.typed.append(text)
        self.turns.append(game.turn)
        self.kinds.append(kind)

    def ask(self, game: Game, seat: int, lines: Sequence[str], parse: Callable[[str], Any],
            answers: Sequence[str]) -> Any:
        kind = _kind(lines, self.context)
        if kind == "act" and not self.wrong_done & {"commands"}:
            self.wrong_done.add("commands")
            for command in COMMANDS:
                self._type(game, command, "command")
        if kind not in self.wrong_done:
            self.wrong_done.add(kind)
            wrong = WRONG[kind]
            with pytest.raises(Invalid):
                parse(wrong)
            self._type(game, wrong, "wrong")
        text = self.policy(game, seat, kind)
        self._type(game, text, kind)
        return parse(text)

    def _asked(self, context: str, *question: Any) -> None:
        self.context = context
        self.question = question

    def buy(self, game, seat, space):
        self._asked("buy", space)
        return super().buy(game, seat, space)

    def bid(self, game, seat, item, high_bid, leader):
        self._asked("bid", item, high_bid)
        return super().bid(game, seat, item, high_bid, leader)

    def jail(self, game, seat, options):
        self._asked("jail", options)
        return super().jail(game, seat, options)

    def choose(self, game, seat, options):
        self._asked("choose", options)
        return super().choose(game, seat, options)

    def act(self, game, seat):
        self._asked("act")
        return super().act(game, seat)

    def between(self, game, seat, to_move):
        self._asked("between", to_move)
        return super().between(game, seat, to_move)

    def answer_trade(self, game, seat, trade):
        self._asked("answer_trade", trade)
        return super().answer_trade(game, seat, trade)

    def raise_funds(self, game, seat, owed):
        self._asked("raise_funds", owed)
        return super().raise_funds(game, seat, owed)

    def lift_mortgage(self, game, seat, space):
        self._asked("lift_mortgage", space)
        return super().lift_mortgage(game, seat, space)

    # -- the policy: a cautious buyer who completes groups by trading, builds, and mortgages when short
    def policy(self, game: Game, seat: int, kind: str) -> str:
        t = game.tables
        cash = game.cash[seat]
        q = self.question
        if kind == "buy":
            return "n" if t.price[q[0]] >= 280 else "y"
        if kind == "bid":
            item, high = q
            if item[0] != "space":
                return ""
            step = high + 10
            return str(step) if step <= min(t.price[item[1]] * 9 // 10, cash - 100) else ""
        if kind == "jail":
            return "pay" if "pay" in q[0] else "roll"
        if kind == "choose":
            costs = game.option_costs(seat) or game.option_costs(seat, worth=game.net_worth(seat))
            return str(costs.index(min(costs)) + 1)
        if kind == "answer_trade":
            trade = q[0]
            asked = sum(t.price[s] for s in trade.get_spaces)
            return "y" if trade.give_cash >= asked * 3 // 2 else "n"
        if kind == "raise_funds":
            return "1"
        if kind == "lift_mortgage":
            return "y" if cash > 3 * game.unmortgage_cost(q[0]) else "n"
        if kind == "act":
            return self._act(game, seat)
        if kind in ("between", "between_menu"):  # builds before a rival's roll when it has cash to spare
            build = self._build(game, seat)
            return ("a" if kind == "between" else build) if build else ""
        return self.plan.pop(kind, "")

    def _build(self, game: Game, seat: int) -> str:
        """The menu number of a build it has the cash for with 150 to spare, or ""."""
        t = game.tables
        legal = menu_order(game.legal_actions(seat))
        for i, action in enumerate(legal, 1):
            if type(action) is Build and game.cash[seat] - t.house_cost[t.group_of[action.space]] > 150:
                return str(i)
        return ""

    def _act(self, game: Game, seat: int) -> str:
        t = game.tables
        cash = game.cash[seat]
        legal = menu_order(game.legal_actions(seat))
        build = self._build(game, seat)
        if build:
            return build
        if cash < 120:
            for i, action in enumerate(legal, 1):
                if type(action) is Mortgage:
                    return str(i)
        if cash > 800:
            for i, action in enumerate(legal, 1):
                if type(action) is Unmortgage:
                    return str(i)
        target = self._missing_lot(game, seat)
        if target is not None and self._trades == 0:
            lot, holder = target
            offer = t.price[lot] * 8 // 5
            if offer <= cash - 100:
                self.offered.add(target)
                others = [p for p in range(game.players) if p != seat and not game.bankrupt[p]]
                theirs = [s for s in t.ownable if game.owner[s] == holder]
                self.plan = {"trade_who": str(others.index(holder) + 1), "give_cash": str(offer),
                             "get_lots": str(theirs.index(lot) + 1), "confirm": "y"}
                return "t"
        return ""

    def _missing_lot(self, game: Game, seat: int) -> tuple[int, int] | None:
        """A lot of a group this seat has started, held by a bot it has not asked yet."""
        t = game.tables
        for g, members in enumerate(t.members):
            if not t.buildable[g] or any(game.buildings[m] for m in members):
                continue
            if not any(game.owner[m] == seat for m in members):
                continue
            for lot in members:
                holder = game.owner[lot]
                if holder not in (-1, seat) and not game.bankrupt[holder] and (lot, holder) not in self.offered:
                    return lot, holder
        return None


def scripted_game(seed: int = SEED, *, players: str = PLAYERS, variant: str = VARIANT,
                  max_turns: int = MAX_TURNS) -> tuple[ScriptedPerson, list[dict[str, Any]], Game]:
    """The scripted person's game played in-process: the person, the events, the game."""
    ruleset = monopoly.load_ruleset(RULESET, [variant])
    names = parse_players(players)
    narrator = Narrator(ruleset, echo=lambda line: None)
    person = ScriptedPerson(names[0], narrator)
    agents = [RecordingAgent(person)] + [make_agent(n) for n in names[1:]]
    events: list[dict[str, Any]] = []
    game = Game(ruleset, agents, seed=seed, max_turns=max_turns, observers=[narrator, events.append])
    game.play()
    return person, json.loads(json.dumps(events)), game


@pytest.fixture(scope="module")
def script() -> tuple[ScriptedPerson, list[dict[str, Any]], Game]:
    return scripted_game()


def typed(lines: Sequence[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def play(args: Sequence[str], lines: Sequence[str] = (), cwd: Path | None = None) -> Any:
    result = CliRunner().invoke(cli, ["play", *args], input=typed(lines))
    return result


# ---------------------------------------------------------------------- the whole game through stdin


def test_the_scripted_game_has_every_kind_of_decision(script):
    """The script is worth playing: buying, refusing and bidding, jail, building evenly,
    mortgaging, trading, and wrong answers at every question (if the engine changes so
    much that this fails, pick another SEED)."""
    person, events, game = script
    assert game.finished and game.end_reason in ("bankruptcies", "last_standing"), game.end_reason
    mine = [e for e in events if e.get("seat") == 0 or e.get("proposer") == 0]
    kinds = {e["type"] for e in mine}
    assert {"buy", "build", "mortgage", "trade"} <= kinds, kinds
    assert any(e["type"] == "decision" and e["kind"] == "buy" and e["answer"] is False for e in events)
    assert any(e["type"] == "decision" and e["kind"] == "bid" and e["answer"] > 0 for e in events)
    assert any(e["type"] == "jail" and e["seat"] == 0 and e["how"] == "paid" for e in events)
    assert any(e["type"] == "trade" and e["proposer"] == 0 and e["accepted"] for e in events)
    assert any(e["type"] == "trade" and e["proposer"] == 0 and not e["accepted"] for e in events)
    decided = {e["kind"] for e in events if e["type"] == "decision"}
    assert {"buy", "bid", "jail", "act", "between", "answer_trade", "raise_funds"} <= decided, decided
    wrong = {person.typed[i] for i, k in enumerate(person.kinds) if k == "wrong"}
    assert {"maybe", "lots", "99", "nobody", "ten", "perhaps"} <= wrong
    # building evenly: a street never gets two buildings more than another of its group
    t = game.tables
    levels = [0] * t.size
    for e in events:
        if e["type"] in ("build", "sell"):
            levels[e["space"]] = e["level"]
            group = t.members[t.group_of[e["space"]]]
            assert max(levels[m] for m in group) - min(levels[m] for m in group) <= 1


def test_typed_script_plays_the_same_game_and_explains_wrong_answers(script, tmp_path):
    person, events, _ = script
    log = tmp_path / "game.jsonl"
    result = play([*GAME_ARGS, "--log", str(log)], person.typed)
    assert result.exit_code == 0, result.output[-3000:]
    assert read_log(log) == events
    out = result.output
    for i, kind in enumerate(person.kinds):
        if kind == "wrong":
            assert EXPLAINED[person.typed[i]] in out, person.typed[i]
    assert "You can answer:" in out and "Tokens and owners:" in out  # help and board
    assert "Game over after" in out and "Winner:" in out
    assert "Traceback" not in out


def test_save_quit_and_resume_gives_the_same_game(script, tmp_path):
    """The Must-show: quit in the middle with --save, resume, finish: the same game as straight through."""
    person, events, _ = script
    straight_log = tmp_path / "straight.jsonl"
    straight = play([*GAME_ARGS, "--log", str(straight_log)], person.typed)
    assert straight.exit_code == 0, straight.output[-2000:]

    last_turn = events[-1]["turns"]
    cut_turn = last_turn // 2
    cut = next(i for i, turn in enumerate(person.turns) if turn >= cut_turn)
    resumed_from = person.turns[cut]  # the first turn with a question at or after the cut
    save, log = tmp_path / "game.save", tmp_path / "game.jsonl"
    first = play([*GAME_ARGS, "--save", str(save), "--log", str(log)], [*person.typed[:cut], "quit"])
    assert first.exit_code == 0, first.output[-2000:]
    assert f"as it was after turn {resumed_from - 1}" in first.output
    assert "--resume" in first.output
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["game"]["state"]["turn"] == resumed_from - 1

    second = play(["--resume", str(save), "--log", str(log)], person.typed[cut:])
    assert second.exit_code == 0, second.output[-2000:]
    assert f"Resuming the game saved after turn {resumed_from - 1}" in second.output
    assert log.read_bytes() == straight_log.read_bytes()
    ending = straight.output[straight.output.index("Game over after"):]
    assert ending in second.output
    assert json.loads(save.read_text(encoding="utf-8"))["game"]["state"]["finished"] is True


def test_a_log_of_older_rules_is_not_continued_by_a_resumed_game(script, tmp_path):
    """A save whose log was written by an older version of the rules (here: the log's first line says version 3,
    and the save vouches for it) resumes, but its log is not continued under other rules: the person is told
    to give another --log file (or --force to replace it with the rest of the game)."""
    import hashlib

    person, _events, _ = script
    save, log = tmp_path / "game.save", tmp_path / "game.jsonl"
    cut = len(person.typed) // 3
    first = play([*GAME_ARGS, "--save", str(save), "--log", str(log)], [*person.typed[:cut], "quit"])
    assert first.exit_code == 0, first.output[-2000:]
    saved = json.loads(save.read_text(encoding="utf-8"))
    lines = log.read_bytes().splitlines(keepends=True)[:saved["log"]["events"]]
    start = json.loads(lines[0])
    start["rules"] = 3
    lines[0] = (json.dumps(start, separators=(",", ":")) + "\n").encode("utf-8")
    log.write_bytes(b"".join(lines))
    saved["log"]["sha256"] = hashlib.sha256(b"".join(lines)).hexdigest()
    save.write_text(json.dumps(saved), encoding="utf-8")
    resumed = play(["--resume", str(save), "--log", str(log)], [])
    assert resumed.exit_code == 1
    assert "written by the rules of version 3, and this program plays version" in resumed.output
    assert "Traceback" not in resumed.output


def test_saved_after_every_turn_and_resumed_after_an_interruption(script, tmp_path):
    """stdin ends in the middle (a closed terminal): the save of the last whole turn goes on exactly."""
    person, events, _ = script
    save, log = tmp_path / "game.save", tmp_path / "game.jsonl"
    cut = len(person.typed) // 3
    first = play([*GAME_ARGS, "--save", str(save), "--log", str(log)], person.typed[:cut])
    assert first.exit_code == 1
    assert "Interrupted. The game is saved in" in first.output
    turn = json.loads(save.read_text(encoding="utf-8"))["game"]["state"]["turn"]
    rest = next(i for i, t in enumerate(person.turns) if t > turn)
    second = play(["--resume", str(save), "--log", str(log)], person.typed[rest:])
    assert second.exit_code == 0, second.output[-2000:]
    assert read_log(log) == events


def test_replay_tells_a_played_game_in_the_same_words(script, tmp_path):
    person, _, _ = script
    log = tmp_path / "game.jsonl"
    played = play([*GAME_ARGS, "--log", str(log)], person.typed)
    told = CliRunner().invoke(cli, ["replay", str(log)])
    assert told.exit_code == 0, told.output
    # every line of the replay is a line of the game as it was played (between the questions)
    played_lines = played.output.splitlines()
    replay_lines = [line for line in told.output.splitlines() if line]
    position = 0
    for line in replay_lines:
        while not played_lines[position].endswith(line):
            position += 1
        position += 1
    verified = CliRunner().invoke(cli, ["replay", str(log), "--verify"])
    assert verified.exit_code == 0, verified.output
    assert "replay identically" in verified.output


# ---------------------------------------------------------------------- bots only, options, errors


def test_bots_only_game_is_told_like_its_replay(tmp_path):
    log = tmp_path / "bots.jsonl"
    played = play(["classic", "--players", "greedy,cautious,random", "--seed", "9", "--max-turns", "80",
                   "--log", str(log)])
    assert played.exit_code == 0, played.output
    told = CliRunner().invoke(cli, ["replay", str(log)])
    assert told.output == played.output


def test_unknown_player_and_missing_ruleset_are_usage_errors():
    result = play(["classic", "--players", "you,greedyy"])
    assert result.exit_code == 2
    assert "did you mean 'greedy'" in result.output
    assert play(["classic", "--players", "you,human:"]).exit_code == 2
    result = play([])
    assert result.exit_code == 2 and "--resume" in result.output
    result = play(["classic", "--players", "you"])
    assert result.exit_code == 2 and "2 to 8 players" in result.output
    result = play(["--resume", "x.save", "--seed", "3"])
    assert result.exit_code == 2 and "cannot be changed when resuming" in result.output


@pytest.mark.parametrize("content", ["", "not json at all", '{"format": "something-else"}', "[1, 2, 3]",
                                     '{"format": "monopoly-play", "version": 1, "players": ["human"]}',
                                     '{"format": "monopoly-play", "version": 99}'])
def test_a_corrupt_or_foreign_save_is_refused_and_left_alone(tmp_path, content):
    save = tmp_path / "game.save"
    save.write_text(content, encoding="utf-8")
    result = play(["--resume", str(save)])
    assert result.exit_code == 1, result.output
    assert "Error:" in result.output and "Traceback" not in result.output
    assert save.read_text(encoding="utf-8") == content


def test_a_save_of_another_game_is_refused(tmp_path):
    save = tmp_path / "game.save"
    assert play(["classic", "--players", "greedy,greedy", "--seed", "1", "--max-turns", "4",
                 "--save", str(save)]).exit_code == 0
    data = json.loads(save.read_text(encoding="utf-8"))
    data["game"]["state"]["cash"] = [1]  # a damaged state
    save.write_text(json.dumps(data), encoding="utf-8")
    before = save.read_bytes()
    result = play(["--resume", str(save)])
    assert result.exit_code == 1 and "has 1 entries" in result.output
    assert save.read_bytes() == before
    result = play(["uk", "--resume", str(save)])
    assert result.exit_code == 1 and "ruleset" in result.output


def test_save_does_not_overwrite_a_file_that_is_not_a_save(tmp_path):
    precious = tmp_path / "thesis.txt"
    precious.write_text("years of work", encoding="utf-8")
    result = play(["classic", "--players", "greedy,greedy", "--max-turns", "3", "--save", str(precious)])
    assert result.exit_code == 1 and "already exists (it is not a monopoly save" in result.output
    assert precious.read_text(encoding="utf-8") == "years of work"


def test_save_is_atomic_and_leaves_no_temporary_file(tmp_path):
    save = tmp_path / "game.save"
    result = play(["classic", "--players", "greedy,cautious", "--seed", "2", "--max-turns", "10",
                   "--save", str(save)])
    assert result.exit_code == 0
    assert os.listdir(tmp_path) == ["game.save"]
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["format"] == "monopoly-play" and data["game"]["state"]["turn"] == 10


def test_time_limit_game_keeps_its_clock_in_the_save(tmp_path):
    save = tmp_path / "game.save"
    result = play(["classic", "--variant", "time-limit", "--players", "greedy,cautious", "--seed", "2",
                   "--max-turns", "6", "--save", str(save)])
    assert result.exit_code == 0, result.output
    left = json.loads(save.read_text(encoding="utf-8"))["time_left"]
    assert 90 * 60 - 60 < left <= 90 * 60


def test_resume_accepts_the_engines_own_save(tmp_path):
    ruleset = monopoly.load_ruleset("classic")
    game = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=6, max_turns=40)
    for _ in range(7):
        game.play_turn()
    save = tmp_path / "engine.save"
    save.write_text(json.dumps(monopoly.game_to_json(game)), encoding="utf-8")
    result = play(["--resume", str(save)])
    assert result.exit_code == 0, result.output
    assert "Resuming the game saved after turn 7" in result.output
    straight = Game(ruleset, [make_agent("greedy"), make_agent("cautious")], seed=6, max_turns=40)
    straight.play()
    assert json.loads(save.read_text(encoding="utf-8"))["game"]["state"]["cash"] == straight.cash


def test_labels_come_from_the_agent_names():
    assert seat_labels(["human", "greedy"]) == ["You", "greedy"]
    assert seat_labels(["human", "human", "greedy"]) == ["Player 1", "Player 2", "greedy"]
    assert seat_labels(["human:Ada", "human:Bo"]) == ["Ada", "Bo"]
    assert parse_players("You, human:Ada ,greedy") == ["human", "human:Ada", "greedy"]


# ---------------------------------------------------------------------- scenarios, one question at a time


class Table:
    """A game with people and bots set up exactly, played through the real play loop."""

    def __init__(self, players: str = "you,greedy,greedy", seed: int = 1):
        self.ruleset = monopoly.load_ruleset("classic")
        self.names = parse_players(players)
        self.narrator = Narrator(self.ruleset)
        self.events: list[dict[str, Any]] = []
        self.game = Game(self.ruleset, make_agents(self.names, self.narrator), seed=seed,
                         observers=[self.narrator, self.events.append])
        self.game.start()

    def ready(self, dice: Sequence[tuple[int, int]] = ()) -> None:
        """After a set-up by hand: tell the narrator where everyone stands, fix the dice."""
        self.narrator.start_from(self.game, self.names)
        self.game.fix_dice(dice)

    def play(self, lines: Sequence[str], turns: int = 1, save: Path | None = None) -> str:
        """Type ``lines`` into ``turns`` turns of the play loop; the screen."""
        game = self.game
        game.max_turns = game.turn + turns
        session = Session(game, self.narrator, self.names, "classic", [], save)
        runner = CliRunner()
        with runner.isolation(input=typed(lines)) as (out, _err, _both):
            try:
                session.run()
            except SystemExit as exit_:
                if exit_.code:
                    raise AssertionError(out.getvalue().decode()) from None
            return out.getvalue().decode()

    def of(self, type_: str, **fields: Any) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def test_buying_after_a_wrong_answer():
    table = Table()
    table.ready([(1, 2)])
    screen = table.play(["maybe", "", ""])
    assert "Baltic Avenue is for sale at $60" in screen
    assert "'maybe' is not an answer here: please answer yes or no" in screen
    assert table.game.owner[3] == 0
    assert "You buy Baltic Avenue for $60." in screen


def test_refusing_then_bidding_in_the_auction():
    table = Table()
    table.ready([(1, 2)])
    # n: no; then bids: a word, more than the cash, not above the high bid, then 61 beats greedy's limit of 60
    screen = table.play(["n", "10", "abc", "99999", "5", "61", ""])
    assert "is not an amount" in screen
    assert "You have only $1,500: bid at most that" in screen
    assert "A bid must be more than the highest bid, $12" in screen
    assert table.of("auction", space=3) == [{"type": "auction", "item": "space", "space": 3, "winner": 0,
                                              "price": 61, "bids": 4}]
    assert "Auction of Baltic Avenue: You win it for $61 (4 bids)." in screen
    assert [e["answer"] for e in table.of("decision", kind="bid")] == [10, 61]


def test_going_to_jail_and_paying_out():
    table = Table()
    game = table.game
    game.position[0] = 25
    table.ready([(2, 3), (1, 2), (1, 3), (6, 4)])
    # the act after going to jail; before greedy-3's turn and before one's own (greedy-2 owns a lot since its
    # turn: there is something to trade), Enter passes; in jail
    screen = table.play(["", "", "", "dance", "2", ""], turns=4)
    assert "Before greedy-3's turn: press Enter to pass" in screen and "Before your turn: press Enter" in screen
    assert "You go to jail." in screen
    assert "You are in jail. What do you do?" in screen
    assert "'dance' is not a choice here: type roll, pay." in screen
    assert "You pay the $50 jail fine." in screen and "You are out of jail." in screen
    assert game.position[0] == 20 and game.jail_turns[0] == -1




def test_building_evenly_mortgaging_and_lifting_the_mortgage():
    table = Table()
    game = table.game
    for space in (1, 3, 5):  # the brown group and a railroad
        game.give(space, 0)
    table.ready([(4, 6)])  # to Jail, just visiting: no question on the way
    screen = table.play(["1", "1", "5", "5", ""])  # build, build, mortgage the railroad, lift it
    menus = screen.split("Before the next turn you may:")[1:]
    assert "build:         1. Mediterranean Avenue (house 1, $50)  2. Baltic Avenue (house 1, $50)" in menus[0]
    # after a house on Mediterranean, only Baltic may be built on: the menu follows the engine
    assert "build:         1. Baltic Avenue (house 1, $50)\n" in menus[1]
    assert "sell:          2. Mediterranean Avenue (house 1)" in menus[1]
    assert "1. Mediterranean Avenue (house 2, $50)  2. Baltic Avenue (house 2, $50)" in menus[2]
    assert "mortgage:      5. Reading Railroad (+$100)" in menus[2]
    assert "lift mortgage: 5. Reading Railroad ($110)" in menus[3]
    assert [(e["space"], e["level"]) for e in table.of("build")] == [(1, 1), (3, 1)]
    assert table.of("mortgage", seat=0, space=5) and table.of("unmortgage", seat=0, space=5)
    assert game.buildings[1] == game.buildings[3] == 1 and not game.mortgaged[5]
    assert "You mortgage Reading Railroad for $100." in screen
    assert "You lift the mortgage on Reading Railroad for $110." in screen


def test_building_before_a_rivals_roll_with_one_key_to_pass_the_others():
    """The rules let a player build "at any time": before each rival's turn the person is asked in one line,
    Enter passes, `a` opens the menu. Here, after greedy-2's turn and before greedy-3's roll: `a`, then a house
    on each brown (`1`, `1`: the menu follows the even rule), then Enter."""
    table = Table()
    game = table.game
    for space in (1, 3):  # the brown group
        game.give(space, 0)
    game.current = 1
    table.ready([(4, 6), (4, 6)])  # greedy-2 then greedy-3 to Jail, just visiting: nothing bought
    screen = table.play(["a", "1", "1", ""], turns=2)
    assert "Before greedy-3's turn: press Enter to pass, or type a to build, sell, mortgage or trade." in screen
    assert "Before greedy-3's turn you may:" in screen
    builds = [(e["seat"], e["space"], e["level"]) for e in table.of("build")]
    assert builds == [(0, 1, 1), (0, 3, 1)]
    assert game.cash[0] == 1400 and game.current == 0
    turns = [i for i, e in enumerate(table.events) if e["type"] == "turn"]
    first_build = table.events.index(table.of("build")[0])
    assert turns[0] < first_build < turns[1]  # between greedy-2's turn and greedy-3's


def test_a_new_chance_between_turns_counts_the_offers_afresh():
    """Offers made at an earlier chance do not use up a later one: with nothing to build, the person is still
    asked before a rival's turn, since a trade may be offered."""
    table = Table()
    game = table.game
    game.give(3, 1)  # greedy-2 owns a lot: there is something to trade for
    game.agents[0].inner._trades = game.rules.trades_per_phase  # the offers of an earlier chance, all made
    game.current = 1
    table.ready([(4, 6)])
    screen = table.play([""], turns=2)
    assert "Before greedy-3's turn: press Enter to pass" in screen


def test_proposing_a_trade_with_wrong_answers_and_a_refused_offer():
    table = Table("you,trader,greedy")
    game = table.game
    game.give(1, 0)
    game.give(6, 1)
    game.mortgaged[6] = True
    table.ready([(4, 6)])
    lines = ["t", "5", "1",           # to whom: not listed, then the trader
             "", "abc", "50",         # lots you give: none; cash: a word, then 50
             "2", "1", "5000",        # lots you want: not listed, then Oriental; cash: more than the trader has
             "1", "", "130", "1", "", "y",  # the engine says no: again, $130 for Oriental, send it
             "later", "y",            # Oriental comes mortgaged: lift it now
             ""]
    screen = table.play(lines)
    assert "'5' is not one of the players listed" in screen
    assert "'abc' is not an amount" in screen
    assert "'2' is not one of the lots trader owns" in screen
    assert "That offer is not allowed: seat 1 has only 1500 (no loans between players). Let's start again." \
        in screen
    assert "Offer trader $130 for Oriental Avenue? [Y/n]" in screen
    assert "You offer trader $130 for Oriental Avenue: trader accepts." in screen
    assert "Oriental Avenue comes to you mortgaged" in screen
    assert "'later' is not an answer here" in screen
    assert game.owner[6] == 0 and not game.mortgaged[6]
    assert [e["accepted"] for e in table.of("trade")] == [True]


def test_a_bot_proposes_a_trade_to_the_person():
    table = Table("you,trader,greedy")
    game = table.game
    game.give(6, 0)
    game.give(8, 1)
    game.give(9, 1)
    table.ready([(4, 6), (1, 2), (1, 3)])
    screen = table.play(["", "hmm", "y"], turns=2)
    assert "trader offers you $150 for Oriental Avenue. You have $1,500." in screen
    assert "'hmm' is not an answer here" in screen
    assert "trader offers you $150 for Oriental Avenue: You accept." in screen
    assert game.owner[6] == 1 and game.cash[0] == 1650


def test_raising_money_for_a_debt():
    table = Table()
    game = table.game
    game.give(3, 0)
    game.give(5, 1)
    game.cash[0] = 10
    table.ready([(2, 3)])  # to Reading Railroad: $25 rent to greedy
    screen = table.play(["x", "1", ""])
    assert "You must pay $25 and have $10: sell or mortgage to raise $15." in screen
    assert "'x' is not a choice" in screen
    assert game.mortgaged[3] and game.cash[0] == 15
    assert "You pay $25 rent to greedy-2 for Reading Railroad." in screen


def test_choosing_how_to_pay_income_tax():
    table = Table()
    table.ready([(1, 3)])
    screen = table.play(["7", "2", ""])
    assert "1. pay 200\n" in screen and "2. pay 10% of net worth\n" in screen  # no figure: chosen first
    assert "'7' is not a choice: type a number from 1 to 2." in screen
    assert table.of("choice", seat=0)[0]["chosen"] == 1
    assert table.game.cash[0] == 1350


def test_quit_offers_to_save_and_the_save_resumes(tmp_path):
    table = Table()
    table.ready([(1, 2)])
    save = tmp_path / "later.save"
    screen = table.play(["quit", str(tmp_path / "missing" / "x.save"), str(save)])
    assert "Save the game (as it was before the first turn) before quitting?" in screen
    assert "Cannot save there" in screen
    assert f"Saved in {save}. Continue with: monopoly play --resume {save}" in screen
    result = play(["--resume", str(save)], [""] * 10)
    assert result.exit_code == 0, result.output
    assert "Resuming the game saved before the first turn" in result.output
    assert "Game over after 1 turns" in result.output


def test_quit_without_saving():
    table = Table()
    table.ready([(1, 2)])
    screen = table.play(["quit", ""])
    assert "The game was not saved." in screen


def test_hot_seat_asks_each_person_by_name():
    table = Table("human:Ada,human:Bo")
    table.ready([(1, 2), (1, 2)])
    screen = table.play(["y", "", "", ""], turns=2)  # Bo may act before his own turn: Enter passes
    assert "Ada: Baltic Avenue is for sale at $60" in screen
    assert "Bo: Before your turn: press Enter to pass" in screen
    assert "Ada> " in screen and "Bo> " in screen
    assert "Bo pays $4 rent to Ada for Baltic Avenue." in screen


def test_help_board_and_holdings_at_a_question():
    table = Table()
    game = table.game
    game.give(1, 0)
    game.give(3, 0)
    table.ready([(4, 6)])
    screen = table.play(["help", "board", "me", "players", "bogus", ""])
    assert "You can answer:" in screen and "quit     stop playing" in screen
    assert " 1 Mediterranean Avenue  Brown      #1" in screen
    assert "Brown - full group: Mediterranean Avenue, Baltic Avenue" in screen
    assert "greedy-3: $1,500 cash, on GO." in screen
    assert "'bogus' is not a choice" in screen


@pytest.mark.parametrize("answer", ["n", "no", ""])
def test_no_at_the_save_question_saves_nothing(answer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "you,greedy", "--seed", "3"],
                                input=f"quit\n{answer}\n")
    assert result.exit_code == 0, result.output
    assert "The game was not saved." in result.output
    assert list(tmp_path.iterdir()) == []


def test_yes_at_the_save_question_asks_for_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "you,greedy", "--seed", "3"],
                                input="quit\ny\ngame.json\n")
    assert result.exit_code == 0, result.output
    assert "Type the name of the file" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_builtin_name_is_saved_as_the_name_even_beside_a_file_of_that_name(script, tmp_path, monkeypatch):
    """A folder or file in the working folder named like the built-in ruleset or variant (a folder of classic
    logs) does not turn the names into paths in the save, so the save resumes."""
    person, _events, _ = script
    monkeypatch.chdir(tmp_path)
    (tmp_path / RULESET).mkdir()
    (tmp_path / VARIANT).write_text("not a ruleset", encoding="utf-8")
    save = tmp_path / "game.save"
    cut = len(person.typed) // 3
    first = play([*GAME_ARGS, "--save", str(save)], person.typed[:cut])
    assert first.exit_code == 1 and "Interrupted. The game is saved in" in first.output
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert (saved["ruleset"], saved["variants"]) == (RULESET, [VARIANT])
    turn = saved["game"]["state"]["turn"]
    rest = next(i for i, t in enumerate(person.turns) if t > turn)
    second = play(["--resume", str(save)], person.typed[rest:])
    assert second.exit_code == 0, second.output[-2000:]


def test_a_save_and_a_log_that_are_one_file_are_refused_before_any_turn(script, tmp_path):
    person, _events, _ = script
    both = tmp_path / "game.json"
    result = play([*GAME_ARGS, "--save", str(both), "--log", str(both)], person.typed)
    assert result.exit_code == 2 and "the save and the log would be one file" in result.output
    assert not both.exists()
    forced = play([*GAME_ARGS, "--save", str(both), "--log", str(both), "--force"], person.typed)
    assert forced.exit_code == 2 and not both.exists()


def test_resuming_refuses_at_once_what_it_could_not_save_to(script, tmp_path):
    """A resumed game goes on saving to its file: a link there, or a --log naming the same file, is refused
    before a turn is played (the person would lose that turn)."""
    person, _events, _ = script
    save = tmp_path / "game.save"
    cut = len(person.typed) // 3
    assert play([*GAME_ARGS, "--save", str(save)], person.typed[:cut]).exit_code == 1
    before = save.read_bytes()
    link = tmp_path / "link.save"
    link.symlink_to(save)
    linked = play(["--resume", str(link)], person.typed[cut:])
    assert linked.exit_code == 2 and "is a symbolic link" in linked.output and "Resuming" not in linked.output
    one = play(["--resume", str(save), "--log", str(save)], person.typed[cut:])
    assert one.exit_code == 2 and "the save and the log would be one file" in one.output
    assert save.read_bytes() == before
    elsewhere = tmp_path / "other.save"  # through the link, saving elsewhere, it goes on
    turn = json.loads(before)["game"]["state"]["turn"]
    rest = next(i for i, t in enumerate(person.turns) if t > turn)
    moved = play(["--resume", str(link), "--save", str(elsewhere)], person.typed[rest:])
    assert moved.exit_code == 0, moved.output[-2000:]
    assert elsewhere.exists() and save.read_bytes() == before


@pytest.mark.parametrize("person", ["\x1b]0;pwn\x07", "Ada\u202eevil", "x" * 59])
def test_a_persons_name_that_no_log_or_terminal_may_hold_is_refused(person):
    result = play(["classic", "--players", f"human:{person},greedy"])
    assert result.exit_code == 2 and "a person's name is at most 58 printable characters" in result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_a_persons_name_of_58_characters_plays():
    result = play(["classic", "--players", "human:" + "y" * 58 + ",greedy", "--max-turns", "1"], ["quit", "n"])
    assert result.exit_code != 2 and "a person's name" not in result.output
