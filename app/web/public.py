"""Spectators: a public, read-only page of each game (the public view only)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from sqlmodel import select

from app.db import get_session
from app.games import get_rules
from app.models import Event, Game, Seat

bp = Blueprint("public", __name__, url_prefix="/g")


@bp.route("/<int:game_id>")
def spectate(game_id: int) -> str:
    session = get_session()
    game = session.get(Game, game_id) or abort(404)
    rules = get_rules(game.slug)
    events = session.exec(select(Event).where(Event.game_id == game.id, Event.to == None)  # noqa: E711
                          .order_by(Event.step_no.desc(), Event.seq.desc()).limit(300)).all()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    return render_template("web/spectate.html", game=game, view=rules.view(game.state, None),
                           events=[e for e in events if e.to is None], seats=seats,
                           outcome=rules.outcome(game.state))
