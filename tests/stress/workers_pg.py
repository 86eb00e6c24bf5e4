"""Delivery workers and a standby scheduler on PostgreSQL, killed at random moments.

    python tests/stress/workers_pg.py [--quick] [--games N] [--rounds N]

Uses ``TEST_DATABASE_URL`` (a PostgreSQL server URL) or starts PostgreSQL with
``bin/start-postgres``; creates a scratch database and games whose turns last
about two seconds, then starts two schedulers (``jobs.init_scheduler``: one
active, one hot standby; with ``DELIVERY_WORKERS`` they only resolve and
queue) and three delivery workers (``jobs.worker.work``: build, render,
send), all separate processes.  During the storm it kills one worker and the
active scheduler with SIGKILL at random moments.  The lease periods are cut
to seconds (scheduler lease 6 s, mail lease 5 s) so that the takeovers happen
within the run.  At the end: every step resolved exactly once (states replay
from the seed), every mail in the outbox sent, every mail received (a resend
after a kill carries the same Message-ID), no queued mail left unbuilt.
PDF rendering is stubbed (mails are counted).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.stress._common import (  # noqa: E402
    ROOT,
    check_exactly_once,
    create_toys,
    drop_pg_database,
    fresh_pg_database,
    init_db,
    make_app,
    postgres_url,
    start_smtp,
)

HOURS = 0.0006  # a turn of about two seconds


def scheduler(url: str) -> None:
    """A ``jobs run``: active when it gets the lease, else a standby polling it."""
    from datetime import timedelta

    import jobs
    from jobs import lease

    app = make_app(url, stub_pdf=True, DELIVERY_WORKERS=True)
    lease.TTL = timedelta(seconds=6)
    jobs.HEARTBEAT_SECONDS = 2
    while True:
        try:
            sched = jobs.init_scheduler(app, blocking=True)
        except jobs.SchedulerAlreadyRunning:
            time.sleep(1)
            continue
        print("active", flush=True)
        sched.start()
        return


def worker(url: str, smtp_port: int) -> None:
    from datetime import timedelta

    from app import mail
    from jobs.worker import work

    app = make_app(url, smtp_port=smtp_port, stub_pdf=True, DELIVERY_WORKERS=True)
    mail.LEASE = timedelta(seconds=5)
    work(app, batch=5, poll=0.2)


def _spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description="delivery workers and a standby scheduler on PostgreSQL")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = args.games or (10 if args.quick else 60)
    rounds = args.rounds or (4 if args.quick else 8)
    rnd = random.Random(args.seed)

    import json

    from sqlmodel import Session, col, select

    from app.db import get_engine
    from app.models import Meta, Step, utcnow
    from jobs import lease

    base = postgres_url()
    name = f"pbem_workers_{os.getpid()}"
    url = fresh_pg_database(base, name)
    smtp = start_smtp()
    procs: list[subprocess.Popen] = []
    try:
        app = make_app(url, smtp_port=smtp.port, stub_pdf=True)
        init_db(app)
        ids = create_toys(app, games, rounds, "w", hours=HOURS)
        procs = [_spawn("scheduler", url) for _ in range(2)]
        workers = [_spawn("worker", url, str(smtp.port)) for _ in range(3)]
        procs += workers
        started = time.monotonic()
        kill_worker_at = rnd.uniform(1.0, 6.0)
        kill_scheduler_at = rnd.uniform(1.0, 4.0)  # the games' turns last about 2 s each: mid-storm
        scheduler_killed_at = None
        killed: list[str] = []
        expected = 2 * (1 + rounds) * games
        while time.monotonic() - started < (240 if args.quick else 900):
            elapsed = time.monotonic() - started
            if "worker" not in killed and elapsed >= kill_worker_at:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append("worker")
            if "scheduler" not in killed and elapsed >= kill_scheduler_at:
                with Session(get_engine(app)) as s:
                    row = s.get(Meta, lease.KEY)
                holder = json.loads(row.value)["holder"] if row is not None and row.value else ""
                active = [p for p in procs[:2] if holder.endswith(f":{p.pid}")]
                if active:
                    os.kill(active[0].pid, signal.SIGKILL)
                    killed.append("scheduler")
                    scheduler_killed_at = utcnow()
            if smtp.sink.total >= expected and len(killed) == 2:
                time.sleep(1.0)
                break
            time.sleep(0.2)
        took = time.monotonic() - started
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        time.sleep(0.5)
        counts, problems = check_exactly_once(app, smtp.sink, ids, rounds, None)
        with Session(get_engine(app)) as s:
            after = s.exec(select(Step).where(col(Step.resolved_at) > scheduler_killed_at)).all() \
                if scheduler_killed_at else []
        counts["steps_after_takeover"] = len(after)
        if not after:
            problems.append("no step resolved after the active scheduler was killed: the standby never took over")
        from app.db import _engines

        for engine in _engines.values():
            engine.dispose()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        smtp.stop()
        drop_pg_database(base, name)
    counts.update(killed=",".join(killed), seconds=f"{took:.0f}")
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    if len(killed) != 2:
        problems.append(f"killed only {killed}")
    if problems:
        for p in problems[:20]:
            print("  " + p)
        print(f"FAIL {len(problems)} deviations")
        return 1
    print(f"OK {games} games, 3 workers (one killed), 2 schedulers (the active one killed, the standby took over): "
          f"{counts['steps_resolved']} steps resolved once, {counts['mails_outbox']} mails sent "
          f"({counts['resends_same_id']} resends, same Message-ID)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "scheduler":
        scheduler(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "worker":
        worker(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(main())
