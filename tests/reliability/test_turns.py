"""RELIABILITY.md B10-B16: processors, outages, crashes, races, SQLite writers, time zones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from importlib.metadata import version

import pytest
import time_machine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, write_session
from app.games import get_rules
from app.games.base import step_rng
from app.models import Event, Game, Meta, Order, OutboxMail, Seat, Step, utcnow
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, step_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tick_process(url: str, now: datetime, kill_at: str = "", kill_game: int = 0) -> subprocess.Popen:
    args = [sys.executable, os.path.join(ROOT, "tests", "reliability", "workers.py"), url, now.isoformat()]
    if kill_at:
        args += [kill_at, str(kill_game)]
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _counts(app, game_id):
    with Session(get_engine(app)) as s:
        return (len(s.exec(select(Step).where(Step.game_id == game_id, Step.resolved_at != None)).all()),  # noqa: E711
                len(s.exec(select(Event).where(Event.game_id == game_id)).all()),
                len(s.exec(select(OutboxMail).where(OutboxMail.game_id == game_id)).all()))


def _set_last_sweep(app, moment):
    with write_session(get_engine(app)) as s:
        row = s.get(Meta, "last_sweep") or Meta(key="last_sweep")
        row.value = moment.isoformat()
        s.add(row)


# --------------------------------------------------------------------------- B10


@pytest.mark.slow
def test_b10_two_processor_processes_resolve_each_step_once(app, runner):
    """B10. Two schedulers / two workers -> each (game, turn) processed once: UNIQUE(game_id, turn) + conditional
    update (rowcount) or `FOR UPDATE SKIP LOCKED` on PG.

    Two processor *processes* tick the same 12 due games at the same moment
    (tests/platform/test_exactly_once.py races threads on one game).
    """
    games = [create_game(runner, "toy", (f"a{i}@example.org", f"b{i}@example.org"), "--hours", "1")["game"]
             for i in range(12)]
    later = utcnow() + timedelta(hours=2)
    procs = [_tick_process(app.config["DATABASE_URL"], later) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    steps = [json.loads(o[0].strip().splitlines()[-1])["steps"] for o in outs]
    assert sum(steps) == 12, steps
    with app.app_context():  # a mail job left by a busy moment is built by the next sweep, once
        from app.mailjobs import build_pending

        build_pending(get_engine(app))
    for g in games:
        assert game_row(app, g).step_no == 2
        # 3 events of the step, and for each of the two seats that missed it two notices (public, its own)
        assert _counts(app, g) == (1, 3 + 2 * 2, 4)
    with pytest.raises(IntegrityError), write_session(get_engine(app)) as s:
        s.add(Step(game_id=games[0], step_no=1))


def test_b10_second_scheduler_refuses_to_start(app):
    """B10 (two schedulers): a second scheduler against the same database refuses while the lease is fresh."""
    from jobs import lease

    assert lease.acquire(app, "host-a:1")
    assert not lease.acquire(app, "host-b:2")
    assert lease.acquire(app, "host-a:1"), "the holder renews"
    assert lease.acquire(app, "host-b:2", now=utcnow() + lease.TTL + timedelta(seconds=1)), "a stale lease is taken"


# --------------------------------------------------------------------------- B11


def test_b11_down_across_a_deadline_startup_sweep_resolves_it(app, runner):
    """B11. Down across a deadline: stop, move clock, restart -> startup sweep processes it; no misfire drop."""
    from apscheduler.schedulers.background import BackgroundScheduler

    from jobs import _add_jobs, deadlines

    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "0.1")
    _set_last_sweep(app, utcnow())
    with time_machine.travel(utcnow() + timedelta(minutes=10), tick=True):  # 6 min deadline, 10 min stop
        deadlines.startup(app)
    game = game_row(app, made["game"])
    assert game.step_no == 2
    with Session(get_engine(app)) as s:
        assert s.exec(select(Step).where(Step.game_id == game.id, Step.step_no == 1)).one().defaulted == ["A", "B"]
    sched = BackgroundScheduler(timezone="UTC")
    _add_jobs(sched, app)
    startup = sched.get_job("startup-sweep")
    assert startup is not None and startup.misfire_grace_time is None, "the startup sweep runs however late"


# --------------------------------------------------------------------------- B12


def test_b12_long_outage_extends_deadlines_instead_of_defaulting(app, runner):
    """B12. Long outage: last tick older than threshold -> extend deadlines, don't NMR everyone (webDiplomacy)."""
    from jobs import deadlines

    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    before = game_row(app, made["game"]).deadline
    _set_last_sweep(app, utcnow())
    with time_machine.travel(utcnow() + timedelta(hours=3), tick=True):
        deadlines.startup(app)
    game = game_row(app, made["game"])
    assert game.step_no == 1, "nobody defaulted because of the outage"
    moved = game.deadline.replace(tzinfo=UTC) - before.replace(tzinfo=UTC)
    assert timedelta(hours=2, minutes=59) < moved < timedelta(hours=3, minutes=5)
    with Session(get_engine(app)) as s:
        assert s.exec(select(Order).where(Order.game_id == game.id)).all() == []
        assert all(x.missed == 0 for x in s.exec(select(Seat).where(Seat.game_id == game.id)))


# --------------------------------------------------------------------------- B13


@pytest.mark.slow
def test_b13_kill_9_mid_processing_rolls_back_and_retry_gives_same_result(app, client, runner):
    """B13. `kill -9` mid-processing -> rollback; retry gives same result.

    A real processor process is SIGKILLed inside the resolution transaction
    (just before commit); nothing of the step is stored; the retry resolves it
    once, to the state the seed gives.  (Crash counting after K *exceptions* and
    the GM mail are tests/platform/test_exactly_once.py.)
    """
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"), "--hours", "1")
    before = game_row(app, made["game"])
    later = before.deadline.replace(tzinfo=UTC) + timedelta(minutes=1)
    for point in ("before_resolve", "after_resolve", "before_commit"):
        proc = _tick_process(app.config["DATABASE_URL"], later, point)
        proc.communicate(timeout=120)
        assert proc.returncode == -9
        after = game_row(app, made["game"])
        assert (after.step_no, after.state) == (before.step_no, before.state)
        assert _counts(app, made["game"]) == (0, 0, 2)
    rules = get_rules("dual_powers")
    orders = {s: rules.default_order(before.state, s, step_rng(before.seed, 1, f"default:{s}")) for s in before.owed}
    expected, _ = rules.resolve(before.state, orders, step_rng(before.seed, 1))
    with app.app_context():
        assert turns.process_game(get_engine(), made["game"], later) >= 1
    with Session(get_engine(app)) as s:
        step2 = s.exec(select(Step).where(Step.game_id == made["game"], Step.step_no == 2)).one()
    assert step2.state == json.loads(json.dumps(expected))


@pytest.mark.slow
def test_b13_a_game_that_kills_the_processor_is_stopped_and_others_go_on(app, runner):
    """B13. after K failures game `crashed`, GM mailed, other games continue (failures = processor killed)."""
    poison = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1", "--gm", "gm@example.org")
    other = create_game(runner, "toy", ("c@example.org", "d@example.org"), "--hours", "1.5")
    later = utcnow() + timedelta(hours=2)
    for _ in range(app.config["MAX_ATTEMPTS"] + 1):
        proc = _tick_process(app.config["DATABASE_URL"], later, "before_resolve", poison["game"])
        proc.communicate(timeout=120)
    assert game_row(app, other["game"]).step_no == 2
    assert game_row(app, poison["game"]).status == "crashed"


# --------------------------------------------------------------------------- B14


def test_b14_late_order_during_resolution_is_told_turn_closed(app, runner, monkeypatch):
    """B14. Late order vs processing lock (barrier race) -> clear "turn closed"; never silently lost.

    The resolution is held inside its write transaction (before the step's writes
    commit) while a player posts; the post waits for the lock, then gets the
    "already resolved" page, and no order of it is stored.  (An order that comes
    while the step is still being worked out, before that transaction, is used:
    tests/platform/test_step_plan.py.)
    """
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    link = path_of(made["seats"][0]["link"])
    client = app.test_client()
    page = client.get(link).get_data(as_text=True)
    reached, release = threading.Event(), threading.Event()
    resolver = {}

    def checkpoint(name):
        if name == "apply_before_commit" and threading.current_thread().name == "resolver":
            reached.set()
            release.wait(30)

    monkeypatch.setattr(turns.resolve, "_checkpoint", checkpoint)

    def resolve():
        with app.app_context():
            resolver["n"] = turns.process_game(get_engine(), made["game"], utcnow() + timedelta(hours=2))

    def post():
        resolver["resp"] = app.test_client().post(link, data={
            "csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": "0", "n": "3"})

    t1 = threading.Thread(target=resolve, name="resolver")
    t1.start()
    assert reached.wait(30)
    t2 = threading.Thread(target=post, name="player")
    t2.start()
    t2.join(1.0)
    assert t2.is_alive(), "the late post waits for the resolution"
    release.set()
    t1.join(30)
    t2.join(30)
    resp = resolver["resp"]
    assert resolver["n"] >= 1
    assert resp.status_code == 409 and "already resolved" in resp.get_data(as_text=True)
    with Session(get_engine(app)) as s:
        assert [o.source for o in s.exec(select(Order).where(Order.game_id == made["game"]))] == ["default", "default"]


# --------------------------------------------------------------------------- B15


@pytest.mark.slow
def test_b15_fifty_concurrent_writers_on_sqlite(app, runner):
    """B15. SQLite: 50 concurrent writers -> no `database is locked` 500s, all stored (WAL + busy_timeout + `BEGIN
    IMMEDIATE`).

    50 players of 25 games post at once to a real threaded HTTP server; half the
    posts also resolve their game.  (tests/stress/concurrent_submit.py does the
    same with several orders per seat.)
    """
    import logging
    import urllib.parse
    import urllib.request

    from werkzeug.serving import make_server

    made = [create_game(runner, "toy", (f"a{i}@example.org", f"b{i}@example.org")) for i in range(25)]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    port = server.server_port
    threading.Thread(target=server.serve_forever, daemon=True).start()
    links = [path_of(s["link"]) for m in made for s in m["seats"]]
    barrier = threading.Barrier(len(links))
    results: list[tuple[int, str]] = []
    errors: list[str] = []

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):  # type: ignore[no-untyped-def]
            return None

    opener = urllib.request.build_opener(NoRedirect)

    def player(link):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}{link}", timeout=60).read().decode()
        data = urllib.parse.urlencode({"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": "0",
                                       "n": "2"}).encode()
        barrier.wait(60)
        try:
            resp = opener.open(f"http://127.0.0.1:{port}{link}", data=data, timeout=60)
            results.append((resp.status, ""))
        except urllib.error.HTTPError as exc:
            results.append((exc.code, exc.read().decode(errors="replace")))
        except Exception as exc:  # noqa: BLE001
            errors.append(repr(exc))

    handler = logging.Handler()
    logged: list[str] = []
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger().addHandler(handler)
    try:
        threads = [threading.Thread(target=player, args=(link,)) for link in links]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        logging.getLogger().removeHandler(handler)
        server.shutdown()
    assert errors == []
    assert sorted(code for code, _ in results) == [303] * 50, [r for r in results if r[0] != 303][:3]
    assert not any("database is locked" in line for line in logged)
    with Session(get_engine(app)) as s:
        assert len(s.exec(select(Order).where(Order.source == "web")).all()) == 50
        assert all(g.step_no == 2 for g in s.exec(select(Game)))


# --------------------------------------------------------------------------- B16


def test_b16_deadlines_are_utc_instants_across_dst(app, client, runner):
    """B16. DST: deadlines stored as UTC instants; no shift across DST; APScheduler >=3.11.2 (cron DST loop fix)."""
    from app.models import Player

    start = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)  # Europe/Berlin moves to CEST on 29 March, 01:00 UTC
    with time_machine.travel(start, tick=False):
        made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "24")
    with write_session(get_engine(app)) as s:
        player = s.exec(select(Player).where(Player.email == "a@example.org")).one()
        player.timezone = "Europe/Berlin"
        s.add(player)
    game = game_row(app, made["game"])
    deadline = game.deadline if game.deadline.tzinfo else game.deadline.replace(tzinfo=UTC)
    assert deadline == datetime(2026, 3, 29, 12, 0, tzinfo=UTC), "exactly 24 h of real time"
    with time_machine.travel(start + timedelta(hours=1), tick=False):
        html = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
    assert "Sun 29 Mar 2026, 14:00 CEST" in html, "shown in the player's zone, after the change"
    with time_machine.travel(start + timedelta(hours=23, minutes=59), tick=False):
        with app.app_context():
            assert turns.process_due(get_engine())["steps"] == 0
    with time_machine.travel(start + timedelta(hours=24, seconds=1), tick=False):
        with app.app_context():
            assert turns.process_due(get_engine())["steps"] == 1
    assert tuple(int(x) for x in version("apscheduler").split(".")[:3]) >= (3, 11, 2)
