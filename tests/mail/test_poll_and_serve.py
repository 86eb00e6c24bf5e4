"""The two ways in, end to end: ``flask mail poll`` against an IMAP server and ``flask mail serve``.

No IMAP server can be installed here, so ``tests/mail/fakeimap.py`` is a small
IMAP4rev1 server on a real TCP socket; the poller talks to it through the
standard ``imaplib`` unchanged.  ``mail serve`` runs as a real subprocess.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from app.mailin import imap as imap_module
from tests.conftest import free_port
from tests.mail.fakeimap import FakeImapServer, Mailbox
from tests.mail.helpers import (
    create_game,
    deliver,
    game_row,
    inbound,
    orders,
    outbox,
    reply,
    reply_addr,
    set_aside_turn_mails,
)


def _raw(msg) -> bytes:
    return msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))


@pytest.fixture
def imap(smtp_app):
    box = Mailbox()
    server = FakeImapServer(box).start()
    smtp_app.config.update(IMAP_HOST="127.0.0.1", IMAP_PORT=server.port, IMAP_SSL=False, IMAP_USER="orders",
                           IMAP_PASSWORD="secret", IMAP_FOLDER="INBOX")
    yield box
    server.stop()


def test_imap_poller_handles_unseen_mail_and_marks_it_seen(smtp_app, imap, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    smtp_app.config["INBOUND_MAX_BYTES"] = 30_000
    a = reply_addr(smtp_app, made["game"], "A")
    imap.add(_raw(reply(a, "PICK 2", msgid="<p1@x>")))                              # an order
    imap.add(_raw(reply("orders@pbem.example.org", "PICK 3", msgid="<p2@x>")))      # no token: ignored
    auto = reply(a, "Out of office", msgid="<p3@x>")
    auto["Auto-Submitted"] = "auto-replied"
    imap.add(_raw(auto))                                                           # auto-reply: not answered
    imap.add(_raw(reply(a, "PICK 1\n" + "y" * 50_000, msgid="<p4@x>")))             # too large: not downloaded
    result = runner.invoke(args=["mail", "poll", "--no-deliver"])
    assert result.exit_code == 0, result.output
    counts = json.loads(result.output)
    assert counts == {"accepted": 1, "unknown": 1, "auto": 1, "too_large": 1}
    assert all(m["seen"] for m in imap.messages)
    assert not any("BODY.PEEK[]" in c and " 4 " in c for c in imap.commands), "the big mail is never downloaded"
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [2]
    answers = outbox(smtp_app)
    assert len(answers) == 2 and "too large" in answers[1].text
    assert deliver(runner)["sent"] == 2
    assert {m["to"][0] for m in smtp.sink.messages} == {"a@example.org"}
    # nothing new: a second poll handles nothing
    again = runner.invoke(args=["mail", "poll", "--no-deliver"])
    assert json.loads(again.output) == {}


def test_imap_mail_whose_handling_fails_stays_unseen_and_is_retried(smtp_app, imap, runner, monkeypatch):
    made = create_game(runner)
    imap.add(_raw(reply(reply_addr(smtp_app, made["game"], "A"), "PICK 3", msgid="<f1@x>")))
    import app.mailin.handler as handler

    original = handler.turns.intake.accept_order

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(handler.turns.intake, "accept_order", broken)
    first = runner.invoke(args=["mail", "poll", "--no-deliver"])
    assert json.loads(first.output) == {"error": 1}
    assert imap.messages[0]["seen"] is False and inbound(smtp_app)[0].status == "error"
    monkeypatch.setattr(handler.turns.intake, "accept_order", original)
    second = runner.invoke(args=["mail", "poll", "--no-deliver"])
    assert json.loads(second.output) == {"accepted": 1}
    assert imap.messages[0]["seen"] is True
    assert len(orders(smtp_app, made["game"], "mail")) == 1


def test_imap_login_failure_is_reported(smtp_app, imap, runner):
    smtp_app.config["IMAP_PASSWORD"] = "wrong"
    result = runner.invoke(args=["mail", "poll"])
    assert result.exit_code != 0 and "IMAP poll failed" in result.output
    assert imap_module.MAX_PER_POLL > 0


def _wait_port(port: int, proc, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode())
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("mail serve did not start")


def test_flask_mail_serve_receives_orders(app, runner, tmp_path):
    """The real command in a subprocess, on the test database, with a real game."""
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    game = game_row(app, made["game"])
    example = game.owed["SOV"]["example"]
    addr = reply_addr(app, made["game"], "SOV")
    port = free_port()
    env = dict(os.environ, FLASK_DATABASE_URL=app.config["DATABASE_URL"], FLASK_SECRET_KEY=app.config["SECRET_KEY"],
               FLASK_BASE_URL=app.config["BASE_URL"], FLASK_MAIL_SERVER="")
    proc = subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "mail", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        _wait_port(port, proc)
        import smtplib

        msg = reply(addr, f"{example}\n\n-- \nThe Soviet", sender="sov@example.org")
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as conn:
            assert conn.sendmail("sov@example.org", [addr], _raw(msg)) == {}
        end = time.monotonic() + 30  # the answer is delivered right after (to the local mailbox here)
        while time.monotonic() < end and [m.status for m in outbox(app)] != ["local"]:
            time.sleep(0.2)
        assert [m.status for m in outbox(app)] == ["local"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    stored = orders(app, made["game"], "mail")
    assert [(o.seat, o.text) for o in stored] == [("SOV", example)]
    assert proc.returncode == 0
