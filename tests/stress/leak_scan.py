"""Secret leak scan: every channel of every seat and of the public, in many seeded random games.

    python tests/stress/leak_scan.py [--quick] [--games N] [--steps N] [--only SLUG]

For every game (and a few player counts), N seeded random games (1,000;
--quick: 20) are played through the platform with random legal orders.  At
sampled steps (step 1 and one random step; keeping every step would take days)
the script reads, for each seat: its page, its order history, an error page
(a refused order), its latest PDF report (text, metadata, outline,
attachments), its mails (subject, headers, text and HTML bodies, the
attached PDF) and the JSON API (the seat with its whole log, in each language,
a refused order, a closed step); and for the public: the verify page, the JSON
export, the front page and the API's public game (and each player's home).  Private data is each game's
``secrets(state, seat)`` and the press between seats (each seat writes a marked message to the next at the
start: only its sender and recipient may see it); a secret
counts only if its owner can see it (the positive control, printed as
secrets_visible_to_owner); any other seat's or a public channel holding it is
a leak, and so is the seed before the end.  PDFs are read in the first game of
each game and option set and in every 50th after it (rendering is the slow part).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.stress._common import init_db, make_app  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description="secret leak scan")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None, help="games per game and option set")
    parser.add_argument("--steps", type=int, default=None, help="steps played per game at most")
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    per = args.games or (20 if args.quick else 1000)
    steps = args.steps or (4 if args.quick else 40)

    from tests.reliability.leakscan import GAME_OPTIONS, ScanResult, scan_game

    tmp = tempfile.mkdtemp(prefix="leak-scan-")
    app = make_app(f"sqlite:///{tmp}/leak.sqlite")
    init_db(app)
    client = app.test_client()
    total = ScanResult()
    started = time.monotonic()
    slugs = [args.only] if args.only else ["dual_powers", "conquest", "duel", "empire"]
    for slug in slugs:
        options = GAME_OPTIONS[slug] if not args.quick else GAME_OPTIONS[slug][:1]
        per_game = ScanResult()
        for opts in options:
            count = per if not args.quick else max(per // len(GAME_OPTIONS[slug][:1]) // 4, 1)
            for i in range(count):
                per_game.add(scan_game(app, client, slug, opts, f"leak-{slug}-{len(opts)}-{i}", max_steps=steps,
                                       samples=2, pdf=i % 50 == 0))
        print(f"{slug}: {per_game.line()} ({time.monotonic() - started:.0f}s)", flush=True)
        for leak in per_game.leaks[:10]:
            print("  LEAK " + leak)
        total.add(per_game)
    print(f"total: {total.line()}")
    if total.leaks:
        print(f"FAIL {len(total.leaks)} leaks")
        return 1
    if total.secrets_total and total.secrets_seen == 0:
        print("FAIL no secret was visible even to its owner: the scan cannot see anything")
        return 1
    print(f"OK {total.games} games, {total.channels} channels read, {total.pdfs} PDFs, {total.mails} mails: "
          f"no other seat's private data, no seed before the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
