"""The section 9 AI: trade, placement, attack, advance and regroup choices."""

from __future__ import annotations

from app.games.base import bot_order
from app.games.conquest import RULES, bot
from app.games.driver import advance, start

from .helpers import Dice, play, scenario, seat


def _west():
    s = scenario(players=2, owners={"FRA": "Red", "SPA": "Red", "GER": "Red"}, armies={"ITA": 5}, phase="MOBILISATION")
    s["pools"] = {"G": 3}
    return s


def test_placement_splits_between_spearhead_and_weak_point():
    s = _west()
    red = seat(s, "Red")
    assert bot.priority_set(s, red) == ["WE"]
    assert bot.choose_placement(s, red) == {"FRA": 2, "GER": 1}
    assert bot_order(RULES, s, red, None) == {"type": "PLACE", "FRA": 2, "GER": 1}


def test_attack_needs_a_margin_of_two_and_takes_the_most_wanted_target():
    s, _ = play(_west(), "Red", {"type": "PLACE", "FRA": 2, "GER": 1})
    red = seat(s, "Red")
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "FRA-GBR"}
    s["armies"]["FRA"] = 2
    assert bot.choose_attack(s, red) is None
    assert bot_order(RULES, s, red, None) == {"type": "END_OFFENSIVE"}


def test_advance_keeps_the_origin_safe():
    s = scenario(players=2, owners={"FRA": "Red", "GBR": "Red"}, armies={"FRA": 5, "GBR": 1, "ITA": 5})
    red = seat(s, "Red")
    s["pending"] = {"from": "FRA", "to": "GBR", "d": 2}
    assert bot.choose_advance(s, red) == 1
    s["armies"]["ITA"] = 1
    assert bot.choose_advance(s, red) == 2


def test_regroup_moves_inland_armies_to_the_most_threatened_front():
    owners = {t: "Red" for t in ["ALA", "WCA", "ECA", "WUS"]}
    s = scenario(players=2, owners=owners, armies={"WCA": 5}, phase="REGROUP")
    red = seat(s, "Red")
    s["moves_left"] = {t: s["armies"][t] for t in owners}
    assert bot.distances(s, red)["WCA"] == 1
    assert bot_order(RULES, s, red, None) == {"type": "MOVE", "pair": "WCA-ECA", "count": 4}
    s2, _ = play(s, "Red", bot_order(RULES, s, red, None))
    assert bot_order(RULES, s2, red, None) == {"type": "END_TURN"}


def test_trade_prefers_no_jokers_and_a_pictured_territory():
    s = scenario(players=2, owners={"WCA": "Red"}, phase="MOBILISATION")
    red = seat(s, "Red")
    s["hands"][red] = ["c1", "c2", "c3", "c43", "c4"]
    order = bot.choose_trade(s, red)
    assert order["cards"] == ["c1", "c2", "c3"] and order["bonus"] == "WCA"


def test_ai_uses_no_random_numbers_and_games_replay():
    game = start(RULES, {"players": 3, "ai_seats": 2, "round_limit": 30}, "ai")
    twin = start(RULES, {"players": 3, "ai_seats": 2, "round_limit": 30}, "ai")
    for _ in range(60):
        if RULES.outcome(game.state) is not None:
            break
        seat_ = next(iter(RULES.owed(game.state)))
        order = bot_order(RULES, game.state, seat_, None)
        assert order == bot_order(RULES, twin.state, seat_, Dice())
        advance(RULES, game, {seat_: order})
        advance(RULES, twin, {seat_: order})
    assert game.state == twin.state
