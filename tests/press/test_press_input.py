"""A press message a player sends: never to everyone by a missed tick, and kept as plain text.

No recipient ticked is refused (the form has an explicit "Everyone"); control
characters and direction overrides are dropped; a mail placeholder typed into a
message (``%%ORDER_LINK%%``) fills in no recipient's personal link.
"""

from __future__ import annotations

from sqlmodel import Session, select

from app.db import get_engine
from app.mail import fill_link
from app.models import Press
from app.tokens import LINK_PLACEHOLDER
from app.usertext import clean, shown
from tests.press.helpers import create as create_toy3
from tests.press.helpers import links, press_mails, write


def test_a_press_message_with_no_recipient_ticked_is_refused_not_sent_to_everyone(app, client, runner):
    made = create_toy3(runner)
    link = links(made)
    resp = write(client, link["A"], "for B only, please", to=())
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    card = html.split('id="press"', 1)[1]
    assert "Tick who is to read your message (or Everyone). Nothing was sent." in card, "said in the press card"
    assert ">for B only, please</textarea>" in card, "the message is kept, not typed again"
    assert 'action="/p/' in card and '/press#press"' in card, "the answer opens at the press card"
    with Session(get_engine(app)) as s:
        assert s.exec(select(Press)).all() == []
    assert write(client, link["A"], "to all", to=("*",)).status_code == 303


def test_control_characters_and_direction_overrides_are_dropped_and_placeholders_fill_nothing(app, client, runner):
    assert clean("a\x00b\u202ec\u2066d\r\ne\tf") == "abcd\ne\tf"
    assert shown("OBJ\x01\x02  x" + "y" * 60, limit=10) == "“OBJ xyyyyy…”"
    made = create_toy3(runner)
    link = links(made)
    assert write(client, link["A"], f"my link is {LINK_PLACEHOLDER}\u202e!", to=("B",)).status_code == 303
    with Session(get_engine(app)) as s:
        [press] = s.exec(select(Press)).all()
        assert "\u202e" not in press.text and LINK_PLACEHOLDER not in press.text
    [mail] = press_mails(app)
    text = fill_link(mail.text, "https://example.org/p/B-LINK")  # what the sender does to B's copy
    assert text.count("B-LINK") == 1, "only the mail's own line is B's link, not the quoted message"
