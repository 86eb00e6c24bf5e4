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
