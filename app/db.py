"""The database: engine, sessions and transactions, ``flask init-db``.

SQLite (the default) runs in WAL mode with a busy timeout, and write
transactions start with ``BEGIN IMMEDIATE`` so that two writers queue instead
of failing with "database is locked".  PostgreSQL works the same through
``DATABASE_URL``.

A checkpoint copies SQLite's write-ahead log back into the database file (and
waits for the disk twice).  SQLite's automatic checkpoint runs inside whichever
commit crosses its threshold, so a player's order could pay for it, and the
writers queued behind that order with it.  Here background work (the
scheduler's jobs, the delivery workers) runs the checkpoint after it has left
the writers' queue, at most once every ``CHECKPOINT_SECONDS``, and a process
serving pages (a web worker) hands it to a thread of its own every
``CHECKPOINT_WRITES`` writes, so the request that wrote returns at once.
SQLite's own stays as a safety net for a log grown past ``WAL_SAFETY_PAGES``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any, TypeVar

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import class_mapper, make_transient_to_detached
from sqlalchemy.orm.base import instance_state
from sqlmodel import Session, SQLModel, create_engine

from app import pg_driver
from app.priority import is_background

log = logging.getLogger(__name__)

_engines: dict[str, Engine] = {}
M = TypeVar("M")

#: SQLite's own checkpoint runs in a commit only when the log holds this many pages (about 40 MB)
WAL_SAFETY_PAGES = 10000
#: background work checkpoints the log at most this often
CHECKPOINT_SECONDS = 1.0
_last_checkpoint: dict[str, float] = {}
_checkpoint_lock = threading.Lock()


class Encoded(dict):  # type: ignore[type-arg]
    """A JSON document encoded when it is made, so that writing it later (inside a write transaction) costs
    no encoding: the engines' JSON serializer takes its text.  Not to be changed once made."""

    __slots__ = ("text",)

    def __init__(self, value: dict) -> None:  # type: ignore[type-arg]
        super().__init__(value)
        self.text = json.dumps(value)


def json_text(value: object) -> str:
    """The engines' JSON serializer: ``json.dumps``, or the text an ``Encoded`` document already has."""
    return value.text if isinstance(value, Encoded) else json.dumps(value)


def make_engine(url: str) -> Engine:
    """One engine per URL, shared by the process."""
    if url in _engines:
        return _engines[url]
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               json_serializer=json_text)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA wal_autocheckpoint={WAL_SAFETY_PAGES}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn):  # type: ignore[no-untyped-def]
            mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
            conn.exec_driver_sql(f"BEGIN {mode}")

    else:
        # last in, first out: a request's read and write, and the next request, take the connection given
        # back last, whose server process is awake and whose pings are not due; a first-in-first-out pool
        # hands out the one idle longest (measured in-process, orders 100 ms apart: median 5.4-5.6 ms
        # against 6.2-6.7, p99 8.3-9.0 against 11.2-11.3)
        engine = create_engine(url, json_serializer=json_text, pool_use_lifo=True)
        _ping_when_idle(engine)
    _engines[url] = engine
    return engine


#: a pooled connection given back less than this many seconds ago is used without a ping first
PING_AFTER_IDLE = 1.0


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection before use when it has been idle, as ``pool_pre_ping`` does before every
    use: a request's read and its write (a few milliseconds apart) then pay one round trip less each, and
    a connection the server dropped (a restart, an idle timeout) is still replaced before any statement."""

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn, record, _proxy):  # type: ignore[no-untyped-def]
        idle = time.monotonic() - record.info.get("given_back", float("-inf"))
        if idle < PING_AFTER_IDLE or pg_driver.ping_skipped():
            return
        try:
            alive = engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # noqa: BLE001 (whatever the driver raises: the pool connects afresh)
            raise DisconnectionError(str(exc)) from exc
        if not alive:
            raise DisconnectionError("the connection did not answer")

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn, record):  # type: ignore[no-untyped-def]
        record.info["given_back"] = time.monotonic()


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def get_engine(app: Flask | None = None) -> Engine:
    app = app or current_app
    return make_engine(app.config["DATABASE_URL"])


_readers: dict[Engine, Engine] = {}


def read_bind(engine: Engine) -> Engine:
    """What a request's read session reads through.  On PostgreSQL, statements in autocommit: under its
    READ COMMITTED every statement sees what was committed when it started, in a transaction or not, so a
    read loses nothing and saves the two round trips of ``BEGIN`` and ``ROLLBACK``.  SQLite's read
    transaction keeps one snapshot for all its statements, so it stays."""
    if is_sqlite(engine):
        return engine
    if engine not in _readers:
        _readers[engine] = engine.execution_options(isolation_level="AUTOCOMMIT")
    return _readers[engine]


def get_session() -> Session:
    """The request's read session (closed at teardown).  It never writes: writes take ``write_session``."""
    if "db_session" not in g:
        g.db_session = Session(read_bind(get_engine()), expire_on_commit=False)
    return g.db_session


_held = threading.local()


@contextlib.contextmanager
def writer_queue(engine: Engine) -> Iterator[None]:
    """Writers to one SQLite file wait in line on a file lock.

    SQLite's own busy handler sleeps in growing steps while another writer holds
    the lock; a blocking ``flock`` wakes the next writer as soon as the lock is
    free, which keeps order submission fast while turns resolve.  The lock dies
    with its process, and a thread that already holds it does not wait again.
    """
    path = engine.url.database
    if not path or path == ":memory:" or getattr(_held, "depth", 0):
        _held.depth = getattr(_held, "depth", 0) + 1
        try:
            yield
        finally:
            _held.depth -= 1
        return
    with open(path + ".writers", "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        _held.depth = 1
        try:
            yield
        finally:
            _held.depth = 0
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextlib.contextmanager
def write_session(engine: Engine | None = None) -> Iterator[Session]:
    """A session in one write transaction: commit on success, roll back on error.

    On SQLite the transaction takes the write lock at once (``BEGIN IMMEDIATE``),
    after waiting in line with the other writers (``writer_queue``).
    """
    engine = engine or get_engine()
    queue = writer_queue(engine) if is_sqlite(engine) else contextlib.nullcontext()
    with queue, Session(engine, expire_on_commit=False) as session:
        if is_sqlite(engine):
            session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
    if is_sqlite(engine):
        after_write(engine)


def after_write(engine: Engine) -> None:
    """After a committed write to SQLite, outside the writers' queue: background work checkpoints the log
    itself, a web worker counts the write towards its thread's next checkpoint (``checkpoint_soon``)."""
    if getattr(_held, "depth", 0):
        return
    if is_background():
        checkpoint(engine)
    else:
        checkpoint_soon(engine)


def checkpoint(engine: Engine, every: float = CHECKPOINT_SECONDS) -> None:
    """Copy SQLite's write-ahead log into the database file (a passive checkpoint: it waits for
    no reader or writer), unless this process did so less than ``every`` seconds ago."""
    path = engine.url.database or ""
    now = time.monotonic()
    with _checkpoint_lock:
        if now - _last_checkpoint.get(path, -every) < every:
            return
        _last_checkpoint[path] = now
    try:
        raw = engine.raw_connection()
        try:
            cur = raw.cursor()
            cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
            cur.close()
        finally:
            raw.close()
    except Exception as exc:  # the write it follows is committed: a checkpoint not made now is made later
        log.warning("checkpoint of %s failed: %s", path, exc)


#: a web worker's writes to one database between two checkpoints it asks of its thread (about 2,000 pages
#: of log: background work, when it runs, checkpoints far more often)
CHECKPOINT_WRITES = 500
#: writes since this process last asked; databases whose log is to be checkpointed; the thread's wake-up
_writes: dict[str, int] = {}
_due: dict[str, Engine] = {}
_wake = threading.Event()
_checkpointer_pid = 0


def checkpoint_soon(engine: Engine) -> None:
    """Count a web request's write; every ``CHECKPOINT_WRITES`` writes, checkpoint SQLite's log in a
    thread of this process (one, started on first use), off the request: copying 40 MB of log and
    waiting for the disk, as SQLite's own threshold would make a player's commit do, take tens of
    milliseconds.  Rarely: a checkpoint each second would wake that thread, and take the interpreter's
    lock from the requests, all the time."""
    global _checkpointer_pid
    path = engine.url.database or ""
    if not path or path == ":memory:":
        return
    with _checkpoint_lock:
        _writes[path] = _writes.get(path, 0) + 1
        if _writes[path] < CHECKPOINT_WRITES:
            return
        _writes[path] = 0
        _due[path] = engine
        if _checkpointer_pid != os.getpid():  # none yet, or a forked child's copy of its parent's
            _checkpointer_pid = os.getpid()
            threading.Thread(target=_checkpoint_due, name="sqlite-checkpoint", daemon=True).start()
    _wake.set()


def _checkpoint_due() -> None:
    while True:
        _wake.wait()
        _wake.clear()
        with _checkpoint_lock:
            due = list(_due.values())
            _due.clear()
        for engine in due:
            checkpoint(engine, every=0)  # (asked once per ``CHECKPOINT_WRITES`` writes; it never raises)


def detached(model: type[M], values: dict[str, Any]) -> M:
    """A ``model`` object made from a row's values as if a session had loaded it and closed: it belongs to
    no session, and adding it to one updates its row (it is never inserted again).  Plain rows and this
    cost a fraction of the ORM's loading, for the few hot reads that need no more."""
    obj = class_mapper(model).class_manager.new_instance()
    instance_state(obj).dict.update(values)
    make_transient_to_detached(obj)
    return obj


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def release_session() -> None:
    """Give the request's read connection back to the pool, if its read session holds one (the session stays
    usable): a request about to write does not hold one connection while it waits for another."""
    session = g.get("db_session")
    if session is not None:
        session.close()


def create_all(engine: Engine) -> None:
    """Create every table and stamp the schema as current for Alembic."""
    from app import models  # noqa: F401  (registers the tables)
    from app.migrate import stamp_head  # deferred: Alembic loads only when the schema is made or changed

    SQLModel.metadata.create_all(engine)

    stamp_head(engine)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the tables (or upgrade them to the current schema)."""
    from app.migrate import upgrade  # deferred: Alembic loads only when the schema is made or changed

    upgrade(get_engine())
    click.echo(f"database ready: {current_app.config['DATABASE_URL'].split('@')[-1]}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_session)
    app.teardown_appcontext(pg_driver.give_back)  # the driver's connection lent to the request
    app.cli.add_command(init_db_command)
