"""The Duel's bot takes the placement a player would take in positions where one is clearly best.

Each position is built from legal placements (the spec's scenarios of §9); the bot decides
through the platform's door (``bot_order``: the seat's view and prompt only), and its order is
then applied as at resolution to see what it did to the scoring pad.
"""

from __future__ import annotations

import random

from app.games.base import bot_order
from app.games.duel import RULES
from app.games.duel.placement import score
from tests.games.duel.helpers import S1, build, game_with, place_into


def bot_places(area, tile, marker=None, *, last_tile=False, seed=0):
    """Let the bot place ``tile`` in ``area`` (RED's) and return the area after it, evaluated."""
    state = game_with(area, None, tile, marker)
    if last_tile:
        state["land_stack"] = []
    order = bot_order(RULES, state, "RED", random.Random(seed))
    RULES.validate(state, "RED", order)
    assert order["type"] == "PLACE"
    q, r = order["position"].split(",")
    after = state["areas"]["RED"]
    place_into(after, f"{tile}@({q},{r})/{order['rotation']}" + (f":{marker}" if marker else ""))
    return after


def test_bot_places_a_task_where_it_completes_at_once():
    # S1 is an open forest of 4: T01 with FOR-5 completes at once at (0,1)/0 (scenario 5).
    for seed in range(3):
        after = bot_places(build(*S1), "T01", "FOR-5", seed=seed)
        assert after["completed"] == ["FOR-5"] and not after["active"]


def test_bot_brings_an_active_task_to_its_number():
    # S1 + T01 with FOR-6: the forest holds 5; L10's forest edges reach 6 (scenario 8).
    for seed in range(3):
        after = bot_places(build(*S1, "T01@(0,1)/0:FOR-6"), "L10", seed=seed)
        assert after["completed"] == ["FOR-6"]


def test_bot_does_not_cancel_its_own_task():
    # Scenario 9: L12@(-1,1)/1 would join L01 and L02 and cancel FOR-6 (forest of 7).
    for seed in range(3):
        after = bot_places(build(*S1, "L02@(-2,1)/0", "T01@(0,1)/0:FOR-6"), "L12", seed=seed)
        assert "FOR-6" not in after["cancelled"]


def test_bot_closes_its_flagged_village_with_the_last_tile():
    # Scenario 15: the red flag's village of 3 is open only towards (1,0); no tile comes after this one.
    area = build("L05@(0,0)/0", "L22@(0,-1)/2", "L14@(1,-1)/0")
    assert score(area)["C"] == 0
    for seed in range(3):
        after = bot_places(build("L05@(0,0)/0", "L22@(0,-1)/2", "L14@(1,-1)/0"), "L23", last_tile=True, seed=seed)
        assert score(after)["C"] == 3


def test_bot_lengthens_its_rail_rather_than_starting_another():
    # L25 at the origin has rail ends north and south; L26 can carry the rail on or lie apart.
    for seed in range(3):
        after = bot_places(build("L25@(0,0)/0", "L07@(1,0)/0"), "L26", seed=seed)
        assert score(after)["D"] == 2
