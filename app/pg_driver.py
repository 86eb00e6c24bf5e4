"""Statements sent with psycopg alone on PostgreSQL, for the two hottest statements of the web workers:
a link's read (``app.web.language.link_seat``) and an order's write (``app.turns.pg_write``).

SQLAlchemy's session and result machinery costs an order more processor time than its statements'
own work (measured in-process with orders 100 ms apart: a link's read through the driver took the
whole order from 4.1 to 3.7 ms of CPU).  The connection comes from the engine's pool, in autocommit,
and goes back as the pool lends it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from sqlalchemy.engine import Engine


def direct(engine: Engine) -> bool:
    """Whether ``engine`` is PostgreSQL through psycopg: its hot statements then go through the driver alone."""
    return engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"


@contextlib.contextmanager
def lent(engine: Engine) -> Iterator[Any]:
    """A psycopg connection from ``engine``'s pool (pinged when idle), in autocommit until given back."""
    proxied = engine.raw_connection()
    try:
        conn: Any = proxied.driver_connection  # a psycopg connection (``direct``)
        conn.autocommit = True
        try:
            yield conn
        finally:
            _back_to_idle(conn, proxied)
    finally:
        proxied.close()


def fetch_one(engine: Engine, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
    """The first row of a read (its statement prepared on the server after a few uses), or None."""
    with lent(engine) as conn:
        row: tuple[Any, ...] | None = conn.execute(sql, params).fetchone()
        return row


def _back_to_idle(conn: Any, proxied: Any) -> None:
    """Leave the connection as the pool lends it (no transaction open, not in autocommit), or, when it
    cannot be (the server went away), out of the pool."""
    from psycopg.pq import TransactionStatus  # deferred: the driver is an optional dependency (the [pg] extra)

    try:
        if conn.info.transaction_status != TransactionStatus.IDLE:  # a statement failed: the rest was skipped
            conn.execute("ROLLBACK")
        conn.autocommit = False
    except Exception:  # noqa: BLE001 (whatever the driver raises: the connection is not lent again)
        proxied.invalidate()
