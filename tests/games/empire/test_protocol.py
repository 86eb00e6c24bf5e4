"""Setup, phase flow, hidden information, notation and forms."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalOrder, InvalidOrder
from app.games.empire import RULES
from app.games.empire.phases import end_round

from .helpers import ScriptedRng, control, put, res, scenario, seat, seated


def _start(players=4, mode="short", **extra):
    opts = {"players": players, "mode": mode, **extra}
    return seated(opts, random.Random(11))


def test_two_player_setup_uses_blue_and_yellow_without_o6():
    st = _start(2)
    assert st["colour"] == {"P1": "BLUE", "P2": "YELLOW"}
    assert st["provinces"]["1"]["owner"] == "P1" and st["provinces"]["12"]["owner"] == "P2"
    for p in ("4", "9"):
        assert st["provinces"][p] == {"owner": None, "building": None, "centre": None}
    dealt = [o for pl in st["players"].values() for o in pl["objectives"]] + st["undealt"]
    assert "O6" not in dealt and len(dealt) == 7
    assert sorted(st["troops"]) == ["B-S1", "B-S2", "B-S3", "Y-S1", "Y-S2", "Y-S3"]
    assert all(t["mode"] == "DEFENCE" for t in st["troops"].values())
    # round 1 turn 2 already ran: home Food 3, centre Gold 2, Pop 1 + 1
    assert st["players"]["P1"]["res"] == {"GOLD": 5, "WOOD": 2, "STONE": 2, "IRON": 2, "FOOD": 5, "POP": 4}
    owed = RULES.owed(st)
    assert set(owed) == {"P1", "P2"} and owed["P1"]["kind"] == "diplomacy_propose"
    assert RULES.turn_key(st) == "R1-T3A"


def test_options_defaults_and_checks():
    assert RULES.default_options() == {"players": 4, "mode": "short", "round_limit": None}
    assert _start(4)["options"]["round_limit"] == 20
    assert _start(2, "long", round_limit=None)["options"]["round_limit"] == 30
    assert _start(2, "long", round_limit=5)["options"]["round_limit"] == 5
    assert RULES.seats({"players": 3}) == ["P1", "P2", "P3"]
    assert _start(3, "long")["options"]["round_limit"] == 30
    assert len(_start(3, "long")["players"]["P1"]["objectives"]) == 2
    with pytest.raises(ValueError):
        RULES.seats({"players": 5})
    with pytest.raises(ValueError):
        RULES.seats({"mode": "medium"})


def test_answer_window_opens_only_for_players_with_something_open():
    st = _start(4)
    quiet, _ = RULES.resolve(st, {}, random.Random(1))
    assert quiet["phase"] == "T4" and RULES.owed(quiet)["P3"]["kind"] == "admin"
    addressed, events = RULES.resolve(st, {"P1": RULES.parse("OFFER GIVE 1 FOOD GET 1 WOOD TO GREEN")},
                                      random.Random(1))
    assert addressed["phase"] == "T3B" and list(RULES.owed(addressed)) == ["P2"]
    assert RULES.turn_key(addressed) == "R1-T3B"
    assert events[0]["to"] == ["P1", "P2"]
    for viewer, sees in (("P1", True), ("P2", True), ("P3", False), (None, False)):
        assert ("B-O1" in json.dumps(RULES.view(addressed, viewer))) is sees


def test_objectives_are_private_until_the_game_ends():
    st = _start(4)
    mine = RULES.secrets(st, "P1")
    assert mine and all(s.startswith("objective:") for s in mine)
    assert json.dumps(mine[0]) in json.dumps(RULES.view(st, "P1"))
    for viewer in ("P2", None):
        assert json.dumps(mine[0]) not in json.dumps(RULES.view(st, viewer))
    st["round"] = st["options"]["round_limit"]
    end_round(st, ScriptedRng())
    assert st["phase"] == "over" and RULES.secrets(st, "P1") == []
    assert RULES.view(st, None)["objectives"]["P1"][0]["id"] == mine[0]


def test_standing_losses_order_is_seen_by_its_owner_only():
    st = scenario()
    st["phase"] = "T4"
    put(st, "B-S1", 1)
    new, _ = RULES.resolve(st, {"P1": RULES.parse("LOSSES B-S1")}, random.Random(2))
    assert RULES.view(new, "P1")["private"]["losses"] == ["B-S1"]
    assert RULES.view(new, "P2")["private"]["losses"] == []
    assert "losses" not in json.dumps(RULES.view(new, None))


@pytest.mark.parametrize("text", [
    "PROPOSE: OFFER GIVE 2 WOOD GET 1 IRON; OFFER GIVE 1 GOLD GET 2 FOOD TO RED; PACT GREEN PROVINCE 1",
    "ANSWER: ACCEPT OFFER G-O1; DECLINE OFFER R-O2; ACCEPT PACT Y-PACT PROVINCE 4; DECLINE PACT B-PACT",
    "ADMIN: MARKET SELL IRON 3; BUILD HEAVY 1; MOVE NEW 2; MODE B-S1 ATTACK TARGET RED; LOSSES B-S2 B-H1",
    "LOSE: LOSE G-S1 G-H2", "LOSE: LOSE-FOR GREEN G-H1 G-S1",
    "ROUTE: ROUTE GOLD 2; ROUTE TROOPS 1 AT 9; TRIBUTE FREE POP; TRIBUTE SIMPLE FOOD FOOD",
    "PAY: PAY GOLD; PAY WOOD IRON", "PAY: PAY NONE", "ADMIN: PASS", "PASS",
])
def test_notation_round_trips(text):
    order = RULES.parse(text)
    assert RULES.format(order) == text and RULES.parse(RULES.format(order)) == order


@pytest.mark.parametrize(("text", "code"), [
    ("MOVE B-S1 13", "E003"), ("MARKET BUY GEMS 1", "E005"), ("ROUTE GOLD 0", "E006"),
    ("FLY B-S1 2", "E002"), ("MOVE X-S1 2", "E004"), ("OFFER GIVE 1 WOOD GET 1 FOOD; MOVE B-S1 2", "E002"),
])
def test_unreadable_lines_are_rejected_with_their_code(text, code):
    with pytest.raises(InvalidOrder, match=code):
        RULES.parse(text)


def test_order_from_a_seat_that_owes_nothing_is_e001():
    st = scenario()
    st["phase"], st["maint"] = "T7A", {"P2": 1}
    put(st, "G-S1", 4)
    with pytest.raises(IllegalOrder, match="E001"):
        RULES.validate(st, "P1", RULES.parse("LOSE B-S1"))
    with pytest.raises(IllegalOrder, match="E702"):
        RULES.validate(st, "P2", RULES.parse("LOSE B-S1"))


def _form_order(form, picks):
    order = dict(form["base"])
    for field in form["fields"]:
        if field["name"] in picks:
            order[field["name"]] = picks[field["name"]]
    return order


def test_admin_form_fields_make_the_same_order_as_notation():
    st = scenario()
    st["phase"] = "T4"
    control(st, "BLUE", 2)
    res(st, "BLUE", GOLD=2, WOOD=1, STONE=2, IRON=1)
    put(st, "B-S1", 1)
    prompt = RULES.owed(st)["P1"]
    form = prompt["forms"][0]
    names = {f["name"]: f for f in form["fields"]}
    values = {n: [c["value"] for c in f.get("choices", [])] for n, f in names.items()}
    assert "MARKET BUY WOOD 1" in values["market"] and "BUILD INF 2" in values["build"]
    assert "MOVE B-S1 5" in values["move_B-S1"] and "MODE B-S1 ATTACK TARGET RED" in values["mode_B-S1"]
    order = _form_order(form, {"market": "MARKET BUY WOOD 1", "build": "BUILD INF 2",
                               "move_B-S1": "MOVE B-S1 5", "mode_B-S1": "MODE B-S1 CONQUEST",
                               "losses": ["B-S1"]})
    RULES.validate(st, "P1", order)
    by_form, _ = RULES.resolve(st, {"P1": order}, random.Random(5))
    typed = RULES.parse("MARKET BUY WOOD 1; BUILD INF 2; MOVE B-S1 5; MODE B-S1 CONQUEST; LOSSES B-S1")
    by_text, _ = RULES.resolve(st, {"P1": typed}, random.Random(5))
    assert by_form == by_text and by_form["troops"]["B-S1"]["province"] == 5
    as_text = {"type": "ADMIN", "text": RULES.format(typed)}  # the set typed whole, as older forms posted it
    assert RULES.resolve(st, {"P1": as_text}, random.Random(5))[0] == by_text


def test_every_prompt_form_offers_only_legal_single_choices():
    st = scenario()
    st["phase"] = "T4"
    res(st, "BLUE", GOLD=3, IRON=6, WOOD=6, STONE=6)
    put(st, "B-S1", 1)
    form = RULES.owed(st)["P1"]["forms"][0]
    for field in form["fields"]:
        for choice in field.get("choices", []):
            if not choice["value"]:
                continue
            if "when" not in choice:
                RULES.validate(st, "P1", _form_order(form, {field["name"]: choice["value"]}))
                continue
            assert choice["when"]  # a dependent choice comes with every parent value it is legal with
            for parent in choice["when"]:
                RULES.validate(st, "P1", _form_order(form, {field["depends_on"]: parent,
                                                            field["name"]: choice["value"]}))


def test_missed_windows_never_block_the_game():
    opts = {"players": 3, "mode": "short", "round_limit": 3}
    st = seated(opts, random.Random(4))
    steps = 0
    while RULES.outcome(st) is None:
        st, _ = RULES.resolve(st, {}, random.Random(steps))
        steps += 1
        assert steps < 40
    assert st["round"] == 3 and RULES.outcome(st)[0]["rank"] == 1


def test_long_mode_keeps_completed_objectives_until_both_are_done():
    st = scenario(mode="long")
    blue = seat(st, "BLUE")
    st["players"][blue]["objectives"] = ["O1", "O5"]
    for other in ("P2", "P3", "P4"):
        st["players"][other]["objectives"] = ["O2", "O3"]
    control(st, "BLUE", 2, 3, 5, 6, 7, 8)  # 7 provinces: O1 (data.OBJECTIVE_NEED)
    end_round(st, ScriptedRng())
    assert st["players"][blue]["completed"] == ["O1"] and st["phase"] == "T3A"
    assert RULES.view(st, blue)["private"]["objectives"][0]["completed"] is True
    assert "objective:O1:completed" in RULES.secrets(st, blue)
    for viewer in ("P2", None):
        assert "objective:O1" not in json.dumps(RULES.view(st, viewer))
    control(st, None, 2, 3, 5, 6, 7, 8)
    st["players"][blue]["spoils"] = 6
    end_round(st, ScriptedRng())
    assert st["phase"] == "over" and st["winners"] == [blue]


def test_last_player_standing_wins_at_once():
    st = scenario(players=2)
    control(st, None, 12)
    events = end_round(st, ScriptedRng())
    assert st["players"]["P2"]["eliminated"] and st["winners"] == ["P1"]
    assert RULES.outcome(st)[0]["seat"] == "P1" and RULES.owed(st) == {}
    assert "YELLOW controls no province and is eliminated." in "\n".join(RULES.text.english(e["text"]) for e in events)
