"""A delivery worker: builds the queued reports and mails, renders the PDFs and sends them.

    flask --app app jobs worker [--batch N] [--poll SECONDS] [--once]

Run any number, on any host, against one PostgreSQL database, with
``DELIVERY_WORKERS = True`` in every process's configuration (the scheduler
then only resolves steps and queues their mails).  Each batch is leased to
one worker (``mail.claim_batch``: ``FOR UPDATE SKIP LOCKED`` and a lease of
``mail.LEASE``): a worker killed mid-batch loses nothing, its mails go out
from another worker when the lease runs out, with the same Message-ID.
SIGTERM finishes the batch in hand, then stops.
"""

from __future__ import annotations

import logging
import signal
import time

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from app.mail import deliver_pending
from app.priority import background, settle_heap

log = logging.getLogger(__name__)

BATCH = 20
POLL_SECONDS = 2.0


def work(app: Flask, *, batch: int = BATCH, poll: float = POLL_SECONDS, once: bool = False,
         stop: list[bool] | None = None) -> int:
    """Deliver batches until stopped (or, with ``once``, until nothing is due); mails handled."""
    stop = stop if stop is not None else [False]
    background(app.config)
    handled = 0
    while not stop[0]:
        with app.app_context():
            counts = deliver_pending(app, limit=batch)
        n = sum(counts.values())
        handled += n
        if n:
            continue
        if once:
            break
        time.sleep(poll)
    return handled


@click.command("worker")
@with_appcontext
@click.option("--batch", default=BATCH, show_default=True, help="Mails leased per batch.")
@click.option("--poll", default=POLL_SECONDS, show_default=True, help="Seconds between looks at an empty outbox.")
@click.option("--once", is_flag=True, help="Stop when nothing is due.")
def worker_command(batch: int, poll: float, once: bool) -> None:
    """Run a delivery worker in the foreground (any number, on any host)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    stop = [False]

    def _stop(_signum, _frame):  # type: ignore[no-untyped-def]
        stop[0] = True

    signal.signal(signal.SIGTERM, _stop)
    settle_heap()
    click.echo(f"delivery worker running (batch {batch}, Ctrl-C to stop)")
    handled = work(app, batch=batch, poll=poll, once=once, stop=stop)
    click.echo(f"delivery worker stopped after {handled} mails")
