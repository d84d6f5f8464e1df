"""The `monopoly` command: a thin click layer over the library; no game logic here."""

from __future__ import annotations

import os
import sys
import traceback

import click

import monopoly

from . import ruleset_commands, workbench_commands
from .agent_test_command import agent_test_command
from .analyze_command import analyze
from .compare_command import balance_command, compare_command
from .play_command import play_command
from .replay_command import replay_command
from .serve_command import serve_command
from .simulate_command import simulate_command

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

#: Exit code for a failure inside the program itself (BSD sysexits EX_SOFTWARE).
EXIT_INTERNAL = 70


#: Which build runs, after the version: the compiled one is installed with MONOPOLY_COMPILE=1 (README).
BUILD = "compiled build (mypyc)" if monopoly.compiled() else "pure Python"


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="monopoly-engine", prog_name="monopoly",
                      message=f"%(prog)s, version %(version)s, {BUILD}")
def cli() -> None:
    """Monopoly as data: play, simulate, analyze and check editions and house rules.

    Built-in rulesets are found by name (`monopoly list` shows them); any other
    ruleset is a path to a YAML file. `monopoly COMMAND --help` explains each command.
    """


ruleset_commands.register(cli)
workbench_commands.register(cli)
cli.add_command(simulate_command)
cli.add_command(play_command)
cli.add_command(replay_command)
cli.add_command(analyze)
cli.add_command(compare_command)
cli.add_command(balance_command)
cli.add_command(agent_test_command)
cli.add_command(serve_command)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: click's own errors exit 1 or 2; a bug exits 70 without a traceback."""
    # The libraries just imported live as long as the process: set apart from the collector, so that its
    # full collections during long simulations walk the games' objects only, and the young generation
    # collected less often (docs/performance.md). The command owns its process; the library never does this.
    monopoly.dedicate_process()
    try:
        cli.main(args=argv, prog_name="monopoly", standalone_mode=True)
    except SystemExit:
        raise
    except (monopoly.AgentFailure, monopoly.AgentProcessError, monopoly.ChainTooLarge) as exc:
        # a user's agent failed (--players module:Class or exec:COMMAND), or a board too large for the exact odds:
        # the user's input, not a bug
        if os.environ.get("MONOPOLY_DEBUG"):
            traceback.print_exc()
        click.echo(f"Error: {monopoly.escape(str(exc))[:2000]}", err=True)
        if isinstance(exc, (monopoly.AgentFailure, monopoly.AgentProcessError)):
            click.echo("  run again with MONOPOLY_DEBUG=1 to see where the agent failed", err=True)
        sys.exit(1)
    except Exception as exc:  # the last guard: a person should never see a traceback
        if os.environ.get("MONOPOLY_DEBUG"):
            traceback.print_exc()
        from monopoly import escape

        click.echo(f"monopoly: internal error: {type(exc).__name__}: {escape(str(exc))[:500]}", err=True)
        click.echo("  this is a bug in monopoly; run again with MONOPOLY_DEBUG=1 to see where", err=True)
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    main()
