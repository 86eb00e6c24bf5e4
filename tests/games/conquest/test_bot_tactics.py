"""The bot's tactics beyond the spec's AI, in constructed positions: guarding the border in round 1,
hunting the target colour or an abandoned seat, finishing off a colour down to its last territory."""

from __future__ import annotations

import random

from app.games.base import bot_order
from app.games.conquest import RULES

from .helpers import scenario, seat

WEST = ["GBR", "NOR", "FRA", "ITA", "POL"]  # Germany's neighbours but the Balkans


def _round_one_second():
    """Red (first in turn order) has placed 8 armies on France; Blue, second, places 3."""
    s = scenario(players=2, owners={"FRA": "Red", "ALA": "Red", "JAP": "Red"}, armies={"FRA": 8},
                 phase="MOBILISATION", round_=1, current="Blue")
    s["pools"] = {"G": 3}
    return s


def test_second_in_round_one_guards_each_territory_facing_the_enemy_stack():
    s = _round_one_second()
    order = bot_order(RULES, s, seat(s, "Blue"), None)
    assert order == {"type": "PLACE", "GBR": 1, "SPA": 1, "GER": 1}


def test_from_round_two_the_bot_masses_on_its_spearhead_again():
    s = _round_one_second()
    s["round"] = 2
    # spec 9.3: a third on the weak point facing France, the rest on the spearhead against Alaska
    assert bot_order(RULES, s, seat(s, "Blue"), None) == {"type": "PLACE", "GBR": 1, "WCA": 2}


def _germany(rest: list[str] | None = None):
    """Red's Germany (4 armies) faces Olive's Balkans (2) and five Blue territories of 1 army."""
    owners = {"GER": "Red", "BAL": "Olive", **{t: "Blue" for t in WEST}}
    s = scenario(players=3, owners=owners, armies={"GER": 4, "BAL": 2}, rest=rest)
    return s, seat(s, "Red")


def test_without_a_reason_the_bot_attacks_in_its_priority_theatre():
    s, red = _germany()
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-GBR"}  # Western Europe


def test_a_destruction_objective_strikes_the_target_first():
    s, red = _germany()
    s["objective"][red] = {"card": "O9", "goal": "O9", "converted": False}  # eliminate Olive
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-BAL"}


def test_an_abandoned_seat_is_hunted_before_it_grows():
    s, red = _germany()
    s["status"][seat(s, "Olive")] = "ABANDONED"
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-BAL"}


def test_a_colour_on_its_last_territory_is_finished_off():
    s, red = _germany(rest=["Blue"])  # Olive holds the Balkans only
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-BAL"}


def test_three_defenders_are_attacked_only_by_more_than_twice_as_many():
    owners = {"GER": "Red", "BAL": "Blue", **{t: "Blue" for t in WEST}}
    s = scenario(players=2, owners=owners, armies={"GER": 6, "BAL": 3, **{t: 3 for t in WEST}})
    red = seat(s, "Red")
    assert bot_order(RULES, s, red, None) == {"type": "END_OFFENSIVE"}  # the spec's margin of 2 would attack
    s["armies"]["GER"] = 7
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-GBR"}


def test_a_big_stack_rolls_many_times_in_one_order_while_the_odds_stay_good():
    owners = {"GER": "Red", "BAL": "Blue", **{t: "Blue" for t in WEST}}
    s = scenario(players=2, owners=owners, armies={"GER": 40, "BAL": 3, **{t: 3 for t in WEST}})
    red = seat(s, "Red")
    # 40 attackers against 3: before the 12th roll at most 33 are lost, 7 left: still twice as many plus one
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-GBR", "repeat": 12}
    s["armies"]["GER"] = 9
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-GBR"}


def test_an_ai_turn_of_thousands_of_armies_comes_to_its_end():
    """Germany's 9,000 armies face 2,500 in each neighbour: taking two of them takes thousands of rolls."""
    s = scenario(players=2, owners={"GER": "Red"}, armies={"GER": 9000, "BAL": 2500, **{t: 2500 for t in WEST}})
    red, blue = seat(s, "Red"), seat(s, "Blue")
    s["status"][red] = "FULL_AUTO"  # auto-command plays Red's whole turn
    new, _ = RULES.resolve(s, {red: {"type": "AUTO"}}, random.Random(3))
    assert new["current"] == blue
    assert len([t for t, o in new["owner"].items() if o == red]) >= 2
