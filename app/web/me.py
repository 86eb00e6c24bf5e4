"""The player's home and settings page (``/me/<token>``) and private calendar feed.

Every game of the player with what is owed and by when, unread press and the
latest report (``app.home``); time zone, daily digest, unsubscribe from news
(mail that needs no answer; mail for decisions owed always goes out), declared
absences, and an .ics feed of every deadline.
"""

from __future__ import annotations

import hmac
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, available_timezones

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from flask_babel import format_decimal
from sqlalchemy import func
from sqlmodel import select

from app import home, turns
from app.calendar import deadlines_ics
from app.db import get_engine, get_session, write_session
from app.deadlines import known_zone
from app.i18n import LANGUAGES, gettext
from app.i18n.terms import N_
from app.kinds import GameStatus
from app.leagues.absences import allowance, days_used, declare
from app.leagues.core import gm_link as league_gm_link
from app.links import gm_link, issue_prefs_token, prefs_token, seat_link
from app.models import Absence, Game, League, Player, Seat, utcnow
from app.notices import Refusal, reason
from app.tokens import hash_token, looks_like_token, sign
from app.turns.store import address_key
from app.usertext import clean
from app.web.limits import link_known

bp = Blueprint("me", __name__, url_prefix="/me")

#: How far ahead an absence may end (a date in year 9999 would overflow).
ABSENCE_HORIZON = timedelta(days=2 * 366)


def find_player(token: str) -> Player:
    if not looks_like_token(token):
        abort(404)
    player = get_session().exec(select(Player).where(Player.prefs_hash == hash_token(token))).first()
    if player is not None and hmac.compare_digest(prefs_token(player), token):
        link_known()
        return player
    abort(404)


def _csrf(player: Player) -> str:
    return sign(current_app.config["SECRET_KEY"], "prefs-csrf", player.id, player.prefs_salt)


def _games(player: Player) -> list[tuple[Game, Seat, str]]:
    session = get_session()
    seats = session.exec(select(Seat).where(Seat.player_id == player.id)).all()
    out = []
    for seat in seats:
        game = session.get(Game, seat.game_id)
        if game is not None:
            out.append((game, seat, seat_link(seat)))
    latest = datetime.max.replace(tzinfo=UTC)
    return sorted(out, key=lambda g: (g[0].status != GameStatus.RUNNING, g[0].deadline or latest))


@bp.route("/<token>", methods=["GET", "HEAD"])
def settings(token: str) -> str:
    player = find_player(token)
    return _page(player, token)


#: how a GM's home lists their games: those that need them first (a crashed game), then running games by
#: deadline, paused games, and finished games last
GM_ORDER = {GameStatus.CRASHED: 0, GameStatus.RUNNING: 1, GameStatus.PAUSED: 2, GameStatus.FINISHED: 3}


def _gm_games(player: Player) -> list[tuple[Game, list[str], str]]:
    """Games this player runs as GM: who they wait for, and the GM link."""
    session = get_session()
    games = session.exec(select(Game).where(func.lower(Game.gm_email) == address_key(player.email))).all()
    latest = datetime.max.replace(tzinfo=UTC)
    games = sorted(games, key=lambda g: (GM_ORDER.get(g.status, len(GM_ORDER)), g.deadline or latest, g.id or 0))
    out = []
    for game in games:
        have = turns.current_orders(session, game.id, game.step_no) if game.status == GameStatus.RUNNING else {}
        waiting = sorted(s for s in game.owed if s not in have) if game.status == GameStatus.RUNNING else []
        out.append((game, waiting, gm_link(game)))
    return out


def _gm_leagues(player: Player) -> list[tuple[League, str]]:
    """Leagues this player runs as GM, each with its GM page."""
    leagues = get_session().exec(select(League).where(func.lower(League.gm_email) == address_key(player.email))
                                 .order_by(League.id)).all()
    return [(league, league_gm_link(league)) for league in leagues]


def _page(player: Player, token: str, error: str = "", notice: str = "", status: int = 200):  # type: ignore[no-untyped-def]
    session = get_session()
    absences = session.exec(select(Absence).where(Absence.player_id == player.id).order_by(Absence.start)).all()
    year = utcnow().year
    html = render_template("web/me.html", player=player, token=token, csrf=_csrf(player),
                           games=home.dashboard(session, player),
                           gm_games=_gm_games(player), gm_leagues=_gm_leagues(player),
                           absences=absences, error=error, notice=notice,
                           used=format_decimal(round(days_used(session, player.id, year), 1)),
                           allowed=allowance(session, player.id),
                           zones=sorted(z for z in available_timezones() if "/" in z))
    return make_response(html, status)


@bp.route("/<token>", methods=["POST"])
def update(token: str) -> Response:
    player = find_player(token)
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or not hmac.compare_digest(
            request.form.get("csrf_token", ""), _csrf(player)):
        abort(403)
    action = request.form.get("action", "")
    now = utcnow()
    try:
        with write_session(get_engine()) as session:
            live = session.get(Player, player.id)
            if action == "settings":
                tz = request.form.get("timezone", "UTC")
                if not known_zone(tz):
                    raise ValueError(gettext("“%(zone)s” is not a time zone.", zone=tz[:60]))
                live.timezone = tz
                language = request.form.get("language")
                if language:
                    if language not in LANGUAGES:
                        raise ValueError(gettext("“%(lang)s” is not a language of this server.", lang=language[:20]))
                    live.language = language
                live.digest = bool(request.form.get("digest"))
                live.optional_mail = not request.form.get("no_news")
                if "name" in request.form:  # an empty name is the player's choice too: shown by number
                    live.name = " ".join(clean(request.form["name"]).split())[:40]
            elif action == "unsubscribe":
                live.optional_mail = False
            elif action == "new-link":  # this page's address may have leaked: the old one stops working
                token = issue_prefs_token(live)
            elif action == "absence":
                zone = ZoneInfo(live.timezone or "UTC")
                try:
                    start = datetime.combine(datetime.fromisoformat(request.form["start"]).date(), time(0), zone)
                    end = datetime.combine(datetime.fromisoformat(request.form["end"]).date(), time(0), zone)
                except (KeyError, ValueError):
                    raise ValueError(gettext("Give the first and last day of your absence.")) from None
                if start.year < now.year - 1 or end.year < now.year - 1:
                    raise Refusal(N_("Absences are declared in advance, not for days already past."))
                if end.year > now.year + 2 or end > now + ABSENCE_HORIZON:
                    raise ValueError(gettext("An absence is declared at most two years ahead."))
                declare(session, live.id, start.astimezone(UTC), (end + timedelta(days=1)).astimezone(UTC), now)
            session.add(live)
    except ValueError as exc:
        get_session().expire_all()
        return _page(get_session().get(Player, player.id), token, error=reason(exc), status=422)
    return redirect(f"/me/{token}?saved=1", code=303)


@bp.route("/<token>/deadlines.ics")
def calendar(token: str) -> Response:
    player = find_player(token)
    games = _games(player)
    body = deadlines_ics([(g, s) for g, s, _link in games], link_of={s.id: link for _g, s, link in games})
    resp = make_response(body)
    resp.headers["Content-Type"] = "text/calendar; charset=utf-8"
    resp.headers["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    return resp
