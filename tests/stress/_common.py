"""Shared pieces of the stress scripts: the app, an SMTP sink, a processor child process."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from datetime import timedelta
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def make_app(url: str, *, smtp_port: int | None = None, stub_pdf: bool = False, **extra: Any):  # type: ignore[no-untyped-def]
    """An app on ``url`` with the test-only toy game registered; SMTP on ``smtp_port`` if given."""
    import logging

    from app import create_app
    from app.games import register
    from tests.platform.toygame import RULES

    register(RULES)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    cfg: dict[str, Any] = {"SECRET_KEY": "stress-secret-key-0123456789", "DATABASE_URL": url,
                           "BASE_URL": "https://pbem.example.org", "RATELIMIT_ENABLED": False,
                           "MAIL_SERVER": "", "RENDER_WORKERS": 0}
    if smtp_port:
        cfg.update(MAIL_SERVER="127.0.0.1", MAIL_PORT=smtp_port, DEV_MAILBOX=False, MAIL_TIMEOUT=5)
    cfg.update(extra)
    app = create_app(cfg)
    if stub_pdf:  # these scripts count mails; PDFs are checked by the leak scan and the herd
        import app.reports as reports

        reports.render_pdf = lambda *_args: b"%PDF-1.4\n% report stub\n%%EOF\n"
    return app


def init_db(app) -> None:  # type: ignore[no-untyped-def]
    from app.db import create_all, get_engine

    with app.app_context():
        create_all(get_engine())


class Sink:
    """Mail received by the script's SMTP server: Message-ID -> times received."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.with_pdf: set[str] = set()  # the Message-IDs received with a PDF attached
        self.total = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        import email
        from email import policy

        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        mid = str(msg["Message-ID"])
        self.ids[mid] = self.ids.get(mid, 0) + 1
        if any(part.get_content_type() == "application/pdf" and part.get_content().startswith(b"%PDF")
               for part in msg.iter_attachments()):
            self.with_pdf.add(mid)
        self.total += 1
        return "250 OK"


def start_smtp(port: int | None = None):  # type: ignore[no-untyped-def]
    from aiosmtpd.controller import Controller

    from tests.conftest import free_port

    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    controller.sink = sink
    return controller


def create_toys(app, count: int, rounds: int, prefix: str, hours: float = 1.0, now=None) -> list[int]:  # type: ignore[no-untyped-def]
    from app import turns
    from app.db import write_session

    ids = []
    with app.app_context():
        for i in range(count):
            with write_session() as session:
                made = turns.create_game(session, "toy", [f"{prefix}{i}a@example.org", f"{prefix}{i}b@example.org"],
                                         options={"rounds": rounds}, hours=hours, now=now)
                ids.append(made.game.id)
    return ids


def fork_processor(url: str, smtp_port: int, clock_file: str, ack_file: str, crash_p: float, seed: int,
                   final: bool = False) -> int:
    """Start ``processor`` in a forked child (modules already loaded: starts at once); its pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 0
    try:
        from app import db

        for engine in db._engines.values():  # the parent's connections are not ours
            engine.dispose(close=False)
        db._engines.clear()
        processor(url, smtp_port, clock_file, ack_file, crash_p, seed, quiet=True, final=final)
    except BaseException:  # noqa: BLE001
        import traceback

        traceback.print_exc()
        code = 3
    finally:
        os._exit(code)


def processor(url: str, smtp_port: int, clock_file: str, ack_file: str, crash_p: float, seed: int,
              quiet: bool = False, final: bool = False) -> None:
    """A processor process: submit some orders, resolve what is due at the next clock tick, deliver; repeat.

    The clock is a counter in ``clock_file`` (tick k resolves what is due at base + 2k hours,
    base lying in the past), so a restarted processor goes on where the killed one stopped;
    mail goes out on the real clock.  With ``final`` the last delivery looks past the
    10-minute lease a killed processor may have left on a mail (as waiting would).  Acknowledged orders (after
    commit) are appended to ``ack_file``.  With ``crash_p`` the process SIGKILLs itself at
    a resolution checkpoint with that probability, and at each checkpoint of building a
    resolved step's reports and mails after its commit (``app.mailjobs``).
    """
    import random
    from datetime import datetime

    from sqlmodel import Session, select

    from app import mailjobs, turns
    from app.db import get_engine
    from app.games import get_rules
    from app.mail import deliver_pending
    from app.models import Game, Seat

    # Kills here are the script's, not a game's fault: the limit after which a game that keeps
    # killing its processor is stopped (B13, tested in tests/reliability/test_turns.py) stays out.
    app = make_app(url, smtp_port=smtp_port, stub_pdf=True, MAX_ATTEMPTS=10**6)
    rnd = random.Random(seed)
    if crash_p:
        def checkpoint(_name: str) -> None:
            if rnd.random() < crash_p:
                os.kill(os.getpid(), signal.SIGKILL)

        turns.resolve._checkpoint = checkpoint
        mailjobs._checkpoint = checkpoint
    engine = get_engine(app)
    rules = get_rules("toy")
    if not quiet:
        print("ready", flush=True)
    with open(clock_file) as fh:
        base = datetime.fromisoformat(fh.readline().strip())
    while True:
        with open(clock_file) as fh:
            fh.readline()
            k = int(fh.readline().strip() or 0)
        with Session(engine) as s:
            running = s.exec(select(Game).where(Game.status == "running")).all()
            seats = {(x.game_id, x.seat): x for x in s.exec(select(Seat))}
        if not running:
            from app.models import utcnow

            with app.app_context():
                later = timedelta(minutes=11) if final else timedelta(0)
                while any(deliver_pending(app, now=utcnow() + later).values()):
                    pass
            if not quiet:
                print("done", flush=True)
            return
        with app.app_context():
            for game in running:
                for seat_id in sorted(game.owed):
                    if rnd.random() < 0.6:
                        order = {"type": "PICK", "n": rnd.randint(1, 3)}
                        try:
                            row, _ = turns.accept_order(engine, game.id, seats[(game.id, seat_id)].id, order,
                                                        step_no=game.step_no)
                        except (turns.StepClosed, Exception) as exc:  # noqa: BLE001
                            if not isinstance(exc, turns.StepClosed) and "Illegal" not in type(exc).__name__:
                                raise
                            break
                        with open(ack_file, "a") as ack:
                            ack.write(json.dumps([game.id, row.step_no, seat_id, order, row.id]) + "\n")
                            ack.flush()
                            os.fsync(ack.fileno())
            now = base + timedelta(hours=2 * (k + 1))
            turns.process_due(engine, now)
            deliver_pending(app)
        with open(clock_file + ".tmp", "w") as fh:
            fh.write(f"{base.isoformat()}\n{k + 1}\n")
        os.replace(clock_file + ".tmp", clock_file)
        _ = rules


def check_exactly_once(app, sink, game_ids: list[int], rounds: int, ack_file: str | None) -> tuple[dict, list[str]]:  # type: ignore[no-untyped-def]
    """Every step resolved once, no acknowledged order lost, every mail once (same id on resends)."""
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Event, Game, MailJob, Order, OutboxMail, Step
    from app.verify import replay_game

    problems: list[str] = []
    counts = {"games": len(game_ids), "steps_resolved": 0, "events": 0, "orders_acked": 0, "orders_web": 0,
              "mails_outbox": 0, "mails_received": 0, "mail_ids_received": 0, "resends_same_id": 0,
              "reports_with_pdf": 0}
    engine = get_engine(app)
    acked: dict[tuple[int, int, str], list] = {}
    if ack_file and os.path.exists(ack_file):
        for line in open(ack_file):
            if line.strip():
                g, step, seat, order, oid = json.loads(line)
                acked[(g, step, seat)] = [order, oid]
                counts["orders_acked"] += 1
    with Session(engine) as s, app.app_context():
        for gid in game_ids:
            game = s.get(Game, gid)
            if game.status != "finished":
                problems.append(f"game {gid} is {game.status} at step {game.step_no}")
                continue
            steps = s.exec(select(Step).where(Step.game_id == gid).order_by(Step.step_no)).all()
            resolved = [x for x in steps if x.resolved_at is not None]
            counts["steps_resolved"] += len(resolved)
            if len(resolved) != rounds or len(steps) != rounds + 1:
                problems.append(f"game {gid}: {len(resolved)} steps resolved of {rounds}")
            for step in resolved:
                rows = s.exec(select(Event).where(Event.game_id == gid, Event.step_no == step.step_no)).all()
                # the resolution's own events (seq >= 0); the platform's notices (seq -1: a seat handed to
                # auto-command after missed deadlines, ...) come on top, each once
                events = [e for e in rows if e.seq >= 0]
                notices = [(e.text, json.dumps(e.to)) for e in rows if e.seq < 0]  # (a seat's own notice: to it)
                counts["events"] += len(events)
                if len(events) != 3:
                    problems.append(f"game {gid} step {step.step_no}: {len(events)} events (3 expected)")
                if len(notices) != len(set(notices)):
                    problems.append(f"game {gid} step {step.step_no}: a notice logged twice: {sorted(notices)}")
                orders = s.exec(select(Order).where(Order.game_id == gid, Order.step_no == step.step_no)
                                .order_by(Order.id)).all()
                last = {}
                for o in orders:
                    last[o.seat] = o
                for seat, applied in (step.orders or {}).items():
                    if seat in last and last[seat].order != applied:
                        problems.append(f"game {gid} step {step.step_no} {seat}: applied order is not the last")
                    ack = acked.get((gid, step.step_no, seat))
                    if ack and ack[1] == (last[seat].id if seat in last else None) and ack[0] != applied:
                        problems.append(f"game {gid} step {step.step_no} {seat}: acknowledged order lost")
                    if ack and not any(o.id == ack[1] for o in orders):
                        problems.append(f"game {gid} step {step.step_no} {seat}: acknowledged order missing")
                counts["orders_web"] += sum(1 for o in orders if o.source == "web")
            report = replay_game(game, s)
            if not report.ok:
                problems.append(f"game {gid}: replay: {report.problems[:2]}")
        rows = s.exec(select(OutboxMail).where(OutboxMail.game_id.in_(game_ids))).all()  # type: ignore[attr-defined]
        left = s.exec(select(MailJob)).all()
    if left:
        problems.append(f"{len(left)} queued mails never built, e.g. game {left[0].game_id} step {left[0].step_no}")
    counts["mails_outbox"] = len(rows)
    expected = sum(2 * (1 + rounds) for _ in game_ids)
    if len(rows) != expected:
        problems.append(f"{len(rows)} mails in the outbox, {expected} expected")
    unsent = [r for r in rows if r.status != "sent"]
    if unsent:
        problems.append(f"{len(unsent)} mails not sent ({unsent[0].status}: {unsent[0].last_error[:80]})")
    received = sink.ids
    counts["mails_received"] = sum(received.values())
    counts["mail_ids_received"] = len(received)
    counts["resends_same_id"] = sum(n - 1 for n in received.values())
    missing = [r.message_id for r in rows if r.message_id not in received]
    if missing:
        problems.append(f"{len(missing)} mails never received, e.g. {missing[0]}")
    reports = [r for r in rows if r.report_id is not None]
    counts["reports_with_pdf"] = sum(1 for r in reports if r.message_id in sink.with_pdf)
    if not reports:
        problems.append("no mail in the outbox carries a report")
    without = [r.message_id for r in reports if r.message_id in received and r.message_id not in sink.with_pdf]
    if without:
        problems.append(f"{len(without)} report mails received without their PDF, e.g. {without[0]}")
    strangers = set(received) - {r.message_id for r in rows}
    if strangers:
        problems.append(f"{len(strangers)} received mails are not in the outbox")
    return counts, problems


def wait_line(proc, word: str, timeout: float = 60) -> bool:  # type: ignore[no-untyped-def]
    """Read the child's stdout until a line equal to ``word`` (False on EOF or timeout)."""
    import select as sel

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = sel.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            if not line:
                return False
            if line.strip() == word:
                return True
        elif proc.poll() is not None:
            return False
    return False


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "processor":
    processor(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6]), int(sys.argv[7]))


def postgres_url() -> str:
    """The PostgreSQL server to use: ``TEST_DATABASE_URL``, else one ``bin/start-postgres`` starts."""
    import subprocess

    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    out = subprocess.run([os.path.join(ROOT, "bin", "start-postgres")], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"FAIL bin/start-postgres failed: {out.stderr[-500:]}")
    return out.stdout.strip().splitlines()[-1]


def fresh_pg_database(base: str, name: str) -> str:
    """A new, empty database ``name`` on the server of ``base``; its URL."""
    from sqlalchemy.engine import make_url

    drop_pg_database(base, name)
    _pg_admin(base, f'CREATE DATABASE "{name}"')
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def drop_pg_database(base: str, name: str) -> None:
    _pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _pg_admin(base: str, sql: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    dsn = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql)
