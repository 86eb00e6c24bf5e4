"""What the schema holds on PostgreSQL besides the tables: the function that writes an order.

``pbem_store_order`` is an order's whole write (``app.turns.pg_write``), one statement for the web
worker to send and the server to run:

1. the order, inserted only while its step is the game's open step and the game runs, in a
   statement that locks the game's row (a resolution then either committed before, and nothing
   is inserted, or waits for this order);
2. the seat's ladder reset, when the caller says there is anything to reset;
3. the seats with an order on file for the step;
4. the all-in flag, when those seats cover every seat owed.

In a function each statement takes its own snapshot (under READ COMMITTED, PostgreSQL's
default), so 3 sees every order committed while 1 waited for the lock, as separate statements
would.  The function is created with the tables (``db.create_all``) and by migration 0007.
"""

from __future__ import annotations

from sqlalchemy import DDL, MetaData, event

#: the function's arguments, in the order a call passes them
ARGUMENTS = ("game_id integer, step_no integer, seat varchar, order_json json, order_text varchar, "
             "source varchar, submitted_at timestamptz, running varchar, seat_pk integer, "
             "reset_ladder boolean, owed varchar[]")

#: PL/pgSQL: the body names each argument through the function's name and each column through its
#: table's alias, so that no argument is read as a column of the same name
ORDER_FUNCTION = f"""CREATE OR REPLACE FUNCTION pbem_store_order({ARGUMENTS},
    OUT order_id integer, OUT seats varchar[])
LANGUAGE plpgsql VOLATILE AS $body$
BEGIN
    INSERT INTO "order" (game_id, step_no, seat, "order", text, source, submitted_at)
    SELECT g.id, g.step_no, pbem_store_order.seat, pbem_store_order.order_json,
           pbem_store_order.order_text, pbem_store_order.source, pbem_store_order.submitted_at
    FROM game AS g
    WHERE g.id = pbem_store_order.game_id AND g.step_no = pbem_store_order.step_no
      AND g.status = pbem_store_order.running
    FOR UPDATE
    RETURNING id INTO order_id;
    IF order_id IS NULL THEN
        RETURN;  -- the step closed: nothing written
    END IF;
    IF pbem_store_order.reset_ladder THEN
        UPDATE seat AS s SET missed = 0, civil_disorder = false
        WHERE s.id = pbem_store_order.seat_pk AND (s.missed <> 0 OR s.civil_disorder);
    END IF;
    SELECT array_agg(DISTINCT o.seat) INTO seats
    FROM "order" o WHERE o.game_id = pbem_store_order.game_id AND o.step_no = pbem_store_order.step_no;
    IF cardinality(pbem_store_order.owed) > 0 AND pbem_store_order.owed <@ seats THEN
        UPDATE game AS g SET all_in = true
        WHERE g.id = pbem_store_order.game_id AND g.step_no = pbem_store_order.step_no AND NOT g.all_in;
    END IF;
END
$body$"""

DROP_ORDER_FUNCTION = f"DROP FUNCTION IF EXISTS pbem_store_order({ARGUMENTS})"


def attach(metadata: MetaData) -> None:
    """Create the function on PostgreSQL whenever ``metadata``'s tables are created."""
    event.listen(metadata, "after_create", DDL(ORDER_FUNCTION).execute_if(dialect="postgresql"))
