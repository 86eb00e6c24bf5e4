"""The one scheduler: wakes the turn processor and the mail delivery.

The database is the source of truth (deadlines, outbox); the scheduler only
wakes the processor.  Exactly one scheduler process runs against a
database: it holds a lease row in ``meta`` (``jobs.lease``).  Run it inside
the web process for the embedded default (``flask --app app serve``), or alone
with ``flask --app app jobs run``.  A second ``jobs run`` waits as a hot
standby: it polls the lease every ``STANDBY_POLL_SECONDS`` and starts when the
active one stops renewing it (dead, or cut off), within ``lease.TTL`` plus
one poll.  A scheduler that finds its lease taken stops (and ``jobs run``
goes back to waiting).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from datetime import timedelta

import click
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask, current_app
from flask.cli import AppGroup

from app import turns
from app.priority import settle_heap
from jobs import deadlines, lease, reminders, worker

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60
DELIVER_SECONDS = 20
HEARTBEAT_SECONDS = 30
REMINDER_SECONDS = 300
DIGEST_HOUR_UTC = 7
STANDBY_POLL_SECONDS = 10

_running: dict[int, BaseScheduler] = {}
_lost: set[int] = set()  # apps whose scheduler found its lease taken


class SchedulerAlreadyRunning(RuntimeError):
    """Another scheduler holds the lease on this database."""


def _add_jobs(sched: BaseScheduler, app: Flask) -> None:
    common = {"coalesce": True, "max_instances": 1, "replace_existing": True, "misfire_grace_time": 300}
    sched.add_job(deadlines.sweep, "interval", seconds=SWEEP_SECONDS, args=[app], id="sweep-due-steps",
                  next_run_time=None, **common)
    if not app.config.get("DELIVERY_WORKERS"):  # else ``flask jobs worker`` processes deliver
        sched.add_job(deadlines.deliver, "interval", seconds=DELIVER_SECONDS, args=[app], id="deliver-mail",
                      **common)
    sched.add_job(reminders.run, "interval", seconds=REMINDER_SECONDS, args=[app], id="reminders", **common)
    sched.add_job(reminders.send_digests, "cron", hour=DIGEST_HOUR_UTC, args=[app], id="daily-digest", **common)
    sched.add_job(_heartbeat, "interval", seconds=HEARTBEAT_SECONDS, args=[app, sched],
                  id="scheduler-heartbeat", **common)
    # the first sweep runs at once: steps that fell due while we were down resolve in order
    sched.add_job(deadlines.startup, "date", args=[app], id="startup-sweep", misfire_grace_time=None,
                  replace_existing=True)


def _heartbeat(app: Flask, sched: BaseScheduler) -> None:
    """Renew the lease; when another scheduler has taken it over, stop this one."""
    if lease.heartbeat(app, holder_id()):
        return
    log.error("another scheduler took over the lease: this one stops")
    _lost.add(id(app))
    _running.pop(id(app), None)
    sched.shutdown(wait=False)


def holder_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def init_scheduler(app: Flask, *, blocking: bool = False) -> BaseScheduler:
    """Start the scheduler for this app (once per process; refuses a second one per database)."""
    if id(app) in _running:
        return _running[id(app)]
    if not lease.acquire(app, holder_id()):
        raise SchedulerAlreadyRunning("another scheduler is running against this database")
    sched: BaseScheduler = (BlockingScheduler if blocking else BackgroundScheduler)(timezone="UTC")
    _add_jobs(sched, app)
    _running[id(app)] = sched
    turns.DEADLINE_LISTENERS.append(lambda when: wake_at(app, when))  # again after a takeover: harmless
    if not blocking:
        sched.start()
    return sched


def wake_at(app: Flask, when) -> None:  # type: ignore[no-untyped-def]
    """Ask for a sweep at ``when`` (a deadline), if this process runs the scheduler."""
    sched = _running.get(id(app))
    if sched is None:
        return
    if when is None:
        return
    at = when.replace(microsecond=0) + timedelta(seconds=1)
    sched.add_job(deadlines.sweep, "date", run_date=at, args=[app], id=f"wake-{at:%Y%m%dT%H%M%S}",
                  replace_existing=True, misfire_grace_time=None, coalesce=True)


jobs_cli = AppGroup("jobs", help="The scheduler (one active per database, others wait) and delivery workers.")
jobs_cli.add_command(worker.worker_command)


@jobs_cli.command("run")
def run() -> None:
    """Run the scheduler in the foreground; while another one runs, wait as its hot standby."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    settle_heap()
    waiting = False
    while True:
        try:
            sched = init_scheduler(app, blocking=True)
        except SchedulerAlreadyRunning:
            if not waiting:
                click.echo("standby: another scheduler holds the lease; taking over when it stops renewing it")
                waiting = True
            time.sleep(STANDBY_POLL_SECONDS)
            continue
        click.echo("scheduler running (Ctrl-C to stop)")
        try:
            sched.start()
        finally:
            _running.pop(id(app), None)
            lease.release(app, holder_id())
        if id(app) not in _lost:
            return
        _lost.discard(id(app))
        waiting = False
