"""Putting a mail in the outbox: its stable Message-ID and its row (written in the caller's transaction)."""

from __future__ import annotations

from datetime import datetime

from flask import current_app
from sqlmodel import Session, select

from app.models import OutboxMail, utcnow


def clean_header(value: str) -> str:
    """A header value with no line breaks (no header injection)."""
    return " ".join(str(value).replace("\r", " ").replace("\n", " ").split())[:300]


def message_id(thread: str, step_no: int, kind: str, domain: str) -> str:
    if kind == "start":
        return f"<{thread}@{domain}>"
    return f"<{thread}.s{step_no}.{kind}@{domain}>"


def queue_mail(
    session: Session,
    *,
    game_id: int | None,
    step_no: int,
    seat: str,
    kind: str,
    to_addr: str,
    subject: str,
    text: str,
    html: str,
    report_id: int | None,
    thread: str,
    now: datetime | None = None,
) -> OutboxMail:
    """Put one mail in the outbox (once: a second call with the same identity is a no-op)."""
    domain = current_app.config["MAIL_DOMAIN"]
    mid = message_id(thread, step_no, kind, domain)
    existing = session.exec(select(OutboxMail).where(OutboxMail.message_id == mid)).first()
    if existing is not None:
        return existing
    root = "" if kind == "start" else f"<{thread}@{domain}>"
    row = OutboxMail(
        message_id=mid, game_id=game_id, step_no=step_no, seat=seat, kind=kind, to_addr=to_addr,
        subject=clean_header(subject), text=text, html=html, references=root, report_id=report_id,
        created_at=now or utcnow(), next_attempt_at=now or utcnow(),
    )
    session.add(row)
    session.flush()
    return row
