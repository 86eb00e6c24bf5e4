"""Joining a league by its invitation link: the address is mailed a link that confirms it.

Anyone who has the invitation link may ask to join, but only with an address they read: the
join page mails the address a confirmation link (signed, for this league and this address,
valid ``JOIN_DAYS`` days), and the player joins when they open it and press "Join". A GET
never joins (mail scanners follow links). So nobody can enrol a stranger's address, and a
stranger who gets the mail by mistake ignores it and hears nothing more.

The answer is the same whether or not the address plays or is already a member. Mails are
capped per client (``RATELIMIT_RESEND``) and per address (``RESEND_PER_DAY``).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import col, select

from app.db import get_engine, write_session
from app.i18n import current_language, gettext, player_locale
from app.leagues import core
from app.links import base_url
from app.mail import queue_mail
from app.models import League, OutboxMail, utcnow
from app.notices import reason
from app.outbox import made_in_last_day
from app.tokens import hash_token, looks_like_token
from app.turns.store import address_key, is_address
from app.web.leagues import league_page
from app.web.limits import client_address, link_known, resend_limit, take_or_refuse

bp = Blueprint("league_join", __name__)

#: a confirmation link works this many days
JOIN_DAYS = 7
KIND = "league-join"


def _league(slug: str, token: str) -> League:
    """The league whose invitation link this is, or a 404 page."""
    league = league_page(slug)
    if not looks_like_token(token) or not hmac.compare_digest(hash_token(token), league.invite_hash):
        abort(404)
    link_known()
    return league


def _signer(league: League) -> URLSafeTimedSerializer:
    """Signs (league, address); the league's invitation hash is in the salt, so a new invitation link
    also ends the confirmation links sent for the old one."""
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=f"league-join.{league.invite_hash}")


def _cross_site() -> None:
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        abort(403)


@bp.route("/l/<slug>/join/<token>", methods=["GET", "HEAD", "POST"])
def join(slug: str, token: str) -> Response:
    """The invitation page: an address, then "check your mail"."""
    league = _league(slug, token)
    if request.method != "POST":
        return make_response(render_template("web/league_join.html", league=league, error="", sent=""))
    _cross_site()
    email = address_key(request.form.get("email") or "")
    if not is_address(email):
        return make_response(render_template(
            "web/league_join.html", league=league, sent="",
            error=gettext("Please enter your e-mail address: your games will come there.")), 422)
    take_or_refuse(resend_limit(), client_address(), KIND)
    _mail_confirmation(league, email, f"{request.path}/confirm/{_signer(league).dumps([league.id, email])}")
    return make_response(render_template("web/league_join.html", league=league, error="", sent=email))


def _mail_confirmation(league: League, email: str, path: str) -> None:
    """Queue the confirmation mail, in the language of the page that asked (at most ``RESEND_PER_DAY`` a
    day to one address)."""
    now = utcnow()
    thread = f"league{league.id}.join.{hashlib.sha256(email.encode()).hexdigest()[:16]}"
    with write_session(get_engine()) as session:
        sent = session.exec(select(OutboxMail.created_at).where(
            OutboxMail.to_addr == email, col(OutboxMail.kind).like(f"{KIND}%"))).all()
        if made_in_last_day(sent, now) >= int(current_app.config["RESEND_PER_DAY"]):
            return
        link = f"{base_url()}{path}?lang={current_language()}"
        with player_locale(current_language()):
            subject = gettext("[%(league)s] confirm that you join", league=league.name)
            text = render_template("mail/league_join.txt", league=league, link=link, days=JOIN_DAYS)
        queue_mail(session, game_id=None, step_no=len(sent) + 1, seat="", kind=f"{KIND}{len(sent) + 1}",
                   to_addr=email, subject=subject, text=text, html="", report_id=None, thread=thread, now=now)


def _confirmed(league: League, code: str) -> str | None:
    """The address a confirmation code is for, or None when it is not this league's, or too old."""
    try:
        league_id, email = _signer(league).loads(code, max_age=JOIN_DAYS * 24 * 3600)
    except (SignatureExpired, BadSignature, ValueError, TypeError):
        return None
    return email if league_id == league.id and isinstance(email, str) and is_address(email) else None


@bp.route("/l/<slug>/join/<token>/confirm/<code>", methods=["GET", "HEAD", "POST"])
def confirm(slug: str, token: str, code: str) -> Response:
    """The link in the confirmation mail: a page with one button; its POST joins."""
    league = _league(slug, token)
    email = _confirmed(league, code)
    if email is None:
        return make_response(render_template("web/league_confirm.html", league=league, email="", error=gettext(
            "This confirmation link is not valid, or is more than %(days)s days old. Ask for a new one on the "
            "invitation page.", days=JOIN_DAYS), back=f"/l/{slug}/join/{token}"), 400)
    if request.method != "POST":
        return make_response(render_template("web/league_confirm.html", league=league, email=email, error=""))
    _cross_site()
    try:
        with write_session(get_engine()) as session:
            core.add_member(session, session.get(League, league.id), email)
    except ValueError as exc:
        return make_response(render_template("web/league_confirm.html", league=league, email=email,
                                             error=reason(exc)), 422)
    return redirect(f"/l/{slug}?joined=1", code=303)
