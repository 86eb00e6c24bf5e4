"""A step resolves exactly once: racing processors, crashes mid-resolution, resends."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, make_engine
from app.models import Event, OutboxMail, Step, utcnow
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
