"""GM pages: create a game, watch who has ordered, extend, pause, replace a link."""

from __future__ import annotations

import hmac
import json
from datetime import timedelta

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request
from sqlmodel import select

from app import turns
from app.db import get_engine, get_session, write_session
from app.games import all_games
from app.links import gm_link, gm_token, seat_link
from app.models import Game, Player, Seat, utcnow
from app.tokens import hash_token, looks_like_token, sign

bp = Blueprint("gm", __name__, url_prefix="/gm")


def find_game(token: str) -> Game:
    if not looks_like_token(token):
        abort(404)
    game = get_session().exec(select(Game).where(Game.gm_token_hash == hash_token(token))).first()
    return game or abort(404)


def _csrf(game: Game) -> str:
    return sign(current_app.config["SECRET_KEY"], "gm-csrf", game.id, game.gm_salt)


def _may_create() -> bool:
    key = current_app.config.get("GM_CREATE_KEY")
    if key:
        return hmac.compare_digest(str(request.values.get("key", "")), str(key))
    return current_app.config["ENV_NAME"] != "production"


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response | str:
    if not _may_create():
        abort(403)
    games = all_games()
    error = ""
    if request.method == "POST":
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            abort(403)
        slug = request.form.get("slug", "")
        emails = [e.strip() for e in request.form.get("players", "").replace(",", "\n").splitlines() if e.strip()]
        try:
            options = json.loads(request.form.get("options") or "{}")
            if not isinstance(options, dict):
                raise ValueError("options must be a JSON object")
            hours = float(request.form.get("hours") or 24)
            if slug not in games:
                raise ValueError("choose a game")
            with write_session(get_engine()) as session:
                made = turns.create_game(session, slug, emails, options=options, hours=hours,
                                         bots=bool(request.form.get("bots")),
                                         gm_email=request.form.get("gm_email", "").strip())
                token = gm_token(made.game)
            return redirect(f"/gm/{token}", code=303)
        except (ValueError, LookupError) as exc:
            error = str(exc)
    return render_template("web/gm_new.html", games=games, error=error, form=request.form)


@bp.route("/<token>", methods=["GET", "HEAD"])
def overview(token: str) -> str:
    game = find_game(token)
    session = get_session()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    players = {s.id: session.get(Player, s.player_id) for s in seats if s.player_id}
    orders = turns.current_orders(session, game.id, game.step_no)
    return render_template("web/gm.html", game=game, seats=seats, players=players, orders=orders,
                           csrf=_csrf(game), token=token, new_link=None)


@bp.route("/<token>", methods=["POST"])
def act(token: str) -> Response | str:
    game = find_game(token)
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or not hmac.compare_digest(
        request.form.get("csrf_token", ""), _csrf(game)
    ):
        abort(403)
    action = request.form.get("action", "")
    engine = get_engine()
    now = utcnow()
    new_link = None
    with write_session(engine) as session:
        live = session.get(Game, game.id)
        if action == "extend" and live.deadline:
            hours = max(0.0, min(float(request.form.get("hours") or 24), 24 * 30))
            live.deadline = live.deadline + timedelta(hours=hours)
        elif action == "pause" and live.status == "running":
            live.status = "paused"
        elif action in ("resume", "retry") and live.status in ("paused", "crashed"):
            live.status = "running"
            live.attempts = 0
            if live.deadline and live.deadline < now:
                live.deadline = now + timedelta(hours=live.hours)
        elif action == "resolve" and live.status == "running":
            live.deadline = now
        elif action == "rotate":
            turns.rotate_link(session, live, request.form.get("seat", ""))
            seat = session.exec(select(Seat).where(Seat.game_id == live.id,
                                                   Seat.seat == request.form.get("seat", ""))).one()
            new_link = seat_link(seat)
        session.add(live)
    if action == "resolve":
        turns.process_game(engine, game.id, now, max_attempts=current_app.config["MAX_ATTEMPTS"])
    if new_link:
        get_session().expire_all()
        return overview_with_link(token, new_link)
    return redirect(f"/gm/{token}", code=303)


def overview_with_link(token: str, link: str) -> str:
    game = find_game(token)
    session = get_session()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    players = {s.id: session.get(Player, s.player_id) for s in seats if s.player_id}
    orders = turns.current_orders(session, game.id, game.step_no)
    return render_template("web/gm.html", game=game, seats=seats, players=players, orders=orders,
                           csrf=_csrf(game), token=token, new_link=link)


def gm_url(game: Game) -> str:
    return gm_link(game)
