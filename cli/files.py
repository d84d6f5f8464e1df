"""Writing files whole or not at all: a temporary file in the same folder, renamed over the target.

A crash (or Ctrl-C) leaves the old file or the new one, never half of one; an
unwritable place is a clear error (exit 1), not a traceback.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import click


def write_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically, flushed to disk."""
    path = Path(path)
    folder = path.resolve().parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None
    try:
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; this is an ordinary file
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
