"""GM pages: create a game, watch who has ordered, extend, pause, replace a link."""

from __future__ import annotations

import hmac
import json
from datetime import timedelta

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from sqlmodel import select

from app import press, turns
from app.db import get_engine, get_session, write_session
from app.games import all_games
from app.i18n.terms import N_
from app.kinds import GmActionKind, OutboxStatus
from app.links import issue_gm_token, seat_link
from app.models import Game, GmAction, OutboxMail, Player, Seat, utcnow
from app.notices import Refusal, reason, seat_name
from app.tokens import hash_token, looks_like_token, sign
from app.turns import Refused
from app.turns.store import player_by_address
from app.web.forms import finite_float
from app.web.limits import link_known

bp = Blueprint("gm", __name__, url_prefix="/gm")

#: The longest turn a new game may have (a year): a longer one would overflow dates.
MAX_TURN_HOURS = 24 * 366

#: Why an action is refused in the game's state (the page shows only the buttons that fit it).
_WRONG_STATE = {
    "pause": N_("Only a running game can be paused."),
    "resume": N_("The game is neither paused nor stopped by an error: there is nothing to resume."),
    "resolve": N_("Only a running game can have its turn resolved now."),
}


def find_game(token: str) -> Game:
    if not looks_like_token(token):
        abort(404)
    game = get_session().exec(select(Game).where(Game.gm_token_hash == hash_token(token))).first()
    if game is None:
        abort(404)
    link_known()
    return game


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
        gm_email = request.form.get("gm_email", "").strip()
        try:
            options = _options()
            raw_hours = (request.form.get("hours") or "").strip()
            hours = _turn_hours(raw_hours)
            if slug not in games:
                raise Refusal(N_("choose a game"))
            opened = turns.open_game(get_engine(), slug, emails, options=options, hours=hours,
                                     policy={"hours": hours} if raw_hours else None,
                                     bots=bool(request.form.get("bots")), gm_email=gm_email,
                                     max_attempts=current_app.config["MAX_ATTEMPTS"])
            token = opened.gm_token
            return redirect(f"/gm/{token}", code=303)
        except (ValueError, LookupError) as exc:
            error = reason(exc)
    return render_template("web/gm_new.html", games=games, error=error, form=request.form)


def _options() -> dict:  # type: ignore[type-arg]
    """The form's game options (a JSON object).

    :raises Refusal: not a JSON object.
    """
    try:
        options = json.loads(request.form.get("options") or "{}")
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise Refusal(N_("options must be a JSON object"))
    return options


def _turn_hours(raw: str) -> float:
    """The form's hours per turn (the app's default when empty).

    :raises Refusal: not a number of hours more than 0 and at most ``MAX_TURN_HOURS``.
    """
    try:
        hours = finite_float(raw, float(current_app.config["DEFAULT_HOURS"]))
    except ValueError:
        hours = 0.0
    if not 0 < hours <= MAX_TURN_HOURS:
        raise Refusal(N_("hours per turn must be more than 0 and at most {most}"), most=MAX_TURN_HOURS)
    return hours


@bp.route("/<token>", methods=["GET", "HEAD"])
def overview(token: str, new_link: str | None = None, error: str = "", status: int = 200):  # type: ignore[no-untyped-def]
    game = find_game(token)
    session = get_session()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    players = {s.id: session.get(Player, s.player_id) for s in seats if s.player_id}
    orders = turns.current_orders(session, game.id, game.step_no)
    log = session.exec(select(GmAction).where(GmAction.game_id == game.id).order_by(GmAction.id.desc())).all()
    html = render_template("web/gm.html", game=game, seats=seats, players=players, orders=orders, csrf=_csrf(game),
                           token=token, new_link=new_link, error=error, log=log, gm_plays=turns.gm_plays(session, game),
                           extension_left=turns.extension_left(session, game, _cap()), tz=_gm_zone(session, game))
    return make_response(html, status)


def _cap() -> float:
    """Hours of GM extensions and pauses allowed per game."""
    return float(current_app.config["GM_MAX_EXTENSION_HOURS"])


def _gm_zone(session, game: Game) -> str:  # type: ignore[no-untyped-def]
    """The GM's time zone: theirs when the GM's address is a known player's, else UTC."""
    player = player_by_address(session, game.gm_email) if game.gm_email else None
    return player.timezone if player is not None and player.timezone else "UTC"


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
    if action == "new-gm-link":
        return _new_gm_link(game, now)
    try:
        with write_session(engine) as session:
            live = session.get(Game, game.id)
            new_link = _apply(session, live, action, now)
    except (Refused, ValueError) as exc:
        get_session().expire_all()
        return overview(token, error=reason(exc), status=422)
    if action == "resolve":
        turns.process_game(engine, game.id, now, max_attempts=current_app.config["MAX_ATTEMPTS"])
    if new_link:
        get_session().expire_all()
        return overview(token, new_link=new_link)
    return redirect(f"/gm/{token}?done={action}", code=303)  # the page says what was done


def _new_gm_link(game: Game, now) -> Response:  # type: ignore[no-untyped-def]
    """The game's GM page moves to a new address (the old one may have leaked: it stops working); the GM
    goes there, and the GM's home page lists it."""
    with write_session(get_engine()) as session:
        live = session.get(Game, game.id)
        token = issue_gm_token(live)
        session.add(live)
        turns.control.log_action(session, live, GmActionKind.GM_LINK, now)
    return redirect(f"/gm/{token}?moved=1", code=303)


def _apply(session, live: Game, action: str, now) -> str | None:  # type: ignore[no-untyped-def]
    """One GM action (``app.turns.control``: capped, logged, told to the players); a new link to show.

    :raises Refused: an unknown action, or one the game's state or the GM's powers do not allow.
    """
    seat_id = request.form.get("seat", "")
    if action in ("pause", "resume", "retry", "resolve"):
        done = (turns.pause(session, live, now, cap_hours=_cap()) if action == "pause"
                else turns.resolve_now(session, live, now) if action == "resolve"
                else turns.resume(session, live, now, cap_hours=_cap()))
        if not done:
            raise Refused(_WRONG_STATE["resume" if action == "retry" else action])
    elif action == "ask-pause":
        turns.ask_pause(session, live, _hours(), now, cap_hours=_cap())
    elif action == "extend":
        turns.extend(session, live, _hours(), now, cap_hours=_cap())
    elif action == "rotate":
        return seat_link(turns.new_link(session, live, seat_id, now))
    elif action == "replace":
        turns.replace_player(session, live, seat_id, (request.form.get("email") or "").strip(), now)
    elif action == "settings-link":
        turns.new_settings_link(session, live, seat_id, now)
    elif action == "resend":
        _resend(session, live, seat_id)
    elif action == "press":
        press.set_mode(session, live, request.form.get("press", ""), now)
    else:
        raise Refused(N_("Choose one of the page's actions."))
    return None


def _hours() -> float:
    """The form's hours.

    :raises Refused: not given, or not a finite number.
    """
    raw = request.form.get("hours") or ""
    try:
        if not raw.strip():
            raise ValueError("no hours")
        return finite_float(raw, 0.0)
    except ValueError:
        raise Refused(N_("Give a number of hours.")) from None


def _resend(session, game: Game, seat_id: str) -> None:  # type: ignore[no-untyped-def]
    """Send a seat's latest mail again (same Message-ID: clients show it once), at most once an hour a seat
    (a GM's click does not become a mail flood), and logged."""
    seat_id = turns.control.find_seat(session, game, seat_id).seat
    since = utcnow() - timedelta(hours=1)
    recent = session.exec(select(GmAction).where(GmAction.game_id == game.id, GmAction.action == GmActionKind.RESEND,
                                                 GmAction.detail == seat_id, GmAction.created_at > since)).first()
    if recent is not None:
        raise Refused(N_("That mail was sent again less than an hour ago."))
    last = session.exec(select(OutboxMail).where(OutboxMail.game_id == game.id, OutboxMail.seat == seat_id)
                        .order_by(OutboxMail.id.desc())).first()
    if last is None:
        raise Refused(N_("No mail to {seat} yet."), seat=seat_name(seat_id))
    last.status = OutboxStatus.PENDING
    last.next_attempt_at = utcnow()
    session.add(last)
    turns.control.log_action(session, game, GmActionKind.RESEND, utcnow(), detail=seat_id)
