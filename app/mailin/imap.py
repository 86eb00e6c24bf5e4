"""The IMAP poller: orders from a mailbox, for hosts without their own MX.

Configuration: ``IMAP_HOST``, ``IMAP_PORT`` (993 with SSL, else 143),
``IMAP_USER``, ``IMAP_PASSWORD``, ``IMAP_SSL`` (default true), ``IMAP_STARTTLS``
(without SSL), ``IMAP_FOLDER`` (default ``INBOX``), ``IMAP_TIMEOUT`` (seconds).

Each unseen mail is fetched without marking it (``BODY.PEEK``), handed to
``handle_message`` and only then flagged ``\\Seen``; a mail whose handling
failed stays unseen and is tried again at the next poll.  A mail over the size
limit is not downloaded: only its header is read, to tell the player.
"""

from __future__ import annotations

import imaplib
import logging
import re
from collections import Counter
from typing import Any

from flask import Flask

from app.mail import deliver_pending
from app.mailin import max_bytes
from app.mailin.handler import handle_message

log = logging.getLogger(__name__)

MAX_PER_POLL = 200


def _connect(app: Flask) -> imaplib.IMAP4:
    cfg = app.config
    host = cfg.get("IMAP_HOST")
    if not host:
        raise RuntimeError("IMAP_HOST is not set")
    use_ssl = bool(cfg.get("IMAP_SSL", True))
    port = int(cfg.get("IMAP_PORT") or (993 if use_ssl else 143))
    timeout = float(cfg.get("IMAP_TIMEOUT", 60))
    if use_ssl:
        conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(host, port, timeout=timeout)
    else:
        conn = imaplib.IMAP4(host, port, timeout=timeout)
        if cfg.get("IMAP_STARTTLS"):
            conn.starttls()
    conn.login(str(cfg.get("IMAP_USER", "")), str(cfg.get("IMAP_PASSWORD", "")))
    return conn


def _literal(data: list[Any]) -> bytes:
    for item in data or []:
        if isinstance(item, tuple) and len(item) >= 2 and isinstance(item[1], bytes):
            return item[1]
    return b""


def _size(data: list[Any]) -> int:
    for item in data or []:
        head = item[0] if isinstance(item, tuple) else item
        if isinstance(head, bytes):
            m = re.search(rb"RFC822\.SIZE (\d+)", head)
            if m:
                return int(m.group(1))
    return 0


def poll_once(app: Flask, *, deliver: bool = True) -> dict[str, int]:
    """Handle every unseen mail in the folder once; counts by outcome."""
    counts: Counter[str] = Counter()
    with app.app_context():
        limit = max_bytes()
    conn = _connect(app)
    try:
        folder = str(app.config.get("IMAP_FOLDER") or "INBOX")
        typ, _ = conn.select('"' + folder.replace('"', "") + '"')
        if typ != "OK":
            raise RuntimeError(f"cannot open IMAP folder {folder!r}")
        typ, data = conn.uid("SEARCH", None, "UNSEEN")  # type: ignore[arg-type]
        uids = (data[0] or b"").split() if typ == "OK" and data else []
        for uid in uids[:MAX_PER_POLL]:
            uid_s = uid.decode()
            typ, data = conn.uid("FETCH", uid_s, "(RFC822.SIZE BODY.PEEK[HEADER])")
            if typ != "OK":
                counts["error"] += 1
                continue
            size, head = _size(data), _literal(data)
            too_large = size > limit
            if not too_large:
                typ, data = conn.uid("FETCH", uid_s, "(BODY.PEEK[])")
                raw = _literal(data) if typ == "OK" else b""
                if not raw:
                    counts["error"] += 1
                    continue
            else:
                raw = head
            try:
                with app.app_context():
                    result = handle_message(raw, too_large=too_large)
            except Exception:
                log.exception("handling mail %s from IMAP failed; it stays unseen", uid_s)
                counts["error"] += 1
                continue
            conn.uid("STORE", uid_s, "+FLAGS", "(\\Seen)")
            counts[result.status] += 1
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    if deliver:
        with app.app_context():
            deliver_pending(app)
    return dict(counts)
