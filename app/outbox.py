"""Putting a mail in the outbox: its stable Message-ID and its row (written in the caller's transaction)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, insert, update
from sqlmodel import Session, select

from app.kinds import OutboxStatus
from app.models import OutboxMail, utcnow


def clean_header(value: str) -> str:
    """A header value with no line breaks (no header injection)."""
    return " ".join(str(value).replace("\r", " ").replace("\n", " ").split())[:300]


def aware(when: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def made_in_last_day(created: Iterable[datetime], now: datetime) -> int:
    """How many of the mails made at ``created`` were made in the day before ``now``: the daily caps on mail
    anyone may ask the server to send (links again, league confirmations)."""
    return sum(1 for when in created if aware(when) > now - timedelta(days=1))


def message_id(thread: str, step_no: int, kind: str, domain: str) -> str:
    if kind == "start":
        return f"<{thread}@{domain}>"
    return f"<{thread}.s{step_no}.{kind}@{domain}>"


def mail_row(*, game_id: int | None, step_no: int, seat: str, kind: str, to_addr: str, subject: str, text: str,
             html: str, report_id: int | None, thread: str, now: datetime | None = None) -> dict[str, Any]:
    """The outbox row of one mail (its Message-ID made from its identity), as column values."""
    domain = current_app.config["MAIL_DOMAIN"]
    root = "" if kind == "start" else f"<{thread}@{domain}>"
    return {"message_id": message_id(thread, step_no, kind, domain), "game_id": game_id, "step_no": step_no,
            "seat": seat, "kind": kind, "to_addr": to_addr, "subject": clean_header(subject), "text": text,
            "html": html, "references": root, "report_id": report_id, "created_at": now or utcnow(),
            "next_attempt_at": now or utcnow()}


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
    values = mail_row(game_id=game_id, step_no=step_no, seat=seat, kind=kind, to_addr=to_addr, subject=subject,
                      text=text, html=html, report_id=report_id, thread=thread, now=now)
    existing = session.exec(select(OutboxMail).where(OutboxMail.message_id == values["message_id"])).first()
    if existing is not None:
        return existing
    row = OutboxMail(**values)
    session.add(row)
    session.flush()
    return row


_OUTBOX = OutboxMail.__table__  # type: ignore[attr-defined]
_MAIL_BY_ID = select(_OUTBOX.c.id, _OUTBOX.c.status).where(_OUTBOX.c.message_id == bindparam("message_id"))
_ADD_MAIL = insert(_OUTBOX)
_HOLD_MAIL = (update(_OUTBOX).where(_OUTBOX.c.id == bindparam("mail_id"), _OUTBOX.c.status == OutboxStatus.PENDING)
              .values(status=OutboxStatus.DIGEST))


def queue_row(session: Session, values: dict[str, Any], *, digest: bool = False) -> None:
    """Put a mail made by ``mail_row`` in the outbox once, in statements built once (a write transaction
    storing many mails holds the lock the shorter); with ``digest`` it waits for the daily digest."""
    conn = session.connection()
    found = conn.execute(_MAIL_BY_ID, {"message_id": values["message_id"]}).first()
    if found is None:
        conn.execute(_ADD_MAIL, {**values, "status": OutboxStatus.DIGEST if digest else OutboxStatus.PENDING})
    elif digest and found[1] == OutboxStatus.PENDING:
        conn.execute(_HOLD_MAIL, {"mail_id": found[0]})
