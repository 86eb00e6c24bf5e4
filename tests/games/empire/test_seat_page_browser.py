"""Empire's seat page as Greek and Portuguese players see it, on a phone and a desk: nothing
scrolls sideways, and the page names things (provinces, resources, objectives, troops' kinds)
instead of the notation's codes, which stay in the notation help.
Screenshots ``empire-seat-<lang>-<size>``."""

from __future__ import annotations

import re

import pytest

from tests.browser import open_page
from tests.games.empire.forms_kit import GREEK_AND_PORTUGUESE, greek_and_portuguese_game, legal_values
from tests.games.empire.test_forms_browser import _fits, _phase
from tests.platform.helpers import post_form

pytestmark = pytest.mark.browser

#: codes of the notation a player's page must not show as text (outside the notation help):
#: resources, buildings, objectives, setback cards, "2H", troops', offers' and pacts' ids (B-S1, B-O1,
#: B-PACT: the page names them, "Blue troop 1")
CODES = re.compile(r"\b(GOLD|WOOD|STONE|IRON|FOOD|POP|INF|WALL|HEAVY|(?<!-)O[1-8]|(?<!-)S[0-2][0-9]|\d+H"
                   r"|[BGYR]-(?:[SH][0-9]+|O[0-9]|PACT))\b")


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_the_seat_page_in_greek_and_portuguese(live, runner, chromium, size):
    made, langs = greek_and_portuguese_game(live, runner), GREEK_AND_PORTUGUESE
    client = live.test_client()
    for _ in range(3):  # proposals, answers, administration: troops on the map, offers and pacts made
        phase, owed = _phase(live, made["game"])
        if phase == "T4":  # the administration form in Greek, with and without its script
            for javascript in (True, False):
                page = open_page(chromium, made["seats"][0]["link"], size, javascript=javascript)
                _fits(page, f"empire-T4-el-{'js' if javascript else 'nojs'}-{size}")
                assert page.locator("select[name=market]").count() == (1 if javascript else 0)
                if javascript and page.eval_on_selector("select[name=build]", "s => s.value") == "":
                    # the new heavy troop's move and mode show only once one is built
                    label = page.locator("label[for$='move_NEW']")
                    assert label.count() == 0 or not label.is_visible()
        for seat, prompt in owed.items():
            link = made["seats"][int(seat[1:]) - 1]["link"]
            assert post_form(client, link, legal_values(prompt["forms"][0])).status_code == 303
    for i, lang in enumerate(langs[:2]):
        page = open_page(chromium, made["seats"][i]["link"], size)
        _fits(page, f"empire-seat-{lang}-{size}")
        text = page.inner_text("main")
        assert {"el": "Παίκτες", "pt": "Jogadores"}[lang] in text
        if lang == "el":  # ";" is the Greek question mark: the board's own lines never join with it
            board = " ".join(page.locator("div.g-empire:not(.e-forms)").all_inner_texts())
            assert ";" not in board, board[:3000]
        found = sorted({m.group(0) for m in CODES.finditer(text)})
        assert not found, (lang, found, [text[max(0, m.start() - 60):m.end() + 20] for m in CODES.finditer(text)][:6])
