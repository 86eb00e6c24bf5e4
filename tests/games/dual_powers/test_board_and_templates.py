"""The SVG board and the HTML fragments: complete, escaped, and showing each seat only its own cards."""

from __future__ import annotations

from pathlib import Path
from random import Random

import jinja2

from app.games.driver import advance, random_orders, start
from app.games.dual_powers import RULES
from tests.games.jinja_env import app_env

from .helpers import scenario

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def _env() -> jinja2.Environment:
    return app_env()


def test_board_svg_is_one_scalable_svg_showing_blockade_unrest_and_exhausted_tokens():
    state = scenario(unrest="WHT", blockade="A-BRN", board={"R05": ("WHT", False), "W01": ("GRN", True)})
    svg = RULES.board_svg(RULES.view(state, None), None)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg.count("<svg") == 1
    assert 'viewBox="' in svg and " width=" not in svg.split(">", 1)[0]
    assert "UNREST" in svg and "Blockade: Ligovsky road<" in svg  # the connection's code only in a tooltip
    assert 'fill="url(#dp-hatch)"' in svg  # R05 is exhausted
    assert ">2/1<" in svg and ">R05<" not in svg  # a unit shows its values, not its code
    assert "Admiralty (white)" in svg and "Will of the People: Soviet" in svg


def test_templates_show_the_own_hand_only():
    game = start(RULES, {}, "tpl")
    for _ in range(5):
        advance(RULES, game, random_orders(RULES, game))
    env = _env()
    state = game.state
    for seat, other in (("SOV", "GOV"), ("GOV", "SOV")):
        view = RULES.view(state, seat)
        html = env.get_template("games/dual_powers/board.html").render(view=view, seat=seat)
        html += env.get_template("games/dual_powers/private.html").render(view=view, seat=seat)
        assert 'class="g-dual_powers"' in html and "Your hand" in html
        for card in RULES.secrets(state, seat):
            assert card in html
        for card in RULES.secrets(state, other):
            assert card not in html
    public = RULES.view(state, None)
    assert env.get_template("games/dual_powers/private.html").render(view=public, seat=None).strip() == ""
    env.get_template("games/dual_powers/board.html").render(view=public, seat=None)


def test_solo_board_renders_the_opposition():
    options = {"solo": True, "difficulty": 4, "faction": "GOV"}
    state = RULES.setup(options, ["GOV"], Random(2))
    view = RULES.view(state, "GOV")
    html = _env().get_template("games/dual_powers/board.html").render(view=view, seat="GOV")
    assert "Opposition" in html and "pool: level 1" in html


def test_on_the_phone_board_a_full_row_of_tokens_stays_inside_a_region_in_unrest():
    """Three tokens a row, nine in all, inside the inner frame that marks a region in unrest."""
    import re as _re

    from app.games.dual_powers.board_phone import _region

    token = {"owner": "SOV", "fresh": False, "short": "KOL", "id": "L-KOL", "name": "Kollontai", "strength": 2}
    region = {"id": "GRN", "unrest": True, "name": "Petrograd Side", "strength": {}, "greater": None,
              "markers": [], "tokens": [dict(token) for _ in range(9)]}
    svg = _region(region, lambda m: m if isinstance(m, str) else str(m.get("id", "")))
    rects = [{k: float(v) for k, v in _re.findall(r' (x|y|width|height)="([\d.]+)"', r)}
             for r in _re.findall(r"<rect [^>]*>", svg)]
    frame, tokens = rects[1], rects[2:]
    assert len(tokens) == 9
    for t in tokens:  # strokes 2.5 wide: half of each outside the rectangle
        assert t["x"] - 1.25 >= frame["x"] + 0.75 and t["x"] + t["width"] + 1.25 <= frame["x"] + frame["width"] - 0.75
