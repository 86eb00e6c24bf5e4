"""Dual Powers through the player's page (Flask client): every form of real prompts posts a legal order;
an illegal combination posted by hand is refused in the player's language, with the input kept."""

from __future__ import annotations

import re
from html import unescape
from random import Random
from urllib.parse import parse_qsl, urlencode

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.games import IllegalOrder
from app.games.dual_powers import RULES
from app.i18n.gametext import render
from app.models import Order
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, step_of

from .formfill import each_turn, kind_of, legal_values


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-forms-seed")


def _post(client, link, fields, form_index, lang=None):
    page = client.get(path_of(link)).get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": str(form_index), **fields}
    url = path_of(link) + (f"?lang={lang}" if lang else "")
    return client.post(url, data=data)


def _orders(app, game_id):
    with Session(get_engine(app)) as s:
        return len(s.exec(select(Order).where(Order.game_id == game_id)).all())


def refused_on_the_page(app, client, game_id, link, fields, index, refused, lang) -> str:
    """Post ``fields`` by hand: the page refuses them with the rules' reason (``refused``) in the player's
    language (422) and nothing changes; the page's HTML."""
    before = (_orders(app, game_id), game_row(app, game_id).step_no)
    resp = _post(client, link, fields, index, lang)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    shown = unescape(re.search(r'class="error"[^>]*>(.*?)</div>', html, re.S).group(1)).strip()
    assert shown == render("dual_powers", refused.message, lang)
    if lang != "en":
        assert shown != render("dual_powers", refused.message, "en")
    assert (_orders(app, game_id), game_row(app, game_id).step_no) == before
    return html


@pytest.mark.parametrize(("players", "options"), [
    (("sov@example.org", "gov@example.org"), ()),
    (("solo@example.org",), ("--option", "solo=true", "--option", "difficulty=3", "--option", "faction=GOV")),
], ids=["two-players", "solo"])
def test_each_form_of_real_prompts_posts_a_legal_order(app, client, runner, fixed_seed, players, options):
    made = create_game(runner, "dual_powers", players, *options)
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(7)
    posted: dict[str, int] = {}
    for _game, seat, forms in each_turn(app, made["game"], 120):
        # each kind of form in turn: the least posted first
        index = min(range(len(forms)), key=lambda i: (posted.get(kind_of(forms[i]), 0), rng.random()))
        values = legal_values(forms[index], rng)
        page = client.get(path_of(links[seat])).get_data(as_text=True)
        assert f'name="form_index" value="{index}"' in page
        resp = _post(client, links[seat], values, index)
        assert resp.status_code == 303, (kind_of(forms[index]), values, resp.get_data(as_text=True)[:3000])
        assert "done=" in resp.headers["Location"]
        posted[kind_of(forms[index])] = posted.get(kind_of(forms[index]), 0) + 1
    wanted = {"recruit", "move", "pass", "leader"} | ({"objective"} if len(players) == 2 else set())
    assert wanted <= set(posted), posted
    game = game_row(app, made["game"])
    assert game.status == "finished" or game.step_no > 10, (game.status, game.step_no)


def _first_turn(app, client, runner):
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    game = game_row(app, made["game"])
    for seat in sorted(game.owed):
        assert _post(client, links[seat], {"card": game.owed[seat]["forms"][0]["fields"][0]["choices"][0]["value"]},
                     0).status_code == 303
    game = game_row(app, made["game"])
    seat = next(iter(game.owed))
    return made, links[seat], game, seat


REASONS = {"en": "Total recruit value 3 exceeds the card",
           "pt": "O valor de recrutamento total 3 excede o da carta",
           "el": "Η συνολική αξία στρατολόγησης 3 ξεπερνά την αξία της κάρτας"}


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_an_illegal_combination_posted_by_hand_is_refused_in_the_players_language(app, client, runner, fixed_seed,
                                                                                  lang):
    made, link, game, seat = _first_turn(app, client, runner)
    forms = game.owed[seat]["forms"]
    index = next(i for i, f in enumerate(forms) if kind_of(f) == "recruit")
    cards = [c["value"] for c in forms[index]["fields"][0]["choices"] if c["recruit"] < 3]
    big = "R09" if seat == "SOV" else "W09"
    before = (_orders(app, made["game"]), game_row(app, made["game"]).step_no)
    resp = _post(client, link, {"card": cards[0], "units": [big]}, index, lang)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert REASONS[lang] in html, re.findall(r'class="error"[^>]*>([^<]*)', html)
    # the input is kept: the card and the unit are still chosen
    assert re.search(rf'value="{big}"[^>]*checked', html)
    assert re.search(rf'<option value="{cards[0]}"[^>]*selected', html)
    assert (_orders(app, made["game"]), game_row(app, made["game"]).step_no) == before


def test_a_connection_for_a_leader_without_mobilize_is_refused_and_changes_nothing(app, client, runner, fixed_seed):
    made, link, game, seat = _first_turn(app, client, runner)
    forms = game.owed[seat]["forms"]
    # at the first turn no token of a seat's own is on the board: there is no Move form at all
    assert "move" not in [kind_of(f) for f in forms]
    index = next(i for i, f in enumerate(forms) if kind_of(f) == "leader")
    conn = next(f for f in forms[index]["fields"] if f["name"] == "connection")
    inspire = "L-LEN" if seat == "SOV" else "L-KER"
    assert all(inspire not in c["when"] for c in conn["choices"])  # the form does not offer it
    before = (_orders(app, made["game"]), game_row(app, made["game"]).step_no)
    resp = _post(client, link, {"card": inspire, "special": "on", "connection": conn["choices"][0]["value"]}, index)
    assert resp.status_code == 422
    # refused by the rules, or already by the form's tied choices (the connection names Mobilize Protest cards)
    assert re.search(r"Only Mobilize Protest takes a connection|is not possible with", resp.get_data(as_text=True))
    assert (_orders(app, made["game"]), game_row(app, made["game"]).step_no) == before


def _to_a_move(app, client, runner, bonus=False):
    """A two-player game played through the page (recruiting first) until a seat may move a token
    (with ``bonus``: and may take a bonus action after it)."""
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(11)
    sent: set[tuple[int, str]] = set()
    for _ in range(60):
        game = game_row(app, made["game"])
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        forms = game.owed[seat]["forms"]
        moving = [i for i, f in enumerate(forms) if kind_of(f) in ("move", "double")
                  and (not bonus or f.get("after"))]
        if moving:
            return made, links[seat], game, seat, moving[0]
        sent.add((game.step_no, seat))
        index = next((i for i, f in enumerate(forms) if kind_of(f) == "recruit"), 0)
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    raise AssertionError("no seat could move a token")


def _combo_options(html: str, index: int) -> list[str]:
    form = html.split(f'name="form_index" value="{index}"', 1)[1].split("</form>", 1)[0]
    select = form.split('name="combo"', 1)[1].split("</select>", 1)[0]
    return [unescape(v) for v in re.findall(r'<option value="([^"]*)"', select)]


def test_without_javascript_a_form_offers_one_select_of_its_legal_combinations(app, client, runner, fixed_seed):
    made, link, game, seat, index = _to_a_move(app, client, runner)
    form = game.owed[seat]["forms"][index]
    html = client.get(path_of(link)).get_data(as_text=True)
    options = [dict(parse_qsl(v)) for v in _combo_options(html, index)]
    assert len(options) == len(form["combos"])
    for option, combo in zip(options, form["combos"], strict=True):
        assert {k: option.get(k) for k in combo} == combo
        order = {**form["base"], **option}
        RULES.validate(game.state, seat, order)  # every offered combination is legal
    # the per-field selects that a script shows are disabled (not posted) without JavaScript
    body = html.split(f'name="form_index" value="{index}"', 1)[1].split("</form>", 1)[0]
    assert re.search(r'<select id="dp\d+-token" name="token"[^>]*disabled', body)


def test_a_posted_combination_is_accepted(app, client, runner, fixed_seed):
    made, link, game, seat, index = _to_a_move(app, client, runner)
    html = client.get(path_of(link)).get_data(as_text=True)
    value = _combo_options(html, index)[-1]
    resp = _post(client, link, {"combo": value}, index)
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]


def _select_options(html: str, index: int) -> list[str]:
    """The option values of the one ``combo`` select of form ``index`` (empty values left out)."""
    return [v for v in _combo_options(html, index) if v]


def _bonus_step(client, link, index, action):
    """The page without JavaScript after "Next: the bonus action" with ``action`` chosen."""
    return client.get(path_of(link) + "?" + urlencode({"dp_bonus": index, "combo": action})).get_data(as_text=True)


@pytest.mark.parametrize("seed", ["bonus-a", "bonus-b"])
def test_every_offered_action_and_bonus_action_is_legal(app, client, runner, monkeypatch, seed):
    """Over the positions of games played through the page without JavaScript: each action a form's select
    offers, and each bonus action the next step offers after it, make an order the rules accept."""
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: seed)
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(seed)
    checked = bonus_checked = bonus_posted = 0
    for game, seat, forms in each_turn(app, made["game"], 40):
        html = client.get(path_of(links[seat])).get_data(as_text=True)
        staged: list[tuple[int, str, str]] = []
        for i, form in enumerate(forms):
            if not form.get("combos"):
                continue
            for value in _select_options(html, i):
                action = {**form["base"], **dict(parse_qsl(value))}
                RULES.validate(game.state, seat, action)
                checked += 1
                if form.get("after") and rng.random() < 0.25:  # the next step, for some of them
                    for bonus in _select_options(_bonus_step(client, links[seat], i, value), i):
                        RULES.validate(game.state, seat, {**action, **dict(parse_qsl(bonus))})
                        bonus_checked += 1
                        staged.append((i, value, bonus))
        if staged:
            index, value, bonus = rng.choice(staged)
            resp = _post(client, links[seat], {"dp_step": "bonus", **dict(parse_qsl(value)), "combo": bonus}, index)
            bonus_posted += 1
        else:
            index = rng.choice(range(len(forms)))
            resp = _post(client, links[seat], legal_values(forms[index], rng), index)
        assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    assert checked > 100 and bonus_checked > 20 and bonus_posted > 0, (checked, bonus_checked, bonus_posted)


def _clash(form: dict) -> tuple[dict[str, str], dict[str, str]]:
    """An action of the form and a bonus action offered by its fields, but not after that action."""
    fields = {f["name"]: f for f in form["fields"]}
    names = list(form["combos"][0])
    for combo in form["combos"]:
        key = "|".join(str(combo[n] or "") for n in names)
        if key not in form["after"]:
            continue
        for k, bonus in enumerate(form["bonuses"]):
            if k in form["after"][key] or bonus["bonus"] != "MOVE":
                continue
            kind = next(c for c in fields["bonus"]["choices"] if c["value"] == "MOVE")
            token = next(c for c in fields["bonus_token"]["choices"] if c["value"] == bonus["bonus_token"])
            to = next(c for c in fields["bonus_to"]["choices"] if c["value"] == bonus["bonus_to"])
            if combo["card"] in kind["when"] and "MOVE" in token["when"] and token["value"] in to["when"]:
                return ({n: v for n, v in combo.items() if v is not None},
                        {n: v for n, v in bonus.items() if v is not None})
    raise AssertionError("no clashing bonus action")


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_a_bonus_action_clashing_with_the_action_posted_by_hand_is_refused(app, client, runner, fixed_seed, lang):
    made, link, game, seat, index = _to_a_move(app, client, runner, bonus=True)
    form = game.owed[seat]["forms"][index]
    action, bonus = _clash(form)
    with pytest.raises(IllegalOrder) as refused:
        RULES.validate(game.state, seat, {**form["base"], **action, **bonus})
    html = refused_on_the_page(app, client, made["game"], link, {**action, **bonus}, index, refused.value, lang)
    # the input is kept: the bonus action is still chosen
    assert re.search(rf'<option value="{bonus["bonus_token"]}"[^>]*selected', html)
