"""Each game's player pages in a real browser, on a phone (390 px) and a desk (1280 px).

The seat page, the spectator page and the orders page never scroll sideways; a tap on
"Full size" opens the board alone; screenshots are written for a person to look at
(``tests/browser.py``: ``tests/screenshots/``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.models import utcnow
from tests.browser import open_page, overflow, shot
from tests.platform.helpers import create_game, path_of

pytestmark = pytest.mark.browser

GAMES = {"conquest": ("--option", "players=3"), "dual_powers": (), "duel": (), "empire": ()}
PLAYERS = {"conquest": 3, "dual_powers": 2, "duel": 2, "empire": 4}


def _started(runner, slug):
    """A game of ``slug`` one missed deadline in: its log, orders and reports are not empty."""
    players = [f"p{i}@example.org" for i in range(PLAYERS[slug])]
    made = create_game(runner, slug, players, "--hours", "2", *GAMES[slug])
    runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=3)).isoformat()])
    return made


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_pages_fit_a_phone_and_a_desk_and_the_board_opens_full_size(live, runner, chromium, slug):
    made = _started(runner, slug)
    base = live.config["BASE_URL"]
    seat = path_of(made["seats"][0]["link"])
    pages = {"seat": base + seat, "spectator": f"{base}/g/{made['game']}", "history": f"{base}{seat}/history"}
    for size in ("phone", "desk"):
        for name, url in pages.items():
            page = open_page(chromium, url, size)
            shot(page, f"{slug}-{name}-{size}")
            assert overflow(page) == 0, f"the {name} page of {slug} scrolls sideways at the {size}'s width"
            if name in ("seat", "spectator"):
                page.click("#board-full")
                page.wait_for_load_state()
                assert page.url.endswith("/board")
                box = page.locator("svg").first.bounding_box()
                assert box is not None and box["width"] >= page.viewport_size["width"] - 2, "the board fills the screen"
                shot(page, f"{slug}-{name}-board-{size}")
                if size == "phone":  # its own size, to pan instead of pinch
                    page.click("a.size")
                    page.wait_for_load_state()
                    wide = page.locator("svg").first.bounding_box()
                    assert wide is not None and wide["width"] > page.viewport_size["width"]
            page.context.close()


def test_the_other_pages_of_a_player_and_a_gm_fit_a_phone(live, runner, chromium):
    made = _started(runner, "empire")
    base = live.config["BASE_URL"]
    seat = path_of(made["seats"][0]["link"])
    page = open_page(chromium, base + seat, "phone")
    me = page.get_attribute("a[href$='#settings']", "href")
    page.context.close()
    pages = {"pause": f"{base}{seat}/pause", "settings": base + me, "gm": base + path_of(made["gm_link"]),
             "rules": f"{base}/rules/empire"}
    for size in ("phone", "desk"):
        for name, url in pages.items():
            page = open_page(chromium, url, size)
            shot(page, f"empire-{name}-{size}")
            assert overflow(page) == 0, f"the {name} page scrolls sideways at the {size}'s width"
            page.context.close()
