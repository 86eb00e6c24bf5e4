"""Spec §8 scenarios T01-T12 (combat and pacts) and T22, dice given in draw order."""

from __future__ import annotations

import copy

import pytest

from app.games.empire import RULES
from app.games.empire.combat import combat
from app.games.empire.phases import apply_setback, objective_met, produce, setback

from .helpers import ScriptedRng, control, put, scenario, seat, stock, texts


def _spoils(st, colour):
    return st["players"][seat(st, colour)]["spoils"]


def test_t01_attack_removes_conquest_troop_province_stays_neutral():
    st = scenario()
    put(st, "B-S1", 5, "ATTACK")
    put(st, "R-S1", 5, "CONQUEST")
    rng = ScriptedRng("[- - 0 0]", "[+ + 0 -]")
    combat(st, rng)
    assert "R-S1" not in st["troops"] and _spoils(st, "BLUE") == 1
    assert st["provinces"]["5"]["owner"] is None
    assert rng.fate == []


def test_t02_net_zero_no_effect_and_conquest_skipped_as_defended():
    st = scenario()
    put(st, "B-S1", 5, "ATTACK")
    put(st, "R-S1", 5, "CONQUEST")
    rng = ScriptedRng("[0 0 0 0]", "[+ - 0 0]")
    events = combat(st, rng)
    assert {"B-S1", "R-S1"} <= set(st["troops"])
    assert "defended" in texts(events)
    assert st["provinces"]["5"]["owner"] is None and rng.fate == []


def test_t03_w1_second_attack_removes_defender():
    st = scenario()
    put(st, "B-S1", 9, "ATTACK")
    put(st, "B-S2", 9, "ATTACK")
    put(st, "R-S1", 9, "DEFENCE")
    events = combat(st, ScriptedRng("[+ 0 0 0]", "[+ + 0 -]", "[+ + + 0]"))
    log = texts(events)
    assert "Blue troop 1 attacks RED" in log and "net -1; no effect" in log
    assert "net 1; Red troop 1 is removed" in log
    assert "R-S1" not in st["troops"] and _spoils(st, "BLUE") == 1


def test_t04_w2_heavy_first_two_defenders_removed():
    st = scenario()
    for t in ("Y-H1", "Y-S1", "Y-S2"):
        put(st, t, 8, "ATTACK")
    for t in ("G-S1", "G-S2", "G-S3"):
        put(st, t, 8, "DEFENCE")
    rng = ScriptedRng("[0 0 - +]", "[+ + + 0]", "[+ + 0 0]", "[+ + + 0]")
    combat(st, rng)
    assert "G-S1" in st["troops"] and "G-S2" not in st["troops"] and "G-S3" not in st["troops"]
    assert _spoils(st, "YELLOW") == 2 and rng.fate == []


def test_t05_wall_and_defence_hold_against_heavy():
    st = scenario()
    st["provinces"]["12"]["building"] = "WALL"
    put(st, "Y-S1", 12, "DEFENCE")
    put(st, "G-H1", 12, "ATTACK")
    events = combat(st, ScriptedRng("[- - 0 0]", "[0 0 0 -]"))
    assert "Y-S1" in st["troops"]
    assert "= 0 against defence 0" in texts(events)


def test_t06_failed_conquest_then_success_next_round_and_production():
    st = scenario()
    put(st, "B-S1", 2, "CONQUEST")
    put(st, "B-S2", 2, "CONQUEST")
    combat(st, ScriptedRng("[+ 0 0 +]", "[+ + + 0]"))
    assert st["provinces"]["2"]["owner"] is None and len(st["troops"]) == 2
    st["round"], st["first"] = 2, seat(st, "GREEN")
    combat(st, ScriptedRng("[+ + 0 0]", "[+ 0 0 0]"))
    assert st["provinces"]["2"]["owner"] == seat(st, "BLUE")
    before = dict(stock(st, "BLUE"))
    produce(st)
    after = stock(st, "BLUE")
    assert after["WOOD"] - before["WOOD"] == 2
    assert after["POP"] - before["POP"] == 3  # home 1 + centre 1 + Westwood 1


def test_t07_w3_conquest_takes_wall_and_centre():
    st = scenario(round_no=2, first="GREEN")
    st["provinces"]["9"]["building"] = "WALL"
    put(st, "G-H1", 9, "CONQUEST")
    put(st, "G-S1", 9, "CONQUEST")
    combat(st, ScriptedRng("[+ + + 0]", "[0 0 0 +]"))
    prov = st["provinces"]["9"]
    assert prov["owner"] == seat(st, "GREEN") and prov["building"] == "WALL" and prov["centre"] == "RED"
    before = dict(stock(st, "GREEN"))
    produce(st)
    gain = {r: stock(st, "GREEN")[r] - before[r] for r in before}
    assert gain["FOOD"] == 6 and gain["GOLD"] == 4 and gain["POP"] == 4  # 9 gives 3, 2, 2 on top of 4
    assert objective_met(st, seat(st, "GREEN"), "O4")


def test_t08_attack_then_conquest_in_same_turn():
    st = scenario()
    put(st, "R-S1", 5, "DEFENCE")
    put(st, "B-S1", 5, "ATTACK")
    put(st, "B-S2", 5, "CONQUEST")
    rng = ScriptedRng("[0 0 0 0]", "[+ + 0 0]", "[+ 0 0 0]", "[0 0 - -]")
    combat(st, rng)
    assert "R-S1" not in st["troops"] and st["provinces"]["5"]["owner"] == seat(st, "BLUE")
    assert rng.fate == []


@pytest.mark.parametrize(("round_no", "first", "loser"), [(1, "BLUE", "R-S1"), (4, "RED", "B-S1")])
def test_t09_round_order_decides_who_strikes_first(round_no, first, loser):
    st = scenario(round_no=round_no, first=first)
    put(st, "B-S1", 6, "ATTACK")
    put(st, "R-S1", 6, "ATTACK")
    rng = ScriptedRng("[0 0 0 0]", "[+ + 0 0]")
    combat(st, rng)
    assert loser not in st["troops"] and len(st["troops"]) == 1 and rng.fate == []


def test_t10_default_target_is_player_with_most_troops_or_named_target():
    st = scenario()
    put(st, "G-S1", 7, "ATTACK")
    put(st, "B-S1", 7, "DEFENCE")
    put(st, "Y-S1", 7, "DEFENCE")
    put(st, "Y-S2", 7, "DEFENCE")
    twin = copy.deepcopy(st)
    combat(st, ScriptedRng("[0 + 0 0]", "[+ + + +]"))
    assert "Y-S2" not in st["troops"] and "Y-S1" in st["troops"] and "B-S1" in st["troops"]
    twin["troops"]["G-S1"]["target"] = "BLUE"
    events = combat(twin, ScriptedRng("[0 + 0 0]", "[+ + + +]"))
    assert "BLUE rolls defence" in texts(events) and "B-S1" not in twin["troops"]


def _t11_state():
    st = scenario()
    control(st, "RED", 10)
    st, _ = RULES.resolve(st, {"P1": RULES.parse("PACT RED PROVINCE 1")}, ScriptedRng())
    assert st["phase"] == "T3B" and list(RULES.owed(st)) == ["P4"]
    answer = RULES.parse("ACCEPT PACT B-PACT PROVINCE 10")
    RULES.validate(st, "P4", answer)
    st, events = RULES.resolve(st, {"P4": answer}, ScriptedRng())
    assert st["pacts"] == [{"id": "B-PACT", "parties": ["P1", "P4"], "provinces": [1, 10]}]
    put(st, "B-S1", 1, "DEFENCE")
    put(st, "R-S1", 1, "ATTACK")
    put(st, "G-S1", 1, "DEFENCE")
    put(st, "R-S3", 10, "DEFENCE")
    put(st, "B-S2", 10, "ATTACK")
    return st


def test_t11_pact_protects_both_provinces():
    st = _t11_state()
    rng = ScriptedRng("[0 0 0 0]", "[+ + 0 0]")
    combat(st, rng)
    assert "G-S1" not in st["troops"] and {"B-S1", "R-S3", "B-S2"} <= set(st["troops"])
    assert rng.fate == []
    st2 = _t11_state()
    st2["troops"] = {}
    put(st2, "R-S2", 1, "CONQUEST")
    events = combat(st2, ScriptedRng())
    assert "pact" in texts(events) and st2["provinces"]["1"]["owner"] == "P1"


def test_t12_scandal_cancels_pact_and_tie_goes_to_next_seat():
    st = _t11_state()
    st["deck"] = ["S20-1", "S20-2", "S20-1", "S17-1"]
    setback(st, ScriptedRng())
    assert st["pacts"] == []
    rng = ScriptedRng("[0 0 0 0]", "[0 0 0 0]", "[0 0 0 0]", "[+ + 0 0]")
    events = combat(st, rng)
    log = texts(events)
    assert "Blue troop 2 attacks RED" in log and "R-S3" in st["troops"]
    assert "B-S1" not in st["troops"] and "G-S1" in st["troops"] and rng.fate == []


def test_t22_desertion_takes_highest_simple_in_fullest_province():
    st = scenario()
    for t in ("R-S1", "R-S2", "R-S3", "R-H1"):
        put(st, t, 9)
    put(st, "R-S4", 10)
    put(st, "R-S5", 10)
    apply_setback(st, seat(st, "RED"), "S08")
    assert "R-S3" not in st["troops"] and len(st["troops"]) == 5


def test_example_w1_two_attackers_against_one_defender():
    st = scenario()
    put(st, "B-S1", 9, "ATTACK")
    put(st, "B-S2", 9, "ATTACK")
    put(st, "R-S1", 9, "DEFENCE")
    events = combat(st, ScriptedRng("[+ 0 0 0]", "[+ + 0 -]", "[+ + + 0]"))
    attacks = [t for t in texts(events).split("\n") if "attacks" in t]
    assert "= 1 against defence 2" in attacks[0] and "net -1" in attacks[0]
    assert "= 3 against defence 2" in attacks[1] and "net 1" in attacks[1]
    assert [e["roll"] for e in events] == [[1, 0, 0, 0], [1, 1, 0, -1], [1, 1, 1, 0]]


def test_example_w2_heavy_attacks_first_and_defence_bonus_shrinks():
    st = scenario()
    for t in ("Y-S2", "Y-S1", "Y-H1"):
        put(st, t, 8, "ATTACK")
    for t in ("G-S1", "G-S2", "G-S3"):
        put(st, t, 8, "DEFENCE")
    events = combat(st, ScriptedRng("[0 0 - +]", "[+ + + 0]", "[+ + 0 0]", "[+ + + 0]"))
    attacks = [t for t in texts(events).split("\n") if "attacks" in t]
    assert attacks[0].startswith("Yellow heavy troop 1") and "+1 heavy = 4 against defence 3" in attacks[0]
    assert attacks[1].startswith("Yellow troop 1") and "against defence 2" in attacks[1] and "no effect" in attacks[1]
    assert attacks[2].startswith("Yellow troop 2") and "Green troop 2 is removed" in attacks[2]


def test_example_w3_conquest_with_wall_and_centre():
    st = scenario()
    st["provinces"]["9"]["building"] = "WALL"
    put(st, "G-H1", 9, "CONQUEST")
    put(st, "G-S1", 9, "CONQUEST")
    events = combat(st, ScriptedRng("[+ + + 0]", "[0 0 0 +]"))
    assert "= 4 against local population [0 0 0 +]=+1 +2 = 3: net 1" in texts(events)
    assert st["provinces"]["9"]["owner"] == seat(st, "GREEN")


class _Fixed:
    """Feeds the FATE dice of one attack: defence roll, then attack roll."""

    def __init__(self, dice):
        self.dice = list(dice)

    def randint(self, a, b):
        return self.dice.pop(0)


@pytest.mark.parametrize(("heavy", "defenders", "percent"), [(False, 0, 28), (True, 0, 48),
                                                             (False, 1, 20), (True, 2, 25)])
def test_success_chances_match_the_spec_table(heavy, defenders, percent):
    import itertools

    by_sum: dict[int, list] = {}
    for roll in itertools.product([-1, 0, 1], repeat=4):
        by_sum.setdefault(sum(roll), []).append(roll)
    base = scenario()
    put(base, "B-H1" if heavy else "B-S1", 5, "ATTACK")
    put(base, "R-S1", 5, "CONQUEST" if defenders == 0 else "DEFENCE")
    if defenders == 2:
        put(base, "R-S2", 5, "DEFENCE")
    wins = 0
    for d in by_sum.values():
        for a in by_sum.values():
            st = copy.deepcopy(base)
            combat(st, _Fixed(d[0] + a[0]))  # one roll per total, weighted by its count
            wins += _spoils(st, "BLUE") * len(d) * len(a)
    assert round(100 * wins / 81 ** 2) == percent
