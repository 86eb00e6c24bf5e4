"""PostgreSQL's connections: one the server dropped while it sat in the pool is replaced before a request
uses it, and a page reads without opening a transaction."""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app import db
from tests.platform.helpers import create_game, csrf_of, path_of, step_of

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


def test_an_order_goes_through_on_a_connection_the_server_dropped(app, client, runner):
    """A link's read is sent without a ping first, however short its connection's idle time: on a connection
    the server dropped, it is read again on another, and the order is stored."""
    from sqlmodel import Session, select

    from app.models import Order

    link = create_game(runner)["seats"][0]["link"]
    page = client.get(path_of(link)).get_data(as_text=True)
    assert _drop_the_pools_connections(app) >= 1, "the pool kept a connection to drop"
    posted = client.post(path_of(link), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                              "form_index": "0", "n": "3"})
    assert posted.status_code == 303, posted.get_data(as_text=True)[:500]
    with Session(db.get_engine(app)) as session:
        assert [o.seat for o in session.exec(select(Order)).all()] == ["A"], "the order was stored"
