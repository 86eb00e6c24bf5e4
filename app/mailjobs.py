"""Building what a resolved step queued: its reports and mails, after the step's commit.

A step's transaction writes only ``MailJob`` rows that name a (game, step,
seat, kind).  Here each step's jobs are built from the stored step (its state
as it opened: what the seat saw then), reading only; then one short write
transaction deletes the jobs and stores the reports and outbox rows.  A job
deleted by someone else meanwhile is skipped, so a report and its mail are
stored once; a crash before that commit leaves the jobs for the next sweep,
which builds the same mail with the same Message-ID.

Who calls it: ``process_game`` after its steps commit (the game's own jobs),
``process_due`` and ``mail.deliver_pending`` before their work (whatever a
crash left).  With ``DELIVERY_WORKERS`` set, the resolver only queues and the
delivery workers (``flask jobs worker``, on any host) build.  An application
context is needed (templates, ``MAIL_DOMAIN``).
"""

from __future__ import annotations

import logging

from flask import current_app, has_app_context
from sqlalchemy import bindparam, delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app import notify
from app.db import is_sqlite, write_session
from app.models import MailJob

log = logging.getLogger(__name__)

#: steps built per sweep (a sweep after a long stop goes on at the next one)
SWEEP_LIMIT = 500


def _checkpoint(name: str) -> None:
    """A named point in building; stress scripts replace this (``app.mailjobs._checkpoint``) to inject crashes."""


def built_by_workers() -> bool:
    """True when delivery workers (``flask jobs worker``) build and send, not the resolver's process."""
    return has_app_context() and bool(current_app.config.get("DELIVERY_WORKERS"))


def build_after_steps(engine: Engine, game_id: int | None = None) -> int:
    """What the resolver does after committing steps: build their mails, unless workers do."""
    return 0 if built_by_workers() else build_pending(engine, game_id)


def pending_steps(session: Session, game_id: int | None = None, limit: int = SWEEP_LIMIT) -> list[tuple[int, int]]:
    """(game, step) of the queued jobs, in the order they were queued."""
    query = select(MailJob.game_id, MailJob.step_no, func.min(MailJob.id))
    if game_id is not None:
        query = query.where(MailJob.game_id == game_id)
    rows = session.exec(query.group_by(col(MailJob.game_id), col(MailJob.step_no))
                        .order_by(func.min(MailJob.id)).limit(limit)).all()
    return [(r[0], r[1]) for r in rows]


_JOB = MailJob.__table__  # type: ignore[attr-defined]
_TAKE = delete(_JOB).where(*[_JOB.c[name] == bindparam(name) for name in ("id", "game_id", "step_no", "seat", "kind")])


def _take(session: Session, job: MailJob) -> bool:
    """Delete a job as read; False if it is gone (built by another process).

    The whole row is matched, not only its id: SQLite gives a deleted row's id
    to the next row inserted, so an id alone could name another game's job.
    """
    taken = session.connection().execute(_TAKE, {"id": job.id, "game_id": job.game_id, "step_no": job.step_no,
                                                 "seat": job.seat, "kind": job.kind})
    return bool(taken.rowcount == 1)


def _build_step_locked(engine: Engine, game_id: int, step_no: int) -> int:
    """PostgreSQL: one transaction takes the step's jobs (``FOR UPDATE SKIP LOCKED``: a worker on
    another host building them is skipped, not waited for), builds, stores and deletes them."""
    with write_session(engine) as session:
        jobs = list(session.exec(select(MailJob).where(MailJob.game_id == game_id, MailJob.step_no == step_no)
                                 .order_by(col(MailJob.id)).with_for_update(skip_locked=True)).all())
        made = notify.prepare_step(session, jobs)
        _checkpoint("build_before_write")
        for job, prepared in zip(jobs, made, strict=True):
            _take(session, job)
            if prepared is not None:
                notify.store(session, prepared)
        _checkpoint("build_before_commit")
    _checkpoint("build_after_commit")
    return len(made)


def build_step(engine: Engine, game_id: int, step_no: int) -> int:
    """Build and store the queued reports and mails of one step; how many jobs this call stored.

    SQLite: built while reading, then stored in one short write transaction (the
    write lock is the database's one lock: orders wait on it).
    """
    if not is_sqlite(engine):
        return _build_step_locked(engine, game_id, step_no)
    with Session(engine) as session:
        jobs = list(session.exec(select(MailJob).where(MailJob.game_id == game_id, MailJob.step_no == step_no)
                                 .order_by(col(MailJob.id))).all())
        made = notify.prepare_step(session, jobs)
    if not made:
        return 0
    _checkpoint("build_before_write")
    stored = 0
    with write_session(engine) as session:
        for job, prepared in zip(jobs, made, strict=True):
            if not _take(session, job):  # built by another process
                continue
            if prepared is not None:
                notify.store(session, prepared)
            stored += 1
        _checkpoint("build_before_commit")
    _checkpoint("build_after_commit")
    return stored


def build_pending(engine: Engine, game_id: int | None = None, limit: int = SWEEP_LIMIT) -> int:
    """Build every queued step (of one game, or all); the number of jobs stored.

    A step whose build fails (a template error) is logged and left queued: the
    step itself stands, and the next sweep tries again.
    """
    with Session(engine) as session:
        steps = pending_steps(session, game_id, limit)
    stored = 0
    for game, step_no in steps:
        try:
            stored += build_step(engine, game, step_no)
        except Exception:  # the step is committed: its mails wait for the next sweep
            log.exception("building the mails of game %s step %s failed", game, step_no)
    return stored
