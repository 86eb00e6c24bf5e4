"""Scenario builders for the Dual Powers tests."""

from __future__ import annotations

from random import Random
from typing import Any

from app.games.dual_powers import RULES, position
from app.games.dual_powers import data as D
from app.games.dual_powers import rounds as R


def scenario(solo: bool = False, faction: str = "SOV", difficulty: int = 3, *, to_act: str = "SOV",
             day: int = 1, month: int = 0, wotp: str | None = None, blockade: str = "A-RED",
             unrest: str = "BLU", board: dict[str, Any] | None = None,
             hands: dict[str, list[str]] | None = None, s: int = 0) -> dict[str, Any]:
    """An action-phase state: empty board but for ``board`` ({token: (region, fresh)})."""
    options = {"solo": True, "difficulty": difficulty, "faction": faction} if solo else {}
    state = R.setup(options, Random(7))
    for token in state["board"]:
        if D.TOKENS[token]["kind"] == "opp":
            state["opp_pool"].append(token)
        elif position.owner(state, token) is not None:
            state["supply"][position.owner(state, token)].append(token)
    for side in state["supply"]:
        state["supply"][side].sort(key=D.TOKEN_ORDER.__getitem__)
    state["opp_pool"].sort(key=D.TOKEN_ORDER.__getitem__)
    state["played"] = {side: [] for side in state["played"]}
    state["board"] = {}
    for token, (region, fresh) in (board or {}).items():
        side = position.owner(state, token)
        if side in state["supply"] and token in state["supply"][side]:
            state["supply"][side].remove(token)
        if token in state["opp_pool"]:
            state["opp_pool"].remove(token)
        state["board"][token] = {"region": region, "fresh": fresh}
    state.update(day=day, month=month, s=s, blockade=blockade, phase="action", bonus=False, pending=None)
    state["wotp"] = wotp or state["side_of"]["SOV"]
    state["tiles"]["unrest"] = unrest
    state["tiles"]["blockade"] = blockade[2:]
    state["objective_owed"] = []
    if hands is not None:
        for side, cards in hands.items():
            state["hands"][side] = list(cards)
    if solo:
        state["turn_order"] = ["OPP", faction] * 4 + ["OPP"]
        state["turn"] = state["turn_order"].index(to_act if to_act in ("OPP", faction) else faction)
    else:
        other = "GOV" if to_act == "SOV" else "SOV"
        state["turn_order"] = [to_act, other] * 4
        state["turn"] = 0
    return state


def play(state: dict[str, Any], seat: str, text: str, seed: int = 1):
    """Validate and resolve one order given in notation; returns (new state, events)."""
    order = RULES.parse(text)
    RULES.validate(state, seat, order)
    return RULES.resolve(state, {seat: order}, Random(seed))


def where(state: dict[str, Any], token: str) -> tuple[str, bool] | None:
    at = state["board"].get(token)
    return None if at is None else (at["region"], at["fresh"])
