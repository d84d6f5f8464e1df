"""Batch simulation: many seeded games, in parallel processes, and their statistics.

Game ``i`` of a run (counting from 0) is played with seed ``seed + i`` and a
fresh set of agents, so each game is fixed by its own seed: the results, the
statistics and the event logs are the same whatever the number of workers.

>>> import monopoly
>>> from monopoly.sim import simulate
>>> run = simulate(monopoly.load_ruleset("classic"), ["greedy", "cautious"], games=4, seed=10, max_turns=100)
>>> [game.seed for game in run.results]
[10, 11, 12, 13]
>>> run.summary.games, sum(s.wins for s in run.summary.seats) + run.summary.no_winner
(4, 4)
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import logging
import math
import multiprocessing
import os
import signal
import statistics
import sys
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, Union

import attrs

from .agents import BOTS, make_agent
from .agents.process import AgentProcessError
from .agents.recorder import RecordingAgent
from .files import OutputError, create, open_regular, write_whole
from .game import BANK
from .game.apply import payment
from .game.core import TURN_CEILING
from .game.decisions import agent_name, safe_name
from .game.end import Result
from .game.game import Game, SetupError
from .game.log import EventLog
from .game.state import GameState, StateError
from .ruleset import Ruleset, load_ruleset

PathOrName = Union[str, "os.PathLike[str]"]
#: A seat's agent in a simulation: a built-in bot's name, or a factory (an Agent class, or any callable
#: taking no arguments) that makes a fresh agent for every game.
AgentSpec = Union[str, Callable[[], Any]]


def agent_factory(spec: AgentSpec) -> Callable[[], Any]:
    """What makes a fresh agent for ``spec``; ``ValueError`` for an unknown bot name or a spec that is neither."""
    if isinstance(spec, str):
        make_agent(spec)  # an unknown name fails here, with a "did you mean"
        return functools.partial(make_agent, spec)
    if callable(spec):
        return spec
    raise ValueError(f"an agent is a bot's name or a factory of agents, not {type(spec).__name__}")


def close_agents(agents: Sequence[Any]) -> None:
    """Let every agent of a game that is over go (``Agent.close``: a process ended); what one raises there is not
    the game's outcome, and the others are closed all the same."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):  # a user's agent's close: nothing of the game depends on it
                close()


def spec_name(spec: AgentSpec) -> str:
    """How a seat's agent is named in the statistics: the bot's name, or the factory's ``name`` or class name."""
    if isinstance(spec, str):
        return spec
    fallback = getattr(spec, "__name__", None)
    name = getattr(spec, "name", None)
    if isinstance(spec, type) and isinstance(name, (types.GetSetDescriptorType, types.MemberDescriptorType)):
        name = _default_name(spec)
    return safe_name(name, fallback if isinstance(fallback, str) else type(spec).__name__)


def _default_name(cls: Any) -> Any:
    """The ``name`` an instance of ``cls`` starts with where the class holds it as an instance attribute (an
    agent class of the compiled build, or one with ``__slots__``): read off an instance made without its
    ``__init__``, which may fail (it is the caller's to make); None when that cannot be made."""
    try:
        return getattr(cls.__new__(cls), "name", None)
    except Exception:
        return None


#: ``progress(n)`` is told each time ``n`` more games have finished.
Progress = Callable[[int], None]


class Measure(Protocol):
    """What gathers figures of one game in the worker that plays it: an observer of the game's events
    (docs/events.md), then ``finish(result)``, whose (picklable) value is kept beside the game's result."""

    def __call__(self, event: dict[str, Any]) -> None: ...

    def finish(self, result: Result) -> Any: ...


#: Makes a fresh :class:`Measure` for every game (a class of an importable module, so workers can run it).
MeasureFactory = Callable[[], Measure]

#: Where the games run: worker processes of this machine, or a Ray cluster.
BACKENDS = ("local", "ray")
#: How often Ray runs a task again whose worker was lost (a machine or a process died) before giving up.
RAY_RETRIES = 3
#: The reason of the payments that apply a seat's handicap (see ``simulate(handicap=)``).
HANDICAP_REASON = "handicap"

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054
#: The order in which ends are listed (others follow by name).
END_ORDER = ("last_standing", "bankruptcies", "time", "turn_limit", "event_limit")
#: Chunks per worker: enough to balance games of uneven length, few enough to keep the traffic low.
CHUNKS_PER_WORKER = 8
MAX_CHUNK = 64
#: Decimals kept in rates and means (the JSON stays short and identical on every platform).
DECIMALS = 6


class SimulationError(RuntimeError):
    """A game of a simulation failed (an engine or agent bug); the message names its seed."""


class AgentFailure(SimulationError):
    """A game of a simulation failed because a seat's agent did (a user's agent class raised, could not be
    made, or is no agent): the user's error, not the engine's; the message names the agent, the seat, the
    decision and the seed."""


class BackendError(RuntimeError):
    """The backend asked for cannot run the games: Ray is not installed, or its cluster cannot be reached."""


# ---------------------------------------------------------------------------- statistics


def wilson(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> wilson(0, 20)[0]
    0.0
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = wins / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # exact at the edges: no wins cannot have a lower bound above 0 (rounding gives 1e-18 otherwise)
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == trials else min(1.0, centre + half)
    return (low, high)


def _r(x: float) -> float:
    return round(x, DECIMALS)


def _ci(wins: int, trials: int) -> tuple[float, float]:
    low, high = wilson(wins, trials)
    return (_r(low), _r(high))


@attrs.frozen
class SeatStats:
    """How often one seat won: ``win_rate`` is wins / games, ``ci95`` its Wilson interval."""

    seat: int
    agent: str
    wins: int
    win_rate: float
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "wins": self.wins, "win_rate": self.win_rate,
                "ci95": list(self.ci95)}


@attrs.frozen
class AgentStats:
    """How often any seat played by one agent won: ``win_rate`` is the share of games it won.

    ``fair_share`` is ``seats / players``: the share it would win if every seat
    were equally strong and every game had a winner.
    """

    agent: str
    seats: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    fair_share: float

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "seats": self.seats, "wins": self.wins, "win_rate": self.win_rate,
                "ci95": list(self.ci95), "fair_share": self.fair_share}


@attrs.frozen
class Lengths:
    """Game length in turns (one player's turn, doubles re-rolls included); p90 is the nearest rank."""

    mean: float
    median: float
    p90: int
    min: int
    max: int

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Summary:
    """The statistics of a batch of games."""

    ruleset: str
    variants: tuple[str, ...]
    players: tuple[str, ...]
    games: int
    seeds: tuple[int, int]  # first and last seed
    max_turns: int | None
    seats: tuple[SeatStats, ...]
    agents: tuple[AgentStats, ...]
    no_winner: int  # games without a winner (the turn cap): a win for nobody
    turns: Lengths
    turn_limit: int  # games stopped by the turn cap
    turn_limit_share: float
    ends: tuple[tuple[str, int], ...]  # (end, games), most frequent first
    handicap: tuple[int, ...] | None = None  # cash added to (or taken from) each seat at the start

    def to_json(self) -> dict[str, Any]:
        data = {
            "ruleset": self.ruleset, "variants": list(self.variants), "players": list(self.players),
            "games": self.games, "seeds": list(self.seeds), "max_turns": self.max_turns,
            "seats": [s.to_json() for s in self.seats], "agents": [a.to_json() for a in self.agents],
            "no_winner": self.no_winner, "turns": self.turns.to_json(),
            "turn_limit": {"games": self.turn_limit, "share": self.turn_limit_share},
            "ends": dict(self.ends),
        }
        if self.handicap is not None:  # only then: the JSON of a plain run stays as it always was
            data["handicap"] = list(self.handicap)
        return data


def _p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def _end_key(item: tuple[str, int]) -> tuple[int, int, str]:
    end, count = item
    rank = END_ORDER.index(end) if end in END_ORDER else len(END_ORDER)
    return (-count, rank, end)


def summarize(results: Sequence[Result], players: Sequence[str], *, ruleset: str = "", variants: Sequence[str] = (),
              max_turns: int | None = None, handicap: Sequence[int] | None = None) -> Summary:
    """Win rates per seat and per agent (95% Wilson intervals), lengths, cap share and ends of ``results``."""
    if not results:
        raise ValueError("no games to summarize")
    n = len(results)
    wins = Counter(r.winner for r in results if r.winner is not None)
    seats = tuple(SeatStats(seat, name, wins[seat], _r(wins[seat] / n), _ci(wins[seat], n))
                  for seat, name in enumerate(players))
    agents = []
    for name in dict.fromkeys(players):  # first-seen order
        mine = [seat for seat, other in enumerate(players) if other == name]
        won = sum(wins[seat] for seat in mine)
        agents.append(AgentStats(name, len(mine), won, _r(won / n), _ci(won, n), _r(len(mine) / len(players))))
    turns = [r.turns for r in results]
    median = float(statistics.median(turns))  # a float always, whether the count of games is odd or even
    lengths = Lengths(_r(statistics.fmean(turns)), _r(median), _p90(turns), min(turns), max(turns))
    ends = Counter(r.end for r in results)
    capped = ends.get("turn_limit", 0)
    return Summary(
        ruleset=ruleset, variants=tuple(variants), players=tuple(players), games=n,
        seeds=(results[0].seed, results[-1].seed), max_turns=max_turns, seats=seats, agents=tuple(agents),
        no_winner=sum(1 for r in results if r.winner is None), turns=lengths, turn_limit=capped,
        turn_limit_share=_r(capped / n), ends=tuple(sorted(ends.items(), key=_end_key)),
        handicap=tuple(handicap) if handicap is not None else None,
    )


# ---------------------------------------------------------------------------- the result


@attrs.frozen
class SimulationResult:
    """The games of a simulation, in seed order, and their statistics."""

    results: tuple[Result, ...]
    summary: Summary
    #: What the ``measure`` of each game gathered, in seed order (empty without a ``measure``).
    measures: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"games": [{"seed", "winner", "turns", "rounds", "end", "standings"}...], "summary": {...}}``."""
        return {"games": [r.to_json() for r in self.results], "summary": self.summary.to_json()}


# ---------------------------------------------------------------------------- playing


class _Runner:
    """Plays games of one ruleset between fresh agents; one per process (pickled to Ray's workers).

    ``whole_logs``: write each game's log at once, atomically, when the game is over (the Ray backend, where a
    task whose worker was lost is run again: a log it had already written is then found identical and kept).
    """

    def __init__(self, ruleset: Ruleset, players: Sequence[AgentSpec], max_turns: int | None, log_dir: Path | None,
                 replace_logs: bool = False, start: GameState | None = None, handicap: Sequence[int] | None = None,
                 measure: MeasureFactory | None = None, whole_logs: bool = False):
        self.ruleset = ruleset
        self.players = tuple(players)
        self.factories = [agent_factory(spec) for spec in self.players]
        self.max_turns = max_turns
        self.log_dir = log_dir
        self.replace_logs = replace_logs
        self.start = start
        self.handicap = tuple(handicap) if handicap is not None and any(handicap) else None
        self.measure = measure
        self.whole_logs = whole_logs
        self._current: Game | None = None  # the game being played (run() looks at it when it fails)

    def play(self, seed: int) -> Result:
        return self.run(seed)[0]

    def run(self, seed: int) -> tuple[Result, Any]:
        """The game of ``seed``: its result, and what the measure gathered (None without one)."""
        names = ', '.join(map(spec_name, self.players))
        agents: list[Any] = []
        try:
            for seat, make in enumerate(self.factories):
                try:
                    agents.append(make())
                except Exception as exc:
                    raise AgentFailure(f"the agent of seat {seat} ({spec_name(self.players[seat])}) could not be "
                                       f"made for the game with seed {seed}: {type(exc).__name__}: "
                                       f"{exc}") from exc
            measure = self.measure() if self.measure is not None else None
            observers: list[Any] = [measure] if measure is not None else []
            if self.start is not None:  # checked once, before any game: a new future from the same position
                game = self._current = Game(self.ruleset, agents, seed, max_turns=self.max_turns, observers=observers)
                self.start.put(game)
                game.rng.seed(seed)
                result = game.play()
            elif self.log_dir is None:
                result = self._play(Game(self.ruleset, agents, seed, max_turns=self.max_turns, observers=observers))
            else:
                result = self._play_logged(agents, seed, observers)
            return result, (measure.finish(result) if measure is not None else None)
        except (OutputError, AgentFailure, KeyboardInterrupt):
            raise
        except AgentProcessError as exc:  # an agent in another process failed (agents protocol)
            spec = spec_name(self.players[exc.seat]) if 0 <= exc.seat < len(self.players) else "?"
            raise AgentFailure(f"the agent of seat {exc.seat} ({spec}) failed at {exc.kind!r} in the game with seed "
                               f"{seed}: {exc.reason}") from exc
        except BaseException as exc:
            current = self._current
            failure = current.agent_failure if current is not None else None
            if failure is not None:  # a seat's agent raised while answering: the user's agent, not the engine
                seat, kind = failure
                raise AgentFailure(f"the agent of seat {seat} ({spec_name(self.players[seat])}) raised "
                                   f"{type(exc).__name__}: {exc} while deciding {kind!r} in the game with seed "
                                   f"{seed}") from exc
            if isinstance(exc, SetupError):  # the game could not start with these agents
                raise AgentFailure(f"the game with seed {seed} ({names}) could not start: {exc}") from exc
            if not isinstance(exc, Exception):
                raise
            raise SimulationError(f"the game with seed {seed} ({names}) failed: {type(exc).__name__}: {exc}") from exc
        finally:
            self._current = None
            close_agents(agents)

    def _play(self, game: Game) -> Result:
        self._current = game
        if self.handicap is not None:
            apply_handicap(game, self.handicap)
        return game.play()

    def _play_logged(self, agents: list[Any], seed: int, observers: list[Any]) -> Result:
        assert self.log_dir is not None
        path = self.log_dir / log_name(seed)
        # A built-in bot plays again from its name; any other agent's answers go into the log as decision
        # events, so that the log alone plays the game again (monopoly replay --verify)
        agents = [agent if BOTS.get(agent_name(agent)) is type(agent) else RecordingAgent(agent) for agent in agents]
        if not self.whole_logs:
            # never through a link planted in the folder, never over a file unless asked
            with create(path, replace=self.replace_logs) as handle:
                return self._play(Game(self.ruleset, agents, seed, max_turns=self.max_turns,
                                       observers=(EventLog(handle), *observers)))
        buffer = io.StringIO()
        result = self._play(Game(self.ruleset, agents, seed, max_turns=self.max_turns,
                                 observers=(EventLog(buffer), *observers)))
        text = buffer.getvalue()
        try:
            write_whole(path, text, replace=self.replace_logs)
        except OutputError as exc:
            # the same game played again after its worker was lost: the log it wrote then is this one
            if exc.reason != "already exists" or _read_text(path) != text:
                raise
        return result

    def play_chunk(self, first: int, count: int) -> list[tuple[Result, Any]]:
        return [self.run(seed) for seed in range(first, first + count)]


def _read_text(path: Path) -> str | None:
    try:
        with open_regular(path) as handle:
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def apply_handicap(game: Game, handicap: Sequence[int]) -> None:
    """Start ``game`` (decks shuffled, starting cash paid, deeds dealt) and give each seat its ``handicap``:
    a payment from the bank for a positive amount, to the bank for a negative one (reason ``"handicap"``), so
    every unit of money stays accounted for in the events. A seat cannot be left with less than nothing.

    >>> import monopoly
    >>> game = monopoly.Game(monopoly.load_ruleset("classic"), players=3, seed=1)
    >>> apply_handicap(game, [-100, 0, 100])
    >>> game.cash
    [1400, 1500, 1600]
    """
    if len(handicap) != game.players:
        raise SetupError(f"a handicap of {len(handicap)} amounts for {game.players} seats")
    game.start()
    for seat, amount in enumerate(handicap):
        if amount > 0:
            payment(game, BANK, seat, amount, HANDICAP_REASON)
        elif amount < 0:
            if game.cash[seat] + amount < 0:
                raise SetupError(f"a handicap of {amount} leaves seat {seat} with less than nothing "
                                 f"({game.cash[seat]} at the start)")
            payment(game, seat, BANK, -amount, HANDICAP_REASON)


_runner: _Runner | None = None


def log_name(seed: int) -> str:
    """The file name of the event log of the game with ``seed`` in a log folder."""
    return f"game-{seed}.jsonl"


#: The young generation's threshold in a process that plays games and nothing else (:func:`dedicate_process`).
YOUNG_THRESHOLD = 20_000


def dedicate_process() -> None:
    """Set the garbage collector of a process that plays games and nothing else (the ``monopoly`` command, the
    worker processes of :func:`simulate`): what is loaded so far lives as long as the process and is set apart
    (``gc.freeze()``: the full collections walk the games' objects only), and the young generation is collected
    after :data:`YOUNG_THRESHOLD` new objects instead of Python's 700 (a game's events live until it ends, so
    collecting them young finds nothing; at 700 that costs about a tenth of a greedy game's time). The library
    never calls this on its own: the embedding program owns its process, and may call it when it is one."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def _init_worker(runner: _Runner) -> None:
    global _runner
    # Ctrl-C reaches the whole process group: the parent alone handles it (it terminates the pool).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _runner = runner
    dedicate_process()  # what the worker starts with (libraries, ruleset, runner) lives as long as it


def _play_chunk(chunk: tuple[int, int]) -> tuple[int, list[tuple[Result, Any]]]:
    assert _runner is not None, "the worker was not initialised"
    first, count = chunk
    return first, _runner.play_chunk(first, count)


def _context() -> Any:
    """Fork where it is safe and cheap (Linux, no other threads); the platform's default elsewhere.

    A forked worker starts in milliseconds with the ruleset already in memory;
    spawn and forkserver import the package again in every worker.
    """
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _chunks(seed: int, games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(MAX_CHUNK, math.ceil(games / (workers * CHUNKS_PER_WORKER))))
    return [(seed + start, min(size, games - start)) for start in range(0, games, size)]


def _play_parallel(runner: _Runner, seed: int, games: int, jobs: int,
                   progress: Progress | None) -> list[tuple[Result, Any]]:
    chunks = _chunks(seed, games, jobs)
    workers = min(jobs, len(chunks))
    done: dict[int, list[tuple[Result, Any]]] = {}
    pool = _context().Pool(workers, initializer=_init_worker, initargs=(runner,))
    try:
        # chunks come back as they finish (for the progress bar) and are put back in seed order below
        for first, results in pool.imap_unordered(_play_chunk, chunks):  # a failed game raises here
            done[first] = results
            if progress is not None:
                progress(len(results))
    except BaseException:
        pool.terminate()  # an error or Ctrl-C: stop now rather than finish the queued chunks
        raise
    pool.close()
    pool.join()
    return [result for first, _ in chunks for result in done[first]]


# ---------------------------------------------------------------------------- Ray


def _ray_chunk(runner: _Runner, first: int, count: int) -> list[tuple[Result, Any]]:
    """One Ray task: the games of seeds ``first`` .. ``first + count - 1``, each fixed by its seed."""
    return runner.play_chunk(first, count)


def ray_available() -> bool:
    """Whether the Ray backend can be used here (the ``ray`` extra is installed)."""
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def _import_ray() -> Any:
    import importlib

    try:  # imported by name: Ray is an optional extra, and the type checker need not know it
        ray = importlib.import_module("ray")
    except ImportError:
        raise BackendError("the ray backend needs Ray, which is not installed: "
                           "pip install 'monopoly-engine[ray]'") from None
    return ray


#: Seconds to wait for a cluster's address to answer before saying it does not.
RAY_CONNECT_TIMEOUT = 5.0


def _check_address(address: str) -> None:
    """A quick check that something listens at a cluster's ``host:port`` (``ray://host:port`` too), so a wrong
    address is one line at once rather than Ray's long wait; ``auto`` and other forms are left to Ray."""
    import socket

    bare = address.removeprefix("ray://")
    host, colon, port = bare.rpartition(":")
    if not colon or not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise BackendError(f"cannot start or join the Ray cluster at {address}: nothing answers there "
                           f"({exc.strerror or type(exc).__name__}); start one with `ray start --head` or check "
                           "the address") from None


def _start_ray(ray: Any, address: str | None, cpus: int | None) -> bool:
    """Join the cluster at ``address``, or start a local one of ``cpus`` CPUs (None: all of this machine).
    True when this call started Ray (and must shut it down); False when it was running already."""
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR, "configure_logging": True}
    if address is not None:
        _check_address(address)
    try:
        if address is not None:
            ray.init(address=address, **options)
        else:  # "local": a new cluster of this run's own, never the last one started on the machine
            ray.init(address="local", num_cpus=cpus, **options)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError... with its own words
        where = f"the Ray cluster at {address}" if address is not None else "a local Ray cluster"
        raise BackendError(f"cannot start or join {where}: {type(exc).__name__}: {str(exc)[:300]}") from None
    return True


@contextlib.contextmanager
def ray_cluster(backend: str = "ray", address: str | None = None, cpus: int | None = None) -> Iterator[None]:
    """With ``backend`` ``"ray"``: Ray running for the block (the cluster at ``address``, or a local one of
    ``cpus`` CPUs), so several :func:`simulate` calls share one cluster instead of starting one each; shut
    down after the block if it was started here. Does nothing for another backend."""
    if backend != "ray":
        yield
        return
    ray = _import_ray()
    started = _start_ray(ray, address, cpus)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def _play_ray(runner: _Runner, seed: int, games: int, cpus: int | None, address: str | None,
              progress: Progress | None) -> list[tuple[Result, Any]]:
    """The games as Ray tasks of a chunk of seeds each; results put back in seed order.

    A task whose worker is lost (the process or its machine died) is run again by Ray, up to
    :data:`RAY_RETRIES` times: its games are fixed by their seeds, so the run gives what it would have.
    """
    ray = _import_ray()
    ray_exceptions = ray.exceptions

    started = _start_ray(ray, address, cpus)
    pending: dict[Any, int] = {}
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        chunks = _chunks(seed, games, workers)
        task = ray.remote(max_retries=RAY_RETRIES, retry_exceptions=False)(_ray_chunk)
        shared = ray.put(runner)  # sent to the object store once, not with every task
        pending = {task.remote(shared, first, count): first for first, count in chunks}
        done: dict[int, list[tuple[Result, Any]]] = {}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                first = pending.pop(ref)
                try:
                    done[first] = ray.get(ref)
                except ray_exceptions.RayTaskError as exc:  # the task raised: the game's own error
                    cause = exc.cause
                    if isinstance(cause, (SimulationError, OutputError)):
                        raise cause from None
                    raise SimulationError(f"a game of the seeds from {first} failed on Ray: "
                                          f"{type(cause).__name__}: {cause}") from None
                except ray_exceptions.RayError as exc:  # the worker was lost more often than Ray retries
                    raise SimulationError(f"the games of seeds from {first} were lost on the Ray cluster "
                                          f"(tried {RAY_RETRIES + 1} times): {type(exc).__name__}") from None
                if progress is not None:
                    progress(len(done[first]))
    except BaseException:
        for ref in pending:  # an error or Ctrl-C: stop the tasks still queued or running
            with contextlib.suppress(Exception):  # already finished or gone: nothing to stop
                ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return [result for first, _ in chunks for result in done[first]]


# ---------------------------------------------------------------------------- the entry point


def simulate(ruleset: Ruleset | PathOrName, players: Sequence[AgentSpec], games: int, seed: int = 1,
             jobs: int | None = None, max_turns: int | None = 1000, log_dir: PathOrName | None = None,
             progress: Progress | None = None, *, variants: Sequence[PathOrName] = (), replace_logs: bool = False,
             start: GameState | None = None, handicap: Sequence[int] | None = None,
             measure: MeasureFactory | None = None, backend: str = "local",
             address: str | None = None) -> SimulationResult:
    """Play ``games`` games of ``ruleset`` between the agents of ``players``, one a seat: a built-in bot's
    name, or a factory that makes a fresh agent for every game (an :class:`~monopoly.agents.Agent` subclass,
    or any callable of no arguments; with ``jobs`` > 1 it must be picklable, as a class of an importable
    module is). Agents are named in the statistics by their name, or the factory's ``name`` or ``__name__``.

    Game ``i`` uses seed ``seed + i``. ``jobs`` worker processes share the
    games in chunks (1 or None: play in this process); the outcome does not depend on
    it. ``max_turns`` caps every game (None: the engine's ceiling,
    :data:`~monopoly.game.core.TURN_CEILING`, 10,000 turns). ``log_dir``: write the event log of each game to
    ``<log_dir>/game-<seed>.jsonl``; a log that is already there is an
    :class:`~monopoly.files.OutputError` (before any game is played) unless
    ``replace_logs``, and a symbolic link there is refused whatever
    ``replace_logs`` says. ``start``: every game plays on from this position
    (:class:`~monopoly.game.state.GameState`, checked first; a
    :class:`~monopoly.game.state.StateError` lists every rule it breaks), the
    dice and shuffles of game ``i`` coming from seed ``seed + i``, so the win
    rates by seat say who is winning that position; it cannot be combined with
    ``log_dir`` (a log starts with the game). ``progress(n)`` is called as ``n`` more
    games finish. ``ruleset`` may also be a built-in name or a path, loaded
    with ``variants``.

    ``handicap``: one amount a seat, added to its starting cash (negative: taken from it) by a payment after
    the start (:func:`apply_handicap`). ``measure``: a factory of a :class:`Measure` for every game, whose
    figures come back in ``SimulationResult.measures``.

    ``backend``: ``"local"`` (this machine's processes) or ``"ray"``: the games run as Ray tasks of a chunk
    of seeds each, on the cluster at ``address`` or on a local cluster started for the call (of ``jobs``
    CPUs; None: all of them), with the same results as ``jobs=1``; :class:`BackendError` when Ray is missing
    or the cluster cannot be reached.

    Raises ``ValueError`` for an unknown agent name or a bad count, and
    :class:`~monopoly.game.SetupError` when the ruleset is not played by that
    many players.
    """
    ruleset = _loaded(ruleset, variants)
    players = tuple(players)
    for spec in players:
        agent_factory(spec)
    names = [spec_name(spec) for spec in players]
    _check_run(ruleset, len(players), games, jobs, max_turns, backend, address)
    if handicap is not None:
        handicap = _checked_handicap(handicap, ruleset, len(players), start)
    if start is not None:
        _check_start(start, ruleset, len(players), max_turns, log_dir)
    if backend == "ray":
        _import_ray()  # missing: say so before anything is written
    log_path = _log_folder(log_dir, seed, games, replace_logs) if log_dir is not None else None
    runner = _Runner(ruleset, players, max_turns, log_path, replace_logs, start, handicap, measure,
                     whole_logs=backend == "ray")
    played = _play_games(runner, seed, games, jobs, backend, address, progress)
    results = [result for result, _ in played]
    summary = summarize(results, names, ruleset=ruleset.id, variants=ruleset.variants, max_turns=max_turns,
                        handicap=runner.handicap)
    measures = tuple(figures for _, figures in played) if measure is not None else ()
    return SimulationResult(tuple(results), summary, measures)


def _loaded(ruleset: Ruleset | PathOrName, variants: Sequence[PathOrName]) -> Ruleset:
    """The ruleset given, or the one its name or path loads with ``variants`` (only those take variants)."""
    if not isinstance(ruleset, Ruleset):
        return load_ruleset(ruleset, variants)
    if variants:
        raise ValueError("variants are given with a ruleset name or path, not with a loaded Ruleset")
    return ruleset


def _check_run(ruleset: Ruleset, players: int, games: int, jobs: int | None, max_turns: int | None,
               backend: str, address: str | None) -> None:
    """Refuse a number of players the ruleset is not played by, a bad count, backend or address."""
    problem = ruleset.players_problem(players)
    if problem is not None:
        raise SetupError(problem)
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if max_turns is not None and not 1 <= max_turns <= TURN_CEILING:
        raise ValueError(f"max_turns must be from 1 to {TURN_CEILING} (or None: {TURN_CEILING}), not {max_turns}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if address is not None and backend != "ray":
        raise ValueError("an address is the address of a Ray cluster: give it with backend='ray'")


def _checked_handicap(handicap: Sequence[int], ruleset: Ruleset, players: int,
                      start: GameState | None) -> tuple[int, ...]:
    """The handicap as whole amounts, one a seat; refused with a position or when a seat would start below 0."""
    amounts = tuple(int(amount) for amount in handicap)
    if len(amounts) != players:
        raise ValueError(f"a handicap of {len(amounts)} amounts for {players} players")
    if start is not None:
        raise ValueError("a handicap changes the starting cash: it cannot be combined with a position")
    for seat, amount in enumerate(amounts):
        if ruleset.starting_cash + amount < 0:
            raise ValueError(f"a handicap of {amount} leaves seat {seat} with less than nothing "
                             f"(starting cash {ruleset.starting_cash})")
    return amounts


def _check_start(start: GameState, ruleset: Ruleset, players: int, max_turns: int | None,
                 log_dir: PathOrName | None) -> None:
    """Refuse a position asked with logs, of another number of players, breaking the rules, or of a game over."""
    if log_dir is not None:
        raise ValueError("games played on from a position are not logged (a log starts with the game)")
    if len(start.cash) != players:
        raise SetupError(f"the position has {len(start.cash)} players, not {players}")
    problems = start.problems(ruleset, max_turns=max_turns)
    if problems:
        raise StateError(problems)
    if start.finished:
        raise StateError(["the game of the position is over"])


def _log_folder(log_dir: PathOrName, seed: int, games: int, replace_logs: bool) -> Path:
    """The folder of the logs, made if missing; refused when a log of these seeds is a link, or is there already
    and ``replace_logs`` is not given."""
    log_path = Path(log_dir)
    log_path.mkdir(parents=True, exist_ok=True)
    for game_seed in range(seed, seed + games):
        existing = log_path / log_name(game_seed)
        if os.path.islink(existing):
            raise OutputError(existing, "is a symbolic link", "the program never writes through a link")
        if not replace_logs and os.path.lexists(existing):
            raise OutputError(existing, "already exists",
                              "give --force to replace the logs, or another folder")
    return log_path


def _play_games(runner: _Runner, seed: int, games: int, jobs: int | None, backend: str, address: str | None,
                progress: Progress | None) -> list[tuple[Result, Any]]:
    """Every game's result and figures, in seed order: on Ray, in worker processes, or in this one."""
    if backend == "ray":
        return _play_ray(runner, seed, games, jobs, address, progress)
    if jobs is None or jobs == 1 or games == 1:
        played: list[tuple[Result, Any]] = []
        for game_seed in range(seed, seed + games):
            played.append(runner.run(game_seed))
            if progress is not None:
                progress(1)
        return played
    return _play_parallel(runner, seed, games, jobs, progress)


__all__ = [
    "BACKENDS",
    "AgentFailure",
    "AgentSpec",
    "AgentStats",
    "BackendError",
    "Lengths",
    "Measure",
    "MeasureFactory",
    "SeatStats",
    "SimulationError",
    "SimulationResult",
    "Summary",
    "agent_factory",
    "apply_handicap",
    "ray_available",
    "ray_cluster",
    "simulate",
    "spec_name",
    "summarize",
    "wilson",
]
