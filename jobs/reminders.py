"""Reminders before deadlines, and the daily digest of optional mail.

One reminder per (step, seat, threshold): a unique row claims it before the
mail is queued, so two ticks at once never send it twice.  Seats that have
already answered get none.  Thresholds (default 24 h and 2 h before the
deadline) shrink for short steps: only those at most half the step's length
are used, and a step shorter than twice the smallest gets one reminder at a
quarter of its length.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from flask import Flask, render_template
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, write_session
from app.games import get_rules
from app.i18n import gettext, player_locale
from app.kinds import GameStatus, OutboxStatus
from app.mail import queue_mail
from app.models import Game, OutboxMail, Player, Reminder, Seat, Step, iso, utcnow
from app.notify import report_context
from app.tokens import LINK_PLACEHOLDER

log = logging.getLogger(__name__)
DEFAULT_MINUTES = (24 * 60, 120)


def thresholds(length: timedelta, minutes: tuple[int, ...] = DEFAULT_MINUTES) -> list[int]:
    """Reminder thresholds (minutes before the deadline) for a step of this length."""
    total = round(length.total_seconds() / 60)
    chosen = sorted((m for m in minutes if m <= total / 2), reverse=True)
    if not chosen and total >= 4:
        chosen = [max(1, int(total / 4))]
    return chosen


def due(session: Session, now: datetime, minutes: tuple[int, ...]) -> list[tuple[Game, Seat, int]]:
    """(game, seat, threshold) of every reminder that should go out now."""
    out = []
    games = session.exec(select(Game).where(Game.status == GameStatus.RUNNING, Game.deadline > now)).all()
    for game in games:
        step = session.exec(select(Step).where(Step.game_id == game.id, Step.step_no == game.step_no)).first()
        if step is None or game.deadline is None:
            continue
        have = turns.current_orders(session, game.id, game.step_no)
        seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
        first = game.deadline - step.opened_at
        for seat in seats:
            if seat.seat not in game.owed or seat.seat in have or not seat.player_id or seat.is_bot:
                continue
            reached = [m for m in thresholds(first, minutes) if now >= game.deadline - timedelta(minutes=m)]
            if reached:
                out.append((game, seat, min(reached)))
    return out


def run(app: Flask, now: datetime | None = None) -> int:
    """Queue the reminders that are due; how many were queued (logged with the time it took)."""
    started = time.monotonic()
    now = now or utcnow()
    minutes = tuple(app.config.get("REMINDER_MINUTES") or DEFAULT_MINUTES)
    engine = get_engine(app)
    sent = 0
    with app.app_context():
        with Session(engine) as session:
            todo = [(g.id, s.id, m) for g, s, m in due(session, now, minutes)]
        for game_id, seat_pk, threshold in todo:
            try:
                with write_session(engine) as session:
                    game = session.get(Game, game_id)
                    seat = session.get(Seat, seat_pk)
                    session.add(Reminder(game_id=game.id, step_no=game.step_no, seat=seat.seat, minutes=threshold,
                                         sent_at=now))
                    session.flush()  # the unique key claims this reminder
                    _queue(session, game, seat, threshold, now)
                    sent += 1
            except IntegrityError:
                continue  # another tick got there first
    _log_batch("reminders: %s queued", sent, started)
    return sent


def _log_batch(what: str, count: int, started: float) -> None:
    """One line for a batch that did something; idle batches at DEBUG."""
    took = time.monotonic() - started
    log.log(logging.INFO if count else logging.DEBUG, what + ", in %.2f s", count, took)


def _queue(session: Session, game: Game, seat: Seat, threshold: int, now: datetime) -> None:
    player = session.get(Player, seat.player_id)
    if player is None or player.bounced:
        return
    ctx = report_context(session, game, get_rules(game.slug), seat, player, now)
    left = game.deadline - now if game.deadline else timedelta(0)
    hours = max(1, round(left.total_seconds() / 3600))
    with player_locale(player.language):
        text = render_template("mail/reminder.txt", ctx=ctx, link=LINK_PLACEHOLDER, hours=hours)
        subject = gettext("[%(title)s #%(id)s] %(seat)s: reminder, orders due in about %(hours)s h",
                          title=game.title, id=game.id, seat=seat.seat, hours=hours)
    queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat, kind=f"remind{threshold}",
               to_addr=player.email, subject=subject, text=text, html="", report_id=None,
               thread=f"g{game.id}.{seat.seat}", now=now)


def send_digests(app: Flask, now: datetime | None = None) -> int:
    """Gather each player's held optional mail into one digest mail; how many digests."""
    started = time.monotonic()
    now = now or utcnow()
    engine = get_engine(app)
    made = 0
    with app.app_context(), write_session(engine) as session:
        held = session.exec(select(OutboxMail).where(OutboxMail.status == OutboxStatus.DIGEST)
                            .order_by(OutboxMail.id)).all()
        by_addr: dict[str, list[OutboxMail]] = {}
        for mail in held:
            by_addr.setdefault(mail.to_addr, []).append(mail)
        for addr, mails in by_addr.items():
            reader = session.exec(select(Player).where(Player.email == addr)).first()
            with player_locale(reader.language if reader else None):
                text = render_template("mail/digest.txt", mails=mails, now=iso(now))
                subject = gettext("Your daily game digest (%(count)s updates)", count=len(mails))
            queue_mail(session, game_id=None, step_no=0, seat="", kind=f"digest-{now:%Y%m%d}", to_addr=addr,
                       subject=subject, text=text, html="",
                       report_id=None, thread=f"digest.{addr.replace('@', '.')}", now=now)
            for mail in mails:
                mail.status = OutboxStatus.DIGESTED
                session.add(mail)
            made += 1
    _log_batch("digests: %s queued", made, started)
    return made
