"""Orders by e-mail reply (inbound mail)."""

from __future__ import annotations

from sqlmodel import Session

from app.models import OutboxMail


def reply_address(session: Session, mail: OutboxMail) -> str:
    """The Reply-To address of an outgoing mail ("" for none)."""
    return ""
