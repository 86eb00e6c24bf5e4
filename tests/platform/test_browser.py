"""A real browser (Debian's Chromium driven by Playwright) follows a mailed link and orders."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.mail import build_message
from app.models import OutboxMail
from tests.browser import open_page, overflow, shot

pytestmark = pytest.mark.browser


def test_browser_opens_mailed_link_and_submits(live, runner, chromium):
    runner.invoke(args=["game", "create", "toy", "--player", "web@example.org", "--bot"])
    with live.app_context(), Session(get_engine()) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.to_addr == "web@example.org")).one()
        body = build_message(session, mail, with_pdf=False).get_body(("plain",)).get_content()
    link = next(line for line in body.splitlines() if "/p/" in line).strip()
    page = open_page(chromium, link, "phone")
    assert "Pick a number for round 1" in page.content()
    page.select_option("select[name=n]", "3")
    page.click("button:has-text('Pick')")
    page.wait_for_load_state()
    text = page.inner_text("body")
    assert "Your order was applied." in text
    assert "Round 1: A picked 3" in text
    assert "Pick a number for round 2" in text
    shot(page, "toy-seat-phone")
    assert overflow(page) == 0, "the page (and its long receipt) fits a phone's width"
