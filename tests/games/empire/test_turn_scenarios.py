"""Spec §8 scenarios T13-T21 and T23: maintenance, tribute, orders, trades, routing, victory."""

from __future__ import annotations

import pytest

from app.games.base import IllegalOrder
from app.games.empire import RULES
from app.games.empire.phases import after_routing, end_round, maintenance

from .helpers import ScriptedRng, control, english, put, res, scenario, seat, stock, texts


def _t13_state():
    st = scenario()
    st["phase"] = "T7"
    for i in range(1, 6):
        put(st, f"G-S{i}", 4)
    put(st, "G-H1", 8)
    res(st, "GREEN", POP=5, FOOD=3, GOLD=4)
    maintenance(st)
    return st


def test_t13_maintenance_shortfall_neighbour_chooses_then_default_rule():
    st = _t13_state()
    assert stock(st, "GREEN")["POP"] == 3 and stock(st, "GREEN")["GOLD"] == 0
    assert st["phase"] == "T7A" and list(RULES.owed(st)) == ["P2"]
    st, _ = RULES.resolve(st, {}, ScriptedRng())  # Green misses 7A
    assert st["phase"] == "T7B" and list(RULES.owed(st)) == ["P3"]  # Yellow, Green's right
    order = RULES.parse("LOSE-FOR GREEN G-H1 G-S1")
    RULES.validate(st, "P3", order)
    done, _ = RULES.resolve(st, {"P3": order}, ScriptedRng())
    assert {"G-H1", "G-S1"}.isdisjoint(done["troops"]) and done["phase"] == "T8"
    assert {"G-S2", "G-S3", "G-S4", "G-S5"} <= set(done["troops"])
    missed, _ = RULES.resolve(st, {}, ScriptedRng())  # Yellow misses too
    assert {"G-S5", "G-S4"}.isdisjoint(missed["troops"]) and "G-H1" in missed["troops"]
    with pytest.raises(IllegalOrder, match="E701"):
        RULES.validate(st, "P3", RULES.parse("LOSE-FOR GREEN G-H1"))


def test_t14_harsh_winter_and_standing_losses_order():
    st = scenario()
    for i in (1, 2, 3):
        put(st, f"B-S{i}", 1)
    pl = st["players"][seat(st, "BLUE")]
    pl["effects"], pl["losses"] = ["S15"], ["B-S2"]
    res(st, "BLUE", POP=2, FOOD=3, GOLD=2)
    maintenance(st)
    assert stock(st, "BLUE")["FOOD"] == 0 and stock(st, "BLUE")["POP"] == 1
    assert "B-S2" not in st["troops"] and st["phase"] == "T8"
    assert set(RULES.owed(st)) == {"P1", "P2", "P3", "P4"}


def test_t15_tribute_substitution_order_and_default():
    st = scenario()
    st["phase"], st["tribute"] = "T8", "IRON"
    res(st, "BLUE", IRON=1)
    res(st, "GREEN", GOLD=2, POP=4)
    res(st, "YELLOW", POP=3)
    res(st, "RED", FOOD=3, WOOD=1)
    after_routing(st, ScriptedRng())
    assert stock(st, "BLUE")["IRON"] == 0
    assert stock(st, "GREEN")["GOLD"] == 1 and stock(st, "GREEN")["POP"] == 4
    assert stock(st, "YELLOW")["POP"] == 2
    assert st["phase"] == "T9" and list(RULES.owed(st)) == ["P4"]
    default = RULES.default_order(st, "P4", ScriptedRng())
    assert RULES.format(default) == "PAY: PAY FOOD FOOD"
    RULES.validate(st, "P4", default)
    _, events = RULES.resolve(st, {}, ScriptedRng())
    assert "RED pays tribute: 1 Food and 1 Food." in texts(events)
    only_wood = scenario()
    only_wood["phase"], only_wood["tribute"] = "T8", "IRON"
    res(only_wood, "RED", WOOD=1)
    after_routing(only_wood, ScriptedRng())
    assert stock(only_wood, "RED")["WOOD"] == 0 and "P4" not in only_wood["pay_window"]


def test_t16_free_tribute_preference_unpayable_default_and_e901():
    st = scenario()
    st["phase"], st["tribute"] = "T8", "FREE"
    green = st["players"][seat(st, "GREEN")]
    green["pref"] = {"free": "STONE"}
    res(st, "GREEN", FOOD=2, WOOD=2, IRON=1)
    st["players"][seat(st, "YELLOW")]["effects"] = ["S14"]
    res(st, "YELLOW", GOLD=1, FOOD=2)
    after_routing(st, ScriptedRng())
    assert set(RULES.owed(st)) == {"P2", "P3"} and st["pay_window"] == {"P2": 1, "P3": 2}
    assert RULES.format(RULES.default_order(st, "P2", ScriptedRng())) == "PAY: PAY FOOD"
    with pytest.raises(IllegalOrder, match="E901") as err:
        RULES.validate(st, "P3", RULES.parse("PAY GOLD; PAY GOLD"))
    assert "E007" in str(err.value)
    RULES.validate(st, "P3", RULES.parse("PAY GOLD; PAY FOOD"))


def _t17_state():
    st = scenario()
    st["phase"] = "T4"
    put(st, "B-S1", 2)
    put(st, "B-S2", 1)
    put(st, "R-S1", 6)
    put(st, "R-S2", 9)
    for colour in ("BLUE", "RED"):
        res(st, colour, GOLD=10, FOOD=10)
    return st


def test_t17_simultaneous_moves_swap_without_fighting():
    st = _t17_state()
    with pytest.raises(IllegalOrder) as err:
        RULES.validate(st, "P1", RULES.parse("MOVE B-S1 6; MOVE B-S2 6"))
    assert "E007" in str(err.value) and "E413" in str(err.value)
    blue = RULES.parse("MOVE B-S1 6; MOVE B-S2 5")
    red = RULES.parse("MOVE R-S1 2; MOVE R-S2 5")
    RULES.validate(st, "P1", blue)
    RULES.validate(st, "P4", red)
    rng = ScriptedRng()
    new, events = RULES.resolve(st, {"P1": blue, "P4": red}, rng)
    where = {t: v["province"] for t, v in new["troops"].items()}
    assert where == {"B-S1": 6, "B-S2": 5, "R-S1": 2, "R-S2": 5}
    assert "attacks" not in texts(events) and rng.fate == []


def test_t18_open_offer_acceptance_priority_left_first():
    st = scenario()
    res(st, "GREEN", WOOD=2)
    res(st, "RED", IRON=1)
    res(st, "YELLOW", IRON=1)
    st, _ = RULES.resolve(st, {"P2": RULES.parse("OFFER GIVE 2 WOOD GET 1 IRON")}, ScriptedRng())
    assert set(RULES.owed(st)) == {"P1", "P3", "P4"}
    answers = {"P1": RULES.parse("DECLINE OFFER G-O1"), "P4": RULES.parse("ACCEPT OFFER G-O1"),
               "P3": RULES.parse("ACCEPT OFFER G-O1")}
    new, events = RULES.resolve(st, answers, ScriptedRng())
    assert stock(new, "RED")["WOOD"] == 2 and stock(new, "YELLOW")["IRON"] == 1
    assert len(new["players"]["P2"]["trade"]) == 1 and new["players"]["P4"]["trade"] == ["P2"]
    taken = [e for e in events if "taken by RED" in english(e["text"])]
    assert taken and taken[0]["to"] == ["P3"]


def test_t18_variant_earlier_offer_leaves_red_short():
    st = scenario()
    res(st, "GREEN", WOOD=2)
    res(st, "BLUE", FOOD=1)
    res(st, "RED", IRON=1)
    res(st, "YELLOW", IRON=1)
    st, _ = RULES.resolve(st, {"P1": RULES.parse("OFFER GIVE 1 FOOD GET 1 IRON TO RED"),
                               "P2": RULES.parse("OFFER GIVE 2 WOOD GET 1 IRON")}, ScriptedRng())
    answers = {"P4": RULES.parse("ACCEPT OFFER B-O1; ACCEPT OFFER G-O1"),
               "P3": RULES.parse("ACCEPT OFFER G-O1")}
    new, _ = RULES.resolve(st, answers, ScriptedRng())
    assert stock(new, "RED")["IRON"] == 0 and stock(new, "RED")["FOOD"] == 1
    assert stock(new, "YELLOW")["WOOD"] == 2 and stock(new, "GREEN")["IRON"] == 1


def test_t19_second_offer_fails_proposer_lacks_resources():
    st = scenario()
    res(st, "BLUE", FOOD=4)
    res(st, "RED", IRON=1)
    res(st, "GREEN", STONE=1)
    st, _ = RULES.resolve(st, {"P1": RULES.parse("OFFER GIVE 3 FOOD GET 1 IRON; "
                                                 "OFFER GIVE 3 FOOD GET 1 STONE")}, ScriptedRng())
    new, events = RULES.resolve(st, {"P4": RULES.parse("ACCEPT OFFER B-O1"),
                                     "P2": RULES.parse("ACCEPT OFFER B-O2")}, ScriptedRng())
    assert stock(new, "BLUE")["FOOD"] == 1 and stock(new, "BLUE")["IRON"] == 1
    assert "BLUE's offer (3 Food for 1 Stone) fails: BLUE lacks the resources." in texts(events)
    assert len(new["players"]["P1"]["trade"]) == 1


def test_t20_market_then_build_and_admin_errors():
    st = scenario()
    st["phase"] = "T4"
    control(st, "BLUE", 2)
    res(st, "BLUE", GOLD=2, WOOD=1, STONE=2, IRON=1)
    order = RULES.parse("MARKET BUY WOOD 1; BUILD INF 2")
    RULES.validate(st, "P1", order)
    new, _ = RULES.resolve(st, {"P1": order}, ScriptedRng())
    assert {r: stock(new, "BLUE")[r] for r in ("GOLD", "WOOD", "STONE", "IRON")} == \
        {"GOLD": 1, "WOOD": 0, "STONE": 0, "IRON": 0}
    assert new["provinces"]["2"]["building"] == "INF"

    def error(state, text):
        with pytest.raises(IllegalOrder) as err:
            RULES.validate(state, "P1", RULES.parse(text))
        return str(err.value)

    assert "E407" in error(st, "BUILD INF 6")
    control(st, "BLUE", 6)
    assert "E409" in error(st, "BUILD INF 6")
    assert "E401" in error(st, "MARKET BUY WOOD 1; MARKET BUY FOOD 1")
    st["provinces"]["2"]["building"] = "INF"
    assert "E408" in error(st, "BUILD WALL 2")
    res(st, "BLUE", IRON=3, WOOD=2, STONE=1)
    for i in range(1, 6):
        put(st, f"B-H{i}", 1)
    assert "E411" in error(st, "BUILD HEAVY 2")


def test_t21_routing_replacement_and_piece_limit():
    st = scenario()
    st["phase"] = "T8"
    res(st, "RED", POP=4, GOLD=30, FOOD=30)
    for i in range(1, 20):
        put(st, f"R-S{i}", 9)
    with pytest.raises(IllegalOrder, match="E803 Only 1 simple troop piece left"):
        RULES.validate(st, "P4", RULES.parse("ROUTE GOLD 2; ROUTE TROOPS 2 AT 9"))
    with pytest.raises(IllegalOrder, match="E801"):
        RULES.validate(st, "P4", RULES.parse("ROUTE GOLD 3; ROUTE TROOPS 2 AT 9"))
    order = RULES.parse("ROUTE GOLD 3; ROUTE TROOPS 1 AT 9")
    RULES.validate(st, "P4", order)
    new, events = RULES.resolve(st, {"P4": order}, ScriptedRng())
    assert "RED routes population: 3 into Gold and 1 into a new troop (Red troop 20)." in texts(events)
    assert new["troops"]["R-S20"]["province"] == 9 and new["troops"]["R-S20"]["mode"] == "DEFENCE"


def test_t23_short_mode_tie_broken_by_provinces():
    st = scenario()
    st["round"] = 7
    blue, green = seat(st, "BLUE"), seat(st, "GREEN")
    st["players"][blue]["objectives"] = ["O1"]
    st["players"][green]["objectives"] = ["O7"]
    st["players"][seat(st, "YELLOW")]["objectives"] = ["O2"]
    st["players"][seat(st, "RED")]["objectives"] = ["O3"]
    control(st, "BLUE", 2, 3, 5, 6, 10, 11)  # 7 provinces: O1 (data.OBJECTIVE_NEED)
    control(st, "GREEN", 7, 8)
    for i in range(1, 9):
        put(st, f"G-S{i}", 4)
    put(st, "G-H1", 4)
    put(st, "G-H2", 4)
    events = end_round(st, ScriptedRng())
    assert st["phase"] == "over" and st["winners"] == [blue]
    result = RULES.outcome(st)
    assert result[0] == {"seat": blue, "score": 1, "rank": 1} and result[1]["seat"] == green
    assert "BLUE wins" in texts(events)


def test_substitution_window_opens_with_two_distinct_simple_resources_and_e904():
    st = scenario()
    st["phase"], st["tribute"] = "T8", "IRON"
    res(st, "BLUE", WOOD=1, FOOD=1)
    res(st, "GREEN", FOOD=2)
    after_routing(st, ScriptedRng())
    assert st["pay_window"] == {"P1": 1}  # Green had only Food: paid 2 Food without a window
    assert stock(st, "GREEN")["FOOD"] == 0
    with pytest.raises(IllegalOrder, match="E902"):
        RULES.validate(st, "P1", RULES.parse("PAY FOOD FOOD"))
    with pytest.raises(IllegalOrder, match="E903"):
        RULES.validate(st, "P1", RULES.parse("PAY WOOD FOOD; PAY WOOD"))
    RULES.validate(st, "P1", RULES.parse("PAY FOOD WOOD"))


def test_tribute_preference_pays_without_a_window():
    st = scenario()
    st["phase"], st["tribute"] = "T8", "FREE"
    st["players"]["P1"]["pref"] = {"free": "IRON"}
    res(st, "BLUE", IRON=1, FOOD=4)
    st["players"]["P2"]["pref"] = {"simple": ["WOOD", "WOOD"]}
    res(st, "GREEN", WOOD=1, GOLD=2)
    after_routing(st, ScriptedRng())
    assert stock(st, "BLUE")["IRON"] == 0 and stock(st, "BLUE")["FOOD"] == 4
    assert st["pay_window"] == {"P2": 1}  # a free tribute: the SIMPLE preference does not apply
    order = RULES.parse("PAY GOLD")
    RULES.validate(st, "P2", order)
    with pytest.raises(IllegalOrder, match="E901"):
        RULES.validate(st, "P2", RULES.parse("PAY STONE"))
