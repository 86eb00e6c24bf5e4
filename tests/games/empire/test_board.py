"""The SVG board and the HTML fragments."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from app.games.empire import RULES
from tests.games.jinja_env import app_env

from .helpers import control, put, scenario

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def _state():
    st = scenario()
    control(st, "BLUE", 2)
    st["provinces"]["2"]["building"] = "WALL"
    put(st, "B-H1", 2, "ATTACK", target="RED")
    put(st, "R-S1", 2, "CONQUEST")
    return st


def test_board_svg_shows_owners_troops_modes_and_constructions():
    svg = RULES.board_svg(RULES.view(_state(), "P1"), "P1")
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg") and root.get("viewBox") and not root.get("width")
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for word in ("2 Westwood", "BLUE 1 heavy ATK>R", "RED 1 CON", "WALL", "BLUE (you)", "BLUE · centre", "neutral"):
        assert word in text
    st = _state()
    control(st, "BLUE", 4)  # another player's centre, held: its owner is named
    svg = RULES.board_svg(RULES.view(st, "P1"), "P1")
    assert "BLUE · centre (GREEN)" in svg


def test_templates_render_public_and_private_parts():
    env = app_env()
    st = _state()
    board = env.get_template("games/empire/board.html").render(view=RULES.view(st, None), seat=None)
    assert 'class="g-empire"' in board and "<svg" in board and "Round 1" in board
    private = env.get_template("games/empire/private.html")
    assert private.render(view=RULES.view(st, None), seat=None).strip() == ""
    mine = private.render(view=RULES.view(st, "P1"), seat="P1")
    code = st["players"]["P1"]["objectives"][0]
    assert "Your colour: BLUE" in mine and code in mine


def test_a_troops_target_on_the_board_is_a_colour_in_the_readers_language():
    """``ATK>R`` in English; in Greek and Portuguese the target's letters are their own (red and yellow both
    begin with K in Greek: two letters tell them apart)."""
    from app.i18n.gametext import render

    st = _state()
    put(st, "B-S1", 2, "ATTACK", target="YELLOW")
    view = RULES.view(st, "P1")
    for lang, red, yellow in (("en", ">R", ">Y"), ("el", ">ΚΟ", ">ΚΙ"), ("pt", ">VM", ">AM")):
        svg = RULES.board_svg(view, "P1", lambda text, lang=lang: render("empire", text, lang))
        text = " ".join(t.text or "" for t in ElementTree.fromstring(svg).iter() if t.tag.endswith("text"))
        assert red in text and yellow in text, (lang, text)
        if lang != "en":
            assert ">R" not in text and ">Y" not in text
