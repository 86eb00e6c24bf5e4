"""The Duel's seat page in a real browser (Debian's Chromium): tap a position, tap a rotation, place.

At a phone's size (390 x 844) and a desk's (1280 x 900), with and without JavaScript; the page
never scrolls sideways; screenshots ``duel-<step>-<size>.png`` are written for a person to look at.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from app.games.base import step_rng
from app.games.duel import RULES
from app.games.duel.geometry import cell_key
from app.games.duel.placement import grid_of, legal_placements
from tests.browser import SCREENSHOTS, open_page, overflow, shot
from tests.platform.helpers import csrf_of, game_row, path_of, step_of

pytestmark = pytest.mark.browser


def _make(runner) -> tuple[dict, dict]:
    out = runner.invoke(args=["game", "create", "duel", "--player", "me@example.org", "--bot"])
    assert out.exit_code == 0, out.output
    made = json.loads(out.output)
    return made, next(s for s in made["seats"] if s["email"] == "me@example.org")


def _legal(app, game_id: int, seat: str) -> dict[str, list[int]]:
    state = game_row(app, game_id).state
    cur = state["current"]
    out: dict[str, list[int]] = {}
    for cell, k in legal_placements(grid_of(state["areas"][seat]), cur["tile"], cur["marker"]):
        out.setdefault(cell_key(cell), []).append(k)
    return out


def _shown_rotations(page) -> list[int]:
    return [int(v) for v in page.eval_on_selector_all(
        "#duel-place label.rot", "ls => ls.filter(l => !l.hidden).map(l => l.querySelector('input').value)")]


def _placed(app, made, me, turn: int) -> dict:
    return game_row(app, made["game"]).state["areas"][me["seat"]]["cells"]


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_a_player_taps_a_position_and_a_rotation_and_places_the_tile(live, runner, chromium, size):
    made, me = _make(runner)
    page = open_page(chromium, me["link"], size)
    for turn in range(1, 6):
        game = game_row(live, made["game"])
        assert game.state["turn"] == turn and me["seat"] in game.owed
        legal = _legal(live, made["game"], me["seat"])
        assert overflow(page) == 0, f"turn {turn}: the page scrolls sideways"
        # Tap a numbered position on the area (not the first one listed, when there is a choice).
        positions = page.eval_on_selector_all("#duel-place .duel-cand", "gs => gs.map(g => g.dataset.pos)")
        assert sorted(positions) == sorted(legal)
        target = positions[turn % len(positions)]
        page.click(f'#duel-place .duel-cand[data-pos="{target}"]')
        assert page.input_value("#duel-position") == target
        assert page.input_value("#duel-at") == target
        assert _shown_rotations(page) == legal[target], "only the rotations legal there are offered"
        # The tile is drawn placed there.
        where = page.eval_on_selector(f'#duel-place .duel-cand[data-pos="{target}"]',
                                      "g => g.dataset.x + ' ' + g.dataset.y")
        assert page.get_attribute("#duel-ghost", "transform") == f"translate({where})"
        rot = legal[target][-1]
        page.click(f'#duel-place label.rot:has(input[value="{rot}"])')
        assert page.is_checked(f'#duel-place input[name=rotation][value="{rot}"]')
        shown = page.eval_on_selector_all("#duel-ghost .duel-ghost-rot",
                                          "gs => gs.filter(g => g.getAttribute('display') !== 'none')"
                                          ".map(g => g.dataset.rot)")
        assert shown == [str(rot)], "the drawn tile turns with the rotation picked"
        shot(page, f"duel-turn{turn}-{size}")
        page.click("#duel-place form.duel-order button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("[role=status]").count() == 1, page.inner_text("body")[:2000]
        placed = _placed(live, made, me, turn)[target]
        assert placed["rot"] == rot and placed["turn"] == turn
        page.goto(me["link"])  # the page as the mailed link opens it (the receipt notice is the platform's)
    assert overflow(page) == 0
    shot(page, f"duel-after-{size}")


def test_without_javascript_a_tap_on_a_number_reloads_the_page_with_the_tile_placed_there(live, runner, chromium):
    made, me = _make(runner)
    for turn in range(1, 4):
        page = open_page(chromium, me["link"], "phone", javascript=False)
        legal = _legal(live, made["game"], me["seat"])
        positions = sorted(legal)
        target = positions[-1]
        page.click(f'#duel-place .duel-cand[data-pos="{target}"] a')
        page.wait_for_load_state()
        assert f"at={target}" in page.url.replace("%2C", ",")
        assert page.input_value("#duel-position") == target
        assert _shown_rotations(page) == legal[target]
        assert overflow(page) == 0
        rot = legal[target][0]
        page.click(f'#duel-place label.rot:has(input[value="{rot}"])')
        shot(page, f"duel-nojs-turn{turn}-phone")
        page.click("#duel-place form.duel-order button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("[role=status]").count() == 1, page.inner_text("body")[:2000]
        assert _placed(live, made, me, turn)[target]["rot"] == rot
        page.context.close()


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_the_seat_page_fits_a_phone_in_portuguese_and_greek(live, runner, chromium, lang):
    made, me = _make(runner)
    for turn in range(1, 4):
        page = open_page(chromium, me["link"] + f"?lang={lang}", "phone")
        assert page.get_attribute("html", "lang") == lang
        assert overflow(page) == 0
        legal = _legal(live, made["game"], me["seat"])
        target = sorted(legal)[0]
        page.click(f'#duel-place .duel-cand[data-pos="{target}"]')
        assert _shown_rotations(page) == legal[target]
        shot(page, f"duel-{lang}-turn{turn}-phone")
        page.click("#duel-place form.duel-order button[type=submit]")
        page.wait_for_load_state()
        assert target in game_row(live, made["game"]).state["areas"][me["seat"]]["cells"]
        page.context.close()


def test_the_spectator_page_fits_a_phone_and_shows_no_seat_choices(live, runner, chromium):
    made, me = _make(runner)
    client = live.test_client()
    for _ in range(4):
        game = game_row(live, made["game"])
        html = client.get(path_of(me["link"])).get_data(as_text=True)
        order = RULES.random_order(game.state, me["seat"], step_rng("spectator", game.step_no, me["seat"]))
        client.post(path_of(me["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                               "notation": RULES.format(order)})
    for size in ("phone", "desk"):
        page = open_page(chromium, f"{live.config['BASE_URL']}/g/{made['game']}", size)
        assert overflow(page) == 0
        assert page.locator(".duel-cand").count() == 0 and page.locator(".g-duel .board svg").count() == 2
        shot(page, f"duel-spectator-{size}")
        page.context.close()


def test_a_big_area_fits_the_phone_and_opens_full_size_with_readable_numbers(live, runner, chromium):
    made, me = _make(runner)
    client = live.test_client()
    for _ in range(40):  # forty turns of placements sent in the notation
        game = game_row(live, made["game"])
        if game.status != "running" or me["seat"] not in game.owed:
            break
        html = client.get(path_of(me["link"])).get_data(as_text=True)
        order = RULES.random_order(game.state, me["seat"], step_rng("big", game.step_no, me["seat"]))
        resp = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                      "notation": RULES.format(order)})
        assert resp.status_code == 303
    game = game_row(live, made["game"])
    assert game.status == "running" and len(game.state["areas"][me["seat"]]["cells"]) > 30
    page = open_page(chromium, me["link"], "phone")
    assert overflow(page) == 0
    numbers = "#duel-place .duel-cand text"
    fitted = page.eval_on_selector(numbers, "t => t.getBoundingClientRect().height")
    shot(page, "duel-big-fit-phone")
    page.click('label[for="duel-zoom-form"]')
    zoomed = page.eval_on_selector(numbers, "t => t.getBoundingClientRect().height")
    assert zoomed > fitted and zoomed >= 16, (fitted, zoomed)
    assert overflow(page) == 0, "the full-size area scrolls inside its frame, not the page"
    legal = _legal(live, made["game"], me["seat"])
    target = sorted(legal)[-1]
    page.click(f'#duel-place .duel-cand[data-pos="{target}"]')
    assert page.input_value("#duel-position") == target
    shot(page, "duel-big-zoom-phone")
    page.click("#duel-place form.duel-order button[type=submit]")
    page.wait_for_load_state()
    assert target in game_row(live, made["game"]).state["areas"][me["seat"]]["cells"]


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_the_seat_report_reads_whole_in_each_language(live, runner, chromium, lang):
    """The seat's PDF report, turned into pictures (``duel-report-<lang>-<page>.png``) to look at."""
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Player

    made, me = _make(runner)
    with Session(get_engine(live)) as s:
        player = s.exec(select(Player).where(Player.email == "me@example.org")).one()
        player.language = lang
        s.add(player)
        s.commit()
    # A few turns in, so that the areas hold tiles and markers.
    for _ in range(4):
        page = open_page(chromium, me["link"], "desk", javascript=False)
        page.click("#duel-place form.duel-order button[type=submit]")
        page.wait_for_load_state()
        page.context.close()
    page = open_page(chromium, me["link"], "desk", javascript=False)
    response = page.request.get(me["link"] + "/report.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pdf = SCREENSHOTS / f"duel-report-{lang}.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(SCREENSHOTS / f"duel-report-{lang}")], check=True)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert {"en": "Task subtotal", "pt": "Subtotal", "el": "Υποσύνολο"}[lang] in text or lang != "en"
    # a tile's code shows only in the notation (``PLACE L17 2 -1 3``, which a line may break after PLACE)
    assert not re.search(r"\bL\d{2}\b", re.sub(r"PLACE\s+L\d{2}", "", text)), "tiles are named, not coded"
    page.context.close()
