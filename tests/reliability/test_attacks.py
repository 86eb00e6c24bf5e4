"""Issue 17: each weakness found by attacking the platform, written as the attack it stops.

1. a mail queued before a hand-over must not give the old player the new player's link;
2. a GM who also plays has only a player's powers, and GM actions are told to the players.
"""

from __future__ import annotations

import re
from datetime import timedelta

import time_machine
from sqlmodel import Session, select

from app.db import get_engine
from app.mail import deliver_pending
from app.models import Event, GmAction, utcnow
from tests.conftest import Sink, free_port
from tests.platform.helpers import create_game, csrf_of, game_row, path_of

LINK = re.compile(r"/p/[A-Za-z0-9_-]{20,}")


def _gm_post(client, made, **fields):
    gm = path_of(made["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    return client.post(gm, data={"csrf_token": csrf_of(page), **fields})


def _told(app, game_id) -> list[str]:
    with Session(get_engine(app)) as s:
        return [e.text for e in s.exec(select(Event).where(Event.game_id == game_id, Event.seq == -1)).all()]


def test_1_a_mail_deferred_before_a_hand_over_carries_no_working_link_to_the_old_player(app, client, runner):
    """Defer every mail (SMTP down), hand seat A to a new player, then deliver: the old address gets no link."""
    from aiosmtpd.controller import Controller

    port = free_port()
    app.config.update(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, DEV_MAILBOX=False, MAIL_TIMEOUT=5, RENDER_WORKERS=0)
    made = create_game(runner)
    with app.app_context():
        assert deliver_pending()["deferred"] == 2, "the start mails wait in the outbox"
    seat_a = made["seats"][0]["seat"]
    assert _gm_post(client, made, action="replace", seat=seat_a, email="new@example.org").status_code == 303
    sink = Sink()
    server = Controller(sink, hostname="127.0.0.1", port=port)
    server.start()
    try:
        with time_machine.travel(utcnow() + timedelta(hours=5), tick=True), app.app_context():
            assert deliver_pending()["sent"] == 3
    finally:
        server.stop()
    by_rcpt: dict[str, list] = {}
    for m in sink.messages:
        by_rcpt.setdefault(m["to"][0], []).append(m["msg"])
    old = by_rcpt["a@example.org"]
    assert len(old) == 1, "the old player's mail is still delivered"
    old_text = "".join(part.get_content() for part in old[0].walk() if part.get_content_type() == "text/plain")
    for path in LINK.findall(old_text):
        assert client.get(path).status_code == 404, "the old player received a working link"
    assert "Reply-To" not in old[0], "the old player cannot order for the seat by answering the mail"
    new = by_rcpt["new@example.org"][0]
    new_text = "".join(p.get_content() for p in new.walk() if p.get_content_type() == "text/plain")
    new_links = LINK.findall(new_text)
    assert new_links and client.get(new_links[0]).status_code == 200, "the new player got the working link"
    assert new_links[0] not in old_text


def test_2_a_gm_who_plays_has_only_a_players_powers(app, client, runner):
    """A GM playing seat A tries every GM power against B: each is refused (in the GM's language)."""
    made = create_game(runner, "toy", ("gm@example.org", "b@example.org"), "--gm", "gm@example.org")
    mine, theirs = made["seats"][0]["seat"], made["seats"][1]["seat"]
    before = game_row(app, made["game"])
    for fields in ({"action": "rotate", "seat": theirs}, {"action": "replace", "seat": theirs,
                                                         "email": "crony@example.org"},
                   {"action": "resolve"}, {"action": "pause"}, {"action": "extend", "hours": "24"}):
        resp = _gm_post(client, made, **fields)
        assert resp.status_code == 422, fields
        assert "You play in this game" in resp.get_data(as_text=True)
    after = game_row(app, made["game"])
    assert (after.step_no, after.status, after.deadline) == (before.step_no, before.status, before.deadline)
    assert client.get(path_of(made["seats"][1]["link"])).status_code == 200, "B's link still works"
    with Session(get_engine(app)) as s:
        assert s.exec(select(GmAction).where(GmAction.game_id == made["game"])).all() == []
    assert _gm_post(client, made, action="rotate", seat=mine).status_code == 200, "a new link for one's own seat"
    gm = path_of(made["gm_link"])
    page = client.get(gm, headers={"Accept-Language": "pt-PT"}).get_data(as_text=True)
    refused = client.post(gm, data={"csrf_token": csrf_of(page), "action": "resolve"},
                          headers={"Accept-Language": "pt-PT"})
    assert refused.status_code == 422
    assert "Joga neste jogo" in refused.get_data(as_text=True), "the refusal reads in the GM's language"


def test_2_every_gm_action_on_a_seat_or_the_clock_is_told_to_the_players(app, client, runner):
    """New link, hand-over, extend, pause and resolve-now each leave a notice in the game log (and the next mail)."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    a, b = made["seats"][0]["seat"], made["seats"][1]["seat"]
    assert _gm_post(client, made, action="rotate", seat=b).status_code == 200
    assert _gm_post(client, made, action="replace", seat=a, email="c@example.org").status_code == 303
    assert _gm_post(client, made, action="extend", hours="2").status_code == 303
    assert _gm_post(client, made, action="pause").status_code == 303
    assert _gm_post(client, made, action="resume").status_code == 303
    assert _gm_post(client, made, action="resolve").status_code == 303
    told = "\n".join(_told(app, made["game"]))
    for text in ("new link", "A new player takes over", "extended the deadline by 2 hours", "paused the game",
                 "resumed the game", "closed the turn early"):
        assert text in told, text
    assert game_row(app, made["game"]).step_no == 2


def test_5_a_new_link_for_an_unknown_seat_is_a_4xx(app, client, runner):
    made = create_game(runner)
    resp = _gm_post(client, made, action="rotate", seat="nobody")
    assert resp.status_code == 422 and "no such seat" in resp.get_data(as_text=True)
