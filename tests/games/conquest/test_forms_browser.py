"""The conquest seat page in a real browser, at a phone's and a desk's size.

A player fills each form the way a person does: the + buttons of the placement, a tap on
the map for the attack's source and target, the selects; each order is accepted, the page
never scrolls sideways, and screenshots ``conquest-<step>-<size>.png`` are written for a
person to look at.  The turn report (PDF) of a seat is rendered in English, Portuguese and
Greek and turned into pictures as well.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.i18n import player_locale
from app.models import Report
from app.reports import render_pdf
from tests.browser import SCREENSHOTS, open_page, overflow, shot
from tests.games.conquest.formpage import game, made
from tests.platform.helpers import path_of

pytestmark = pytest.mark.browser


def _create(runner, monkeypatch, base):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "conquest-forms-1")
    out = runner.invoke(args=["game", "create", "conquest", "--player", "ana@example.org",
                              "--option", "players=3", "--option", "ai_seats=2", "--option", "mode=domination"])
    assert out.exit_code == 0, out.output
    seat = next(s for s in made(out.output)["seats"] if s.get("email"))
    return made(out.output)["game"], seat["seat"], base + path_of(seat["link"])


def _applied(page):
    page.wait_for_load_state()
    assert page.locator(".error").count() == 0, page.inner_text(".error")
    assert "done=" in page.url


def _look(page, name):
    assert overflow(page) == 0, f"{name}: the page scrolls sideways"
    shot(page, name)


def _place_all(page, size, step):
    """Press + on the territories, in order, until the running total is full; send."""
    form = page.locator("form.cq-place")
    total = int(form.get_attribute("data-total"))
    for row in form.locator(".cq-row").all():
        plus = row.locator(".cq-step[data-step='1']")
        while plus.is_enabled() and row.locator("input").input_value() != row.locator("input").get_attribute("max"):
            plus.click()
        if not plus.is_enabled() and "cq-done" in (form.locator(".cq-total").get_attribute("class") or ""):
            break
    assert re.search(rf"\b{total} of {total} placed", form.locator(".cq-total").inner_text())
    _look(page, f"conquest-{step}-{size}")
    form.locator("button[type=submit]").click()
    _applied(page)


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_a_player_places_attacks_regroups_and_ends_turns_by_tapping(live, runner, chromium, monkeypatch, size):
    g, seat, url = _create(runner, monkeypatch, live.config["BASE_URL"])
    page = open_page(chromium, url, size)
    _place_all(page, size, "place")
    seen = {"place"}
    for _ in range(60):
        row = game(live, g)
        if row.status != "running" or seat not in row.owed:
            break
        page.goto(url)
        kinds = [f["base"]["type"] for f in row.owed[seat]["forms"]]
        if "PLACE" in kinds:
            _place_all(page, size, "place-again")
        elif kinds[0] == "TRADE":
            _look(page, f"conquest-trade-{size}")
            page.locator("form.cq-trade button[type=submit]").first.click()
            _applied(page)
            seen.add("trade")
        elif "ADVANCE" in kinds:
            form = page.locator("form.cq-advance")
            form.locator(".cq-step[data-step='-1']").click()
            _look(page, f"conquest-advance-{size}")
            form.locator("button[type=submit]").click()
            _applied(page)
            seen.add("advance")
        elif "ATTACK" in kinds and "attack" not in seen:
            form = page.locator("form.cq-pairs[data-kind=ATTACK]")
            choice = row.owed[seat]["forms"][kinds.index("ATTACK")]["fields"][0]["choices"][-1]
            page.locator(f".cq-board g.t[data-t={choice['from']}]").locator("visible=true").first.click()
            page.locator(f".cq-board g.t[data-t={choice['to']}]").locator("visible=true").first.click()
            assert form.locator("select[name=pair]").input_value() == choice["value"], "the taps chose the pair"
            form.locator("select[name=repeat]").select_option("CONQUER")
            _look(page, f"conquest-attack-{size}")
            form.locator("button[type=submit]").click()
            _applied(page)
            seen.add("attack")
        elif "MOVE" in kinds and "move" not in seen:
            form = page.locator("form.cq-pairs[data-kind=MOVE]")
            src = form.locator("select.cq-from")
            src.select_option(index=src.locator("option").count() - 1)
            dst = form.locator("select.cq-to")
            dst.select_option(index=dst.locator("option").count() - 1)
            _look(page, f"conquest-move-{size}")
            form.locator("button[type=submit]").click()
            _applied(page)
            seen.add("move")
        else:
            _look(page, f"conquest-end-{size}")
            page.locator("button", has_text="End turn").click()
            _applied(page)
            seen.add("end")
        if {"attack", "move", "end"} <= seen and len(seen) >= 5:
            break
    assert {"place", "attack", "move", "end"} <= seen, seen


def test_without_javascript_the_placement_is_plain_number_boxes(live, runner, chromium, monkeypatch):
    g, seat, url = _create(runner, monkeypatch, live.config["BASE_URL"])
    page = open_page(chromium, url, "phone", javascript=False)
    form = page.locator("form.cq-place")
    assert form.locator(".cq-step").first.is_hidden()
    total = int(form.get_attribute("data-total"))
    box = form.locator("input[type=number]").first
    assert int(box.get_attribute("max")) >= total
    box.fill(str(total))
    _look(page, "conquest-place-nojs-phone")
    form.locator("button[type=submit]").click()
    _applied(page)
    assert seat not in game(live, g).owed or game(live, g).step_no > 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize(("lang", "word"), [("en", "Moscow"), ("pt", "Moscovo"), ("el", "Μόσχα")])
def test_the_turn_report_of_a_seat_in_each_language(app, runner, monkeypatch, lang, word):
    g, seat, url = _create(runner, monkeypatch, "")
    with app.app_context(), Session(get_engine(app)) as s:
        report = s.exec(select(Report).where(Report.game_id == g, Report.seat == seat)).first()
        assert report is not None
        context = dict(report.context)  # the report as made for a reader of ``lang``
        context["player"] = {**(context.get("player") or {}), "language": lang}
        with app.test_request_context(), player_locale(lang):
            pdf = render_pdf(context, "https://pbem.example.org" + url)
    pages = PdfReader(io.BytesIO(pdf)).pages
    text = " ".join(p.extract_text() for p in pages)
    assert word in text
    assert len(pages) >= 2, "the map page, then the seat's own pages"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-", str(SCREENSHOTS / f"conquest-report-{lang}")],
                   input=pdf, check=True)


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_the_seat_page_fits_a_phone_in_portuguese_and_greek(live, runner, chromium, monkeypatch, lang):
    g, seat, url = _create(runner, monkeypatch, live.config["BASE_URL"])
    page = open_page(chromium, url + f"?lang={lang}", "phone")
    assert page.locator("html").get_attribute("lang") == lang
    page.locator("form.cq-place .cq-row .cq-step[data-step='1']").first.click()
    assert re.match(r"^1\D+7\b|^\D*1\D+7\b", page.locator(".cq-total").inner_text())
    _look(page, f"conquest-place-{lang}-phone")
