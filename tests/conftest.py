"""Shared fixtures: an app on a fresh SQLite file, its client and CLI runner, an SMTP sink."""

from __future__ import annotations

import itertools
import os

import pytest

from app import create_app
from app.db import create_all, get_engine
from app.games import register
from tests.platform.toygame import RULES as TOY

register(TOY)


_counter = itertools.count()


@pytest.fixture
def database_url(tmp_path, request):
    """A fresh, empty database for one test: SQLite by default, PostgreSQL with TEST_DATABASE_URL.

    With ``TEST_DATABASE_URL=postgresql+psycopg://user:pw@127.0.0.1/postgres`` each test
    gets a database of its own, created and dropped around it.
    """
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    import psycopg
    from sqlalchemy.engine import make_url

    from app.db import _engines

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw")
    name = f"pbem_test_{worker}_{os.getpid()}_{next(_counter)}"
    admin = make_url(base)
    dsn = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = admin.set(database=name).render_as_string(hide_password=False)
    yield url
    engine = _engines.pop(url, None)
    if engine is not None:
        engine.dispose()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def app(database_url):
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret-key-0123456789",
        "DATABASE_URL": database_url,
        "BASE_URL": "https://pbem.example.org",
        "MAIL_SERVER": "",
    })
    with app.app_context():
        create_all(get_engine())
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    """Mail received by the test SMTP server."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        import email
        from email import policy

        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append({"from": envelope.mail_from, "to": list(envelope.rcpt_tos), "msg": msg,
                              "raw": envelope.content})
        return "250 OK"


@pytest.fixture
def smtp():
    """A real SMTP server (aiosmtpd) on 127.0.0.1; ``.port``, ``.sink.messages``."""
    from aiosmtpd.controller import Controller

    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    controller.sink = sink
    yield controller
    controller.stop()


@pytest.fixture
def smtp_app(app, smtp):
    app.config.update(MAIL_SERVER="127.0.0.1", MAIL_PORT=smtp.port, DEV_MAILBOX=False)
    return app


os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


@pytest.fixture
def live(app):
    """The app served on a free local port (``app.config["BASE_URL"]`` is its address)."""
    import threading

    from werkzeug.serving import make_server

    port = free_port()
    app.config["BASE_URL"] = f"http://127.0.0.1:{port}"
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app
    server.shutdown()


@pytest.fixture
def chromium():
    """A headless Chromium (Debian's, driven by Playwright); the tests fail, not skip, without it."""
    import shutil

    from tests.browser import CHROMIUM, LAUNCH_ARGS

    if not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium is required for browser tests ({CHROMIUM}); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()
