"""The arena's random player: random legal orders, and it never abandons its seat."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from app.games import get_rules
from app.games.driver import start

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import arena  # noqa: E402


class _Dice(random.Random):
    """Dice whose first throws are zero (Conquest's random player then abandons), then ordinary."""

    def __init__(self, zeros: int) -> None:
        super().__init__(7)
        self.zeros = zeros

    def random(self) -> float:
        if self.zeros:
            self.zeros -= 1
            return 0.0
        return super().random()


def test_a_random_player_never_abandons_its_seat():
    """An abandoned seat is played by the game's AI from then on: the bot would meet itself, not random play."""
    rules = get_rules("conquest")
    game = start(rules, {"players": 4}, "arena-random")
    seat = sorted(rules.owed(game.state))[0]
    assert rules.random_order(game.state, seat, _Dice(1))["type"] == "ABANDON"  # what the game's own dice give
    order = arena.random_player_order(rules, game.state, seat, _Dice(3))
    assert order["type"] != "ABANDON"
    rules.validate(game.state, seat, order)  # still a legal order
