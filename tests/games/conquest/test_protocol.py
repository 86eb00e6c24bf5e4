"""Options, seats, notation, prompts, views and secrets of the conquest game."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalOrder, InvalidOrder
from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.driver import play_random, start

from .helpers import Dice, en, play, scenario, seat


def test_options_and_robot_seats():
    assert RULES.default_options() == {
        "players": 4,
        "mode": "secret_orders",
        "timer": 86400,
        "round_limit": 0,
        "ai_seats": 0,
        "balance": False,
    }
    assert RULES.seats({"players": 6}) == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert RULES.robot_seats({"players": 5, "ai_seats": 2}) == ["P4", "P5"]
    assert RULES.robot_seats({"players": 2, "ai_seats": 5}) == ["P2"]
    assert RULES.robot_seats({"players": 3}) == []


def test_ai_seats_never_owe_and_colours_are_drawn():
    for seed in ["a", "b", "c", "d"]:
        game = start(RULES, {"players": 4, "ai_seats": 3}, seed)
        s = game.state
        assert sorted(s["colour"].values()) != [] and len(set(s["colour"].values())) == 4
        assert list(RULES.owed(s)) == ["P1"]
        assert s["kind"]["P4"] == "ai"
    orders = {json.dumps(start(RULES, {"players": 6}, x).state["order"]) for x in "abcdefgh"}
    assert len(orders) > 1


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("ATTACK Egypt Libya", {"type": "ATTACK", "pair": "EGY-LIB"}),
        ("PLACE 3 Moscow", {"type": "PLACE", "MOS": 3}),
        ("PLACE 3 Moscow, 2 Ukraine", {"type": "PLACE", "MOS": 3, "UKR": 2}),
        ("place ita 6", {"type": "PLACE", "ITA": 6}),
        ("MOVE 2 Ukraine Caucasus", {"type": "MOVE", "pair": "UKR-CAU", "count": 2}),
        ("MOVE FRA GER 4", {"type": "MOVE", "pair": "FRA-GER", "count": 4}),
        ("MOVE 1 Western Canada Eastern Canada", {"type": "MOVE", "pair": "WCA-ECA", "count": 1}),
        ("TRADE c12 c30 c41", {"type": "TRADE", "cards": ["c12", "c30", "c41"]}),
        ("TRADE c12 c13 J1 BONUS=ITA", {"type": "TRADE", "cards": ["c12", "c13", "c43"], "bonus": "ITA"}),
        ("TRADE GER ITA J1 BONUS=ITA", {"type": "TRADE", "cards": ["c12", "c13", "c43"], "bonus": "ITA"}),
        ("trade ger c13 j2", {"type": "TRADE", "cards": ["c12", "c13", "c44"]}),
        (
            "ATTACK GER POL REPEAT=CONQUER STOP=3 ADVANCE=MAX",
            {"type": "ATTACK", "pair": "GER-POL", "repeat": "CONQUER", "stop": 3, "advance": "MAX"},
        ),
        ("ADVANCE 3", {"type": "ADVANCE", "count": 3}),
        ("END_TURN", {"type": "END_TURN"}),
        ("RESUME_COMMAND", {"type": "RESUME"}),
        ("ABANDON CONFIRM", {"type": "ABANDON", "confirm": True}),
    ],
)
def test_notation_reads_and_round_trips(text, order):
    assert RULES.parse(text) == order
    assert RULES.parse(RULES.format(order)) == order


def test_format_uses_names():
    assert RULES.format({"type": "ATTACK", "pair": "EGY-LIB"}) == "ATTACK Egypt Libya"
    assert RULES.format({"type": "PLACE", "MOS": 3, "UKR": 2}) == "PLACE 3 Moscow, 2 Ukraine"
    assert RULES.format({"type": "MOVE", "pair": "UKR-CAU", "count": 2}) == "MOVE 2 Ukraine Caucasus"


@pytest.mark.parametrize("text", ["ATTACK Atlantis Libya", "PLACE Moscow", "TRADE c1 c2", "ABANDON", "MOVE 2 GER",
                                  "TRADE GER ITA ATL", "TRADE GER ITA J3", "TRADE Germany Italy Poland"])
def test_notation_rejects_unreadable(text):
    with pytest.raises(InvalidOrder):
        RULES.parse(text)


def test_placement_form_has_one_field_per_owned_territory_and_total_is_checked():
    game = start(RULES, {"players": 3}, "form")
    s = game.state
    p = s["current"]
    prompt = RULES.owed(s)[p]
    assert prompt["seconds"] == 86400 and prompt["kind"] == "mobilisation"
    form = next(f for f in prompt["forms"] if f["base"] == {"type": "PLACE"})
    owned = [t for t in D.TERRITORIES if s["owner"][t] == p]
    assert [f["name"] for f in form["fields"]] == owned and all(f["type"] == "int" for f in form["fields"])
    too_many = {"type": "PLACE", **{t: 0 for t in owned}, owned[0]: 5, owned[1]: 3}
    with pytest.raises(IllegalOrder, match="need 8 general armies but only 7 remain"):
        RULES.validate(s, p, too_many)
    ok = {"type": "PLACE", **{t: 0 for t in owned}, owned[0]: 4, owned[1]: 3}
    RULES.validate(s, p, ok)


def test_attack_picker_lists_only_legal_pairs_and_buttons_have_no_fields():
    s = scenario(
        owners={"GER": "Red", "POL": "Blue", "FRA": "Red", "ITA": "Red"},
        armies={"GER": 3, "FRA": 1, "ITA": 2},
    )
    prompt = RULES.owed(s)[seat(s, "Red")]
    attack = next(f for f in prompt["forms"] if f["base"] == {"type": "ATTACK"})
    values = [c["value"] for c in attack["fields"][0]["choices"]]
    assert "GER-POL" in values and not any(v.startswith("FRA-") for v in values)
    assert not any(v.endswith("-ITA") or v.endswith("-FRA") for v in values)
    for label in ["End offensive", "End turn"]:
        assert next(f for f in prompt["forms"] if en(f["label"]) == label)["fields"] == []


def test_hand_and_objective_are_private_until_the_end():
    game = play_random(RULES, {"players": 3, "round_limit": 30}, "secret", max_steps=150)
    s = game.state
    assert RULES.outcome(s) is None
    holder = next(p for p in s["order"] if s["hands"][p])
    card = s["hands"][holder][0]
    other = next(p for p in s["order"] if p != holder)
    assert json.dumps(card) in json.dumps(RULES.view(s, holder))
    assert json.dumps(card) not in json.dumps(RULES.view(s, other))
    assert json.dumps(card) not in json.dumps(RULES.view(s, None))
    counts = {c["seat"]: c["cards"] for c in RULES.view(s, other)["commanders"]}
    assert counts[holder] == len(s["hands"][holder])
    assert "objectives" not in RULES.view(s, None)
    done = play_random(RULES, {"players": 3, "round_limit": 30}, "secret")
    assert set(RULES.view(done.state, None)["objectives"]) == set(done.state["order"])


def test_idle_seat_cannot_order_and_default_order_is_a_timeout():
    game = start(RULES, {"players": 3}, "idle")
    s = game.state
    on = s["current"]
    idle = next(p for p in s["order"] if p != on)
    with pytest.raises(IllegalOrder, match="It is not your turn"):
        RULES.validate(s, idle, {"type": "END_TURN"})
    order = RULES.default_order(s, on, random.Random(1))
    assert order == {"type": "TIMEOUT"} and RULES.format(order) == "TIMEOUT"
    RULES.validate(s, on, order)


def test_turn_key_covers_the_whole_turn():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 7, "POL": 1})
    key = RULES.turn_key(s)
    s2, _ = play(s, "Red", "ATTACK GER POL", Dice(6, 6, 6, 1))
    assert RULES.turn_key(s2) == key
    s3, _ = play(s2, "Red", "ADVANCE 2")
    s4, _ = play(s3, "Red", "END_TURN")
    assert RULES.turn_key(s4) != key


def test_domination_needs_all_42_territories():
    owners = {t: "Red" for t in D.TERRITORIES if t != "POL"}
    owners["POL"] = "Blue"
    s = scenario(players=2, owners=owners, armies={"GER": 4}, mode="domination")
    red = seat(s, "Red")
    s["objective"] = {p: {"card": "WORLD", "goal": "WORLD", "converted": False} for p in s["order"]}
    s2, _ = play(s, "Red", "ATTACK GER POL", Dice(6, 1))
    assert RULES.outcome(s2)[0]["seat"] == red


@pytest.mark.parametrize(
    "junk",
    [
        None,
        3,
        "PLACE",
        [],
        {"type": "PLACE"},
        {"type": "PLACE", "GER": "x"},
        {"type": "PLACE", "XYZ": 1},
        {"type": "ATTACK"},
        {"type": "ATTACK", "pair": ["GER", "POL"]},
        {"type": "MOVE", "pair": "GER-POL"},
        {"type": "TRADE", "cards": "c1 c2 c3"},
        {"type": "TRADE", "cards": [1, 2, 3]},
        {"type": "ADVANCE"},
        {"type": "ABANDON"},
        {"type": "RESUME"},
    ],
)
def test_garbage_orders_are_illegal_never_crashes(junk):
    game = start(RULES, {"players": 3}, "junk")
    on = game.state["current"]
    with pytest.raises(IllegalOrder):
        RULES.validate(game.state, on, junk)
    with pytest.raises(IllegalOrder):
        RULES.validate(game.state, ["P1"], {"type": "END_TURN"})
