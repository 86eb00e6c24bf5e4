"""Dual Powers' seat page in Portuguese and Greek at a phone's and a desk's size: nothing scrolls
sideways, the board is drawn, no label spills out of its box; screenshots written for a person to see."""

from __future__ import annotations

from random import Random

import pytest

from tests.browser import open_page, overflow, shot
from tests.platform.helpers import create_game, game_row, path_of

from .formfill import kind_of, legal_values
from .test_forms import _post

pytestmark = pytest.mark.browser

#: Elements whose text is wider than their box (clipped or spilling), as "tag.class text".
SPILLS = """Array.from(document.querySelectorAll('main *')).filter(e => {
  const s = getComputedStyle(e);
  if (['SELECT', 'OPTION', 'svg', 'TEXTAREA'].includes(e.tagName) || e.closest('svg') || !e.offsetParent) return false;
  return e.scrollWidth > e.clientWidth + 1 && s.overflowX !== 'auto' && s.overflowX !== 'scroll';
}).slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 60))"""


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-languages-seed")


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_the_seat_page_reads_in_portuguese_and_greek_at_both_sizes(live, client, runner, chromium, fixed_seed, lang):
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(2)
    sent: set[tuple[int, str]] = set()
    for _ in range(12):  # objectives and a few turns: units on the board, a log to read
        game = game_row(live, made["game"])
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        sent.add((game.step_no, seat))
        forms = game.owed[seat]["forms"]
        index = next((i for i, f in enumerate(forms) if kind_of(f) in ("recruit", "move")), 0)
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    game = game_row(live, made["game"])
    seat = next(iter(sorted(game.owed)))
    for size in ("phone", "desk"):
        page = open_page(chromium, links[seat] + f"?lang={lang}", size)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator(".board:visible svg, svg.board:visible").count() >= 1 or \
            page.locator("svg:visible").count() >= 1
        assert overflow(page) == 0
        assert page.evaluate(SPILLS) == []
        shot(page, f"dual_powers-seat-{lang}-{size}")
        page.context.close()
    assert path_of(links[seat])
