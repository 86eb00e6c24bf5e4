"""The solo bot against the Opposition: positions where one choice wins the game."""

from __future__ import annotations

from random import Random

import pytest

from app.games.base import bot_order, step_rng
from app.games.driver import advance, start
from app.games.dual_powers import RULES
from app.games.dual_powers import position as B

from .helpers import scenario

#: The Opposition's four earlier cards of the round: one level-1 unit in each of four regions.
EARLIER_ROW = ["C-GRN-2", "C-WHT-2", "C-BRN-2", "C-PUR-2"]
EARLIER_UNITS = {"O1-2": ("GRN", True), "O1-3": ("WHT", True), "O1-4": ("BRN", True), "O1-5": ("PUR", True)}


def _last_round(state: dict, objective: str) -> dict:
    state["round"] = 3
    state["objectives"]["SOV"] = objective
    state["revealed"]["SOV"] = True
    state["played"]["OPP"] = list(EARLIER_ROW)
    return state


def _resolve(state: dict, order: dict) -> dict:
    RULES.validate(state, "SOV", order)
    return RULES.resolve(state, {"SOV": order}, Random(3))[0]


def test_on_its_last_turn_the_bot_recruits_where_the_unrest_is_decided():
    # Unrest in BLU (3 VP in July) where the Opposition has one level-1 unit; the Opposition's
    # last card (unseen by the bot) goes to RED.  Only recruiting 3 strength into BLU wins.
    board = {"O1-1": ("BLU", True), **EARLIER_UNITS}
    state = _last_round(scenario(solo=True, faction="SOV", difficulty=1, to_act="SOV", day=20, month=2,
                                 wotp="OPP", unrest="BLU", board=board,
                                 hands={"SOV": ["C-BLU-3", "C-RED-2"]}), "C-GRN-2")
    state["turn"] = 7
    state["opp_pile"] = ["C-RED-2"]
    order = bot_order(RULES, state, "SOV", Random(1))
    assert order["card"] == "C-BLU-3" and order["action"] == "RECRUIT"
    after = _resolve(state, order)
    assert B.greater(after, "BLU") == "SOV" and after["unrest_side"] == "SOV"
    assert _resolve(after, bot_order(RULES, after, "SOV", Random(2)))["winner"] == "SOV"


def test_the_bot_takes_the_unrest_bonus_when_a_move_wins_a_bigger_objective():
    # The bot won the unrest region (2 VP) but its revealed objective WHT-6B (4 VP) is lost to
    # the Opposition by one point next door: moving R09 there as the bonus wins the game.
    board = {"R09": ("BLU", True), "O2-1": ("WHT", True), "O1-1": ("RED", True)}
    state = _last_round(scenario(solo=True, faction="SOV", difficulty=1, day=20, month=0, wotp="OPP",
                                 unrest="BLU", board=board, hands={"SOV": []}), "C-WHT-6B")
    state["played"]["OPP"] = ["C-RED-2", "C-RED-3", "C-RED-4", "C-GRN-2", "C-GRN-3"]
    state["opp_pile"] = []
    state.update(phase="unrest", unrest_side="SOV", turn=len(state["turn_order"]),
                 markers=[{"marker": "1", "region": "BLU"}])
    score = _resolve(state, {"type": "UNREST", "choice": "SCORE"})
    assert score["winner"] == "OPP"
    order = bot_order(RULES, state, "SOV", Random(1))
    assert order == {"type": "UNREST", "choice": "BONUS", "bonus": "MOVE", "bonus_token": "R09", "bonus_to": "WHT"}
    assert _resolve(state, order)["winner"] == "SOV"


@pytest.mark.slow
def test_the_solo_bot_looks_first_draws_organizes_and_takes_the_unrest_bonus():
    # Espionage first, Bonus Draw, Organize and the unrest bonus each show up within a few games.
    wanted = {"SPY_FIRST", "DRAW", "ORGANIZE", "UNREST BONUS"}
    used: set[str] = set()
    for i in range(16):
        seed = f"arena-Dual Powers solo d1-{i}"
        game = start(RULES, {"solo": True, "difficulty": 1}, seed)
        while RULES.outcome(game.state) is None:
            rng = step_rng(seed, len(game.steps) + 1, "bot:SOV")
            order = bot_order(RULES, game.state, "SOV", rng)
            used |= {order.get("action"), order.get("bonus"), f"UNREST {order.get('choice')}"}
            advance(RULES, game, {"SOV": order})
        if wanted <= used:
            break
    assert wanted <= used
