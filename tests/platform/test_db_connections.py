"""PostgreSQL's connections: one the server dropped while it sat in the pool is replaced before a request
uses it, and a page reads without opening a transaction."""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app import db
from tests.platform.helpers import create_game, path_of

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PostgreSQL's connections")


def _server(app) -> psycopg.Connection:
    """A connection of the test's own, outside the application's pool."""
    url = make_url(app.config["DATABASE_URL"]).set(drivername="postgresql")
    return psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)


def _drop_the_pools_connections(app) -> int:
    with _server(app) as conn:
        return len(conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall())


def test_a_page_opens_after_the_server_dropped_the_pools_connections(app, client, runner, monkeypatch):
    link = create_game(runner)["seats"][0]["link"]
    assert client.get(path_of(link)).status_code == 200
    monkeypatch.setattr(db, "PING_AFTER_IDLE", 0.2)
    assert _drop_the_pools_connections(app) >= 1, "the pool kept a connection to drop"
    time.sleep(0.3)  # idle longer than PING_AFTER_IDLE: checked before use
    page = client.get(path_of(link))
    assert page.status_code == 200, "the dead connection was replaced, not used"
    assert _drop_the_pools_connections(app) >= 1


def test_a_page_reads_without_opening_a_transaction(app, client, runner):
    """A page reads in autocommit: no ``BEGIN`` and ``ROLLBACK`` round trips around its statements (under
    READ COMMITTED each statement sees what was committed when it started, in a transaction or not)."""
    from psycopg import pq
    from sqlalchemy import event

    link = create_game(runner)["seats"][0]["link"]
    seen: list[pq.TransactionStatus] = []

    def after(conn, _cursor, statement, *_args):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append(conn.connection.dbapi_connection.info.transaction_status)

    engine = db.get_engine(app)
    event.listen(engine, "after_cursor_execute", after)
    try:
        assert client.get(path_of(link)).status_code == 200
    finally:
        event.remove(engine, "after_cursor_execute", after)
    assert seen and all(s == pq.TransactionStatus.IDLE for s in seen), seen
