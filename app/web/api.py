"""The JSON API for bots and clients (``/api/v1``): what a seat's page shows, as data.

* ``GET /api/v1/seat/<token>``: the seat's view, what it owes (the prompt, and the
  anytime prompt), the deadline, the game's status and step, its order on file and the
  log since a step (``?since=N``: the events this seat may see).
* ``POST /api/v1/seat/<token>/orders``: one order, in the game's notation
  (``{"notation": "..."}``) or as the game's JSON order (``{"order": {...}}``, written
  in the notation by the game's ``format``), with the step it answers (``"step_no"``,
  optional).  It goes through the one gate, ``app.turns.take_order``, like a page's
  form or a mail: 201 with the receipt, 422 with the refusal, 409 when the step closed.
* ``GET /api/v1/game/<id>``: the public view (what a spectator sees).
* ``GET /api/v1/openapi.yaml``: the OpenAPI document (``docs/openapi.yaml``).

The token in the path is the seat's personal link token (no cookie, so no CSRF token);
unknown tokens count against the client's address like the pages' (``app.web.limits``).
Game text is rendered in the player's language (``?lang=`` overrides it for one answer
and, unlike a page link, is not stored).  Every answer is JSON (errors too), never cached.
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Blueprint, Response, abort, current_app, request
from sqlmodel import col, select

from app import turns
from app.db import get_engine, get_session, release_session
from app.games import get_rules
from app.i18n import game_text_filter, player_locale
from app.i18n.lang import LANGUAGES, current_language, normalize
from app.kinds import GameStatus, OrderSource
from app.models import Event, Game, Order, Player, Seat, iso
from app.notify import visible
from app.paths import OPENAPI
from app.tokens import hash_token, looks_like_token
from app.verify import order_receipt
from app.web.api_text import render, render_prompt
from app.web.forms import MAX_DB_INT, MAX_NOTATION, bounded_int
from app.web.limits import link_known

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: The most log entries one answer carries (the oldest are left out; ask again with a later ``since``).
MAX_LOG = 500
#: The largest order body read (bytes).
MAX_BODY = 64 * 1024

ERRORS = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
          409: "closed", 413: "too_large", 415: "unsupported_media_type", 422: "refused", 429: "too_many_requests",
          500: "server_error", 503: "unavailable"}
MESSAGES = {400: "That request could not be understood: check it against the API's description.",
            404: "No such seat or game. If the link came from a game mail, it may have been replaced: "
                 "ask your GM for the new one.",
            405: "This method is not allowed here.",
            413: "That request is too large.",
            429: "Too many requests came from your address in a short time (unknown links). "
                 "Wait a minute and try again.",
            500: "Something went wrong; nothing you sent was lost. Try again in a minute."}


def answer(data: Any, status: int = 200) -> Response:
    """A JSON answer (UTF-8, not cached)."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    resp = current_app.response_class(body, status=status, mimetype="application/json")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def error(status: int, message: str = "", **extra: Any) -> Response:
    return answer({"error": ERRORS.get(status, "error"), "message": message or MESSAGES.get(status, ""), **extra},
                  status)


@bp.after_app_request
def _json_errors(resp: Response) -> Response:
    """Under ``/api/``, every error is JSON (a 404 of the router, a 405, a 429 of the limiter ...)."""
    if not request.path.startswith(bp.url_prefix or "/api/v1"):
        return resp
    resp.headers["Cache-Control"] = "no-store"
    if resp.status_code >= 400 and resp.mimetype != "application/json":
        fresh = error(resp.status_code)
        for header in ("Retry-After", "Allow", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
            if header in resp.headers:
                fresh.headers[header] = resp.headers[header]
        return fresh
    return resp


def _seat(token: str) -> tuple[Game, Seat]:
    """The game and seat of a token, or a 404 (counted against the address, as on the pages)."""
    if not looks_like_token(token):
        abort(404)
    found = get_session().exec(
        select(Seat, Game).join(Game, col(Game.id) == Seat.game_id).where(Seat.token_hash == hash_token(token))
    ).first()
    if found is None:
        abort(404)
    link_known()
    seat, game = found
    return game, seat


def _language(seat: Seat | None) -> str:
    """``?lang=`` if it names one of ours, else the player's stored language (without a seat: the
    language the request asks for, as on the public pages)."""
    asked = (request.args.get("lang") or "").strip().lower()
    if asked in LANGUAGES:
        return asked
    if seat is None:
        return current_language()
    player = get_session().get(Player, seat.player_id) if seat is not None and seat.player_id else None
    return normalize(player.language) if player is not None else "en"


def _game(game: Game) -> dict[str, Any]:
    return {"id": game.id, "slug": game.slug, "title": game.title, "status": game.status,
            "step_no": game.step_no, "turn_key": game.turn_key, "deadline": iso(game.deadline),
            "seed_hash": game.seed_hash, "seed": game.seed if game.status == GameStatus.FINISHED else None}


def _event(game: Game, row: Event, lang: str) -> dict[str, Any]:
    text = (row.data or {}).get("msg") or row.text
    return {"step_no": row.step_no, "seq": row.seq, "text": _text(game.slug, text, lang)}


def _text(slug: str, text: Any, lang: str) -> str:
    return game_text_filter(text, slug) if isinstance(text, str) else str(render(slug, text, lang))


def _log(game: Game, seat: str | None, since: int) -> list[Event]:
    rows = get_session().exec(
        select(Event).where(Event.game_id == game.id, Event.step_no >= since)
        .order_by(col(Event.step_no).desc(), col(Event.seq).desc())
    ).all()
    mine = [row for row in rows if visible(row, seat)][:MAX_LOG]
    return list(reversed(mine))


def _since(game: Game) -> int:
    raw = request.args.get("since")
    if raw is None or raw == "":
        return max(game.step_no - 1, 0)
    value = bounded_int(raw, -MAX_DB_INT)
    if value is None:
        abort(error(400, "since: a step number (a whole number, 0 or more) was expected."))
    return max(value, 0)


def _receipt(row: Order) -> str:
    return order_receipt(str(current_app.config["SECRET_KEY"]), row.id or 0, row.order)


@bp.route("/seat/<token>", methods=["GET"])
def seat(token: str) -> Response:
    game, seat = _seat(token)
    since = _since(game)
    lang = _language(seat)
    rules = get_rules(game.slug)
    running = game.status == GameStatus.RUNNING
    orders = turns.current_orders(get_session(), game.id, game.step_no)
    mine = orders.get(seat.seat)
    with player_locale(lang):
        prompt = game.owed.get(seat.seat) if running else None
        data = {
            "game": _game(game), "seat": seat.seat, "language": lang,
            "owes": prompt is not None,
            "prompt": render_prompt(game.slug, prompt),
            "anytime": render_prompt(game.slug, turns.anytime_prompt(rules, game, seat.seat)),
            "order_on_file": None if mine is None else {
                "order_id": mine.id, "step_no": mine.step_no, "notation": rules.format(mine.order),
                "receipt": _receipt(mine)},
            "waiting_for": sorted(s for s in game.owed if s != seat.seat and s not in orders) if running else [],
            "view": render(game.slug, rules.view(game.state, seat.seat), lang),
            "outcome": render(game.slug, rules.outcome(game.state), lang),
            "since": since,
            "log": [_event(game, e, lang) for e in _log(game, seat.seat, since)],
        }
    return answer(data)


def _order_text(rules: Any, body: dict[str, Any]) -> str | Response:
    """The notation of the posted order, or the error answer."""
    has_text, has_order = "notation" in body, "order" in body
    if has_text == has_order:
        return error(400, 'Send exactly one of "notation" (the game\'s notation) or "order" (the JSON order).')
    if has_text:
        if not isinstance(body["notation"], str):
            return error(400, '"notation" must be a string.')
        return body["notation"].strip()
    order = body["order"]
    if not isinstance(order, dict):
        return error(400, '"order" must be an object (the game\'s JSON order).')
    try:
        return str(rules.format(order)).strip()
    except Exception:  # noqa: BLE001 (a malformed order: the game's format cannot write it)
        return error(422, "That order cannot be read: it is not an order of this game.", problem="unreadable")


def _body() -> dict[str, Any] | Response:
    if (request.content_length or 0) > MAX_BODY:
        return error(413)
    if not request.is_json:
        return error(415, "Send the order as JSON (Content-Type: application/json).")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return error(400, "The body is not a JSON object.")
    return body


@bp.route("/seat/<token>/orders", methods=["POST"])
def post_order(token: str) -> Response:
    game, seat = _seat(token)
    body = _body()
    if isinstance(body, Response):
        return body
    step_no = body.get("step_no")
    if step_no is not None and (not isinstance(step_no, int) or isinstance(step_no, bool)):
        return error(400, '"step_no" must be a whole number.')
    lang = _language(seat)
    rules = get_rules(game.slug)
    text = _order_text(rules, body)
    if isinstance(text, Response):
        return text
    if not text:
        return error(422, "There is no order in the request.", problem="empty")
    release_session()  # give the read connection back before the write (as the pages do)
    taken = turns.take_order(seat, text, OrderSource.API, engine=get_engine(), step_no=step_no,
                             max_chars=MAX_NOTATION, max_attempts=current_app.config["MAX_ATTEMPTS"])
    if taken.ok and taken.row is not None:
        return answer({"status": taken.outcome.value, "order_id": taken.row.id, "step_no": taken.row.step_no,
                       "notation": text, "receipt": _receipt(taken.row), "anytime": taken.anytime,
                       "resolved": taken.resolved, "game": _game(taken.game)}, 201)
    if taken.outcome is turns.Outcome.REFUSED:
        with player_locale(lang):
            return error(422, _refusal(taken, game, lang), problem=taken.problem.value if taken.problem else "illegal",
                         step_no=taken.step_no)
    if taken.outcome is turns.Outcome.EMPTY:
        return error(422, "There is no order in the request.", problem="empty", step_no=taken.step_no)
    return error(409, "That step is closed (already resolved, or the game is not running), so this order was "
                 "not used. Read the seat again to see what it owes now.", step_no=taken.game.step_no,
                 game=_game(taken.game))


def _refusal(taken: turns.Taken, game: Game, lang: str) -> str:
    """The game's reason in the player's words and language (as the page shows it)."""
    if taken.problem is turns.Problem.TOO_LONG:
        return f"That order is too long: an order in the notation has at most {MAX_NOTATION} characters."
    words = _text(game.slug, taken.message, lang) if taken.message else ""
    if taken.problem is turns.Problem.UNREADABLE:
        return f"That order cannot be read: {words}" if words else "That order cannot be read."
    return words


@bp.route("/game/<int:game_id>", methods=["GET"])
def public(game_id: int) -> Response:
    """What a spectator sees: the public view, the seats, the public log."""
    session = get_session()
    game = session.get(Game, game_id) or abort(404)
    since = _since(game) if request.args.get("since") else 0
    lang = _language(None)
    rules = get_rules(game.slug)
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.id))).all()
    with player_locale(lang):
        data = {
            "game": _game(game), "language": lang,
            "seats": [{"seat": s.seat, "bot": s.is_bot or s.is_robot, "owes": s.seat in game.owed}
                      for s in seats],
            "view": render(game.slug, rules.view(game.state, None), lang),
            "outcome": render(game.slug, rules.outcome(game.state), lang),
            "since": since,
            "log": [_event(game, e, lang) for e in _log(game, None, since)],
        }
    return answer(data)


@bp.route("/openapi.yaml", methods=["GET"])
def openapi() -> Response:
    if not os.path.isfile(OPENAPI):
        abort(404)
    with open(OPENAPI, encoding="utf-8") as fh:
        resp = current_app.response_class(fh.read(), mimetype="application/yaml")
    resp.headers["Cache-Control"] = "no-store"
    return resp
