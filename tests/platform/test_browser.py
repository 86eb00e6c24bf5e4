"""A real browser (Debian's Chromium driven by Playwright) follows a mailed link and orders."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from sqlmodel import Session, select
from werkzeug.serving import make_server

from app.db import get_engine
from app.mail import build_message
from app.models import OutboxMail
from tests.conftest import free_port

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.browser


@pytest.fixture
def live(app):
    port = free_port()
    app.config["BASE_URL"] = f"http://127.0.0.1:{port}"
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app
    server.shutdown()


def test_browser_opens_mailed_link_and_submits(live, runner):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium is required for browser tests ({CHROMIUM}); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    runner.invoke(args=["game", "create", "toy", "--player", "web@example.org", "--bot"])
    with live.app_context(), Session(get_engine()) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.to_addr == "web@example.org")).one()
        body = build_message(session, mail, with_pdf=False).get_body(("plain",)).get_content()
    link = next(line for line in body.splitlines() if "/p/" in line).strip()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
        page.goto(link)
        assert "Pick a number for round 1" in page.content()
        page.select_option("select[name=n]", "3")
        page.click("button:has-text('Pick')")
        page.wait_for_load_state()
        text = page.inner_text("body")
        assert "Your order was applied." in text
        assert "Round 1: A picked 3" in text
        assert "Pick a number for round 2" in text
        browser.close()
