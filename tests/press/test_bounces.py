"""Delivery-aware absence: a deadline missed after the seat's turn mail bounced is excused once."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlmodel import Session, select

from app import turns
from app.db import get_engine
from app.mailin import return_path
from app.mailin.handler import handle_message
from app.models import Event, Game, OutboxMail, Seat, Step
from tests.platform.helpers import csrf_of, step_of
from tests.press.helpers import create, links, page


def _dsn(original_id: str, recipient: str, to: str) -> bytes:
    tag = hashlib.sha256((original_id + to).encode()).hexdigest()[:12]
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\n"
        f"To: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <dsn-{tag}@mx.example.org>\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="BND"\r\n\r\n'
        "--BND\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n\r\n"
        "--BND\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
        "--BND\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"From: turns@pbem.localhost\r\nTo: {recipient}\r\nMessage-ID: {original_id}\r\n\r\n--BND--\r\n"
    ).encode()


def _bounce(app, game_id: int, seat: str, kind_prefix: str) -> str:
    with Session(get_engine(app)) as s:
        mail = [m for m in s.exec(select(OutboxMail).where(OutboxMail.game_id == game_id, OutboxMail.seat == seat))
                .all() if m.kind.startswith(kind_prefix)][-1]
    with app.app_context():
        back = return_path(mail.message_id)
        return handle_message(_dsn(mail.message_id, mail.to_addr, back), rcpt_tos=[back], mail_from="").status


def _order(client, link, n):
    html = page(client, link)
    client.post(link, data={"csrf_token": csrf_of(html), "step_no": step_of(html), "form_index": "0", "n": str(n)})


def _state(app, game_id):
    with Session(get_engine(app)) as s:
        game = s.get(Game, game_id)
        seats = {x.seat: x for x in s.exec(select(Seat).where(Seat.game_id == game_id)).all()}
        return game, seats


def _run_at_deadline(app, game_id):
    game, _ = _state(app, game_id)
    with app.app_context():
        turns.process_due(get_engine(app), game.deadline + timedelta(seconds=1))


def test_a_deadline_missed_after_a_bounced_turn_mail_is_excused_once(app, client, runner):
    made = create(runner, "toy3", ("a@example.org", "b@example.org", "c@example.org"), "--gm", "gm@example.org")
    gid, link = made["game"], links(made)
    assert _bounce(app, gid, "A", "start") == "bounce"
    _order(client, link["B"], 1)
    _order(client, link["C"], 1)
    before, _ = _state(app, gid)
    _run_at_deadline(app, gid)
    game, seats = _state(app, gid)
    assert game.step_no == 1, "the step waits"
    assert game.deadline == before.deadline + timedelta(seconds=1) + timedelta(hours=game.hours)
    assert seats["A"].missed == 0 and not seats["A"].civil_disorder, "not a miss toward auto-command"
    html = page(client, link["B"])
    assert "The mail to A could not be delivered, so this missed deadline is excused" in html
    with Session(get_engine(app)) as s:
        gm = [m for m in s.exec(select(OutboxMail).where(OutboxMail.to_addr == "gm@example.org")).all()
              if m.kind.startswith("bounce-excused")]
    assert len(gm) == 1 and "excused" in gm[0].subject and "a@example.org" in gm[0].text
    _run_at_deadline(app, gid)  # the extension passes too: once only, the game's default now
    game, seats = _state(app, gid)
    assert game.step_no == 2 and seats["A"].missed == 1
    with Session(get_engine(app)) as s:
        step = s.exec(select(Step).where(Step.game_id == gid, Step.step_no == 1)).one()
    assert step.defaulted == ["A"]


def test_without_a_bounce_or_for_another_seat_the_miss_counts(app, client, runner):
    made = create(runner)
    gid, link = made["game"], links(made)
    assert _bounce(app, gid, "B", "start") == "bounce"
    _order(client, link["B"], 1)  # B's mail bounced but B ordered; A missed with no bounce
    _order(client, link["C"], 1)
    _run_at_deadline(app, gid)
    game, seats = _state(app, gid)
    assert game.step_no == 2 and seats["A"].missed == 1
    with Session(get_engine(app)) as s:
        assert not [e for e in s.exec(select(Event).where(Event.game_id == gid)).all()
                    if "could not be delivered" in e.text]


def test_a_bounce_of_an_earlier_turn_excuses_nothing_now(app, client, runner):
    made = create(runner)
    gid, link = made["game"], links(made)
    assert _bounce(app, gid, "A", "start") == "bounce"
    for seat in "ABC":
        _order(client, link[seat], 2)  # round 1 resolves with everyone's order
    _order(client, link["B"], 1)
    _order(client, link["C"], 1)
    _run_at_deadline(app, gid)  # A misses round 2: its round 1 mail bounced, not this turn's
    game, seats = _state(app, gid)
    assert game.step_no == 3 and seats["A"].missed == 1
