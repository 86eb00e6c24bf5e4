"""Rulebook Examples A-H and the spec's regression scenarios X1-X6 (spec section 7)."""

from __future__ import annotations

from random import Random

import pytest

from app.games.base import IllegalOrder
from app.games.dual_powers import RULES
from app.games.dual_powers import position as B
from app.games.dual_powers import rounds as R
from app.games.dual_powers import solo as S

from .helpers import play, scenario, where


def test_example_a_purple_4_from_day_26_lands_on_31_with_bonus():
    state = scenario(to_act="GOV", day=26, month=2, wotp="SOV", hands={"GOV": ["C-PUR-4"]})
    new, _ = play(state, "GOV", "PLAY C-PUR-4 PASS")
    assert new["day"] == 31
    assert new["month"] == 2
    assert new["wotp"] == "SOV"
    # the bonus is offered: the same turn may carry a bonus action
    RULES.validate(state, "GOV", RULES.parse("PLAY C-PUR-4 PASS BONUS DRAW"))


def test_example_b_recruit_two_value_one_units_in_green():
    state = scenario(hands={"SOV": ["C-GRN-4"]})
    new, _ = play(state, "SOV", "PLAY C-GRN-4 RECRUIT R01 R02")
    assert where(new, "R01") == ("GRN", True)
    assert where(new, "R02") == ("GRN", True)
    assert "R01" not in new["supply"]["SOV"] and "R02" not in new["supply"]["SOV"]
    with pytest.raises(IllegalOrder, match="Total recruit value 3 exceeds the card's 2"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-GRN-4 RECRUIT R05 R01"))


def test_example_c_kerensky_blocked_so_a_unit_moves_blue_to_white():
    state = scenario(to_act="GOV", board={"L-KER": ("GRN", True), "W01": ("BLU", True)},
                     hands={"GOV": ["C-BLU-5A"]})
    with pytest.raises(IllegalOrder, match="Vyborg Side cannot be reached from Petrograd Side: "
                                           "the connection .* is blockaded"):
        RULES.validate(state, "GOV", RULES.parse("PLAY C-BLU-5A MOVE L-KER TO RED"))
    new, _ = play(state, "GOV", "PLAY C-BLU-5A MOVE W01 TO WHT")
    assert where(new, "W01") == ("WHT", True)


def test_example_d_bonus_moves_a_controlled_neutral_into_the_objective_region():
    board = {"R02": ("BRN", True), "N3": ("BRN", True)}
    state = scenario(day=11, wotp="SOV", board=board, hands={"SOV": ["C-PUR-4"]})
    state["objectives"]["SOV"] = "C-PUR-6B"
    new, _ = play(state, "SOV", "PLAY C-PUR-4 RECRUIT R05 BONUS MOVE N3 TO PUR")
    assert new["day"] == 15
    assert where(new, "R05") == ("PUR", True)
    assert where(new, "N3") == ("PUR", True)
    assert B.strength(new, "SOV", "PUR") == (3, 2)  # R05 (2) + N3 (1), counted for SOV
    alone = scenario(day=11, wotp="SOV", board={"N3": ("BRN", True)}, hands={"SOV": ["C-PUR-4"]})
    with pytest.raises(IllegalOrder, match="You do not control neutral unit 1/1"):
        RULES.validate(alone, "SOV", RULES.parse("PLAY C-PUR-4 RECRUIT R05 BONUS MOVE N3 TO PUR"))


def test_example_e_equal_strength_more_tokens_wins():
    board = {"R09": ("GRN", True), "R03": ("GRN", True), "R01": ("GRN", False),
             "W05": ("GRN", True), "W06": ("GRN", True)}
    state = scenario(wotp="GOV", board=board)
    assert B.strength(state, "SOV", "GRN") == (4, 3)
    assert B.strength(state, "GOV", "GRN") == (4, 2)
    assert B.greater(state, "GRN") == "SOV"


def test_example_f_gov_scores_unrest_in_july_and_brown_is_exhausted():
    board = {"W01": ("BRN", True), "W02": ("BRN", True), "W03": ("BRN", False),
             "R05": ("BRN", True), "R01": ("BRN", False)}
    state = scenario(month=2, unrest="BRN", board=board, wotp="SOV")
    state["turn"] = len(state["turn_order"])
    R.run(state, Random(1), [])
    assert RULES.owed(state).keys() == {"GOV"}
    assert RULES.owed(state)["GOV"]["kind"] == "unrest_choice"
    new, _ = play(state, "GOV", "UNREST SCORE")
    assert new["s"] == -3
    assert where(new, "W01") == ("BRN", False)
    assert where(new, "W02") == ("BRN", False)
    assert where(new, "R05") == ("BRN", False)
    assert "W03" in new["supply"]["GOV"] and "W03" not in new["board"]
    assert "R01" in new["supply"]["SOV"] and "R01" not in new["board"]


def test_example_g_white_objective_region_exhausts_and_removes():
    board = {"W05": ("WHT", True), "L-KOR": ("WHT", False), "R10": ("WHT", False)}
    state = scenario(board=board)
    B.exhaust(state, ["WHT"], [])
    assert where(state, "W05") == ("WHT", False)
    assert B.token_strength(state, "W05") == 1
    assert "L-KOR" in state["out"] and "L-KOR" not in state["supply"]["GOV"]
    assert "R10" in state["supply"]["SOV"] and "R10" not in state["board"]


def test_example_h_opposition_objective_is_purple_4():
    row = ["C-RED-2", "C-RED-4", "C-PUR-4", "C-BRN-5A", "C-PUR-2"]
    assert S.opp_objective(row) == "C-PUR-4"
    state = scenario(solo=True, faction="SOV", board={"O2-1": ("PUR", True)})
    state["played"]["OPP"] = list(row)
    state["objectives"]["SOV"] = "C-GRN-2"
    state["turn"] = len(state["turn_order"])
    events: list = []
    R.run(state, Random(1), events)
    texts = [RULES.text.english(e["text"]) for e in events]
    assert any(t.startswith("Opposition's secret objective is revealed (scoring): Liteyny-Smolny, 4 days:")
               for t in texts)
    # SOV holds WotP at s = 0, so OPP reveals first: marker 2 goes to purple, worth PUR-4's 2 VP
    assert any(t.startswith("Opposition gains 2 VP (objective 2 in Liteyny-Smolny)") for t in texts)
    assert state["s"] == -2


def test_x1_month_advance_gives_wotp_and_trotsky_returns():
    state = scenario(to_act="GOV", day=28, month=0, wotp="SOV", unrest="BLU", hands={"GOV": ["C-GRN-5A"]})
    new, _ = play(state, "GOV", "PLAY C-GRN-5A PASS")
    assert (new["day"], new["month"]) == (2, 1)
    assert new["wotp"] == "GOV"
    assert where(new, "T-NEU") == ("BLU", True)


def test_x2_august_turns_neutral_trotsky_red_keeping_his_side():
    state = scenario(to_act="SOV", day=27, month=2, wotp="GOV", board={"T-NEU": ("BLU", False)},
                     hands={"SOV": ["C-RED-5A"]})
    new, _ = play(state, "SOV", "PLAY C-RED-5A PASS")
    assert (new["day"], new["month"]) == (1, 3)
    assert new["wotp"] == "SOV"
    assert "T-NEU" not in new["board"]
    assert where(new, "T-RED") == ("BLU", False)
    assert B.owner(new, "T-RED") == "SOV" and B.controls(new, "SOV", "T-RED")


def test_x3_region_with_only_a_neutral_has_no_greater_strength():
    state = scenario(wotp="SOV", board={"N5": ("PUR", True)})
    assert B.greater(state, "PUR") is None


def test_x4_region_with_two_markers_is_exhausted_once():
    state = scenario(unrest="WHT", board={"W01": ("WHT", True)}, wotp="SOV")
    state["objectives"] = {"SOV": "C-RED-2", "GOV": "C-WHT-2"}
    state["turn"] = len(state["turn_order"])
    R.run(state, Random(1), [])
    new, _ = play(state, "GOV", "UNREST SCORE")
    assert where(new, "W01") == ("WHT", False)


def test_x5_track_end_on_unrest_ends_the_game_at_once():
    state = scenario(s=11, unrest="RED", board={"R01": ("RED", True)})
    state["objectives"] = {"SOV": "C-RED-2", "GOV": "C-GRN-2"}
    state["turn"] = len(state["turn_order"])
    R.run(state, Random(1), [])
    new, _ = play(state, "SOV", "UNREST SCORE")
    assert new["s"] == 12
    assert RULES.outcome(new)[0] == {"seat": "SOV", "score": 12, "rank": 1}
    assert RULES.owed(new) == {}
    assert where(new, "R01") == ("RED", True)  # 4d skipped
    assert not new["revealed"]["GOV"]          # 4b skipped


def test_x6_leader_recruit_refreshes_controlled_exhausted_neutrals():
    state = scenario(to_act="GOV", wotp="GOV", board={"N1": ("RED", False)}, hands={"GOV": ["L-KER"]})
    new, _ = play(state, "GOV", "PLAY L-KER LEADER IN RED")
    assert where(new, "L-KER") == ("RED", True)
    assert where(new, "N1") == ("RED", True)
