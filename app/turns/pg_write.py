"""An order's write on PostgreSQL in one round trip (psycopg's pipeline mode).

The same statements as the write on any database (``orders._store_checked``), sent to the
server together between ``BEGIN`` and ``COMMIT`` and answered together: the order, inserted only
while its step is the game's open step, in a statement that locks the game's row; the seat's
ladder when it has anything to reset; the all-in flag; then the seats with an order on file for
the step.  Under READ COMMITTED each statement sees what was committed when it started, so the
statements after the insert see every order committed while the insert waited for the lock, as
they would one round trip at a time.

Each round trip wakes the server's process and then this one: on a busy machine each wake
waits its turn for a core, so a web worker's order pays for every round trip it makes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from app.db import json_text
from app.kinds import GameStatus
from app.pg_driver import lent

_ADD_ORDER = """INSERT INTO "order" (game_id, step_no, seat, "order", text, source, submitted_at)
SELECT game.id, game.step_no, %(seat)s, %(order)s::json, %(text)s, %(source)s, %(submitted_at)s
FROM game WHERE game.id = %(game_id)s AND game.step_no = %(step_no)s AND game.status = %(running)s
FOR UPDATE RETURNING "order".id"""

_STEP_OPEN = "EXISTS (SELECT 1 FROM game WHERE id = %(game_id)s AND step_no = %(step_no)s AND status = %(running)s)"

_RESET_LADDER = f"""UPDATE seat SET missed = 0, civil_disorder = false
WHERE id = %(seat_pk)s AND (missed <> 0 OR civil_disorder) AND {_STEP_OPEN}"""

_SEATS_IN = """SELECT DISTINCT seat FROM "order" WHERE game_id = %(game_id)s AND step_no = %(step_no)s"""

#: set when every owed seat has an order on file for the step (an order never takes a seat out: the flag
#: only ever needs setting)
_SET_ALL_IN = """UPDATE game SET all_in = true
WHERE id = %(game_id)s AND step_no = %(step_no)s AND NOT all_in AND cardinality(%(owed)s::varchar[]) > 0
AND NOT EXISTS (SELECT 1 FROM unnest(%(owed)s::varchar[]) AS owed(seat)
                WHERE owed.seat NOT IN (SELECT o.seat FROM "order" o
                                        WHERE o.game_id = %(game_id)s AND o.step_no = %(step_no)s))"""


def store_order(engine: Engine, values: dict[str, Any], owed: list[str], *, seat_pk: int,
                reset_ladder: bool) -> tuple[int | None, set[str]]:
    """Write an order (``values``: the order row's columns) in one transaction and one round trip.

    (the new order's id, or None when its step is no longer the open one; the seats with an order
    on file for the step, this one included).

    ``BEGIN`` and ``COMMIT`` are statements of the pipeline, sent in autocommit mode: psycopg's own
    transaction handling would wait for the answer to its ``BEGIN`` before sending the rest, and
    ``commit()`` and the pipeline's end would each wait for a sync of their own (three round trips)."""
    params = {**values, "order": json_text(values["order"]), "running": GameStatus.RUNNING.value,
              "source": str(getattr(values["source"], "value", values["source"])),
              "seat_pk": seat_pk, "owed": owed}
    with lent(engine) as conn:
        with conn.pipeline():
            conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            added = conn.execute(_ADD_ORDER, params)
            if reset_ladder:
                conn.execute(_RESET_LADDER, params)
            conn.execute(_SET_ALL_IN, params)
            seats = conn.execute(_SEATS_IN, params)
            conn.execute("COMMIT")
        row = added.fetchone()
        have = {s for (s,) in seats.fetchall()}
    return (row[0] if row is not None else None), have

