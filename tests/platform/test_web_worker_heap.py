"""A web worker starts with what its requests use already loaded, and frozen out of the collector's scans.

Each full collection scans every object not frozen.  Loaded at a worker's first requests (a game's
rules, the pages' templates, the database driver), the app's long-lived objects stayed in those
scans: a full collection every few hundred requests then held an order about 5 ms.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.platform.helpers import create_game, path_of

ROOT = Path(__file__).resolve().parents[2]

#: A fresh worker as gunicorn starts one (``gunicorn.conf.py``'s hook), then a player's page;
#: prints the objects the collector still scans.
WORKER = textwrap.dedent("""
    import gc, runpy, sys, types
    from app import create_app
    app = create_app()
    hooks = runpy.run_path("gunicorn.conf.py")
    if sys.argv[2] == "hook":
        hooks["post_worker_init"](types.SimpleNamespace(wsgi=app))
    else:
        gc.collect(); gc.freeze()
    page = app.test_client().get(sys.argv[1])
    assert page.status_code == 200, page.status_code
    gc.collect()
    print(len(gc.get_objects()))
""")


def scanned_after_a_page(database_url: str, path: str, start: str) -> int:
    env = {**os.environ, "FLASK_DATABASE_URL": database_url, "FLASK_SECRET_KEY": "test-secret-key-0123456789",
           "FLASK_BASE_URL": "https://pbem.example.org", "FLASK_MAIL_SERVER": "",
           "FLASK_SCHEDULER_ENABLED": "false"}
    out = subprocess.run([sys.executable, "-c", WORKER, path, start], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.split()[-1])


def test_a_players_first_page_leaves_little_for_the_collector_to_scan(app, runner, database_url):
    made = create_game(runner, "empire", ("a@example.org",), "--bot")
    path = path_of(made["seats"][0]["link"])
    frozen_only = scanned_after_a_page(database_url, path, "freeze")
    settled = scanned_after_a_page(database_url, path, "hook")
    assert settled * 3 < frozen_only, (settled, frozen_only)
    assert settled < 5000, "a full collection scans a few thousand objects, not the app"


def test_a_worker_starts_even_when_the_database_does_not_answer():
    """Warming is best effort: a database down while a worker starts is reported when a request needs it."""
    env = {**os.environ, "FLASK_DATABASE_URL": "postgresql+psycopg://nobody:none@127.0.0.1:9/none",
           "FLASK_SECRET_KEY": "test-secret-key-0123456789", "FLASK_SCHEDULER_ENABLED": "false"}
    script = ("import runpy, types; from app import create_app; app = create_app(); "
              "runpy.run_path('gunicorn.conf.py')['post_worker_init'](types.SimpleNamespace(wsgi=app)); "
              "print('started')")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.split()[-1] == "started", out.stderr[-2000:]
    assert "could not warm the web worker" in out.stderr
