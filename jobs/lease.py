"""A lease row that lets exactly one scheduler run against a database.

The holder renews it every ``HEARTBEAT_SECONDS``; a standby (``flask jobs run``
while another runs) takes it once it has not been renewed for ``TTL``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from flask import Flask
from sqlalchemy.exc import IntegrityError

from app.db import get_engine, write_session
from app.models import Meta, utcnow

KEY = "scheduler_lease"
TTL = timedelta(seconds=120)


def acquire(app: Flask, holder: str, now: datetime | None = None) -> bool:
    """Take the lease if it is free, run out or already ours; False when another scheduler holds it.

    Two schedulers starting at the same moment (two hosts booting together) take it once between
    them: the lease's row is read locked, so the second waits and then reads the first one's fresh
    lease; when there is no row yet, both insert it and the second's insert fails on the key."""
    now = now or utcnow()
    try:
        with write_session(get_engine(app)) as session:
            row = session.get(Meta, KEY, with_for_update=True)
            if row is not None and row.value:
                data = json.loads(row.value)
                fresh = datetime.fromisoformat(data["until"]) > now
                if fresh and data["holder"] != holder:
                    return False
            row = row or Meta(key=KEY)
            row.value = json.dumps({"holder": holder, "until": (now + TTL).isoformat()})
            session.add(row)
    except IntegrityError:  # another scheduler inserted the first lease at the same moment: it holds it
        return False
    return True


def heartbeat(app: Flask, holder: str) -> bool:
    """Renew the lease; False (nothing written) when another scheduler holds a fresh one: it took over."""
    now = utcnow()
    with write_session(get_engine(app)) as session:
        row = session.get(Meta, KEY, with_for_update=True) or Meta(key=KEY)
        if row.value:
            data = json.loads(row.value)
            if data["holder"] != holder and datetime.fromisoformat(data["until"]) > now:
                return False
        row.value = json.dumps({"holder": holder, "until": (now + TTL).isoformat()})
        session.add(row)
        beat = session.get(Meta, "last_sweep") or Meta(key="last_sweep")
        if not beat.value:
            beat.value = now.isoformat()
            session.add(beat)
    return True


def release(app: Flask, holder: str) -> None:
    with write_session(get_engine(app)) as session:
        row = session.get(Meta, KEY)
        if row is not None and row.value and json.loads(row.value)["holder"] == holder:
            session.delete(row)
