"""Play N random two-player games and N random solo games of Dual Powers; print games per second.

Usage: python bench/dual_powers_play.py [N]   (default 20)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.driver import play_random  # noqa: E402
from app.games.dual_powers import RULES  # noqa: E402

CASES = {
    "two-player": {},
    "solo": {"solo": True, "difficulty": 3, "faction": "SOV"},
}


def main(n: int) -> None:
    for name, options in CASES.items():
        start = time.perf_counter()
        steps = 0
        wins: dict[str, int] = {}
        for i in range(n):
            game = play_random(RULES, options, f"bench-{name}-{i}")
            steps += len(game.steps)
            winner = game.state["winner"]
            wins[winner] = wins.get(winner, 0) + 1
        elapsed = time.perf_counter() - start
        print(f"{name}: {n} games in {elapsed:.2f} s = {n / elapsed:.1f} games/s, "
              f"{steps / max(n, 1):.1f} steps/game, winners {dict(sorted(wins.items()))}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
