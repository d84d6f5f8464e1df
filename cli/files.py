"""The command line's side of writing files: monopoly.files does the writing, this turns refusals into exit 1.

Every output a command writes (``-o``, ``--log``, ``--save``) refuses to replace
a file that exists unless the command was given ``--force`` (FORCE_OPTION),
and never writes through a symbolic link (docs/security.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import click

from monopoly import OutputError, escape, write_whole
from monopoly import create_file as create

FORCE_OPTION = click.option("--force", is_flag=True,
                            help="Replace output files that already exist (never a symbolic link).")


def write_atomic(path: Path | str, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` whole or not at all; exit 1 with the reason if it cannot be."""
    try:
        write_whole(path, text, replace=force)
    except OutputError as exc:
        raise click.ClickException(refusal(exc)) from None


def open_output(path: Path | str, *, force: bool = False, option: str | None = None) -> TextIO:
    """A new file for writing (a log); exit 1 (or a usage error naming ``option``) if it cannot be."""
    try:
        return create(path, replace=force)
    except OutputError as exc:
        if option is not None:
            raise click.BadParameter(refusal(exc), param_hint=f"'{option}'") from None
        raise click.ClickException(refusal(exc)) from None


def shown(path: object) -> str:
    """A path as a one-line message shows it: control characters, line breaks and tabs written out."""
    return escape(str(path)).replace("\n", "\\n").replace("\t", "\\t")


def refusal(exc: OutputError) -> str:
    """``not writing game.json: it already exists (give --force ...)``."""
    return f"not writing {shown(exc.path)}: it {exc.reason}" + (f" ({exc.hint})" if exc.hint else "")
