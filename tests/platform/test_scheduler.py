"""The one scheduler: stable jobs, a lease against a second one, a wake-up at each deadline."""

from __future__ import annotations

import json
import time

import pytest

import jobs
from app import turns
from jobs import lease


def test_jobs_are_explicit_and_a_second_scheduler_is_refused(app):
    sched = jobs.init_scheduler(app)
    try:
        ids = {j.id for j in sched.get_jobs()}
        assert {"sweep-due-steps", "deliver-mail", "reminders", "scheduler-heartbeat", "daily-digest"} <= ids
        for job in sched.get_jobs():
            if job.id != "startup-sweep":
                assert job.coalesce is True and job.misfire_grace_time is not None
        assert not lease.acquire(app, "another-host:1"), "a second scheduler must not start"
    finally:
        sched.shutdown(wait=False)
        jobs._running.pop(id(app), None)
        turns.DEADLINE_LISTENERS.clear()
        lease.release(app, jobs.holder_id())
    assert lease.acquire(app, "another-host:1"), "after release another scheduler may run"


def test_scheduler_resolves_a_short_deadline_without_waiting_for_the_sweep(app, runner):
    sched = jobs.init_scheduler(app)
    try:
        out = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "a@example.org", "--player",
                                             "b@example.org", "--hours", "0.0006"]).output)  # about 2 s
        wakes = [j for j in sched.get_jobs() if j.id.startswith("wake-")]
        assert wakes, "a wake-up job is scheduled at the deadline"
        from tests.platform.helpers import game_row

        for _ in range(40):
            if game_row(app, out["game"]).step_no == 2:
                break
            time.sleep(0.25)
        assert game_row(app, out["game"]).step_no == 2
    finally:
        sched.shutdown(wait=False)
        jobs._running.pop(id(app), None)
        turns.DEADLINE_LISTENERS.clear()
        lease.release(app, jobs.holder_id())


@pytest.fixture(autouse=True)
def _no_listeners_left():
    yield
    turns.DEADLINE_LISTENERS.clear()


def test_a_scheduler_whose_lease_was_taken_over_stops_renewing_it(app):
    assert lease.acquire(app, "host-a:1")
    assert lease.heartbeat(app, "host-a:1"), "the holder renews"
    assert not lease.heartbeat(app, "host-b:2"), "a fresh lease of another is left alone"
    lease.release(app, "host-a:1")
    assert lease.heartbeat(app, "host-b:2")


def test_jobs_run_waits_as_a_hot_standby_and_takes_over(app, runner, monkeypatch):
    from apscheduler.schedulers.blocking import BlockingScheduler

    assert lease.acquire(app, "active-host:1")
    naps = []

    def nap(seconds):  # the active scheduler dies while the standby waits: its lease runs out
        naps.append(seconds)
        if len(naps) == 2:
            lease.release(app, "active-host:1")

    started = []
    monkeypatch.setattr(jobs.time, "sleep", nap)
    monkeypatch.setattr(BlockingScheduler, "start", lambda self, *a, **k: started.append(self))
    result = runner.invoke(args=["jobs", "run"])
    assert result.exit_code == 0, result.output
    assert "standby" in result.output and "scheduler running" in result.output
    assert len(naps) == 2 and naps[0] == jobs.STANDBY_POLL_SECONDS and len(started) == 1
    assert lease.acquire(app, "another-host:1"), "the lease was released on the way out"


def _nice_of_this_thread() -> int:
    import os
    import threading

    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_the_sweep_and_the_delivery_worker_run_below_the_web_requests_priority(app):
    """A storm's resolution and building must not take the CPU from players' orders."""
    import threading

    from jobs import deadlines, worker

    app.config["BACKGROUND_NICE"] = 4
    web_thread = _nice_of_this_thread()
    seen: dict[str, int] = {}

    def in_thread(name, fn):  # scheduler jobs and workers run in threads of their own
        def run():
            fn()
            seen[name] = _nice_of_this_thread()
            fn()  # a second run does not go lower still
            seen[name + " again"] = _nice_of_this_thread()
        t = threading.Thread(target=run)
        t.start()
        t.join()

    in_thread("sweep", lambda: deadlines.sweep(app))
    in_thread("worker", lambda: worker.work(app, once=True))
    expected = min(19, web_thread + 4)
    assert seen == {"sweep": expected, "sweep again": expected, "worker": expected, "worker again": expected}
    assert _nice_of_this_thread() == web_thread, "the web request's thread keeps its priority"


def test_the_scheduler_and_the_worker_keep_their_loaded_games_out_of_full_collections(app, monkeypatch):
    """A full garbage collection scanning every loaded game must not land while a step holds the write lock."""
    import gc
    import sys

    import jobs
    from jobs import worker

    settled = []  # at each freeze: whether every game was loaded before it
    monkeypatch.setattr(gc, "freeze", lambda: settled.append(all(
        f"app.games.{slug}.rules" in sys.modules for slug in ("conquest", "dual_powers", "duel", "empire"))))
    monkeypatch.setattr(worker, "work", lambda *a, **k: 0)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["jobs", "worker", "--once"]).exit_code == 0
    assert settled == [True]

    def no_scheduler(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(jobs, "init_scheduler", no_scheduler)
    runner.invoke(args=["jobs", "run"])
    assert settled == [True, True]


@pytest.mark.parametrize("before", ["no lease yet", "a lease run out"])
def test_two_schedulers_starting_at_once_take_the_lease_once_between_them(app, before):
    """Two hosts booting together: one scheduler gets the lease, the other becomes the standby (no error)."""
    from datetime import timedelta

    from app.db import get_engine, write_session
    from app.models import Meta, utcnow

    for attempt in range(15):
        with write_session(get_engine(app)) as session:
            row = session.get(Meta, lease.KEY)
            if row is not None:
                session.delete(row)
            if before == "a lease run out":
                session.add(Meta(key=lease.KEY, value=json.dumps(
                    {"holder": "dead-host:1", "until": (utcnow() - timedelta(seconds=1)).isoformat()})))
        got = _acquire_at_once(app, ["host-1:1", "host-2:1"])
        assert sorted(map(str, got.values())) == ["False", "True"], f"attempt {attempt}: {got}"
        with write_session(get_engine(app)) as session:
            holder = json.loads(session.get(Meta, lease.KEY).value)["holder"]
        assert got[holder] is True, "the lease names the scheduler that was told it holds it"


def _acquire_at_once(app, holders: list[str]) -> dict[str, object]:
    """Each holder asks for the lease in a thread of its own, all released at the same instant: what each got
    (True, False, or the exception raised)."""
    import threading

    start = threading.Barrier(len(holders))
    got: dict[str, object] = {}

    def start_scheduler(holder: str) -> None:
        start.wait()
        try:
            got[holder] = lease.acquire(app, holder)
        except Exception as exc:  # noqa: BLE001 (the failure the caller looks for)
            got[holder] = exc

    threads = [threading.Thread(target=start_scheduler, args=(holder,)) for holder in holders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return got
