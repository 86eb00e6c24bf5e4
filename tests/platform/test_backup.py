"""Backups restore every game exactly as it was."""

from __future__ import annotations

import shutil

import pytest

from tests.platform.helpers import create_game, game_row, post_form


def test_backup_then_restore_brings_games_back(app, client, runner, tmp_path, database_url):
    if not database_url.startswith("sqlite") and not shutil.which("pg_dump"):
        pytest.fail("pg_dump is needed for PostgreSQL backups (apt-get install postgresql-client)")
    made = create_game(runner)
    target = str(tmp_path / "backup.db")
    out = runner.invoke(args=["backup", "--output", target])
    assert out.exit_code == 0, out.output
    before = game_row(app, made["game"])
    a, b = made["seats"]
    post_form(client, a["link"], {"n": "3"})
    post_form(client, b["link"], {"n": "1"})
    assert game_row(app, made["game"]).step_no == 2
    out = runner.invoke(args=["restore", target, "--yes"])
    assert out.exit_code == 0, out.output
    after = game_row(app, made["game"])
    assert (after.step_no, after.state) == (before.step_no, before.state)
    # the restored game still plays
    assert post_form(client, a["link"], {"n": "2"}).status_code == 303
