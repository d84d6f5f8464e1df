"""An agent in another process, in any language, spoken to by the agents protocol over its standard input and
output (:mod:`monopoly.agents.protocol`, docs/protocol.md).

``ProcessAgent("python my_bot.py")`` starts the command when it is seated, says ``hello``, and asks each
decision of its seat as a ``decision`` line; the process writes an ``answer`` line. Every line it writes is
acknowledged (``ack``): a line that is too long, not JSON, of the wrong type or for another decision, and an
illegal answer, are refused with the reason and change nothing; after two refused lines for one decision the
engine takes the answer that risks nothing (a ``refused`` event in the log). A process that dies, stays silent
past the timeout or floods the engine with lines ends the game with :class:`AgentProcessError`, naming the seat
and the decision; nothing waits for ever. The command comes from whoever runs the program (the command line),
never from a file the program reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..game.decisions import Decision, check_answer, safe_name
from ..ruleset.problems import escape
from .base import Agent
from .describe import options
from .protocol import (
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    VIEWS,
    BadLine,
    answer_of,
    decision_message,
    hello,
    public_event,
    read_message,
)

if TYPE_CHECKING:
    import random

    from ..game.game import Game
    from .base import AuctionItem

#: Seconds an agent has to answer a decision (and its hello), unless told otherwise.
DEFAULT_TIMEOUT = 10.0
#: Lines refused for one decision after which the engine takes the answer that risks nothing.
MAX_ATTEMPTS = 2
#: Lines one decision may receive at most (answers, refused lines); more is a flood.
MAX_LINES_PER_DECISION = 64
#: Bytes one decision may receive at most.
MAX_BYTES_PER_DECISION = 8 * MAX_LINE_BYTES
#: One line of JSON: compact, and plain ASCII (other characters escaped: the C encoder's quickest path).
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode
#: What is kept of the process's standard error, for the message of a failure.
STDERR_TAIL = 2000
#: The answer given to the engine after two refused lines that held no answer: the engine refuses it and takes
#: the answer that risks nothing.
NO_ANSWER = "<no answer: the agent's lines were refused>"


class AgentProcessError(RuntimeError):
    """The agent's process failed: it could not start, died, stayed silent past the timeout, flooded the engine
    or spoke another protocol. ``seat`` and ``kind`` (the decision, or ``"hello"``) say where."""

    def __init__(self, seat: int, kind: str, reason: str):
        super().__init__(f"seat {seat}'s agent process, at {kind!r}: {reason}")
        self.seat = seat
        self.kind = kind
        self.reason = reason


class ProcessAgent(Agent):
    """A seat played by the process ``command`` (a string split as a shell would, without a shell; or a list of
    arguments). ``timeout``: seconds for each answer. ``view``: what the decisions carry (``json``, ``text`` or
    ``both``), else what the process asks for in its hello (``json`` when it says nothing).

    ``stats`` counts what happened: decisions and seconds by kind, refused lines by code."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT, view: str | None = None,
                 name: str | None = None):
        self.argv = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
        if not self.argv:
            raise ValueError("an empty command")
        if not 0 < timeout <= 3600:  # NaN and infinity fail too
            raise ValueError("the timeout is a number of seconds above 0 and at most 3600")
        if view is not None and view not in VIEWS:
            raise ValueError(f"a view is one of {', '.join(VIEWS)}")
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.name = safe_name(name if name is not None else exec_name(self.command), "exec")
        self.timeout = float(timeout)
        self.view = view
        self.told_name: str | None = None  # the name the process gave in its hello
        self.stats: dict[str, Any] = {"decisions": 0, "by_kind": {}, "refused": {}, "messages": []}
        self._process: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = b""
        self._skipping = False  # inside a line longer than the limit: dropped up to its newline
        self._stderr = b""
        self._number = 0
        self._seen = 0  # the game's events the process has been sent
        self._last_bad: Any = None  # the answer last returned after two refusals (the engine refuses it again)

    # ------------------------------------------------------------------ the process

    def setup(self, game: Game, seat: int, rng: random.Random) -> None:
        super().setup(game, seat, rng)
        self.close()
        self._number = 0
        self._seen = 0
        self._buffer = b""  # nothing of an earlier game's process is read as this one's
        self._skipping = False
        self._stderr = b""
        try:
            self._process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise AgentProcessError(seat, "hello", f"cannot start {escape(self.command)[:200]}: "
                                                   f"{exc.strerror or exc}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        for stream in (self._process.stdout, self._process.stderr):
            os.set_blocking(stream.fileno(), False)
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._process.stdout, selectors.EVENT_READ, "out")
        self._selector.register(self._process.stderr, selectors.EVENT_READ, "err")
        self._send(seat, "hello", hello(game, seat, self.timeout))
        wait = max(self.timeout, DEFAULT_TIMEOUT)  # a program's start may take longer than an answer
        deadline = time.monotonic() + wait
        for _ in range(MAX_ATTEMPTS):
            line = self._line(seat, "hello", deadline, wait)
            try:
                message = read_message(line)
                if message.get("type") != "hello":
                    raise BadLine("bad_type", "the first message of an agent is its hello")
                view = message.get("view", "json")
                if view not in VIEWS:
                    raise BadLine("bad_type", f"\"view\" is one of {', '.join(VIEWS)}")
                protocol = message.get("protocol", PROTOCOL_VERSION)
                if protocol != PROTOCOL_VERSION:
                    raise BadLine("protocol", f"this engine speaks protocol {PROTOCOL_VERSION}, not "
                                              f"{str(protocol)[:20]}")
            except BadLine as bad:
                self._ack(seat, "hello", 0, False, bad.code, bad.reason)
                if bad.code == "protocol":
                    raise AgentProcessError(seat, "hello", bad.reason) from None
                continue
            told = message.get("name")
            self.told_name = told if isinstance(told, str) and told.isprintable() and len(told) <= 64 else None
            if self.view is None:
                self.view = view
            self._ack(seat, "hello", 0, True)
            return
        raise AgentProcessError(seat, "hello", "no hello came back, only lines the engine refuses")

    def close(self) -> None:
        """Tell the process the game is over (``end``), close its input, and end it if it does not stop within a
        second. Called after each game by the program's commands; safe to call twice."""
        process, self._process = self._process, None
        selector, self._selector = self._selector, None
        if selector is not None:
            selector.close()
        if process is None:
            return
        try:
            if process.stdin is not None:
                with contextlib.suppress(OSError):  # its input full or closed: the end goes unsaid
                    os.write(process.stdin.fileno(), b'{"type":"end"}\n')  # non-blocking: never waits
                with contextlib.suppress(OSError):
                    process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
        finally:  # whatever happened (Ctrl-C included): the process and all it started are ended
            _kill(process)
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            _kill(process)

    def _send(self, seat: int, kind: str, message: dict[str, Any]) -> None:
        self._write(seat, kind, (_ENCODE(message) + "\n").encode("ascii"))

    def _write(self, seat: int, kind: str, data: bytes) -> None:
        process = self._process
        assert process is not None and process.stdin is not None and self._selector is not None
        deadline = time.monotonic() + self.timeout
        fd = process.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                written = os.write(fd, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                raise self._dead(seat, kind) from None
            # its input is full: read what it writes meanwhile (a process blocked on its own output reads nothing)
            if time.monotonic() > deadline:
                raise AgentProcessError(seat, kind, f"it read nothing for {self.timeout:g} s")
            self._drain(seat, kind, 0.01)

    def _drain(self, seat: int, kind: str, wait: float) -> None:
        """Read what the process has written, waiting at most ``wait`` seconds for something."""
        assert self._selector is not None
        for key, _ in self._selector.select(wait):
            try:
                chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            if key.data == "err":
                if chunk:
                    self._stderr = (self._stderr + chunk)[-STDERR_TAIL:]
                else:
                    self._selector.unregister(key.fileobj)
                continue
            if not chunk:
                raise self._dead(seat, kind)
            self._buffer += chunk
            if len(self._buffer) > 2 * MAX_BYTES_PER_DECISION:
                raise AgentProcessError(seat, kind, "it wrote more than the engine reads for one decision")

    def _line(self, seat: int, kind: str, deadline: float, wait: float | None = None) -> bytes:
        """The next line the process writes (a line over the limit comes back cut at the limit: refused);
        ``wait`` is the seconds the deadline gave, for the message when it passes."""
        while True:
            newline = self._buffer.find(b"\n")
            if self._skipping:
                if newline < 0:
                    self._buffer = b""
                else:
                    self._buffer = self._buffer[newline + 1:]
                    self._skipping = False
                    return b"x" * (MAX_LINE_BYTES + 1)  # what read_message refuses as too long
            elif newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1:]
                return line
            elif len(self._buffer) > MAX_LINE_BYTES:
                self._buffer = b""
                self._skipping = True
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                given = wait if wait is not None else self.timeout
                raise AgentProcessError(seat, kind, f"no answer within {given:g} s")
            self._drain(seat, kind, min(left, 1.0))

    def _dead(self, seat: int, kind: str) -> AgentProcessError:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        tail = self._stderr.decode("utf-8", "replace").strip()
        said = f"; its last words: {escape(tail[-300:])}" if tail else ""
        if code is None:
            return AgentProcessError(seat, kind, f"the process closed its output (it still runs){said}")
        return AgentProcessError(seat, kind, f"the process ended (exit status {code}){said}")

    def _ack(self, seat: int, kind: str, number: int, ok: bool, code: str | None = None, reason: str | None = None,
             retry: bool = True) -> None:
        if ok:  # the common line, written without the encoder
            self._write(seat, kind, b'{"type":"ack","id":%d,"ok":true}\n' % number)
            return
        message: dict[str, Any] = {"type": "ack", "id": number, "ok": ok}
        if not ok:
            message.update({"code": code, "reason": reason, "retry": retry})
            refused = self.stats["refused"]
            refused[code] = refused.get(code, 0) + 1
            if len(self.stats["messages"]) < 20:
                self.stats["messages"].append(f"{kind} #{number}: {code}: {reason}")
        self._send(seat, kind, message)

    # ------------------------------------------------------------------ deciding

    def _decide(self, game: Game, seat: int, kind: str, args: tuple[Any, ...]) -> Any:
        if self._process is None:
            raise AgentProcessError(seat, kind, "the process is not running (the agent was closed)")
        started = time.perf_counter()
        decision = Decision(seat, kind, args)
        self._number += 1
        number = self._number
        events = [public_event(record) for record in game.events[self._seen:]] if self.view != "text" else []
        self._seen = len(game.events)
        numbered = options(game, decision) if self.view in ("text", "both") else None
        self._send(seat, kind, decision_message(game, decision, number, events, self.view or "json"))
        deadline = time.monotonic() + self.timeout
        attempts = lines = received = 0
        answer: Any = NO_ANSWER
        while True:
            lines += 1
            if lines > MAX_LINES_PER_DECISION:
                raise AgentProcessError(seat, kind, f"more than {MAX_LINES_PER_DECISION} lines for one decision")
            line = self._line(seat, kind, deadline)
            received += len(line) + 1
            if received > MAX_BYTES_PER_DECISION:
                raise AgentProcessError(seat, kind, f"more than {MAX_BYTES_PER_DECISION >> 20} MiB for one decision")
            try:
                answer = answer_of(read_message(line), decision, number, numbered)
            except BadLine as bad:
                if bad.code == "wrong_id" and attempts == 0 and lines < MAX_LINES_PER_DECISION:
                    # a late answer to an earlier decision: refused, and it costs this one no attempt
                    self._ack(seat, kind, number, False, bad.code, bad.reason)
                    continue
                attempts += 1
                self._ack(seat, kind, number, False, bad.code, bad.reason, retry=attempts < MAX_ATTEMPTS)
                if attempts >= MAX_ATTEMPTS:
                    answer = NO_ANSWER
                    break
                continue
            reason = check_answer(game, decision, answer)
            if reason is None:
                self._ack(seat, kind, number, True)
                break
            attempts += 1
            self._ack(seat, kind, number, False, "illegal", reason, retry=attempts < MAX_ATTEMPTS)
            if attempts >= MAX_ATTEMPTS:
                break
        self._last_bad = answer if attempts >= MAX_ATTEMPTS else None
        by_kind = self.stats["by_kind"].setdefault(kind, [0, 0.0, 0.0])
        spent = time.perf_counter() - started
        by_kind[0] += 1
        by_kind[1] += spent
        by_kind[2] = max(by_kind[2], spent)
        self.stats["decisions"] += 1
        return answer

    def buy(self, game: Game, seat: int, space: int) -> Any:
        return self._decide(game, seat, "buy", (space,))

    def bid(self, game: Game, seat: int, item: AuctionItem, high_bid: int, leader: int | None) -> Any:
        return self._decide(game, seat, "bid", (item, high_bid, leader))

    def jail(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._decide(game, seat, "jail", (options,))

    def choose(self, game: Game, seat: int, options: tuple[str, ...]) -> Any:
        return self._decide(game, seat, "choose", (options,))

    def act(self, game: Game, seat: int) -> Any:
        return self._decide(game, seat, "act", ())

    def between(self, game: Game, seat: int, to_move: int) -> Any:
        return self._decide(game, seat, "between", (to_move,))

    def answer_trade(self, game: Game, seat: int, trade: Any) -> Any:
        return self._decide(game, seat, "answer_trade", (trade,))

    def raise_funds(self, game: Game, seat: int, owed: int) -> Any:
        return self._decide(game, seat, "raise_funds", (owed,))

    def lift_mortgage(self, game: Game, seat: int, space: int) -> Any:
        return self._decide(game, seat, "lift_mortgage", (space,))

    def get_state(self) -> Any:
        return None  # the process keeps its own; a resumed game starts it afresh

    def set_state(self, state: Any) -> None:
        pass


def exec_name(command: str) -> str:
    """How an agent of ``command`` is named in logs and tables: ``exec:`` and the command, cut to fit the 64
    characters a name may have."""
    name = f"exec:{command}"
    return name if len(name) <= 64 else name[:61] + "..."


def _kill(process: subprocess.Popen[bytes]) -> None:
    """End the process and whatever it started (its session), then collect it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:  # gone already, or not its own group: the process alone
        with contextlib.suppress(OSError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=2.0)


class ProcessAgentFactory:
    """Makes a fresh :class:`ProcessAgent` of ``command`` for each game (a seat of ``simulate``; it is pickled to
    the worker processes, which start the command themselves). Built from the command line only: no file the
    program reads names a command to run."""

    def __init__(self, command: str, *, timeout: float = DEFAULT_TIMEOUT, view: str | None = None):
        ProcessAgent(command, timeout=timeout, view=view)  # the arguments checked now, not in a worker
        self.command = command
        self.timeout = timeout
        self.view = view
        self.name = safe_name(exec_name(command), "exec")

    def __call__(self) -> ProcessAgent:
        return ProcessAgent(self.command, timeout=self.timeout, view=self.view, name=self.name)

    def __repr__(self) -> str:
        return f"ProcessAgentFactory({self.command!r})"
