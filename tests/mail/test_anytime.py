"""Orders a seat may send at any time (the anytime extra), by e-mail reply."""

from __future__ import annotations

import pytest
from sqlmodel import select

from app.db import get_engine, write_session
from app.games import GAMES, register
from app.models import Game, Step
from tests.mail.helpers import (
    create_game,
    game_row,
    inbound,
    orders,
    outbox,
    reply,
    reply_addr,
    send,
    set_aside_turn_mails,
)
from tests.platform.toygame import ANYTIME_RULES


@pytest.fixture
def toy_anytime():
    register(ANYTIME_RULES)
    yield ANYTIME_RULES
    GAMES.pop(ANYTIME_RULES.slug, None)


def test_anytime_orders_by_mail_owing_or_not(smtp_app, receiver, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    set_aside_turn_mails(smtp_app)
    a_addr, b_addr = (reply_addr(smtp_app, made["game"], s) for s in ("A", "B"))
    send(receiver.port, reply(a_addr, "PICK 3", msgid="<t1@x>"))
    # B owes a pick, but RESIGN CONFIRM is one of its anytime decisions: applied at once
    send(receiver.port, reply(b_addr, "RESIGN CONFIRM", sender="b@example.org", msgid="<t2@x>"))
    game = game_row(smtp_app, made["game"])
    assert game.state["resigned"] == ["B"] and game.state["round"] == 2 and set(game.owed) == {"A"}
    assert "was applied at once" in outbox(smtp_app)[-1].text
    # B owes nothing now: a note is applied, anything else is refused with the game's words
    send(receiver.port, reply(b_addr, "NOTE well played", sender="b@example.org", msgid="<t3@x>"))
    assert game_row(smtp_app, made["game"]).state["notes"] == 1
    send(receiver.port, reply(b_addr, "PICK 2", sender="b@example.org", msgid="<t4@x>"))
    text = outbox(smtp_app)[-1].text
    assert "no order was stored" in text and "At any time you may send RESIGN CONFIRM or NOTE" in text
    assert "at any time you may send: You have resigned" in text and "NOTE hello" in text
    assert [m.status for m in inbound(smtp_app)] == ["accepted", "accepted", "accepted", "rejected"]
    assert [(o.seat, o.text) for o in orders(smtp_app, made["game"], "mail")] == [
        ("A", "PICK 3"), ("B", "RESIGN CONFIRM"), ("B", "NOTE well played")]
    assert game_row(smtp_app, made["game"]).state["notes"] == 1


def test_a_seat_under_full_auto_command_resumes_by_mail(smtp_app, receiver, runner):
    made = create_game(runner, "conquest", ("x@example.org", "y@example.org"), "--option", "players=2")
    set_aside_turn_mails(smtp_app)
    game = game_row(smtp_app, made["game"])
    idle = next(s for s in game.state["order"] if s not in game.owed)
    with write_session(get_engine(smtp_app)) as s:  # three missed turns ago
        row = s.get(Game, made["game"])
        state = dict(row.state)
        state["status"] = {**state["status"], idle: "FULL_AUTO"}
        state["timeouts"] = {**state["timeouts"], idle: 3}
        row.state = state
        step = s.exec(select(Step).where(Step.game_id == row.id, Step.step_no == row.step_no)).one()
        step.state = state
        s.add(row)
        s.add(step)
    email = next(p["email"] for p in made["seats"] if p["seat"] == idle)
    addr = reply_addr(smtp_app, made["game"], idle)
    send(receiver.port, reply(addr, "RESUME_COMMAND", sender=email, msgid="<c1@x>"))
    game = game_row(smtp_app, made["game"])
    assert game.state["resuming"] == [idle] and game.state["status"][idle] == "FULL_AUTO"
    assert "was applied at once" in outbox(smtp_app)[-1].text
    send(receiver.port, reply(addr, "RESUME_COMMAND", sender=email, msgid="<c2@x>"))
    text = outbox(smtp_app)[-1].text
    assert "You have already resumed command; you take over at your next turn." in text
    assert game_row(smtp_app, made["game"]).step_no == game.step_no
