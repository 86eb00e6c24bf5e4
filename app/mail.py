"""Outgoing mail: the outbox, message building and SMTP delivery.

Mails are rows written in the same transaction as the change they report,
or, for a resolved step, built after its commit from the jobs it queued
(``app.mailjobs``, which ``deliver_pending`` runs first).  ``deliver_pending``
leases a batch (``claim_batch``) and sends it, retries temporary failures with
backoff and jitter, and never retries a permanent (5xx) refusal.  Every mail
has a stable Message-ID per (game, seat, step, kind), so a resend after a
crash is recognisable as the same message, and all mails of one seat in one
game thread together.  With no SMTP server configured, mail stays readable on
the local mailbox page (``/dev/mailbox``).
"""

from __future__ import annotations

import logging
import random
import smtplib
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from flask import Flask, current_app
from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app import mailjobs, reports
from app.calendar import one_deadline_ics
from app.db import get_engine, is_sqlite, write_session
from app.i18n import player_locale
from app.links import prefs_link, seat_link
from app.mailin import reply_address, return_path
from app.models import OutboxMail, Player, Report, Seat, utcnow
from app.outbox import aware, clean_header, message_id, queue_mail  # noqa: F401 (app.mail.queue_mail is imported elsewhere)
from app.render_pool import render_batch
from app.tokens import LINK_PLACEHOLDER, PREFS_PLACEHOLDER

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=10)
GIVE_UP_AFTER = timedelta(days=5)
_jitter = random.SystemRandom()


def held_seat(session: Session, mail: OutboxMail) -> Seat | None:
    """The seat a mail is about, if its recipient still holds it (else None: no link, no reply address).

    A mail queued before the GM handed the seat over still goes to the old player, but
    carries neither the seat's link nor its reply address: those belong to the new player.
    """
    if mail.game_id is None or not mail.seat:
        return None
    seat = session.exec(select(Seat).where(Seat.game_id == mail.game_id, Seat.seat == mail.seat)).first()
    if seat is None or not seat.token_hash or not seat.player_id:
        return None
    player = session.get(Player, seat.player_id)
    if player is None or player.email.strip().lower() != mail.to_addr.strip().lower():
        return None
    return seat


def order_link(session: Session, mail: OutboxMail) -> str:
    seat = held_seat(session, mail)
    return seat_link(seat) if seat is not None else ""


def fill_link(body: str, link: str, prefs: str = "") -> str:
    return body.replace(LINK_PLACEHOLDER, link).replace(PREFS_PLACEHOLDER, prefs)


def prefs_link_for(session: Session, address: str) -> str:
    player = session.exec(select(Player).where(func.lower(Player.email) == address.strip().lower())
                          .order_by(col(Player.id))).first()  # as ``turns.store.player_by_address``
    return prefs_link(player) if player is not None else ""


def build_message(session: Session, mail: OutboxMail, *, with_pdf: bool = True, report: Report | None = None,
                  link: str | None = None) -> EmailMessage:
    """The RFC 5322 message of an outbox row, links filled in and report attached.

    ``report`` and ``link``, when the caller has them already, spare reading them again
    (a report's context is the largest thing a mail reads).
    """
    link = order_link(session, mail) if link is None else link
    if report is None and mail.report_id is not None:
        report = session.get(Report, mail.report_id)
    msg = EmailMessage()
    msg["From"] = clean_header(current_app.config["MAIL_FROM"])
    msg["To"] = clean_header(mail.to_addr)
    msg["Subject"] = clean_header(mail.subject)
    msg["Message-ID"] = mail.message_id
    created = mail.created_at if mail.created_at.tzinfo else mail.created_at.replace(tzinfo=UTC)
    msg["Date"] = format_datetime(created.astimezone(UTC), usegmt=True)
    msg["Auto-Submitted"] = "auto-replied" if mail.kind.startswith("reply-") else "auto-generated"
    reply_to = reply_address(session, mail) if link or mail.kind.startswith("reply-") else ""
    if reply_to:
        msg["Reply-To"] = clean_header(reply_to)
    if mail.references:
        msg["In-Reply-To"] = mail.references
        msg["References"] = mail.references
    prefs = prefs_link_for(session, mail.to_addr)
    if prefs:
        msg["List-Unsubscribe"] = f"<{prefs}>"
    msg.set_content(fill_link(mail.text, link, prefs))
    if mail.html:
        msg.add_alternative(fill_link(mail.html, link, prefs), subtype="html")
    if with_pdf and report is not None:
        pdf = reports.render_pdf(report.context, link)  # looked up each time: scripts stub it
        msg.add_attachment(pdf, maintype="application", subtype="pdf", filename=report_filename(report))
    if report is not None:
        with player_locale(((report.context or {}).get("player") or {}).get("language")):
            ics = one_deadline_ics(report.context, link)
        if ics:
            # UTF-8 said aloud: a summary in Greek or Portuguese is not ASCII
            msg.add_attachment(ics, maintype="text", subtype="calendar", filename="deadline.ics",
                               params={"charset": "utf-8"})
    return msg


def report_filename(report: Report) -> str:
    slug = str(report.context.get("game", {}).get("slug", "game"))
    return f"{slug}-{report.game_id}-step{report.step_no}-{report.seat}.pdf"


def claim_batch(engine: Any, now: datetime, limit: int) -> list[OutboxMail]:
    """Lease up to ``limit`` due mails to this process for ``LEASE`` (a killed worker's lease runs out).

    PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so workers on several hosts take
    different mails without waiting on each other.  SQLite: one short write
    transaction keeps the mails still due (another process may have taken some
    since they were read) and leases them in one statement (one wait for the
    write lock, not one per mail).  The rows keep the values read before the claim.
    """
    due = (select(OutboxMail).where(OutboxMail.status == "pending", OutboxMail.next_attempt_at <= now)
           .order_by(OutboxMail.id).limit(limit))
    if not is_sqlite(engine):
        with write_session(engine) as session:
            rows = list(session.exec(due.with_for_update(skip_locked=True)).all())
            if rows:
                session.execute(
                    update(OutboxMail).where(OutboxMail.id.in_([r.id for r in rows]))  # type: ignore[union-attr]
                    .values(next_attempt_at=now + LEASE, attempts=OutboxMail.attempts + 1)
                    .execution_options(synchronize_session=False)
                )
            return rows
    with Session(engine) as session:
        rows = list(session.exec(due).all())
    if not rows:
        return []
    with write_session(engine) as session:  # two statements: the write lock is held briefly
        still_due = set(session.exec(
            select(OutboxMail.id).where(col(OutboxMail.id).in_([r.id for r in rows]), OutboxMail.status == "pending",
                                        OutboxMail.next_attempt_at <= now)).all())
        if still_due:
            session.execute(
                update(OutboxMail).where(col(OutboxMail.id).in_(still_due))
                .values(next_attempt_at=now + LEASE, attempts=OutboxMail.attempts + 1)
                .execution_options(synchronize_session=False)
            )
        return [row for row in rows if row.id in still_due]


def _smtp(app: Flask) -> smtplib.SMTP:
    cfg = app.config
    cls = smtplib.SMTP_SSL if cfg["MAIL_USE_SSL"] else smtplib.SMTP
    conn = cls(cfg["MAIL_SERVER"], int(cfg["MAIL_PORT"]), timeout=float(cfg["MAIL_TIMEOUT"]))
    if cfg["MAIL_USE_TLS"] and not cfg["MAIL_USE_SSL"]:
        conn.starttls()
    if cfg["MAIL_USERNAME"]:
        conn.login(cfg["MAIL_USERNAME"], cfg["MAIL_PASSWORD"])
    return conn


def _backoff(attempts: int) -> timedelta:
    base = min(60 * 2 ** max(attempts - 1, 0), 4 * 3600)
    return timedelta(seconds=base + _jitter.uniform(0, base / 4))


def deliver_pending(app: Flask | None = None, now: datetime | None = None, limit: int = 200) -> dict[str, int]:
    """Send what is due in the outbox; counts of sent, deferred, failed, local.

    The batch's reports are rendered in parallel by the render pool
    (``render_pool.render_batch``) and each mail goes out as soon as its PDF is ready.
    A report that fails to render defers its mail; after ``REPORT_ATTEMPTS``
    tries the mail goes without the PDF and says the report is on the page.
    """
    started = time.monotonic()
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    now = now or utcnow()
    engine = get_engine(app)
    mailjobs.build_pending(engine)  # reports and mails of resolved steps not built yet (a crash in between)
    counts = {"sent": 0, "deferred": 0, "failed": 0, "local": 0}
    claimed = claim_batch(engine, now, limit)
    conn: smtplib.SMTP | None = None
    try:
        for row, pdf, render_error, known in _with_reports(app, engine, claimed):
            if render_error and row.attempts + 1 < int(app.config.get("REPORT_ATTEMPTS", 3)):
                outcome, error = "deferred", f"report: {render_error}"
            else:
                outcome, error = _send_prepared(app, engine, row, conn, pdf, bool(render_error), known)
                if outcome == "reconnect":
                    conn = None
                    outcome, error = _send_prepared(app, engine, row, None, pdf, bool(render_error), known)
                if isinstance(outcome, smtplib.SMTP):
                    conn, outcome = outcome, "sent"
                if outcome == "sent" and render_error:
                    error = f"sent without the report: {render_error}"
            counts[outcome] += 1
            _record(engine, row, outcome, error, now)
    finally:
        if conn is not None:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
    took = time.monotonic() - started
    if claimed:
        log.info("mail batch: %s sent, %s deferred, %s failed, %s to the local mailbox, in %.2f s",
                 counts["sent"], counts["deferred"], counts["failed"], counts["local"], took)
    else:
        log.debug("mail batch: nothing due, in %.2f s", took)
    return counts


REPORT_ON_PAGE = "Your turn report could not be attached this time; it is on your page: "


def _with_reports(app: Flask, engine: Any, rows: list[OutboxMail]):
    """(row, pdf or None, render error or "", (report, link) or None) for each row, in order, PDFs
    rendered in parallel; the report and link read here are handed on to the mail."""
    if not app.config["MAIL_SERVER"]:  # the local mailbox renders on demand
        for row in rows:
            yield row, None, "", None
        return
    jobs, known = [], []
    with Session(engine) as session:
        for row in rows:
            report = session.get(Report, row.report_id) if row.report_id is not None else None
            link = order_link(session, row)
            known.append((report, link))
            if report is not None:
                jobs.append((report.context, link))
    results = render_batch(app, jobs)
    for row, (report, link) in zip(rows, known, strict=True):
        if report is None:
            yield row, None, "", (None, link)
            continue
        result = next(results)
        if isinstance(result, bytes):
            yield row, result, "", (report, link)
        else:
            log.warning("report of mail %s not rendered: %s", row.message_id, result)
            yield row, None, str(result) or type(result).__name__, (report, link)


def _send_prepared(app: Flask, engine: Any, row: OutboxMail, conn: smtplib.SMTP | None,
                   pdf: bytes | None, without_report: bool, known: tuple[Report | None, str] | None = None):
    """Send one mail over SMTP with its PDF already rendered (or a note that it is on the page).

    Returns the open connection on success, else an outcome (failed, deferred,
    reconnect, local) and the error text.
    """
    if not app.config["MAIL_SERVER"]:
        return "local", ""
    try:
        with Session(engine) as session:
            mail = row
            if without_report:
                mail = OutboxMail(**row.model_dump())
                mail.text = f"{row.text.rstrip()}\n\n{REPORT_ON_PAGE}{LINK_PLACEHOLDER}\n"
                if row.html:
                    note = f"<p>{REPORT_ON_PAGE}{LINK_PLACEHOLDER}</p>"
                    at = row.html.lower().rfind("</body>")
                    mail.html = row.html[:at] + note + row.html[at:] if at >= 0 else row.html + note
            report, link = known if known is not None else (None, None)
            if report is None and row.report_id is not None:
                report = session.get(Report, row.report_id)
            msg = build_message(session, mail, with_pdf=False, report=report, link=link)
            if pdf is not None and report is not None:
                msg.add_attachment(pdf, maintype="application", subtype="pdf", filename=report_filename(report))
        if conn is None:
            conn = _smtp(app)
        refused = conn.send_message(msg, from_addr=return_path(row.message_id), to_addrs=[row.to_addr])
        if refused:
            code, text = next(iter(refused.values()))
            return ("failed" if code >= 500 else "deferred"), f"{code} {text!r}"
        return conn, ""
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        return ("failed" if code >= 500 else "deferred"), f"{code} {text!r}"
    except smtplib.SMTPResponseException as exc:
        return ("failed" if exc.smtp_code >= 500 else "deferred"), f"{exc.smtp_code} {exc.smtp_error!r}"
    except smtplib.SMTPServerDisconnected as exc:
        if conn is not None:
            return "reconnect", str(exc)
        return "deferred", f"disconnected: {exc}"
    except (TimeoutError, OSError, smtplib.SMTPException) as exc:
        return "deferred", f"{type(exc).__name__}: {exc}"


def _record(engine: Any, row: OutboxMail, outcome: str, error: str, now: datetime) -> None:
    """Store a send's outcome: one UPDATE of the row as claimed (its attempts counted by the claim)."""
    values: dict[str, Any] = {"last_error": error}
    if outcome in ("sent", "local"):
        values.update(status=outcome, sent_at=now)
    elif outcome == "failed" or now - aware(row.created_at) > GIVE_UP_AFTER:
        values["status"] = "failed"
    else:
        values["next_attempt_at"] = now + _backoff(row.attempts + 1)  # the claim counted this attempt
    with write_session(engine) as session:
        session.execute(update(OutboxMail).where(OutboxMail.id == row.id).values(**values)  # type: ignore[arg-type]
                        .execution_options(synchronize_session=False))
    if outcome == "failed":
        log.warning("mail %s permanently refused: %s", row.message_id, error)


def init_app(app: Flask) -> None:
    """Nothing to wire yet: delivery runs from the scheduler and ``flask mail deliver``."""
