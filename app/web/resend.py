"""Lost your link? ``/resend`` mails each running seat of an address its personal link.

The answer is the same, and as fast, whether or not the address plays (no address
probing); capped per seat (``RESEND_PER_DAY``) and per client address (rate limit).
"""

from __future__ import annotations

import math
import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, make_response, render_template, request
from sqlalchemy import func
from sqlmodel import col, select

from app.db import get_engine, write_session
from app.gm_mail import gm_home_link
from app.i18n import game_title_filter, gettext, player_locale, seat_name_filter
from app.kinds import GameStatus
from app.mail import queue_mail
from app.models import Game, League, OutboxMail, Player, Seat, utcnow
from app.outbox import made_in_last_day
from app.tokens import LINK_PLACEHOLDER
from app.turns.store import address_key, is_address, player_by_address
from app.web.limits import client_address, resend_limit, take_or_refuse

bp = Blueprint("resend", __name__)


@bp.route("/resend", methods=["GET", "HEAD", "POST"])
def resend() -> Response:
    """Lost your link? Enter your address: each running seat of it gets its link by mail.

    The answer is the same, and as fast, whether or not the address plays (no address probing);
    capped per seat (``RESEND_PER_DAY``) and per client address (rate limit).
    """
    if request.method != "POST":
        return make_response(render_template("web/resend.html", sent=False, error=""))
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        abort(403)
    email = (request.form.get("email") or "").strip()
    if not is_address(email):
        return make_response(render_template("web/resend.html", sent=False,
                                             error=gettext("Please enter the e-mail address you play with.")), 422)
    take_or_refuse(resend_limit(), client_address(), "resend")
    started = time.monotonic()
    _queue_resends(email)
    _pad(started, float(current_app.config.get("RESEND_ANSWER_SECONDS", 0.3)))
    return make_response(render_template("web/resend.html", sent=True, error=""))


def _pad(started: float, floor: float) -> None:
    """Sleep until a whole number of ``floor`` seconds has passed since ``started`` (at least one).

    Queuing the mails of an address that plays takes longer than finding that one does
    not; padded, both answers take the same time and tell nobody who plays.
    """
    if floor <= 0:
        return
    spent = time.monotonic() - started
    time.sleep(max(1, math.ceil(spent / floor)) * floor - spent)


#: the games whose GM can still act on them: their GM is mailed their home page on "resend"
GM_STATUSES = (GameStatus.RUNNING, GameStatus.PAUSED, GameStatus.CRASHED)


def _queue_resends(email: str) -> int:
    now = utcnow()
    cap = int(current_app.config["RESEND_PER_DAY"])
    queued = 0
    with write_session(get_engine()) as session:
        player = player_by_address(session, email)
        if player is None:
            return 0
        seats = session.exec(select(Seat).where(Seat.player_id == player.id)).all()
        for seat in seats:
            game = session.get(Game, seat.game_id)
            if game is None or game.status not in (GameStatus.RUNNING, GameStatus.PAUSED) or not seat.token_hash:
                continue
            sent = session.exec(select(OutboxMail).where(
                OutboxMail.game_id == game.id, OutboxMail.seat == seat.seat,
                OutboxMail.kind.like("link%"))).all()  # type: ignore[attr-defined]
            if made_in_last_day((m.created_at for m in sent), now) >= cap:
                continue
            with player_locale(player.language):  # the mail is the player's, whoever asked for it
                text = render_template("web/resend_mail.txt", game=game, seat=seat, link=LINK_PLACEHOLDER)
                subject = gettext("[%(title)s #%(id)s] your personal link (%(seat)s)",
                                  title=game_title_filter(game.title, game.slug), id=game.id,
                                  seat=seat_name_filter(seat.seat, game.slug, game.state))
            queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat,
                       kind=f"link{len(sent) + 1}", to_addr=player.email,
                       subject=subject,
                       text=text, html="", report_id=None, thread=f"g{game.id}.{seat.seat}", now=now)
            queued += 1
        queued += _queue_gm_home(session, player, now, cap)
    return queued


def _queue_gm_home(session: Any, player: Player, now: Any, cap: int) -> int:
    """A GM's home page (every game and league they run, each with its GM page), when this address runs one."""
    runs = session.exec(select(Game.id).where(func.lower(Game.gm_email) == address_key(player.email),
                                              col(Game.status).in_(GM_STATUSES))).first()
    if runs is None and session.exec(select(League.id).where(
            func.lower(League.gm_email) == address_key(player.email))).first() is None:
        return 0
    sent = session.exec(select(OutboxMail).where(OutboxMail.to_addr == player.email,
                                                 col(OutboxMail.kind).like("gm-home%"))).all()
    if made_in_last_day((m.created_at for m in sent), now) >= cap:
        return 0
    gm_home_link(session, player, now, kind=f"gm-home{len(sent) + 1}")
    return 1
