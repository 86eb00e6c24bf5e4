"""A step's transaction only queues its mails; they are built after commit, once, from the stored step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import mailjobs, turns
from app.db import get_engine, is_sqlite, write_session
from app.games import get_rules
from app.mail import deliver_pending
from app.models import MailJob, OutboxMail, Report, Step, utcnow
from tests.platform.helpers import create_game, game_row, mails


def _jobs(app) -> list[MailJob]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(MailJob)).all())


def _crash_at(point):
    def boom(name):
        if name == point:
            raise RuntimeError("kill")
    return boom


def test_a_resolved_step_queues_jobs_and_the_sweep_builds_them_after_commit(app, runner, monkeypatch):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    monkeypatch.setattr(turns.resolve, "_checkpoint", _crash_at("after_step_commit"))
    with app.app_context(), pytest.raises(RuntimeError, match="kill"):
        turns.process_game(get_engine(app), made["game"], utcnow() + timedelta(hours=2))
    assert game_row(app, made["game"]).step_no == 2, "the step is committed"
    assert [m.kind for m in mails(app)] == ["start", "start"], "its mails are not built yet"
    assert sorted(j.seat for j in _jobs(app)) == ["A", "B"]
    monkeypatch.setattr(turns.resolve, "_checkpoint", lambda name: None)
    with app.app_context():
        deliver_pending(app)  # the delivery sweep builds what the crash left
        deliver_pending(app)
    turn = mails(app, kind="turn")
    assert sorted(m.message_id for m in turn) == [f"<g{made['game']}.{s}.s2.turn@{app.config['MAIL_DOMAIN']}>"
                                                   for s in ("A", "B")]
    assert _jobs(app) == []


@pytest.mark.parametrize("point", ["build_before_write", "build_before_commit"])
def test_a_crash_while_building_leaves_the_jobs_for_the_next_sweep(app, runner, monkeypatch, point):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    monkeypatch.setattr(mailjobs, "_checkpoint", _crash_at(point))
    with app.app_context():
        assert turns.process_game(get_engine(app), made["game"], utcnow() + timedelta(hours=2)) == 1
    assert len(_jobs(app)) == 2 and not mails(app, kind="turn")
    with Session(get_engine(app)) as s:
        assert not s.exec(select(Report).where(Report.step_no == 2)).all()
    monkeypatch.setattr(mailjobs, "_checkpoint", lambda name: None)
    with app.app_context():
        turns.process_due(get_engine(app), utcnow())
        turns.process_due(get_engine(app), utcnow())
    assert len(mails(app, kind="turn")) == 2 and _jobs(app) == []


def test_a_late_build_shows_the_step_as_it_opened(app, runner, monkeypatch):
    """Built after the game moved on, each report is still drawn from its own step's state."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    monkeypatch.setattr(turns.resolve, "_checkpoint", _crash_at("after_step_commit"))
    later = utcnow() + timedelta(hours=2)
    for when in (later, later + timedelta(hours=2)):
        with app.app_context(), pytest.raises(RuntimeError, match="kill"):
            turns.process_game(get_engine(app), made["game"], when)
    assert game_row(app, made["game"]).step_no == 3
    monkeypatch.setattr(turns.resolve, "_checkpoint", lambda name: None)
    with app.app_context():
        assert mailjobs.build_pending(get_engine(app)) == 4
    rules = get_rules("toy")
    with Session(get_engine(app)) as s:
        for step_no in (2, 3):
            step = s.exec(select(Step).where(Step.game_id == made["game"], Step.step_no == step_no)).one()
            for report in s.exec(select(Report).where(Report.step_no == step_no)).all():
                assert report.context["game"]["step_no"] == step_no
                assert report.context["view"] == rules.view(step.state, report.seat)
                assert all(e["step"] < step_no for e in report.context["events"])
            sent = s.exec(select(OutboxMail).where(OutboxMail.step_no == step_no, OutboxMail.kind == "turn")).all()
            assert len(sent) == 2


def test_with_delivery_workers_the_resolver_only_queues_and_a_worker_builds_and_delivers(app, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    app.config["DELIVERY_WORKERS"] = True
    with app.app_context():  # a step resolved now (its deadline moved into the past)
        game = game_row(app, made["game"])
        with write_session(get_engine(app)) as s:
            game.deadline = utcnow() - timedelta(minutes=1)
            s.add(game)
        assert turns.process_due(get_engine(app), utcnow())["steps"] == 1
    assert len(_jobs(app)) == 2 and not mails(app, kind="turn")
    result = runner.invoke(args=["jobs", "worker", "--once", "--poll", "0"])
    assert result.exit_code == 0, result.output
    turn = mails(app, kind="turn")
    assert len(turn) == 2 and {m.status for m in turn} == {"local"} and _jobs(app) == []
    assert game_row(app, made["game"]).step_no == 2


def test_the_scheduler_leaves_delivery_to_the_workers(app):
    import jobs

    app.config["DELIVERY_WORKERS"] = True
    sched = jobs.init_scheduler(app)
    try:
        ids = {j.id for j in sched.get_jobs()}
        assert "sweep-due-steps" in ids and "deliver-mail" not in ids
    finally:
        sched.shutdown(wait=False)
        jobs._running.pop(id(app), None)
        turns.DEADLINE_LISTENERS.clear()
        jobs.lease.release(app, jobs.holder_id())


def test_a_slow_builder_never_takes_another_games_jobs(app, runner, monkeypatch):
    """Two builders read one step's jobs; the quicker stores them and another game's step then queues
    jobs that SQLite numbers with the freed ids.  The slower builder must not delete those.
    (On PostgreSQL the slower builder holds the jobs' row locks, so the quicker one skips them.)"""
    app.config["DELIVERY_WORKERS"] = 1  # resolving only queues: the test builds
    first, second = (create_game(runner, "toy", (f"a{i}@example.org", f"b{i}@example.org"), "--hours", "1")["game"]
                     for i in range(2))
    later = utcnow() + timedelta(hours=2)
    engine = get_engine(app)
    quick: list[int] = []
    with app.app_context():
        assert turns.process_game(engine, first, later) == 1
        freed = sorted(j.id for j in _jobs(app))

        def meanwhile(name):
            if name != "build_before_write":
                return
            monkeypatch.setattr(mailjobs, "_checkpoint", lambda name: None)
            quick.append(mailjobs.build_step(engine, first, 2))
            assert turns.process_game(engine, second, later) == 1

        monkeypatch.setattr(mailjobs, "_checkpoint", meanwhile)
        slow = mailjobs.build_step(engine, first, 2)
        assert quick[0] + slow == 2, "each job is stored once, by one of the two builders"
        left = _jobs(app)
        assert {j.game_id for j in left} == {second}, "the other game's jobs are still queued"
        if is_sqlite(engine):
            assert quick[0] == 2 and sorted(j.id for j in left) == freed, "ids were reused"
        mailjobs.build_pending(engine)
    assert sorted((m.game_id, m.seat) for m in mails(app, kind="turn")) == [
        (g, s) for g in (first, second) for s in ("A", "B")]
