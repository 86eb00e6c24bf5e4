"""A golden playthrough: a seeded 2-player game's orders and public log.

Regenerate after an intended change with ``EMPIRE_REGOLD=1 pytest tests/games/empire``.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.games.driver import advance, random_orders, start
from app.games.empire import RULES

GOLDEN = Path(__file__).parent / "playthroughs" / "two_players_seed_gold.txt"


def _transcript() -> str:
    game = start(RULES, {"players": 2, "mode": "short", "round_limit": 2}, "gold")
    lines = []
    while RULES.outcome(game.state) is None:
        lines.append(f"== {RULES.turn_key(game.state)}")
        orders = random_orders(RULES, game)
        for seat, order in sorted(orders.items()):
            lines.append(f"{seat} > {RULES.format(order)}")
        for event in advance(RULES, game, orders):
            who = "all" if event["to"] is None else ",".join(event["to"])
            lines.append(f"[{who}] {RULES.text.english(event['text'])}")
    lines.append(f"== outcome {RULES.outcome(game.state)}")
    return "\n".join(lines) + "\n"


def test_two_player_playthrough_matches_golden_log():
    text = _transcript()
    if os.environ.get("EMPIRE_REGOLD") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
