"""The worked scoring example of rules spec §7 (Red: 51 + 38 = 89).

The area is built from islands, each a legal sequence of placements from its
own origin, moved apart so that they do not touch; every tile id is used at
most once and L06 (one of Red's boxed tiles) is absent.  The completed,
cancelled and active markers are the ones on the example's scoring pad.
"""

from __future__ import annotations

from collections import Counter

from app.games.duel import RULES
from app.games.duel.geometry import cell_key, component, key_cell
from app.games.duel.placement import grid_of, score
from tests.games.duel.helpers import build, game_with

# Closed forest of 9 with L01 (green flag): a flower around L07 plus two tiles.
CLOSED_FOREST = (
    "L07@(0,0)/0",
    "L01@(0,-1)/2",
    "T03@(1,-1)/3",
    "L10@(1,0)/4",
    "T04@(0,1)/5",
    "T25@(-1,1)/0",
    "L12@(-1,0)/4",
    "L20@(-1,-1)/1",
    "L18@(0,-2)/0",
)
# Open forest of 13 with L02 (green flag).
OPEN_FOREST = (
    "T01@(0,0)/0",
    "L17@(-1,0)/0",
    "T02@(-1,1)/0",
    "L24@(0,-1)/2",
    "L15@(0,1)/0",
    "T27@(1,-1)/0",
    "T22@(1,0)/0",
    "L02@(-1,-1)/1",
    "T07@(-1,2)/2",
    "T19@(-2,2)/3",
    "L36@(-3,2)/1",
    "T12@(0,-2)/1",
    "L16@(2,-1)/0",
)
# Closed grain of 5 holding L03 and L04 (yellow flags).
CLOSED_GRAIN = ("L03@(0,0)/0", "L21@(0,-1)/2", "L04@(1,-1)/3", "L11@(1,0)/4", "L13@(0,1)/2")
# Closed village of 3 with L05 (red flag), as in scenario 15.
CLOSED_VILLAGE = ("L05@(0,0)/0", "L22@(0,-1)/2", "L14@(1,-1)/0", "L23@(1,0)/0")
# River of 9 around the junction L37: arms of 3, 3 and 2 (longest simple path 7).
RIVER = (
    "L37@(0,0)/0",
    "L33@(0,-1)/0",
    "L39@(0,-2)/0",
    "L40@(0,-3)/3",
    "L34@(1,0)/2",
    "T17@(2,0)/2",
    "L38@(3,0)/5",
    "T18@(-1,1)/1",
    "L35@(-2,2)/1",
)
# Rails of 7 (station to station) and of 3.
RAIL_7 = (
    "L31@(0,0)/3",
    "L25@(0,1)/0",
    "L26@(0,2)/0",
    "L29@(0,3)/0",
    "T13@(0,4)/0",
    "T14@(0,5)/0",
    "L32@(0,6)/0",
)
RAIL_3 = ("L28@(0,0)/0", "T15@(0,-1)/2", "L27@(1,0)/5")

ISLANDS = [CLOSED_FOREST, OPEN_FOREST, CLOSED_GRAIN, CLOSED_VILLAGE, RIVER, RAIL_7, RAIL_3]

OFFSET = 14  # q distance between islands; keeps every cell inside -99..99

COMPLETED = [
    "FOR-4",
    "FOR-6",
    "GRA-3",
    "GRA-5",
    "VIL-4",
    "RAI-5",
    "RIV-3",
    "RIV-6",
    "CON-4",
    "CON-5",
    "DBL-6",
]


def red_area():
    area = build()
    for i, island in enumerate(ISLANDS):
        part = build(*island)
        for key, cell in part["cells"].items():
            q, r = key_cell(key)
            area["cells"][cell_key((q + OFFSET * i, r))] = cell
    area["completed"] = list(COMPLETED)
    area["cancelled"] = ["VIL-6"]
    # Three tasks still active at the end: they score nothing.
    area["active"] = [
        {"marker": "FOR-3", "cell": cell_key((OFFSET - 1, 1))},  # T02
        {"marker": "GRA-6", "cell": cell_key((OFFSET - 1, 2))},  # T07
        {"marker": "CON-6", "cell": cell_key((OFFSET + 1, 0))},  # T22
    ]
    return area


def test_worked_scoring_example_red_scores_89():
    area = red_area()
    tiles = Counter(c["tile"] for c in area["cells"].values())
    assert max(tiles.values()) == 1 and "L06" not in tiles
    assert all(max(abs(q), abs(r)) <= 99 for q, r in map(key_cell, area["cells"]))
    grid = grid_of(area)
    closed9 = component(grid, (0, -1), 0)
    open13 = component(grid, (OFFSET - 1, -1), 0)
    assert (len(closed9[0]), closed9[1]) == (9, True)
    assert (len(open13[0]), open13[1]) == (13, False)
    pad = score(area)
    assert pad["tasks"] == {"FOR": 10, "GRA": 8, "VIL": 4, "RAI": 5, "RIV": 9, "CON": 9, "DBL": 6}
    assert pad["subtotal"] == 51
    assert (pad["A"], pad["B"], pad["C"], pad["D"], pad["E"]) == (9, 10, 3, 7, 9)
    assert pad["F"] == 38 and pad["modules"] == 0 and pad["total"] == 89


def test_worked_scoring_example_tie_break_goes_to_red():
    state = game_with(red_area(), None, "L08")
    state["over"] = True
    state["final"] = {"RED": score(state["areas"]["RED"]), "BLUE": {"total": 89, "subtotal": 47}}
    assert RULES.outcome(state) == [
        {"seat": "RED", "score": 89, "rank": 1},
        {"seat": "BLUE", "score": 89, "rank": 2},
    ]
