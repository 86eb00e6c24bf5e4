"""Rules of the two-player game, each as a player would notice it."""

from __future__ import annotations

import json
from random import Random

import pytest

from app.games.base import IllegalOrder
from app.games.dual_powers import RULES
from app.games.dual_powers import data as D
from app.games.dual_powers import position as B
from app.games.dual_powers import rounds as R

from .helpers import play, scenario, where


def _new_game(seed: int = 3):
    return RULES.setup({}, ["SOV", "GOV"], Random(seed))


def test_setup_deals_leaders_and_five_cards_and_asks_both_for_objectives():
    state = _new_game()
    for side in ("SOV", "GOV"):
        hand = state["hands"][side]
        assert len(hand) == 8
        assert sorted(c for c in hand if c.startswith("L-")) == sorted(D.LEADERS[side])
    assert sorted(t for t in state["board"]) == sorted(D.NEUTRALS)
    assert sorted(at["region"] for at in state["board"].values()) == sorted(D.REGIONS)
    assert state["s"] == 0 and state["wotp"] == "SOV" and (state["day"], state["month"]) == (1, 0)
    assert state["tiles"]["unrest"] != state["tiles"]["blockade"]
    assert state["blockade"] == "A-" + state["tiles"]["blockade"]
    assert len(state["deck"]) == 38
    owed = RULES.owed(state)
    assert set(owed) == {"SOV", "GOV"} and {p["kind"] for p in owed.values()} == {"objective"}
    assert RULES.turn_key(state) == "R1-objective"


def test_objective_must_be_a_command_card_from_the_hand():
    state = _new_game()
    with pytest.raises(IllegalOrder, match="Leader cards cannot be secret objectives"):
        RULES.validate(state, "SOV", RULES.parse("OBJECTIVE L-LEN"))
    foreign = next(c for c in state["hands"]["GOV"] if c.startswith("C-"))
    with pytest.raises(IllegalOrder, match="is not in your hand"):
        RULES.validate(state, "SOV", {"type": "OBJECTIVE", "card": foreign})


def test_objective_step_then_wotp_holder_takes_turn_one_and_turn_keys_change():
    state = _new_game()
    orders = {s: RULES.default_order(state, s, Random(0)) for s in ("SOV", "GOV")}
    new, _ = RULES.resolve(state, orders, Random(1))
    assert new["objectives"]["SOV"] == orders["SOV"]["card"]
    assert orders["SOV"]["card"] not in new["hands"]["SOV"]
    assert list(RULES.owed(new)) == ["SOV"] and RULES.turn_key(new) == "R1-T1"
    keys = [RULES.turn_key(new)]
    for _ in range(3):
        seat = next(iter(RULES.owed(new)))
        new, _ = RULES.resolve(new, {seat: RULES.default_order(new, seat, Random(0))}, Random(2))
        keys.append(RULES.turn_key(new))
    assert keys == ["R1-T1", "R1-T2", "R1-T3", "R1-T4"]


def test_players_alternate_strictly_even_when_the_will_of_the_people_moves():
    hands = {"GOV": ["C-RED-2", "C-RED-3"], "SOV": ["L-LEN", "C-GRN-3"]}
    state = scenario(to_act="GOV", wotp="GOV", hands=hands)
    new, _ = play(state, "GOV", "PLAY C-RED-2 PASS")
    new, _ = play(new, "SOV", "PLAY L-LEN LEADER SPECIAL")
    assert new["wotp"] == "SOV"
    assert list(RULES.owed(new)) == ["GOV"]


def test_calendar_days_29_and_30_become_31_and_15_gives_a_bonus():
    for day, days, expected, bonus in ((26, 4, 31, True), (11, 4, 15, True), (20, 7, 27, False),
                                       (25, 5, 31, True), (28, 5, 2, False)):
        state = scenario(day=day)
        assert B.advance_date(state, days, "SOV", []) is bonus
        assert state["day"] == expected


def test_calendar_in_october_wraps_the_day_without_a_new_month():
    state = scenario(day=30, month=5, wotp="SOV")
    B.advance_date(state, 4, "GOV", [])
    assert (state["day"], state["month"], state["wotp"]) == (3, 5, "SOV")


def test_trotsky_never_joins_if_neutral_trotsky_is_gone():
    state = scenario(day=30, month=2, wotp="GOV")
    state["out"].append("T-NEU")
    B.advance_date(state, 3, "SOV", [])
    assert "T-RED" in state["out"] and "T-RED" not in state["board"]


def test_double_move_takes_two_steps_but_not_back_to_the_start():
    state = scenario(board={"R05": ("GRN", True)}, hands={"SOV": ["C-GRN-4"]})
    new, _ = play(state, "SOV", "PLAY C-GRN-4 DOUBLE R05 VIA BLU TO WHT")
    assert where(new, "R05") == ("WHT", True)
    with pytest.raises(IllegalOrder, match="must end in a different region"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-GRN-4 DOUBLE R05 VIA BLU TO GRN"))
    with pytest.raises(IllegalOrder, match="blockaded"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-GRN-4 DOUBLE R05 TO RED"))
    with pytest.raises(IllegalOrder, match="Admiralty is not adjacent to Petrograd Side"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-GRN-4 DOUBLE R05 TO WHT"))


def test_a_command_card_allows_recruit_or_its_own_action_only():
    state = scenario(board={"R05": ("GRN", False)}, hands={"SOV": ["C-GRN-4", "C-GRN-3"]})
    with pytest.raises(IllegalOrder, match="allows Recruit or Double Move only"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-GRN-4 REFRESH R05"))
    new, _ = play(state, "SOV", "PLAY C-GRN-3 REFRESH R05")
    assert where(new, "R05") == ("GRN", True)
    fresh = scenario(board={"R05": ("GRN", True)}, hands={"SOV": ["C-GRN-3"]})
    with pytest.raises(IllegalOrder, match="already fresh"):
        RULES.validate(fresh, "SOV", RULES.parse("PLAY C-GRN-3 REFRESH R05"))


def test_bonus_needs_day_15_or_31_and_bonus_recruit_takes_value_one():
    state = scenario(day=20, hands={"SOV": ["C-RED-2"]})
    with pytest.raises(IllegalOrder, match="not entitled to a bonus"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-2 PASS BONUS DRAW"))
    state = scenario(day=13, hands={"SOV": ["C-RED-2"]})
    with pytest.raises(IllegalOrder, match="recruit value 1"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-2 PASS BONUS RECRUIT R05 IN WHT"))
    new, _ = play(state, "SOV", "PLAY C-RED-2 PASS BONUS RECRUIT R01 IN WHT")
    assert where(new, "R01") == ("WHT", True)
    with pytest.raises(IllegalOrder, match="solo game only"):
        RULES.validate(state, "SOV", RULES.parse("PLAY C-RED-2 PASS BONUS ORGANIZE"))


def test_bonus_draw_adds_a_card_only_the_drawer_sees():
    state = scenario(day=13, hands={"SOV": ["C-RED-2"]})
    top = state["deck"][0]
    new, events = play(state, "SOV", "PLAY C-RED-2 PASS BONUS DRAW")
    assert top in new["hands"]["SOV"]
    for event in events:
        if top in RULES.text.english(event["text"]):
            assert event["to"] == ["SOV"]


def test_draw_reshuffles_the_discard_pile_when_the_deck_is_empty():
    state = scenario()
    state["discard"], state["deck"] = ["C-RED-2", "C-RED-3"], []
    card = B.draw(state, Random(1), [])
    assert card in ("C-RED-2", "C-RED-3") and state["discard"] == [] and len(state["deck"]) == 1


def test_mobilize_protest_moves_the_blockade_elsewhere():
    state = scenario(to_act="GOV", hands={"GOV": ["L-KOR"]})
    with pytest.raises(IllegalOrder, match="different connection"):
        RULES.validate(state, "GOV", RULES.parse("PLAY L-KOR LEADER SPECIAL A-RED"))
    new, _ = play(state, "GOV", "PLAY L-KOR LEADER IN WHT SPECIAL A-BLU")
    assert new["blockade"] == "A-BLU" and where(new, "L-KOR") == ("WHT", True)
    assert "L-KOR" in new["played"]["GOV"]


def test_inspire_first_lets_the_leader_refresh_neutrals():
    board = {"N1": ("RED", False)}
    state = scenario(wotp="GOV", board=board, hands={"SOV": ["L-LEN"]})
    late, _ = play(state, "SOV", "PLAY L-LEN LEADER IN RED SPECIAL")
    assert late["wotp"] == "SOV" and where(late, "N1") == ("RED", False)
    early, _ = play(state, "SOV", "PLAY L-LEN LEADER IN RED SPECIAL-FIRST")
    assert early["wotp"] == "SOV" and where(early, "N1") == ("RED", True)


def test_espionage_reveals_the_opponents_objective_to_both():
    state = scenario(hands={"SOV": ["L-DZE"]})
    state["objectives"]["GOV"] = "C-WHT-7"
    assert '"C-WHT-7"' not in json.dumps(RULES.view(state, "SOV"))
    new, _ = play(state, "SOV", "PLAY L-DZE LEADER IN PUR SPECIAL")
    assert new["revealed"]["GOV"]
    assert RULES.view(new, "SOV")["objectives"]["GOV"]["card"]["id"] == "C-WHT-7"
    assert RULES.view(new, None)["objectives"]["GOV"]["card"]["id"] == "C-WHT-7"


def test_espionage_first_opens_a_second_step_for_the_leader_and_bonus():
    state = scenario(day=12, hands={"SOV": ["L-DZE"]})  # 12 + 3 = 15: bonus
    state["objectives"]["GOV"] = "C-WHT-7"
    new, _ = play(state, "SOV", "PLAY L-DZE SPY-FIRST")
    assert new["revealed"]["GOV"]
    prompt = RULES.owed(new)["SOV"]
    assert prompt["kind"] == "turn_part2" and RULES.turn_key(new) == "R1-T1-part2"
    assert RULES.default_order(new, "SOV", Random(0)) == {"type": "PLACE", "region": "BLU"}
    done, _ = play(new, "SOV", "PLACE WHT BONUS DRAW")
    assert where(done, "L-DZE") == ("WHT", True)
    assert list(RULES.owed(done)) == ["GOV"] and RULES.turn_key(done) == "R1-T2"


def test_default_orders_follow_the_spec():
    state = _new_game()
    state["hands"]["SOV"] = ["L-LEN", "C-RED-7", "C-GRN-6B", "C-BLU-2"]
    assert RULES.default_order(state, "SOV", Random(0))["card"] == "C-GRN-6B"  # 4 VP, fewer days
    state = scenario(hands={"SOV": ["L-LEN", "C-RED-5A", "C-GRN-5B", "C-BLU-7"]})
    assert RULES.default_order(state, "SOV", Random(0)) == {"type": "PLAY", "card": "C-RED-5A",
                                                            "action": "PASS"}
    state = scenario(hands={"SOV": ["L-LEN", "L-DZE"]})
    assert RULES.default_order(state, "SOV", Random(0))["card"] == "L-DZE"


def test_a_missed_turn_plays_the_default_and_still_moves_the_calendar():
    state = scenario(to_act="GOV", day=28, wotp="SOV", hands={"GOV": ["C-RED-5A", "C-BLU-6A"]})
    new, _ = RULES.resolve(state, {}, Random(1))
    assert "C-RED-5A" in new["played"]["GOV"] and new["wotp"] == "GOV" and new["month"] == 1


def test_unrest_winner_may_take_a_bonus_instead_of_scoring():
    state = scenario(unrest="RED", board={"R01": ("RED", True)})
    state["turn"] = len(state["turn_order"])
    R.run(state, Random(1), [])
    assert RULES.default_order(state, "SOV", Random(0)) == {"type": "UNREST", "choice": "SCORE"}
    new, _ = play(state, "SOV", "UNREST BONUS RECRUIT R02 IN RED")
    assert new["s"] == 0 and where(new, "R02") == ("RED", False)  # then exhausted as unrest region


def test_reveal_order_fewer_vp_first_and_a_shared_region_scores_twice():
    state = scenario(s=3, unrest="BLU", board={"W01": ("PUR", True)})
    state["objectives"] = {"SOV": "C-PUR-7", "GOV": "C-PUR-4"}
    assert R.reveal_order(state) == ["GOV", "SOV"]
    state["s"] = 0
    state["wotp"] = "GOV"
    assert R.reveal_order(state) == ["SOV", "GOV"]
    state["turn"] = len(state["turn_order"])
    events: list = []
    R.run(state, Random(1), events)
    assert state["s"] == -6  # GOV scores both cards in purple: 4 + 2


def test_calendar_end_in_october_ties_go_to_the_will_of_the_people():
    state = scenario(month=5, wotp="GOV", unrest="BLU")
    state["turn"] = len(state["turn_order"])
    R.run(state, Random(1), [])
    assert RULES.outcome(state)[0]["seat"] == "GOV" and RULES.owed(state) == {}


def test_cleanup_moves_tiles_discards_cards_and_removes_leaders():
    state = scenario(unrest="BLU", blockade="A-WHT")
    state["played"] = {"SOV": ["C-RED-2", "L-LEN"], "GOV": ["C-GRN-2"]}
    state["objectives"] = {"SOV": "C-RED-3", "GOV": "C-GRN-3"}
    stack = list(state["tiles"]["stack"])
    R.cleanup(state, Random(1), [])
    assert state["tiles"]["unrest"] == "WHT" and "TILE-BLU" in state["tiles"]["gone"]
    assert state["tiles"]["blockade"] == stack[0][5:] and state["blockade"] == "A-" + stack[0][5:]
    assert {"C-RED-2", "C-GRN-2", "C-RED-3", "C-GRN-3"} <= set(state["discard"])
    assert "L-LEN" in state["removed_cards"]


def test_exhausted_neutrals_leave_the_game():
    state = scenario(board={"N5": ("RED", False), "T-NEU": ("RED", False)})
    B.exhaust(state, ["RED"], [])
    assert {"N5", "T-NEU"} <= set(state["out"])


def test_hidden_information_in_views():
    state = _new_game()
    sov = json.dumps(RULES.view(state, "SOV"))
    gov = json.dumps(RULES.view(state, "GOV"))
    public = json.dumps(RULES.view(state, None))
    for card in state["hands"]["SOV"]:
        if card.startswith("C-"):
            assert f'"{card}"' in sov and f'"{card}"' not in gov and f'"{card}"' not in public
    for card in state["deck"]:
        assert f'"{card}"' not in public
    view = RULES.view(state, "GOV")
    assert view["hand_counts"]["SOV"] == 8 and sorted(view["leader_cards_in_hand"]["SOV"]) == sorted(
        D.LEADERS["SOV"])
    assert view["tiles"]["stack_set"] == sorted(state["tiles"]["stack"])
