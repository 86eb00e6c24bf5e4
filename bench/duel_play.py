"""Play N random games of Dorfromantik: The Duel and print games per second.

Usage: ``python bench/duel_play.py [N]`` (default 20).  Also prints the cost of
the placement-legality check (one full scan of every candidate cell and
rotation for one seat), measured on the states met during the games.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.driver import advance, random_orders, start  # noqa: E402
from app.games.duel import RULES  # noqa: E402
from app.games.duel.placement import grid_of, legal_placements  # noqa: E402


def main(n: int) -> None:
    samples = []
    steps = 0
    t0 = time.perf_counter()
    for i in range(n):
        game = start(RULES, {"forfeit_after": 0}, f"bench-{i}")
        while RULES.outcome(game.state) is None:
            if len(game.steps) % 10 == 0:
                samples.append(game.state)
            advance(RULES, game, random_orders(RULES, game))
        steps += len(game.steps)
    elapsed = time.perf_counter() - t0
    print(
        f"{n} games, {steps} turns in {elapsed:.2f} s: "
        f"{n / elapsed:.2f} games/s, {steps / elapsed:.1f} turns/s"
    )

    scans = checks = 0
    t1 = time.perf_counter()
    for state in samples:
        cur = state["current"]
        for seat in state["seats"]:
            grid = grid_of(state["areas"][seat])
            found = legal_placements(grid, cur["tile"], cur["marker"])
            scans += 1
            checks += len(found)
    cost = time.perf_counter() - t1
    print(
        f"legality scan (all cells x 6 rotations, one seat): {1000 * cost / max(scans, 1):.2f} ms "
        f"over {scans} scans, {checks / max(scans, 1):.1f} legal placements on average"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
