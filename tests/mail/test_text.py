"""Reading mail: bodies, quotes, signatures, charsets and machine mail (no network), plus handler edge cases."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import select

from app.db import get_engine, write_session
from app.mailin.handler import handle_message
from app.mailin.text import auto_reason, body_text, html_to_text, order_text
from app.models import InboundMail, utcnow
from tests.mail.helpers import create_game, inbound, orders, outbox, reply, reply_addr


def _msg(raw: str):
    return email.message_from_bytes(raw.replace("\n", "\r\n").encode("latin-1"), policy=policy.default)


def test_order_text_keeps_only_what_the_player_wrote():
    assert order_text("PICK 2\r\n") == "PICK 2"
    assert order_text("\n# comment\n\nPICK 2\n\n") == "PICK 2"
    assert order_text("PICK\u00a02\u200b") == "PICK 2"
    assert order_text("ＰＩＣＫ　２") == "PICK 2"  # full-width, from a phone keyboard
    assert order_text("MOVE A\nMOVE B\n-- \nme") == "MOVE A\nMOVE B"
    assert order_text("Le mer. 2 déc. 2026 à 10:00, PBEM a écrit :\n> PICK 1\nPICK 3") == "PICK 3"
    assert order_text("PICK 1\n\n________________________________\nFrom: PBEM\nPICK 3") == "PICK 1"
    assert order_text("PICK 1\nOn Wed someone wrote:\nYour turn\nPICK 3") == "PICK 1"
    assert order_text("Sent from my iPhone") == ""


def test_html_to_text_leaves_out_styles_scripts_and_quotes():
    html = ("<style>x{}</style><script>PICK 1</script><p>PICK&nbsp;2</p><br>"
            "<div id='divRplyFwdMsg'>From: x</div><div>after</div>")
    assert html_to_text(html).split() == ["PICK", "2", "after"]
    assert html_to_text("<p>unclosed <b>bold") .split() == ["unclosed", "bold"]


def test_unknown_or_missing_charsets_do_not_break_reading():
    raw = "Content-Type: text/plain; charset=x-unknown-charset\nContent-Transfer-Encoding: 8bit\n\nPICK 2\n"
    assert order_text(body_text(_msg(raw))) == "PICK 2"
    raw = "Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\nPICK 2 \xe9\n"
    assert body_text(_msg(raw)).strip() == "PICK 2 é"
    raw = "Content-Type: text/plain; charset=utf-8; format=flowed\n\nMOVE A TO \nB\n"
    assert body_text(_msg(raw)).strip() == "MOVE A TO B"


def test_machine_mail_is_recognised():
    assert auto_reason(_msg("From: a@x\nAuto-Submitted: no\n\nx")) == ""
    assert auto_reason(_msg("From: a@x\nAuto-Submitted: auto-generated; foo\n\nx"))
    assert auto_reason(_msg("From: a@x\nPrecedence: junk\n\nx"))
    assert auto_reason(_msg("From: a@x\nList-Id: <l.x>\n\nx"))
    assert auto_reason(_msg("From: MAILER-DAEMON@x\n\nx"))
    assert auto_reason(_msg("From: a@x\nReturn-Path: <>\n\nx"))
    assert auto_reason(_msg("From: a@x\n\nx"), mail_from="<>")
    assert auto_reason(_msg("From: a@x\n\nx"), mail_from="a@x") == ""


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_order_text_never_fails(text):
    order_text(text)
    html_to_text(text)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=600))
def test_handler_survives_any_bytes(tmp_path_factory, binary):
    from app import create_app
    from app.db import create_all

    app = _APP.get("app")
    if app is None:
        app = create_app({"TESTING": True, "SECRET_KEY": "test-secret-key-0123456789", "MAIL_SERVER": "",
                          "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'f.sqlite'}"})
        with app.app_context():
            create_all(get_engine())
        _APP["app"] = app
    with app.app_context():
        result = handle_message(binary)
    assert result.status in ("unknown", "auto", "bounce", "duplicate", "unreadable")


_APP: dict = {}


def test_interrupted_handling_is_done_again_without_storing_twice(smtp_app, runner):
    made = create_game(runner)
    raw = reply(reply_addr(smtp_app, made["game"], "A"), "PICK 2", msgid="<crash@x>").as_bytes()
    with smtp_app.app_context():
        assert handle_message(raw).status == "accepted"
        # as if the process died after storing the order but before recording the mail as handled
        with write_session(get_engine(smtp_app)) as s:
            row = s.exec(select(InboundMail)).one()
            row.status = "processing"
            row.received_at = utcnow() - timedelta(minutes=30)
            s.add(row)
        assert handle_message(raw).status == "accepted"
        assert handle_message(raw).status == "duplicate"
    assert len(orders(smtp_app, made["game"], "mail")) == 1
    assert len(outbox(smtp_app)) == 1
    assert inbound(smtp_app)[0].status == "accepted"


def test_empty_plain_part_next_to_html_reads_the_html():
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"] = "a@x"
    msg.set_content("\n")
    msg.add_alternative("<p>PICK 3</p>", subtype="html")
    assert order_text(body_text(msg)) == "PICK 3"
