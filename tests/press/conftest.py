"""Fixtures for press, standing orders and the dashboard: a three-seat toy game."""

from __future__ import annotations

from app.games import register
from tests.platform.toygame import ToyRules


class Toy3Rules(ToyRules):
    """The toy for three seats, whose rules allow no press in round 2 (``press_allowed``)."""

    slug = "toy3"
    title = "Toy Trio"

    def seats(self, options):
        return ["A", "B", "C"]

    def press_allowed(self, state):
        return state["round"] != 2


register(Toy3Rules())
