"""League pages: public standings, printable standings PDF, the league GM page (joining: ``league_join``)."""

from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from sqlmodel import select

from app import turns
from app.db import get_engine, get_session, write_session
from app.i18n import gettext
from app.i18n.terms import N_
from app.kinds import GameStatus
from app.leagues import core
from app.links import gm_link
from app.models import Game, League, LeagueGame, Player, Season, Seat
from app.notices import Refusal, reason
from app.render_env import ASSET_SCHEME, asset_fetcher
from app.tokens import hash_token, looks_like_token, sign
from app.web.limits import client_address, link_known, take_or_refuse
from app.web.pdfcache import cached, report_limit

bp = Blueprint("leagues", __name__)


def league_page(slug: str) -> League:
    """The league at ``/l/<slug>``, or a 404 page."""
    return core.by_slug(get_session(), slug) or abort(404)


def _public_context(league: League) -> dict:
    session = get_session()
    seasons = session.exec(select(Season).where(Season.league_id == league.id).order_by(Season.number)).all()
    games = {}
    for season in seasons:
        rows = session.exec(select(LeagueGame).where(LeagueGame.season_id == season.id)
                            .order_by(LeagueGame.round_no, LeagueGame.id)).all()
        games[season.id] = [(lg, session.get(Game, lg.game_id)) for lg in rows]
    numbers = core.member_numbers(session, league)
    members = core.members(session, league)
    history = [(player.name, numbers.get(player.id or 0, 0), core.history(session, league, player.id))
               for _member, player in members]
    return {"league": league, "standings": core.standings(session, league), "seasons": seasons, "games": games,
            "history": [h for h in history if h[2]], "members": members}


@bp.route("/l/<slug>")
def public(slug: str) -> str:
    return render_template("web/league.html", **_public_context(league_page(slug)))


@bp.route("/l/<slug>/standings.pdf")
def standings_pdf(slug: str) -> Response:
    # deferred: WeasyPrint loads Pango, which no other page needs
    import weasyprint

    league = league_page(slug)
    html = render_template("reports/standings.html", **_public_context(league))

    def render() -> bytes:  # a miss: counted against the client's render limit, as a turn report's is
        take_or_refuse(report_limit(), client_address(), "standings-render")
        return bytes(weasyprint.HTML(string=html, base_url=ASSET_SCHEME + "/", url_fetcher=asset_fetcher()).write_pdf())

    pdf = cached(("standings", league.id, hashlib.sha256(html.encode()).hexdigest()), render)
    resp = make_response(pdf)
    resp.headers["Content-Type"] = "application/pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="{slug}-standings.pdf"'
    return resp


def _gm_league(token: str) -> League:
    if not looks_like_token(token):
        abort(404)
    league = get_session().exec(select(League).where(League.gm_token_hash == hash_token(token))).first()
    if league is None:
        abort(404)
    link_known()
    return league


def _gm_csrf(league: League) -> str:
    return sign(current_app.config["SECRET_KEY"], "league-gm", league.id, league.gm_salt)


#: what the league GM page says after an action (``?done=``)
DONE = {"add": N_("Done: the players were added."),
        "season": N_("Done: the new season's first round of games has begun."),
        "advance": N_("Done: results recorded."),
        "new-invite": N_("Done: the invitation link above is new. The old one no longer works."),
        "new-gm-link": N_("This is the league's new GM page: the old address no longer works. Your GM home (in "
                          "your mails) lists this one.")}


@bp.route("/lg/<token>", methods=["GET", "HEAD"])
def gm(token: str, error: str = "", notice: str = "") -> str:
    league = _gm_league(token)
    done = DONE.get(request.args.get("done", ""))
    notice = notice or (gettext(done) if done and not error else "")
    session = get_session()
    ctx = _public_context(league)
    running = []
    for rows in ctx["games"].values():
        for _lg, game in rows:
            if game is not None and game.status in (GameStatus.RUNNING, GameStatus.PAUSED, GameStatus.CRASHED):
                have = turns.current_orders(session, game.id, game.step_no)
                seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
                waiting = []  # (seat, who): the GM added the players by address, and reads it
                for s in seats:
                    if s.seat in game.owed and s.seat not in have:
                        player = session.get(Player, s.player_id) if s.player_id else None
                        waiting.append((s.seat, (player.name or player.email) if player else ""))
                running.append((game, waiting, gm_link(game)))
    return render_template("web/league_gm.html", token=token, csrf=_gm_csrf(league), running=running,
                           invite=core.invite_link(league), error=error, notice=notice, **ctx)


@bp.route("/lg/<token>", methods=["POST"])
def gm_act(token: str) -> Response | str:
    league = _gm_league(token)
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or not hmac.compare_digest(
            request.form.get("csrf_token", ""), _gm_csrf(league)):
        abort(403)
    action = request.form.get("action", "")
    try:
        with write_session(get_engine()) as session:
            live = session.get(League, league.id)
            if action == "add":
                text = request.form.get("emails", "").replace(",", "\n")
                for email in [e.strip() for e in text.splitlines() if e.strip()]:
                    core.add_member(session, live, email)
            elif action == "season":
                core.start_season(session, live)
            elif action == "advance":
                core.advance(session)
            elif action == "new-invite":
                core.new_invitation(live)
                session.add(live)
            elif action == "new-gm-link":
                token = core.new_gm_page(live)  # the page answers at its new address from here on
                session.add(live)
            else:
                raise Refusal(N_("Choose one of the page's actions."))
    except ValueError as exc:
        get_session().expire_all()
        return make_response(gm(token, error=reason(exc)), 422)
    return redirect(f"/lg/{token}?done={action}", code=303)
