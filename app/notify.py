"""What the players are told after a step: report contexts and outbox mails.

Everything here is drawn from views (``rules.view``), never from the raw state,
and written in the resolution's transaction (the outbox pattern).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import render_template
from sqlmodel import Session, select

from app.games.base import Rules
from app.i18n import game_title_filter, gettext, player_locale, seat_name_filter
from app.kinds import GameStatus, OutboxStatus
from app.mail import queue_mail
from app.models import Event, Game, Player, Report, Seat, iso
from app.report_html import map_view
from app.tokens import LINK_PLACEHOLDER


def visible(event: Event, seat: str | None) -> bool:
    return event.to is None or (seat is not None and seat in event.to)


def events_for(session: Session, game: Game, seat: str | None, since_step: int) -> list[dict[str, Any]]:
    rows = session.exec(
        select(Event)
        .where(Event.game_id == game.id, Event.step_no >= since_step)
        .order_by(Event.step_no, Event.seq)
    ).all()
    return [{"step": e.step_no, "text": e.message} for e in rows if visible(e, seat)]


def report_context(
    session: Session, game: Game, rules: Rules, seat: Seat, player: Player | None, now: datetime,
    public_view: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The data of one seat's report (JSON), from that seat's view only.

    With ``public_view`` (``report_html.map_view``: what a spectator sees) the
    report's map page is drawn from it: the same page for every seat of the step,
    so it is rendered once (``report_html.map_key``).
    """
    last = session.exec(
        select(Report.step_no)
        .where(Report.game_id == game.id, Report.seat == seat.seat, Report.step_no < game.step_no)
        .order_by(Report.step_no.desc())  # type: ignore[attr-defined]
    ).first()
    finished = game.status == GameStatus.FINISHED
    ctx = {
        "game": {
            "id": game.id, "slug": game.slug, "title": game.title, "step_no": game.step_no,
            "turn_key": game.turn_key, "status": game.status, "seed_hash": game.seed_hash,
            "seed": game.seed if finished else None, "options": game.options,
        },
        "seat": seat.seat,
        "player": {"name": player.name if player else "", "timezone": player.timezone if player else "UTC",
                   "language": player.language if player else "en"},
        "view": rules.view(game.state, seat.seat),
        "events": events_for(session, game, seat.seat, last if last is not None else 0),
        "prompt": game.owed.get(seat.seat),
        "waiting_for": sorted(s for s in game.owed if s != seat.seat),
        "deadline": iso(game.deadline),
        "outcome": rules.outcome(game.state),
        "made_at": iso(now),
    }
    if public_view is not None:
        ctx["public_view"] = public_view
    return ctx


def _seat_players(session: Session, game: Game) -> list[tuple[Seat, Player]]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    out = []
    for seat in seats:
        if seat.player_id:
            player = session.get(Player, seat.player_id)
            if player is not None:
                out.append((seat, player))
    return out


def _report_and_mail(
    session: Session, game: Game, rules: Rules, seat: Seat, player: Player, kind: str, now: datetime,
    public_view: dict[str, Any] | None = None,
) -> None:
    existing = session.exec(
        select(Report).where(Report.game_id == game.id, Report.step_no == game.step_no,
                             Report.seat == seat.seat)
    ).first()
    ctx = report_context(session, game, rules, seat, player, now, public_view)
    if existing is None:
        existing = Report(game_id=game.id, step_no=game.step_no, seat=seat.seat, context=ctx, created_at=now)
        session.add(existing)
        session.flush()
    optional = kind == "turn" and not ctx["prompt"]  # nothing owed: news only
    if optional and not player.optional_mail:
        return  # unsubscribed from news; the report stays on the player's page
    with player_locale(player.language):
        subject = render_template("mail/subject.txt", ctx=ctx, kind=kind).strip()
        text = render_template("mail/turn.txt", ctx=ctx, kind=kind, link=LINK_PLACEHOLDER)
        html = render_template("mail/turn.html", ctx=ctx, kind=kind, link=LINK_PLACEHOLDER)
    row = queue_mail(
        session, game_id=game.id, step_no=game.step_no, seat=seat.seat, kind=kind,
        to_addr=player.email, subject=subject, text=text, html=html, report_id=existing.id,
        thread=f"g{game.id}.{seat.seat}", now=now,
    )
    if optional and player.digest and row.status == OutboxStatus.PENDING:
        row.status = OutboxStatus.DIGEST  # held for the daily digest
        session.add(row)


def game_started(session: Session, game: Game, rules: Rules, now: datetime) -> None:
    public = map_view(rules, game.state)
    for seat, player in _seat_players(session, game):
        _report_and_mail(session, game, rules, seat, player, "start", now, public)


def turn_reports(session: Session, game: Game, rules: Rules, seats: list[Seat], now: datetime) -> None:
    kind = "end" if game.status == GameStatus.FINISHED else "turn"
    public = map_view(rules, game.state)
    for seat, player in _seat_players(session, game):
        _report_and_mail(session, game, rules, seat, player, kind, now, public)


def seat_handed_over(session: Session, game: Game, rules: Rules, seat: Seat, player: Player,
                     now: datetime) -> None:
    """The invitation of a replacement player (a mail identity of its own per link version)."""
    ctx = report_context(session, game, rules, seat, player, now)
    kind = f"handover{seat.token_version}"
    with player_locale(player.language):
        text = render_template("mail/turn.txt", ctx=ctx, kind="start", link=LINK_PLACEHOLDER)
        html = render_template("mail/turn.html", ctx=ctx, kind="start", link=LINK_PLACEHOLDER)
        subject = gettext("[%(title)s #%(id)s] you take over %(seat)s",
                          title=game_title_filter(game.title, game.slug), id=game.id,
                          seat=seat_name_filter(seat.seat, game.slug))
    queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat, kind=kind, to_addr=player.email,
               subject=subject, text=text, html=html,
               report_id=None, thread=f"g{game.id}.{seat.seat}.v{seat.token_version}", now=now)


def outage_notice(session: Session, game: Game, hours: float, now: datetime) -> None:
    """Tell every player of a game that its deadline moved after an outage."""
    for seat, player in _seat_players(session, game):
        with player_locale(player.language):
            text = render_template("mail/outage.txt", game=game, seat=seat, hours=hours, player=player,
                                   deadline=iso(game.deadline), link=LINK_PLACEHOLDER)
            subject = gettext("[%(title)s #%(id)s] deadline moved after a server outage",
                              title=game_title_filter(game.title, game.slug), id=game.id)
        queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat,
                   kind=f"outage{int(now.timestamp())}", to_addr=player.email,
                   subject=subject, text=text, html="",
                   report_id=None, thread=f"g{game.id}.{seat.seat}", now=now)


def game_crashed(session: Session, game: Game) -> None:
    if not game.gm_email:
        return
    text = render_template("mail/crashed.txt", game=game)
    queue_mail(
        session, game_id=game.id, step_no=game.step_no, seat="GM", kind="crashed",
        to_addr=game.gm_email, subject=f"[{game.title} #{game.id}] stopped: needs the GM",
        text=text, html="", report_id=None, thread=f"g{game.id}.GM",
    )
