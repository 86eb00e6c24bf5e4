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
    assert diff == [], f"models changed without a migration: {diff}"


def test_init_db_twice_is_harmless(runner):
    assert runner.invoke(args=["init-db"]).exit_code == 0
    assert runner.invoke(args=["init-db"]).exit_code == 0
