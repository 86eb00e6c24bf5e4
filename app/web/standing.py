"""Standing orders: the seat page lists them (:func:`standing_panel`); a page of their own
(``/p/<token>/standing``) sets one from the prompt's forms or the notation; a post removes one.

``app.standing`` keeps them.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, make_response, redirect, render_template, request
from werkzeug.datastructures import MultiDict

from app import standing, turns
from app.db import get_engine, get_session, write_session
from app.games import IllegalOrder, InvalidOrder, get_rules
from app.i18n.terms import N_
from app.kinds import GameStatus
from app.models import Game, Seat, utcnow
from app.notices import Refusal, reason
from app.web.forms import MAX_NOTATION, bounded_int
from app.web.play import CsrfExpired, check_csrf, csrf_token, find_seat, live_rows, render_page

bp = Blueprint("standing", __name__)


@bp.app_template_global("standing_panel")
def standing_panel(game: Game, seat: Seat) -> dict[str, Any]:
    """What the seat page's standing-order card shows."""
    rows = standing.for_seat(get_session(), game.id or 0, seat.seat)
    prompt = game.owed.get(seat.seat) if game.status == GameStatus.RUNNING else None
    kind = standing.kind_of(prompt)
    return {"rows": [(r, standing.title_of(r)) for r in rows], "prompt": prompt,
            "current": next((r for r in rows if r.kind == kind), None) if prompt else None}


def _order(game: Game, seat: Seat, form: MultiDict) -> dict[str, Any]:
    """The order a standing-order post stands for (a prompt form, or the notation)."""
    rules = get_rules(game.slug)
    notation = (form.get("notation") or "").strip()
    if notation:
        if len(notation) > MAX_NOTATION:
            raise Refusal(N_("That order is too long."))
        return dict(rules.parse(notation))
    prompt = game.owed.get(seat.seat) or {}
    return turns.forms.order_from_form(prompt, form.get("form_index", ""), form)


def _page(token: str, game: Game, seat: Seat, *, status: int = 200, error: Any = "",
          values: Any = None) -> Response:
    """The page that sets a standing order for the decision the seat owes (the seat page if none)."""
    prompt = game.owed.get(seat.seat) if game.status == GameStatus.RUNNING else None
    if not prompt:  # nothing owed (any more): the seat page, with the refusal when there is one
        if error:
            return render_page(game, seat, status=status, error=error)
        return redirect(f"/p/{token}#standing", code=303)
    values = values if values is not None else MultiDict()
    resp = make_response(render_template(
        "web/standing.html", game=game, seat=seat, token=token, prompt=prompt, csrf=csrf_token(seat), error=error,
        values=values, form_index=values.get("form_index", ""), notation=values.get("notation", "")), status)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/p/<token>/standing", methods=["GET", "HEAD"])
def show(token: str) -> Response:
    game, seat = find_seat(token)
    return _page(token, game, seat)


@bp.route("/p/<token>/standing", methods=["POST"])
def update(token: str) -> Response:
    game, seat = find_seat(token)
    form = request.form
    try:
        check_csrf(seat, form.get("csrf_token"))
    except CsrfExpired:
        return render_page(game, seat, status=400, error={"platform": N_(
            "This form was open too long: set your standing order again."), "args": {}})
    action = form.get("action", "set")
    try:
        with write_session(get_engine()) as session:
            live_game, live_seat = live_rows(session, game, seat)
            if action == "clear":
                standing.clear(session, game.id or 0, seat.seat, bounded_int(form.get("id"), 0) or 0)
            else:
                if bounded_int(form.get("step_no"), 0) != live_game.step_no:
                    raise Refusal(N_("The decision changed since the page was drawn: look at it again."))
                order = _order(live_game, live_seat, form)
                standing.save(session, get_rules(game.slug), live_game, live_seat, order, utcnow())
    except (Refusal, IllegalOrder, InvalidOrder) as exc:
        get_session().expire_all()
        if action == "clear":
            return render_page(game, seat, status=422, error=reason(exc))
        return _page(token, game, seat, status=422, error=reason(exc), values=form)
    return redirect(f"/p/{token}?standing=saved#standing", code=303)
