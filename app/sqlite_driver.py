"""Statements sent with sqlite3 alone on SQLite, for the two hottest statements of the web workers, as
``pg_driver`` sends them on PostgreSQL: a link's read (``app.web.language.link_seat``) and an order's
write (``app.turns.orders``).

The statements are SQLAlchemy's own, compiled once per dialect; their parameters and their rows go
through the column types' own bind and result processors, so that what is written and read is exactly
what the ORM writes and reads (dates, JSON, flags).  What is left out is the session, connection and
result machinery around them, which cost an order more processor time than the statements themselves
(measured in-process, 800 orders 50 ms apart, the two ways taken in turn, two runs: an order's median
3.26-3.28 ms through the session, 2.31-2.33 ms through the driver alone; p99 4.4-5.2 against 3.4-3.7).

A write takes its place in the writers' queue and SQLite's write lock at once (``BEGIN IMMEDIATE``), as
``db.write_session`` does, and counts towards the log's next checkpoint the same way.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.sql.expression import Executable

from app.db import after_write, writer_queue


class Plan(NamedTuple):
    """A statement compiled for one dialect, with what turns values into parameters and rows into values."""

    sql: str
    names: tuple[str, ...]  # the parameters in their places
    given: dict[str, Any]  # the values the statement carries itself (its literals)
    binds: tuple[Callable[[Any], Any] | None, ...]
    results: tuple[Callable[[Any], Any] | None, ...]

    def args(self, params: dict[str, Any]) -> list[Any]:
        values = [params[n] if n in params else self.given[n] for n in self.names]
        return [b(v) if b is not None else v for b, v in zip(self.binds, values, strict=True)]

    def row(self, raw: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(r(v) if r is not None else v for r, v in zip(self.results, raw, strict=True))


@functools.cache
def plan(stmt: Executable, dialect: Dialect) -> Plan:
    compiled = stmt.compile(dialect=dialect)
    names = tuple(compiled.positiontup or ())
    binds = tuple(compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names)
    given = {n: v for n, v in compiled.construct_params(_check=False).items() if n in names}
    columns = getattr(stmt, "selected_columns", None) or getattr(stmt, "exported_columns", ())
    results = tuple(c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns)
    return Plan(str(compiled), names, given, binds, results)


def fetch_one(engine: Engine, stmt: Executable, params: dict[str, Any]) -> tuple[Any, ...] | None:
    """The first row of a read, in a statement of its own (SQLite's autocommit), or None."""
    how = plan(stmt, engine.dialect)
    proxied = engine.raw_connection()
    try:
        raw = proxied.driver_connection.execute(how.sql, how.args(params)).fetchone()  # type: ignore[union-attr]
    finally:
        proxied.close()
    return None if raw is None else how.row(raw)


class Writer:
    """Statements in one write transaction (``writing``)."""

    def __init__(self, conn: Any, dialect: Dialect) -> None:
        self.conn, self.dialect = conn, dialect

    def rows(self, stmt: Executable, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        how = plan(stmt, self.dialect)
        return [how.row(r) for r in self.conn.execute(how.sql, how.args(params)).fetchall()]

    def first(self, stmt: Executable, params: dict[str, Any]) -> tuple[Any, ...] | None:
        found = self.rows(stmt, params)
        return found[0] if found else None


@contextlib.contextmanager
def writing(engine: Engine) -> Iterator[Writer]:
    """One write transaction, committed when the block ends, rolled back when it raises."""
    with writer_queue(engine):
        proxied = engine.raw_connection()
        conn = proxied.driver_connection
        try:
            conn.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]
            try:
                yield Writer(conn, engine.dialect)
            except BaseException:
                if conn.in_transaction:  # type: ignore[union-attr]
                    conn.execute("ROLLBACK")  # type: ignore[union-attr]
                raise
            conn.execute("COMMIT")  # type: ignore[union-attr]
        finally:
            proxied.close()
    after_write(engine)
