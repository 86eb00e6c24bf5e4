"""Press on the seat page: send a message, mark messages as read, the seat's export (``app.press``).

Only POSTs with the seat's form token act; the seat page draws the press card
from :func:`press_panel` (a template global), so ``/p/<token>`` itself is unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, request
from sqlmodel import select

from app import press
from app.db import get_engine, get_session, write_session
from app.i18n.terms import N_
from app.kinds import GameStatus
from app.models import Game, Seat, utcnow
from app.notices import Refusal, reason
from app.verify import export_game
from app.web.play import CsrfExpired, check_csrf, find_seat, live_rows, render_page

bp = Blueprint("press", __name__)

EVERYONE = "*"


@bp.app_template_global("press_panel")
def press_panel(game: Game, seat: Seat) -> dict[str, Any]:
    """What the seat page's press card shows: the messages this seat may read, unread count, who to write to."""
    session = get_session()
    others = [s.seat for s in session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id))
              if s.seat != seat.seat]
    return {"messages": press.for_seat(session, seat, limit=100), "unread": press.unread(session, seat),
            "read_up_to": seat.press_read, "others": others, "mode": game.press or press.PressMode.FULL,
            "closed": press.allowed_now(game, None), "max_chars": press.max_chars(),
            "mode_name": press.MODE_NAMES.get(press.PressMode(game.press or "full"))}


def _checked(token: str) -> tuple[Game, Seat] | Response:
    game, seat = find_seat(token)
    try:
        check_csrf(seat, request.form.get("csrf_token"))
    except CsrfExpired:
        return render_page(game, seat, status=400, error={"platform": N_(
            "This form was open too long: write your message again and send it."), "args": {}})
    return game, seat


@bp.route("/p/<token>/press", methods=["POST"])
def send(token: str) -> Response:
    checked = _checked(token)
    if isinstance(checked, Response):
        return checked
    game, seat = checked
    chosen = request.form.getlist("to")
    to = None if EVERYONE in chosen else chosen
    text = request.form.get("text") or ""
    try:
        if not chosen:  # never "everyone" by default: a private word must not go to all by a missed tick
            raise Refusal(N_("Tick who is to read your message (or Everyone). Nothing was sent."))
        with write_session(get_engine()) as session:
            live_game, live_seat = live_rows(session, game, seat)
            if len(text) > 4 * press.max_chars():
                raise Refusal(N_("A message has at most {n} characters."), n=press.max_chars())
            press.send(session, live_game, live_seat, to, text, utcnow())
            press.mark_read(session, live_seat)
    except Refusal as exc:  # shown in the press card, the message and its ticks kept
        get_session().expire_all()
        return render_page(game, seat, status=422, error=reason(exc), press_draft={"text": text, "to": chosen})
    return redirect(f"/p/{token}?press=sent#press", code=303)


@bp.route("/p/<token>/press/read", methods=["POST"])
def read(token: str) -> Response:
    checked = _checked(token)
    if isinstance(checked, Response):
        return checked
    _game, seat = checked
    with write_session(get_engine()) as session:
        live = session.get(Seat, seat.id)
        if live is not None:
            press.mark_read(session, live)
    return redirect(f"/p/{token}#press", code=303)


@bp.route("/p/<token>/export.json", methods=["GET", "HEAD"])
def export(token: str) -> Response:
    """The finished game as data (``/g/<id>/export.json``) with the press this seat may read."""
    game, seat = find_seat(token)
    if game.status != GameStatus.FINISHED:
        abort(404)
    session = get_session()
    data = export_game(session, game, str(current_app.config["SECRET_KEY"]))
    data["seat"] = seat.seat
    data["press"] = press.for_report(session, seat)
    resp = make_response(json.dumps(data, ensure_ascii=False, indent=1))
    resp.headers["Content-Type"] = "application/json; charset=utf-8"
    resp.headers["Content-Disposition"] = f'inline; filename="game-{game.id}-{seat.seat}-export.json"'
    return resp
