"""Fair seats: where the rules draw seats, colours or the first player, the game's seeded rng draws them.

Empire (spec 3.2: "the engine draws seats at random"; seat 1 is Blue and plays first) and
Conquest (spec 4.4: turn order and colours are shuffled) draw them; the Duel's colours have
no rules effect and Dual Powers' sides are chosen at creation.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from app.games import get_rules
from app.games.conquest.state import compute_pools
from app.games.driver import advance, ai_orders, start


def _empire_draw(players: int, seed: str) -> tuple[tuple[str, ...], str, dict[str, str]]:
    state = start(get_rules("empire"), {"players": players}, seed).state
    return tuple(state["seats"]), state["first"], dict(state["colour"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_empire_every_seat_order_occurs_and_the_first_seat_is_blue_and_plays_first(players):
    seen = set()
    for i in range(40 * players * players):
        order, first, colour = _empire_draw(players, f"seats-{i}")
        assert first == order[0] and colour[first] == "BLUE"
        seen.add(order)
    seats = [f"P{i}" for i in range(1, players + 1)]
    assert seen == set(permutations(seats)), "every seat order is drawn"


def test_empire_the_same_seed_draws_the_same_seats():
    assert _empire_draw(4, "same") == _empire_draw(4, "same")
    assert len({_empire_draw(4, f"s{i}")[0] for i in range(20)}) > 1


def _conquest_draw(players: int, seed: str) -> tuple[tuple[str, ...], dict[str, str]]:
    state = start(get_rules("conquest"), {"players": players}, seed).state
    return tuple(state["order"]), dict(state["colour"])


def test_conquest_every_turn_order_occurs_and_colours_are_drawn():
    orders, colours_of_p1 = set(), set()
    for i in range(300):
        order, colour = _conquest_draw(3, f"seats-{i}")
        orders.add(order)
        colours_of_p1.add(colour["P1"])
    assert orders == set(permutations(["P1", "P2", "P3"]))
    assert len(colours_of_p1) == 6
    assert _conquest_draw(4, "same") == _conquest_draw(4, "same")


def test_conquest_balance_gives_the_second_of_two_commanders_more_armies_in_round_one():
    rules = get_rules("conquest")
    for balance, extra in ((False, 0), (True, 5)):
        game = start(rules, {"players": 2, "balance": balance}, "balance")
        first, second = game.state["order"]
        assert game.state["current"] == first and game.state["pools"] == {"G": 10}
        while game.state["current"] == first:  # the first commander places his 10
            advance(rules, game, ai_orders(rules, game))
        assert game.state["round"] == 1 and game.state["pools"] == {"G": 10 + extra}
    three = start(rules, {"players": 3, "balance": True}, "balance").state
    assert all(compute_pools(three, s)["G"] == 7 for s in three["order"])
    with pytest.raises(ValueError, match="true or false"):
        rules.check_options({"players": 2, "balance": "maybe"})
