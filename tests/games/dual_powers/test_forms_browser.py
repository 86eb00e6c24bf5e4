"""Dual Powers in a real browser at a phone's and a desk's size: each form filled as a player would
(select, tick, tap a region on the board) and accepted; no sideways scrolling; screenshots written."""

from __future__ import annotations

from random import Random

import pytest

from tests.browser import open_page, overflow, shot
from tests.platform.helpers import create_game, game_row

from .formfill import kind_of, legal_values

pytestmark = pytest.mark.browser

WANTED = ("objective", "recruit", "move", "double", "refresh", "leader", "pass", "score", "bonus", "place")


WIDE = """Array.from(document.querySelectorAll('*')).filter(e => e.scrollWidth > e.clientWidth + 1)
 .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40))"""


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-browser-seed")


def _fill(page, index: int, kind: str, rng: Random) -> None:
    """Open form ``index`` and fill it the way a player would."""
    box = page.locator("details.dp-form").nth(index)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    form = box.locator("form")
    for name in form.locator("select").evaluate_all("els => els.map(e => e.name)"):
        sel = form.locator(f"select[name={name}]")
        if name in ("connection", "bonus_token", "bonus_to") or not sel.is_visible():
            continue
        options = [o for o in sel.locator("option:not([disabled])").all() if o.get_attribute("value")]
        if name == "bonus" and kind not in ("bonus",):
            continue
        if name in ("region", "to") and options:
            # tap the region on the board instead of using the select
            sel.focus()
            region = rng.choice(options).get_attribute("value")
            page.locator(f".board:visible [data-region={region}]").first.click()
            assert sel.input_value() == region
            continue
        if options:
            sel.select_option(rng.choice(options).get_attribute("value"))
    boxes = form.locator(".dp-units input[type=checkbox]:not([disabled])")
    if boxes.count():
        boxes.first.check()
    if kind == "leader":
        form.locator("input[name=special]").check()
        conn = form.locator("[data-wrap=connection] select:visible")
        if conn.count():
            conn.select_option(index=1)


def test_each_form_submits_in_chromium_at_phone_and_desk_sizes(live, runner, chromium, fixed_seed):
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(3)
    posted: dict[str, int] = {}
    sent: set[tuple[int, str]] = set()
    shots = 0
    for n in range(40):
        game = game_row(live, made["game"])
        if not game.owed or game.status != "running":
            break
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        sent.add((game.step_no, seat))
        forms = game.owed[seat]["forms"]
        index = min(range(len(forms)), key=lambda i: (posted.get(kind_of(forms[i]), 0), rng.random()))
        kind = kind_of(forms[index])
        size = "phone" if n % 2 == 0 else "desk"
        page = open_page(chromium, links[seat], size)
        assert overflow(page) == 0, (size, kind, page.evaluate(WIDE))
        if posted.get(kind, 0) == 0:
            _fill(page, index, kind, rng)
            shot(page, f"dual_powers-{kind}-{size}")
            shots += 1
        else:
            _fill(page, index, kind, rng)
        page.locator("details.dp-form").nth(index).locator("button[type=submit]").first.click()
        page.wait_for_load_state()
        text = page.inner_text("body")
        assert "Your order" in text or "Your order was applied" in text, (kind, text[:1500])
        posted[kind] = posted.get(kind, 0) + 1
        page.context.close()
    assert {"objective", "recruit", "leader", "pass"} <= set(posted), posted
    assert shots >= 4



def test_a_solo_game_plays_in_chromium_with_and_without_javascript(live, runner, chromium, fixed_seed):
    made = create_game(runner, "dual_powers", ("solo@example.org",), "--option", "solo=true", "--option",
                       "difficulty=2", "--option", "faction=SOV")
    link = made["seats"][0]["link"]
    rng = Random(9)
    posted: dict[str, int] = {}
    for n in range(8):
        game = game_row(live, made["game"])
        if not game.owed or game.status != "running":
            break
        forms = game.owed["SOV"]["forms"]
        index = min(range(len(forms)), key=lambda i: (posted.get(kind_of(forms[i]), 0), rng.random()))
        kind = kind_of(forms[index])
        plain = open_page(chromium, link, "phone", javascript=False)
        assert overflow(plain) == 0, "sideways scroll without JavaScript"
        if forms[index].get("combos"):  # one select of the legal combinations, the per-field selects disabled
            assert plain.locator("details.dp-form").nth(index).locator("select[name=combo]").count() == 1
            shot(plain, f"dual_powers-solo-nojs-{kind}-phone")
        plain.context.close()
        page = open_page(chromium, link, "phone" if n % 2 else "desk")
        assert overflow(page) == 0, (kind, page.evaluate(WIDE))
        _fill(page, index, kind, rng)
        if not posted.get(kind):
            shot(page, f"dual_powers-solo-{kind}-{'phone' if n % 2 else 'desk'}")
        page.locator("details.dp-form").nth(index).locator("button[type=submit]").first.click()
        page.wait_for_load_state()
        assert "Your order" in page.inner_text("body"), kind
        posted[kind] = posted.get(kind, 0) + 1
        page.context.close()
    assert {"recruit", "leader"} <= set(posted), posted


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_the_seat_report_renders_in_each_language(app, client, runner, fixed_seed, lang):
    import copy
    import shutil
    import subprocess

    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Report
    from app.reports import render_pdf
    from tests.browser import SCREENSHOTS

    from .test_forms import _post

    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(5)
    sent: set[tuple[int, str]] = set()
    for _ in range(14):  # objectives and a few turns: cards played, tokens on the board
        game = game_row(app, made["game"])
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        sent.add((game.step_no, seat))
        forms = game.owed[seat]["forms"]
        index = next((i for i, f in enumerate(forms) if kind_of(f) == "recruit"), 0)
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    with Session(get_engine(app)) as s:
        report = s.exec(select(Report).where(Report.game_id == made["game"], Report.seat == "SOV")
                        .order_by(Report.step_no.desc())).first()
    assert report is not None
    context = copy.deepcopy(report.context)
    context.setdefault("player", {})["language"] = lang
    with app.app_context():
        pdf = render_pdf(context, links["SOV"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"dual_powers-report-{lang}.pdf"
    path.write_bytes(pdf)
    assert shutil.which("pdftoppm")
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(SCREENSHOTS / f"dual_powers-report-{lang}")],
                   check=True)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout
    words = {"en": "Your hand", "pt": "A sua mão", "el": "Το χέρι σας"}
    assert words[lang] in text
    assert "C-RED-" not in text and "C-GRN-" not in text  # cards by name, not by code
