"""Empire's planning bot keeping its upkeep paid and choosing its pacts, asked from its view and prompt."""

from __future__ import annotations

from tests.games.empire.helpers import lines, order_of, put, res, scenario, seat


def test_population_becomes_troops_only_as_far_as_next_rounds_gold_pays_them():
    st = scenario(2)
    st["phase"] = "T8"
    for n in range(1, 4):
        put(st, f"B-S{n}", 1)
    res(st, "BLUE", POP=6, GOLD=0, FOOD=6)
    recruits = sum(ln["n"] for ln in lines(order_of(st, "BLUE"), "ROUTE_TROOPS"))
    troops = 3 + recruits
    gold_next_round = 0 + (6 - recruits) + 2  # routed Pop, the centre's Gold
    assert gold_next_round >= troops, "every troop's upkeep is paid next round"
    res(st, "BLUE", POP=6, GOLD=20)
    assert sum(ln["n"] for ln in lines(order_of(st, "BLUE"), "ROUTE_TROOPS")) > recruits, "rich: more troops"


def test_short_of_upkeep_it_sells_a_surplus_at_the_market():
    st = scenario(2)
    st["phase"] = "T4"
    for n in range(1, 7):
        put(st, f"B-S{n}", 1)
    res(st, "BLUE", GOLD=1, WOOD=9, POP=1, FOOD=3)
    sold = lines(order_of(st, "BLUE"), "MARKET")
    assert sold and sold[0]["side"] == "SELL" and sold[0]["res"] == "WOOD"


def test_a_pact_is_accepted_from_a_threatening_neighbour_and_declined_from_a_distant_one():
    st = scenario(4)
    st["phase"] = "T3B"
    blue, green, red = seat(st, "BLUE"), seat(st, "GREEN"), seat(st, "RED")
    put(st, "B-S1", 1)
    put(st, "R-S1", 5)
    st["pact_props"] = [{"id": "R-PACT", "from": red, "to": blue, "province": 9},
                        {"id": "G-PACT", "from": green, "to": blue, "province": 4}]
    order = order_of(st, "BLUE")
    assert [ln["id"] for ln in lines(order, "ACCEPT_PACT")] == ["R-PACT"], "Red's troop stands next to Bluehold"
    assert [ln["id"] for ln in lines(order, "DECLINE_PACT")] == ["G-PACT"]


def test_a_small_realms_first_heavy_troop_is_bought_without_the_build_margin():
    """One province and no heavy troop: the Iron the heavy one lacks is bought with the Gold kept
    as a margin, and it is built; with a heavy troop already, the margin is kept."""
    st = scenario(4)
    st["phase"] = "T4"
    st["players"][seat(st, "BLUE")]["objectives"] = ["O1"]
    put(st, "B-S1", 1)
    put(st, "B-S2", 1)
    res(st, "BLUE", GOLD=6, IRON=2, WOOD=2, STONE=1, FOOD=5, POP=1)
    order = order_of(st, "BLUE")
    assert lines(order, "MARKET") == [{"op": "MARKET", "side": "BUY", "res": "IRON", "n": 1}]
    assert [ln["what"] for ln in lines(order, "BUILD")] == ["HEAVY"]
    del st["troops"]["B-S2"]
    put(st, "B-H1", 1)
    order = order_of(st, "BLUE")
    assert not lines(order, "MARKET") and not lines(order, "BUILD"), "2 Gold over the upkeep: the margin"


def test_a_builder_keeps_a_thinner_gold_margin_than_a_conqueror():
    """One Gold over the upkeep: enough for Fortress realm (O2), whose Gold buys its Walls' goods;
    Dominion (O1) sells a surplus to keep two."""
    st = scenario(2)
    st["phase"] = "T4"
    for n in range(1, 5):
        put(st, f"B-S{n}", 1)
    res(st, "BLUE", GOLD=5, WOOD=9, POP=1, FOOD=3)
    sold = {}
    for objective in ("O2", "O1"):
        st["players"][seat(st, "BLUE")]["objectives"] = [objective]
        sold[objective] = [ln["res"] for ln in lines(order_of(st, "BLUE"), "MARKET") if ln["side"] == "SELL"]
    assert sold == {"O2": [], "O1": ["WOOD"]}
