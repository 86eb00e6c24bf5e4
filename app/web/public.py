"""Spectators: a public, read-only page of each game (the public view only)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from sqlmodel import col, select

from app import turns
from app.db import get_session
from app.games import get_rules
from app.kinds import GameStatus
from app.models import Event, Game, Seat
from app.notify import log_entries

bp = Blueprint("public", __name__, url_prefix="/g")

#: How many public events the page shows (the newest).
LOG_LENGTH = 200


@bp.route("/<int:game_id>")
def spectate(game_id: int) -> str:
    session = get_session()
    game = session.get(Game, game_id) or abort(404)
    rules = get_rules(game.slug)
    # a JSON column stores "to everyone" as JSON null, which SQL's IS NULL does not match: filter here
    rows = session.exec(select(Event).where(Event.game_id == game.id)
                        .order_by(Event.step_no.desc(), Event.seq.desc(), col(Event.id).desc())  # type: ignore[attr-defined]
                        .limit(4 * LOG_LENGTH)).all()
    public = [e for e in rows if e.to is None][:LOG_LENGTH][::-1]
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    ordered = turns.current_orders(session, game.id, game.step_no) if game.status == GameStatus.RUNNING else {}
    awaited = [s.seat for s in seats if game.status == GameStatus.RUNNING and s.seat in game.owed
               and s.seat not in ordered]
    return render_template("web/spectate.html", game=game, view=rules.view(game.state, None),
                           events=log_entries(session, game, public, game.state), seats=seats, awaited=awaited,
                           draws_board=rules.draws_board, outcome=rules.outcome(game.state),
                           bots=[s.seat for s in seats if s.is_bot])
