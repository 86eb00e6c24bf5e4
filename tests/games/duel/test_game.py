"""Turn flow, notation, outcome, views, board and templates of the duel game."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.games.base import IllegalOrder, InvalidOrder, bot_order
from app.games.driver import advance, play_random, random_orders, start
from app.games.duel import RULES
from app.games.duel import state as st
from app.games.duel.placement import PlacementError
from tests.games.duel.helpers import S1, build, game_with
from tests.games.jinja_env import app_env

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def order(tile, q, r, k, **extra):
    return {"type": "PLACE", "tile": tile, "position": f"{q},{r}", "rotation": k, **extra}


def test_setup_boxes_three_and_reveals_a_task_first():
    game = start(RULES, None, "setup")
    s = game.state
    assert len(s["box"]) == 3 and len(s["land_stack"]) == 39 and len(s["task_stack"]) == 26
    assert s["current"]["tile"].startswith("T") and s["current"]["marker"]
    assert set(RULES.owed(s)) == {"RED", "BLUE"} and RULES.turn_key(s) == "T1"
    assert s["piles"]["DBL"] == ["DBL-6"] * 3 or s["current"]["marker"] == "DBL-6"


def test_first_three_turns_are_task_turns():
    game = start(RULES, None, "three")
    tiles = []
    for _ in range(3):
        tiles.append(game.state["current"]["tile"])
        advance(RULES, game, random_orders(RULES, game))
    assert all(t.startswith("T") for t in tiles)


def test_no_legal_placement_passes_and_boxes_the_marker():
    red = build("L07@(0,0)/0", "L01@(-1,0)/2", "L31@(-2,0)/0")
    state = game_with(red, build("L07@(0,0)/0"), "L02")
    state["current"] = None
    state["task_stack"] = ["T01"] + [t for t in state["task_stack"] if t != "T01"]
    state["piles"]["FOR"] = ["FOR-3", "FOR-4"]
    events = []
    st.start_turn(state, events)
    assert state["current"] == {"tile": "T01", "marker": "FOR-3"}
    assert state["passing"] == ["RED"] and set(RULES.owed(state)) == {"BLUE"}
    with pytest.raises(IllegalOrder, match="no legal placement"):
        RULES.validate(state, "RED", order("T01", 1, 0, 0))
    after, events = RULES.resolve(state, {"BLUE": order("T01", 1, 0, 0)}, None)
    assert after["areas"]["RED"]["passed"] == ["T01"] and after["areas"]["RED"]["boxed_markers"] == ["FOR-3"]
    assert "1,0" in after["areas"]["BLUE"]["cells"]
    assert any("Red has no legal placement for Forest task tile 1" in RULES.text.english(e["text"]) for e in events)
    assert any(e["text"]["msg"] == "event.pass_marker" and e["text"]["args"]["seat"] == {"msg": "seat.RED"}
               for e in events)


def test_orders_are_applied_together_and_tasks_evaluated():
    state = game_with(build(*S1), build(*S1), "T01", "FOR-5")
    after, events = RULES.resolve(state, {"RED": order("T01", 0, 1, 0), "BLUE": order("T01", 2, -1, 0)}, None)
    assert after["areas"]["RED"]["completed"] == ["FOR-5"]
    assert [e["marker"] for e in after["areas"]["BLUE"]["active"]] == ["FOR-5"]
    assert after["turn"] == state["turn"] + 1 and state["areas"]["RED"]["completed"] == []


def test_validation_messages_and_codes():
    state = game_with(build("L25@(0,0)/0"), None, "L07", turn=9)
    for bad, code in [
        ({"type": "PLACE", "tile": "L07"}, "E_BAD_ORDER"),
        (order("L07", 1, 0, 0, turn=8), "E_TURN_CLOSED"),
        (order("L08", 1, 0, 0), "E_WRONG_TILE"),
        (order("L07", 1, 0, 6), "E_BAD_ROTATION"),
        (order("L07", 100, 0, 0), "E_BAD_COORD"),
    ]:
        with pytest.raises(PlacementError) as exc:
            RULES.validate(state, "RED", bad)
        assert exc.value.code == code
    with pytest.raises(PlacementError,
                       match=r"Your N edge is forest but the S edge of landscape tile 25 at \(0,0\) is rail"):
        RULES.validate(state, "RED", order("L07", 0, 1, 0))
    RULES.validate(state, "RED", order("L07", 1, 0, 0, turn=9))
    RULES.validate(state, "RED", {"type": "PLACE", "tile": "l07", "q": 1, "r": 0, "rotation": "2"})


def test_notation_round_trip_and_keyword_form():
    o = RULES.parse("PLACE L17 2 -1 3")
    assert o == {"type": "PLACE", "tile": "L17", "position": "2,-1", "rotation": 3}
    assert RULES.format(o) == "PLACE L17 2 -1 3"
    assert RULES.parse("place tile=L17 q=2 r=-1 rotation=3 turn=7") == {**o, "turn": 7}
    assert RULES.format({**o, "turn": 7, "auto": True}) == "PLACE L17 2 -1 3 turn=7 AUTO"
    with pytest.raises(InvalidOrder):  # the server's mark of a missed deadline: never a player's order
        RULES.parse(RULES.format({**o, "turn": 7, "auto": True}))
    assert RULES.parse("PASS") == {"type": "PASS"}
    for junk in ["PLACE L17 2 -1", "PLACE L17 a b c", "JUMP", "PLACE L17 2 -1 3 4"]:
        with pytest.raises(InvalidOrder):
            RULES.parse(junk)


def test_prompt_lists_numbered_positions_and_six_rotations():
    state = game_with(build("L25@(0,0)/0"), build("L07@(0,0)/0"), "L28")
    prompt = RULES.owed(state)["RED"]
    assert prompt["kind"] == "place" and prompt["seconds"] == 48 * 3600
    pos, rot = prompt["forms"][0]["fields"]
    assert [c["value"] for c in rot["choices"]] == [0, 1, 2, 3, 4, 5]
    assert RULES.text.english(pos["choices"][0]["label"]).startswith("position 1 (")
    # The rotation depends on the position: (0,1) holds rails N, only rotations 0 and 4 fit (scenario 4).
    assert rot["depends_on"] == "position"
    assert [c["value"] for c in rot["choices"] if "0,1" in c["when"]] == [0, 4]
    for c in rot["choices"]:
        for p in c["when"]:
            RULES.validate(state, "RED", {**prompt["forms"][0]["base"], "position": p, "rotation": c["value"]})
    form_order = {**prompt["forms"][0]["base"], "position": "0,1", "rotation": 4}
    RULES.validate(state, "RED", form_order)
    assert RULES.parse(prompt["example"])["tile"] == "L28"


def _finished(red_total, red_tasks, blue_total, blue_tasks, forfeited=()):
    state = game_with(None, None, "L01")
    state["over"] = True
    state["forfeited"] = list(forfeited)
    state["final"] = {
        "RED": {"total": red_total, "subtotal": red_tasks},
        "BLUE": {"total": blue_total, "subtotal": blue_tasks},
    }
    return state


def test_tie_break_by_task_subtotal_then_draw():
    assert RULES.outcome(_finished(89, 51, 89, 47)) == [
        {"seat": "RED", "score": 89, "rank": 1},
        {"seat": "BLUE", "score": 89, "rank": 2},
    ]
    assert [r["rank"] for r in RULES.outcome(_finished(80, 40, 80, 40))] == [1, 1]
    assert RULES.outcome(_finished(70, 40, 90, 40))[0]["seat"] == "BLUE"


def test_three_automatic_placements_forfeit():
    game = start(RULES, None, "forfeit")
    for _ in range(3):
        assert RULES.outcome(game.state) is None
        orders = random_orders(RULES, game)
        orders["BLUE"] = RULES.default_order(game.state, "BLUE", None)
        advance(RULES, game, orders)
    assert game.state["forfeited"] == ["BLUE"]
    assert [(r["seat"], r["rank"]) for r in RULES.outcome(game.state)] == [("RED", 1), ("BLUE", 2)]


def test_both_forfeit_is_a_draw():
    game = start(RULES, None, "both")
    for _ in range(3):
        advance(RULES, game, {s: RULES.default_order(game.state, s, None) for s in RULES.owed(game.state)})
    assert [r["rank"] for r in RULES.outcome(game.state)] == [1, 1]


def test_views_hide_stack_order_and_box_until_the_end():
    game = start(RULES, None, "hidden")
    v = RULES.view(game.state, None)
    text = json.dumps(v)
    assert "box" not in v["stacks"] or v["stacks"]["box"] == 3
    assert "hidden_revealed" not in v and "land_stack" not in text
    assert v["unrevealed"]["landscape"] == sorted(game.state["land_stack"] + game.state["box"])
    assert RULES.secrets(game.state, "RED") == []
    done = play_random(RULES, {"forfeit_after": 0}, "hidden")
    assert RULES.view(done.state, "RED")["hidden_revealed"]["box"] == done.state["box"]


def test_game_is_a_function_of_seed_and_orders():
    a = play_random(RULES, None, "same")
    b = play_random(RULES, None, "same")
    assert a.state == b.state and 39 + 3 <= a.state["turn"] <= 39 + 27 + 1


def test_board_svg_is_one_wellformed_svg_with_both_areas():
    game = play_random(RULES, {"forfeit_after": 0}, "svg", max_steps=12)
    for seat in ("RED", None):
        svg = RULES.board_svg(RULES.view(game.state, seat), seat)
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and "viewBox" in root.attrib and "width" not in root.attrib
        assert "Red" in svg and "Blue" in svg and "forest" in svg
    svg = RULES.board_svg(RULES.view(game.state, "RED"), "RED")
    assert 'class="duel-cand"' in svg and "Red (you)" in svg
    ET.fromstring(RULES.board_svg({"preview": {"tile": "L41", "rot": 3}}, None))


def _env():
    return app_env()


def test_templates_render_board_private_and_form():
    game = play_random(RULES, {"forfeit_after": 0}, "tpl", max_steps=10)
    env = _env()
    view = RULES.view(game.state, "RED")
    board = env.get_template("games/duel/board.html").render(view=view, seat="RED")
    assert board.startswith('<div class="g-duel">') and "<svg" in board and "Task subtotal" in board
    assert (
        env.get_template("games/duel/private.html").render(view=RULES.view(game.state, None), seat=None).strip() == ""
    )
    private = env.get_template("games/duel/private.html").render(view=view, seat="RED")
    assert "Your choices" in private
    prompt = RULES.owed(game.state)["RED"]
    first = prompt["forms"][0]["fields"][0]["choices"][0]["value"]
    form = env.get_template("games/duel/form.html").render(
        prompt=prompt,
        form_index=0,
        values={"position": first, "rotation": "2"},
        view=view,
        seat="RED",
        csrf_field='<input type="hidden" name="csrf_token" value="x">',
    )
    assert 'name="position"' in form and 'name="rotation"' in form and 'name="csrf_token"' in form
    assert 'name="form_index" value="0"' in form
    assert f'value="{first}" selected' in form and f'name="position" value="{first}"' in form
    rotations = prompt["forms"][0]["fields"][1]["choices"]
    fits = [c["value"] for c in rotations if first in c["when"]]
    kept = 2 if 2 in fits else fits[0]
    assert re.findall(r'name="rotation" value="(\d)"[^>]*\schecked', form) == [str(kept)]
    assert form.count("<svg") == 1 + len(rotations)  # the area plus a preview of each rotation offered


def test_random_and_greedy_games_keep_areas_connected_and_lines_matched():
    from app.games.base import step_rng
    from app.games.duel.geometry import FACES, neighbour
    from app.games.duel.placement import grid_of

    game = start(RULES, {"forfeit_after": 0}, "invariants")
    while RULES.outcome(game.state) is None:
        step = len(game.steps)
        orders = {s: bot_order(RULES, game.state, s, step_rng("inv", step, s)) for s in RULES.owed(game.state)}
        for s, o in orders.items():
            RULES.validate(game.state, s, o)
        advance(RULES, game, orders)
    for seat in game.seats:
        grid = grid_of(game.state["areas"][seat])
        seen, stack = {(0, 0)}, [(0, 0)]
        while stack:
            c = stack.pop()
            for d in range(6):
                n = neighbour(c, d)
                if n in grid and n not in seen:
                    seen.add(n)
                    stack.append(n)
                    mine = FACES[grid[c][0]][grid[c][1]].facing[d]
                    theirs = FACES[grid[n][0]][grid[n][1]].facing[(d + 3) % 6]
                    assert (mine in "RW" or theirs in "RW") <= (mine == theirs)
        assert seen == set(grid)
    area = game.state["areas"]["RED"]
    assert len(area["cells"]) + len(area["passed"]) == game.state["turn"] - 1  # ended at the reveal


def test_turn_field_may_be_text():
    state = game_with(build("L25@(0,0)/0"), None, "L07", turn=9)
    RULES.validate(state, "RED", order("L07", 1, 0, 0, turn="T9"))
    with pytest.raises(PlacementError) as exc:
        RULES.validate(state, "RED", order("L07", 1, 0, 0, turn="8"))
    assert exc.value.code == "E_TURN_CLOSED"


def test_garbage_orders_only_raise_illegal_order():
    from hypothesis import given, settings
    from hypothesis import strategies as hs

    scalars = hs.one_of(hs.none(), hs.booleans(), hs.integers(), hs.text(max_size=6), hs.floats())
    values = hs.one_of(scalars, hs.lists(scalars, max_size=3), hs.dictionaries(hs.text(max_size=3), scalars))
    keys = hs.sampled_from(["type", "tile", "position", "q", "r", "rotation", "turn", "auto", "x"])
    orders = hs.one_of(
        values,
        hs.dictionaries(keys, hs.one_of(values, hs.sampled_from(["PLACE", "PASS", "L25", "0,1", "1,0", "3"]))),
    )
    state = game_with(build("L07@(0,0)/0"), None, "L25")

    @settings(max_examples=150, deadline=None)
    @given(orders)
    def check(o):
        try:
            RULES.validate(state, "RED", o)
        except IllegalOrder:
            pass

    check()
