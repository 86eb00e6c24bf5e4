"""Helpers for duel tests: build areas from the spec's ``Lxx@(q,r)/k`` notation."""

from __future__ import annotations

import re
from typing import Any

from app.games.base import step_rng
from app.games.duel import state as st
from app.games.duel.geometry import cell_key
from app.games.duel.placement import check_placement, evaluate, grid_of

_PIECE = re.compile(r"^(?P<tile>[LT]\d\d)@\((?P<q>-?\d+),(?P<r>-?\d+)\)/(?P<k>\d)(?::(?P<marker>[A-Z]{3}-\d))?$")


def piece(text: str) -> tuple[str, int, int, int, str | None]:
    """``"T01@(0,1)/0:FOR-6"`` -> ``("T01", 0, 1, 0, "FOR-6")``."""
    m = _PIECE.match(text)
    assert m, text
    return m["tile"], int(m["q"]), int(m["r"]), int(m["k"]), m["marker"]


def place_into(area: dict[str, Any], text: str, turn: int = 0) -> None:
    """Place one piece legally (checks §5.3) and evaluate the tasks as at resolution."""
    tile, q, r, k, marker = piece(text)
    check_placement(grid_of(area), tile, marker, (q, r), k)
    area["cells"][cell_key((q, r))] = {"tile": tile, "rot": k, "turn": turn}
    if marker:
        area["active"].append({"marker": marker, "cell": cell_key((q, r))})
    evaluate(area, grid_of(area))


def build(*pieces: str) -> dict[str, Any]:
    """An area made of legal placements, in order."""
    area = st.new_area()
    for i, text in enumerate(pieces):
        place_into(area, text, i + 1)
    return area


S1 = ("L07@(0,0)/0", "L20@(0,-1)/3", "L17@(1,0)/2", "L01@(-1,0)/0")


def game_with(
    red: dict[str, Any] | None,
    blue: dict[str, Any] | None,
    tile: str,
    marker: str | None = None,
    turn: int = 5,
) -> dict[str, Any]:
    """A full game state with the given areas and this turn's tile."""
    state, _ = st.setup({"forfeit_after": 3, "deadline_hours": 48}, list(st.SEATS), step_rng("t", 0))
    state["areas"]["RED"] = red or st.new_area()
    state["areas"]["BLUE"] = blue or st.new_area()
    state["current"] = {"tile": tile, "marker": marker}
    state["turn"] = turn
    state["passing"] = []
    return state
