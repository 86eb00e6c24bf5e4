"""Order notation (mail replies) and the forms drawn from prompts."""

from __future__ import annotations

from random import Random

import pytest

from app.games.base import IllegalOrder, InvalidOrder
from app.games.dual_powers import RULES

from .helpers import scenario, where

EXAMPLES = [
    ("PLAY C-RED-4 RECRUIT R05", {"type": "PLAY", "card": "C-RED-4", "action": "RECRUIT", "units": ["R05"]}),
    ("OBJECTIVE C-RED-5A", {"type": "OBJECTIVE", "card": "C-RED-5A"}),
    ("PLAY C-GRN-4 DOUBLE R05 VIA BLU TO WHT",
     {"type": "PLAY", "card": "C-GRN-4", "action": "DOUBLE", "token": "R05", "via": "BLU", "to": "WHT"}),
    ("PLAY C-PUR-4 RECRUIT R05 BONUS MOVE N3 TO PUR",
     {"type": "PLAY", "card": "C-PUR-4", "action": "RECRUIT", "units": ["R05"], "bonus": "MOVE",
      "bonus_token": "N3", "bonus_to": "PUR"}),
    ("PLAY L-KOR LEADER SPECIAL-FIRST A-BLU",
     {"type": "PLAY", "card": "L-KOR", "action": "LEADER", "special": True, "special_first": True,
      "connection": "A-BLU"}),
    ("PLAY L-KER LEADER IN GRN",
     {"type": "PLAY", "card": "L-KER", "action": "LEADER", "region": "GRN", "special": False,
      "special_first": False}),
    ("PLAY L-DZE SPY-FIRST", {"type": "PLAY", "card": "L-DZE", "action": "SPY_FIRST"}),
    ("PLACE NONE BONUS RECRUIT R01 IN GRN",
     {"type": "PLACE", "bonus": "RECRUIT", "bonus_token": "R01", "bonus_to": "GRN"}),
    ("UNREST SCORE", {"type": "UNREST", "choice": "SCORE"}),
    ("UNREST BONUS DRAW", {"type": "UNREST", "choice": "BONUS", "bonus": "DRAW"}),
]


@pytest.mark.parametrize(("text", "order"), EXAMPLES)
def test_notation_reads_and_writes_every_order(text, order):
    assert RULES.parse(text) == order
    assert RULES.parse(text.lower()) == order
    assert RULES.format(order) == text


@pytest.mark.parametrize("text", ["PLAY", "PLAY C-RED-4", "PLAY C-RED-4 RECRUIT", "PLAY C-RED-4 FLY",
                                  "PLAY C-RED-4 MOVE R01 GRN", "UNREST", "OBJECTIVE", "PLACE",
                                  "PLAY C-RED-4 PASS EXTRA", "PLAY C-RED-4 PASS BONUS FLY", "<b>"])
def test_unreadable_orders_are_refused_with_a_reason(text):
    with pytest.raises(InvalidOrder):
        RULES.parse(text)


def test_card_choices_show_days_region_recruit_action_and_vp():
    state = scenario(day=11, hands={"SOV": ["C-PUR-4", "L-LEN"]}, board={"R05": ("GRN", True)})
    prompt = RULES.owed(state)["SOV"]
    assert prompt["kind"] == "turn"
    recruit = next(f for f in prompt["forms"] if RULES.text.english(f["label"]) == "Recruit")
    label = RULES.text.english(recruit["fields"][0]["choices"][0]["label"])
    assert label.startswith("Liteyny-Smolny, 4 days: recruit 2 or Double Move, 2 VP")
    assert recruit["fields"][0]["choices"][0]["title"] == "C-PUR-4"  # the code only as a tooltip
    assert "bonus" in label  # day 11 + 4 = 15
    labels = [RULES.text.english(f["label"]) for f in prompt["forms"]]
    assert "Leader Recruit and special action" in labels and "Double Move" in labels
    assert "Refresh" not in labels  # no Refresh card in hand
    empty = scenario(hands={"SOV": ["C-PUR-4"]})
    empty_forms = RULES.owed(empty)["SOV"]["forms"]
    assert "Double Move" not in [RULES.text.english(f["label"]) for f in empty_forms]  # nothing to move
    assert RULES.parse(prompt["example"])


def test_an_order_built_from_a_form_is_valid():
    state = scenario(board={"R05": ("GRN", True)}, hands={"SOV": ["C-GRN-4"]})
    form = next(f for f in RULES.owed(state)["SOV"]["forms"] if RULES.text.english(f["label"]) == "Double Move")
    order = dict(form["base"], card="C-GRN-4", token="R05", via="BLU", to="WHT")
    RULES.validate(state, "SOV", order)
    new, _ = RULES.resolve(state, {"SOV": order}, Random(1))
    assert where(new, "R05") == ("WHT", True)


def test_errors_speak_of_the_board():
    state = scenario(board={"R05": ("RED", True)}, hands={"SOV": ["C-RED-2"]})
    with pytest.raises(IllegalOrder, match="Petrograd Side cannot be reached from Vyborg Side: the "
                                           r"connection \(Sampsonievsky Bridge\) is blockaded"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-2 MOVE R05 TO GRN"))
    with pytest.raises(IllegalOrder, match=r"Refresh \(Vyborg Side, 3 days\) is not in your hand"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-3 PASS"))
    with pytest.raises(IllegalOrder, match="It is not your turn"):
        RULES.validate(state, "GOV", RULES.parse("PLAY C-RED-2 PASS"))
    with pytest.raises(IllegalOrder, match="not in your supply"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-2 RECRUIT W01"))
