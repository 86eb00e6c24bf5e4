"""Two processor processes against one PostgreSQL database: exactly-once resolution and mail.

    python tests/stress/two_processors_pg.py [--quick] [--games N] [--rounds N]

Uses ``TEST_DATABASE_URL`` (a PostgreSQL server URL) or starts PostgreSQL with
``bin/start-postgres``; creates a scratch database, 500 due games (--quick:
50), and runs two processor processes at once: both submit orders, resolve
every due step and deliver mail to an SMTP server in this script, until every
game ends.  Checks that every step was resolved exactly once (events, states
replayed from the seed), no acknowledged order was lost, and every mail was
sent and received exactly once.  PDF rendering is stubbed (mails are counted).
"""

from __future__ import annotations

import argparse
import os
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


def main() -> int:
    parser = argparse.ArgumentParser(description="two processors on PostgreSQL")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    games = args.games or (50 if args.quick else 500)
    rounds = args.rounds or 2

    base = postgres_url()
    name = f"pbem_stress_{os.getpid()}"
    url = fresh_pg_database(base, name)
    smtp = start_smtp()
    try:
        from datetime import timedelta

        from app.models import utcnow

        app = make_app(url, smtp_port=smtp.port, stub_pdf=True)
        init_db(app)
        started = time.monotonic()
        start = utcnow() - timedelta(days=60)  # the virtual clock of the turns runs in the past
        ids = create_toys(app, games, rounds, "pg", now=start)
        print(f"created {games} games in {time.monotonic() - started:.0f}s", flush=True)
        tmp = tempfile.mkdtemp(prefix="two-pg-")
        clock, ack = os.path.join(tmp, "clock.txt"), os.path.join(tmp, "acks.jsonl")
        with open(clock, "w") as fh:
            fh.write(f"{start.isoformat()}\n0\n")
        started = time.monotonic()
        procs = [subprocess.Popen([sys.executable, os.path.join(ROOT, "tests", "stress", "_common.py"), "processor",
                                   url, str(smtp.port), clock, ack, "0", str(seed)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in (1, 2)]
        outs = [p.communicate(timeout=3600) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            if p.returncode != 0 or "done" not in out:
                print(err[-3000:])
                print(f"FAIL a processor exited with {p.returncode}")
                return 1
        print(f"two processors finished in {time.monotonic() - started:.0f}s", flush=True)
        time.sleep(0.5)
        counts, problems = check_exactly_once(app, smtp.sink, ids, rounds, ack)
        from app.db import _engines

        for engine in _engines.values():
            engine.dispose()
    finally:
        smtp.stop()
        drop_pg_database(base, name)
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    if counts["resends_same_id"]:
        problems.append(f"{counts['resends_same_id']} mails sent twice (no process was killed)")
    if problems:
        for p in problems[:20]:
            print("  " + p)
        print(f"FAIL {len(problems)} deviations")
        return 1
    print(f"OK two processors, {games} games: {counts['steps_resolved']} steps resolved once, "
          f"{counts['mails_outbox']} mails sent once each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
