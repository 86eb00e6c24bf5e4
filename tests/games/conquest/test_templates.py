"""The board and private fragments render from views alone, for players and spectators."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.games.conquest import RULES
from app.games.driver import play_random
from tests.games.jinja_env import app_env

ROOT = Path(__file__).resolve().parents[3] / "templates"


@pytest.fixture(scope="module")
def env():
    return app_env()


@pytest.fixture(scope="module")
def games():
    running = play_random(RULES, {"players": 4, "round_limit": 30}, "tpl", max_steps=200)
    finished = play_random(RULES, {"players": 4, "round_limit": 30}, "tpl")
    return running.state, finished.state


def test_private_fragment_shows_own_hand_and_objective_only(env, games):
    state, _ = games
    seat = state["current"]
    view = RULES.view(state, seat)
    html = env.get_template("games/conquest/private.html").render(view=view, seat=seat)
    assert "Objective" in html and view["me"]["objective"]["card"] in html
    for card in state["hands"][seat]:
        assert card in html
    assert env.get_template("games/conquest/private.html").render(view=RULES.view(state, None), seat=None).strip() == ""


def test_board_fragment_for_spectator_and_after_the_end(env, games):
    running, finished = games
    board = env.get_template("games/conquest/board.html")
    html = board.render(view=RULES.view(running, None), seat=None)
    # the wide board and the narrow one (phones) each draw the 42 territories
    assert html.count('class="t t-') == 2 * 42 and "is on turn" in html and "<svg" in html
    end = board.render(view=RULES.view(finished, "P1"), seat="P1")
    assert "Game over" in end and "Objective card" in end
