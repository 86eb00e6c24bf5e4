"""The storm on PostgreSQL with delivery workers: how its time falls from 1 to N worker processes.

    python bench/storm.py --database-url postgresql+psycopg://pbem:pbem@127.0.0.1:5432/postgres
                          [--workers N] [--games G]

For n = 1 .. N: a fresh database of its own (created and dropped), the same mix of
games all due at once; this process resolves them as the scheduler does with
``DELIVERY_WORKERS`` (it only queues the steps' mails), while n processes of
``flask --app app jobs worker`` build the reports and mails, render the PDFs (each
worker with one render process, ``RENDER_WORKERS=1``) and send them to a local
SMTP sink.  Timed from the deadline to the last mail received.

Prints, for each n: the storm's seconds, its reports, reports per minute and the
speed-up against one worker; then the sizing rule, reports per worker per minute
(one worker keeps about one core busy).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from typing import Any

import benchlib

WAIT_LIMIT = 3600.0


def _worker_env(url: str, smtp_port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "FLASK_DATABASE_URL": url, "FLASK_SECRET_KEY": benchlib.SECRET, "FLASK_BASE_URL": benchlib.BASE_URL,
        "FLASK_MAIL_SERVER": "127.0.0.1", "FLASK_MAIL_PORT": str(smtp_port), "FLASK_DEV_MAILBOX": "false",
        "FLASK_DELIVERY_WORKERS": "true", "FLASK_RENDER_WORKERS": "1", "FLASK_REPORT_ISOLATE": "false",
        "FLASK_SCHEDULER_ENABLED": "false", "FLASK_ENV_NAME": "development", "FLASK_LOG_LEVEL": "WARNING",
    })
    return env


def _left(app: Any) -> int:
    """Mails not yet handed over: queued steps' jobs and pending outbox rows."""
    from sqlalchemy import func
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import MailJob, OutboxMail

    with Session(get_engine(app)) as session:
        jobs = session.exec(select(func.count()).select_from(MailJob)).one()
        pending = session.exec(select(func.count()).select_from(OutboxMail)
                               .where(OutboxMail.status == "pending")).one()
    return int(jobs) + int(pending)


def _all_due(app: Any, when: Any) -> None:
    """Move every running game's deadline to ``when`` (a minute ago): the storm is due now, by the real
    clock that the worker processes read."""
    from sqlalchemy import update

    from app.db import get_engine, write_session
    from app.models import Game

    with write_session(get_engine(app)) as session:
        session.execute(update(Game).where(Game.status == "running").values(deadline=when))  # type: ignore[arg-type]


def _reports(app: Any, since: Any) -> int:
    from sqlalchemy import func
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Report

    with Session(get_engine(app)) as session:
        return int(session.exec(select(func.count()).select_from(Report).where(Report.created_at >= since)).one())


def one_run(base_url: str, games: int, workers: int) -> dict[str, Any]:
    """One storm of ``games`` games delivered by ``workers`` worker processes (a fresh database)."""
    from app import turns
    from app.db import get_engine
    from app.models import utcnow
    from app.priority import background

    name = f"pbem_storm_{os.getpid()}_{workers}"
    url = benchlib.fresh_pg_database(base_url, name)
    procs: list[subprocess.Popen] = []
    try:
        with benchlib.SmtpServer() as smtp:
            app = benchlib.make_app(url, smtp.port, DELIVERY_WORKERS=True, REPORT_ISOLATE=False)
            now = utcnow().replace(microsecond=0)
            benchlib.create_games(app, games, now)
            _all_due(app, now - timedelta(minutes=1))
            env = _worker_env(url, smtp.port)
            procs = [subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "jobs", "worker",
                                       "--poll", "0.2"], cwd=benchlib.ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for _ in range(workers)]
            time.sleep(3.0)  # the workers are up and polling before the deadline
            resolved: dict[str, float] = {}

            def resolve() -> None:
                background(app.config)  # as the scheduler's sweep does
                with app.app_context():
                    turns.process_due(get_engine(app), utcnow(), max_attempts=app.config["MAX_ATTEMPTS"])
                resolved["at"] = time.perf_counter() - t0

            tick = utcnow()
            t0 = time.perf_counter()
            thread = threading.Thread(target=resolve, daemon=True)
            thread.start()
            while time.perf_counter() - t0 < WAIT_LIMIT:
                time.sleep(0.25)
                if "at" in resolved and _left(app) == 0:
                    break
            thread.join()
            total = (smtp.sink.last - t0) if smtp.sink.last else float("nan")
            return {"workers": workers, "total": total, "resolved": resolved.get("at", float("nan")),
                    "reports": _reports(app, tick - timedelta(seconds=1)), "mails": smtp.sink.count,
                    "with_pdf": smtp.sink.with_pdf, "left": _left(app)}
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        benchlib.drop_pg_database(base_url, name)


def main(base_url: str, games: int, most: int) -> int:
    runs = [one_run(base_url, games, n) for n in range(1, most + 1)]
    one = runs[0]
    rows = []
    for r in runs:
        per_min = r["reports"] / r["total"] * 60 if r["total"] else float("nan")
        rows.append([r["workers"], f"{r['total']:.1f}", f"{r['resolved']:.1f}", r["reports"],
                     f"{r['mails']} ({r['with_pdf']} PDF)", f"{per_min:.0f}", f"{one['total'] / r['total']:.2f}x"])
    print(f"deadline storm on PostgreSQL: {games} games, {benchlib.cores()} cores; "
          "each worker renders in one render process")
    print()
    print(benchlib.table(rows, ["workers", "storm s", "resolved s", "reports", "mails", "reports/min",
                                "speed-up"]))
    print()
    per_worker = one["reports"] / one["total"] * 60 if one["total"] else float("nan")
    print(f"sizing: one worker delivers about {per_worker:.0f} reports per minute on this hardware "
          "(one core); add workers (and cores) until a storm's mails go out in the time you promise")
    complete = all(r["left"] == 0 and r["mails"] >= r["reports"] for r in runs)
    if not complete:
        print("NOT COMPLETE: some mail was not delivered")
    if len(runs) > 1:
        print(f"storm with {runs[-1]['workers']} workers: {one['total'] / runs[-1]['total']:.2f}x faster than with 1")
    return 0 if complete else 1
