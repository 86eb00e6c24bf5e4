"""Command line (a contract: tools outside the project call these names).

    flask --app app init-db
    flask --app app game create SLUG --player EMAIL ... [--bot] [--option K=V ...] [--hours N]
    flask --app app tick [--now ISO-8601]
    flask --app app mail deliver
    flask --app app demo [--serve]
"""

from __future__ import annotations

import json

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from sqlmodel import Session, select
from werkzeug.serving import run_simple

from app import turns
from app.backup import backup_command, restore_command
from app.cliutil import parse_now, parse_option
from app.db import get_engine
from app.demo import create_demo_games
from app.leagues.cli import league_cli
from app.links import gm_link, prefs_link, seat_link
from app.logs import RedactingRequestHandler
from app.mail import deliver_pending
from app.mailin.cli import register as register_mailin
from app.models import Game, Player, Seat
from app.turns.store import player_by_address
from app.verify import verify_command
from app.web.worker import start_worker
from jobs import init_scheduler, jobs_cli

game_cli = AppGroup("game", help="Create and manage games.")
mail_cli = AppGroup("mail", help="Outgoing and incoming mail.")


def create(slug: str, players: list[str], bot: bool, options: dict, hours: float,
           gm_email: str = "", resolve_early: bool = True, policy: dict | None = None) -> dict:
    """Open a game (``turns.open_game``) and describe its seats and links for ``game create``."""
    opened = turns.open_game(get_engine(), slug, players, options=options, hours=hours, bots=bot,
                             gm_email=gm_email, resolve_early=resolve_early, policy=policy,
                             max_attempts=current_app.config["MAX_ATTEMPTS"])
    with Session(get_engine()) as session:
        game = session.get(Game, opened.game_id)
        assert game is not None
        seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
        out = []
        for seat in seats:
            player = session.get(Player, seat.player_id) if seat.player_id else None
            entry = {"seat": seat.seat, "email": player.email if player else None,
                     "link": seat_link(seat) if seat.token_hash else None}
            if seat.is_bot:
                entry["bot"] = True
            if seat.is_robot:
                entry["robot"] = True
            out.append(entry)
        result = {"game": game.id, "seats": out, "gm_link": gm_link(game), "seed_hash": game.seed_hash}
        if gm_email:
            gm = player_by_address(session, gm_email)
            if gm is not None:
                result["gm_home"] = prefs_link(gm)  # every game this GM runs, on one page
    return result


@game_cli.command("create")
@click.argument("slug")
@click.option("--player", "players", multiple=True, help="A player's e-mail, in seat order.")
@click.option("--bot", is_flag=True, help="Fill the remaining seats with bots.")
@click.option("--option", "options", multiple=True, help="A game option, KEY=VALUE.")
@click.option("--hours", type=float, default=None, help="Deadline length of a turn, in hours.")
@click.option("--gm", "gm_email", default="", help="The GM's e-mail (alerts).")
@click.option("--no-early", is_flag=True, help="Wait for the deadline even when all orders are in.")
@click.option("--policy", default=None,
              help='Deadline policy as JSON, e.g. {"clock": "20:00", "timezone": "Europe/Lisbon"}.')
def game_create(slug, players, bot, options, hours, gm_email, no_early, policy) -> None:
    """Create a game and print its seats and links as JSON."""
    opts = dict(parse_option(o) for o in options)
    try:
        pol = json.loads(policy) if policy else None
        if hours is not None:  # an explicit length beats the game's suggested one
            pol = {**(pol or {}), "hours": hours}
        hours = hours if hours is not None else float(current_app.config["DEFAULT_HOURS"])
        result = create(slug, list(players), bot, opts, hours, gm_email, not no_early, pol)
    except (LookupError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps(result))


@click.command("tick")
@with_appcontext
@click.option("--now", "now_text", default=None, help="Resolve as if it were this instant (ISO-8601).")
def tick(now_text: str | None) -> None:
    """Resolve every step due now (or at --now) and print a JSON summary."""
    now = parse_now(now_text)
    summary = turns.process_due(get_engine(), now, max_attempts=current_app.config["MAX_ATTEMPTS"])
    click.echo(json.dumps(summary))


@mail_cli.command("deliver")
def mail_deliver() -> None:
    """Send pending mail now and print how many were sent, deferred, failed."""
    counts = deliver_pending(current_app._get_current_object())  # type: ignore[attr-defined]
    click.echo(json.dumps(counts))


@click.command("demo")
@with_appcontext
@click.option("--email", default="you@example.org", help="Your address in the demo games.")
@click.option("--serve", is_flag=True, help="Then run the web server and the scheduler.")
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=5000, type=int)
def demo(email: str, serve: bool, host: str, port: int) -> None:
    """Create demo games (bots in every seat but yours) and print their links."""
    if serve:
        follow_port(current_app, host, port)
    lines = create_demo_games(email)
    for line in lines:
        click.echo(line)
    if current_app.config["DEV_MAILBOX"]:
        click.echo(f"Local mailbox: {current_app.config['BASE_URL']}/dev/mailbox")
    if serve:
        serve_forever(current_app._get_current_object(), host, port)  # type: ignore[attr-defined]


@click.command("serve")
@with_appcontext
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=5000, type=int)
def serve(host: str, port: int) -> None:
    """Run the web server with the scheduler in one process (the embedded default)."""
    follow_port(current_app, host, port)
    serve_forever(current_app._get_current_object(), host, port)  # type: ignore[attr-defined]


#: ``BASE_URL`` when no configuration sets it: the embedded server's default address
DEFAULT_BASE_URL = "http://127.0.0.1:5000"


def follow_port(app: Flask, host: str, port: int) -> None:
    """Links in mails and reports point at the address being served when no ``BASE_URL`` was configured
    (a demo on ``--port 5101`` mails links to port 5101, not to the default 5000)."""
    if str(app.config["BASE_URL"]).rstrip("/") != DEFAULT_BASE_URL:
        return
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # noqa: S104  # nosec B104 (no bind: a name for links)
    app.config["BASE_URL"] = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"


def serve_forever(app: Flask, host: str, port: int) -> None:
    start_worker(app)  # its web threads' pages built, then every game loaded and frozen
    init_scheduler(app)
    click.echo(f"Serving on http://{host}:{port}/ (scheduler running)")
    run_simple(host, port, app, threaded=True, use_reloader=False, request_handler=RedactingRequestHandler)


def init_app(app: Flask) -> None:
    app.cli.add_command(game_cli)
    app.cli.add_command(mail_cli)
    app.cli.add_command(tick)
    app.cli.add_command(demo)
    app.cli.add_command(serve)
    app.cli.add_command(league_cli)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(jobs_cli)
    app.cli.add_command(verify_command)
    register_mailin(mail_cli)
