"""`monopoly serve`: the web table (docs/web.md): a lobby to set a table of people and bots up, and the game
played in the browser, the server authoritative (the agents protocol over one WebSocket a seat)."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (the default: this machine only).")
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True,
              help="The port to listen on.")
@click.option("--data", "data", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep uploaded editions in DIR (made if missing; the server names the files). Without it, a "
                   "temporary folder that goes with the server.")
def serve_command(host: str, port: int, data: str | None) -> None:
    """Serve the web table: open http://HOST:PORT/ in a browser, choose an edition, house rules and seats, and
    share each person's link (an unguessable token); bots fill the other seats. Ctrl-C stops the server.

    Needs the web extra: pip install 'monopoly-engine[web]'.
    """
    try:
        import uvicorn

        from monopoly import create_web_app
    except ImportError as missing:
        raise click.ClickException(f"monopoly serve needs the web extra ({getattr(missing, 'name', None) or missing} "
                                   "is missing): pip install 'monopoly-engine[web]'") from None
    click.echo(f"The lobby: http://{host}:{port}/  (Ctrl-C stops the server)")
    uvicorn.run(create_web_app(data), host=host, port=port, log_level="warning")
