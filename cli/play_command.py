"""`monopoly play`: people against bots (or each other) in the terminal, with save, resume and a log.

The game is the engine's; this module seats the players, tells the events
(:class:`~monopoly.cli.render_text.Narrator`), asks people through
:class:`~monopoly.cli.human.HumanAgent`, and saves after every turn. People's
answers go into the event log as ``decision`` events (RecordingAgent), so that
``monopoly replay LOG --verify`` can play the game again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import random
import time
from pathlib import Path
from typing import IO, Any

import click

from monopoly import (
    BOTS,
    MAX_AGENT_NAME,
    RULES_VERSION,
    TURN_CEILING,
    Agent,
    AgentProcessError,
    EventLog,
    Game,
    RecordingAgent,
    Ruleset,
    SaveError,
    escape,
    game_from_json,
    game_to_json,
    is_builtin_name,
    make_agent,
    open_regular,
    read_save_file,
    safe_name,
)

from .files import FORCE_OPTION, open_output, shown, write_atomic
from .human import HumanAgent, QuitGame
from .render_text import HUMAN, Narrator, holdings_lines, is_human
from .ruleset_commands import VARIANT_OPTION, load_or_exit
from .simulate_command import AGENT_TIMEOUT_OPTION, exec_agent

DEFAULT_PLAYERS = "you,greedy,cautious"
#: The turn limit of a game of bots alone, when none is given (as `monopoly simulate`'s): with nobody to
#: stop it, a game between bots that do not trade may never end.
BOTS_ONLY_TURNS = 1000
#: The save file of `monopoly play`: the engine's save plus what the command needs to go on.
#: Version 2: the log entry holds the count and hash of the events logged, never a path
#: (version 1 named the log file, and a save could then send the log over any file).
FORMAT = "monopoly-play"
VERSION = 2
READS_VERSIONS = (1, 2)
#: Events a game's log may hold and still be continued (a long game has a few thousand).
MAX_LOG_EVENTS = 1_000_000
#: The longest line of a log (monopoly.game.log reads none longer).
MAX_LOG_LINE = 64 * 1024
#: The engine's own save format (game_to_json), also accepted by --resume.
ENGINE_FORMAT = "monopoly-save"


# ---------------------------------------------------------------------- players


def parse_players(text: str, processes: dict[int, Any] | None = None, agent_timeout: float = 10.0) -> list[str]:
    """Agent names by seat: ``you`` or ``human`` is a person (``human:Ada`` a named one), ``exec:COMMAND`` an agent
    in another process (its maker put in ``processes`` by seat, when given); others are bots."""
    names = []
    for raw in text.split(","):
        name = raw.strip()
        low = name.lower()
        if processes is not None and name.startswith("exec:"):
            maker = exec_agent(name[len("exec:"):], agent_timeout)
            processes[len(names)] = maker
            names.append(maker.name)
            continue
        if not name:
            raise click.BadParameter(f"empty player in '{text}'; give one player a seat, separated by commas: "
                                     f"you, human:NAME or a bot ({', '.join(BOTS)})", param_hint="'--players'")
        if low in ("you", HUMAN):
            names.append(HUMAN)
        elif low.startswith(HUMAN + ":"):
            person = name[len(HUMAN) + 1:].strip()
            if not person:
                raise click.BadParameter(f"'{name}': give the person's name after 'human:'", param_hint="'--players'")
            full = f"{HUMAN}:{person}"
            if safe_name(full, "") != full:  # it goes into the log and on every line of the game
                raise click.BadParameter(f"'{escape(name)}': a person's name is at most {MAX_AGENT_NAME - 6} "
                                         "printable characters (no control or direction characters)",
                                         param_hint="'--players'")
            names.append(full)
        else:
            try:
                make_agent(name)
            except ValueError as exc:
                raise click.BadParameter(f"{exc}; a person is 'you' or 'human:NAME'",
                                         param_hint="'--players'") from None
            names.append(name)
    return names


def make_agents(names: list[str], narrator: Narrator, processes: dict[int, Any] | None = None) -> list[Agent]:
    """People and agents in other processes (their decisions recorded for replay) and bots, by seat."""
    processes = processes or {}
    return [RecordingAgent(processes[seat]()) if seat in processes else
            RecordingAgent(HumanAgent(name, narrator)) if is_human(name) else make_agent(name)
            for seat, name in enumerate(names)]


# ---------------------------------------------------------------------- save files


def save_json(path: Path, data: Any, *, replace: bool) -> None:
    """Write a save so that a crash leaves the old file or the new one, never half of one."""
    write_atomic(path, json.dumps(data, separators=(",", ":")), force=replace)


def read_save(path: Path) -> dict[str, Any]:
    """A save file's data, every field checked; a clear ClickException (exit 1) when it is not one of ours."""
    try:
        data = read_save_file(path, formats={FORMAT: READS_VERSIONS, ENGINE_FORMAT: 1})
    except SaveError as exc:
        raise click.ClickException(escape(str(exc))) from None
    if data["format"] == FORMAT:
        problems = _envelope_problems(data)
        if problems:
            raise click.ClickException(f"{escape(str(path))}: the save file is damaged: " + "; ".join(problems[:10]))
    return data


def _envelope_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with the fields `monopoly play` adds around the engine's save."""
    problems = []
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        problems.append("'players' is not a list of names")
    else:
        for name in players:
            if not is_human(name) and not name.startswith("exec:"):  # exec: seats are refused on resuming
                try:
                    make_agent(name)
                except ValueError:
                    problems.append(f"player {escape(name)[:40]!r} is neither a person nor a bot "
                                    f"({', '.join(BOTS)})")
    if not isinstance(data.get("ruleset"), str):
        problems.append("'ruleset' is not a name")
    variants = data.get("variants")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        problems.append("'variants' is not a list of names")
    time_left = data.get("time_left")
    if time_left is not None and (type(time_left) not in (int, float) or not math.isfinite(time_left)
                                  or time_left < 0):
        problems.append("'time_left' is not a number of seconds")
    log = data.get("log")
    if log is not None:
        if not isinstance(log, dict):
            problems.append("'log' is not a mapping")
        else:
            events = log.get("events")
            if type(events) is not int or not 0 <= events <= MAX_LOG_EVENTS:
                problems.append(f"the log's event count is not a whole number from 0 to {MAX_LOG_EVENTS:,}")
            digest = log.get("sha256")
            if data.get("version", 1) >= 2 and "sha256" not in log:
                problems.append("the log entry has no sha256")
            elif digest is not None and (not isinstance(digest, str) or len(digest) != 64
                                         or any(c not in "0123456789abcdef" for c in digest)):
                problems.append("the log's sha256 is not a hash")
    if not isinstance(data.get("game"), dict):
        problems.append("'game' is not the engine's save")
    return problems


def check_save_target(path: Path, *, force: bool = False) -> None:
    """Refuse a --save file that exists (unless --force), a folder, a link, or a place that does not exist."""
    try:
        _check_save_target(path, force)
    except OSError as exc:  # a name too long for the system, a folder that cannot be read...
        raise click.BadParameter(f"cannot save to {shown(path)}: {exc.strerror or exc}", param_hint="'--save'") \
            from None


def _check_save_target(path: Path, force: bool) -> None:
    if os.path.islink(path):
        raise click.BadParameter(f"{escape(str(path))} is a symbolic link; the program never writes through one",
                                 param_hint="'--save'")
    if not path.exists():
        if not path.parent.is_dir() and str(path.parent):
            raise click.BadParameter(f"folder {escape(str(path.parent))} does not exist", param_hint="'--save'")
        return
    if path.is_dir():
        raise click.BadParameter(f"{escape(str(path))} is a folder", param_hint="'--save'")
    if not force:
        shown = escape(str(path))
        try:
            read_save(path)
            how = f"continue that game with --resume {shown}, give --force to replace it,"
        except click.ClickException:
            how = "it is not a monopoly save; give --force to replace it,"
        raise click.ClickException(f"not writing {shown}: it already exists ({how} or choose another --save file)")


def _source(name: str) -> str:
    """How a ruleset or variant is written in a save: a built-in name as it is, a file by absolute path."""
    return name if is_builtin_name(name) else str(Path(name).resolve())


# ---------------------------------------------------------------------- a session


class Session:
    """A game being played: the game, its narrator, its log and where it is saved."""

    def __init__(self, game: Game, narrator: Narrator, players: list[str], ruleset_source: str,
                 variant_sources: list[str], save_path: Path | None, *, replace_save: bool = False,
                 clock: Clock | None = None):
        self.game = game
        #: the time-limit rules' clock, kept here (the engine has none): told to the game between turns
        self.clock = clock
        for agent in game.agents:
            person = getattr(agent, "inner", agent)
            if isinstance(person, HumanAgent):
                person.clock = clock
        self.narrator = narrator
        self.players = players
        self.ruleset_source = ruleset_source
        self.variant_sources = variant_sources
        self.save_path = save_path
        #: whether the next save may replace the file: the first save of a new game replaces
        #: nothing unless --force; a resumed file, or one this session wrote, is ours to replace
        self.replace_save = replace_save
        self.log: EventLog | None = None
        self.log_file: _HashingWriter | None = None
        self.log_before = 0  # events of the log written before this session (a resumed game)
        self.last: dict[str, Any] = {}

    def open_log(self, handle: IO[str], before: int = 0, digest: Any = None) -> None:
        """Log the game to ``handle``, which already holds ``before`` events hashed into ``digest``."""
        self.log_file = _HashingWriter(handle, digest)
        self.log_before = before
        self.log = EventLog(self.log_file)  # type: ignore[arg-type]  # a text file to EventLog
        self.game.observe(self.log)

    def close_log(self) -> None:
        if self.log is not None and self.log_file is not None:
            with contextlib.suppress(OSError):  # a full disk was already reported; closing must not raise again
                self.log.close()
                self.log_file.close()
            self.log = None

    def snapshot(self) -> dict[str, Any]:
        game = self.game
        time_left = None if self.clock is None else self.clock.left()
        log = None
        if self.log is not None and self.log_file is not None:
            log = {"events": self.log_before + self.log.count, "sha256": self.log_file.hexdigest()}
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
        save_json(path, data, replace=self.replace_save)
        self.replace_save = True  # written by this session: ours from now on

    def run(self) -> None:
        """Play turns until the game ends or a person quits."""
        game = self.game
        self.last = self.snapshot()
        try:
            while not game.finished:
                if self.clock is not None and self.clock.left() <= 0:
                    game.time_up()  # the game ends now, between turns
                    self.after_turn()
                    break
                game.play_turn()
                self.after_turn()
        except QuitGame:
            self.narrator.flush()
            self.quit()
            return
        except OSError as exc:  # the log could not be written on (a full disk, say): the save is kept
            self.narrator.flush()
            click.echo("")
            where = f"; the game is saved in {shown(self.save_path)} as it was {self._when()}" if self.save_path else ""
            click.echo(f"Stopped: cannot write the game's log ({exc.strerror or exc}){where}.", err=True)
            raise SystemExit(1) from None
        except (click.Abort, EOFError, KeyboardInterrupt):
            self.narrator.flush()
            click.echo("")
            if self.save_path is not None:
                click.echo(f"Interrupted. The game is saved in {shown(self.save_path)} as it was "
                           f"{self._when()}; continue with: monopoly play --resume {shown(self.save_path)}")
            else:
                click.echo("Interrupted; the game was not saved.")
            raise SystemExit(1) from None
        finally:
            self.close_log()
        if self.save_path is not None:
            click.echo(f"The finished game is saved in {shown(self.save_path)}.")

    def _when(self) -> str:
        turn = self.last["game"]["state"]["turn"]
        return f"after turn {turn}" if turn else "before the first turn"

    def quit(self) -> None:
        """A person typed quit: offer to save the game as it was at the start of this turn."""
        data = self.last
        if self.save_path is not None:
            self.save(self.save_path, data)
            click.echo(f"The game is saved in {shown(self.save_path)} as it was {self._when()}. "
                       f"Continue with: monopoly play --resume {shown(self.save_path)}")
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
            if escape(name) != name or len(name) > 1000:
                click.echo("Cannot save there: a file name holds no control characters. Type another name, "
                           "or press Enter.")
                continue
            path = Path(name)
            try:
                replace = False
                if os.path.lexists(path) and not os.path.islink(path) and not path.is_dir():
                    if not click.confirm(f"{escape(name)} already exists. Replace it?", default=False):
                        click.echo("Type another name, or press Enter to quit without saving.")
                        continue
                    replace = True
                check_save_target(path, force=replace)
                save_json(path, data, replace=replace)
            except click.ClickException as exc:
                click.echo(f"Cannot save there: {exc.format_message()}")
                continue
            except (OSError, ValueError) as exc:
                click.echo(f"Cannot save there ({escape(str(exc))[:200]}). Type another name, or press Enter.")
                continue
            click.echo(f"Saved in {shown(path)}. Continue with: monopoly play --resume {shown(path)}")
            return


class Clock:
    """The time-limit rules' clock of a game at the table: the minutes the ruleset gives (or what a save had
    left), running from now. The engine keeps no clock; the session tells the game when this one runs out."""

    def __init__(self, seconds: float):
        self.deadline = time.monotonic() + seconds

    @classmethod
    def of(cls, ruleset: Ruleset, time_left: Any = None) -> Clock | None:
        if ruleset.rules.end.when != "time":
            return None
        return cls(float(time_left) if isinstance(time_left, (int, float)) else ruleset.rules.end.minutes * 60.0)

    def left(self) -> float:
        """Seconds left (0 when it has run out)."""
        return max(0.0, self.deadline - time.monotonic())


# ---------------------------------------------------------------------- the command


@click.command("play")
@click.argument("ruleset", metavar="[NAME_OR_PATH]", required=False)
@VARIANT_OPTION
@click.option("--players", default=None, metavar="A,B,...",
              help=f"One player a seat, in order: 'you' (or 'human', 'human:NAME') for a person, a bot "
                   f"({', '.join(BOTS)}), or exec:COMMAND for an agent in another process (docs/protocol.md). "
                   f"Several people play hot-seat. [default: {DEFAULT_PLAYERS}]")
@click.option("--seed", type=int, default=None, help="Seed of the game (default: a random one, shown at the start).")
@click.option("--max-turns", type=click.IntRange(min=1, max=TURN_CEILING), default=None,
              help=f"Stop the game after this many turns (it then has no winner). A game of bots alone stops after "
                   f"{BOTS_ONLY_TURNS} unless this says otherwise.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Save the game to FILE after every turn (with --resume: the resumed file).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Continue a saved game exactly where it stopped.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the event log to FILE (JSON Lines; `monopoly replay FILE` reads it). With --resume: the "
                   "game's log, continued where the save left it.")
@AGENT_TIMEOUT_OPTION
@FORCE_OPTION
def play_command(ruleset: str | None, variants: tuple[str, ...], players: str | None, seed: int | None,
                 max_turns: int | None, save_path: Path | None, resume_path: Path | None,
                 log_path: Path | None, agent_timeout: float, force: bool) -> None:
    """Play a game in the terminal against bots, or hot-seat with other people.

    Every decision is asked in plain words with the choices listed; at any
    question, `help` lists what you can answer, `board` shows the board, `me`
    your properties, `players` everyone's, and `quit` stops (offering to save).

    Files are written only where you say: --save and --log refuse a file that
    exists unless --force is given (a resumed game goes on saving to its own
    save file, and its log goes on in the --log file you name, once it is
    checked to be this game's log).
    """
    if resume_path is not None:
        for given, option in ((players, "--players"), (seed, "--seed"), (max_turns, "--max-turns")):
            if given is not None:
                raise click.UsageError(f"{option} cannot be changed when resuming: the save holds it")
        session = _resume(resume_path, ruleset, variants, save_path, log_path, force)
    else:
        if ruleset is None:
            raise click.UsageError("give the ruleset to play (NAME_OR_PATH, e.g. classic), or --resume FILE")
        session = _new(ruleset, variants, players or DEFAULT_PLAYERS, seed, max_turns, save_path, log_path, force,
                       agent_timeout)
    try:
        session.run()
    except AgentProcessError as exc:  # an exec: seat died, stayed silent or flooded: named, exit 1
        raise click.ClickException(f"seat {exc.seat}'s agent failed at {exc.kind!r}: {escape(exc.reason)}") from None
    finally:
        for agent in session.game.agents:  # an agent in another process is ended with the game
            agent.close()


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file (by name, or, when both exist, by what they are)."""
    if os.path.abspath(one) == os.path.abspath(other):
        return True
    try:
        return os.path.exists(one) and os.path.exists(other) and os.path.samefile(one, other)
    except OSError:
        return False


def _check_outputs(save_path: Path | None, log_path: Path | None) -> None:
    """Refuse, before any turn is played, a save and a log that are one file (each would destroy the other)."""
    if save_path is not None and log_path is not None and _same_file(save_path, log_path):
        raise click.UsageError(f"the save and the log would be one file ({shown(log_path)}): give --log another "
                               "file than the save")


def _new(ruleset_name: str, variants: tuple[str, ...], players: str, seed: int | None, max_turns: int | None,
         save_path: Path | None, log_path: Path | None, force: bool, agent_timeout: float) -> Session:
    processes: dict[int, Any] = {}
    names = parse_players(players, processes, agent_timeout)
    loaded = load_or_exit(ruleset_name, variants)
    problem = loaded.players_problem(len(names))
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--players'")
    if save_path is not None:
        check_save_target(save_path, force=force)
    _check_outputs(save_path, log_path)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    narrator = Narrator(loaded)
    if max_turns is None and not any(is_human(name) for name in names):
        max_turns = BOTS_ONLY_TURNS  # nobody at the keyboard to stop it: bots alone may play for ever
    try:
        game = Game(loaded, make_agents(names, narrator, processes), seed=seed, max_turns=max_turns,
                    observers=[narrator])
    except AgentProcessError as exc:
        raise click.ClickException(f"seat {exc.seat}'s agent could not start: {escape(exc.reason)}") from None
    session = Session(game, narrator, names, _source(ruleset_name), [_source(v) for v in variants], save_path,
                      replace_save=force, clock=Clock.of(loaded))
    if log_path is not None:
        session.open_log(open_output(log_path, force=force))
    return session


def _resume(path: Path, ruleset_name: str | None, variants: tuple[str, ...], save_path: Path | None,
            log_path: Path | None, force: bool) -> Session:
    target = save_path if save_path is not None else path  # where the game goes on being saved
    check_save_target(target, force=True)  # a link or a folder refused now, not after the first turn played
    _check_outputs(target, log_path)
    data = read_save(path)
    if data["format"] == FORMAT:
        names = list(data["players"])
        source, saved_variants = data["ruleset"], list(data["variants"])
        engine_save = data["game"]
        processes = [seat for seat, name in enumerate(names) if name.startswith("exec:")]
        if processes:  # a save names no program to run: what it says never decides what is started
            raise click.ClickException(f"{escape(str(path))}: seat {processes[0]} was played by an agent in another "
                                       f"process ({escape(names[processes[0]])}); a save never starts a program, so "
                                       "this game cannot be resumed here")
    else:  # the engine's own save: bots by name, people as "human..."
        agents, saved = data.get("agents"), data.get("ruleset")
        if (not isinstance(agents, list) or not all(isinstance(n, str) for n in agents) or not isinstance(saved, dict)
                or not isinstance(saved.get("id"), str) or not isinstance(saved.get("variants"), list)
                or not all(isinstance(v, str) for v in saved["variants"])):
            raise click.ClickException(f"{escape(str(path))}: the save file is damaged (its agents or ruleset)")
        names, source, saved_variants, engine_save = list(agents), saved["id"], list(saved["variants"]), data
        for name in names:
            if not is_human(name):
                try:
                    make_agent(name)
                except ValueError as exc:
                    raise click.ClickException(f"{escape(str(path))}: the save file is damaged ({exc})") from None
    loaded = load_or_exit(ruleset_name or source, variants or saved_variants)
    narrator = Narrator(loaded)
    try:
        game = game_from_json(engine_save, loaded, make_agents(names, narrator))
    except SaveError as exc:
        raise click.ClickException(f"{escape(str(path))}: {exc}") from None
    game.observe(narrator)
    if game.max_turns is None and not any(is_human(name) for name in names) and not game.finished:
        game.max_turns = max(BOTS_ONLY_TURNS, game.turn + 1)
        click.echo(f"note: only bots play this game, which has no turn limit: it stops after turn {game.max_turns}.",
                   err=True)
    narrator.start_from(game, names)
    if save_path is not None and save_path != path:
        check_save_target(save_path, force=force)
    session = Session(game, narrator, names, _source(ruleset_name) if ruleset_name else source,
                      [_source(v) for v in variants] if variants else saved_variants,
                      save_path if save_path is not None else path,
                      replace_save=force or save_path is None or save_path == path,
                      clock=Clock.of(loaded, data.get("time_left")))
    saved_log = data.get("log") if data["format"] == FORMAT else None
    if log_path is not None:
        _continue_log(session, log_path, saved_log, force)
    elif isinstance(saved_log, dict):
        click.echo(f"warning: this game was logged ({saved_log['events']} events); give --log FILE with its log "
                   "file to go on writing it (a save never says where to write). The rest of this game is not "
                   "logged.", err=True)
    turn = game.turn
    click.echo(f"Resuming the game saved {'after turn ' + str(turn) if turn else 'before the first turn'} "
               f"(seed {game.seed}).")
    if game.finished:
        click.echo("This game is over.")
        for seat in range(game.players):
            for line in holdings_lines(game, narrator.words, seat):
                click.echo(line)
    return session


def _continue_log(session: Session, log_path: Path, saved_log: Any, force: bool) -> None:
    """Go on writing the game's log in the file the person named, or start a new one there.

    The file goes on only if its first events are the ones the save counted (their
    SHA-256 matches); it is cut back to them, so events logged after the save (a
    turn left half way) go. Any other file that exists, or any file for a save
    that keeps no hash (version 1), is replaced only with --force, and then holds
    the rest of the game.
    """
    shown = escape(str(log_path))
    if isinstance(saved_log, dict) and os.path.lexists(log_path):
        try:
            length, digest = _log_prefix(log_path, saved_log)
        except click.ClickException as exc:
            if not force:
                raise click.ClickException(f"{exc.message}; give --force to replace {shown} with the rest of "
                                           "the game, or another --log file") from None
        else:
            session.open_log(_reopen_at(log_path, length), saved_log["events"], digest)
            return
    elif isinstance(saved_log, dict):
        click.echo(f"warning: {shown} is new: it holds only the rest of the game", err=True)
    elif not os.path.lexists(log_path):
        click.echo(f"warning: the saved game had no log; {shown} holds only the rest of the game", err=True)
    session.open_log(open_output(log_path, force=force))


def _log_prefix(path: Path, saved_log: dict[str, Any]) -> tuple[int, Any]:
    """The byte length and running hash of the first events of the log at ``path``, checked against the save."""
    count = saved_log["events"]
    shown = escape(str(path))
    if count == 0:
        raise click.ClickException(f"{shown} exists, and the save logged no events to check it against")
    if "sha256" not in saved_log:  # a version 1 save: nothing can vouch for the file
        raise click.ClickException(f"{shown} exists, and this older save keeps no hash of its log to check it by")
    digest = hashlib.sha256()
    length = lines = 0
    try:
        with open_regular(path) as file:  # a pipe or a device is refused, not read without end
            while lines < count:
                raw = file.readline(MAX_LOG_LINE + 2)
                if not raw.endswith(b"\n") or len(raw) > MAX_LOG_LINE + 1:
                    break
                digest.update(raw)
                length += len(raw)
                lines += 1
    except OSError as exc:
        raise click.ClickException(f"cannot read {shown}: {exc.strerror or 'not a regular file'}") from None
    expected = saved_log.get("sha256")
    if lines != count or (expected is not None and digest.hexdigest() != expected):
        raise click.ClickException(f"{shown} is not the log of this game as it was saved ({count} events)")
    logged = _logged_rules(path)
    if logged != RULES_VERSION:
        raise click.ClickException(f"{shown} was written by the rules of version {logged}, and this program plays "
                                   f"version {RULES_VERSION}: the rest of the game would be logged by other rules "
                                   "than its start, and the log could not be replayed")
    return length, digest


def _logged_rules(path: Path) -> Any:
    """The rules version the first line (``game_start``) of the log at ``path`` names (1 when it names none)."""
    try:
        with open_regular(path) as file:
            start = json.loads(file.readline(MAX_LOG_LINE + 2))
    except (OSError, ValueError):
        return "unknown"
    rules = start.get("rules", 1) if isinstance(start, dict) else "unknown"
    return rules if type(rules) is int else "unknown"


def _reopen_at(path: Path, length: int) -> IO[str]:
    """The file at ``path`` open for writing after its first ``length`` bytes (the rest cut), never through a link."""
    try:
        descriptor = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        os.ftruncate(descriptor, length)
        os.lseek(descriptor, length, os.SEEK_SET)
    except OSError as exc:
        raise click.ClickException(f"cannot continue the game's log {escape(str(path))}: {exc.strerror}") from None
    return os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")


class _HashingWriter:
    """A text file that keeps the SHA-256 of everything written to it (the save records it)."""

    def __init__(self, handle: IO[str], digest: Any = None):
        self.handle = handle
        self.digest = digest if digest is not None else hashlib.sha256()
        self.name = getattr(handle, "name", "<log>")

    def write(self, text: str) -> int:
        self.digest.update(text.encode("utf-8"))
        return self.handle.write(text)

    def flush(self) -> None:
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()

    def hexdigest(self) -> str:
        return self.digest.hexdigest()
