"""Pauses that need the players' consent.

A GM who also plays in a game cannot pause it alone: they ask, and the pause
starts only when every other player has agreed on their own page
(``/p/<token>/pause``).  Requests and answers are logged as GM actions.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request
from sqlmodel import select

from app.db import get_engine, get_session, write_session
from app.models import Event, Game, GmAction, Seat, utcnow
from app.web.play import CsrfExpired, check_csrf, csrf_token, find_seat

bp = Blueprint("consent", __name__)


def open_request(session, game: Game) -> GmAction | None:  # type: ignore[no-untyped-def]
    """The pending pause request of a game, if any."""
    req = session.exec(select(GmAction).where(GmAction.game_id == game.id, GmAction.action == "pause-request")
                       .order_by(GmAction.id.desc())).first()
    if req is None or req.detail != "open" or game.status != "running":
        return None
    return req


def consents(session, game: Game, req: GmAction) -> set[str]:  # type: ignore[no-untyped-def]
    rows = session.exec(select(GmAction).where(GmAction.game_id == game.id, GmAction.action == "pause-consent",
                                               GmAction.id > req.id)).all()
    return {r.detail for r in rows}


def voters(session, game: Game) -> set[str]:  # type: ignore[no-untyped-def]
    """Seats whose players must agree: every human seat but the GM's own."""
    from app.models import Player

    out = set()
    for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if player is not None and player.email.lower() != (game.gm_email or "").lower():
            out.add(seat.seat)
    return out


def ask(session, game: Game, hours: float, now) -> None:  # type: ignore[no-untyped-def]
    session.add(GmAction(game_id=game.id, action="pause-request", hours=hours, detail="open", created_at=now))
    session.add(Event(game_id=game.id, step_no=game.step_no, seq=-1, to=None, created_at=now,
                      text=f"The GM, who also plays, asks to pause the game for {hours:g} hours. It pauses only "
                           f"if every other player agrees (link \"Pause request\" at the foot of your page)."))


@bp.route("/p/<token>/pause", methods=["GET", "HEAD"])
def show(token: str) -> str:
    game, seat = find_seat(token)
    session = get_session()
    req = open_request(session, game)
    agreed = consents(session, game, req) if req else set()
    return render_template("web/pause.html", game=game, seat=seat, req=req, agreed=agreed, token=token,
                           csrf=csrf_token(seat), voters=sorted(voters(session, game)))


@bp.route("/p/<token>/pause", methods=["POST"])
def agree(token: str) -> Response:
    game, seat = find_seat(token)
    try:
        check_csrf(seat, request.form.get("csrf_token"))
    except CsrfExpired:
        return redirect(f"/p/{token}/pause", code=303)
    now = utcnow()
    with write_session(get_engine()) as session:
        live = session.get(Game, game.id)
        req = open_request(session, live)
        if req is None or seat.seat not in voters(session, live):
            abort(409)
        if seat.seat not in consents(session, live, req):
            session.add(GmAction(game_id=live.id, action="pause-consent", detail=seat.seat, created_at=now))
            session.flush()
        if consents(session, live, req) >= voters(session, live):
            req.detail = "granted"
            session.add(req)
            live.status = "paused"
            session.add(GmAction(game_id=live.id, action="pause", detail="agreed by every player", created_at=now))
            session.add(Event(game_id=live.id, step_no=live.step_no, seq=-1, to=None, created_at=now,
                              text="Every player agreed: the game is paused."))
            session.add(live)
    return redirect(f"/p/{token}/pause", code=303)
