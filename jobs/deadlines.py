"""Jobs: resolve due steps, deliver mail, and the sweep after a restart."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from flask import Flask

from app import turns
from app.db import get_engine, write_session
from app.leagues.core import advance
from app.mail import deliver_pending
from app.models import Meta, utcnow

log = logging.getLogger(__name__)


def _stamp(app: Flask, now: datetime) -> None:
    with write_session(get_engine(app)) as session:
        row = session.get(Meta, "last_sweep") or Meta(key="last_sweep")
        row.value = now.isoformat()
        session.add(row)


def sweep(app: Flask) -> None:
    """Resolve every step that is due (deadline passed, or all orders in)."""
    now = utcnow()
    with app.app_context():
        summary = turns.process_due(get_engine(app), now, max_attempts=app.config["MAX_ATTEMPTS"])
        with write_session(get_engine(app)) as session:
            advance(session, now)
        _stamp(app, now)
        if summary["steps"]:
            log.info("resolved %s steps in %s games", summary["steps"], summary["games"])
            deliver(app)


def deliver(app: Flask) -> None:
    with app.app_context():
        counts = deliver_pending(app)
        if any(counts.values()):
            log.info("mail: %s", counts)


def startup(app: Flask) -> None:
    """First sweep after a start.

    After a short stop, overdue steps resolve at once, in deadline order.  After
    a long outage (longer than ``OUTAGE_THRESHOLD_MINUTES`` since the last
    sweep), deadlines that passed while the server was down are first pushed
    back by the length of the outage, so nobody misses a turn because of it.
    """
    now = utcnow()
    with app.app_context():
        with write_session(get_engine(app)) as session:
            row = session.get(Meta, "last_sweep")
            last = datetime.fromisoformat(row.value) if row and row.value else None
            gap = now - last if last else timedelta(0)
            if gap > timedelta(minutes=app.config["OUTAGE_THRESHOLD_MINUTES"]):
                moved = turns.extend_overdue(session, now, gap)
                log.warning("outage of %s: %s deadlines pushed back", gap, moved)
    sweep(app)
