"""Spec section 10, scenarios T24-T28: armistice, abandonment, timeouts and auto-command.

Platform note: orders come only from the seat that owes a decision, so a seat
under full auto-command is owed a one-step "auto" prompt at its turn start
(Resume command / let auto-command play); its missed deadline lets the AI play.
"""

from __future__ import annotations

import pytest

from app.games.base import IllegalOrder
from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.conquest.engine import start_turn
from app.games.conquest.state import armies_of, territories_of

from .helpers import Dice, play, scenario, seat, texts


def _t24(red_armies: int):
    owners = {}
    for i, t in enumerate(D.TERRITORIES):
        owners[t] = "Olive" if i < 16 else "Red" if i < 32 else "Blue"
    armies = {t: 1 for t in D.TERRITORIES}
    armies["ALA"] += 40 - 16
    armies[D.TERRITORIES[16]] += red_armies - 16
    armies[D.TERRITORIES[32]] += 60 - 10
    return scenario(owners=owners, armies=armies, current="Olive", phase="REGROUP", round_=30, round_limit=30)


def test_t24_round_limit_armistice_most_territories_then_armies():
    s = _t24(38)
    olive, red = seat(s, "Olive"), seat(s, "Red")
    assert armies_of(s, olive) == 40 and len(territories_of(s, red)) == 16
    s2, ev = play(s, "Olive", "END_TURN")
    assert [r["seat"] for r in RULES.outcome(s2) if r["winner"]] == [olive]
    assert "Armistice" in texts(ev)
    s3, _ = play(_t24(40), "Olive", "END_TURN")
    assert sorted(r["seat"] for r in RULES.outcome(s3) if r["winner"]) == sorted([olive, red])
    assert [r["rank"] for r in RULES.outcome(s3)][:2] == [1, 1]
    s4, _ = play(_t24(38), "Olive", "ABANDON CONFIRM")
    assert [r["seat"] for r in RULES.outcome(s4) if r["winner"]] == [red]


def test_t25_armistice_when_the_last_active_human_abandons():
    s = scenario(players=4, current="Blue", phase="MOBILISATION", round_=7, rest=["Blue", "Olive", "Ochre", "Red"])
    for colour in ["Olive", "Ochre"]:
        s["kind"][seat(s, colour)] = "ai"
    start_turn(s, [])
    red, blue = seat(s, "Red"), seat(s, "Blue")
    s, _ = play(s, "Blue", "ABANDON CONFIRM")
    assert s["status"][blue] == "ABANDONED" and RULES.outcome(s) is None
    assert s["current"] == red and s["round"] == 8
    with pytest.raises(IllegalOrder, match="You have abandoned this game"):
        RULES.validate(s, blue, {"type": "END_TURN"})
    s, _ = play(s, "Red", "TIMEOUT")
    assert s["current"] == red and s["round"] == 9
    s, ev = play(s, "Red", "ABANDON CONFIRM")
    result = RULES.outcome(s)
    assert result is not None and "no active human" in texts(ev)
    winners = {r["seat"] for r in result if r["winner"]}
    assert winners and winners <= {seat(s, "Olive"), seat(s, "Ochre")}


def _t26():
    s = scenario(players=2, current="Red", phase="MOBILISATION", round_=12, rest=["Blue", "Red"])
    for p in s["order"]:
        s["status"][p] = "FULL_AUTO"
        s["timeouts"][p] = 3
    start_turn(s, [])
    return s


def test_t26_three_fully_automatic_rounds_end_the_game():
    s = _t26()
    for _ in range(5):
        who = s["current"]
        assert RULES.owed(s)[who]["kind"] == "auto"
        s, _ = RULES.resolve(s, {who: {"type": "AUTO"}}, Dice())
        assert RULES.outcome(s) is None
    s, ev = RULES.resolve(s, {s["current"]: {"type": "TIMEOUT"}}, Dice())
    assert s["round"] == 14 and RULES.outcome(s) is not None
    assert "3 rounds without a human order" in texts(ev)


def test_t26_a_human_turn_restarts_the_count():
    s = _t26()
    red = seat(s, "Red")
    s, _ = play(s, "Red", "AUTO_COMMAND")
    s, _ = play(s, "Blue", "AUTO_COMMAND")
    assert s["round"] == 13
    s, _ = play(s, "Red", "RESUME_COMMAND")
    while s["current"] == red:
        s, _ = play(s, "Red", RULES.ai_order(s, red, Dice()))
    s, _ = play(s, "Blue", "AUTO_COMMAND")
    s, _ = play(s, "Red", "TIMEOUT")
    s, _ = play(s, "Blue", "AUTO_COMMAND")
    assert s["round"] == 15 and RULES.outcome(s) is None and s["auto_rounds"] == 1


def _t27():
    s = scenario(players=3, current="Red", phase="MOBILISATION", round_=4, rest=["Blue", "Red", "Olive"])
    s["kind"][seat(s, "Olive")] = "ai"
    start_turn(s, [])
    return s


def _blue_plays(s):
    """Blue (a human) plays its own turn, so that rounds are not fully automatic."""
    blue = seat(s, "Blue")
    while RULES.outcome(s) is None and s["current"] == blue:
        s, _ = play(s, "Blue", RULES.ai_order(s, blue, Dice()))
    return s


def test_t27_three_missed_turns_hand_the_seat_to_full_auto_command():
    s = _t27()
    red = seat(s, "Red")
    for rnd in (4, 5, 6):
        assert s["round"] == rnd and s["current"] == red
        s, _ = play(s, "Red", "TIMEOUT")
        s = _blue_plays(s)
    assert s["status"][red] == "FULL_AUTO" and s["timeouts"][red] == 3
    prompt = RULES.owed(s)[red]
    assert prompt["kind"] == "auto" and prompt["forms"][0]["label"] == "Resume command"
    with pytest.raises(IllegalOrder, match="under auto-command; send RESUME_COMMAND"):
        RULES.validate(s, red, {"type": "END_TURN"})
    assert RULES.default_order(s, red, Dice()) == {"type": "TIMEOUT"}
    s, ev = play(s, "Red", "TIMEOUT")
    assert "attacks" in texts(ev)
    s = _blue_plays(s)
    assert s["round"] == 8 and s["current"] == red
    s, _ = play(s, "Red", "RESUME_COMMAND")
    assert s["status"][red] == "ACTIVE" and s["timeouts"][red] == 0
    assert RULES.owed(s)[red]["kind"] == "mobilisation"


def test_t27_own_end_turn_resets_the_counter():
    s = _t27()
    red = seat(s, "Red")
    s, _ = play(s, "Red", "TIMEOUT")
    s = _blue_plays(s)
    while s["current"] == red:
        s, _ = play(s, "Red", RULES.ai_order(s, red, Dice()))
    s = _blue_plays(s)
    s, _ = play(s, "Red", "TIMEOUT")
    s = _blue_plays(s)
    assert s["round"] == 7 and s["timeouts"][red] == 1 and s["status"][red] == "ACTIVE"


def test_t28_missed_deadline_in_mobilisation_trades_places_and_passes():
    s = scenario(
        owners={"WCA": "Red", "GER": "Red", "POL": "Red"},
        phase="MOBILISATION",
        armies={"GER": 9},
        rest=["Blue", "Olive"],
    )
    red = seat(s, "Red")
    s["trades"], s["pools"] = 3, {"G": 7}
    s["hands"][red] = ["c1", "c2", "c3", "c43"]
    before = armies_of(s, red)
    s2, ev = play(s, "Red", "TIMEOUT")
    assert s2["trades"] == 4 and s2["hands"][red] == ["c43"]
    assert sorted(s2["discard"]) == ["c1", "c2", "c3"]
    assert armies_of(s2, red) == before + 17 + 2
    # 9.3: spearhead Western Canada (Alaska lies in the priority theatre), weak point Poland: 17 // 3 there.
    assert (s2["armies"]["WCA"], s2["armies"]["POL"], s2["armies"]["GER"]) == (1 + 2 + 12, 1 + 5, 9)
    assert "+2 armies on Western Canada" in texts(ev)
    assert not any("attacks" in e["text"] for e in ev)
    assert s2["current"] != red and s2["timeouts"][red] == 1
