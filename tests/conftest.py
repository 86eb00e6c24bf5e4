"""Shared fixtures: an app on a fresh SQLite file, its client and CLI runner, an SMTP sink."""

from __future__ import annotations

import os

import pytest

from app import create_app
from app.db import create_all, get_engine
from app.games import register
from tests.platform.toygame import RULES as TOY

register(TOY)


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret-key-0123456789",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}",
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
