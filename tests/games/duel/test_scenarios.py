"""The test scenarios of rules spec §9, one test each."""

from __future__ import annotations

import pytest

from app.games.duel import RULES
from app.games.duel import state as st
from app.games.duel.geometry import component, frontier, largest_network
from app.games.duel.placement import PlacementError, check_placement, grid_of, measure, score
from app.games.duel.text import marker
from tests.games.duel.helpers import S1, build, game_with, piece, place_into


def code_of(area, text):
    tile, q, r, k, marker = piece(text)
    with pytest.raises(PlacementError) as exc:
        check_placement(grid_of(area), tile, marker, (q, r), k)
    return exc.value.code


def order(tile, q, r, k):
    return {"type": "PLACE", "tile": tile, "position": f"{q},{r}", "rotation": k}


def validate_code(state, seat, o):
    with pytest.raises(PlacementError) as exc:
        RULES.validate(state, seat, o)
    return exc.value.code


def status(area, cell, marker):
    return measure(grid_of(area), cell, marker)


def test_s01_first_tile_must_be_at_origin():
    state = game_with(None, None, "T05", "GRA-4", turn=1)
    assert validate_code(state, "RED", order("T05", 1, 0, 0)) == "E_FIRST_NOT_ORIGIN"
    for k in range(6):
        RULES.validate(state, "RED", order("T05", 0, 0, k))


def test_s02_adjacent_and_empty_cell_required():
    state = game_with(build("L25@(0,0)/0"), None, "L07")
    assert validate_code(state, "RED", order("L07", 2, 0, 0)) == "E_NOT_ADJACENT"
    assert validate_code(state, "RED", order("L07", 0, 0, 0)) == "E_OCCUPIED"
    RULES.validate(state, "RED", order("L07", 1, 0, 0))


def test_s03_rail_must_meet_rail_and_is_checked_first():
    area = build("L25@(0,0)/0")
    assert code_of(area, "L07@(0,1)/0") == "E_RAIL_MISMATCH"
    assert code_of(area, "L33@(0,1)/0") == "E_RAIL_MISMATCH"
    check_placement(grid_of(area), "L27", None, (0, 1), 0)
    with pytest.raises(PlacementError, match="rail must meet rail"):
        check_placement(grid_of(area), "L07", None, (0, 1), 0)


def test_s04_only_rotations_0_and_4_fit_the_rail():
    area = build("L25@(0,0)/0")
    legal = []
    for k in range(6):
        try:
            check_placement(grid_of(area), "L28", None, (0, 1), k)
            legal.append(k)
        except PlacementError as exc:
            assert exc.code == "E_RAIL_MISMATCH"
    assert legal == [0, 4]


def test_s05_task_oversize_active_and_completed_at_once():
    area = build(*S1)
    assert code_of(area, "T01@(0,1)/0:FOR-3") == "E_TASK_OVERSIZE"
    six = build(*S1, "T01@(0,1)/0:FOR-6")
    assert [e["marker"] for e in six["active"]] == ["FOR-6"]
    assert status(six, (0, 1), "FOR-6")["n"] == 5
    five = build(*S1, "T01@(0,1)/0:FOR-5")
    assert five["active"] == [] and five["completed"] == ["FOR-5"]


def test_s06_task_may_not_close_its_territory_too_small():
    area = build(*S1, "L23@(1,1)/0")
    assert code_of(area, "T12@(0,1)/0:VIL-4") == "E_TASK_CLOSED_SMALL"
    ok = build(*S1, "L23@(1,1)/0", "T12@(0,1)/3:VIL-4")
    m = status(ok, (0, 1), "VIL-4")
    assert m["n"] == 1 and not m["closed"] and m["status"] == "active"


def test_s07_closed_river_exactly_the_marker_completes():
    base = ("L38@(0,0)/3", "L23@(1,0)/0", "L21@(1,1)/0", "L40@(0,2)/0")
    assert code_of(build(*base), "T17@(0,1)/0:RIV-4") == "E_TASK_CLOSED_SMALL"
    done = build(*base, "T17@(0,1)/0:RIV-3")
    assert done["completed"] == ["RIV-3"]


def test_s08_joining_the_forest_completes_the_task():
    area = build(*S1, "T01@(0,1)/0:FOR-6", "L10@(-1,1)/0")
    assert area["completed"] == ["FOR-6"]
    other = build(*S1, "T01@(0,1)/0:FOR-6", "L10@(-1,1)/3")
    assert [e["marker"] for e in other["active"]] == ["FOR-6"]
    assert status(other, (0, 1), "FOR-6")["n"] == 5


def test_s09_merge_past_the_marker_cancels():
    area = build(*S1, "L02@(-2,1)/0", "T01@(0,1)/0:FOR-6")
    assert status(area, (0, 1), "FOR-6")["n"] == 5
    place_into(area, "L12@(-1,1)/1")
    assert area["cancelled"] == ["FOR-6"] and area["active"] == []
    assert len(component(grid_of(area), (0, 1), 0)[0]) == 7


def test_s10_closing_a_river_short_cancels():
    area = build("T17@(0,0)/0:RIV-5", "L38@(0,-1)/3")
    assert status(area, (0, 0), "RIV-5") == {"status": "active", "n": 2, "closed": False, "v": 5}
    place_into(area, "L40@(0,1)/0")
    assert area["cancelled"] == ["RIV-5"]


def test_s11_second_river_task_on_the_same_river():
    area = build("L33@(0,0)/0", "L39@(0,1)/0", "T17@(0,2)/0:RIV-5", "L34@(0,3)/0")
    assert status(area, (0, 2), "RIV-5")["n"] == 4
    place_into(area, "T18@(0,4)/0:RIV-6")
    assert area["completed"] == ["RIV-5"] and [e["marker"] for e in area["active"]] == ["RIV-6"]
    place_into(area, "L35@(0,5)/0")
    assert area["completed"] == ["RIV-5", "RIV-6"]


def test_s12_double_completes_when_one_half_is_six():
    area = build(*S1, "T25@(0,1)/0:DBL-6")
    halves = status(area, (0, 1), "DBL-6")["halves"]
    assert [(h["terrain"], h["n"], h["closed"]) for h in halves] == [("F", 5, False), ("G", 1, False)]
    place_into(area, "L12@(-1,1)/1")
    assert area["completed"] == ["DBL-6"]
    assert score(area)["tasks"]["DBL"] == 6


def test_s13_double_survives_while_one_half_lives():
    area = build(*S1, "L02@(-2,1)/0", "T25@(0,1)/0:DBL-6", "L12@(-1,1)/1")
    m = status(area, (0, 1), "DBL-6")
    assert m["status"] == "active"
    assert [(h["n"], h["dead"]) for h in m["halves"]] == [(7, True), (1, False)]
    assert [e["marker"] for e in area["active"]] == ["DBL-6"]


def test_s13_double_dead_at_placement_is_refused():
    # Both halves dead at placement: the forest half joins 7 tiles and the
    # grain half closes at 1 tile (meadow and village edges all round).
    area = build(*S1, "L02@(-2,1)/0", "L12@(-1,1)/1", "L23@(-1,2)/0", "L22@(0,2)/0")
    grid = grid_of(area)
    with pytest.raises(PlacementError) as exc:
        check_placement(grid, "T25", "DBL-6", (0, 1), 0)
    assert exc.value.code == "E_DOUBLE_DEAD"


def test_s14_connection_tasks():
    first = build(*S1, "T21@(0,1)/0:CON-3")
    assert status(first, (0, 1), "CON-3")["c"] == 2 and first["active"]
    place_into(first, "L23@(-1,1)/0")
    assert first["completed"] == ["CON-3"]
    second = build(*S1, "T21@(1,-1)/0:CON-3")
    assert second["completed"] == ["CON-3"]
    third = build(*S1, "L23@(0,1)/0", "L21@(-2,1)/0")
    assert code_of(third, "T21@(-1,1)/0:CON-3") == "E_TASK_OVERSIZE"
    assert build(*S1, "L23@(0,1)/0", "L21@(-2,1)/0", "T21@(-1,1)/0:CON-4")["completed"] == ["CON-4"]
    five = build(*S1, "L23@(0,1)/0", "L21@(-2,1)/0", "T21@(-1,1)/0:CON-5")
    assert [e["marker"] for e in five["active"]] == ["CON-5"]


def test_s15_flags_score_only_closed_territories():
    area = build("L05@(0,0)/0", "L22@(0,-1)/2", "L14@(1,-1)/0")
    assert score(area)["C"] == 0
    place_into(area, "L23@(1,0)/0")
    assert score(area)["C"] == 3
    two = build("L05@(0,0)/0", "L06@(0,-1)/2", "L14@(1,-1)/0", "L23@(1,0)/0")
    assert score(two)["C"] == 6


def test_s16_river_length_counts_branches():
    area = build("L37@(0,0)/0", "L33@(0,-1)/0", "L39@(0,-2)/0", "L35@(1,0)/5", "L38@(-1,1)/1")
    grid = grid_of(area)
    cells, closed = component(grid, (0, 0), 0)
    assert len(cells) == 5 and not closed
    assert largest_network(grid, "W") == 5 and score(area)["E"] == 5


def test_s17_bridge_keeps_rail_and_river_apart():
    area = build("L41@(0,0)/0", "L25@(0,-1)/0", "L33@(1,-1)/1")
    grid = grid_of(area)
    assert component(grid, (0, 0), 0)[0] == {(0, 0), (0, -1)}
    assert component(grid, (0, 0), 1)[0] == {(0, 0), (1, -1)}
    assert (score(area)["D"], score(area)["E"]) == (2, 2)


def _endgame(blue_marker_cell_count: bool):
    """Red 3 active, Blue 2 active Connection tasks after turn 57."""
    red = build("T21@(0,0)/0:CON-6", "T22@(0,1)/0:CON-5", "T23@(0,-1)/0:CON-4")
    blue = build("T21@(0,0)/0:CON-6", "T22@(0,1)/0:CON-5", "L23@(1,1)/0")
    state = game_with(red, blue, "L01", turn=57)
    state["land_stack"] = []
    state["task_stack"] = ["T24", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08"]
    state["piles"]["CON"] = ["CON-3", "CON-4"]
    state["current"] = None
    state["turn"] = 58
    return state


def test_s18_extension_after_the_last_landscape_tile():
    state = _endgame(True)
    events = []
    st.start_turn(state, events)
    assert state["current"] == {"tile": "T24", "marker": "CON-3"}
    assert set(RULES.owed(state)) == {"RED", "BLUE"}
    # Blue's new task has 2 neighbours: it stays active, Blue has 3.
    orders = {"RED": order("T24", 1, -1, 0), "BLUE": order("T24", 0, -1, 0)}
    after, _ = RULES.resolve(state, orders, None)
    assert after["over"] and RULES.outcome(after) is not None
    # Blue's new task completes at once (3 neighbours): still 2, another task turn.
    orders = {"RED": order("T24", 1, -1, 0), "BLUE": order("T24", 1, 0, 0)}
    after, _ = RULES.resolve(state, orders, None)
    assert after["areas"]["BLUE"]["completed"] == ["CON-3"]
    assert not after["over"] and after["turn"] == 59
    assert after["current"]["tile"] == "T01"


def test_s19_game_ends_when_the_task_stack_is_also_empty():
    state = _endgame(True)
    state["task_stack"] = []
    state["turn"] = 67
    events = []
    st.start_turn(state, events)
    assert state["over"] and RULES.owed(state) == {}
    assert len(state["areas"]["BLUE"]["active"]) == 2


def test_s20_no_task_tiles_left_landscape_continues():
    red = build("T21@(0,0)/0:CON-6")
    state = game_with(red, None, "L01")
    state["task_stack"] = []
    state["land_stack"] = state["land_stack"][:12]
    top = state["land_stack"][0]
    assert st.reveal(state) == {"tile": top, "marker": None}
    assert len(state["land_stack"]) == 11


def test_s21_automatic_placement_on_missed_deadline():
    area = build("L25@(0,0)/0")
    assert frontier(grid_of(area)) == [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
    state = game_with(area, build("L07@(0,0)/0"), "L07")
    o = RULES.default_order(state, "BLUE", None)
    o = RULES.default_order(state, "RED", None)
    assert (o["position"], o["rotation"]) == ("-1,0", 0)
    after, events = RULES.resolve(state, {"RED": o, "BLUE": order("L07", 1, 0, 0)}, None)
    assert after["areas"]["RED"]["cells"]["-1,0"]["tile"] == "L07"
    assert any("Red placed landscape tile 7 at (-1,0) rotation 0 (automatic placement)" in RULES.text.english(e["text"])
               for e in events)


def test_s22_pass_is_refused_while_a_placement_exists():
    state = game_with(build(*S1), None, "L07")
    assert validate_code(state, "RED", {"type": "PASS"}) == "E_PASS_NOT_ALLOWED"
    with pytest.raises(PlacementError, match="for example landscape tile 7 at"):
        RULES.validate(state, "RED", RULES.parse("PASS"))


def test_s23_forest_task_reveals_the_top_of_the_forest_pile():
    state = game_with(None, None, "L01", turn=1)
    state["current"] = None
    state["task_stack"] = ["T02"] + [t for t in state["task_stack"] if t != "T02"]
    top = state["piles"]["FOR"][0]
    st.start_turn(state, [])
    assert state["current"] == {"tile": "T02", "marker": top}
    prompts = RULES.owed(state)
    top_name = RULES.text.english(marker(top))
    assert all(p["title"]["args"]["marker"] == marker(top) for p in prompts.values()) and len(prompts) == 2
    assert all(top_name in RULES.text.english(p["title"]) for p in prompts.values())
    assert RULES.view(state, "RED")["current"] == RULES.view(state, "BLUE")["current"]
