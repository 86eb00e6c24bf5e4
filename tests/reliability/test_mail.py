"""RELIABILITY.md B17-B22: the outbox against a down, hanging, refusing or crashing mail path."""

from __future__ import annotations

import socket
import threading
import time
from datetime import UTC, timedelta

import pytest
import time_machine
from sqlmodel import Session, select

from app import mail as mailmod
from app.db import get_engine, write_session
from app.mail import deliver_pending
from app.models import OutboxMail, Player, utcnow
from tests.conftest import Sink, free_port
from tests.platform.helpers import create_game, game_row, mails, post_form


def _outbox(app):
    with Session(get_engine(app)) as s:
        return list(s.exec(select(OutboxMail).order_by(OutboxMail.id)).all())


def _controller(handler, port):
    from aiosmtpd.controller import Controller

    c = Controller(handler, hostname="127.0.0.1", port=port)
    c.start()
    return c


def _smtp_config(app, port, timeout=5):
    # reports render in this process: the render pool's workers do not know the test-only toy game
    app.config.update(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, DEV_MAILBOX=False, MAIL_TIMEOUT=timeout,
                      RENDER_WORKERS=0)


def test_b17_smtp_down_turns_still_resolve_then_each_mail_once(app, client, runner):
    """B17. SMTP port closed at processing -> turn commits, outbox `pending`; start aiosmtpd -> each recipient gets
    one mail."""
    port = free_port()
    _smtp_config(app, port)
    made = create_game(runner)
    a, b = made["seats"]
    with app.app_context():
        assert deliver_pending()["deferred"] == 2
    assert post_form(client, a["link"], {"n": "3"}).status_code == 303
    assert post_form(client, b["link"], {"n": "1"}).status_code == 303
    assert game_row(app, made["game"]).step_no == 2, "the turn resolved with the mail server down"
    rows = _outbox(app)
    assert [r.status for r in rows] == ["pending"] * 4
    assert all(r.attempts == 1 for r in rows[:2]) and "Connection refused" in rows[0].last_error
    sink = Sink()
    server = _controller(sink, port)
    try:
        with time_machine.travel(utcnow() + timedelta(hours=5), tick=True), app.app_context():
            assert deliver_pending()["sent"] == 4
            assert deliver_pending() == {"sent": 0, "deferred": 0, "failed": 0, "local": 0}
    finally:
        server.stop()
    got = sorted((m["to"][0], m["msg"]["Message-ID"]) for m in sink.messages)
    assert got == sorted((r.to_addr, r.message_id) for r in rows)
    assert [r.status for r in _outbox(app)] == ["sent"] * 4


def test_b18_hanging_smtp_times_out_and_never_blocks_turns(app, client, runner):
    """B18. SMTP hangs after accept -> `smtplib` timeout; turn processing never blocked."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held = []
    stop = threading.Event()

    def accept_and_hang():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])  # never sends the 220 greeting
            except OSError:
                pass

    threading.Thread(target=accept_and_hang, daemon=True).start()
    _smtp_config(app, listener.getsockname()[1], timeout=6)  # each mail hangs 6 s before it gives up
    made = create_game(runner)
    result = {}

    def deliver():
        with app.app_context():
            result["counts"] = deliver_pending()

    try:
        worker = threading.Thread(target=deliver)
        worker.start()
        for _ in range(100):  # delivery is connected to the hanging server
            if held:
                break
            time.sleep(0.1)
        post_form(client, made["seats"][0]["link"], {"n": "2"})
        post_form(client, made["seats"][1]["link"], {"n": "2"})
        assert game_row(app, made["game"]).step_no == 2
        resolved_while_hanging = worker.is_alive()
        worker.join(60)
        assert not worker.is_alive(), "delivery gave up on the hanging server"
    finally:
        stop.set()
        listener.close()
        for conn in held:
            conn.close()
    assert resolved_while_hanging, "the turn resolved while delivery still waited on the hanging server"
    assert result["counts"]["deferred"] == 2
    assert all("timed out" in r.last_error for r in _outbox(app)[:2])


class Refusing(Sink):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.startswith("slow"):
            return "451 4.3.0 try again later"
        if address.startswith("gone"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def test_b19_451_retried_with_backoff_550_permanent_others_delivered(app, runner):
    """B19. 451 -> retried with backoff+jitter; 550 on one recipient -> permanent, others delivered (refused dict
    checked).

    Each mail has one recipient, so a refusal comes as SMTPRecipientsRefused; the
    refused-dict path of a partly accepted send is checked with a stub connection.
    """
    sink = Refusing()
    port = free_port()
    server = _controller(sink, port)
    _smtp_config(app, port)
    create_game(runner, "toy", ("ok@example.org", "slow@example.org"))
    create_game(runner, "toy", ("gone@example.org", "slow@example.org"))
    now = utcnow()
    try:
        with time_machine.travel(now, tick=False), app.app_context():
            assert deliver_pending() == {"sent": 1, "deferred": 2, "failed": 1, "local": 0}
        rows = {(r.to_addr, r.game_id): r for r in _outbox(app)}
        slow = [r for (to, _g), r in rows.items() if to == "slow@example.org"]
        gone = next(r for (to, _g), r in rows.items() if to == "gone@example.org")
        assert gone.status == "failed" and gone.last_error.startswith("550")
        waits = [r.next_attempt_at.replace(tzinfo=UTC) - now for r in slow]
        assert all(r.status == "pending" and r.last_error.startswith("451") for r in slow)
        assert all(timedelta(seconds=60) <= w <= timedelta(seconds=75) for w in waits), waits
        assert waits[0] != waits[1], "jitter spreads the retries"
        with time_machine.travel(now + timedelta(seconds=30), tick=False), app.app_context():
            assert deliver_pending()["deferred"] == 0, "not before the backoff"
        with time_machine.travel(now + timedelta(minutes=2), tick=False), app.app_context():
            assert deliver_pending() == {"sent": 0, "deferred": 2, "failed": 0, "local": 0}
        again = {r.id: r for r in _outbox(app)}
        assert again[gone.id].attempts == 1, "a permanent refusal is never retried"
        assert all(again[r.id].attempts == 2 for r in slow)
        second = [again[r.id].next_attempt_at.replace(tzinfo=UTC) - (now + timedelta(minutes=2)) for r in slow]
        assert all(timedelta(seconds=120) <= w <= timedelta(seconds=150) for w in second), "the wait doubles"
    finally:
        server.stop()
    assert [m["to"] for m in sink.messages] == [["ok@example.org"]]

    class Partly:
        def send_message(self, msg, from_addr=None, to_addrs=()):
            return {to_addrs[0]: (550, b"refused")}

    row = _outbox(app)[0]
    with app.app_context():
        outcome, error = mailmod._send_prepared(app, get_engine(app), row, Partly(), None, False)
    assert outcome == "failed" and error.startswith("550")


def test_b20_crash_after_data_resends_with_the_same_message_id(smtp_app, smtp, runner, monkeypatch):
    """B20. Crash between DATA and commit -> <=1 duplicate with the **same** Message-ID
    `<game.turn.player.kind@domain>`."""
    app = smtp_app
    app.config["RENDER_WORKERS"] = 0
    made = create_game(runner)
    real = mailmod._record
    crashed = []

    def crash_once(*args, **kw):
        if not crashed:
            crashed.append(1)
            raise SystemExit("killed after DATA, before the status was written")
        return real(*args, **kw)

    monkeypatch.setattr(mailmod, "_record", crash_once)
    with app.app_context(), pytest.raises(SystemExit):
        deliver_pending()
    assert len(smtp.sink.messages) == 1
    with time_machine.travel(utcnow() + timedelta(minutes=11), tick=True), app.app_context():
        deliver_pending()
        deliver_pending()
    ids = [m["msg"]["Message-ID"] for m in smtp.sink.messages]
    assert len(ids) == 3 and len(set(ids)) == 2, "one duplicate, no more"
    dup = ids[0]
    assert ids.count(dup) == 2
    assert dup == f"<g{made['game']}.A@pbem.example.org>", "start mail: the thread root id"
    assert [r.status for r in _outbox(app)] == ["sent", "sent"]
    assert mailmod.message_id("g7.A", 3, "turn", "pbem.example.org") == "<g7.A.s3.turn@pbem.example.org>"


def test_b21_header_injection_adds_no_header_or_recipient(smtp_app, smtp, runner):
    """B21. Name/subject with `\\r\\nBcc: x@evil` -> no extra header or recipient (aiosmtpd envelope)."""
    app = smtp_app
    app.config["RENDER_WORKERS"] = 0
    create_game(runner)
    with write_session(get_engine(app)) as s:
        for p in s.exec(select(Player)):
            p.name = "Mallory\r\nBcc: x@evil.test"
            s.add(p)
    with app.app_context(), write_session(get_engine(app)) as s:
        mailmod.queue_mail(s, game_id=None, step_no=0, seat="", kind="probe", to_addr="a@example.org",
                           subject="Hello\r\nBcc: x@evil.test\nX-Injected: 1", text="body", html="",
                           report_id=None, thread="probe")
    with app.app_context():
        assert deliver_pending()["sent"] == 3
    for m in smtp.sink.messages:
        assert all("evil" not in to for to in m["to"])
        assert m["msg"]["Bcc"] is None and m["msg"]["X-Injected"] is None
        assert b"\r\nBcc:" not in m["raw"]


def test_b21_injected_recipient_address_adds_no_recipient(smtp_app, smtp, runner):
    """B21 (addresses): a player address with `\\r\\nBcc:` in it adds no recipient or header; other mails still go."""
    app = smtp_app
    app.config["RENDER_WORKERS"] = 0
    injected = "victim@example.org\r\nBcc: x@evil.test"
    refused = runner.invoke(args=["game", "create", "toy", "--player", injected, "--player", "b@example.org"])
    assert refused.exit_code != 0 and "is not an e-mail address" in refused.output
    with Session(get_engine(app)) as s:
        assert not s.exec(select(OutboxMail)).all(), "a refused game queues no mail"
    # an address stored by an older build, which checked none: the sender still adds no recipient
    result = runner.invoke(args=["game", "create", "toy", "--player", "victim@example.org",
                                 "--player", "b@example.org"])
    assert result.exit_code == 0, result.output
    with write_session(get_engine(app)) as s:
        for mail in s.exec(select(OutboxMail).where(OutboxMail.to_addr == "victim@example.org")):
            mail.to_addr = injected
            s.add(mail)
    with app.app_context():
        counts = deliver_pending()
    assert counts["failed"] + counts["sent"] == 2
    assert any(m["to"] == ["b@example.org"] for m in smtp.sink.messages)
    for m in smtp.sink.messages:
        assert all("evil" not in to for to in m["to"])
        head = m["raw"].split(b"\r\n\r\n")[0].split(b"\r\n")
        assert m["msg"]["Bcc"] is None and not any(line.lower().startswith(b"bcc:") for line in head)


def _dsn(original_id: str, recipient: str, action: str = "failed", tag: str = "") -> bytes:
    """An RFC 3464 delivery status notification about one of our mails."""
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>\r\n"
        "To: turns@pbem.example.org\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <dsn-{abs(hash((original_id, action, tag)))}@mx.example.net>\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.net\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\nAction: {action}\r\nStatus: 5.1.1\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 no such user\r\n\r\n"
        "--B\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"Message-ID: {original_id}\r\nTo: {recipient}\r\nSubject: your game begins\r\n\r\n"
        "--B--\r\n"
    ).encode()


def test_b22_delivery_report_marks_address_bad_tells_gm_game_unaffected(app, client, runner):
    """B22. Feeding an RFC 3464 DSN -> address marked bad, GM notified, game unaffected.

    Through the inbound mail handler (``app.mailin.handler.handle_message``): the
    report about our start mail to one player marks that player as bouncing and
    queues one mail to the GM; the game, its orders and the other player are
    untouched; the same report fed again is handled once; a report whose action
    is not "failed" marks nothing.
    """
    from app.mailin.handler import handle_message

    made = create_game(runner, "toy", ("gone@example.org", "b@example.org"), "--gm", "gm@example.org")
    before = game_row(app, made["game"])
    start = mails(app, to_addr="gone@example.org")[0]
    from app.mailin import return_path

    with app.app_context():
        back = [return_path(start.message_id)]  # reports come back to the mail's own return path
        delayed = handle_message(_dsn(start.message_id, "gone@example.org", "delayed"), rcpt_tos=back, mail_from="")
        forged = handle_message(_dsn(start.message_id, "gone@example.org", "failed", "forged"),
                                rcpt_tos=["turns@pbem.example.org"], mail_from="")
    with Session(get_engine(app)) as s:
        assert not s.exec(select(Player).where(Player.email == "gone@example.org")).one().bounced
    assert "ignored" in forged.detail, "a report sent anywhere but the return path changes nothing"
    with app.app_context():
        result = handle_message(_dsn(start.message_id, "gone@example.org"), rcpt_tos=back, mail_from="")
        again = handle_message(_dsn(start.message_id, "gone@example.org"), rcpt_tos=back, mail_from="")
    assert delayed.status == "bounce" and result.status == "bounce" and again.status == "duplicate"
    with Session(get_engine(app)) as s:
        players = {p.email: p.bounced for p in s.exec(select(Player))}
    assert players["gone@example.org"] is True and players["b@example.org"] is False
    gm = [m for m in mails(app) if m.to_addr == "gm@example.org" and m.kind != "gm-opened"]
    assert len(gm) == 1 and gm[0].kind.startswith("bounce") and "gone@example.org" in gm[0].text
    after = game_row(app, made["game"])
    assert (after.step_no, after.state, after.status) == (before.step_no, before.state, before.status)
    assert post_form(client, made["seats"][0]["link"], {"n": "1"}).status_code == 303
    assert post_form(client, made["seats"][1]["link"], {"n": "2"}).status_code == 303
    assert game_row(app, made["game"]).step_no == 2, "the game goes on"


def test_b22_permanent_refusal_marks_the_mail_failed_game_unaffected(app, client, runner):
    """B22 (at delivery): a 5xx refusal marks the mail failed for good (never retried); the game goes on."""
    sink = Refusing()
    port = free_port()
    server = _controller(sink, port)
    _smtp_config(app, port)
    try:
        made = create_game(runner, "toy", ("gone@example.org", "b@example.org"), "--gm", "gm@example.org")
        with app.app_context():
            counts = deliver_pending()
        assert counts["failed"] == 1 and counts["sent"] == 2  # b's invitation, and the GM's mail
        assert [m.status for m in mails(app, to_addr="gone@example.org")] == ["failed"]
        assert post_form(client, made["seats"][0]["link"], {"n": "1"}).status_code == 303
        assert post_form(client, made["seats"][1]["link"], {"n": "2"}).status_code == 303
        assert game_row(app, made["game"]).step_no == 2
        with app.app_context():
            deliver_pending()
    finally:
        server.stop()
    assert [m.status for m in mails(app, to_addr="gone@example.org")] == ["failed", "failed"]


def test_a_mail_batch_taken_by_another_process_meanwhile_is_not_sent_twice(app, runner, monkeypatch):
    """Two deliverers read the same due mails; the one that leases them second gets none of them."""
    create_game(runner)
    engine, now = get_engine(app), utcnow() + timedelta(seconds=1)
    due = len(mails(app, status="pending"))
    assert due >= 2
    other: list = []
    plain = mailmod.write_session

    def the_other_process_first(eng):
        monkeypatch.setattr(mailmod, "write_session", plain)
        other.extend(mailmod.claim_batch(eng, now, 50))  # it read and leased them after we read them
        return plain(eng)

    monkeypatch.setattr(mailmod, "write_session", the_other_process_first)
    assert mailmod.claim_batch(engine, now, 50) == []
    assert len(other) == due
    assert all(m.attempts == 1 for m in mails(app, status="pending"))
