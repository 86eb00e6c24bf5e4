"""Examples and statements of the original rule text (seed 001) turned into tests."""

from __future__ import annotations

import itertools
import xml.dom.minidom

from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.conquest.board import tanks
from app.games.conquest.state import valid_sets
from app.games.driver import start

from .helpers import Dice, play, scenario, seat


def test_example_23_armies_show_2_tanks_and_3_units():
    assert tanks(23) == (2, 3) and tanks(10) == (1, 0) and tanks(7) == (0, 7)
    s = scenario(owners={"GER": "Red"}, armies={"GER": 23})
    svg = RULES.board_svg(RULES.view(s, None), None)
    group = svg.split('class="t t-GER"')[1].split("</g>")[0]
    assert group.count('fill="#222"/>') == 2 and "+ 3</text>" in group


def test_example_five_cards_always_hold_a_valid_set():
    for symbols in itertools.combinations_with_replacement(["INF", "ARM", "ART"], 5):
        pool = {sym: [c for c in D.DECK if D.CARD_SYMBOL[c] == sym] for sym in D.SYMBOLS}
        hand = [pool[sym].pop() for sym in symbols]
        assert valid_sets(hand), symbols


def test_example_one_card_per_turn_however_many_conquests():
    s = scenario(owners={"GER": "Red", "POL": "Blue", "BAL": "Blue"}, armies={"GER": 9})
    red = seat(s, "Red")
    s, _ = play(s, "Red", "ATTACK GER POL ADVANCE=1", Dice(6, 6, 6, 1))
    s, _ = play(s, "Red", "ATTACK GER BAL ADVANCE=1", Dice(6, 6, 6, 1))
    assert s["owner"]["POL"] == s["owner"]["BAL"] == red
    s, _ = play(s, "Red", "END_TURN")
    assert len(s["hands"][red]) == 1


def test_example_first_round_is_placement_only_and_passes_at_the_last_army():
    game = start(RULES, {"players": 4}, "round1")
    s = game.state
    first = s["current"]
    prompt = RULES.owed(s)[first]
    assert prompt["kind"] == "mobilisation"
    assert not any(f["base"]["type"] in ("ATTACK", "MOVE", "END_TURN") for f in prompt["forms"])
    mine = next(t for t in D.TERRITORIES if s["owner"][t] == first)
    s2, _ = RULES.resolve(s, {first: {"type": "PLACE", mine: s["pools"]["G"]}}, Dice())
    assert s2["current"] == s["order"][1] and s2["round"] == 1


def test_example_the_board_is_one_escaped_svg_with_letters_for_print():
    game = start(RULES, {"players": 6}, "board")
    svg = RULES.board_svg(RULES.view(game.state, "P1"), "P1")
    doc = xml.dom.minidom.parseString(svg)
    root = doc.documentElement
    assert root.tagName == "svg" and root.getAttribute("viewBox")
    assert svg.count('class="t t-') == 42
    for colour in D.COLOURS:
        assert f'id="pat-{colour}"' in svg
    assert "&amp;" in svg or "Africa &" not in svg
