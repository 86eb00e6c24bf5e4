"""An order's write on PostgreSQL: one statement, the schema's function ``pbem_store_order``
(``app.pg_schema``), sent through psycopg alone.

The same work as the write on any database (``orders._store_checked``): the order, inserted only while
its step is the game's open step; the seat's ladder when it has anything to reset; the seats with an
order on file for the step; the all-in flag.  As one statement it is one round trip and one
transaction (the connection is lent in autocommit), and the web worker sends one statement where it
sent six: measured in-process with orders 300 ms apart, 0.4 ms less processor time an order.

The statement is prepared on the server on its first use on a connection, as a link's read is
(``pg_driver.fetch_one``): a worker's start sends it once (``orders.build_statements``).

A database not yet upgraded to the function (``flask init-db`` after an upgrade of the code) still takes
orders, by the write every database has: ``store_order`` answers ``NOT_INSTALLED``.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from sqlalchemy.engine import Engine

from app.db import json_text
from app.kinds import GameStatus
from app.pg_driver import lent

log = logging.getLogger(__name__)

_CALL = """SELECT order_id, seats FROM pbem_store_order(
    %(game_id)s, %(step_no)s, %(seat)s, %(order)s::json, %(text)s, %(source)s, %(submitted_at)s, %(running)s,
    %(seat_pk)s, %(reset_ladder)s, %(owed)s::varchar[])"""

#: ``store_order``'s answer when the database has no ``pbem_store_order`` yet
NOT_INSTALLED: Final = "not installed"


def store_order(engine: Engine, values: dict[str, Any], owed: list[str], *, seat_pk: int,
                reset_ladder: bool) -> tuple[int | None, set[str]] | str:
    """Write an order (``values``: the order row's columns) in one statement.

    (the new order's id, or None when its step is no longer the open one; the seats with an order on
    file for the step, this one included), or ``NOT_INSTALLED``."""
    from psycopg.errors import UndefinedFunction  # deferred: the driver is an optional dependency (the [pg] extra)

    params = {**values, "order": json_text(values["order"]), "running": GameStatus.RUNNING.value,
              "source": str(getattr(values["source"], "value", values["source"])),
              "seat_pk": seat_pk, "reset_ladder": reset_ladder, "owed": owed}
    try:
        with lent(engine) as conn:
            row = conn.execute(_CALL, params, prepare=True).fetchone()
    except UndefinedFunction:
        log.warning("the database has no pbem_store_order function yet: run `flask --app app init-db`")
        return NOT_INSTALLED
    added, seats = row if row is not None else (None, None)
    return added, set(seats or ())
