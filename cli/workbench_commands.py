"""The designer's workbench commands: render (the board as SVG) and new (a new edition file)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from monopoly import RulesetError, RulesetNotFound, builtin_rulesets, escape, find_ruleset
from monopoly import read_ruleset_document as load_file

from .files import FORCE_OPTION, shown, write_atomic
from .ruleset_commands import VARIANT_OPTION, load_or_exit


def register(group: click.Group) -> None:
    for command in (render, new):
        group.add_command(command)


@click.command()
@click.argument("ruleset", metavar="NAME_OR_PATH")
@VARIANT_OPTION
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Write the SVG to FILE (default: standard output).")
@click.option("--heat", is_flag=True, help="Shade each square by its exact long-run landing odds, with a legend.")
@click.option("--jail", type=click.Choice(["short", "long"]), default="short", show_default=True,
              help="With --heat: short, a jailed player pays and leaves at once; long, waits for doubles.")
@FORCE_OPTION
def render(ruleset: str, variants: tuple[str, ...], output: Path | None, heat: bool, jail: str, force: bool) -> None:
    """Draw the board of a ruleset as an SVG picture.

    The ring of squares is laid out from the ruleset itself, for any number of
    spaces: corners at a quarter, half and three quarters of the way round,
    colour bars on streets, names and prices. The file uses system fonts only
    and loads nothing from the network.
    """
    from monopoly import render_board_svg

    if output is not None and not force and os.path.lexists(output):
        raise click.ClickException(f"not writing {escape(str(output))}: it already exists "
                                   "(give --force to replace it)")
    loaded = load_or_exit(ruleset, variants)
    odds = None
    if heat:
        from monopoly import landing_odds

        odds = list(landing_odds(loaded, jail=jail).landing)
    svg = render_board_svg(loaded, odds)
    if output is None:
        click.echo(svg, nl=False)
        return
    write_atomic(output, svg, force=force)
    click.echo(f"wrote {shown(output)} ({len(loaded.board)} spaces{', landing odds' if heat else ''})", err=True)


@click.command()
@click.argument("name")
@click.option("--from", "base", default="classic", show_default=True, metavar="EDITION",
              help="The edition to build on: a built-in name or a path.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Where to write the new file (default: NAME.yaml in the current folder).")
def new(name: str, base: str, output: Path | None) -> None:
    """Start a new edition NAME that extends another one (classic unless --from says otherwise).

    The file has the schema line for editors, `extends`, and a commented
    section for each part of a ruleset (currency, bank, spaces, groups, decks,
    rules, triggers, permissions) with examples to uncomment. It is valid as written.
    NAME is the edition's id: lowercase letters, digits and dashes. An existing
    file is never overwritten.
    """
    from monopoly import ScaffoldError, extends_reference, scaffold_edition, schema_reference
    from monopoly import check_edition_id as check_id

    try:
        check_id(name)
    except ScaffoldError as exc:
        raise click.BadParameter(f"{shown(exc.message)} (hint: {shown(exc.hint)})", param_hint="'NAME'") from None
    target = output if output is not None else Path(f"{name}.yaml")
    if os.path.lexists(target):
        raise click.ClickException(f"{shown(target)} already exists; not overwriting it (give another NAME or -o FILE)")
    base_file = _base_file(base)
    loaded = load_or_exit(base, ())
    text = scaffold_edition(name, loaded, extends=extends_reference(base, base_file, target),
                            schema=schema_reference(target))
    write_atomic(target, text)  # never replaces a file, never writes through a link
    click.echo(f"wrote {shown(target)}: edition '{name}' extending {shown(base)}")
    click.echo(f"next: edit it, then run `monopoly validate {shown(target)}`")


def _base_file(base: str) -> Path | None:
    """The file of ``--from`` when it is a path (None for a built-in name); a variant is a usage error."""
    try:
        path = find_ruleset(base)
    except RulesetNotFound as exc:
        message = f"no ruleset file or built-in edition named '{exc.name}'"
        raise click.BadParameter(message + (f" ({exc.hint})" if exc.hint else ""), param_hint="'--from'") from None
    builtin = any(b.id == base and b.path == path for b in builtin_rulesets())
    try:
        kind = load_file(path).data.get("kind")
    except RulesetError:
        kind = None  # load_or_exit reports the problems of the file
    if kind == "variant":
        raise click.BadParameter(f"'{base}' is a variant; an edition can only extend an edition "
                                 "(apply a variant with --variant)", param_hint="'--from'")
    return None if builtin else path
