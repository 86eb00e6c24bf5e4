"""The player's page: ``/p/<token>`` shows one seat and takes its orders.

GET and HEAD never change anything (mail scanners open links); only a POST
with a valid form token acts.  The form token is an HMAC of the seat and the
time, so no cookie or session is needed.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from jinja2 import TemplateNotFound
from markupsafe import Markup
from sqlmodel import select
from werkzeug.datastructures import MultiDict

from app import turns
from app.db import get_engine, get_session
from app.games import IllegalOrder, get_rules
from app.links import seat_link
from app.models import Event, Game, Order, Player, Report, Seat, iso
from app.notify import visible
from app.tokens import hash_token, looks_like_token, sign
from app.web.forms import order_from_form

bp = Blueprint("play", __name__)


class CsrfExpired(Exception):
    pass


def find_seat(token: str) -> tuple[Game, Seat]:
    """The game and seat a link belongs to, or a 404 page."""
    if not looks_like_token(token):
        abort(404)
    session = get_session()
    seat = session.exec(select(Seat).where(Seat.token_hash == hash_token(token))).first()
    if seat is None:
        abort(404)
    game = session.get(Game, seat.game_id)
    if game is None:
        abort(404)
    return game, seat


def csrf_token(seat: Seat, now: float | None = None) -> str:
    ts = int(now if now is not None else time.time())
    return f"{ts}.{sign(current_app.config['SECRET_KEY'], 'csrf', seat.id, seat.token_version, ts)}"


def check_csrf(seat: Seat, value: str | None) -> None:
    """Refuse forged posts; raise ``CsrfExpired`` for an old but genuine form."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        abort(403)
    try:
        ts_raw, mac = (value or "").split(".", 1)
        ts = int(ts_raw)
    except ValueError:
        abort(403)
    expected = sign(current_app.config["SECRET_KEY"], "csrf", seat.id, seat.token_version, ts)
    import hmac

    if not hmac.compare_digest(mac, expected):
        abort(403)
    if time.time() - ts > current_app.config["CSRF_TIME_LIMIT"]:
        raise CsrfExpired


def page_context(game: Game, seat: Seat) -> dict[str, Any]:
    session = get_session()
    rules = get_rules(game.slug)
    player = session.get(Player, seat.player_id) if seat.player_id else None
    orders = turns.current_orders(session, game.id, game.step_no)
    mine = orders.get(seat.seat)
    rows = session.exec(
        select(Event).where(Event.game_id == game.id).order_by(Event.step_no.desc(), Event.seq.desc()).limit(200)
    ).all()
    events = [e for e in rows if visible(e, seat.seat)][:40]
    last_report = session.exec(
        select(Report.step_no).where(Report.game_id == game.id, Report.seat == seat.seat)
        .order_by(Report.step_no.desc())
    ).first()
    return {
        "game": game, "seat": seat, "rules": rules, "player": player,
        "tz": player.timezone if player else "UTC",
        "view": rules.view(game.state, seat.seat),
        "prompt": game.owed.get(seat.seat) if game.status == "running" else None,
        "mine": mine, "mine_text": rules.format(mine.order) if mine else "",
        "waiting_for": sorted(s for s in game.owed if s != seat.seat and s not in orders),
        "events": events, "outcome": rules.outcome(game.state),
        "deadline": iso(game.deadline),
        "csrf": csrf_token(seat), "last_report": last_report,
        "custom_form": _custom_form(game.slug),
    }


def _custom_form(slug: str) -> str | None:
    """A game's own form template, if it ships one."""
    name = f"games/{slug}/form.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def render_page(game: Game, seat: Seat, *, status: int = 200, error: str = "", notice: str = "",
                values: Any = None, form_index: str = "", notation: str = "") -> Response:
    ctx = page_context(game, seat)
    csrf_field = Markup(
        f'<input type="hidden" name="csrf_token" value="{ctx["csrf"]}">'
        f'<input type="hidden" name="step_no" value="{game.step_no}">'
    )
    html = render_template("web/play.html", error=error, notice=notice, values=values or MultiDict(),
                           csrf_field=csrf_field,
                           form_index=form_index, notation=notation, token=request.view_args["token"], **ctx)
    resp = make_response(html, status)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/p/<token>", methods=["GET", "HEAD"])
def show(token: str) -> Response:
    game, seat = find_seat(token)
    notice = {"saved": "Your order is on file.", "resolved": "Your order was applied."}.get(
        request.args.get("done", ""), "")
    return render_page(game, seat, notice=notice)


@bp.route("/p/<token>", methods=["POST"])
def submit(token: str) -> Response:
    game, seat = find_seat(token)
    form = request.form
    form_index = form.get("form_index", "")
    notation = (form.get("notation") or "").strip()
    keep = {"values": form, "form_index": form_index, "notation": notation}
    try:
        check_csrf(seat, form.get("csrf_token"))
    except CsrfExpired:
        return render_page(game, seat, status=400, error="This form was open too long. Your order is "
                           "shown again below: check it and send it once more.", **keep)
    try:
        step_no = int(form.get("step_no", ""))
    except ValueError:
        step_no = -1
    rules = get_rules(game.slug)
    prompt = game.owed.get(seat.seat)
    engine = get_engine()
    try:
        if prompt is None or step_no != game.step_no:
            raise turns.StepClosed(game.step_no)
        if notation:
            order = rules.parse(notation)
        else:
            order = order_from_form(prompt, form_index, form)
        _row, resolved = turns.accept_order(engine, game.id, seat.id, order, step_no=step_no, text=notation,
                                            source="web", max_attempts=current_app.config["MAX_ATTEMPTS"])
    except turns.StepClosed:
        get_session().expire_all()
        game = get_session().get(Game, game.id)
        return render_page(game, seat, status=409, error="That step was already resolved, so this order "
                           "was not used. The page now shows what you owe now (if anything).", **keep)
    except IllegalOrder as exc:
        return render_page(game, seat, status=422, error=str(exc), **keep)
    return redirect(f"/p/{token}?done={'resolved' if resolved else 'saved'}", code=303)


@bp.route("/p/<token>/report.pdf", methods=["GET"])
def report_pdf(token: str) -> Response:
    from app.reports import render_pdf

    game, seat = find_seat(token)
    session = get_session()
    query = select(Report).where(Report.game_id == game.id, Report.seat == seat.seat)
    step = request.args.get("step", type=int)
    if step is not None:
        query = query.where(Report.step_no == step)
    report = session.exec(query.order_by(Report.step_no.desc())).first()
    if report is None:
        abort(404)
    pdf = render_pdf(report.context, seat_link(seat))
    resp = make_response(pdf)
    resp.headers["Content-Type"] = "application/pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="report-{game.id}-{report.step_no}.pdf"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/p/<token>/history", methods=["GET"])
def history(token: str) -> Response:
    game, seat = find_seat(token)
    session = get_session()
    mine = session.exec(
        select(Order).where(Order.game_id == game.id, Order.seat == seat.seat).order_by(Order.id)
    ).all()
    return make_response(render_template("web/history.html", game=game, seat=seat, orders=mine,
                                         token=token))
