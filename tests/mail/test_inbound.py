"""Orders by e-mail reply, through a real SMTP receiver (aiosmtpd) and a real SMTP sink.

Every test sends real mail to ``app.mailin.server`` over TCP (smtplib), and
the answers are delivered by ``flask mail deliver`` to the ``smtp`` fixture
server, where their envelope and headers are checked.
"""

from __future__ import annotations

import hashlib
import smtplib
from email.message import EmailMessage

import pytest
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.mail import build_message
from app.mailin import reply_address
from app.mailin.server import make_controller
from app.models import Game, OutboxMail
from app.turns import rotate_link
from tests.conftest import free_port
from tests.mail.helpers import (
    create_game,
    deliver,
    game_row,
    inbound,
    orders,
    outbox,
    player,
    reply,
    reply_addr,
    send,
    set_aside_turn_mails,
)


def _answers(smtp):
    return [m for m in smtp.sink.messages if "reply-" in m["msg"]["Message-ID"]]


def _body(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def test_turn_mail_carries_the_reply_address_and_how_to_reply(smtp_app, runner):
    made = create_game(runner)
    addr = reply_addr(smtp_app, made["game"], "A")
    assert addr.startswith("orders+") and addr.endswith("@pbem.example.org")
    local = addr.split("@")[0]
    assert len(local.split(".")[-1]) == 26, "128 bits of HMAC in base32"
    with smtp_app.app_context(), Session(get_engine(smtp_app)) as s:
        start = [m for m in s.exec(select(OutboxMail)).all() if m.seat == "A"][0]
        msg = build_message(s, start, with_pdf=False)
        assert msg["Reply-To"] == addr
        text = _body(msg)
        assert "To order by mail, reply to this mail" in text and "    PICK 2" in text
        gm = OutboxMail(message_id="<x@y>", game_id=made["game"], seat="GM", kind="crashed", to_addr="gm@x")
        assert reply_address(s, gm) == ""
        assert reply_address(s, OutboxMail(message_id="<z@y>", kind="turn")) == ""


def test_correct_order_by_reply_is_stored_and_confirmed(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    addr = reply_addr(smtp_app, made["game"], "A")
    refused = send(receiver.port, reply(addr, "PICK 2\n", msgid="<r1@client.example>",
                                        in_reply_to=f"<g{made['game']}.A@pbem.example.org>"),
                   to=[addr])
    assert refused == {}
    stored = orders(smtp_app, made["game"], "mail")
    assert [(o.seat, o.order, o.text, o.step_no) for o in stored] == [("A", {"type": "PICK", "n": 2}, "PICK 2", 1)]
    assert deliver(runner)["sent"] == 1
    [answer] = _answers(smtp)
    msg = answer["msg"]
    assert answer["to"] == ["a@example.org"]
    assert "order received for step 1" in msg["Subject"]
    assert msg["Auto-Submitted"].startswith("auto-")
    assert msg["Reply-To"] == "no-reply@pbem.example.org"
    assert msg["In-Reply-To"] == f"<g{made['game']}.A@pbem.example.org>"
    body = _body(msg)
    assert "> PICK 2" in body and "https://pbem.example.org/p/" in body
    assert inbound(smtp_app)[0].status == "accepted"
    # answering the confirmation goes nowhere: the no-reply address is refused
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(receiver.port, reply(msg["Reply-To"], "PICK 3"))


def test_both_orders_by_mail_resolve_the_step(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "PICK 3"))
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "B"), "PICK 1", sender="b@example.org"))
    assert game_row(smtp_app, made["game"]).step_no == 2
    texts = [m.text for m in outbox(smtp_app)]
    assert "resolved at once" in texts[1]


def test_wrong_order_is_answered_with_the_error_and_not_stored(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    addr = reply_addr(smtp_app, made["game"], "A")
    send(receiver.port, reply(addr, "PICK 7\n"))
    assert orders(smtp_app, made["game"], "mail") == []
    deliver(runner)
    [answer] = _answers(smtp)
    body = _body(answer["msg"])
    assert "NOT accepted" in answer["msg"]["Subject"]
    assert "> PICK 7" in body
    assert "write PICK 1, PICK 2 or PICK 3" in body
    assert "    PICK 2" in body and addr in body


@pytest.mark.parametrize("body", [
    "PICK 2\n\nOn Wed, 2 Dec 2026 at 10:00, PBEM <turns@pbem.localhost> wrote:\n> PICK 3\n> You owe: ...\n",
    "PICK 2\n-- \nAlice\nPICK 3\n",
    "> PICK 3\n> quoted\n\nPICK 2\n\n-- \nsig PICK 1\n",
    "# my order for this round\nPICK 2\n\nSent from my iPhone\n\n-----Original Message-----\nFrom: PBEM\nPICK 1\n",
    "PICK 2\n\nFrom: PBEM Turn Processor <turns@pbem.localhost>\nSent: Wednesday\nTo: Alice\nPICK 3\n",
    "PICK 2\n\nOn Wed, 2 Dec 2026 at 10:00, PBEM Turn Processor <turns@pbem.localhost>\nwrote:\n\n> PICK 1\n",
])
def test_quoted_text_and_signature_are_ignored(smtp_app, receiver, runner, body):
    made = create_game(runner)
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), body))
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [2]


def test_html_only_mail_is_read_as_text(smtp_app, receiver, runner):
    made = create_game(runner)
    msg = EmailMessage()
    msg["From"] = "a@example.org"
    msg["To"] = reply_addr(smtp_app, made["game"], "A")
    msg["Subject"] = "Re: turn"
    msg.set_content("<html><head><style>p {color: red}</style></head><body><div dir='ltr'><p>PICK&nbsp;3</p>"
                    "</div><br><div class='gmail_quote'>On Wed ... wrote:<blockquote>PICK 1</blockquote></div>"
                    "</body></html>", subtype="html")
    send(receiver.port, msg)
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [3]


@pytest.mark.parametrize("charset, comment, wrong", [
    ("iso-8859-7", "# Καλή τύχη, φίλε", "ΠΙΚ δύο"),
    ("windows-1252", "# “Café” – naïve", "PICK “two” – €"),
])
def test_non_utf8_charsets_are_decoded(smtp_app, receiver, runner, smtp, charset, comment, wrong):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    addr = reply_addr(smtp_app, made["game"], "A")
    msg = reply(addr, f"{comment}\nPICK 1\n", charset=charset, msgid="<c1@x>")
    assert charset in msg["Content-Type"]
    send(receiver.port, msg)
    assert [o.text for o in orders(smtp_app, made["game"], "mail")] == ["PICK 1"]
    bad = reply(addr, wrong + "\n", charset=charset, msgid="<c2@x>")
    send(receiver.port, bad)
    deliver(runner)
    rejected = [m for m in _answers(smtp) if "NOT accepted" in m["msg"]["Subject"]]
    assert f"> {wrong}" in _body(rejected[0]["msg"])


def test_attachments_are_ignored(smtp_app, receiver, runner):
    made = create_game(runner)
    msg = reply(reply_addr(smtp_app, made["game"], "A"), "PICK 1")
    msg.add_attachment("PICK 3", filename="orders.txt")
    msg.add_attachment(b"%PDF-1.4 PICK 2" * 100, maintype="application", subtype="pdf", filename="r.pdf")
    send(receiver.port, msg)
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [1]


def test_oversize_mail_is_refused(smtp_app, runner):
    smtp_app.config["INBOUND_MAX_BYTES"] = 20_000
    made = create_game(runner)
    controller = make_controller(smtp_app, "127.0.0.1", free_port(), deliver=False)
    controller.start()
    try:
        msg = reply(reply_addr(smtp_app, made["game"], "A"), "PICK 1\n" + "x" * 40_000)
        with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused)) as info:
            send(controller.port, msg)
        assert info.value.smtp_code == 552
    finally:
        controller.stop()
    assert orders(smtp_app, made["game"], "mail") == [] and inbound(smtp_app) == []


def test_forged_from_without_a_valid_token_is_refused(smtp_app, receiver, runner):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    # From the player's own address, to the plain order address: no token, refused
    with pytest.raises(smtplib.SMTPDataError) as info:
        send(receiver.port, reply("orders@pbem.example.org", "PICK 3"))
    assert info.value.smtp_code == 550
    # a made-up token, a token for a seat that does not exist, a stranger's address: refused at RCPT
    good = reply_addr(smtp_app, made["game"], "A")
    seat_id = good.split("+")[1].split(".")[0]
    for bad in (f"orders+{seat_id}.{'a' * 26}@pbem.example.org", f"orders+999.{good.split('.')[1][:26]}@x.org",
                "someone@pbem.example.org"):
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            send(receiver.port, reply(bad, "PICK 3"))
    assert orders(smtp_app, made["game"], "mail") == [] and outbox(smtp_app) == []


def test_token_in_headers_when_the_envelope_goes_to_the_plain_address(smtp_app, receiver, runner):
    """A forwarding MX may deliver to the plain address; the token is then read from Delivered-To/To."""
    made = create_game(runner)
    msg = reply(reply_addr(smtp_app, made["game"], "B"), "PICK 3", sender="b@example.org")
    send(receiver.port, msg, to=["orders@pbem.example.org"])
    assert [(o.seat, o.order["n"]) for o in orders(smtp_app, made["game"], "mail")] == [("B", 3)]


@pytest.mark.parametrize("extra, mail_from", [
    ({"Auto-Submitted": "auto-replied"}, "a@example.org"),
    ({"Precedence": "bulk"}, "a@example.org"),
    ({"X-Autoreply": "yes"}, "a@example.org"),
    ({}, ""),  # null sender
])
def test_auto_replies_are_not_answered(smtp_app, receiver, runner, extra, mail_from):
    made = create_game(runner)
    msg = reply(reply_addr(smtp_app, made["game"], "A"), "I am out of office.\n\nPICK 2")
    for k, v in extra.items():
        msg[k] = v
    send(receiver.port, msg, mail_from=mail_from)
    assert orders(smtp_app, made["game"], "mail") == [] and outbox(smtp_app) == []
    assert inbound(smtp_app)[0].status == "auto"


def _dsn(original_id: str, recipient: str, action: str = "failed", to: str = "turns@pbem.localhost") -> bytes:
    tag = hashlib.sha256(to.encode()).hexdigest()[:8]
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\n"
        f"To: {to}\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <dsn-{action}-{tag}-" + original_id.strip("<>").replace("@", ".") + "@mx.example.org>\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="BND"\r\n\r\n'
        "--BND\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n\r\n"
        "--BND\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.org\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\nAction: {action}\r\nStatus: 5.1.1\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 <" + recipient + ">: user unknown\r\n\r\n"
        "--BND\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"From: turns@pbem.localhost\r\nTo: {recipient}\r\nMessage-ID: {original_id}\r\nSubject: PICK 2\r\n\r\n"
        "--BND--\r\n"
    ).encode()


def test_delivery_report_marks_the_address_bounced_and_tells_the_gm(smtp_app, receiver, runner, smtp):
    create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    set_aside_turn_mails(smtp_app)
    start_b = [m for m in outbox(smtp_app, "start") if m.seat == "B"][0]
    start_a = [m for m in outbox(smtp_app, "start") if m.seat == "A"][0]
    with smtp_app.app_context():
        from app.mailin import return_path

        back_b, back_a = return_path(start_b.message_id), return_path(start_a.message_id)
    assert back_b.startswith("turns+b") and back_b.endswith("@pbem.localhost") and back_b != back_a
    send(receiver.port, _dsn("<unknown.1@pbem.example.org>", "b@example.org"), to=[back_b], mail_from="")
    send(receiver.port, _dsn(start_b.message_id, "b@example.org", action="delayed"), to=[back_b], mail_from="")
    assert not player(smtp_app, "b@example.org").bounced
    send(receiver.port, _dsn(start_b.message_id, "b@example.org"), to=[back_b], mail_from="")
    assert player(smtp_app, "b@example.org").bounced
    assert not player(smtp_app, "a@example.org").bounced
    assert outbox(smtp_app, "reply-") == [], "a delivery report is never answered"
    assert deliver(runner)["sent"] == 1
    [gm] = smtp.sink.messages
    assert gm["to"] == ["gm@example.org"] and "bounced" in gm["msg"]["Subject"]
    assert "b@example.org" in _body(gm["msg"]) and "user unknown" in _body(gm["msg"])
    assert [r.status for r in inbound(smtp_app)] == ["bounce"] * 3


def test_a_forged_delivery_report_changes_nothing(smtp_app, receiver, runner):
    """Message-IDs can be guessed; the return path of each mail cannot: a report sent anywhere
    else (the plain bounce address, another mail's return path, a made-up mark) is ignored."""
    create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    set_aside_turn_mails(smtp_app)
    start_b = [m for m in outbox(smtp_app, "start") if m.seat == "B"][0]
    start_a = [m for m in outbox(smtp_app, "start") if m.seat == "A"][0]
    with smtp_app.app_context():
        from app.mailin import return_path

        back_a = return_path(start_a.message_id)
    made_up = "turns+b" + "a" * 26 + "@pbem.localhost"
    for to in ("turns@pbem.localhost", back_a, made_up):
        send(receiver.port, _dsn(start_b.message_id, "b@example.org", to=to), to=[to], mail_from="")
    assert not player(smtp_app, "b@example.org").bounced
    assert outbox(smtp_app, "bounce-") == [] and outbox(smtp_app, "reply-") == []
    assert [r.status for r in inbound(smtp_app)] == ["bounce"] * 3
    assert all("ignored" in r.detail for r in inbound(smtp_app))


def test_each_mail_goes_out_with_its_own_return_path(smtp_app, smtp, runner):
    smtp_app.config["RENDER_WORKERS"] = 0  # the toy game lives in this process only
    create_game(runner, "toy", ("a@example.org", "b@example.org"))
    deliver(runner)
    senders = {m["to"][0]: m["from"] for m in smtp.sink.messages}
    assert len(senders) == 2 and len(set(senders.values())) == 2
    for sender in senders.values():
        assert sender.startswith("turns+b") and sender.endswith("@pbem.localhost")
    smtp_app.config["INBOUND_VERP"] = False
    smtp.sink.messages.clear()
    create_game(runner, "toy", ("c@example.org", "d@example.org"))
    deliver(runner)
    assert {m["from"] for m in smtp.sink.messages} <= {"turns@pbem.localhost", ""} | {
        __import__("email.utils").utils.parseaddr(smtp_app.config["MAIL_FROM"])[1]}


def test_the_same_mail_delivered_twice_is_handled_once(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    msg = reply(reply_addr(smtp_app, made["game"], "A"), "PICK 2", msgid="<same@client.example>")
    send(receiver.port, msg)
    send(receiver.port, msg)
    assert len(orders(smtp_app, made["game"], "mail")) == 1
    assert len(outbox(smtp_app)) == 1
    assert deliver(runner)["sent"] == 1


def test_rotating_the_link_kills_the_old_reply_address(smtp_app, receiver, runner):
    made = create_game(runner)
    old = reply_addr(smtp_app, made["game"], "A")
    with smtp_app.app_context(), write_session(get_engine(smtp_app)) as s:
        rotate_link(s, s.get(Game, made["game"]), "A")
    new = reply_addr(smtp_app, made["game"], "A")
    assert new != old
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(receiver.port, reply(old, "PICK 1"))
    send(receiver.port, reply(new, "PICK 1"))
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [1]


def test_reply_to_an_old_turn_mail_applies_to_the_open_step(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    a, b = reply_addr(smtp_app, made["game"], "A"), reply_addr(smtp_app, made["game"], "B")
    send(receiver.port, reply(a, "PICK 1", msgid="<o1@x>"))
    send(receiver.port, reply(b, "PICK 2", msgid="<o2@x>", sender="b@example.org"))
    assert game_row(smtp_app, made["game"]).step_no == 2
    send(receiver.port, reply(a, "PICK 3", msgid="<o3@x>", in_reply_to=f"<g{made['game']}.A@pbem.example.org>"))
    last = orders(smtp_app, made["game"], "mail")[-1]
    assert (last.step_no, last.order["n"]) == (2, 3)
    text = outbox(smtp_app)[-1].text
    assert "answered the mail of step 1" in text and "applied to step 2" in text


def test_an_order_when_nothing_is_owed_is_answered_and_not_stored(smtp_app, receiver, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--option", "rounds=1")
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "PICK 1", msgid="<e1@x>"))
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "B"), "PICK 1", msgid="<e2@x>"))
    assert game_row(smtp_app, made["game"]).status == "finished"
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "PICK 2", msgid="<e3@x>"))
    assert len(orders(smtp_app, made["game"], "mail")) == 2
    assert inbound(smtp_app)[-1].status == "closed"
    assert "the game is over" in outbox(smtp_app)[-1].text


def test_empty_reply_gets_help(smtp_app, receiver, runner):
    made = create_game(runner)
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "\n# nothing yet\n\n> PICK 2\n"))
    assert orders(smtp_app, made["game"], "mail") == []
    assert "no order was found" in outbox(smtp_app)[0].text


def test_malicious_headers_add_no_header_or_recipient(smtp_app, receiver, runner, smtp):
    made = create_game(runner)
    set_aside_turn_mails(smtp_app)
    addr = reply_addr(smtp_app, made["game"], "A")
    raw = (
        "From: =?utf-8?q?Mallory=0D=0ABcc:_evil@evil.test?= <a@example.org>\r\n"
        f"To: {addr}\r\n"
        "Subject: =?utf-8?q?hi=0D=0ABcc:_evil@evil.test=0D=0A=0D=0Abody?=\r\n"
        "Reply-To: evil@evil.test\r\n"
        "Message-ID: <m1@x>\r\n"
        "X-Junk: " + "\r\n ".join(["A" * 70] * 900) + "\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nPICK 2\r\n"
    ).encode()
    send(receiver.port, raw, to=[addr])
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [2]
    deliver(runner)
    [answer] = _answers(smtp)
    assert answer["to"] == ["a@example.org"]
    head = answer["raw"].split(b"\r\n\r\n")[0].decode()
    assert "evil" not in head.lower() and "Bcc" not in head
    assert answer["msg"]["Bcc"] is None


def test_lmtp_receiver(smtp_app, runner):
    made = create_game(runner)
    controller = make_controller(smtp_app, "127.0.0.1", free_port(), lmtp=True, deliver=False)
    controller.start()
    try:
        a, b = reply_addr(smtp_app, made["game"], "A"), reply_addr(smtp_app, made["game"], "B")
        with smtplib.LMTP("127.0.0.1", controller.port) as conn:
            msg = reply(a, "PICK 2")
            refused = conn.sendmail("a@example.org", [a], msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")))
        assert refused == {}
    finally:
        controller.stop()
    assert [o.order["n"] for o in orders(smtp_app, made["game"], "mail")] == [2]
    assert b != a


def test_a_real_game_played_by_mail(smtp_app, receiver, runner, smtp):
    """Dual Powers: both seats answer their turn mails with the example order; the step resolves."""
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    set_aside_turn_mails(smtp_app)
    game = game_row(smtp_app, made["game"])
    for seat, sender in (("SOV", "sov@example.org"), ("GOV", "gov@example.org")):
        example = game.owed[seat]["example"]
        body = f"# my choice\n{example.lower() if seat == 'GOV' else example}\n\n-- \n{seat}\n"
        send(receiver.port, reply(reply_addr(smtp_app, made["game"], seat), body, sender=sender))
    stored = orders(smtp_app, made["game"], "mail")
    assert sorted(o.seat for o in stored) == ["GOV", "SOV"]
    assert game_row(smtp_app, made["game"]).step_no > game.step_no
    assert all("order received" in m.subject for m in outbox(smtp_app))
