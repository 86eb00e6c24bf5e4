"""The conquest order forms on a seat page, posted as a player's browser posts them.

One human commander against two AI commanders: at every decision the human meets, each
form on the page is read as drawn and its post is checked against the rules; then the form
a player would pick is really posted, so that over the game every kind of form is accepted
(placement, trade, attack, advance, regroup, end of offensive, end of turn).  An illegal
combination posted by hand is refused in the player's language, the input kept, nothing stored.
"""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from app.games.conquest import RULES
from app.games.conquest import data as D
from app.turns.forms import order_from_form
from tests.games.conquest.formpage import default_post, game, made, order_count, order_forms, place_all
from tests.platform.helpers import path_of

#: The form kinds a human meets, in the order a player who wants to see them all picks them.
PICK = ["TRADE", "PLACE", "ADVANCE", "ATTACK", "MOVE", "END_OFFENSIVE", "END_TURN"]


@pytest.fixture
def conquest(app, runner, monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "conquest-forms-2")
    out = runner.invoke(args=["game", "create", "conquest", "--player", "ana@example.org",
                              "--option", "players=3", "--option", "ai_seats=2", "--option", "mode=domination"])
    assert out.exit_code == 0, out.output
    made_game = made(out.output)
    seat = next(s for s in made_game["seats"] if s.get("email"))
    return {"game": made_game["game"], "seat": seat["seat"], "link": path_of(seat["link"])}


def _kind(row, seat, form) -> str:
    return row.owed[seat]["forms"][int(form["hidden"]["form_index"])]["base"]["type"]


def _checked_post(row, seat, form, numbers=None):
    """The post of ``form`` as drawn (number boxes as given): it reads as an order the rules accept."""
    post = default_post(form, numbers)
    order = order_from_form(row.owed[seat], post["form_index"], MultiDict(post))
    RULES.validate(row.state, seat, order)
    return post


def _pick(choices, posted, this_turn):
    """A player's pick: trade, place and advance when offered; two attacks and a regroup a turn."""
    for kind in ("TRADE", "PLACE", "ADVANCE"):
        if kind in choices:
            return kind
    if "ATTACK" in choices and this_turn.get("ATTACK", 0) < 2:
        return "ATTACK"
    if "MOVE" in choices and not this_turn.get("MOVE"):
        return "MOVE"
    if "END_OFFENSIVE" in choices and not posted.get("END_OFFENSIVE"):
        return "END_OFFENSIVE"
    return "END_TURN"


def test_every_form_of_every_decision_posts_a_legal_order(app, client, conquest):
    g, seat, link = conquest["game"], conquest["seat"], conquest["link"]
    posted: dict[str, int] = {}
    checked: dict[str, int] = {}
    turn, this_turn = 0, {}
    for _ in range(400):
        row = game(app, g)
        if row.status != "running" or seat not in row.owed:
            break
        html = client.get(link).get_data(as_text=True)
        forms = order_forms(html)
        prompt = row.owed[seat]
        assert len(forms) == len(prompt["forms"]), "one page form per form of the prompt"
        view = RULES.view(row.state, seat)
        choices = {}
        for form in forms:
            kind = _kind(row, seat, form)
            numbers = {form["numbers"][0]["name"]: "1"} if kind == "PLACE" else None
            choices[kind] = (form, _checked_post(row, seat, form, numbers))
            checked[kind] = checked.get(kind, 0) + 1
        kind = _pick(choices, posted, this_turn if row.state["serial"] == turn else {})
        turn, this_turn = row.state["serial"], this_turn if row.state["serial"] == turn else {}
        form, post = choices[kind]
        if kind == "PLACE":
            post = _checked_post(row, seat, form, place_all(form, view["pools"], D.THEATRE))
        if kind == "ATTACK":
            post["repeat"] = "CONQUER"
        this_turn[kind] = this_turn.get(kind, 0) + 1
        resp = client.post(link, data=post)
        assert resp.status_code == 303, re.sub(r"\s+", " ", resp.get_data(as_text=True))[:3000]
        assert "done=" in resp.headers["Location"]
        posted[kind] = posted.get(kind, 0) + 1
        if len(posted) == len(PICK):
            break
    assert set(posted) == set(PICK), (posted, checked)


def _to_placement(app, client, conquest):
    row = game(app, conquest["game"])
    assert row.owed[conquest["seat"]]["kind"] == "mobilisation"
    html = client.get(conquest["link"]).get_data(as_text=True)
    return row, html, next(f for f in order_forms(html) if _kind(row, conquest["seat"], f) == "PLACE")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "general armies"), ("pt", "exércitos gerais"), ("el", "γενικούς στρατούς")])
def test_placing_more_than_the_pools_by_hand_is_refused_in_the_players_language(app, client, conquest, lang, words):
    link = conquest["link"]
    client.get(link + f"?lang={lang}")
    row, html, form = _to_placement(app, client, conquest)
    stored = order_count(app, conquest["game"])
    boxes = form["numbers"][:2]
    over = {b["name"]: b["max"] for b in boxes}  # each within its box, together more than the pool
    post = default_post(form, over)
    resp = client.post(link, data=post)
    page = resp.get_data(as_text=True)
    assert resp.status_code == 422
    error = re.search(r'<div class="error" role="alert">(.*?)</div>', page, re.S).group(1)
    assert words in error.lower(), error
    for name, value in over.items():
        assert re.search(rf'name="{name}" min="0" max="\d+" value="{value}"', page), "the input is kept"
    after = game(app, conquest["game"])
    assert order_count(app, conquest["game"]) == stored and after.step_no == row.step_no
    assert after.state == row.state


def test_the_forms_name_territories_and_cards_never_by_code(app, client, conquest):
    row, html, form = _to_placement(app, client, conquest)
    section = html[html.index('id="orders"'):html.index("</section>", html.index('id="orders"'))]
    visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", section, flags=re.S))
    visible = visible.split("Or type your order")[0]
    assert "Moscow" in visible or "Germany" in visible or "Japan" in visible or "Brazil" in visible
    codes = [t for t in D.TERRITORIES if re.search(rf"\b{t}\b", visible)]
    assert codes == [], codes
    assert re.search(r"\b0 of \d+ placed\b", visible)
