"""Press and the player's home in a real browser, on a phone and a desk: readable, no sideways scrolling."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.links import prefs_link
from app.models import Player
from tests.browser import open_page, overflow, shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_press_card_and_home_in_a_browser(live, runner, chromium, size):
    out = runner.invoke(args=["game", "create", "toy3", "--player", "a@example.org", "--player", "b@example.org",
                              "--player", "c@example.org"])
    made = json.loads(out.output)
    link = {s["seat"]: s["link"] for s in made["seats"]}
    page = open_page(chromium, link["A"], size)
    page.check("input[name=to][value=B]")
    page.fill("#press-text", "Shall we share the north?\nA long word: " + "x" * 80)
    page.click("button:has-text('Send message')")
    page.wait_for_load_state()
    assert "Your message was sent." in page.inner_text("body")
    page.click("#standing a.set-standing")
    page.wait_for_load_state()
    assert overflow(page) == 0
    page.select_option("#sf0-n", "2")
    page.click("#standing form.order button:has-text('Keep as my standing order') >> nth=0")
    page.wait_for_load_state()
    assert "PICK 2" in page.inner_text("#standing")
    assert overflow(page) == 0
    page.locator("#standing").scroll_into_view_if_needed()
    shot(page, f"standing-{size}")
    other = open_page(chromium, link["B"], size)
    text = other.inner_text("#press")
    assert "Shall we share the north?" in text and "1 unread" in text
    assert overflow(other) == 0
    shot(other, f"press-card-{size}")
    with live.app_context(), Session(get_engine()) as s:
        home = prefs_link(s.exec(select(Player).where(Player.email == "b@example.org")).one())
    other.click("a.home-link, .home-link a")
    other.wait_for_load_state()
    assert other.url.split("#")[0] == home
    body = other.inner_text("body")
    assert "your move" in body and "1 unread" in body
    assert overflow(other) == 0
    shot(other, f"home-{size}")
