"""Backups: ``flask --app app backup`` and ``flask --app app restore FILE``.

SQLite uses the online backup API (consistent while the app runs).  PostgreSQL
uses ``pg_dump --format=custom`` and ``pg_restore --clean`` when those tools are
installed.  Stop the scheduler before a restore.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.engine import make_url

from app.db import _engines


def _sqlite_path(url: str) -> str:
    path = make_url(url).database
    if not path:
        raise click.ClickException("in-memory databases cannot be backed up")
    return path


def _pg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_copy(source: str, target: str) -> None:
    """Copy one SQLite database onto another with the online backup API (consistent while in use)."""
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
    finally:
        dst.close()
        src.close()


def backup_to(url: str, target: str) -> str:
    """Write a consistent copy of the database at ``url`` to ``target``."""
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    if url.startswith("sqlite"):
        _sqlite_copy(_sqlite_path(url), target)
        return target
    if not shutil.which("pg_dump"):
        raise click.ClickException("pg_dump is not installed: apt-get install postgresql-client")
    subprocess.run(["pg_dump", "--format=custom", "--file", target, _pg_dsn(url)], check=True)
    return target


def restore_from(url: str, source: str) -> None:
    """Replace the database at ``url`` with the backup ``source``."""
    if not os.path.isfile(source):
        raise click.ClickException(f"no backup file {source!r}")
    if url.startswith("sqlite"):
        check = sqlite3.connect(source)
        try:
            if check.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise click.ClickException(f"{source} is damaged; nothing was restored")
        finally:
            check.close()
        engine = _engines.pop(url, None)
        if engine is not None:
            engine.dispose()
        _sqlite_copy(source, _sqlite_path(url))
        return
    if not shutil.which("pg_restore"):
        raise click.ClickException("pg_restore is not installed: apt-get install postgresql-client")
    subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--dbname", _pg_dsn(url), source],
                   check=True)


@click.command("backup")
@click.option("--output", "-o", default=None, help="Backup file (default: instance/backups/<time>).")
@with_appcontext
def backup_command(output: str | None) -> None:
    """Write a consistent backup of the database while the app runs."""
    url = current_app.config["DATABASE_URL"]
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    ext = "sqlite" if url.startswith("sqlite") else "pgdump"
    target = output or os.path.join(current_app.instance_path, "backups", f"pbem-{stamp}.{ext}")
    click.echo(backup_to(url, target))


@click.command("restore")
@click.argument("source")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(source: str, yes: bool) -> None:
    """Replace the database with a backup (stop the scheduler first)."""
    if not yes:
        click.confirm("This replaces every game with the backup's. Continue?", abort=True)
    restore_from(current_app.config["DATABASE_URL"], source)
    click.echo(f"restored {source}")
