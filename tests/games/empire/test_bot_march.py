"""Empire's planning bot moving its troops (turn 4), asked as a player is: from its view and prompt."""

from __future__ import annotations

import random

from app.games.empire import RULES
from tests.games.empire.helpers import put, scenario, seat


def t4(players: int = 4, objective: str = "O1"):
    st = scenario(players)
    st["phase"] = "T4"
    for s in st["seats"]:
        st["players"][s]["objectives"] = [objective if s == seat(st, "BLUE") else "O2"]
    return st


def blue_order(st) -> dict:
    blue = seat(st, "BLUE")
    order = RULES.ai_order(RULES.view(st, blue), RULES.owed(st)[blue], random.Random(1))
    RULES.validate(st, blue, order)
    return order


def moves(order) -> dict[str, int]:
    return {ln["troop"]: ln["province"] for ln in order["lines"] if ln["op"] == "MOVE"}


def modes(order) -> dict[str, str]:
    return {ln["troop"]: ln["mode"] for ln in order["lines"] if ln["op"] == "MODE"}


def test_a_guard_stays_home_and_the_conquerors_spread_to_different_provinces():
    st = t4()
    for tid in ("B-S1", "B-S2", "B-S3"):
        put(st, tid, 1)
    order = blue_order(st)
    went = moves(order)
    assert len(went) == 2 and sorted(went.values()) == [2, 5], "one troop a neighbour, one stays home"
    assert all(modes(order)[t] == "CONQUEST" for t in went)


def test_a_troop_deep_in_its_own_land_walks_to_the_frontier():
    st = t4()
    for p in (2, 3, 5, 6):
        st["provinces"][str(p)]["owner"] = seat(st, "BLUE")
    put(st, "B-S1", 1)
    put(st, "B-S2", 1)
    assert moves(blue_order(st)) == {"B-S2": 5}, "Redhold (9) is the nearest province not held, by Westmarch"


def test_usurper_marches_on_the_centre_with_the_fewest_defenders():
    st = t4(objective="O4")
    put(st, "B-S1", 1)
    put(st, "B-S2", 2)
    st["provinces"]["2"]["owner"] = seat(st, "BLUE")
    put(st, "R-S1", 9)
    put(st, "R-S2", 9)
    assert moves(blue_order(st)) == {"B-S2": 3}, "Greenhold (4), unguarded, by Eastwood (3)"
    del st["troops"]["R-S2"], st["troops"]["R-S1"]
    put(st, "G-S1", 4)
    put(st, "G-S2", 4)
    assert moves(blue_order(st)) in ({"B-S2": 1}, {"B-S2": 6}), "now Redhold (9)"


def test_a_held_centre_is_stormed_with_one_heavy_troop_waiting_to_conquer():
    st = t4(objective="O4")
    put(st, "B-S1", 1)
    for tid in ("B-S2", "B-S3", "B-H1"):
        put(st, tid, 4, mode="CONQUEST")
    put(st, "G-S1", 4)
    order = blue_order(st)
    assert not moves(order)
    assert modes(order) == {"B-S2": "ATTACK", "B-S3": "ATTACK"}, "B-H1 keeps its Conquest mode"


def test_an_empty_province_not_held_is_taken_by_one_troop_and_the_others_walk_on():
    """Conquest is one roll a province whatever the number of troops: the heavy troop stays to
    take Westmarch (5), the simple ones go on to its free neighbours, one each."""
    st = t4()
    put(st, "B-S1", 1)
    put(st, "B-S2", 5, mode="ATTACK")
    put(st, "B-S3", 5, mode="DEFENCE")
    put(st, "B-H1", 5, mode="DEFENCE")
    order = blue_order(st)
    assert sorted(moves(order).values()) == [6, 9] and "B-H1" not in moves(order)
    assert modes(order) == {"B-S2": "CONQUEST", "B-S3": "CONQUEST", "B-H1": "CONQUEST"}


def test_with_no_free_neighbour_every_troop_stays_on_the_province_it_takes():
    st = t4()
    blue = seat(st, "BLUE")
    for p in (1, 6, 9):
        st["provinces"][str(p)]["owner"] = blue
    put(st, "B-S1", 1)
    put(st, "B-S2", 5, mode="ATTACK")
    put(st, "B-S3", 5, mode="DEFENCE")
    order = blue_order(st)
    assert not moves(order)
    assert modes(order) == {"B-S2": "CONQUEST", "B-S3": "CONQUEST"}


def test_a_usurper_leaves_a_troop_on_the_way_only_when_the_rest_outnumber_the_guards():
    """Every troop left behind to take a province on the way is one fewer at the centre: with
    two marching on an unguarded Greenhold (4), none stays on Eastwood (3); with four, one does
    and three go on (more than the guards by two).  At 4 players, where the homes lie closer,
    one stays whatever the number."""
    st = t4(players=4, objective="O4")
    put(st, "B-S1", 1)
    put(st, "B-S2", 3)
    put(st, "B-S3", 3)
    assert list(moves(blue_order(st)).values()) == [4], "at 4 players, one of them takes Eastwood"
    st = t4(players=3, objective="O4")
    put(st, "B-S1", 1)
    put(st, "B-S2", 3)
    put(st, "B-S3", 3)
    assert moves(blue_order(st)) == {"B-S2": 4, "B-S3": 4}, "both go on to Greenhold"
    put(st, "B-S4", 3)
    put(st, "B-S5", 3)
    order = blue_order(st)
    assert sorted(moves(order).values()) == [4, 4, 4]
    stays = ({"B-S2", "B-S3", "B-S4", "B-S5"} - set(moves(order))).pop()
    assert modes(order)[stays] == "CONQUEST", "the fourth takes Eastwood"


def test_on_the_way_to_the_heartland_one_troop_stays_to_take_the_province_and_the_other_marches_on():
    st = t4(objective="O8")
    put(st, "B-S1", 1)
    put(st, "B-S2", 2)
    put(st, "B-S3", 2)
    order = blue_order(st)
    assert list(moves(order).values()) == [6], "one of them goes on to Westgold"
    stays = ({"B-S2", "B-S3"} - set(moves(order))).pop()
    assert modes(order)[stays] == "CONQUEST", "the other takes Westwood"


def test_the_home_guard_is_a_simple_troop_and_the_heavy_one_goes_out_to_conquer():
    st = t4()
    put(st, "B-H1", 1)
    put(st, "B-S1", 1)
    assert list(moves(blue_order(st))) == ["B-H1"], "a heavy troop adds 1 to the conquest roll"


def test_with_enemies_next_to_home_the_heavy_troop_still_goes_out_and_a_simple_one_guards():
    st = t4()
    put(st, "B-H1", 1)
    put(st, "B-S1", 1)
    put(st, "Y-S1", 2)
    order = blue_order(st)
    assert "B-H1" in moves(order) and "B-S1" not in moves(order), "only simple troops guard"
    del st["troops"]["B-S1"]
    assert "B-H1" not in moves(blue_order(st)), "with no simple troop at home, the heavy one guards"


def test_dominion_and_heartland_build_heavy_troops_to_conquer_faster():
    for objective, first in (("O1", "HEAVY"), ("O8", "HEAVY"), ("O3", "INF")):
        st = t4(objective=objective)
        put(st, "B-S1", 1)
        put(st, "B-H1", 1)  # a conqueror already, so Prosperity builds its Infrastructure
        st["players"][seat(st, "BLUE")]["res"].update(GOLD=9, WOOD=5, STONE=5, IRON=5, FOOD=5, POP=1)
        built = [ln["what"] for ln in blue_order(st)["lines"] if ln["op"] == "BUILD"]
        assert built == [first], objective


def test_a_small_realm_without_a_heavy_troop_builds_a_conqueror_whatever_its_objective():
    """On two provinces or fewer with no heavy troop, a heavy one first (+1 to every conquest
    roll); with three provinces, or once it has one, the objective's build again."""
    for objective in ("O2", "O3", "O6"):
        st = t4(objective=objective)
        blue = seat(st, "BLUE")
        put(st, "B-S1", 1)
        st["players"][blue]["res"].update(GOLD=9, WOOD=5, STONE=5, IRON=5, FOOD=5, POP=1)
        st["provinces"]["2"]["owner"] = blue
        built = [ln["what"] for ln in blue_order(st)["lines"] if ln["op"] == "BUILD"]
        assert built == ["HEAVY"], objective
        st["provinces"]["5"]["owner"] = blue
        built = [ln["what"] for ln in blue_order(st)["lines"] if ln["op"] == "BUILD"]
        assert built != ["HEAVY"], objective
