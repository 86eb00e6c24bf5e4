"""Tied choices in a prompt form: a card, then only its legal actions, then only their targets.

Played with a small game of this file ("cards"): both seats play a card with an action on
a target (``depends_on``/``when``: card -> action -> target), or trade one good for
another (``combos``: only three trades exist) with a count (the rules refuse more than
two gold).  Without JavaScript the tied fields are one select ``combo`` of the legal
combinations; with it, one select per field narrowing as the player picks.
"""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest
from sqlmodel import Session, select
from werkzeug.datastructures import MultiDict

from app.db import get_engine
from app.games import GAMES, IllegalOrder, register
from app.games.base import BaseRules
from app.games.prompting import legal_combos, order_from_prompt
from app.games.text import name
from app.i18n.gametext import render
from app.models import Order
from app.turns.forms import order_from_form
from tests.browser import open_page, overflow, shot
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, step_of

CARDS = [("C1", "Agitators"), ("C2", "Troops"), ("C3", "Spies")]
ACTIONS = [("MOVE", "Move", ["C1", "C2"]), ("RECRUIT", "Recruit", ["C2"]), ("SPY", "Spy", ["C3"])]
TARGETS = [("N", "North", ["MOVE", "RECRUIT"]), ("S", "South", ["MOVE"]), ("CAP", "Capital", ["SPY"])]
LEGAL_PLAYS = {("C1", "MOVE", "N"), ("C1", "MOVE", "S"), ("C2", "MOVE", "N"), ("C2", "MOVE", "S"),
               ("C2", "RECRUIT", "N"), ("C3", "SPY", "CAP")}
GOODS = [("wood", "Wood"), ("stone", "Stone"), ("gold", "Gold")]
TRADES = [{"give": "wood", "get": "stone"}, {"give": "stone", "get": "gold"}, {"give": "gold", "get": "wood"}]

PROMPT = {
    "kind": "turn", "title": "Play a card or trade", "example": "PLAY C1 MOVE N",
    "forms": [
        {"label": "Play", "base": {"type": "PLAY"}, "fields": [
            {"name": "card", "label": "Card", "type": "choice",
             "choices": [{"value": v, "label": lab} for v, lab in CARDS]},
            {"name": "action", "label": "Action", "type": "choice", "depends_on": "card",
             "choices": [{"value": v, "label": lab, "when": w} for v, lab, w in ACTIONS]},
            {"name": "target", "label": "Target", "type": "choice", "depends_on": "action",
             "choices": [{"value": v, "label": lab, "when": w} for v, lab, w in TARGETS]},
        ]},
        {"label": "Trade", "base": {"type": "TRADE"}, "combos": TRADES, "fields": [
            {"name": "give", "label": "Give", "type": "choice",
             "choices": [{"value": v, "label": lab} for v, lab in GOODS]},
            {"name": "get", "label": "Get", "type": "choice",
             "choices": [{"value": v, "label": lab} for v, lab in GOODS]},
            {"name": "count", "label": "How many", "type": "int", "min": 1, "max": 3},
        ]},
    ],
}


class CardRules(BaseRules):
    slug = "cards"
    title = "Cards and trades"

    def default_options(self):
        return {}

    def seats(self, options):
        return ["A", "B"]

    def setup(self, options, seats, rng):
        return {"round": 1, "played": {}}

    def owed(self, state):
        return {} if state["round"] > 1 else {s: copy.deepcopy(PROMPT) for s in ("A", "B")}

    def validate(self, state, seat, order):
        if order.get("type") == "PLAY":
            pass  # any play passes here: the form's tied choices alone refuse what they do not offer
        elif order.get("type") == "TRADE":
            if order.get("give") == "gold" and order.get("count", 0) > 2:
                raise IllegalOrder("Nobody holds more than two gold.")
        else:
            raise IllegalOrder("Play or trade.")

    def resolve(self, state, orders, rng):
        return {"round": 2, "played": dict(orders)}, [{"text": "The round is played.", "to": None}]

    def default_order(self, state, seat, rng):
        return {"type": "PLAY", "card": "C1", "action": "MOVE", "target": "N"}

    def random_order(self, state, seat, rng):
        return order_from_prompt(PROMPT, rng)

    def turn_key(self, state):
        return f"R{state['round']}"

    def view(self, state, seat):
        return {"round": state["round"]}

    def outcome(self, state):
        return None if state["round"] <= 1 else [{"seat": "A", "score": 0, "rank": 1},
                                                 {"seat": "B", "score": 0, "rank": 1}]

    def parse(self, text):
        parts = text.split()
        if parts[:1] == ["PLAY"] and len(parts) == 4:
            return {"type": "PLAY", "card": parts[1], "action": parts[2], "target": parts[3]}
        raise IllegalOrder("Write PLAY card action target.")

    def format(self, order):
        if order["type"] == "PLAY":
            return f"PLAY {order['card']} {order['action']} {order['target']}"
        return f"TRADE {order['count']} {order['give']} {order['get']}"

    def secrets(self, state, seat):
        return []


RULES = CardRules()


@pytest.fixture
def cards():
    register(RULES)
    yield RULES
    GAMES.pop(RULES.slug, None)


def _orders(app, game_id):
    with Session(get_engine(app)) as s:
        return [(o.seat, o.order) for o in s.exec(select(Order).where(Order.game_id == game_id).order_by(Order.id))]


def _combo_options(html):
    block = re.search(r'<select[^>]*name="combo"[^>]*>(.*?)</select>', html, re.S).group(1)
    return [(unescape(v), unescape(label)) for v, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', block)]


def _post(client, link, fields, form_index="0", lang=None):
    page = client.get(path_of(link) + (f"?lang={lang}" if lang else "")).get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": form_index, **fields}
    return client.post(path_of(link), data=data)


# ---------------------------------------------------------------- reading a post (pure)

def test_the_legal_combinations_follow_the_chain_and_the_combos():
    plays = legal_combos(PROMPT["forms"][0])
    assert {(c["card"], c["action"], c["target"]) for c in plays} == LEGAL_PLAYS and len(plays) == 6
    assert legal_combos(PROMPT["forms"][1]) == TRADES


def test_a_post_reads_the_combo_or_the_fields_and_refuses_an_illegal_combination():
    play = {"type": "PLAY", "card": "C2", "action": "RECRUIT", "target": "N"}
    assert order_from_form(PROMPT, "0", MultiDict({"combo": "card=C2&action=RECRUIT&target=N"})) == play
    assert order_from_form(PROMPT, "0", MultiDict({"card": "C2", "action": "RECRUIT", "target": "N"})) == play
    # a field posted by itself wins over the combo (the script posts the fields)
    assert order_from_form(PROMPT, "0", MultiDict({"combo": "card=C1&action=MOVE&target=N", "card": "C2",
                                                   "action": "RECRUIT", "target": "N"})) == play
    with pytest.raises(IllegalOrder) as refused:
        order_from_form(PROMPT, "0", MultiDict({"card": "C3", "action": "MOVE", "target": "N"}))
    assert str(refused.value) == "Action: Move is not possible with Spies."
    with pytest.raises(IllegalOrder) as refused:
        order_from_form(PROMPT, "0", MultiDict({"combo": "card=C1&action=MOVE&target=CAP"}))
    assert str(refused.value) == "Target: Capital is not possible with Move."
    with pytest.raises(IllegalOrder) as refused:
        order_from_form(PROMPT, "1", MultiDict({"give": "wood", "get": "gold", "count": "1"}))
    assert str(refused.value) == "This combination is not possible: Wood and Gold."


def test_the_default_bot_draws_only_legal_combinations():
    import random

    rng = random.Random(7)
    drawn = set()
    for _ in range(300):
        order = order_from_prompt(PROMPT, rng)
        if order["type"] == "PLAY":
            drawn.add((order["card"], order["action"], order["target"]))
        else:
            assert {"give": order["give"], "get": order["get"]} in TRADES and 1 <= order["count"] <= 3
    assert drawn == LEGAL_PLAYS


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Target: Moscow is not possible with Brazil."),
    ("pt", "Target: Moscovo não é possível com Brasil."),
    ("el", "Target: η επιλογή Μόσχα δεν είναι δυνατή μαζί με Βραζιλία."),
])
def test_a_refusal_names_the_choices_by_their_labels_in_the_players_language(app, lang, expected):
    prompt = {"forms": [{"fields": [
        {"name": "src", "label": "Source", "type": "choice",
         "choices": [{"value": "BRA", "label": name("territory", "BRA")}]},
        {"name": "dst", "label": "Target", "type": "choice", "depends_on": "src",
         "choices": [{"value": "MOS", "label": name("territory", "MOS"), "when": ["ICE"]}]},
    ]}]}
    with pytest.raises(IllegalOrder) as refused:
        order_from_form(prompt, "0", MultiDict({"src": "BRA", "dst": "MOS"}))
    assert render("conquest", refused.value.message, lang) == expected


@pytest.mark.parametrize(("fields", "english", "portuguese", "greek"), [
    ({"n": ""}, "Number: please fill this in.", "Number: preencha este campo.", "Number: συμπληρώστε"),
    ({"n": "x"}, "Number: “x” is not a whole number.", "não é um número inteiro", "δεν είναι ακέραιος"),
    ({"n": "9"}, "Number: 9 is not between 1 and 3.", "Number: 9 não está entre 1 e 3.", "δεν είναι μεταξύ 1 και 3"),
    ({"n": "2", "form_index": "5"}, "That form is not part of this decision", "Esse formulário", "Αυτή η φόρμα"),
])
def test_every_form_refusal_reads_in_the_players_language(app, fields, english, portuguese, greek):
    prompt = {"forms": [{"fields": [{"name": "n", "label": "Number", "type": "int", "min": 1, "max": 3}]}]}
    data = MultiDict({k: v for k, v in fields.items() if k != "form_index"})
    with pytest.raises(IllegalOrder) as refused:
        order_from_form(prompt, fields.get("form_index", "0"), data)
    assert english in render("toy", refused.value.message, "en")
    assert portuguese in render("toy", refused.value.message, "pt")
    assert greek in render("toy", refused.value.message, "el")


# ---------------------------------------------------------------- the page without JavaScript

def test_the_page_lists_only_the_legal_combinations_in_one_select(app, client, runner, cards):
    made = create_game(runner, "cards")
    html = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
    plays = _combo_options(html)
    assert ("card=C2&action=RECRUIT&target=N", "Troops · Recruit · North") in plays
    assert len(plays) == 6 and not any("Spies · Move" in label for _v, label in plays)
    assert 'name="card"' not in html and 'name="action"' not in html
    trades = re.findall(r'<option value="(give=[^"]*)"', html)
    assert trades == ["give=wood&amp;get=stone", "give=stone&amp;get=gold", "give=gold&amp;get=wood"]
    assert 'name="count"' in html and "forms.js" in html


@pytest.mark.parametrize("fields", [{"combo": "card=C2&action=RECRUIT&target=N"},
                                    {"card": "C2", "action": "RECRUIT", "target": "N"}])
def test_a_legal_combination_is_stored_from_the_combo_or_the_fields(app, client, runner, cards, fields):
    made = create_game(runner, "cards")
    resp = _post(client, made["seats"][0]["link"], fields)
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    assert _orders(app, made["game"]) == [("A", {"type": "PLAY", "card": "C2", "action": "RECRUIT", "target": "N"})]


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "Action: Move is not possible with Spies."),
    ("pt", "Action: Move não é possível com Spies."),
    ("el", "Action: η επιλογή Move δεν είναι δυνατή μαζί με Spies."),
])
def test_an_illegal_combination_by_hand_is_refused_in_the_players_language(app, client, runner, cards, lang, reason):
    made = create_game(runner, "cards")
    before = game_row(app, made["game"])
    resp = _post(client, made["seats"][0]["link"], {"card": "C3", "action": "MOVE", "target": "N"}, lang=lang)
    assert resp.status_code == 422
    html = unescape(resp.get_data(as_text=True))
    assert reason in html
    assert """data-keep='{"action": "MOVE", "card": "C3", "target": "N"}'""" in html  # the script starts from it
    after = game_row(app, made["game"])
    assert _orders(app, made["game"]) == [] and (after.step_no, after.state) == (before.step_no, before.state)
    resp = _post(client, made["seats"][0]["link"], {"combo": "give=wood&get=gold", "count": "1"}, "1", lang=lang)
    assert resp.status_code == 422 and _orders(app, made["game"]) == []
    assert {"en": "This combination is not possible: Wood and Gold.",
            "pt": "Esta combinação não é possível: Wood e Gold.",
            "el": "Αυτός ο συνδυασμός δεν είναι δυνατός: Wood και Gold."}[lang] in unescape(resp.get_data(as_text=True))


def test_a_refused_combination_is_kept_selected(app, client, runner, cards):
    made = create_game(runner, "cards")
    resp = _post(client, made["seats"][0]["link"], {"combo": "give=gold&get=wood", "count": "3"}, "1")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "Nobody holds more than two gold." in html
    assert '<option value="give=gold&amp;get=wood" selected>' in html
    assert re.search(r'name="count"[^>]*value="3"', html)
    assert _orders(app, made["game"]) == []


# ---------------------------------------------------------------- in a browser, with and without JavaScript

def _options(page, selector):
    return page.eval_on_selector(selector, "s => Array.from(s.options).map(o => o.value)")


@pytest.mark.browser
def test_without_javascript_the_combo_select_orders(live, runner, chromium, cards):
    made = create_game(runner, "cards")
    page = open_page(chromium, made["seats"][0]["link"], "phone", javascript=False)
    assert len(_options(page, "select[name=combo] >> nth=0")) == 6
    assert overflow(page) == 0
    shot(page, "forms-dependent-nojs-phone")
    desk = open_page(chromium, made["seats"][0]["link"], "desk", javascript=False)
    assert overflow(desk) == 0
    shot(desk, "forms-dependent-nojs-desk")
    page.select_option("select[name=combo] >> nth=0", "card=C1&action=MOVE&target=S")
    page.click("button:has-text('Play')")
    page.wait_for_load_state()
    assert "Your order is on file." in page.inner_text("body")
    assert _orders(live, made["game"]) == [("A", {"type": "PLAY", "card": "C1", "action": "MOVE", "target": "S"})]


@pytest.mark.browser
def test_with_javascript_the_choices_narrow_and_a_refusal_keeps_them(live, runner, chromium, cards):
    made = create_game(runner, "cards")
    page = open_page(chromium, made["seats"][0]["link"], "phone")
    assert page.locator("select[name=combo]").count() == 0
    assert _options(page, "select[name=card]") == ["C1", "C2", "C3"]
    page.select_option("select[name=card]", "C3")
    assert _options(page, "select[name=action]") == ["SPY"] and _options(page, "select[name=target]") == ["CAP"]
    page.select_option("select[name=card]", "C2")
    assert _options(page, "select[name=action]") == ["MOVE", "RECRUIT"]
    page.select_option("select[name=action]", "RECRUIT")
    assert _options(page, "select[name=target]") == ["N"]
    assert _options(page, "select[name=give]") == ["wood", "stone", "gold"]
    page.select_option("select[name=give]", "gold")
    assert _options(page, "select[name=get]") == ["wood"]
    page.fill("input[name=count]", "3")
    assert overflow(page) == 0
    shot(page, "forms-dependent-js-phone")
    page.click("button:has-text('Trade')")
    page.wait_for_load_state()
    assert "Nobody holds more than two gold." in page.inner_text("body")
    assert page.input_value("select[name=give]") == "gold" and page.input_value("select[name=get]") == "wood"
    assert page.input_value("input[name=count]") == "3"
    assert _orders(live, made["game"]) == []
    page.fill("input[name=count]", "2")
    page.click("button:has-text('Trade')")
    page.wait_for_load_state()
    assert "Your order is on file." in page.inner_text("body")
    page.select_option("select[name=card]", "C2")
    page.select_option("select[name=action]", "RECRUIT")
    page.click("button:has-text('Play')")
    page.wait_for_load_state()
    assert _orders(live, made["game"]) == [
        ("A", {"type": "TRADE", "give": "gold", "get": "wood", "count": 2}),
        ("A", {"type": "PLAY", "card": "C2", "action": "RECRUIT", "target": "N"})]


def test_a_value_posted_by_hand_is_quoted_back_as_text(app, client, runner, cards):
    made = create_game(runner, "cards")
    resp = _post(client, made["seats"][0]["link"], {"card": "<script>alert(1)</script>", "action": "MOVE",
                                                    "target": "N"})
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "<script>alert(1)" not in html and "is not one of the choices" in html
    assert _orders(app, made["game"]) == []
