"""The link-resend form sent from the page itself, in Chromium, on a phone and a desk, in Portuguese and
Greek: each send answers that the mail is on its way; past ``RATELIMIT_RESEND`` the page says, in the
reader's language, that too many requests came from this address (429).  Screenshots
``resend-<lang>-<size>`` and ``resend-limited-<lang>-<size>``."""

from __future__ import annotations

import pytest

from app.i18n import gettext, player_locale
from tests.browser import open_page, overflow, shot
from tests.platform.helpers import create_game

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_the_resend_form_answers_then_refuses_past_its_limit(live, runner, chromium, lang):
    create_game(runner)
    live.config.update(RATELIMIT_RESEND="2 per hour", RESEND_ANSWER_SECONDS=0)
    base = live.config["BASE_URL"]
    with live.test_request_context("/"), player_locale(lang):
        sent = gettext("Get your personal link again")  # the page's heading, above the answer
        refused = gettext("Too many requests")
    assert refused != "Too many requests", "the 429 page is translated"
    for size in ("phone", "desk"):
        page = open_page(chromium, f"{base}/resend?lang={lang}", size)
        for _ in range(2 if size == "phone" else 0):
            page.fill("input[name=email]", "a@example.org")
            page.click("form button[type=submit]")
            page.wait_for_load_state()
            assert sent in page.inner_text("body") and page.locator("p.notice[role=status]").count() == 1
            shot(page, f"resend-{lang}-{size}")
            page.goto(f"{base}/resend")
        page.fill("input[name=email]", "a@example.org")
        with page.expect_response(lambda r: r.url.endswith("/resend") and r.request.method == "POST") as answer:
            page.click("form button[type=submit]")
        assert answer.value.status == 429
        page.wait_for_load_state()
        assert refused in page.inner_text("body") and "Traceback" not in page.content()
        assert overflow(page) == 0
        shot(page, f"resend-limited-{lang}-{size}")
        page.context.close()
