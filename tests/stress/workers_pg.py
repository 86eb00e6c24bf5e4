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
within the run.  Meanwhile a web process (``orderer``: the app's order form,
through Flask's test client) posts orders for the first seat of every game,
often several a step, and writes down each one the form acknowledged (its
303 and receipt).  At the end: every step resolved exactly once (states replay
from the seed), no acknowledged order lost (a seat's last acknowledged order of
a step is the one its step applied), every mail in the outbox sent, every mail
received (a resend after a kill carries the same Message-ID), every report mail
received with its PDF attached, no queued mail left unbuilt, no child process
that exited by itself.  PDF rendering is stubbed (a small PDF) unless
``--real-pdf`` asks the workers to render each report, so that a kill can land
mid-render.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
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


def worker(url: str, smtp_port: int, real_pdf: bool = False) -> None:
    from datetime import timedelta

    from app import mail
    from jobs.worker import work

    app = make_app(url, smtp_port=smtp_port, stub_pdf=not real_pdf, DELIVERY_WORKERS=True)
    mail.LEASE = timedelta(seconds=5)
    work(app, batch=5, poll=0.2)


def orderer(url: str, ack_file: str, seed: str) -> None:
    """Post orders through the order form for seat A of every running game (B never orders, so each step
    waits for its deadline and the schedulers resolve it); append each acknowledged one to ``ack_file``."""
    import json
    from urllib.parse import parse_qs, urlsplit

    from sqlmodel import Session, select

    from app.db import get_engine
    from app.games import get_rules
    from app.links import seat_token
    from app.models import Game, Seat
    from app.web.play import csrf_token

    app = make_app(url, stub_pdf=True, DELIVERY_WORKERS=True)
    client, rules, rnd = app.test_client(), get_rules("toy"), random.Random(seed)
    while True:
        with Session(get_engine(app)) as s:
            running = [(g.id, g.step_no, g.owed) for g in s.exec(select(Game).where(Game.status == "running"))]
            seats = {x.game_id: x for x in s.exec(select(Seat).where(Seat.seat == "A"))}
        if not running:
            return
        for game_id, step_no, owed in running:
            if "A" not in owed or rnd.random() < 0.3:
                continue
            order = {"type": "PICK", "n": rnd.randint(1, 3)}
            with app.app_context():
                token, csrf = seat_token(seats[game_id]), csrf_token(seats[game_id])
            res = client.post(f"/p/{token}", data={"csrf_token": csrf, "step_no": step_no,
                                                  "notation": rules.format(order)})
            if res.status_code != 303:  # the step closed meanwhile (409): nothing acknowledged
                continue
            receipt = parse_qs(urlsplit(res.headers["Location"]).query)
            with open(ack_file, "a") as ack:
                ack.write(json.dumps([game_id, step_no, "A", order, int(receipt["r"][0])]) + "\n")
                ack.flush()
                os.fsync(ack.fileno())
        time.sleep(0.05)


#: each child's output file, by its process id
LOGS: dict[int, str] = {}


def _spawn(logs: str, *args: str) -> subprocess.Popen:
    """A child process of this script (``args[0]``: its role), its output in a file under ``logs``."""
    path = os.path.join(logs, f"{args[0]}-{len(LOGS)}.log")
    with open(path, "w") as log:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), *args], cwd=ROOT, stdout=log,
                                stderr=subprocess.STDOUT)
    LOGS[proc.pid] = path
    return proc


def _died(procs: list[subprocess.Popen], killed: set[int]) -> list[str]:
    """The children that exited by themselves (not killed by this script), with their last lines."""
    out = []
    for p in procs:
        if p.pid not in killed and p.poll() is not None:
            with open(LOGS[p.pid]) as fh:
                tail = fh.read().strip().splitlines()[-3:]
            out.append(f"{os.path.basename(LOGS[p.pid])} exited by itself ({p.returncode}): {' | '.join(tail)}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="delivery workers and a standby scheduler on PostgreSQL")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--real-pdf", action="store_true",
                        help="the workers render each report with WeasyPrint (slower: a kill then lands mid-render)")
    args = parser.parse_args()
    games = args.games or (10 if args.quick else 60)
    rounds = args.rounds or (4 if args.quick else 8)
    rnd = random.Random(args.seed)

    import json

    from sqlmodel import Session, col, select

    from app.db import get_engine
    from app.models import Meta, OutboxMail, Step, utcnow
    from jobs import lease

    base = postgres_url()
    name = f"pbem_workers_{os.getpid()}"
    url = fresh_pg_database(base, name)
    smtp = start_smtp()
    procs: list[subprocess.Popen] = []
    web: subprocess.Popen | None = None
    tmp = tempfile.mkdtemp(prefix="pbem-workers-")
    ack_file = os.path.join(tmp, "acks.jsonl")
    try:
        app = make_app(url, smtp_port=smtp.port, stub_pdf=True)
        init_db(app)
        ids = create_toys(app, games, rounds, "w", hours=HOURS)
        web = _spawn(tmp, "orderer", url, ack_file, str(args.seed))
        procs = [_spawn(tmp, "scheduler", url) for _ in range(2)]
        workers = [_spawn(tmp, "worker", url, str(smtp.port), "real" if args.real_pdf else "stub")
                   for _ in range(3)]
        procs += workers
        started = time.monotonic()
        kill_worker_at = rnd.uniform(1.0, 6.0)
        kill_scheduler_at = rnd.uniform(1.0, 4.0)  # the games' turns last about 2 s each: mid-storm
        scheduler_killed_at = None
        killed: list[str] = []
        killed_pids: set[int] = set()
        expected = 2 * (1 + rounds) * games
        while time.monotonic() - started < (240 if args.quick else 900):
            elapsed = time.monotonic() - started
            if "worker" not in killed and elapsed >= kill_worker_at:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append("worker")
                killed_pids.add(workers[0].pid)
            if "scheduler" not in killed and elapsed >= kill_scheduler_at:
                with Session(get_engine(app)) as s:
                    row = s.get(Meta, lease.KEY)
                holder = json.loads(row.value)["holder"] if row is not None and row.value else ""
                active = [p for p in procs[:2] if holder.endswith(f":{p.pid}")]
                if active:
                    os.kill(active[0].pid, signal.SIGKILL)
                    killed.append("scheduler")
                    killed_pids.add(active[0].pid)
                    scheduler_killed_at = utcnow()
            if smtp.sink.total >= expected and len(killed) == 2:
                time.sleep(1.0)
                break
            time.sleep(0.2)
        took = time.monotonic() - started
        try:
            web_failed = web.wait(30) != 0  # it stops by itself once every game has finished
        except subprocess.TimeoutExpired:
            web_failed = True
        died = _died(procs, killed_pids)
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
        counts, problems = check_exactly_once(app, smtp.sink, ids, rounds, ack_file)
        if not counts["orders_acked"]:
            problems.append("no order was acknowledged: the run tested no order")
        if web_failed:
            problems.append("the order form's process failed or did not stop when the games finished")
        problems += died
        with Session(get_engine(app)) as s:
            after = s.exec(select(Step).where(col(Step.resolved_at) > scheduler_killed_at)).all() \
                if scheduler_killed_at else []
            # claimed again after a lease ran out: mails the killed worker held (building, rendering, sending)
            reclaimed = s.exec(select(OutboxMail).where(OutboxMail.attempts > 1)).all()
        counts["steps_after_takeover"] = len(after)
        counts["mails_reclaimed"] = len(reclaimed)
        if not after:
            problems.append("no step resolved after the active scheduler was killed: the standby never took over")
        from app.db import _engines

        for engine in _engines.values():
            engine.dispose()
    finally:
        for p in [*procs, *([web] if web else [])]:
            if p.poll() is None:
                p.kill()
        smtp.stop()
        drop_pg_database(base, name)
        shutil.rmtree(tmp, ignore_errors=True)
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
          f"{counts['steps_resolved']} steps resolved once, {counts['orders_acked']} acknowledged orders kept, "
          f"{counts['mails_outbox']} mails sent ({counts['resends_same_id']} resends, same Message-ID), "
          f"{counts['reports_with_pdf']} with their report's PDF")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "scheduler":
        scheduler(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "worker":
        worker(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "real")
    elif len(sys.argv) > 1 and sys.argv[1] == "orderer":
        orderer(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(main())
