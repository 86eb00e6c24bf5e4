"""Pauses that need the players' consent.

A GM who also plays in a game cannot pause it alone: they ask, and the pause
starts only when every other player has agreed on their own page
(``/p/<token>/pause``).  The requests and answers themselves are kept by the
turn processor (``app.turns.control``); this page shows and posts them.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request

from app import turns
from app.db import get_engine, get_session, write_session
from app.models import Game, Seat, utcnow
from app.notices import reason
from app.web.play import CsrfExpired, check_csrf, csrf_token, find_seat

bp = Blueprint("consent", __name__)


@bp.route("/p/<token>/pause", methods=["GET", "HEAD"])
def show(token: str) -> Response:
    game, seat = find_seat(token)
    return _page(game, seat, token)


def _page(game: Game, seat: Seat, token: str, error: object = None, status: int = 200) -> Response:
    session = get_session()
    req = turns.open_pause_request(session, game)
    agreed = turns.pause_consents(session, game, req) if req else set()
    return make_response(render_template(
        "web/pause.html", game=game, seat=seat, req=req, agreed=agreed, token=token, error=error,
        csrf=csrf_token(seat), voters=sorted(turns.pause_voters(session, game))), status)


@bp.route("/p/<token>/pause", methods=["POST"])
def agree(token: str) -> Response:
    game, seat = find_seat(token)
    try:
        check_csrf(seat, request.form.get("csrf_token"))
    except CsrfExpired:
        return redirect(f"/p/{token}/pause", code=303)
    try:
        with write_session(get_engine()) as session:
            live = session.get(Game, game.id)
            if live is None:
                abort(404)
            turns.consent_to_pause(session, live, seat.seat, utcnow())
    except turns.Refused as exc:  # the request closed meanwhile, or this seat does not vote: say so
        get_session().expire_all()
        return _page(get_session().get(Game, game.id) or game, seat, token, error=reason(exc), status=409)
    return redirect(f"/p/{token}/pause", code=303)
