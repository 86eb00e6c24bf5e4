"""The Recruit and Leader forms offer a bonus action only among those legal after the action chosen
(the units ticked, the leader's choices): with JavaScript the bonus fields narrow (see
test_staged_bonus_browser), without it the bonus action comes on a second step."""

from __future__ import annotations

import re
from html import unescape
from random import Random
from urllib.parse import parse_qsl, urlencode

import pytest

from app.games import IllegalOrder
from app.games.dual_powers import RULES
from tests.platform.helpers import create_game, path_of, step_of

from .formfill import each_turn, kind_of, legal_values
from .test_forms import _post, refused_on_the_page

STAGED = ("recruit", "leader")


def action_of(form: dict, key: str) -> dict:
    """The order fields of the action that ``key`` (of the form's ``after``) stands for."""
    types = {f["name"]: f["type"] for f in form["fields"]}
    out: dict = {}
    for name, part in zip(form["action_fields"], key.split("|"), strict=True):
        if types[name] == "multi":
            out[name] = part.split(",") if part else []
        elif types[name] == "bool":
            out[name] = part == "1"
        elif part:
            out[name] = part
    return out


def posted(action: dict) -> dict:
    """An action's fields as a page posts them (ticked boxes "on", unticked ones left out)."""
    return {k: ("on" if v is True else v) for k, v in action.items() if v is not False}


def bonus_of(bonus: dict) -> dict:
    return {k: v for k, v in bonus.items() if v is not None}


def _games(seed: int, steps: int = 200):
    """(state, seat, prompt) of each decision of a two-player game played at random."""
    rng = Random(seed)
    state = RULES.setup({}, ["SOV", "GOV"], rng)
    for _ in range(steps):
        owed = RULES.owed(state)
        if not owed:
            return
        for seat, prompt in owed.items():
            yield state, seat, prompt
        orders = {s: RULES.random_order(state, s, rng) for s in owed}
        state, _events = RULES.resolve(state, orders, rng)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_bonus_offered_after_a_recruit_or_leader_action_is_legal(seed):
    """Over the positions of whole games: each bonus action offered after each action of the Recruit and
    Leader forms makes an order the rules accept; some bonus actions offered after one action would be
    refused after another (they are the clashes the form no longer offers)."""
    offered = clashes = 0
    kinds: set[str] = set()
    rng = Random(seed)
    for state, seat, prompt in _games(seed):
        for form in prompt["forms"]:
            if kind_of(form) not in STAGED or not form.get("after"):
                continue
            kinds.add(kind_of(form))
            keys = sorted(form["after"])
            for key in rng.sample(keys, min(5, len(keys))):
                at = form["after"][key]
                action = {**form["base"], **action_of(form, key)}
                RULES.validate(state, seat, action)
                for k in at:
                    RULES.validate(state, seat, {**action, **bonus_of(form["bonuses"][k])})
                    offered += 1
                for k in set(range(len(form["bonuses"]))) - set(at):
                    if form["bonuses"][k]["bonus"] == "RECRUIT" and form["bonuses"][k]["bonus_token"] in \
                            action.get("units", []):
                        with pytest.raises(IllegalOrder):
                            RULES.validate(state, seat, {**action, **bonus_of(form["bonuses"][k])})
                        clashes += 1
    assert offered > 100 and kinds == {"recruit", "leader"}, (offered, kinds)
    assert clashes > 0


def _form_html(html: str, index: int) -> str:
    return html.split(f'name="form_index" value="{index}"', 1)[1].split("</form>", 1)[0]


def _combo_values(html: str, index: int) -> list[str]:
    select = _form_html(html, index).split('name="combo"', 1)[1].split("</select>", 1)[0]
    return [unescape(v) for v in re.findall(r'<option value="([^"]*)"', select) if v]


@pytest.mark.parametrize("seed", ["staged-a", "staged-b"])
def test_without_javascript_the_bonus_after_a_recruit_or_leader_comes_on_a_second_step(app, client, runner,
                                                                                       monkeypatch, seed):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: seed)
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(seed)
    checked = steps = 0
    for game, seat, forms in each_turn(app, made["game"], 60):
        link = path_of(links[seat])
        html = client.get(link).get_data(as_text=True)
        staged = [i for i, f in enumerate(forms) if kind_of(f) in STAGED and f.get("after")]
        chosen = None
        for i in staged:
            form = forms[i]
            body = _form_html(html, i)
            # the bonus fields drawn for the script are not posted without it; the step to the bonus action
            # is a GET that does not carry the form token (it goes with the send button only)
            assert re.search(r'<select id="dp\d+-bonus" name="bonus"[^>]*disabled', body)
            assert not re.search(r'<input[^>]*name="csrf_token"', body)
            assert re.search(r'<button type="submit" name="csrf_token" value="[^"]+"', body)
            keys = sorted(form["after"])
            for key in rng.sample(keys, min(6, len(keys))):
                action = action_of(form, key)
                args = {"form_index": i, "step_no": step_of(html), **posted(action), "dp_bonus": i}
                page = client.get(link + "?" + urlencode(args, doseq=True)).get_data(as_text=True)
                assert 'name="dp_step" value="bonus"' in _form_html(page, i)
                values = _combo_values(page, i)
                assert [dict(parse_qsl(v)) for v in values] == \
                       [bonus_of(form["bonuses"][k]) for k in form["after"][key]]
                for value in values:
                    RULES.validate(game.state, seat, {**form["base"], **action, **dict(parse_qsl(value))})
                    checked += 1
                if values:
                    chosen = (i, action, rng.choice(values))
        if chosen:
            i, action, value = chosen
            resp = _post(client, links[seat], {"dp_step": "bonus", **posted(action), "combo": value}, i)
            steps += 1
        else:
            index = rng.choice(range(len(forms)))
            resp = _post(client, links[seat], legal_values(forms[index], rng), index)
        assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    assert checked > 20 and steps > 0, (checked, steps)


def _recruit_with_bonus(app, client, runner):
    """A two-player game played through the page until a seat's Recruit form offers a Bonus Recruit."""
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(21)
    for game, seat, forms in each_turn(app, made["game"], 80):
        for i, form in enumerate(forms):
            if kind_of(form) == "recruit" and any(b["bonus"] == "RECRUIT" for b in form.get("bonuses", [])):
                return made, links[seat], game, seat, i
        index = rng.choice(range(len(forms)))
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    raise AssertionError("no Recruit form with a Bonus Recruit")


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_a_bonus_recruit_of_the_unit_just_recruited_posted_by_hand_is_refused(app, client, runner, fixed_seed,
                                                                               lang):
    made, link, game, seat, index = _recruit_with_bonus(app, client, runner)
    form = game.owed[seat]["forms"][index]
    at = next(k for k, b in enumerate(form["bonuses"]) if b["bonus"] == "RECRUIT")
    bonus = form["bonuses"][at]
    card = action_of(form, next(key for key, legal in form["after"].items() if at in legal))["card"]
    action = {"card": card, "units": [bonus["bonus_token"]]}
    order = {**form["base"], **action, **bonus_of(bonus)}
    with pytest.raises(IllegalOrder) as refused:
        RULES.validate(game.state, seat, order)
    html = refused_on_the_page(app, client, made["game"], link, {**action, **bonus_of(bonus)}, index, refused.value,
                               lang)
    # the input is kept: the unit ticked, the card and the bonus action chosen
    body = _form_html(html, index)
    assert re.search(rf'value="{bonus["bonus_token"]}"[^>]*checked', body)
    assert re.search(rf'<option value="{card}"[^>]*selected', body)
    assert re.search(r'<option value="RECRUIT"[^>]*selected', body)


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-forms-seed")


def test_a_second_step_address_made_by_hand_draws_the_page_and_offers_no_bonus(app, client, runner, fixed_seed):
    made, link, game, seat, index = _recruit_with_bonus(app, client, runner)
    for junk in ({"card": "ZZZ", "units": ["R99", "<b>"]}, {"units": "R01"}, {"card": "", "special": "on"}):
        page = client.get(path_of(link) + "?" + urlencode({**junk, "dp_bonus": index}, doseq=True))
        assert page.status_code == 200
        assert _combo_values(page.get_data(as_text=True), index) == []  # no action: no bonus action to offer
        assert "<b>" not in page.get_data(as_text=True).split('name="form_index"', 1)[1]
