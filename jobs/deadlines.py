"""Jobs: resolve due steps, deliver mail, and the sweep after a restart."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from flask import Flask

from app import turns
from app.db import get_engine, write_session
from app.leagues.core import advance
from app.mail import deliver_pending
from app.models import Meta, utcnow
from app.priority import background

log = logging.getLogger(__name__)


def _stamp(app: Flask, now: datetime) -> None:
    with write_session(get_engine(app)) as session:
        row = session.get(Meta, "last_sweep") or Meta(key="last_sweep")
        row.value = now.isoformat()
        session.add(row)


def sweep(app: Flask) -> None:
    """Resolve every step that is due (deadline passed, or all orders in).

    Logs one line with what it did and how long it took (at DEBUG when it did nothing).
    """
    background(app.config)
    started = time.monotonic()
    now = utcnow()
    with app.app_context():
        summary = turns.process_due(get_engine(app), now, max_attempts=app.config["MAX_ATTEMPTS"])
        with write_session(get_engine(app)) as session:
            leagues = advance(session, now)
            turns.end_agreed_pauses(session, now, cap_hours=float(app.config["GM_MAX_EXTENSION_HOURS"]))
        _stamp(app, now)
        took = time.monotonic() - started
        if summary["steps"] or any(leagues.values()):
            log.info("sweep: %s steps resolved in %s games, %s league games recorded, %s rounds opened, in %.2f s",
                     summary["steps"], summary["games"], leagues["recorded"], leagues["rounds"], took)
        else:
            log.debug("sweep: nothing due, in %.2f s", took)
        if summary["steps"] and not app.config.get("DELIVERY_WORKERS"):
            deliver(app)


def deliver(app: Flask) -> None:
    """Send what is due in the outbox (``deliver_pending`` logs the batch)."""
    background(app.config)
    with app.app_context():
        deliver_pending(app)


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
