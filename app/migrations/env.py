"""Alembic environment: the engine comes from the application (app.migrate)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from app import models  # noqa: F401

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    engine = config.attributes["engine"]
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
        if connection.in_transaction():
            connection.commit()


run_migrations_online()
