"""Concurrent submission on SQLite through a real threaded HTTP server.

    python tests/stress/concurrent_submit.py [--quick] [--waves N]

50 players (25 games, 2 seats, turns that wait for their deadline) send an
order at the same instant (a barrier), wave after wave; the last wave is an
invalid order, which must change nothing.  Checks: no 5xx, no "database is
locked" anywhere, every accepted order stored, and for every seat the order
that counts (stored and shown on the player's page as "the one that counts")
is the last valid one sent.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.stress._common import init_db, make_app  # noqa: E402


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):  # type: ignore[no-untyped-def]
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description="50 simultaneous submissions on SQLite")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--waves", type=int, default=None)
    parser.add_argument("--players", type=int, default=50)
    args = parser.parse_args()
    waves = args.waves or (4 if args.quick else 30)

    from sqlmodel import Session, select
    from werkzeug.serving import make_server

    from app import turns
    from app.db import get_engine, write_session
    from app.models import Order

    tmp = tempfile.mkdtemp(prefix="concurrent-")
    app = make_app(f"sqlite:///{tmp}/concurrent.sqlite")
    init_db(app)
    seats = []
    with app.app_context():
        for i in range(args.players // 2):
            with write_session() as session:
                made = turns.create_game(session, "toy", [f"s{i}a@example.org", f"s{i}b@example.org"],
                                         resolve_early=False, hours=48)
                seats += [(made.game.id, seat, token) for seat, token in made.links.items()]
    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger().addHandler(handler)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    opener = urllib.request.build_opener(_NoRedirect)
    barrier = threading.Barrier(len(seats))
    codes: dict[int, int] = {}
    bodies_with_locked = 0
    last_valid: dict[tuple[int, str], int] = {}
    shown: dict[tuple[int, str], str] = {}
    lock = threading.Lock()
    errors: list[str] = []

    def player(game_id: int, seat: str, token: str, seed: int) -> None:
        nonlocal bodies_with_locked
        rnd = random.Random(seed)
        page = urllib.request.urlopen(f"{base}/p/{token}", timeout=60).read().decode()
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        for wave in range(waves + 1):
            n = rnd.randint(1, 3) if wave < waves else 9  # the last wave: an illegal order
            data = urllib.parse.urlencode({"csrf_token": csrf, "step_no": "1", "form_index": "0",
                                           "n": str(n)}).encode()
            barrier.wait(120)
            try:
                resp = opener.open(f"{base}/p/{token}", data=data, timeout=120)
                code, body = resp.status, ""
            except urllib.error.HTTPError as exc:
                code, body = exc.code, exc.read().decode(errors="replace")
            except Exception as exc:  # noqa: BLE001
                with lock:
                    errors.append(repr(exc))
                continue
            with lock:
                codes[code] = codes.get(code, 0) + 1
                bodies_with_locked += "database is locked" in body
                if code == 303:
                    last_valid[(game_id, seat)] = n
        page = urllib.request.urlopen(f"{base}/p/{token}", timeout=60).read().decode()
        found = re.search(r'id="on-file".*?<code>([^<]*)</code>', page, re.S)
        with lock:
            shown[(game_id, seat)] = found.group(1) if found else ""

    started = time.monotonic()
    threads = [threading.Thread(target=player, args=(g, s, t, i)) for i, (g, s, t) in enumerate(seats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    server.shutdown()
    logging.getLogger().removeHandler(handler)
    with Session(get_engine(app)) as s:
        stored = s.exec(select(Order).where(Order.source == "web")).all()
        current = {}
        for row in sorted(stored, key=lambda r: r.id):
            current[(row.game_id, row.seat)] = row.order["n"]
    problems = []
    if errors:
        problems.append(f"{len(errors)} requests failed: {errors[0]}")
    if any(code >= 500 for code in codes):
        problems.append(f"server errors: {codes}")
    locked = sum("database is locked" in line for line in logged) + bodies_with_locked
    if locked:
        problems.append(f"'database is locked' seen {locked} times")
    if codes.get(303, 0) != len(seats) * waves or codes.get(422, 0) != len(seats):
        problems.append(f"answers {codes}, expected {len(seats) * waves} x 303 and {len(seats)} x 422")
    if len(stored) != codes.get(303, 0):
        problems.append(f"{len(stored)} orders stored for {codes.get(303, 0)} accepted")
    wrong = [k for k, n in last_valid.items() if current.get(k) != n or shown.get(k) != f"PICK {n}"]
    if wrong:
        problems.append(f"{len(wrong)} seats where the order that counts is not the last valid one")
    print(f"players={len(seats)} waves={waves} posts={sum(codes.values())} answers={codes} "
          f"stored={len(stored)} seconds={elapsed:.1f} database_locked={locked}")
    if problems:
        print("FAIL " + "; ".join(problems))
        return 1
    print(f"OK {len(seats)} simultaneous players x {waves} waves: no lock errors, no lost order, "
          f"the last valid order counts and is shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
