"""A step resolves exactly once: racing processors, crashes mid-resolution, resends."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, make_engine
from app.models import Event, Game, OutboxMail, Step, utcnow
from tests.platform.helpers import create_game, game_row, post_form


def _counts(app, game_id):
    with Session(get_engine(app)) as s:
        steps = s.exec(select(Step).where(Step.game_id == game_id, Step.resolved_at != None)).all()  # noqa: E711
        events = s.exec(select(Event).where(Event.game_id == game_id)).all()
        mail = s.exec(select(OutboxMail).where(OutboxMail.game_id == game_id)).all()
        return len(steps), len(events), len(mail)


def test_two_processors_racing_resolve_a_step_once(app, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    later = utcnow() + timedelta(hours=2)
    url = app.config["DATABASE_URL"]
    results = []
    barrier = threading.Barrier(4)

    def worker():
        engine = make_engine(url)
        barrier.wait()
        with app.app_context():
            results.append(turns.process_game(engine, made["game"], later))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [0, 0, 0, 1]
    assert game_row(app, made["game"]).step_no == 2
    steps, events, mail = _counts(app, made["game"])
    assert steps == 1
    assert mail == 2 + 2  # start mails + one turn mail per seat


def test_crash_mid_resolution_leaves_the_step_open_then_resolves_once(app, client, runner, monkeypatch):
    made = create_game(runner)
    a, b = made["seats"]
    post_form(client, a["link"], {"n": "3"})

    def boom(name):
        if name == "after_resolve":
            raise RuntimeError("power cut")

    monkeypatch.setattr(turns.resolve, "_checkpoint", boom)
    post_form(client, b["link"], {"n": "1"})  # all in: resolution starts and crashes
    game = game_row(app, made["game"])
    assert game.step_no == 1 and game.attempts == 1 and game.status == "running"
    assert _counts(app, made["game"]) == (0, 0, 2)
    monkeypatch.setattr(turns.resolve, "_checkpoint", lambda name: None)
    with app.app_context():
        summary = turns.process_due(get_engine(app), utcnow())
    assert summary["steps"] == 1
    with app.app_context():
        assert turns.process_due(get_engine(app), utcnow())["steps"] == 0
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 3, "B": 0}
    assert _counts(app, made["game"])[0] == 1
    assert _counts(app, made["game"])[2] == 4


def test_repeated_failures_mark_the_game_crashed_and_tell_the_gm(app, runner, monkeypatch):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1", "--gm", "gm@example.org")
    other = create_game(runner, "toy", ("c@example.org", "d@example.org"), "--hours", "1")
    original = turns.resolve._checkpoint

    def boom(name):
        if name == "before_resolve" and turns_game[0] == made["game"]:
            raise RuntimeError("rules bug")

    turns_game = [None]
    real_resolve = turns.resolve.resolve_step

    def tracking(session, game_id, step_no, now, **kw):
        turns_game[0] = game_id
        return real_resolve(session, game_id, step_no, now, **kw)

    monkeypatch.setattr(turns.resolve, "resolve_step", tracking)
    monkeypatch.setattr(turns.resolve, "_checkpoint", boom)
    later = utcnow() + timedelta(hours=2)
    for _ in range(app.config["MAX_ATTEMPTS"]):
        with app.app_context():
            turns.process_due(get_engine(app), later)
    monkeypatch.setattr(turns.resolve, "_checkpoint", original)
    assert game_row(app, made["game"]).status == "crashed"
    assert game_row(app, other["game"]).step_no == 2, "other games go on"
    with Session(get_engine(app)) as s:
        gm_mail = s.exec(select(OutboxMail).where(OutboxMail.kind == "crashed")).all()
    assert [m.to_addr for m in gm_mail] == ["gm@example.org"]


@pytest.mark.parametrize("point", ["before_resolve", "after_resolve", "before_commit"])
def test_crash_at_any_point_changes_nothing(app, runner, monkeypatch, point):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    before = game_row(app, made["game"])

    def boom(name):
        if name == point:
            raise RuntimeError("kill")

    monkeypatch.setattr(turns.resolve, "_checkpoint", boom)
    with app.app_context():
        turns.process_due(get_engine(app), utcnow() + timedelta(hours=2))
    after = game_row(app, made["game"])
    assert (after.step_no, after.state) == (before.step_no, before.state)
    assert _counts(app, made["game"]) == (0, 0, 2)


def test_an_order_checked_against_a_game_read_before_its_step_resolved_is_not_stored(app, client, runner):
    """A page's request reads the game, then the step resolves before the order is written:
    the order, checked against the old state, is refused as closed and nothing is stored."""
    from app.models import Order, Seat

    made = create_game(runner, "toy", ("a@example.org", "b@example.org"))
    a, b = made["seats"]
    with Session(get_engine(app), expire_on_commit=False) as s:
        seen = s.get(Game, made["game"])  # what a's request read at step 1
        seat_a = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == a["seat"])).one()
        s.expunge_all()
    assert seen.step_no == 1 and a["seat"] in seen.owed
    post_form(client, a["link"], {"n": "1"})
    post_form(client, b["link"], {"n": "2"})  # all in: step 1 resolves, step 2 opens
    assert game_row(app, made["game"]).step_no == 2
    with app.app_context():
        taken = turns.take_order(seat_a, "PICK 3", "web", engine=get_engine(app), step_no=1, game=seen)
        with pytest.raises(turns.StepClosed):
            turns.accept_order(get_engine(app), made["game"], seat_a.id, {"type": "PICK", "n": 3}, step_no=1,
                               checked=(seen, seat_a))
    assert taken.outcome is turns.Outcome.CLOSED
    with Session(get_engine(app)) as s:
        stored = s.exec(select(Order.step_no, Order.seat).where(Order.game_id == made["game"])).all()
    assert sorted(stored) == [(1, a["seat"]), (1, b["seat"])]  # the two orders that resolved step 1, no more
    assert game_row(app, made["game"]).step_no == 2


def test_an_order_on_a_fresh_page_brings_the_seat_back_from_auto_command(app, client, runner):
    from app.db import write_session
    from app.models import Seat

    made = create_game(runner, "toy", ("a@example.org", "b@example.org"))
    a = made["seats"][0]
    with write_session(get_engine(app)) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == a["seat"])).one()
        seat.missed, seat.civil_disorder = 3, True
        s.add(seat)
    assert post_form(client, a["link"], {"n": "2"}).status_code == 303
    with Session(get_engine(app)) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == a["seat"])).one()
        assert (seat.missed, seat.civil_disorder) == (0, False)
        assert not game_row(app, made["game"]).all_in
