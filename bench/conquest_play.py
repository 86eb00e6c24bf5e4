"""Play N AI-vs-AI conquest games with 2, 4 and 6 seats; print games per second and average rounds.

Usage: python bench/conquest_play.py [N]   (default 10 games per seat count)

Every seat is a human seat driven by the spec's section 9 AI through the
public protocol (``ai_order``), so each order is validated and resolved like
a player's order.  Games use round_limit 50 (the quick-match default).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import get_rules  # noqa: E402
from app.games.base import bot_order  # noqa: E402
from app.games.driver import advance, start  # noqa: E402


def play(players: int, seed: str) -> tuple[int, int, str]:
    rules = get_rules("conquest")
    game = start(rules, {"players": players, "round_limit": 50}, seed)
    while rules.outcome(game.state) is None:
        orders = {}
        for seat in rules.owed(game.state):
            order = bot_order(rules, game.state, seat, None)
            rules.validate(game.state, seat, order)
            orders[seat] = order
        advance(rules, game, orders)
    return game.state["round"], len(game.steps), game.state["result"]["reason"]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for players in (2, 4, 6):
        t0 = time.perf_counter()
        rounds, steps, reasons = 0, 0, {}
        for i in range(n):
            r, s, why = play(players, f"bench-{players}-{i}")
            rounds, steps = rounds + r, steps + s
            reasons[why] = reasons.get(why, 0) + 1
        dt = time.perf_counter() - t0
        print(
            f"{players} seats: {n} games in {dt:.2f} s = {n / dt:.2f} games/s, "
            f"average {rounds / n:.1f} rounds, {steps / n:.0f} orders; endings {reasons}"
        )


if __name__ == "__main__":
    main()
