"""The Duel's placement form, posted as a player's browser posts it (Flask client, no script).

A real game is made with the CLI (one human, one bot); at each turn the seat page's own form
is read (its positions, the rotations it offers for a position, the hidden fields) and posted.
"""

from __future__ import annotations

import json

import pytest
from lxml import html as lxml_html
from sqlmodel import Session, select

from app.db import get_engine
from app.games.duel import RULES
from app.games.duel.geometry import cell_key
from app.games.duel.placement import grid_of, legal_placements
from app.models import Order
from tests.platform.helpers import game_row, path_of


def _make(runner) -> tuple[dict, dict]:
    out = runner.invoke(args=["game", "create", "duel", "--player", "me@example.org", "--bot"])
    assert out.exit_code == 0, out.output
    made = json.loads(out.output)
    me = next(s for s in made["seats"] if s["email"] == "me@example.org")
    return made, me


def _page(client, link: str, query: str = ""):
    resp = client.get(path_of(link) + query)
    assert resp.status_code == 200
    return lxml_html.fromstring(resp.get_data(as_text=True))


def _form(doc):
    (form,) = doc.xpath('//form[contains(@class, "duel-order")]')
    return form


def _offered(doc) -> tuple[str, list[str], list[int]]:
    """(the chosen position, every position listed, the rotations offered there) as the page shows them."""
    form = _form(doc)
    chosen = form.xpath('.//input[@name="position"]/@value')[0]
    positions = doc.xpath('//select[@id="duel-at"]/option/@value')
    rots = [int(r.get("value")) for r in form.xpath('.//input[@name="rotation"]')
            if r.get("disabled") is None and r.getparent().get("hidden") is None]
    return chosen, positions, rots


def _fields(doc) -> dict[str, str]:
    form = _form(doc)
    return {i.get("name"): i.get("value") for i in form.xpath('.//input[@type="hidden"]')}


def _legal(app, game_id: int, seat: str) -> dict[str, list[int]]:
    state = game_row(app, game_id).state
    cur = state["current"]
    out: dict[str, list[int]] = {}
    for cell, k in legal_placements(grid_of(state["areas"][seat]), cur["tile"], cur["marker"]):
        out.setdefault(cell_key(cell), []).append(k)
    return out


def _orders(app, game_id: int) -> int:
    with Session(get_engine(app)) as s:
        return len(s.exec(select(Order).where(Order.game_id == game_id)).all())


def test_the_place_form_offers_only_legal_placements_and_each_is_accepted(app, client, runner):
    made, me = _make(runner)
    kinds = set()
    for turn in range(1, 13):
        if turn > 5 and len(kinds) == 3:
            break
        game = game_row(app, made["game"])
        assert game.status == "running" and me["seat"] in game.owed, f"turn {turn}: the seat owes a placement"
        state = game.state
        assert state["turn"] == turn
        kinds.add("first" if not state["areas"][me["seat"]]["cells"] else
                  "task" if state["current"]["marker"] else "landscape")
        legal = _legal(app, made["game"], me["seat"])
        doc = _page(client, me["link"])
        chosen, positions, rots = _offered(doc)
        assert sorted(positions) == sorted(legal), "every legal position is listed, and only those"
        assert chosen == positions[0] and rots == legal[chosen]
        # Choosing another position (a tap on its number: a link ?at=q,r) offers exactly its rotations.
        target = positions[turn % len(positions)]
        assert doc.xpath(f'//*[contains(@class, "duel-cand")]//a[@href="?at={target}#duel-place"]')
        doc = _page(client, me["link"], f"?at={target}")
        chosen, _, rots = _offered(doc)
        assert chosen == target and rots == legal[target]
        fields = _fields(doc)
        assert fields["form_index"] == "0" and fields["step_no"] == str(game.step_no) and fields["csrf_token"]
        rot = rots[-1]
        resp = client.post(path_of(me["link"]), data={**fields, "rotation": str(rot)})
        assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
        placed = game_row(app, made["game"]).state["areas"][me["seat"]]["cells"][target]
        assert placed["rot"] == rot and placed["turn"] == turn
    assert kinds == {"first", "task", "landscape"}, "the first tile, task tiles and landscape tiles were placed"


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_an_illegal_combination_posted_by_hand_is_refused_in_the_players_language(app, client, runner, lang):
    made, me = _make(runner)
    # Play legal placements until a turn where some listed position refuses some rotation.
    bad = None
    for _ in range(30):
        legal = _legal(app, made["game"], me["seat"])
        bad = next(((p, k) for p, ks in legal.items() for k in range(6) if k not in ks), None)
        if bad:
            break
        doc = _page(client, me["link"])
        resp = client.post(path_of(me["link"]), data={**_fields(doc), "rotation": str(_offered(doc)[2][0])})
        assert resp.status_code == 303
    assert bad, "no turn with a rotation that does not fit"
    game = game_row(app, made["game"])
    tile = game.state["current"]["tile"]
    position, rotation = bad
    before = _orders(app, made["game"])
    doc = _page(client, me["link"], f"?lang={lang}")
    fields = {**_fields(doc), "position": position, "rotation": str(rotation)}
    resp = client.post(path_of(me["link"]) + f"?lang={lang}", data=fields)
    assert resp.status_code == 422
    page = lxml_html.fromstring(resp.get_data(as_text=True))
    error = " ".join(page.xpath('//*[@role="alert"]')[0].text_content().split())
    assert error, "a reason is given"
    if lang != "en":
        english = RULES.text.english
        assert "rail must meet" not in error and "river must meet" not in error and "not one of" not in error, error
        assert english({"msg": "form.place"}) not in error
    assert _orders(app, made["game"]) == before, "nothing stored"
    assert game_row(app, made["game"]).state == game.state, "nothing changed"
    assert tile == game_row(app, made["game"]).state["current"]["tile"]
    assert _fields(page)["position"] == position, "the position posted is kept"


def test_a_form_post_with_no_form_index_is_refused_and_the_page_form_carries_it(app, client, runner):
    made, me = _make(runner)
    doc = _page(client, me["link"])
    fields = _fields(doc)
    assert fields["form_index"] == "0"
    resp = client.post(path_of(me["link"]), data={**fields, "form_index": "", "rotation": "0"})
    assert resp.status_code == 422
    resp = client.post(path_of(me["link"]), data={**fields, "rotation": "0"})
    assert resp.status_code == 303
    assert game_row(app, made["game"]).state["areas"][me["seat"]]["cells"]["0,0"]["rot"] == 0


@pytest.mark.parametrize("lang, words", [("en", "Placing a tile"), ("pt", "Colocar uma peça"),
                                         ("el", "Τοποθέτηση πλακιδίου")])
def test_the_rules_summary_reads_in_the_players_language(app, lang, words):
    from flask import render_template_string
    from flask_babel import force_locale

    with app.test_request_context("/"), force_locale(lang):
        page = render_template_string('{% include "games/duel/rules.html" %}', slug="duel")
    text = " ".join(lxml_html.fromstring(page).text_content().split())
    assert words in text and "{" not in text
    if lang != "en":
        english = RULES.text.english({"msg": "rules.place_lines"})
        assert english not in text and "Rails must meet" not in text


def test_two_players_orders_stay_sealed_and_the_form_shows_the_order_on_file(app, client, runner):
    out = runner.invoke(args=["game", "create", "duel", "--player", "red@example.org", "--player", "blue@example.org"])
    assert out.exit_code == 0, out.output
    made = json.loads(out.output)
    red, blue = made["seats"]
    for turn in (1, 2):
        legal = _legal(app, made["game"], red["seat"])
        target = sorted(legal)[-1]
        rot = legal[target][-1]
        doc = _page(client, red["link"], f"?at={target}")
        resp = client.post(path_of(red["link"]), data={**_fields(doc), "rotation": str(rot)})
        assert resp.status_code == 303
        assert game_row(app, made["game"]).state["turn"] == turn, "sealed until both are in"
        doc = _page(client, red["link"])
        chosen, _, rots = _offered(doc)
        assert chosen == target, "the form opens on the order on file"
        checked = _form(doc).xpath('.//input[@name="rotation"][@checked]/@value')
        assert checked == [str(rot)]
        doc = _page(client, blue["link"])
        resp = client.post(path_of(blue["link"]), data={**_fields(doc), "rotation": str(_offered(doc)[2][0])})
        assert resp.status_code == 303
        state = game_row(app, made["game"]).state
        assert state["turn"] == turn + 1 and state["areas"][red["seat"]]["cells"][target]["rot"] == rot
