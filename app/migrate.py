"""Alembic migrations, run from code (``flask init-db`` upgrades to head)."""

from __future__ import annotations

import os

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

HERE = os.path.join(os.path.dirname(__file__), "migrations")


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", HERE)
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "heads") -> None:
    command.upgrade(alembic_config(engine), revision)


def stamp_head(engine: Engine) -> None:
    command.stamp(alembic_config(engine), "heads")
