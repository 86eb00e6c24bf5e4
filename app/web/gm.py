"""GM pages: create a game, watch who has ordered, extend, pause, replace a link."""

from __future__ import annotations

import hmac
import json
from datetime import timedelta

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from sqlmodel import select

from app import turns
from app.db import get_engine, get_session, write_session
from app.games import all_games
from app.links import gm_token, seat_link
from app.models import Event, Game, GmAction, OutboxMail, Player, Seat, iso, utcnow
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
            raw_hours = (request.form.get("hours") or "").strip()
            hours = float(raw_hours) if raw_hours else float(current_app.config["DEFAULT_HOURS"])
            if hours <= 0:
                raise ValueError("hours per turn must be more than 0")
            if slug not in games:
                raise ValueError("choose a game")
            with write_session(get_engine()) as session:
                made = turns.create_game(session, slug, emails, options=options, hours=hours,
                                         policy={"hours": hours} if raw_hours else None,
                                         bots=bool(request.form.get("bots")),
                                         gm_email=request.form.get("gm_email", "").strip())
                token = gm_token(made.game)
                ready, game_id = made.game.all_in, made.game.id
            if ready:  # bots owe the first step
                turns.process_game(get_engine(), game_id, utcnow(), max_attempts=current_app.config["MAX_ATTEMPTS"])
            return redirect(f"/gm/{token}", code=303)
        except (ValueError, LookupError) as exc:
            error = str(exc)
    return render_template("web/gm_new.html", games=games, error=error, form=request.form)


@bp.route("/<token>", methods=["GET", "HEAD"])
def overview(token: str, new_link: str | None = None, error: str = "", status: int = 200):  # type: ignore[no-untyped-def]
    game = find_game(token)
    session = get_session()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    players = {s.id: session.get(Player, s.player_id) for s in seats if s.player_id}
    orders = turns.current_orders(session, game.id, game.step_no)
    log = session.exec(select(GmAction).where(GmAction.game_id == game.id).order_by(GmAction.id.desc())).all()
    html = render_template("web/gm.html", game=game, seats=seats, players=players, orders=orders, csrf=_csrf(game),
                           token=token, new_link=new_link, error=error, log=log,
                           extension_left=_extension_left(session, game))
    return make_response(html, status)


def _extension_left(session, game: Game) -> float:  # type: ignore[no-untyped-def]
    used = sum(a.hours for a in session.exec(select(GmAction).where(GmAction.game_id == game.id,
                                                                    GmAction.action.in_(("extend", "pause")))))
    return max(0.0, float(current_app.config["GM_MAX_EXTENSION_HOURS"]) - used)


def _gm_plays(session, game: Game) -> bool:  # type: ignore[no-untyped-def]
    if not game.gm_email:
        return False
    for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if player is not None and player.email.lower() == game.gm_email.lower():
            return True
    return False


class Refused(Exception):
    pass


@bp.route("/<token>", methods=["POST"])
def act(token: str):  # type: ignore[no-untyped-def]
    game = find_game(token)
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or not hmac.compare_digest(
        request.form.get("csrf_token", ""), _csrf(game)
    ):
        abort(403)
    action = request.form.get("action", "")
    engine = get_engine()
    now = utcnow()
    new_link = None
    try:
        with write_session(engine) as session:
            live = session.get(Game, game.id)
            new_link = _apply(session, live, action, now)
    except (Refused, ValueError) as exc:
        get_session().expire_all()
        return overview(token, error=str(exc), status=422)
    if action == "resolve":
        turns.process_game(engine, game.id, now, max_attempts=current_app.config["MAX_ATTEMPTS"])
    if new_link:
        get_session().expire_all()
        return overview(token, new_link=new_link)
    return redirect(f"/gm/{token}", code=303)


def _apply(session, live: Game, action: str, now) -> str | None:  # type: ignore[no-untyped-def]
    """One GM action; every change of time is capped and logged, and players are told."""
    seat_id = request.form.get("seat", "")
    if action == "ask-pause" and _gm_plays(session, live):
        from app.web.consent import ask, open_request

        if open_request(session, live) is not None:
            raise Refused("A pause request is already open.")
        hours = max(1.0, min(float(request.form.get("hours") or 24), _extension_left(session, live)))
        ask(session, live, hours, now)
        _log(session, live, "ask-pause", 0.0, f"{hours:g} h", now)
        return None
    if action in ("extend", "pause") and _gm_plays(session, live):
        raise Refused("You play in this game, so you cannot extend or pause it yourself: "
                      "ask the other players with \"Ask to pause\" (every one must agree).")
    if action == "extend" and live.deadline:
        hours = max(0.0, min(float(request.form.get("hours") or 24), 24 * 30))
        if hours > _extension_left(session, live):
            raise Refused(f"GM extensions are capped: {_extension_left(session, live):g} hours left in this game.")
        live.deadline = live.deadline + timedelta(hours=hours)
        _log(session, live, "extend", hours, f"deadline now {iso(live.deadline)}", now)
    elif action == "pause" and live.status == "running":
        live.status = "paused"
        _log(session, live, "pause", 0.0, "", now)
    elif action in ("resume", "retry") and live.status in ("paused", "crashed"):
        paused = session.exec(select(GmAction).where(GmAction.game_id == live.id, GmAction.action == "pause")
                              .order_by(GmAction.id.desc())).first()
        if paused is not None and live.status == "paused" and live.deadline:
            away = now - paused.created_at
            paused.hours = round(away.total_seconds() / 3600, 2)  # a pause counts against the cap
            session.add(paused)
            live.deadline = max(live.deadline + away, now + timedelta(hours=1))
        live.status = "running"
        live.attempts = 0
        if live.deadline and live.deadline < now:
            live.deadline = now + timedelta(hours=live.hours)
        _log(session, live, "resume", 0.0, "", now)
    elif action == "resolve" and live.status == "running":
        live.deadline = now
        _log(session, live, "resolve", 0.0, "deadline set to now", now)
    elif action == "rotate":
        turns.rotate_link(session, live, seat_id)
        seat = session.exec(select(Seat).where(Seat.game_id == live.id, Seat.seat == seat_id)).one()
        _log(session, live, "rotate", 0.0, seat_id, now)
        session.add(live)
        return seat_link(seat)
    elif action == "replace":
        email = (request.form.get("email") or "").strip()
        if "@" not in email or any(c in email for c in "\r\n <>"):
            raise Refused("Give the new player's e-mail address.")
        turns.replace_player(session, live, seat_id, email, now)
    elif action == "resend":
        _resend(session, live, seat_id)
    session.add(live)
    return None


def _log(session, game: Game, action: str, hours: float, detail: str, now) -> None:  # type: ignore[no-untyped-def]
    session.add(GmAction(game_id=game.id, action=action, hours=hours, detail=detail, created_at=now))
    text = {"extend": f"The GM extended the deadline by {hours:g} hours.",
            "pause": "The GM paused the game.", "resume": "The GM resumed the game."}.get(action)
    if text:
        session.add(Event(game_id=game.id, step_no=game.step_no, seq=-1, to=None, text=text, created_at=now))


def _resend(session, game: Game, seat_id: str) -> None:  # type: ignore[no-untyped-def]
    """Send a seat's latest mail again (same Message-ID: clients show it once)."""
    last = session.exec(select(OutboxMail).where(OutboxMail.game_id == game.id, OutboxMail.seat == seat_id)
                        .order_by(OutboxMail.id.desc())).first()
    if last is None:
        raise Refused(f"No mail to {seat_id} yet.")
    last.status = "pending"
    last.next_attempt_at = utcnow()
    session.add(last)
