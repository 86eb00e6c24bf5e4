"""Play N random 4-player Empire games and print games and rounds per second.

Usage: python bench/empire_play.py [N]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import get_rules  # noqa: E402
from app.games.driver import play_random  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rules = get_rules("empire")
    start = time.perf_counter()
    rounds = steps = 0
    for i in range(n):
        game = play_random(rules, {"players": 4, "mode": "short"}, f"bench-{i}")
        rounds += game.state["round"]
        steps += len(game.steps)
    elapsed = time.perf_counter() - start
    print(f"{n} games, {rounds} rounds, {steps} steps in {elapsed:.2f} s: "
          f"{n / elapsed:.2f} games/s, {rounds / elapsed:.1f} rounds/s")


if __name__ == "__main__":
    main()
