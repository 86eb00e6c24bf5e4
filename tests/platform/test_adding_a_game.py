"""docs/adding-a-game.md holds: its steps make a fifth game that plays through the platform.

The page's code blocks (each starts with its file's path) are written into a package, the
package is registered the way the page says (its ``GAME_MODULES`` line), and the game is
played from ``game create`` through missed deadlines (``tick``) and the web form to its end.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
from datetime import timedelta
from pathlib import Path

import pytest

import app.games as registry
from app.games import get_rules
from app.games.base import BaseRules
from app.games.driver import play_random, replay
from app.models import utcnow
from tests.platform.helpers import create_game, game_row, path_of, post_form

PAGE = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"```python\n# app/games/(\w+)/(\w+\.py)\n(.*?)```", re.DOTALL)


def _page_files() -> dict[str, str]:
    """``{file name: source}`` of the page's game, and check that they make one package."""
    found = BLOCK.findall(PAGE.read_text(encoding="utf-8"))
    assert {slug for slug, _, _ in found} == {"nim"}
    return {name: f"# app/games/nim/{name}\n{code}" for _, name, code in found}


def _registered_modules() -> tuple[str, ...]:
    """The ``GAME_MODULES = (...)`` line of the page's "Register it" step."""
    line = re.search(r"^GAME_MODULES = (\(.*\))$", PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert line, "the page shows the GAME_MODULES line to edit"
    return tuple(ast.literal_eval(line.group(1)))


@pytest.fixture
def nim(tmp_path, monkeypatch):
    """The page's game, written as ``app/games/nim/`` (in a temporary folder) and registered."""
    files = _page_files()
    assert set(files) >= {"__init__.py", "rules.py", "notation.py", "views.py", "board.py", "bot.py", "data.py"}
    package = tmp_path / "nim"
    package.mkdir()
    for name, code in files.items():
        (package / name).write_text(code, encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "GAME_MODULES", _registered_modules())
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.delenv("PBEM_GAMES", raising=False)
    importlib.invalidate_caches()
    try:
        yield get_rules("nim")
    finally:
        for name in [m for m in sys.modules if m == "app.games.nim" or m.startswith("app.games.nim.")]:
            del sys.modules[name]


def test_the_page_makes_a_game_of_the_one_shape(nim):
    assert isinstance(nim, BaseRules)
    assert type(nim).__module__ == "app.games.nim.rules"
    assert importlib.import_module("app.games.nim").RULES is nim
    assert nim.draws_board and not nim.board_per_seat and nim.robot_seats(nim.default_options()) == []
    with pytest.raises(LookupError):
        get_rules("no_such_game")
    for options in nim.conformance_options:  # what the conformance test does with every game
        game = play_random(nim, options, "page")
        assert nim.outcome(game.state) is not None
        assert replay(nim, game.options, "page", game.steps) == game.state


def test_the_page_game_plays_through_the_platform_to_its_end(nim, app, client, runner):
    made = create_game(runner, "nim", ("ana@example.org", "rui@example.org"), "--hours", "24",
                       "--option", "stones=7")
    links = {s["seat"]: s["link"] for s in made["seats"]}
    assert set(links) == {"FIRST", "SECOND"}

    # nobody plays the first turn: at the deadline the seat's default order (TAKE 1) applies
    late = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=25)).isoformat()])
    assert json.loads(late.output)["steps"] == 1
    game = game_row(app, made["game"])
    assert game.state["stones"] == 6 and game.state["taken"][0]["count"] == 1

    # an order the prompt does not offer is refused and changes nothing
    seat = next(iter(game.owed))
    resp = post_form(client, links[seat], {"count": "4"})
    assert resp.status_code == 422
    assert game_row(app, made["game"]).step_no == game.step_no

    # then the players send their orders from the page's form; each applies at once
    page = client.get(path_of(links[seat])).get_data(as_text=True)
    assert "6 stones left" in page and "Take stones (6 left)" in page
    for _ in range(10):
        game = game_row(app, made["game"])
        if game.status != "running":
            break
        seat = next(iter(game.owed))
        assert post_form(client, links[seat], {"count": "2"}).status_code == 303
    game = game_row(app, made["game"])
    assert game.status == "finished" and game.state["stones"] == 0
    last = game.state["taken"][-1]["seat"]
    assert nim.outcome(game.state)[0] == {"seat": last, "score": 1, "rank": 1}
    html = client.get(path_of(links[last])).get_data(as_text=True)
    assert "The game is over" in html and "takes the last stone and wins" in html
