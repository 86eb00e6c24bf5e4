"""Joining a league in a real browser, in Greek, on a phone and a desk: the address, the mail's link, "Join"."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser import open_page, overflow, shot
from tests.platform.helpers import mails

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_a_player_joins_by_the_invitation_and_the_confirmation_mail(live, runner, chromium, size):
    made = json.loads(runner.invoke(args=["league", "create", "Χειμερινό Κύπελλο", "--game", "conquest"]).output)
    address = f"ann.{size}@example.org"
    page = open_page(chromium, made["invite"] + "?lang=el", size)
    page.fill("#email", address)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    shot(page, f"league-join-sent-el-{size}")
    assert overflow(page) == 0
    assert address in page.inner_text("[role=status]") and "Join" not in page.inner_text("main")
    mail = [m for m in mails(live, to_addr=address) if m.kind.startswith("league-join")][0]
    assert "Χειμερινό Κύπελλο" in mail.subject
    link = re.search(r"http://\S+/confirm/\S+", mail.text).group(0)
    page.goto(link)
    shot(page, f"league-join-confirm-el-{size}")
    assert overflow(page) == 0 and address in page.inner_text("main")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    shot(page, f"league-joined-el-{size}")
    assert page.url.endswith("?joined=1") and overflow(page) == 0
    text = page.inner_text("main")
    assert "Παίκτης 1" in text and "ann." not in text, "the standings name nobody by their address"
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_the_league_gm_replaces_the_invitation_link_in_portuguese(live, runner, chromium, size):
    made = json.loads(runner.invoke(args=["league", "create", "Taça de Inverno", "--game", "duel"]).output)
    runner.invoke(args=["league", "add", made["public"].rsplit("/", 1)[1], "ana@example.org", "rui@example.org"])
    runner.invoke(args=["league", "season", made["public"].rsplit("/", 1)[1]])
    page = open_page(chromium, made["gm_link"] + "?lang=pt", size)
    old = page.inner_text("code")
    page.click("button[value=new-invite]")
    page.wait_for_load_state()
    shot(page, f"league-gm-new-invite-pt-{size}")
    assert overflow(page) == 0
    assert "A antiga deixou de funcionar" in page.inner_text("[role=status]") and page.inner_text("code") != old
    assert "ana@example.org" in page.inner_text("main"), "the GM reads who is awaited by the address they added"
    before = page.url.split("?")[0]
    page.click("button[value=new-gm-link]")
    page.wait_for_load_state()
    shot(page, f"league-gm-moved-pt-{size}")
    assert page.url.split("?")[0] != before and "o endereço antigo já não funciona" in page.inner_text("[role=status]")
    assert overflow(page) == 0
    page.context.close()
