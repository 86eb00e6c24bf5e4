"""SMTP outage: the mail server is down for a whole run of turns, then comes back.

    python tests/stress/smtp_outage.py [--quick] [--games N] [--rounds N]

Games are played to their end (orders from the players, deadlines passing on a
virtual clock) while the SMTP port refuses connections: every turn must
resolve and every mail stay pending.  Then an SMTP server starts on that port
and the outbox drains: every mail is delivered exactly once, with its PDF
report (rendered for real).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.stress._common import create_toys, init_db, make_app, start_smtp  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description="turns through an SMTP outage")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    games = args.games or (3 if args.quick else 40)
    rounds = args.rounds or (2 if args.quick else 6)

    from sqlmodel import Session, select

    from app import turns
    from app.db import get_engine
    from app.mail import deliver_pending
    from app.models import Game, OutboxMail, Seat, utcnow
    from tests.conftest import free_port

    port = free_port()  # nothing listens here until the outage ends
    tmp = tempfile.mkdtemp(prefix="smtp-outage-")
    app = make_app(f"sqlite:///{tmp}/outage.sqlite", smtp_port=port)
    init_db(app)
    engine = get_engine(app)
    ids = create_toys(app, games, rounds, "o")
    rnd = random.Random(3)
    now = utcnow()
    sent_during = deferred = ticks = 0
    with app.app_context():
        while True:
            with Session(engine) as s:
                running = s.exec(select(Game).where(Game.status == "running")).all()
                seats = {(x.game_id, x.seat): x.id for x in s.exec(select(Seat))}
            if not running or ticks > rounds * 4:
                break
            for game in running:
                for seat in sorted(game.owed):
                    if rnd.random() < 0.5:
                        turns.accept_order(engine, game.id, seats[(game.id, seat)], {"type": "PICK",
                                           "n": rnd.randint(1, 3)}, step_no=game.step_no)
            now += timedelta(hours=2)
            turns.process_due(engine, now)
            counts = deliver_pending(app, now=now)
            sent_during += counts["sent"]
            deferred += counts["deferred"]
            ticks += 1
        with Session(engine) as s:
            unfinished = [g.id for g in s.exec(select(Game)) if g.status != "finished"]
            pending = s.exec(select(OutboxMail).where(OutboxMail.status == "pending")).all()
        print(f"outage: games={games} ticks={ticks} unfinished={len(unfinished)} mails_pending={len(pending)} "
              f"delivery_attempts_deferred={deferred} sent={sent_during}")
        smtp = start_smtp(port)
        started = time.monotonic()
        rounds_after = 0
        later = now + timedelta(hours=5)
        while rounds_after < 50:
            counts = deliver_pending(app, now=later)
            rounds_after += 1
            if not any(counts.values()):
                break
        smtp.stop()
        with Session(engine) as s:
            rows = s.exec(select(OutboxMail)).all()
    received = smtp.sink.ids
    problems = []
    if unfinished:
        problems.append(f"{len(unfinished)} games did not finish during the outage")
    if sent_during:
        problems.append(f"{sent_during} mails sent while the server was down")
    expected = len(ids) * 2 * (1 + rounds)
    if len(rows) != expected:
        problems.append(f"{len(rows)} mails in the outbox, {expected} expected")
    if any(r.status != "sent" for r in rows):
        problems.append(f"{sum(r.status != 'sent' for r in rows)} mails not sent after the outage")
    twice = [m for m, n in received.items() if n != 1]
    if twice:
        problems.append(f"{len(twice)} mails received more than once")
    if set(received) != {r.message_id for r in rows}:
        problems.append("the mails received are not the outbox's")
    print(f"after: delivered={smtp.sink.total} distinct={len(received)} outbox={len(rows)} "
          f"drain_rounds={rounds_after} drain_seconds={time.monotonic() - started:.1f}")
    if problems:
        print("FAIL " + "; ".join(problems))
        return 1
    print(f"OK {games} games resolved during the outage; {len(rows)} mails delivered once each afterwards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
