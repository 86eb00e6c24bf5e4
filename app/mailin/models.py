"""The table of inbound mails already handled (a re-delivered mail is handled once)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models import utcnow


class InboundMail(SQLModel, table=True):
    """One inbound mail, keyed by the SHA-256 of its Message-ID (or of its bytes when it has none)."""

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True)
    message_id: str = ""
    from_addr: str = ""
    seat_id: int | None = None
    game_id: int | None = Field(default=None, index=True)
    step_no: int | None = None
    # processing, accepted, rejected, closed, empty, unknown, auto, bounce, too_large, error
    status: str = "processing"
    detail: str = ""
    received_at: datetime = Field(default_factory=utcnow)
    handled_at: datetime | None = None
