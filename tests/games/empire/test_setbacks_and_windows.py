"""Setback cards, deck reshuffle, builds with NEW, and the 2-player loss windows."""

from __future__ import annotations

import json

import pytest

from app.games.base import IllegalOrder
from app.games.empire import RULES
from app.games.empire.combat import combat
from app.games.empire.phases import apply_setback, maintenance, setback
from app.games.empire.tribute import start_payments

from .helpers import ScriptedRng, control, english, put, res, scenario, stock, texts


@pytest.mark.parametrize(("card", "before", "after"), [
    ("S01", {"FOOD": 3}, {"FOOD": 1}), ("S05", {"GOLD": 1}, {"GOLD": 0}),
    ("S06", {"POP": 5}, {"POP": 3}), ("S18", {"FOOD": 0}, {"FOOD": 2}),
    ("S07", {"WOOD": 1, "STONE": 0, "IRON": 2, "FOOD": 1}, {"WOOD": 0, "STONE": 0, "IRON": 1, "FOOD": 0}),
])
def test_resource_setbacks_lose_what_they_can(card, before, after):
    st = scenario()
    res(st, "BLUE", **before)
    apply_setback(st, "P1", card)
    assert {r: stock(st, "BLUE")[r] for r in after} == after


def test_a_setback_that_finds_nothing_to_take_says_so():
    st = scenario()
    res(st, "BLUE", IRON=0, WOOD=1, STONE=0)
    assert english(apply_setback(st, "P1", "S04")) == "has no Iron to lose."
    assert english(apply_setback(st, "P1", "S07")) == "loses 1 Wood."
    assert english(apply_setback(st, "P1", "S10")) == "no Wall, and no Stone to lose."


def test_fire_and_earthquake_destroy_lowest_construction_or_cost_resources():
    st = scenario()
    control(st, "BLUE", 2, 3, 5)
    st["provinces"]["3"]["building"] = "INF"
    st["provinces"]["2"]["building"] = "WALL"
    st["provinces"]["5"]["building"] = "INF"
    res(st, "BLUE", WOOD=3, STONE=1)
    apply_setback(st, "P1", "S09")
    assert st["provinces"]["3"]["building"] is None and st["provinces"]["5"]["building"] == "INF"
    apply_setback(st, "P1", "S10")
    assert st["provinces"]["2"]["building"] is None
    apply_setback(st, "P1", "S10")
    assert stock(st, "BLUE")["STONE"] == 0 and stock(st, "BLUE")["WOOD"] == 3


def test_uprising_frees_highest_empty_province_without_centre():
    st = scenario()
    control(st, "BLUE", 2, 5, 6)
    put(st, "B-S1", 6)
    apply_setback(st, "P1", "S13")
    assert st["provinces"]["5"]["owner"] is None and st["provinces"]["6"]["owner"] == "P1"
    assert st["provinces"]["1"]["owner"] == "P1"


def test_fog_and_low_morale_change_combat_totals():
    st = scenario()
    put(st, "B-S1", 5, "ATTACK")
    put(st, "R-S1", 5, "DEFENCE")
    st["players"]["P1"]["effects"] = ["S11"]
    st["players"]["P4"]["effects"] = ["S12"]
    events = combat(st, ScriptedRng("[+ 0 0 0]", "[+ + 0 0]"))
    # atk 2 - 1 fog = 1; def 1 + 1 Defence - 1 morale = 1: net 0
    assert "-1 fog = 1 against defence 1" in texts(events) and "R-S1" in st["troops"]


def test_levy_pays_twice_pardon_pays_nothing_arrears_and_winter_raise_upkeep():
    st = scenario()
    st["phase"], st["tribute"] = "T8", "GOLD"
    st["players"]["P1"]["effects"] = ["S14"]
    st["players"]["P2"]["effects"] = ["S14", "S19"]
    res(st, "BLUE", GOLD=5)
    res(st, "GREEN", GOLD=5)
    events = start_payments(st)
    assert stock(st, "BLUE")["GOLD"] == 3 and stock(st, "GREEN")["GOLD"] == 5
    assert "GREEN pays no tribute (Imperial pardon)." in texts(events)
    up = scenario()
    up["players"]["P3"]["effects"] = ["S16", "S15"]
    put(up, "Y-S1", 12)
    res(up, "YELLOW", GOLD=3, FOOD=2, POP=0)
    maintenance(up)
    assert stock(up, "YELLOW")["GOLD"] == 0 and stock(up, "YELLOW")["FOOD"] == 0


def test_empty_deck_reshuffles_the_discards_but_not_this_rounds_cards():
    st = scenario()
    st["deck"] = ["S20-1"]
    st["discard"] = ["S20-2", "S18-1", "S05-1"]
    setback(st, ScriptedRng())
    assert set(st["revealed"].values()) | set(st["deck"]) == {"S20-1", "S20-2", "S18-1", "S05-1"}
    assert st["discard"] == [] and len(st["deck"]) == 0


def test_heavy_build_gets_next_number_and_new_can_move_and_change_mode():
    st = scenario()
    st["phase"] = "T4"
    put(st, "B-H1", 1)
    res(st, "BLUE", IRON=3, WOOD=2, STONE=1, GOLD=9, FOOD=9)
    order = RULES.parse("BUILD HEAVY 1; MOVE NEW 2; MODE NEW CONQUEST; LOSSES NEW B-H1")
    RULES.validate(st, "P1", order)
    with pytest.raises(IllegalOrder, match="E417"):
        RULES.validate(st, "P1", RULES.parse("MOVE NEW 2"))
    new, _ = RULES.resolve(st, {"P1": order}, ScriptedRng("[0 0 0 0]", "[0 0 0 0]"))
    assert new["troops"]["B-H2"]["province"] == 2
    assert RULES.view(new, "P1")["private"]["losses"] == ["B-H2", "B-H1"]


def test_two_player_missed_loss_windows_make_each_the_others_chooser():
    st = scenario(players=2)
    st["phase"] = "T7"
    for i in (1, 2):
        put(st, f"B-S{i}", 1)
        put(st, f"Y-S{i}", 12)
    maintenance(st)
    assert st["maint"] == {"P1": 2, "P2": 2}
    st, _ = RULES.resolve(st, {}, ScriptedRng())
    assert st["choosers"] == {"P2": "P1", "P1": "P2"}
    prompt = RULES.owed(st)["P1"]
    assert prompt["kind"] == "maintenance_loss" and "YELLOW" in english(prompt["text"])
    with pytest.raises(IllegalOrder, match="E703"):
        RULES.validate(st, "P1", RULES.parse("LOSE-FOR BLUE B-S1 B-S2"))
    new, _ = RULES.resolve(st, {"P1": RULES.parse("LOSE-FOR YELLOW Y-S1 Y-S2")}, ScriptedRng())
    assert new["troops"] == {} and new["phase"] == "T8"


def test_pact_proposal_is_seen_only_by_its_two_parties():
    st = scenario()
    st, _ = RULES.resolve(st, {"P1": RULES.parse("PACT RED PROVINCE 1")}, ScriptedRng())
    assert "B-PACT" in json.dumps(RULES.view(st, "P4")) and "B-PACT" in json.dumps(RULES.view(st, "P1"))
    assert "B-PACT" not in json.dumps(RULES.view(st, "P2")) + json.dumps(RULES.view(st, None))
    with pytest.raises(IllegalOrder, match="E314"):
        RULES.validate(st, "P4", RULES.parse("ACCEPT PACT B-PACT PROVINCE 1"))
    with pytest.raises(IllegalOrder, match="E315"):
        RULES.validate(st, "P4", RULES.parse("DECLINE PACT B-PACT; DECLINE PACT B-PACT"))
