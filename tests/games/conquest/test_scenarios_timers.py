"""Spec section 10, scenarios T24-T28: armistice, abandonment, timeouts and auto-command.

A seat under full auto-command is played at once like an AI seat (D23); RESUME_COMMAND
and ABANDON CONFIRM are sent at any time (``apply_anytime``), on turn or not.
"""

from __future__ import annotations

import json

import pytest

from app.games.base import IllegalOrder, bot_order
from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.conquest.engine import start_turn
from app.games.conquest.state import armies_of, territories_of

from .helpers import Dice, anytime, en, play, scenario, seat, texts


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
    s, _ = play(s, "Red", {"type": "TIMEOUT"})
    assert s["current"] == red and s["round"] == 9
    s, ev = play(s, "Red", "ABANDON CONFIRM")
    result = RULES.outcome(s)
    assert result is not None and "no active human" in texts(ev)
    winners = {r["seat"] for r in result if r["winner"]}
    assert winners and winners <= {seat(s, "Olive"), seat(s, "Ochre")}


def _t26():
    """Round 11, Blue on turn about to miss a third turn; Red already under full auto-command."""
    s = scenario(players=2, current="Blue", phase="MOBILISATION", round_=11, rest=["Blue", "Red"])
    red, blue = seat(s, "Red"), seat(s, "Blue")
    s["status"][red], s["timeouts"][red] = "FULL_AUTO", 3
    s["timeouts"][blue] = 2
    start_turn(s, [])
    s["human_acted"] = True  # round 11 was not fully automatic
    return s


def _deadlines_until_the_end(s):
    """Every owed turn is a full auto-command seat's, waiting for its deadline; let each pass."""
    events = []
    while RULES.outcome(s) is None:
        (owing,) = RULES.owed(s)
        assert RULES.owed(s)[owing]["kind"] == "auto"
        s, ev = play(s, s["colour"][owing], {"type": "TIMEOUT"})
        events += ev
    return s, events


def test_t26_three_rounds_under_auto_command_end_the_game():
    s = _t26()
    s, ev = play(s, "Blue", {"type": "TIMEOUT"})
    # both humans under full auto-command: nobody is in command, so each of their turns waits for
    # its deadline (time to resume command) and auto-command plays it then
    assert RULES.outcome(s) is None and list(RULES.owed(s)) == [seat(s, "Red")]
    s, more = _deadlines_until_the_end(s)
    ev += more
    assert s["round"] == 14 and RULES.owed(s) == {}
    assert "3 rounds without a human order" in texts(ev)
    assert texts(ev).count("Auto-command plays the turn of") == 6


def test_t26_rounds_with_a_human_in_command_do_not_count():
    s = _t26()
    red = seat(s, "Red")
    s, _ = anytime(s, "Red", "RESUME_COMMAND")
    s, _ = play(s, "Blue", {"type": "TIMEOUT"})
    assert s["round"] == 12 and s["current"] == red and s["status"][red] == "ACTIVE"
    s, _ = play(s, "Red", {"type": "TIMEOUT"})  # round 12: Red in command, though he missed a deadline
    assert s["round"] == 13 and s["auto_rounds"] == 0 and s["current"] == red
    while s["round"] == 13:  # round 13: Red plays his own turn
        s, _ = play(s, "Red", bot_order(RULES, s, red, Dice()))
    assert s["round"] == 14 and s["auto_rounds"] == 0 and s["current"] == red
    s, _ = play(s, "Red", {"type": "TIMEOUT"})
    assert s["round"] == 15 and RULES.outcome(s) is None and s["auto_rounds"] == 0


def _lone_human():
    """1 human (Red, about to miss a third turn in round 4) and 3 AI seats."""
    s = scenario(players=4, current="Red", phase="MOBILISATION", round_=4, rest=["Red", "Blue", "Olive", "Ochre"])
    for colour in ("Blue", "Olive", "Ochre"):
        s["kind"][seat(s, colour)] = "ai"
    s["timeouts"][seat(s, "Red")] = 2
    start_turn(s, [])
    return s


def test_a_lone_human_under_auto_command_has_three_rounds_to_resume():
    s = _lone_human()
    red = seat(s, "Red")
    s, ev = play(s, "Red", {"type": "TIMEOUT"})
    # the same resolution does not end the game: Red's round-5 turn waits for its deadline
    assert s["status"][red] == "FULL_AUTO" and RULES.outcome(s) is None
    assert s["round"] == 5 and RULES.owed(s)[red]["kind"] == "auto"
    assert "Armistice" not in texts(ev)
    assert [f["base"] for f in RULES.anytime_prompt(s, red)["forms"]] == [{"type": "RESUME"}, {"type": "ABANDON"}]
    for rnd, counted in ((5, 1), (6, 2)):  # Red lets the deadline pass; the AI plays his turn
        s, _ = play(s, "Red", {"type": "TIMEOUT"})
        assert RULES.outcome(s) is None and s["round"] == rnd + 1 and s["auto_rounds"] == counted
        assert RULES.owed(s)[red]["kind"] == "auto"
    s, ev = anytime(s, "Red", "RESUME_COMMAND")  # round 7: he resumes; the AI plays this turn
    assert RULES.outcome(s) is None and s["round"] == 8 and s["auto_rounds"] == 0
    assert s["status"][red] == "ACTIVE" and s["timeouts"][red] == 0
    assert RULES.owed(s)[red]["kind"] == "mobilisation"


def test_a_lone_human_who_never_resumes_ends_in_armistice_after_three_rounds():
    s = _lone_human()
    s, _ = play(s, "Red", {"type": "TIMEOUT"})
    s, ev = _deadlines_until_the_end(s)
    assert s["round"] == 7 and "3 rounds without a human order" in texts(ev)


def _t27():
    s = scenario(players=3, current="Red", phase="MOBILISATION", round_=4, rest=["Blue", "Red", "Olive"])
    s["kind"][seat(s, "Olive")] = "ai"
    start_turn(s, [])
    return s


def _blue_plays(s):
    """Blue (a human) plays its own turn, so that rounds are not fully automatic."""
    blue, serial = seat(s, "Blue"), s["serial"]
    events = []
    while RULES.outcome(s) is None and s["current"] == blue and s["serial"] == serial:
        s, ev = play(s, "Blue", bot_order(RULES, s, blue, Dice()))
        events += ev
    return s, events


def test_t27_three_missed_turns_hand_the_seat_to_full_auto_command():
    s = _t27()
    red, blue = seat(s, "Red"), seat(s, "Blue")
    for rnd in (4, 5, 6):
        assert s["round"] == rnd and s["current"] == red
        assert RULES.anytime_prompt(s, red)["forms"][0]["base"] == {"type": "ABANDON"}
        s, _ = play(s, "Red", {"type": "TIMEOUT"})
        if rnd < 6:
            s, _ = _blue_plays(s)
    assert s["status"][red] == "FULL_AUTO" and s["timeouts"][red] == 3
    # Red's round-7 turn is played at once by the AI when Blue ends round 6: nobody waits for Red
    s, ev = _blue_plays(s)
    assert s["round"] == 7 and s["current"] == blue and red not in RULES.owed(s)
    assert f"Auto-command plays the turn of Commander {red[1:]} (Red)" in texts(ev)
    assert s["status"][red] == "FULL_AUTO"
    with pytest.raises(IllegalOrder, match="It is not your turn"):
        RULES.validate(s, red, {"type": "END_TURN"})
    prompt = RULES.anytime_prompt(s, red)
    assert [en(f["label"]) for f in prompt["forms"]] == ["Resume command", "Abandon the game (final)"]
    # RESUME_COMMAND after Red's automatic round-7 turn: ACTIVE from round 8, counter 0
    s, ev = anytime(s, "Red", "RESUME_COMMAND")
    assert "resumes command from the next turn" in texts(ev)
    assert s["status"][red] == "FULL_AUTO" and s["current"] == blue and s["round"] == 7
    assert [f["base"] for f in RULES.anytime_prompt(s, red)["forms"]] == [{"type": "ABANDON"}]
    with pytest.raises(IllegalOrder, match="already resumed command"):
        RULES.apply_anytime(s, red, {"type": "RESUME"}, Dice())
    s, ev = _blue_plays(s)
    assert s["round"] == 8 and s["current"] == red
    assert s["status"][red] == "ACTIVE" and s["timeouts"][red] == 0 and s["resuming"] == []
    assert "takes command again" in texts(ev)
    assert RULES.owed(s)[red]["kind"] == "mobilisation"


def test_full_auto_command_attacks():
    """The full auto-command plays the whole turn by section 9, attacks included (7.3)."""
    s = scenario(players=2, current="Blue", phase="REGROUP", round_=5, armies={"GER": 12, "ALA": 9},
                 owners={"GER": "Red", "ALA": "Red"}, rest=["Blue"])
    red = seat(s, "Red")
    s["status"][red], s["timeouts"][red] = "FULL_AUTO", 3
    s, ev = play(s, "Blue", "END_TURN", Dice(*([6] * 60 + [1] * 60)))
    assert f"Commander {red[1:]} (Red) attacks" in texts(ev) and s["current"] == seat(s, "Blue")


def test_resume_or_abandon_refused_change_nothing():
    s = _t27()
    red, blue = seat(s, "Red"), seat(s, "Blue")
    before = json.dumps(s, sort_keys=True)
    for who, order, message in [
        ("Blue", {"type": "RESUME"}, "not under auto-command"),
        ("Blue", {"type": "ABANDON"}, "Send ABANDON CONFIRM"),
        ("Blue", {"type": "END_TURN"}, "Only RESUME_COMMAND and ABANDON CONFIRM"),
        ("Olive", {"type": "ABANDON", "confirm": True}, "The AI commands this seat"),
    ]:
        with pytest.raises(IllegalOrder, match=message):
            RULES.apply_anytime(s, seat(s, who), order, Dice())
    assert json.dumps(s, sort_keys=True) == before
    assert RULES.anytime_prompt(s, seat(s, "Olive")) is None
    s, _ = anytime(s, "Blue", "ABANDON CONFIRM")
    assert RULES.anytime_prompt(s, blue) is None
    with pytest.raises(IllegalOrder, match="command cannot be resumed"):
        RULES.apply_anytime(s, blue, {"type": "RESUME"}, Dice())
    assert s["current"] == red


def test_abandon_while_another_seat_is_on_turn():
    s = _t27()
    red, blue = seat(s, "Red"), seat(s, "Blue")
    s, ev = anytime(s, "Blue", "ABANDON CONFIRM")
    assert s["status"][blue] == "ABANDONED" and s["current"] == red and RULES.outcome(s) is None
    assert any(e.get("slot_released") == blue for e in ev)
    # from now on the AI plays Blue's turns at once
    while s["round"] == 4:
        s, ev = play(s, "Red", bot_order(RULES, s, red, Dice()))
    assert s["current"] == red and s["round"] == 5 and blue not in RULES.owed(s)
    assert "Blue) places" in texts(ev)


def test_abandon_on_turn_lets_the_ai_finish_the_turn():
    s = _t27()
    red = seat(s, "Red")
    s, ev = anytime(s, "Red", "ABANDON CONFIRM")
    assert s["status"][red] == "ABANDONED" and s["current"] == seat(s, "Blue")
    assert "Red) places" in texts(ev)


def test_a_state_saved_while_a_full_auto_seat_owed_its_turn_goes_on():
    s = _t27()
    red = seat(s, "Red")
    s["status"][red], s["timeouts"][red] = "FULL_AUTO", 3
    del s["resuming"]  # older states have no such key
    prompt = RULES.owed(s)[red]
    assert prompt["kind"] == "auto" and [f["base"] for f in prompt["forms"]] == [{"type": "AUTO"}]
    assert RULES.default_order(s, red, Dice()) == {"type": "TIMEOUT"}
    s2, ev = play(s, "Red", "AUTO_COMMAND")
    assert s2["current"] == seat(s2, "Blue") and "Auto-command plays the turn" in texts(ev)
    s3, ev = anytime(s, "Red", "RESUME_COMMAND")  # the AI plays this turn, Red commands the next
    assert s3["current"] == seat(s3, "Blue") and s3["resuming"] == [red]


def test_t27_own_end_turn_resets_the_counter():
    s = _t27()
    red = seat(s, "Red")
    s, _ = play(s, "Red", {"type": "TIMEOUT"})
    s, _ = _blue_plays(s)
    while s["current"] == red:
        s, _ = play(s, "Red", bot_order(RULES, s, red, Dice()))
    s, _ = _blue_plays(s)
    s, _ = play(s, "Red", {"type": "TIMEOUT"})
    s, _ = _blue_plays(s)
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
    s2, ev = play(s, "Red", {"type": "TIMEOUT"})
    assert s2["trades"] == 4 and s2["hands"][red] == ["c43"]
    assert sorted(s2["discard"]) == ["c1", "c2", "c3"]
    assert armies_of(s2, red) == before + 17 + 2
    # 9.3: spearhead Western Canada (Alaska lies in the priority theatre), weak point Poland: 17 // 3 there.
    assert (s2["armies"]["WCA"], s2["armies"]["POL"], s2["armies"]["GER"]) == (1 + 2 + 12, 1 + 5, 9)
    assert "+2 armies on Western Canada" in texts(ev)
    assert not any("attacks" in en(e["text"]) for e in ev)
    assert s2["current"] != red and s2["timeouts"][red] == 1
