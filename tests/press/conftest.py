"""Fixtures for press, standing orders and the dashboard: a three-seat toy game."""

from __future__ import annotations

from app.games import IllegalOrder, register
from tests.platform.toygame import ToyRules


class Toy3Rules(ToyRules):
    """The toy for three seats, whose rules allow no press in round 2 (``press_allowed``) and no 3 in round 2."""

    slug = "toy3"
    title = "Toy Trio"

    def seats(self, options):
        return ["A", "B", "C"]

    def press_allowed(self, state):
        return state["round"] != 2

    def validate(self, state, seat, order):
        super().validate(state, seat, order)
        if state["round"] == 2 and order.get("n") == 3:
            raise IllegalOrder("3 is not allowed in round 2.")


register(Toy3Rules())
