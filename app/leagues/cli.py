"""``flask --app app league ...``: create leagues, add players, run seasons."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from app.cliutil import parse_option
from app.db import get_engine, write_session
from app.leagues import core
from app.links import base_url
from app.models import League

league_cli = AppGroup("league", help="Correspondence leagues.")


def _find(session, slug: str) -> League:  # type: ignore[no-untyped-def]
    league = core.by_slug(session, slug)
    if league is None:
        raise click.ClickException(f"no league {slug!r}")
    return league


def _links(league: League) -> dict:
    return {"league": league.id, "slug": league.slug, "public": f"{base_url()}/l/{league.slug}",
            "gm_link": core.gm_link(league), "invite": core.invite_link(league)}


@league_cli.command("create")
@click.argument("name")
@click.option("--game", "game_slug", required=True, help="The game every league game is played with.")
@click.option("--option", "options", multiple=True, help="A game option, KEY=VALUE.")
@click.option("--policy", default=None, help="Deadline policy as JSON (see app/deadlines.py).")
@click.option("--tz", "timezone", default="UTC", help="The league's IANA time zone.")
@click.option("--hours", type=float, default=None, help="Step length in hours (default: the game's own).")
@click.option("--extensions", type=int, default=2, help="Excused extensions per player per game.")
@click.option("--gm", "gm_email", default="")
def create(name, game_slug, options, policy, timezone, hours, extensions, gm_email) -> None:
    """Create a league and print its links as JSON."""
    try:
        with write_session(get_engine()) as session:
            league = core.create_league(session, name, game_slug, options=dict(parse_option(o) for o in options),
                                        policy=json.loads(policy) if policy else None, timezone=timezone,
                                        hours=hours, gm_email=gm_email, max_extensions=extensions)
            click.echo(json.dumps(_links(league)))
    except (LookupError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc


@league_cli.command("add")
@click.argument("slug")
@click.argument("emails", nargs=-1, required=True)
def add(slug, emails) -> None:
    """Add players to a league by e-mail."""
    try:
        with write_session(get_engine()) as session:
            league = _find(session, slug)
            for email in emails:
                core.add_member(session, league, email)
            click.echo(json.dumps({"league": league.slug, "members": len(core.members(session, league))}))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc


@league_cli.command("season")
@click.argument("slug")
@click.option("--rounds", type=int, default=None)
def season(slug, rounds) -> None:
    """Start the next season: pair the members and create the first round's games."""
    try:
        with write_session(get_engine()) as session:
            league = _find(session, slug)
            made = core.start_season(session, league, rounds=rounds)
            click.echo(json.dumps({"season": made.number, "rounds": made.rounds, "round": made.round_no}))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc


@league_cli.command("advance")
def advance() -> None:
    """Record finished games and open the next rounds."""
    with write_session(get_engine()) as session:
        click.echo(json.dumps(core.advance(session)))


@league_cli.command("standings")
@click.argument("slug")
def standings(slug) -> None:
    """Print the standings as JSON."""
    with write_session(get_engine()) as session:
        click.echo(json.dumps(core.standings(session, _find(session, slug))))
