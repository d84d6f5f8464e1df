"""`monopoly play`: people against bots (or each other) in the terminal, with save, resume and a log.

The game is the engine's; this module seats the players, tells the events
(:class:`~monopoly.cli.render_text.Narrator`), asks people through
:class:`~monopoly.cli.human.HumanAgent`, and saves after every turn. People's
answers go into the event log as ``decision`` events (RecordingAgent), so that
``monopoly replay LOG --verify`` can play the game again.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from pathlib import Path
from typing import IO, Any

import click

from monopoly.agents import BOTS, Agent, RecordingAgent, make_agent
from monopoly.game.game import Game
from monopoly.game.log import EventLog
from monopoly.game.save import SaveError, game_from_json, game_to_json
from monopoly.ruleset import Ruleset

from .files import write_atomic
from .human import HumanAgent, QuitGame
from .render_text import HUMAN, Narrator, holdings_lines, is_human
from .ruleset_commands import VARIANT_OPTION, load_or_exit

DEFAULT_PLAYERS = "you,greedy,cautious"
#: The save file of `monopoly play`: the engine's save plus what the command needs to go on.
FORMAT = "monopoly-play"
VERSION = 1
#: The engine's own save format (game_to_json), also accepted by --resume.
ENGINE_FORMAT = "monopoly-save"


# ---------------------------------------------------------------------- players


def parse_players(text: str) -> list[str]:
    """Agent names by seat: ``you`` or ``human`` is a person (``human:Ada`` a named one); others are bots."""
    names = []
    for raw in text.split(","):
        name = raw.strip()
        low = name.lower()
        if not name:
            raise click.BadParameter(f"empty player in '{text}'; give one player a seat, separated by commas: "
                                     f"you, human:NAME or a bot ({', '.join(BOTS)})", param_hint="'--players'")
        if low in ("you", HUMAN):
            names.append(HUMAN)
        elif low.startswith(HUMAN + ":"):
            person = name[len(HUMAN) + 1:].strip()
            if not person:
                raise click.BadParameter(f"'{name}': give the person's name after 'human:'", param_hint="'--players'")
            names.append(f"{HUMAN}:{person}")
        else:
            try:
                make_agent(name)
            except ValueError as exc:
                raise click.BadParameter(f"{exc}; a person is 'you' or 'human:NAME'",
                                         param_hint="'--players'") from None
            names.append(name)
    return names


def make_agents(names: list[str], narrator: Narrator) -> list[Agent]:
    """People (their decisions recorded for replay) and bots, by seat."""
    return [RecordingAgent(HumanAgent(name, narrator)) if is_human(name) else make_agent(name) for name in names]


# ---------------------------------------------------------------------- save files


def save_json(path: Path, data: Any) -> None:
    """Write a save so that a crash leaves the old file or the new one, never half of one."""
    write_atomic(path, json.dumps(data, separators=(",", ":")))


def read_save(path: Path) -> dict[str, Any]:
    """A save file's data; a clear ClickException (exit 1) when it is not one of ours."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise click.ClickException(f"{path} is not a monopoly save file (it is not text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{path} is not a monopoly save file, or it is damaged "
                                   f"(not valid JSON: {exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, ENGINE_FORMAT):
        raise click.ClickException(f"{path} is not a monopoly save file")
    if data["format"] == FORMAT and data.get("version") != VERSION:
        raise click.ClickException(f"{path}: save version {data.get('version')!r} is not supported "
                                   f"(this program reads version {VERSION})")
    return data


def check_save_target(path: Path) -> None:
    """Refuse to overwrite a file that exists and is not a monopoly save."""
    if not path.exists():
        if not path.parent.is_dir() and str(path.parent):
            raise click.BadParameter(f"folder {path.parent} does not exist", param_hint="'--save'")
        return
    if path.is_dir():
        raise click.BadParameter(f"{path} is a folder", param_hint="'--save'")
    try:
        read_save(path)
    except click.ClickException as exc:
        raise click.ClickException(f"{exc.message}; not overwriting it (choose another --save file)") from None


def _source(name: str) -> str:
    """How a ruleset or variant is written in a save: a built-in name as it is, a file by absolute path."""
    return str(Path(name).resolve()) if os.path.exists(name) else name


# ---------------------------------------------------------------------- a session


class Session:
    """A game being played: the game, its narrator, its log and where it is saved."""

    def __init__(self, game: Game, narrator: Narrator, players: list[str], ruleset_source: str,
                 variant_sources: list[str], save_path: Path | None):
        self.game = game
        self.narrator = narrator
        self.players = players
        self.ruleset_source = ruleset_source
        self.variant_sources = variant_sources
        self.save_path = save_path
        self.log: EventLog | None = None
        self.log_file: IO[str] | None = None
        self.log_path: Path | None = None
        self.log_before = 0  # events of the log written before this session (a resumed game)
        self.last: dict[str, Any] = {}

    def open_log(self, path: Path, prefix: list[str]) -> None:
        try:
            self.log_file = path.open("w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {path}: {exc.strerror}", param_hint="'--log'") from None
        self.log_file.writelines(prefix)
        self.log_before = len(prefix)
        self.log_path = path.resolve()
        self.log = EventLog(self.log_file)
        self.game.observe(self.log)

    def close_log(self) -> None:
        if self.log is not None and self.log_file is not None:
            self.log.close()
            self.log_file.close()
            self.log = None

    def snapshot(self) -> dict[str, Any]:
        game = self.game
        time_left = None if game.deadline is None else max(0.0, game.deadline - time.monotonic())
        log = None
        if self.log is not None and self.log_path is not None:
            log = {"path": str(self.log_path), "events": self.log_before + self.log.count}
        return {"format": FORMAT, "version": VERSION, "ruleset": self.ruleset_source,
                "variants": self.variant_sources, "players": self.players, "time_left": time_left,
                "log": log, "game": game_to_json(game)}

    def after_turn(self) -> None:
        if self.log is not None:
            self.log.flush()
        self.last = self.snapshot()
        if self.save_path is not None:
            self.save(self.save_path, self.last)

    def save(self, path: Path, data: dict[str, Any]) -> None:
        try:
            save_json(path, data)
        except OSError as exc:
            raise click.ClickException(f"cannot save the game to {path}: {exc.strerror}") from None

    def run(self) -> None:
        """Play turns until the game ends or a person quits."""
        game = self.game
        self.last = self.snapshot()
        try:
            while not game.finished:
                game.play_turn()
                self.after_turn()
        except QuitGame:
            self.narrator.flush()
            self.quit()
            return
        except (click.Abort, EOFError, KeyboardInterrupt):
            self.narrator.flush()
            click.echo("")
            if self.save_path is not None:
                click.echo(f"Interrupted. The game is saved in {self.save_path} as it was "
                           f"{self._when()}; continue with: monopoly play --resume {self.save_path}")
            else:
                click.echo("Interrupted; the game was not saved.")
            raise SystemExit(1) from None
        finally:
            self.close_log()
        if self.save_path is not None:
            click.echo(f"The finished game is saved in {self.save_path}.")

    def _when(self) -> str:
        turn = self.last["game"]["state"]["turn"]
        return f"after turn {turn}" if turn else "before the first turn"

    def quit(self) -> None:
        """A person typed quit: offer to save the game as it was at the start of this turn."""
        data = self.last
        if self.save_path is not None:
            self.save(self.save_path, data)
            click.echo(f"The game is saved in {self.save_path} as it was {self._when()}. "
                       f"Continue with: monopoly play --resume {self.save_path}")
            return
        click.echo(f"Save the game (as it was {self._when()}) before quitting? "
                   "Type a file name (e.g. game.json), or press Enter (or n) to quit without saving.")
        while True:
            try:
                name = click.prompt("", prompt_suffix="save as> ", default="", show_default=False).strip()
            except click.Abort:
                name = ""
            if not name or name.lower() in ("n", "no"):
                click.echo("The game was not saved.")
                return
            if name.lower() in ("y", "yes"):
                click.echo("Type the name of the file to save to (e.g. game.json), or press Enter.")
                continue
            path = Path(name)
            try:
                check_save_target(path)
                save_json(path, data)
            except click.ClickException as exc:
                click.echo(f"Cannot save there: {exc.format_message()}")
                continue
            except OSError as exc:
                click.echo(f"Cannot save there: {exc.strerror}. Type another name, or press Enter.")
                continue
            click.echo(f"Saved in {path}. Continue with: monopoly play --resume {path}")
            return


def _deadline(ruleset: Ruleset, time_left: Any = None) -> float | None:
    if ruleset.rules.end.when != "time":
        return None
    seconds = float(time_left) if isinstance(time_left, (int, float)) else ruleset.rules.end.minutes * 60.0
    return time.monotonic() + seconds


# ---------------------------------------------------------------------- the command


@click.command("play")
@click.argument("ruleset", metavar="[NAME_OR_PATH]", required=False)
@VARIANT_OPTION
@click.option("--players", default=None, metavar="A,B,...",
              help=f"One player a seat, in order: 'you' (or 'human', 'human:NAME') for a person, or a bot "
                   f"({', '.join(BOTS)}). Several people play hot-seat. [default: {DEFAULT_PLAYERS}]")
@click.option("--seed", type=int, default=None, help="Seed of the game (default: a random one, shown at the start).")
@click.option("--max-turns", type=click.IntRange(min=1), default=None,
              help="Stop the game after this many turns (it then has no winner).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Save the game to FILE after every turn (with --resume: the resumed file).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Continue a saved game exactly where it stopped.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the event log to FILE (JSON Lines; `monopoly replay FILE` reads it).")
def play_command(ruleset: str | None, variants: tuple[str, ...], players: str | None, seed: int | None,
                 max_turns: int | None, save_path: Path | None, resume_path: Path | None,
                 log_path: Path | None) -> None:
    """Play a game in the terminal against bots, or hot-seat with other people.

    Every decision is asked in plain words with the choices listed; at any
    question, `help` lists what you can answer, `board` shows the board, `me`
    your properties, `players` everyone's, and `quit` stops (offering to save).
    """
    if resume_path is not None:
        for given, option in ((players, "--players"), (seed, "--seed"), (max_turns, "--max-turns")):
            if given is not None:
                raise click.UsageError(f"{option} cannot be changed when resuming: the save holds it")
        session = _resume(resume_path, ruleset, variants, save_path, log_path)
    else:
        if ruleset is None:
            raise click.UsageError("give the ruleset to play (NAME_OR_PATH, e.g. classic), or --resume FILE")
        session = _new(ruleset, variants, players or DEFAULT_PLAYERS, seed, max_turns, save_path, log_path)
    session.run()


def _new(ruleset_name: str, variants: tuple[str, ...], players: str, seed: int | None, max_turns: int | None,
         save_path: Path | None, log_path: Path | None) -> Session:
    names = parse_players(players)
    loaded = load_or_exit(ruleset_name, variants)
    if not loaded.min_players <= len(names) <= loaded.max_players:
        raise click.BadParameter(f"{loaded.name} is played by {loaded.min_players} to {loaded.max_players} "
                                 f"players, not {len(names)}", param_hint="'--players'")
    if save_path is not None:
        check_save_target(save_path)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    narrator = Narrator(loaded)
    game = Game(loaded, make_agents(names, narrator), seed=seed, max_turns=max_turns, observers=[narrator])
    game.deadline = _deadline(loaded)
    session = Session(game, narrator, names, _source(ruleset_name), [_source(v) for v in variants], save_path)
    if log_path is not None:
        session.open_log(log_path, [])
    return session


def _resume(path: Path, ruleset_name: str | None, variants: tuple[str, ...], save_path: Path | None,
            log_path: Path | None) -> Session:
    data = read_save(path)
    try:
        if data["format"] == FORMAT:
            names = [str(n) for n in data["players"]]
            source, saved_variants = str(data["ruleset"]), [str(v) for v in data["variants"]]
            engine_save = data["game"]
        else:  # the engine's own save: bots by name, people as "human..."
            names = [str(n) for n in data["agents"]]
            source, saved_variants = str(data["ruleset"]["id"]), [str(v) for v in data["ruleset"]["variants"]]
            engine_save = data
    except (KeyError, TypeError) as exc:
        raise click.ClickException(f"{path}: the save file is damaged ({type(exc).__name__}: {exc})") from None
    loaded = load_or_exit(ruleset_name or source, variants or saved_variants)
    narrator = Narrator(loaded)
    try:
        game = game_from_json(engine_save, loaded, make_agents(names, narrator))
    except SaveError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    game.observe(narrator)
    game.deadline = _deadline(loaded, data.get("time_left"))
    narrator.start_from(game, names)
    session = Session(game, narrator, names, _source(ruleset_name) if ruleset_name else source,
                      [_source(v) for v in variants] if variants else saved_variants,
                      save_path if save_path is not None else path)
    if save_path is not None and save_path != path:
        check_save_target(save_path)
    saved_log = data.get("log") if data["format"] == FORMAT else None
    if isinstance(saved_log, dict) or log_path is not None:
        prefix: list[str] = []
        target = log_path
        if isinstance(saved_log, dict):
            saved_path = Path(str(saved_log.get("path")))
            target = target if target is not None else saved_path
            try:
                prefix = _log_prefix(saved_path, saved_log.get("events"))
            except click.ClickException as exc:
                if log_path is None or log_path.resolve() == saved_path.resolve():
                    raise click.ClickException(f"{exc.message} (give --log FILE to write the rest of the game "
                                               "to another file)") from None
                click.echo(f"warning: {exc.message}; {log_path} holds only the rest of the game", err=True)
        else:
            click.echo(f"warning: the saved game had no log; {log_path} holds only the rest of the game", err=True)
        assert target is not None
        session.open_log(target, prefix)
    turn = game.turn
    click.echo(f"Resuming the game saved {'after turn ' + str(turn) if turn else 'before the first turn'} "
               f"(seed {game.seed}).")
    if game.finished:
        click.echo("This game is over.")
        for seat in range(game.players):
            for line in holdings_lines(game, narrator.words, seat):
                click.echo(line)
    return session


def _log_prefix(path: Path, count: Any) -> list[str]:
    """The first ``count`` lines of the log of a saved game (the log goes on from there)."""
    if not isinstance(count, int) or count < 0:
        raise click.ClickException("the save file is damaged (its log entry has no event count)")
    try:
        with path.open(encoding="utf-8", newline="") as file:
            lines = list(itertools.islice(file, count))
    except OSError as exc:
        raise click.ClickException(f"cannot continue the game's log {path}: {exc.strerror}") from None
    if len(lines) < count or (lines and not lines[-1].endswith("\n")):
        raise click.ClickException(f"the game's log {path} has {len(lines)} events where the save expects {count}")
    return lines
