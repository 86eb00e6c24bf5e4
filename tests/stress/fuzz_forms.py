"""Form endpoint fuzz at full size (RELIABILITY.md B32): 10,000 generated posts, 2,000 per game.

    python tests/stress/fuzz_forms.py [--quick] [--posts-per-game N] [--routes N]

Runs ``tests/reliability/test_fuzz.py::test_b32_form_endpoint_posts`` (valid,
forged and expired form tokens, wrong steps, every field of each prompt with
good and bad values, notation of any length, stray fields) for the toy game and
the four games with N posts each (default 2,000; --quick: 200).  Any 5xx, any
traceback, or an invalid post that changes the game fails it.  The test
command runs the same test with 400 posts per game.

Then ``tests/reliability/test_fuzz_routes.py`` (every other route: GM, settings,
league, pause, report, history) with ``--routes`` examples (default 5,000; --quick:
500; the test command runs 300).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    parser = argparse.ArgumentParser(description="form endpoint fuzz, full size")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--posts-per-game", type=int, default=None)
    parser.add_argument("--routes", type=int, default=None, help="examples of the every-route fuzz")
    args = parser.parse_args()
    per_game = args.posts_per_game or (200 if args.quick else 2000)
    routes = args.routes or (500 if args.quick else 5000)
    env = {**os.environ, "FUZZ_POSTS_PER_GAME": str(per_game)}
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(min(os.cpu_count() or 1, 5)),
         "tests/reliability/test_fuzz.py::test_b32_form_endpoint_posts"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    print("\n".join(lines[-15:]))
    games = 5
    if out.returncode != 0:
        print(f"FAIL form fuzz: pytest exit {out.returncode} ({per_game} posts per game)")
        return 1
    print(f"OK {per_game * games} posts ({per_game} per game, {games} games): no 5xx, no change from an invalid post "
          f"in {time.monotonic() - started:.0f} s")
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/reliability/test_fuzz_routes.py"],
        cwd=ROOT, env={**os.environ, "FUZZ_ROUTE_EXAMPLES": str(routes)}, capture_output=True, text=True,
    )
    if out.returncode != 0:
        print("\n".join(out.stdout.splitlines()[-30:]))
        print(f"FAIL route fuzz: pytest exit {out.returncode} ({routes} examples)")
        return 1
    print(f"OK {routes} generated requests over every route: no 5xx in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
