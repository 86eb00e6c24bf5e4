"""The Alembic migrations build exactly the tables the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from app import models  # noqa: F401
from app.db import make_engine
from app.migrate import upgrade


def test_upgrade_from_empty_matches_the_models(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    assert {"game", "seat", "step", "order", "event", "outboxmail", "report", "player"} <= set(
        inspect(engine).get_table_names())
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
        if engine.dialect.name == "postgresql":  # and the function an order's write calls (app.pg_schema)
            assert conn.exec_driver_sql("SELECT count(*) FROM pg_proc WHERE proname = 'pbem_store_order'").scalar() == 1
    assert diff == [], f"models changed without a migration: {diff}"


def test_init_db_twice_is_harmless(runner):
    assert runner.invoke(args=["init-db"]).exit_code == 0
    assert runner.invoke(args=["init-db"]).exit_code == 0


def test_a_steps_orders_are_read_without_the_games_older_orders(app):
    """The seats with an order on file and a step's orders are read through one index on (game, step,
    seat): after months of orders, an order's post reads its own step's rows only."""
    from sqlalchemy import select as sa_select

    from app.models import Order
    from app.turns.orders import _SEATS_IN

    engine = make_engine(app.config["DATABASE_URL"])
    reads = [_SEATS_IN.params(game_id=1, step_no=2),
             sa_select(Order).where(Order.game_id == 1, Order.step_no == 2).order_by(Order.id)]
    with engine.connect() as conn:
        for query in reads:
            sql = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
            if engine.dialect.name == "sqlite":
                plan = " ".join(str(row[-1]) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
                assert "INDEX ix_order_game_step_seat (game_id=? AND step_no=?)" in plan, plan
            else:
                conn.exec_driver_sql("SET enable_seqscan = off")  # an empty table: show the index it would use
                plan = " ".join(str(row[0]) for row in conn.exec_driver_sql(f"EXPLAIN {sql}"))
                assert "ix_order_game_step_seat" in plan and "step_no" in plan, plan


def test_names_an_earlier_build_made_from_addresses_are_cleared(database_url):
    """Earlier builds named a player after their address's local part, which league pages showed to anyone;
    upgrading clears such names and keeps the ones players chose."""
    from datetime import datetime

    from sqlalchemy import text

    engine = make_engine(database_url)
    upgrade(engine, "0007")
    with engine.begin() as conn:
        for email, name in (("ann.smith@example.org", "ann.smith"), ("bob@example.org", "Bobby"),
                            ("cy@example.org", "")):
            conn.execute(text("INSERT INTO player (email, name, timezone, language, bounced, digest, "
                              "optional_mail, prefs_salt, prefs_hash, created_at) VALUES (:e, :n, 'UTC', 'en', false, "
                              "false, true, '', '', :t)"), {"e": email, "n": name, "t": datetime(2026, 1, 1)})
    upgrade(engine)
    with engine.connect() as conn:
        names = dict(conn.execute(text("SELECT email, name FROM player")).all())
    assert names == {"ann.smith@example.org": "", "bob@example.org": "Bobby", "cy@example.org": ""}
