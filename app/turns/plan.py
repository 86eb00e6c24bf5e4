"""A step resolved while reading, then written in a short write transaction.

On SQLite every writer waits for the database's one write lock, players'
orders included.  So a due step is first worked out in a read transaction
(``plan``): the same code as always (``resolve.resolve_step``) reads the game,
its orders and seats, fills the missing orders, runs the rules and opens the
next step, but its writes are kept, not made: new and changed rows stay in the
session (no flush) and statements wait in ``session.info`` (``store.write_later``).

Then one write transaction (``apply``) checks that nothing the plan read has
moved (the game's row but its state, the step's orders on file, the seats: a
state changes only with the step number) and makes the writes.  If something
moved (an order came in meanwhile), the step is planned again; after a few
tries, or when the plan needed to write as it went (``NeedsWriteLock``: a rare
path such as a bounced mail's notice to the GM), the step is resolved under the
lock as before.  Either way a step resolves once: the apply claims it as the
resolution always did (PostgreSQL ``FOR UPDATE SKIP LOCKED``; SQLite's write
lock), and what it writes is what the same transaction under the lock would have.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event, func, insert, inspect, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import ORMExecuteState
from sqlmodel import Session, select

from app.db import Encoded, is_sqlite, write_session
from app.models import Game, Order, Seat
from app.turns.store import PLANNED_WRITES, NeedsWriteLock, run_write

#: plans of one step made again (an order came in meanwhile) before it is resolved under the lock
TRIES = 3

Resolver = Callable[[Session, int, int, datetime], Game | None]
Checkpoint = Callable[[str], None]


def _nowhere(_name: str) -> None:
    """No checkpoint."""


def _no_flush(session: Session, _context: Any, _instances: Any) -> None:
    raise NeedsWriteLock("a planned step flushed")


def _no_write(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        raise NeedsWriteLock("a planned step wrote")


@contextlib.contextmanager
def _reading(engine: Engine) -> Iterator[Session]:
    """A session that reads one snapshot and refuses to write; rolled back at the end."""
    session = Session(engine, autoflush=False, expire_on_commit=False)
    session.info[PLANNED_WRITES] = []
    event.listen(session, "before_flush", _no_flush)
    event.listen(session, "do_orm_execute", _no_write)
    try:
        if not is_sqlite(engine):  # one snapshot for every read of the plan
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        yield session
    finally:
        session.rollback()
        session.close()


_GAME = Game.__table__  # type: ignore[attr-defined]
_ORDER = Order.__table__  # type: ignore[attr-defined]
_SEAT = Seat.__table__  # type: ignore[attr-defined]
#: what a plan reads that another writer may change: the game's row but its state and owed seats (which
#: change only with the step number), the step's orders on file, the seats (built once: no statement to
#: compile while the write lock is held)
_GAME_ROW = select(*[c for c in _GAME.c if c.name not in ("state", "owed")]).where(
    _GAME.c.id == bindparam("game_id"))
_GAME_CLAIM = _GAME_ROW.with_for_update(skip_locked=True)
_ORDERS_ON_FILE = select(func.count(), func.max(_ORDER.c.id)).where(
    _ORDER.c.game_id == bindparam("game_id"), _ORDER.c.step_no == bindparam("step_no"))
_SEATS = select(_SEAT).where(_SEAT.c.game_id == bindparam("game_id")).order_by(_SEAT.c.id)


def inputs(session: Session, game_id: int, step_no: int, *, claim: bool = False) -> tuple[Any, ...] | None:
    """What a plan of the step read that another writer may change.  None when the game is not there (or,
    with ``claim`` on PostgreSQL, another transaction holds it: a processor resolving it)."""
    conn = session.connection()
    params = {"game_id": game_id, "step_no": step_no}
    game = conn.execute(_GAME_CLAIM if claim and not is_sqlite(conn.engine) else _GAME_ROW, params).first()
    if game is None:
        return None
    orders = conn.execute(_ORDERS_ON_FILE, params).one()
    seats = conn.execute(_SEATS, params).all()
    return tuple(game), tuple(orders), tuple(tuple(s) for s in seats)


def _encoded(values: dict[str, Any]) -> dict[str, Any]:
    """Values with their JSON documents encoded now (outside the write lock)."""
    return {k: Encoded(v) if isinstance(v, dict) else v for k, v in values.items()}


class Plan:
    """What a step planned while reading writes, as statements built before the write lock is taken: the
    new rows (one insert per table), the changed rows (their changed columns), then the statements the
    resolution kept (``store.write_later``)."""

    def __init__(self, session: Session, seen: tuple[Any, ...] | None) -> None:
        self.seen = seen
        new: dict[Any, list[dict[str, Any]]] = {}
        for row in session.new:
            new.setdefault(type(row).__table__, []).append(_encoded(row.model_dump(exclude={"id"})))
        self.statements: list[tuple[Any, list[dict[str, Any]] | None, tuple[int, str] | None]] = [
            (insert(table), rows, None) for table, rows in new.items()]
        for row in session.dirty:
            state = inspect(row)
            changed = {a.key: a.value for a in state.attrs if a.history.has_changes()}
            if changed:
                table = type(row).__table__
                self.statements.append(
                    (update(table).where(table.c.id == state.identity[0]).values(**_encoded(changed)), None, None))
        self.statements += session.info[PLANNED_WRITES]

    def __bool__(self) -> bool:
        return bool(self.statements)

    def write(self, session: Session) -> None:
        for statement, rows, expect in self.statements:
            run_write(session, statement, rows, expect)


def plan(engine: Engine, game_id: int, step_no: int, now: datetime, resolve: Resolver) -> tuple[Game | None, Plan]:
    """Run ``resolve`` on the step while reading: (what it returned, the writes it kept)."""
    with _reading(engine) as session:
        seen = inputs(session, game_id, step_no)
        result = resolve(session, game_id, step_no, now)
        return result, Plan(session, seen)


def apply(engine: Engine, game_id: int, step_no: int, planned: Plan, checkpoint: Checkpoint = _nowhere) -> bool:
    """Write a plan if nothing it read has moved; False (nothing written) if something has."""
    with write_session(engine) as session:
        if planned.seen is None or inputs(session, game_id, step_no, claim=True) != planned.seen:
            return False
        planned.write(session)
        checkpoint("apply_before_commit")
    return True


def resolve_planned(engine: Engine, game_id: int, step_no: int, now: datetime, resolve: Resolver,
                    checkpoint: Checkpoint = _nowhere) -> Game | None:
    """Resolve the step as ``resolve`` does in a write transaction, holding the write lock only to write.

    ``checkpoint`` is called with a name between the plan and its apply (``planned``) and before the
    apply commits (``apply_before_commit``): crash tests kill the process there.
    """
    for _try in range(TRIES):
        try:
            result, planned = plan(engine, game_id, step_no, now, resolve)
        except NeedsWriteLock:
            break
        if not planned:
            return result
        checkpoint("planned")
        if apply(engine, game_id, step_no, planned, checkpoint):
            return result
    with write_session(engine) as session:
        return resolve(session, game_id, step_no, now)
