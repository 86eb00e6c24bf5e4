"""Crash loop: a processor killed with SIGKILL at random points, restarted each time.

    python tests/stress/crash_loop.py [--quick] [--kills N] [--games N] [--rounds N]

A processor process submits orders for the players, resolves every due step
of many games (a virtual clock moves two hours per tick) and delivers the
mail to an SMTP server in this script.  The script kills it with SIGKILL at a
random moment (and the processor also kills itself at random resolution
checkpoints, between a step's plan and its apply and inside the apply (``planned``,
``apply_before_commit``: ``app.turns.plan``), and at the checkpoints of building a
step's mails after its commit:
``after_step_commit``, ``build_before_write``, ``build_before_commit``,
``build_after_commit``), restarts it (forked from this script, so a restart
costs nothing), 200 times (--quick: 20), then lets it finish.
At the end: every step resolved exactly once (3 events each, states replay
from the seed), no acknowledged order lost (the applied order of a seat is its
last stored one), every mail in the outbox once and delivered, and any mail
received twice has the same Message-ID.  PDF rendering is stubbed in the
processor (this script counts mails; PDFs are covered by leak_scan.py and herd.py).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.stress._common import check_exactly_once, create_toys, fork_processor, init_db, make_app, start_smtp  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description="processor SIGKILL loop")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--kills", type=int, default=None)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kills = args.kills or (20 if args.quick else 200)
    games = args.games or (6 if args.quick else 40)
    rounds = args.rounds or (4 if args.quick else 12)
    rnd = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="crash-loop-")
    url = f"sqlite:///{tmp}/crash.sqlite"
    smtp = start_smtp()
    app = make_app(url, smtp_port=smtp.port, stub_pdf=True)
    init_db(app)
    from datetime import timedelta

    from app.models import utcnow

    base = utcnow() - timedelta(days=60)  # the virtual clock of the turns runs in the past
    game_ids = create_toys(app, games, rounds, "c", now=base)
    clock, ack = os.path.join(tmp, "clock.txt"), os.path.join(tmp, "acks.jsonl")
    with open(clock, "w") as fh:
        fh.write(f"{base.isoformat()}\n0\n")
    killed = clean_exits = 0
    started = time.monotonic()
    runs = 0
    while killed < kills:
        runs += 1
        pid = fork_processor(url, smtp.port, clock, ack, 0.03, rnd.randrange(10**9))
        time.sleep(rnd.uniform(0.05, 1.0))
        done, status = os.waitpid(pid, os.WNOHANG)
        if not done:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code == -signal.SIGKILL:
            killed += 1
        elif code != 0:
            print(f"FAIL the processor failed with exit code {code}")
            return 1
        else:
            clean_exits += 1
            # everything finished before the kill: more games, so that kills keep landing mid-work
            game_ids += create_toys(app, games, rounds, f"c{runs}-", now=base)
        if killed and killed % 20 == 0 and code == -signal.SIGKILL:
            print(f"kills={killed} runs={runs} games={len(game_ids)} elapsed={time.monotonic() - started:.0f}s",
                  flush=True)
    pid = fork_processor(url, smtp.port, clock, ack, 0.0, 7, final=True)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        print("FAIL the last, undisturbed run did not finish")
        return 1
    time.sleep(0.5)
    counts, problems = check_exactly_once(app, smtp.sink, game_ids, rounds, ack)
    smtp.stop()
    counts.update(kills=killed, runs=runs + 1, runs_that_finished=clean_exits)
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    if problems:
        for p in problems[:20]:
            print("  " + p)
        print(f"FAIL {len(problems)} deviations after {killed} kills")
        return 1
    print(f"OK {killed} kills: {counts['steps_resolved']} steps resolved once, "
          f"{counts['orders_acked']} acknowledged orders kept, {counts['mails_outbox']} mails delivered "
          f"({counts['resends_same_id']} resends, same Message-ID)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
