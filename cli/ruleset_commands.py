"""Commands that read rulesets: validate, list, show, schema."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import click
import yaml

from monopoly import (
    ERROR,
    MAX_PROBLEMS,
    WARNING,
    Problem,
    Ruleset,
    RulesetError,
    RulesetNotFound,
    builtin_rulesets,
    check_ruleset,
    escape,
)
from monopoly import read_ruleset_document as load_file
from monopoly import ruleset_schema_text as schema_text

VARIANT_OPTION = click.option(
    "--variant", "variants", multiple=True, metavar="V",
    help="Apply a variant (a built-in name or a path); repeat to combine, applied in order.")


def register(group: click.Group) -> None:
    for command in (validate, list_rulesets, show, schema):
        group.add_command(command)


def _check(name: str, variants: Sequence[str], max_problems: int | None = MAX_PROBLEMS
           ) -> tuple[Ruleset | None, list[Problem]]:
    """check_ruleset with a missing file or unknown name turned into a usage error (exit 2)."""
    try:
        return check_ruleset(name, variants, max_problems=max_problems)
    except RulesetNotFound as exc:
        message = exc.message
        if exc.hint:
            message += f" ({exc.hint})"
        raise click.UsageError(message) from None
    except OSError as exc:
        raise click.UsageError(f"cannot read {escape(str(exc.filename))}: {exc.strerror}") from None


def load_or_exit(name: str, variants: Sequence[str]) -> Ruleset:
    """A ruleset for a command that needs one: its problems printed and exit 1 if it is invalid."""
    ruleset, problems = _check(name, variants)
    if ruleset is None:
        for problem in problems:
            click.echo(problem.format(), err=True)
        raise SystemExit(1)
    return ruleset


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="PATH_OR_NAME...")
@VARIANT_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: compiler-style lines; json: a list of problems.")
@click.option("--max-problems", type=click.IntRange(min=0), default=MAX_PROBLEMS, show_default=True, metavar="N",
              help="Show at most N problems per file, then one line counting the rest (0: show all).")
def validate(rulesets: tuple[str, ...], variants: tuple[str, ...], fmt: str, max_problems: int) -> None:
    """Check rulesets and report every problem found.

    Each PATH_OR_NAME is loaded with the variants applied; a variant file given
    on its own is checked on top of classic. A path must end in .yaml or .yml;
    a name without one is a built-in ruleset. Exit status: 0 when valid, 1 when
    any error was found, 2 for a usage error (such as a missing file).
    """
    found: list[Problem] = []
    verdicts = []
    for name in rulesets:
        ruleset, problems = _check(name, variants, max_problems or None)
        found.extend(problems)
        verdicts.append((name, ruleset, problems))
    errors = sum(p.severity == ERROR for p in found)
    warnings = sum(p.severity == WARNING for p in found)
    if fmt == "json":
        click.echo(json.dumps([p.to_json() for p in found], indent=2))
    else:
        for problem in found:
            click.echo(problem.format())
        for name, ruleset, _ in verdicts:
            if ruleset is not None:
                extra = f" with {', '.join(ruleset.variants)}" if ruleset.variants else ""
                click.echo(f"ok: {escape(name)}{extra} ({len(ruleset.board)} spaces, "
                           f"{sum(d.size for d in ruleset.decks)} cards)")
        if found:
            notes = [p for p in found if p.code == "more-problems"]
            hidden = sum(p.hidden for p in notes)
            counted = f"{hidden:,}" if all(p.hidden_exact for p in notes) else f"more than {hidden:,}"
            click.echo(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
                       + (f" shown; {counted} more not shown" if notes else ""))
    sys.exit(1 if errors else 0)


@click.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def list_rulesets(fmt: str) -> None:
    """List the built-in editions and variants with their descriptions."""
    rows = []
    for builtin in builtin_rulesets():
        try:
            description = load_file(builtin.path).data.get("description", "")
        except RulesetError as exc:
            description = f"(unreadable: {exc})"
        rows.append({"id": builtin.id, "kind": builtin.kind, "description": description})
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["id"]) for r in rows)
    for kind, title in (("edition", "Editions"), ("variant", "Variants (use with --variant)")):
        click.echo(f"{title}:")
        for row in rows:
            if row["kind"] == kind:
                click.echo(f"  {row['id']:<{width}}  {row['description']}")


@click.command()
@click.argument("ruleset", metavar="NAME_OR_PATH")
@VARIANT_OPTION
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
def show(ruleset: str, variants: tuple[str, ...], fmt: str) -> None:
    """Print the resolved ruleset, after `extends` and variants, with defaults filled in."""
    data: dict[str, Any] = load_or_exit(ruleset, variants).to_dict()
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), nl=False)


@click.command()
def schema() -> None:
    """Print the JSON Schema of ruleset files (editors use it for completion)."""
    click.echo(schema_text(), nl=False)
