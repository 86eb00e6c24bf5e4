"""Statements sent with psycopg alone on PostgreSQL, for the two hottest statements of the web workers:
a link's read (``app.web.language.link_seat``) and an order's write (``app.turns.pg_write``).

SQLAlchemy's session and result machinery costs an order more processor time than its statements'
own work (measured in-process with orders 100 ms apart: a link's read through the driver took the
whole order from 4.1 to 3.7 ms of CPU).  The connection comes from the engine's pool, in autocommit,
and goes back as the pool lends it.  Within a request it is lent once and kept until the request
ends (``give_back``, at the app context's teardown): an order's read and its write take one
connection from the pool, not two.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from flask import g, has_request_context
from sqlalchemy.engine import Engine

log = logging.getLogger(__name__)


def direct(engine: Engine) -> bool:
    """Whether ``engine`` is PostgreSQL through psycopg: its hot statements then go through the driver alone."""
    return engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"


@contextlib.contextmanager
def lent(engine: Engine, *, ping: bool = True) -> Iterator[Any]:
    """A psycopg connection from ``engine``'s pool (pinged when idle), in autocommit until given back.

    In a request the connection stays lent to it until ``give_back`` (its teardown); a statement that
    raises gives it back at once (so a connection the server dropped is not used again).  Elsewhere
    (mail intake, the scheduler, a command) it goes back at the end of the block: a long-lived context
    holds none."""
    held: dict[Engine, tuple[Any, Any]] | None = g.setdefault("pg_lent", {}) if has_request_context() else None
    if held is not None and engine in held:
        proxied, conn = held[engine]
    else:
        proxied, conn = _lend(engine, ping=ping)
        if held is not None:
            held[engine] = (proxied, conn)
    try:
        yield conn
    except BaseException:
        if held is not None:
            held.pop(engine, None)
        _give(conn, proxied)
        raise
    if held is None:
        _give(conn, proxied)


_unchecked = threading.local()


def ping_skipped() -> bool:
    """Whether the connection being taken from the pool now is to be used without the ping a connection idle
    for a while gets first (``db._ping_when_idle``): a read that tries again when it finds it dropped."""
    return bool(getattr(_unchecked, "on", False))


def _lend(engine: Engine, *, ping: bool = True) -> tuple[Any, Any]:
    """(the pool's connection, its psycopg connection in autocommit)."""
    _unchecked.on = not ping
    try:
        proxied = engine.raw_connection()
    finally:
        _unchecked.on = False
    conn = proxied.driver_connection  # a psycopg connection (``direct``)
    try:
        conn.autocommit = True
    except BaseException:
        _give(conn, proxied)
        raise
    return proxied, conn


def give_back(_exc: BaseException | None = None) -> None:
    """Give back the connections lent to this request (its app context's teardown)."""
    for proxied, conn in g.pop("pg_lent", {}).values():
        _give(conn, proxied)


def _give(conn: Any, proxied: Any) -> None:
    try:
        _back_to_idle(conn, proxied)
    finally:
        proxied.close()


def fetch_one(engine: Engine, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
    """The first row of a read, or None.  The statement is prepared on the server on its first use on a
    connection (the driver's default waits for the fifth, and the server plans each use before it): a
    worker's start reads once (``app.web.worker``), so its first requests find it prepared.

    The connection is used without the ping a connection idle for a while gets first: a read can be
    sent again, so one the server dropped (a restart, an idle timeout) is found by the read itself,
    left out of the pool, and the read sent once more on a connection that answers the ping.  A worker
    idle for a second, as a web worker is between most players' requests, saves that round trip."""
    from psycopg import OperationalError  # deferred: the driver is an optional dependency (the [pg] extra)

    conn = None
    try:
        with lent(engine, ping=False) as conn:
            return _first(conn, sql, params)
    except OperationalError:
        if conn is None or not conn.broken:  # the statement failed, not the connection: as it is
            raise
        log.info("a pooled connection was dropped by the server: read again on another")
    with lent(engine) as conn:
        return _first(conn, sql, params)


def _first(conn: Any, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
    row: tuple[Any, ...] | None = conn.execute(sql, params, prepare=True).fetchone()
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
