"""Where the program reads and writes: regular files only; writing only where the person said, never over a
file it did not make, never through a link.

* :func:`open_regular` opens a file for reading only if it is a regular file:
  opened without blocking and checked after opening, so a pipe, a device or a
  folder (``/dev/zero``, a FIFO named ``game.jsonl``) is refused instead of
  hanging the program or feeding it without end.

Every file the program writes (saves, event logs, reports, boards, new
editions) goes through this module (docs/security.md):

* :func:`create` opens a new file for writing. It refuses a file that exists
  unless ``replace`` is given, and never follows a symbolic link at the last
  step of the path (``O_NOFOLLOW``), so a link planted in a log folder cannot
  send a log over another file.
* :func:`write_whole` writes a whole file atomically: a temporary file beside
  the target, flushed to disk, then linked (a new file) or renamed (a
  replacement) into place. A crash leaves the old file or the new one, never
  half of one. The temporary file has a fixed name (``.NAME.monopoly-tmp``), so
  one left by a killed process is removed by the next write to the same target
  instead of piling up.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import BinaryIO, TextIO

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
TEMP_SUFFIX = ".monopoly-tmp"


class OutputError(OSError):
    """A file the program was asked to write and will not, or cannot; ``str()`` says why in plain words."""

    def __init__(self, path: os.PathLike[str] | str, reason: str, hint: str | None = None):
        self.path = os.fspath(path)
        self.reason = reason
        self.hint = hint
        super().__init__(f"{self.path}: {reason}" + (f" ({hint})" if hint else ""))

    def __reduce__(self) -> tuple[type[OutputError], tuple[str, str, str | None]]:
        # errors travel back from simulation worker processes
        return (OutputError, (self.path, self.reason, self.hint))


class NotRegularFile(OSError):
    """A path to read that is a pipe, a device or a folder."""


def open_regular(path: os.PathLike[str] | str) -> BinaryIO:
    """``path`` open for reading in binary, if it is a regular file; :class:`NotRegularFile` if it is not."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | _BINARY
    descriptor = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegularFile(f"{os.fspath(path)} is not a regular file")
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")


def _refuse_unusual(path: os.PathLike[str] | str) -> None:
    """An output that exists must be a regular file (never a link, a device, a pipe or a folder)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    if stat.S_ISLNK(mode):
        raise OutputError(path, "is a symbolic link", "the program never writes through a link")
    if stat.S_ISDIR(mode):
        raise OutputError(path, "is a folder")
    if not stat.S_ISREG(mode):
        raise OutputError(path, "is not a regular file (a device or a pipe)", "the program writes only files")


def create(path: os.PathLike[str] | str, *, replace: bool = False) -> TextIO:
    """A new UTF-8 text file at ``path``, open for writing (``\\n`` line ends).

    An existing file is refused unless ``replace`` (it is then truncated), and
    so is a symbolic link at ``path`` whatever ``replace`` says.
    """
    flags = os.O_WRONLY | os.O_CREAT | _NOFOLLOW | _BINARY | (os.O_TRUNC if replace else os.O_EXCL)
    if replace:
        _refuse_unusual(path)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # swapped for a device or pipe after the check
            os.close(descriptor)
            raise OutputError(path, "is not a regular file (a device or a pipe)", "the program writes only files")
    except FileExistsError:
        if os.path.islink(path):
            raise OutputError(path, "is a symbolic link", "the program never writes through a link") from None
        raise OutputError(path, "already exists", "give --force to replace it, or choose another name") from None
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    return os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")


def write_whole(path: os.PathLike[str] | str, text: str, *, replace: bool = False) -> None:
    """Write ``text`` to ``path`` atomically (see the module docstring).

    Without ``replace`` an existing file is refused, checked again at the last
    moment (the new file is linked into place, which fails if one appeared).
    """
    target = Path(path)
    _refuse_unusual(target)
    if not replace and os.path.lexists(target):
        raise OutputError(target, "already exists", "give --force to replace it, or choose another name")
    temporary = target.with_name(f".{target.name}{TEMP_SUFFIX}")
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)  # left by a process that was killed while writing this file
    except OSError:
        raise OutputError(target, f"cannot be written (its temporary file {temporary.name} is in the way)") from None
    try:
        with create(temporary) as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temporary, target)
        else:
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise OutputError(target, "already exists",
                                  "give --force to replace it, or choose another name") from None
            except OSError:  # a file system without hard links: rename, after checking once more
                if target.exists():
                    raise OutputError(target, "already exists",
                                      "give --force to replace it, or choose another name") from None
                os.replace(temporary, target)
    except OutputError as exc:
        if exc.path == os.fspath(temporary):  # say it of the file asked for
            raise OutputError(target, exc.reason, exc.hint) from None
        raise
    except OSError as exc:
        raise OutputError(target, _reason(exc)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _reason(exc: OSError) -> str:
    return f"cannot be written ({exc.strerror or type(exc).__name__})"
