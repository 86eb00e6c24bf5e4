"""The solo variant against the Opposition (spec section 6)."""

from __future__ import annotations

import json
from random import Random

import pytest

from app.games.base import IllegalOrder
from app.games.driver import advance, start
from app.games.dual_powers import RULES
from app.games.dual_powers import position as B
from app.games.dual_powers import rounds as R
from app.games.dual_powers import solo as S

from .helpers import play, scenario, where


def _solo(faction: str = "SOV", difficulty: int = 3, seed: int = 5):
    options = {"solo": True, "difficulty": difficulty, "faction": faction}
    return RULES.setup(options, RULES.seats(options), Random(seed))


def test_solo_seats_and_options():
    assert RULES.seats({"solo": True, "difficulty": 2, "faction": "GOV"}) == ["GOV"]
    assert RULES.seats({}) == ["SOV", "GOV"]
    with pytest.raises(ValueError):
        RULES.seats({"solo": True, "difficulty": 7, "faction": "SOV"})


def test_solo_round_starts_with_opposition_leader_and_first_turn():
    state = _solo("SOV")
    assert len(state["hands"]["SOV"]) == 7  # 3 leaders + 4 cards
    assert state["objectives"]["SOV"] is not None and not state["revealed"]["SOV"]
    leader = state["opp_leader_card"]
    assert leader in ("L-KER", "L-MIL", "L-KOR")
    assert where(state, leader) == (state["tiles"]["unrest"], True)
    assert state["wotp"] == "OPP"
    # OPP has played turn 1 already: one card in its row, four left in its pile
    assert len(state["played"]["OPP"]) == 1 and len(state["opp_pile"]) == 4
    assert list(RULES.owed(state)) == ["SOV"] and RULES.turn_key(state) == "R1-T2"
    assert state["turn_order"] == ["OPP", "SOV"] * 4 + ["OPP"]


def test_solo_human_objective_is_hidden_even_from_the_human():
    state = _solo("GOV")
    objective = state["objectives"]["GOV"]
    for seat in ("GOV", None):
        assert f'"{objective}"' not in json.dumps(RULES.view(state, seat))
    assert RULES.secrets(state, "GOV") == [c for c in state["hands"]["GOV"] if c.startswith("C-")]


def test_solo_espionage_and_organize_reveal_the_players_own_objective():
    state = scenario(solo=True, faction="SOV", to_act="SOV", day=13, hands={"SOV": ["L-DZE", "C-RED-2"]})
    state["objectives"]["SOV"] = "C-GRN-7"
    state["opp_pile"] = []
    spied, _ = play(state, "SOV", "PLAY L-DZE LEADER SPECIAL")
    assert spied["revealed"]["SOV"]
    assert RULES.view(spied, "SOV")["objectives"]["SOV"]["card"]["id"] == "C-GRN-7"
    organized, _ = play(state, "SOV", "PLAY C-RED-2 PASS BONUS ORGANIZE")
    assert organized["revealed"]["SOV"]
    spied["turn"] = 1
    spied["hands"]["SOV"] = ["C-RED-2"]
    spied["day"] = 13
    with pytest.raises(IllegalOrder, match="already revealed"):
        RULES.validate(spied, "SOV", RULES.parse("PLAY C-RED-2 PASS BONUS ORGANIZE"))


def test_opposition_turn_places_a_unit_and_a_bonus_unit_in_the_unrest_region():
    state = scenario(solo=True, faction="SOV", day=11, unrest="WHT")
    state["opp_pile"] = ["C-PUR-4"]
    S.opp_turn(state, [])
    assert state["day"] == 15 and state["played"]["OPP"] == ["C-PUR-4"]
    placed = {t: at["region"] for t, at in state["board"].items()}
    assert sorted(placed.values()) == ["PUR", "WHT"]
    assert any(t.startswith("O2-") and r == "PUR" for t, r in placed.items())
    assert any(t.startswith("O1-") and r == "WHT" for t, r in placed.items())


def test_opposition_month_advance_takes_the_will_of_the_people():
    state = scenario(solo=True, faction="GOV", day=30, wotp="GOV")
    state["opp_pile"] = ["C-RED-2"]
    S.opp_turn(state, [])
    assert state["month"] == 1 and state["wotp"] == "OPP"


def test_opposition_token_shortage_takes_lower_then_higher_level():
    state = scenario(solo=True)
    state["opp_pool"] = ["O1-1", "O3-1"]
    assert S.take_opp_unit(state, 2) == "O1-1"
    assert S.take_opp_unit(state, 2) == "O3-1"
    assert S.take_opp_unit(state, 2) is None


def test_exhausted_opposition_units_have_the_difficulty_strength():
    state = scenario(solo=True, difficulty=5, board={"O1-1": ("RED", False), "O3-2": ("RED", True)})
    assert B.token_strength(state, "O1-1") == 5 and B.token_strength(state, "O3-2") == 3
    B.exhaust(state, ["RED"], [])
    assert "O1-1" in state["opp_pool"] and where(state, "O3-2") == ("RED", False)


def test_opposition_always_scores_the_unrest_region():
    state = scenario(solo=True, faction="SOV", month=2, unrest="RED", board={"O2-1": ("RED", True)})
    state["objectives"]["SOV"] = "C-GRN-2"
    state["turn"] = len(state["turn_order"])
    events: list = []
    R.run(state, Random(1), events)
    assert state["s"] == -3
    assert any(RULES.text.english(e["text"]).startswith("Opposition gains 3 VP (unrest") for e in events)


def test_red_trotsky_joins_the_opposition_when_the_player_is_gov():
    state = scenario(solo=True, faction="GOV", day=30, month=2, board={"T-NEU": ("BLU", True)})
    state["opp_pile"] = ["C-RED-2"]
    S.opp_turn(state, [])
    assert B.owner(state, "T-RED") == "OPP"


def play_default(rules, options, seed):
    game = start(rules, options, seed)
    while rules.outcome(game.state) is None:
        advance(rules, game, {})
    return game.state


def test_solo_game_ends_after_round_three_and_is_deterministic():
    a = play_default(RULES, {"solo": True, "difficulty": 2, "faction": "SOV"}, "seed-1")
    b = play_default(RULES, {"solo": True, "difficulty": 2, "faction": "SOV"}, "seed-1")
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert RULES.outcome(a) is not None
    assert a["round"] <= 3
