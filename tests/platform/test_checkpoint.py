"""SQLite's write-ahead log is copied back into the database by background work, or for a player's write by
a thread of the web worker, never inside a player's commit."""

from __future__ import annotations

import os
import threading
import time

from sqlalchemy import text

from app import db
from app.db import make_engine, write_session
from app.priority import background


def _write(engine, n: int) -> None:
    for i in range(n):
        with write_session(engine) as session:
            session.execute(text("INSERT INTO filler (data) VALUES (:d)"), {"d": f"{i:06d}" * 400})


def _in_thread(fn) -> None:
    failed: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def test_requests_leave_the_checkpoint_to_another_thread(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.sqlite"
    engine = make_engine(f"sqlite:///{path}")

    def create() -> None:
        with write_session(engine) as session:
            session.execute(text("CREATE TABLE filler (id INTEGER PRIMARY KEY, data TEXT)"))

    _in_thread(create)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() >= 10000
    made_by: list[str] = []
    real = db.checkpoint
    monkeypatch.setattr(db, "checkpoint",
                        lambda e, **kw: (made_by.append(threading.current_thread().name), real(e, **kw)))
    monkeypatch.setattr(db, "_last_checkpoint", {})
    size_before = os.path.getsize(path)
    # web requests' threads (threads of their own: this one may have run background work in another test)
    monkeypatch.setattr(db, "_writes", {})
    _in_thread(lambda: _write(engine, 1500))  # about 3,000 pages: SQLite alone checkpoints at 1,000, in a commit
    for _ in range(100):
        if made_by and os.path.getsize(path) > size_before + 3_000_000:
            break
        time.sleep(0.05)
    assert made_by and set(made_by) == {"sqlite-checkpoint"}, "a request's thread copied the log itself"
    assert len(made_by) <= 1500 // db.CHECKPOINT_WRITES, "the thread checkpointed after every few writes"
    assert os.path.getsize(path) > size_before + 3_000_000, "the log was not copied"

    made_by.clear()
    monkeypatch.setattr(db, "_last_checkpoint", {})
    job: list[str] = []

    def scheduler_job() -> None:
        background({"BACKGROUND_NICE": 0})
        job.append(threading.current_thread().name)
        _write(engine, 1)

    _in_thread(scheduler_job)
    # (the thread may still be copying what the requests wrote: only the job's own checkpoint counts here)
    assert job[0] in made_by, "background work did not checkpoint the log after its own write"
    engine.dispose()
