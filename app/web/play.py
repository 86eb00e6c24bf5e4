"""The player's page: ``/p/<token>`` shows one seat and takes its orders.

GET and HEAD never change a game (mail scanners open links); only a POST
with a valid form token acts.  The one thing a GET keeps is a language the
player picked from the page's language menu (``?lang=``, which no mail link
carries): it becomes their language for mails and reports too.  The form
token is an HMAC of the seat and the time, so no cookie or session is needed.
"""

from __future__ import annotations

import hmac
import re
import time
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
)
from jinja2 import TemplateNotFound
from markupsafe import Markup
from sqlmodel import col, select
from werkzeug.datastructures import MultiDict

from app import turns
from app.db import get_engine, get_session, release_session
from app.games import get_rules
from app.i18n import current_language, gettext
from app.i18n.terms import N_
from app.kinds import GameStatus, OrderSource
from app.links import prefs_token, seat_link
from app.models import Event, Game, Order, Player, Report, Seat, Step, iso
from app.notices import order_words
from app.notify import log_entries, visible
from app.reports import RenderError, render_pdf
from app.seats import bot_seats
from app.tokens import hash_token, looks_like_token, sign
from app.verify import order_receipt
from app.web.forms import MAX_NOTATION, bounded_int, too_long_field
from app.web.language import link_seat
from app.web.limits import client_address, link_known, take_or_refuse
from app.web.pdfcache import cached_pdf, report_limit

bp = Blueprint("play", __name__)


class CsrfExpired(Exception):
    pass


@bp.app_template_filter("form_key")
def form_key(spec: dict[str, Any]) -> str:
    """Which alternative of a prompt a form is (``app.turns.forms.form_key``)."""
    return turns.forms.form_key(spec)


@bp.app_template_filter("combo_select")
def combo_select(spec: dict[str, Any], kept: Any = None) -> dict[str, Any] | None:
    """A form's tied choices as one select of legal combinations (``app.turns.forms.combo_select``)."""
    return turns.forms.combo_select(spec, kept)


@bp.app_template_filter("combo_selects")
def combo_selects(spec: dict[str, Any], kept: Any = None) -> list[dict[str, Any]]:
    """A form's tied choices as one select of legal combinations per independent group."""
    return turns.forms.combo_selects(spec, kept)


@bp.app_template_global("me_token_of")
def me_token_of(seat: Seat) -> str:
    """The token of the settings page (``/me/<token>``) of the player holding ``seat``, or ""."""
    player = get_session().get(Player, seat.player_id) if seat.player_id else None
    if player is None or not player.prefs_hash:
        return ""
    token = prefs_token(player)
    return token if hash_token(token) == player.prefs_hash else ""


def live_rows(session: Any, game: Game, seat: Seat) -> tuple[Game, Seat]:
    """The game and seat as a write transaction sees them (a 404 page if either is gone)."""
    live_game, live_seat = session.get(Game, game.id), session.get(Seat, seat.id)
    if live_game is None or live_seat is None:
        abort(404)
    return live_game, live_seat


def find_seat(token: str) -> tuple[Game, Seat]:
    """The game and seat a link belongs to, or a 404 page."""
    if not looks_like_token(token):
        abort(404)
    found = link_seat(token)
    if found is None:
        abort(404)
    link_known()
    return found.game, found.seat


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
        select(Event).where(Event.game_id == game.id)
        .order_by(Event.step_no.desc(), Event.seq.desc(), col(Event.id).desc()).limit(200)  # type: ignore[attr-defined]
    ).all()
    events = log_entries(session, game, [e for e in rows if visible(e, seat.seat)][:40][::-1], game.state)
    last_report = session.exec(
        select(Report.step_no).where(Report.game_id == game.id, Report.seat == seat.seat)
        .order_by(Report.step_no.desc())
    ).first()
    return {
        "game": game, "seat": seat, "rules": rules, "player": player,
        "tz": player.timezone if player else "UTC",
        "view": rules.view(game.state, seat.seat),
        "prompt": game.owed.get(seat.seat) if game.status == GameStatus.RUNNING else None,
        "anytime": turns.anytime_prompt(rules, game, seat.seat),
        "mine": mine, "mine_text": rules.format(mine.order) if mine else "",
        "mine_words": order_words(game.owed.get(seat.seat), mine.order, rules.format(mine.order), rules)
        if mine else "",
        "receipt": receipt_for(mine) if mine else "",
        "waiting_for": sorted(s for s in game.owed if s != seat.seat and s not in orders),
        "events": events, "outcome": rules.outcome(game.state),
        "deadline": iso(game.deadline),
        "csrf": csrf_token(seat), "last_report": last_report,
        "custom_form": _custom_form(game.slug), "draws_board": rules.draws_board,
        "bots": bot_seats(session, game.id),
    }


def receipt_for(row: Order) -> str:
    """The receipt of a stored order (what the player was shown when sending it)."""
    return order_receipt(str(current_app.config["SECRET_KEY"]), row.id or 0, row.order)


def _custom_form(slug: str) -> str | None:
    """A game's own form template, if it ships one."""
    name = f"games/{slug}/form.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def render_page(game: Game, seat: Seat, *, status: int = 200, error: str = "", notice: str = "",
                values: Any = None, form_index: str = "", notation: str = "", anytime_post: bool = False,
                typed: bool = False, press_draft: Any = None) -> Response:
    """The seat's page; ``error`` a refusal shown at its top, or with ``press_draft`` (the press form as
    posted) in the press card, whose form is filled in again."""
    ctx = page_context(game, seat)
    csrf_field = Markup(  # nosec B704 (our own signed token: digits, a dot and hex; the step number)
        f'<input type="hidden" name="csrf_token" value="{ctx["csrf"]}">'
        f'<input type="hidden" name="step_no" value="{game.step_no}">'
    )
    html = render_template("web/play.html", error=error, notice=notice, values=values or MultiDict(),
                           csrf_field=csrf_field,
                           form_index=form_index, notation=notation, typed=typed, anytime_post=anytime_post,
                           press_draft=press_draft,
                           anytime_action=f"/p/{request.view_args['token']}/anytime",
                           token=request.view_args["token"], **ctx)
    resp = make_response(html, status)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/p/<token>", methods=["GET", "HEAD"])
def show(token: str) -> Response:
    game, seat = find_seat(token)
    notice = {"saved": gettext("Your order is on file."), "resolved": gettext("Your order was applied."),
              "applied": gettext("Your order was applied.")}.get(request.args.get("done", ""), "")
    sent = bounded_int(request.args.get("r"), 1)
    if notice and sent:
        row = get_session().get(Order, sent)
        if row is not None and row.game_id == game.id and row.seat == seat.seat:
            notice = f"{notice} {_stored_words(game, seat, row)} {gettext('Receipt:')} {receipt_for(row)}"
    return render_page(game, seat, notice=notice)


def _stored_words(game: Game, seat: Seat, row: Order) -> str:
    """The order a receipt is for, in words in the player's language (as the order history tells it)."""
    rules = get_rules(game.slug)
    step = get_session().exec(select(Step).where(Step.game_id == game.id, Step.step_no == row.step_no)).first()
    words = order_words(step.owed.get(seat.seat) if step else None, row.order, row.text or rules.format(row.order),
                        rules)
    return gettext("Your order: %(order)s.", order=current_app.jinja_env.filters["game_text"](words, game.slug))


def _refuse_post(game: Game, seat: Seat, form: MultiDict, keep: dict[str, Any]) -> Response | None:
    """The checks every order post passes first (form token, sizes); a page if it fails."""
    try:
        check_csrf(seat, form.get("csrf_token"))
    except CsrfExpired:
        return render_page(game, seat, status=400, error=gettext(
            "This form was open too long. Your order is shown again below: check it and send it once more."), **keep)
    notation = keep.get("notation", "")
    if "notation" in form and not notation and not form.get("form_index"):  # the notation box, sent empty
        return render_page(game, seat, status=422, typed=True, error=gettext(
            "Type your order in the box first. Nothing was sent."), **keep)
    if len(notation) > MAX_NOTATION or too_long_field(form):
        keep["notation"] = notation[:MAX_NOTATION]
        return render_page(game, seat, status=422, error=gettext(
            "That order is too long: an order in the notation has at most %(n)s characters. Nothing was stored.",
            n=MAX_NOTATION), **keep)
    return None


@bp.route("/p/<token>", methods=["POST"])
def submit(token: str) -> Response:
    game, seat = find_seat(token)
    form = request.form
    form_index = form.get("form_index", "")
    notation = (form.get("notation") or "").strip()
    keep = {"values": form, "form_index": form_index, "notation": notation}
    refused = _refuse_post(game, seat, form, keep)
    if refused is not None:
        return refused
    step_no = bounded_int(form.get("step_no"), 0)
    if step_no is None:
        step_no = -1
    release_session()  # before the write (``db.release_session``)
    taken = turns.take_order(seat, notation or form, OrderSource.WEB, engine=get_engine(), step_no=step_no,
                             max_attempts=current_app.config["MAX_ATTEMPTS"], game=game)
    if taken.outcome is turns.Outcome.APPLIED and taken.row is not None:
        return redirect(f"/p/{token}?done=applied&r={taken.row.id}", code=303)
    if taken.outcome is turns.Outcome.STORED and taken.row is not None:
        return redirect(f"/p/{token}?done={'resolved' if taken.resolved else 'saved'}&r={taken.row.id}", code=303)
    if taken.outcome is turns.Outcome.REFUSED:
        return render_page(game, seat, status=422, error=_refusal(taken, game), **keep)
    game = _reloaded(game)
    return render_page(game, seat, status=409, error=gettext(
        "That step was already resolved, so this order was not used. The page now shows what you owe now "
        "(if anything)."), **keep)


#: An engine's error code ("E007 ") at the start of a sentence: the player reads the sentence alone.
ENGINE_CODE = re.compile(r"(?:(?<=^)|(?<=[.:;!?] )|(?<=\n))E\d{2,3} ")


def _refusal(taken: turns.Taken, game: Game) -> str:
    """The page's words for a refused order (in the player's language, without engine codes)."""
    say = current_app.jinja_env.filters["game_text"]
    if taken.problem is turns.Problem.UNREADABLE:
        if not taken.message:
            return gettext("That order cannot be read.")
        text = say({"platform": N_("That order cannot be read: {reason}"), "args": {"reason": taken.message}},
                   game.slug)
    else:
        text = say(taken.message, game.slug)
    return ENGINE_CODE.sub("", text)


def _reloaded(game: Game) -> Game:
    """The game as it is now (after a write elsewhere), to draw the page again."""
    get_session().expire_all()
    return get_session().get(Game, game.id) or game


@bp.route("/p/<token>/anytime", methods=["POST"])
def submit_anytime(token: str) -> Response:
    """A decision the seat may send at any time (the game's ``anytime_prompt``), applied at once."""
    game, seat = find_seat(token)
    form = request.form
    form_index = form.get("form_index", "")
    keep = {"values": form, "form_index": form_index, "notation": "", "anytime_post": True}
    refused = _refuse_post(game, seat, form, keep)
    if refused is not None:
        return refused
    release_session()
    taken = turns.take_order(seat, form, OrderSource.WEB, engine=get_engine(), anytime=True,
                             max_attempts=current_app.config["MAX_ATTEMPTS"])
    if taken.ok and taken.row is not None:
        return redirect(f"/p/{token}?done=applied&r={taken.row.id}", code=303)
    game = _reloaded(game)
    if taken.outcome is turns.Outcome.REFUSED:
        return render_page(game, seat, status=422, error=_refusal(taken, game), **keep)
    return render_page(game, seat, status=409, error=gettext(
        "The game is not running now, so nothing was changed."), **keep)


@bp.route("/p/<token>/report.pdf", methods=["GET"])
def report_pdf(token: str) -> Response:
    game, seat = find_seat(token)
    session = get_session()
    query = select(Report).where(Report.game_id == game.id, Report.seat == seat.seat)
    raw = request.args.get("step", "").strip()
    step = None
    if raw.lstrip("-+").isdigit():  # a step number out of range finds no report (not a 500)
        step = bounded_int(raw, 0)
        if step is None:
            abort(404)
    if step is not None:
        query = query.where(Report.step_no == step)
    report = session.exec(query.order_by(Report.step_no.desc())).first()
    if report is None:
        abort(404)
    try:
        pdf = cached_pdf(seat, report, lambda: _render_limited(report, seat))
    except RenderError:
        abort(503)
    resp = make_response(pdf)
    resp.headers["Content-Type"] = "application/pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="report-{game.id}-{report.step_no}.pdf"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _render_limited(report: Report, seat: Seat) -> bytes:
    """Render a report that is not cached, counted against the client's render limit."""
    take_or_refuse(report_limit(), client_address(), hash_token(request.view_args["token"])[:16],  # type: ignore[index]
                   "report-render")
    return render_pdf(_in_reader_language(report.context), seat_link(seat))


def _in_reader_language(context: dict[str, Any]) -> dict[str, Any]:
    """A stored report's context read in the language the reader has now (the mailed copy
    kept the language the player had when it was made)."""
    return {**context, "player": {**(context.get("player") or {}), "language": current_language()}}


@bp.route("/p/<token>/history", methods=["GET"])
def history(token: str) -> Response:
    game, seat = find_seat(token)
    session = get_session()
    mine = session.exec(
        select(Order).where(Order.game_id == game.id, Order.seat == seat.seat).order_by(Order.id)
    ).all()
    receipts = {row.id: receipt_for(row) for row in mine}
    prompts = {step.step_no: step.owed.get(seat.seat) for step in session.exec(
        select(Step).where(Step.game_id == game.id, Step.step_no.in_({row.step_no for row in mine})))}  # type: ignore[attr-defined]
    rules = get_rules(game.slug)
    words = {row.id: order_words(prompts.get(row.step_no), row.order, row.text, rules) for row in mine}
    counts = {}
    for row in mine:  # the last order of each step is the one that counts
        counts[row.step_no] = row.id
    resp = make_response(render_template("web/history.html", game=game, seat=seat, orders=mine,
                                         token=token, receipts=receipts, words=words, counting=set(counts.values())))
    resp.headers["Cache-Control"] = "no-store"
    return resp
