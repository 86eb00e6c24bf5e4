"""The table of inbound mails already handled: ``app.models.InboundMail`` (every table lives there)."""

from __future__ import annotations

from app.models import InboundMail

__all__ = ["InboundMail"]
