"""The inbound SMTP/LMTP receiver (aiosmtpd), to put behind the operator's MX.

Recipients are checked at RCPT time: a valid per-seat reply address, the
plain inbound address (for forwarding setups; the token is then looked for in
the headers) and the bounce address are accepted, anything else is refused
with 550, so the sender's own server tells them (we never mail a stranger).
Mail larger than ``INBOUND_MAX_BYTES`` is refused with 552 during DATA.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from flask import Flask
from sqlmodel import Session

from app.db import get_engine
from app.mail import deliver_pending
from app.mailin import has_reply_token, is_base_address, is_return_path, max_bytes, seat_from_addresses
from app.mailin.handler import handle_message

log = logging.getLogger(__name__)

MAX_RECIPIENTS = 20


class InboundHandler:
    """aiosmtpd handler: checks recipients, hands each mail to ``handle_message``."""

    def __init__(self, app: Flask, *, lmtp: bool = False, deliver: bool = True) -> None:
        self.app = app
        self.lmtp = lmtp
        self.deliver = deliver

    def _recipient_ok(self, address: str) -> str:
        with self.app.app_context():
            if has_reply_token(address):
                with Session(get_engine(self.app)) as session:
                    if seat_from_addresses(session, [address]) is None:
                        return "550 5.1.1 This order address is not valid (any more): reply to your latest turn mail"
                return ""
            if is_base_address(address) or is_return_path(address):
                return ""
        return "550 5.1.1 No such recipient here"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,  # noqa: N802
                          rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        loop = asyncio.get_running_loop()
        refusal = await loop.run_in_executor(None, self._recipient_ok, address)
        if refusal:
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    def _handle(self, content: bytes, rcpt_tos: list[str], mail_from: str) -> str:
        with self.app.app_context():
            try:
                result = handle_message(content, rcpt_tos=rcpt_tos, mail_from=mail_from)
            except Exception:
                log.exception("handling an inbound mail failed")
                return "451 4.3.0 Temporary failure, please try again later"
            return result.smtp_reply

    def _deliver(self) -> None:
        with self.app.app_context():
            try:
                deliver_pending(self.app)
            except Exception:
                log.exception("delivering answers failed")

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        loop = asyncio.get_running_loop()
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        status = await loop.run_in_executor(None, self._handle, content, list(envelope.rcpt_tos),
                                            envelope.mail_from or "")
        if self.deliver and status.startswith("250"):
            loop.run_in_executor(None, self._deliver)
        if self.lmtp:  # LMTP: one reply per accepted recipient
            return "\r\n".join([status] * max(len(envelope.rcpt_tos), 1))
        return status


def make_controller(app: Flask, host: str = "127.0.0.1", port: int = 2525, *, lmtp: bool = False,
                    deliver: bool = True) -> Any:
    """A threaded aiosmtpd controller running the receiver; ``.start()`` / ``.stop()``."""
    try:  # deferred: aiosmtpd is needed by the receiver only, and its absence is reported here
        from aiosmtpd.controller import Controller
        from aiosmtpd.lmtp import LMTP
        from aiosmtpd.smtp import SMTP
    except ImportError as exc:  # pragma: no cover - aiosmtpd is a dependency of the receiver
        raise RuntimeError("the inbound mail receiver needs the aiosmtpd package (pip install aiosmtpd)") from exc

    with app.app_context():
        limit = max_bytes()
    handler = InboundHandler(app, lmtp=lmtp, deliver=deliver)

    class _Controller(Controller):  # type: ignore[misc]
        def factory(self) -> Any:
            return (LMTP if lmtp else SMTP)(self.handler, **self.SMTP_kwargs)

    return _Controller(handler, hostname=host, port=port, data_size_limit=limit, enable_SMTPUTF8=True,
                       server_hostname=app.config.get("MAIL_DOMAIN") or None, ident="PBEM order receiver")
