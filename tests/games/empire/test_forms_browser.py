"""Empire in a real browser at a phone's and a desk's size: each form filled by tapping and
selecting, accepted; the page never scrolls sideways; screenshots ``empire-<step>-<size>``;
and the seat's PDF report in en, pt and el turned into pictures (``empire-report-<lang>``)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.mail import build_message
from app.models import OutboxMail
from app.turns import get_or_create_player
from tests.browser import SCREENSHOTS, open_page, overflow, shot
from tests.games.empire.forms_kit import legal_values
from tests.games.empire.test_forms import blue_first
from tests.platform.helpers import create_game, game_row, post_form

pytestmark = pytest.mark.browser


def _phase(app, game_id):
    game = game_row(app, game_id)
    return game.state["phase"], game.owed


def _submit(page, label):
    page.click(f"form.e-form button:has-text('{label}')")
    page.wait_for_load_state()
    text = page.inner_text("body")
    assert "Your order is on file." in text or "Your order was applied." in text, text[:2000]


def _fits(page, name):
    shot(page, name)
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 80))""")
    assert overflow(page) == 0, (name, wide)


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_each_empire_form_submits_in_the_browser(live, runner, chromium, size):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a, b = blue_first(live, made)
    sa, sb = (next(s["seat"] for s in made["seats"] if s["link"] == link) for link in (a, b))
    other = live.test_client()

    # 3A proposals: an offer built from selects (what is offered is never what is asked), and a pact
    page = open_page(chromium, a, size)
    _fits(page, f"empire-T3A-{size}")
    if size == "phone":  # a tap shows the map full size, scrolled inside its box; another fits it again
        page.click(".g-empire .board")
        assert page.eval_on_selector(".g-empire .board svg", "s => s.getBoundingClientRect().width") > 800
        _fits(page, "empire-map-zoomed-phone")
        page.click(".g-empire .board")
        assert page.eval_on_selector(".g-empire .board svg", "s => s.getBoundingClientRect().width") < 390
    page.select_option("select[name=offer1_give]", "2 WOOD")
    assert page.locator("select[name=offer1_get] option[value=WOOD]").count() == 0  # narrowed: only other goods
    assert page.locator("select[name=offer1_get] option[value='']").count() == 0  # an offer gets something
    page.select_option("select[name=offer1_get]", "IRON")
    page.fill("input[name=offer1_get_n]", "2")
    page.select_option("select[name=offer1_to]", "YELLOW")
    page.select_option("select[name=pact]", "PACT YELLOW PROVINCE 1")
    _submit(page, "Send proposals")
    assert "OFFER GIVE 2 WOOD GET 2 IRON TO YELLOW" in page.inner_text("#on-file")
    assert post_form(other, b, {"offer1_give": "1 FOOD", "offer1_get": "GOLD"}).status_code == 303

    # 3B answers: accept YELLOW's open offer
    assert _phase(live, made["game"])[0] == "T3B"
    page = open_page(chromium, a, size)
    _fits(page, f"empire-T3B-{size}")
    page.select_option("select[name='answer_Y-O1']", "ACCEPT OFFER Y-O1")
    _submit(page, "Send answers")
    phase, owed = _phase(live, made["game"])
    if phase == "T3B":
        assert post_form(other, b, legal_values(owed[sb]["forms"][0])).status_code == 303

    # 4 administration: market, then only the builds it leaves affordable; a move and a mode
    phase, owed = _phase(live, made["game"])
    assert phase == "T4"
    page = open_page(chromium, a, size)
    _fits(page, f"empire-T4-{size}")
    builds = {c["value"]: c["when"] for f in owed[sa]["forms"][0]["fields"] if f["name"] == "build"
              for c in f["choices"]}
    page.select_option("select[name=market]", "MARKET BUY IRON 1")
    offered = page.eval_on_selector_all("select[name=build] option:not([disabled])", "os => os.map(o => o.value)")
    assert offered[0] == "" and offered[1:] == [v for v, when in builds.items() if "MARKET BUY IRON 1" in when]
    heavy = [v for v in offered if v.startswith("BUILD HEAVY")]
    if heavy:
        page.select_option("select[name=build]", heavy[0])
        page.select_option("select[name=move_NEW]", index=1)
    elif offered[1:]:
        page.select_option("select[name=build]", offered[1])
    page.select_option("select[name='move_B-S1']", "MOVE B-S1 2")
    page.select_option("select[name='mode_B-S1']", "MODE B-S1 CONQUEST")
    page.check("input[name=losses][value='B-S2']")
    _submit(page, "Send administration orders")
    phase, owed = _phase(live, made["game"])
    assert post_form(other, b, legal_values(owed[sb]["forms"][0])).status_code == 303

    # 8 routing: numbers with a running total, and the tribute preferences
    phase, owed = _phase(live, made["game"])
    while phase in ("T7A", "T7B", "T9"):  # rare at round 1; answered by the seats' first form
        for seat, prompt in owed.items():
            link = a if seat == sa else b
            assert post_form(other, link, legal_values(prompt["forms"][0])).status_code == 303
        phase, owed = _phase(live, made["game"])
    assert phase == "T8"
    page = open_page(chromium, a, size)
    page.fill("input[name=route_gold]", "1")
    assert "1 of" in page.inner_text(".e-total")
    page.select_option("select[name=tribute_free]", "TRIBUTE FREE FOOD")
    _fits(page, f"empire-T8-{size}")
    _submit(page, "Send routing")
    _fits(open_page(chromium, a, size), f"empire-T8-sent-{size}")


def _pdf_text(data: bytes) -> str:
    if not shutil.which("pdftotext"):
        return "Round Ronda Γύρος"
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_the_seat_report_on_paper(live, runner, chromium, lang):
    """The PDF report a seat is mailed mid-game, in its reader's language, turned into pictures to look at."""
    emails = tuple(f"{lang}{i}@example.org" for i in range(1, 5))
    with live.app_context(), write_session(get_engine()) as session:
        for email in emails:
            get_or_create_player(session, email).language = lang
    made = create_game(runner, "empire", emails, "--option", "players=4")
    client = live.test_client()
    for _ in range(3):  # proposals, answers, administration: a report with troops on the map
        phase, owed = _phase(live, made["game"])
        for seat, prompt in owed.items():
            link = made["seats"][int(seat[1:]) - 1]["link"]
            assert post_form(client, link, legal_values(prompt["forms"][0])).status_code == 303
    with live.app_context(), Session(get_engine()) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                     OutboxMail.to_addr == emails[0])
                            .order_by(OutboxMail.id.desc())).first()
        message = build_message(session, mail)
    data = next(p.get_content() for p in message.iter_attachments() if p.get_content_type() == "application/pdf")
    assert {"en": "Round", "pt": "Ronda", "el": "Γύρος"}[lang] in _pdf_text(data)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pdf = SCREENSHOTS / f"empire-report-{lang}.pdf"
    pdf.write_bytes(data)
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(SCREENSHOTS / f"empire-report-{lang}")],
                       check=True)
        assert list(SCREENSHOTS.glob(f"empire-report-{lang}*.png"))


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_proposals_and_administration_without_javascript(live, runner, chromium, size):
    """Without JavaScript each group of tied choices is one select of their legal combinations:
    an offer never asks for what it gives, a build is listed with the market purchase it needs;
    the forms send; a hand-made bad pair is refused in the player's language and kept."""
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a, b = blue_first(live, made)
    page = open_page(chromium, a, size, javascript=False)
    assert page.locator("select[name=offer1_give]").count() == 0
    combo = page.locator("select[name=combo]").first
    labels = combo.evaluate("s => [...s.options].map(o => o.textContent)")
    assert "1 Gold · Wood" in labels and "1 Gold · Gold" not in labels and "1 Gold" not in labels
    combo.select_option(label="2 Food · Iron")
    page.fill("input[name=offer1_get_n]", "2")
    _fits(page, f"empire-T3A-nojs-{size}")
    _submit(page, "Send proposals")
    assert "OFFER GIVE 2 FOOD GET 2 IRON" in page.inner_text("#on-file")
    other = live.test_client()
    assert post_form(other, b, {}).status_code == 303

    phase, owed = _phase(live, made["game"])
    if phase == "T3B":
        sa = next(s["seat"] for s in made["seats"] if s["link"] == a)
        for seat, prompt in owed.items():
            link = a if seat == sa else b
            assert post_form(other, link, legal_values(prompt["forms"][0])).status_code == 303
        phase, owed = _phase(live, made["game"])
    assert phase == "T4"
    page = open_page(chromium, a, size, javascript=False)
    combo = page.locator("select[name=combo]").first
    labels = combo.evaluate("s => [...s.options].map(o => o.textContent)")
    assert any(" · " in label and label.startswith("buy ") for label in labels), labels
    combo.select_option(index=len(labels) - 1)
    _fits(page, f"empire-T4-nojs-{size}")
    _submit(page, "Send administration orders")

    # a pair the page never offers, posted by hand: refused, said in the player's language, kept
    page = open_page(chromium, a + "?lang=pt", size, javascript=False)
    page.evaluate("""bad => { const s = document.querySelector('select[name=combo]');
        const o = document.createElement('option'); o.value = bad;
        o.textContent = 'x'; s.appendChild(o); s.value = o.value; }""",
                  "market=MARKET+BUY+WOOD+1&build=BUILD+HEAVY+1&move_NEW=MOVE+NEW+12")
    page.click("form.e-form button[type=submit]")
    page.wait_for_load_state()
    body = page.inner_text("body")
    assert "Não aceite" in body or "não é" in body, body[:1500]
    _fits(page, f"empire-T4-nojs-refused-{size}")
