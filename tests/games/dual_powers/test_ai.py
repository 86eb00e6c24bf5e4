"""The greedy bot plays legal orders and beats random play."""

from __future__ import annotations

from app.games.base import bot_order, step_rng
from app.games.driver import advance, start
from app.games.dual_powers import RULES


def _play(options, seed, ai_seats):
    game = start(RULES, options, seed)
    while RULES.outcome(game.state) is None:
        step = len(game.steps) + 1
        orders = {}
        for seat in RULES.owed(game.state):
            rng = step_rng(seed, step, f"bot:{seat}")
            if seat in ai_seats:
                order = bot_order(RULES, game.state, seat, rng)
            else:
                order = RULES.random_order(game.state, seat, rng)
            RULES.validate(game.state, seat, order)
            assert RULES.parse(RULES.format(order)) == order
            orders[seat] = order
        advance(RULES, game, orders)
    return game.state


def test_greedy_bot_beats_random_play():
    wins = sum(_play({}, f"ai-{i}", {seat})["winner"] == seat
               for i, seat in enumerate(["SOV", "GOV", "SOV", "GOV"]))
    assert wins >= 3


def test_greedy_bot_plays_a_solo_game_to_the_end():
    state = _play({"solo": True, "difficulty": 1, "faction": "GOV"}, "ai-solo", {"GOV"})
    assert RULES.outcome(state) is not None
