"""A due step is worked out while reading and written in a short transaction (``app.turns.plan``)."""

from __future__ import annotations

import sqlite3
import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, write_session
from app.kinds import OrderSource
from app.models import Order, OutboxMail, Step, utcnow
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, post_form, step_of


def _orders_of_step(app, game_id, step_no=1):
    with Session(get_engine(app)) as s:
        return s.exec(select(Order).where(Order.game_id == game_id, Order.step_no == step_no)
                      .order_by(Order.id)).all()


def test_other_writers_are_not_held_while_a_step_is_worked_out(app, client, runner, monkeypatch):
    """While the rules resolve a step, the database takes other writes at once (an order for another game)."""
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("the write lock is SQLite's")
    made = create_game(runner)
    a, b = made["seats"]
    path = get_engine(app).url.database
    took: list[str] = []

    def other_writer():
        conn = sqlite3.connect(path, timeout=0.5)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("COMMIT")
            took.append("ok")
        except sqlite3.OperationalError as exc:
            took.append(str(exc))
        finally:
            conn.close()

    def meanwhile(name):
        if name == "after_resolve":
            t = threading.Thread(target=other_writer)
            t.start()
            t.join()

    post_form(client, a["link"], {"n": "3"})
    monkeypatch.setattr(turns.resolve, "_checkpoint", meanwhile)
    post_form(client, b["link"], {"n": "1"})  # all in: the step resolves
    assert took == ["ok"]
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 3, "B": 0}


def test_an_order_arriving_between_the_plan_and_its_write_is_used(app, client, runner, monkeypatch):
    """The deadline passed with B silent; B's order lands while the step is worked out: B's order counts,
    not the default, and the step resolves once."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    a, _b = made["seats"]
    post_form(client, a["link"], {"n": "2"})
    came = []

    def meanwhile(name):
        if name == "planned" and not came:
            came.append(name)
            with write_session(get_engine(app)) as s:
                s.add(Order(game_id=made["game"], step_no=1, seat="B", order={"type": "PICK", "n": 3}, text="3",
                            source=OrderSource.MAIL, submitted_at=utcnow()))

    monkeypatch.setattr(turns.resolve, "_checkpoint", meanwhile)
    with app.app_context():
        summary = turns.process_due(get_engine(app), utcnow() + timedelta(hours=2))
    assert came and summary["steps"] == 1
    rows = _orders_of_step(app, made["game"])
    assert [(r.seat, r.source) for r in rows] == [("A", OrderSource.WEB), ("B", OrderSource.MAIL)]  # no default
    with Session(get_engine(app)) as s:
        step = s.exec(select(Step).where(Step.game_id == made["game"], Step.step_no == 1)).one()
    assert step.orders["B"]["n"] == 3 and step.defaulted == []
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 0, "B": 3}


@pytest.mark.parametrize("point", ["planned", "apply_before_commit"])
def test_a_crash_between_plan_and_write_or_inside_the_write_loses_nothing(app, client, runner, monkeypatch, point):
    made = create_game(runner)
    a, b = made["seats"]
    post_form(client, a["link"], {"n": "3"})

    def boom(name):
        if name == point:
            raise RuntimeError("power cut")

    monkeypatch.setattr(turns.resolve, "_checkpoint", boom)
    post_form(client, b["link"], {"n": "1"})  # all in: the resolution starts and stops there
    game = game_row(app, made["game"])
    assert game.step_no == 1 and game.attempts == 1
    with Session(get_engine(app)) as s:
        assert s.exec(select(Step).where(Step.game_id == made["game"], Step.resolved_at != None)).all() == []  # noqa: E711
    monkeypatch.setattr(turns.resolve, "_checkpoint", lambda name: None)
    with app.app_context():
        assert turns.process_due(get_engine(app), utcnow())["steps"] == 1
        assert turns.process_due(get_engine(app), utcnow())["steps"] == 0
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 3, "B": 0}
    assert [r.seat for r in _orders_of_step(app, made["game"])] == ["A", "B"]
    with Session(get_engine(app)) as s:
        turn_mails = s.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                     OutboxMail.step_no == 2)).all()
    assert sorted(m.seat for m in turn_mails) == ["A", "B"]


def test_a_player_posting_while_the_step_is_worked_out_is_not_kept_waiting_and_the_order_counts(app, runner,
                                                                                                 monkeypatch):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    a, _b = made["seats"]
    answers = []

    def meanwhile(name):
        if name == "after_resolve" and not answers:
            answers.append(None)
            t = threading.Thread(target=lambda: answers.append(post_form(app.test_client(), a["link"], {"n": "3"})))
            t.start()
            t.join(20)
            assert not t.is_alive(), "the post waited for the resolution"

    monkeypatch.setattr(turns.resolve, "_checkpoint", meanwhile)
    with app.app_context():
        assert turns.process_due(get_engine(app), utcnow() + timedelta(hours=2))["steps"] == 1
    assert answers[1].status_code == 303
    rows = _orders_of_step(app, made["game"])
    assert [(r.seat, r.source) for r in rows] == [("A", OrderSource.WEB), ("B", OrderSource.DEFAULT)]
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 3, "B": 0}


def _post_at_once(app, seat, n, barrier, codes):
    client = app.test_client()
    page = client.get(path_of(seat["link"])).get_data(as_text=True)
    barrier.wait()
    codes.append(client.post(path_of(seat["link"]), data={
        "csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": "0", "n": n}).status_code)


def test_two_players_posting_at_the_same_moment_resolve_the_step(app, runner):
    """Whichever order comes last sees the other one and resolves the step (on PostgreSQL too, where the
    second waits for the game's row while the first commits)."""
    for _round in range(4):
        made = create_game(runner)
        a, b = made["seats"]
        barrier, codes = threading.Barrier(2), []
        threads = [threading.Thread(target=_post_at_once, args=(app, seat, n, barrier, codes))
                   for seat, n in ((a, "3"), (b, "1"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert codes == [303, 303]
        assert game_row(app, made["game"]).step_no == 2
