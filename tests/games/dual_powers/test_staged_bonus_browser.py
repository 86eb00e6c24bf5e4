"""The Recruit form's bonus action in Chromium, at a phone's and a desk's size: with JavaScript the bonus
fields offer only what is legal after the units ticked; without, the bonus action comes on a second
step whose address does not carry the form token."""

from __future__ import annotations

from random import Random
from urllib.parse import parse_qsl

import pytest

from tests.browser import open_page, overflow, shot
from tests.games.dual_powers.formfill import send_and_see_it_stored

from .test_staged_bonus import _recruit_with_bonus, bonus_of

pytestmark = pytest.mark.browser


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-forms-seed")


def _clash(form: dict) -> tuple[str, str, list[dict]]:
    """A card and a unit such that a Bonus Recruit of that unit is offered after the card, and the bonus
    actions legal after recruiting that unit with that card."""
    for key, legal in form["after"].items():
        card, units = key.split("|")
        for k in legal:
            unit = form["bonuses"][k]["bonus_token"]
            if form["bonuses"][k]["bonus"] == "RECRUIT" and f"{card}|{unit}" in form["after"]:
                return card, unit, [form["bonuses"][j] for j in form["after"][f"{card}|{unit}"]]
    raise AssertionError("no Bonus Recruit to clash with")


def _options(select) -> set[str]:
    return {v for v in select.locator("option:not([disabled])").evaluate_all("os => os.map(o => o.value)") if v}


def _open(page, index):
    box = page.locator("details.dp-form").nth(index)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    return box


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_with_javascript_the_recruit_forms_bonus_fields_follow_the_units_ticked(live, client, runner, chromium,
                                                                               fixed_seed, size):
    made, link, game, seat, index = _recruit_with_bonus(live, client, runner)
    form = game.owed[seat]["forms"][index]
    card, unit, legal = _clash(form)
    page = open_page(chromium, link, size)
    box = _open(page, index)
    assert not box.locator(".dp-nojs-bonus").is_visible()
    tokens = next(f for f in form["fields"] if f["name"] == "bonus_token")
    assert unit in [c["value"] for c in tokens["choices"]]  # a Bonus Recruit of the unit, after another action
    box.locator("select[name=card]").select_option(card)
    assert not box.locator("select[name=bonus]").is_visible()  # no unit ticked yet: no action, no bonus
    box.locator(f"input[name=units][value={unit}]").check()
    assert _options(box.locator("select[name=bonus]")) == {b["bonus"] for b in legal}
    recruits = {b["bonus_token"] for b in legal if b["bonus"] == "RECRUIT"}
    if recruits:
        box.locator("select[name=bonus]").select_option("RECRUIT")
        assert _options(box.locator("select[name=bonus_token]")) == recruits
    assert unit not in _options(box.locator("select[name=bonus_token]"))  # the unit ticked is no longer offered
    assert overflow(page) == 0
    shot(page, f"dual_powers-recruit-bonus-js-{size}")
    send_and_see_it_stored(page, box)


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_without_javascript_the_recruit_forms_bonus_comes_on_a_second_step(live, client, runner, chromium,
                                                                          fixed_seed, size):
    made, link, game, seat, index = _recruit_with_bonus(live, client, runner)
    form = game.owed[seat]["forms"][index]
    card, unit, legal = _clash(form)
    page = open_page(chromium, link, size, javascript=False)
    box = _open(page, index)
    assert not box.locator("select[name=bonus]").is_visible()  # not before the action is chosen
    box.locator("select[name=card]").select_option(card)
    box.locator(f"input[name=units][value={unit}]").check()
    shot(page, f"dual_powers-recruit-bonus-nojs-1-{size}")
    box.locator(".dp-nojs-bonus button").click()
    page.wait_for_load_state()
    assert "dp_bonus=" in page.url and "csrf_token" not in page.url
    assert overflow(page) == 0
    box = page.locator("details.dp-form").nth(index)
    assert box.get_attribute("open") is not None
    offered = [dict(parse_qsl(v)) for v in
               box.locator("select[name=combo] option").evaluate_all("os => os.map(o => o.value)") if v]
    assert offered == [bonus_of(b) for b in legal]
    assert all(b.get("bonus_token") != unit for b in offered if b["bonus"] == "RECRUIT")
    shot(page, f"dual_powers-recruit-bonus-nojs-2-{size}")
    box.locator("select[name=combo]").select_option(index=len(offered))
    send_and_see_it_stored(page, box)


def _leader_pair(form: dict) -> tuple[dict, dict] | None:
    """Two Leader actions differing only by the special ability (off, on) after which different bonus
    actions are legal: their fields and legal bonus actions."""
    keys = form["action_fields"]
    at = keys.index("special")
    for key, legal in form["after"].items():
        parts = key.split("|")
        if parts[at] != "1" or parts[keys.index("special_first")]:
            continue
        plain = [p if i < at else "" for i, p in enumerate(parts)]
        other = form["after"].get("|".join(plain))
        if other is not None and {(b["bonus"], b["bonus_token"]) for b in (form["bonuses"][k] for k in legal)} != \
                {(b["bonus"], b["bonus_token"]) for b in (form["bonuses"][k] for k in other)}:
            on = dict(zip(keys, parts, strict=True))
            return on, {"on": [form["bonuses"][k] for k in legal], "off": [form["bonuses"][k] for k in other]}
    return None


def _leader_with_bonus(app, client, runner):
    from tests.platform.helpers import create_game

    from .formfill import each_turn, kind_of, legal_values
    from .test_forms import _post

    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(8)
    for _game, seat, forms in each_turn(app, made["game"], 120):
        for i, form in enumerate(forms):
            if kind_of(form) == "leader" and form.get("after") and _leader_pair(form):
                return links[seat], i, _leader_pair(form)
        kinds = [kind_of(f) for f in forms]
        index = kinds.index("recruit") if "recruit" in kinds and rng.random() < 0.7 else rng.choice(range(len(forms)))
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    raise AssertionError("no Leader form whose bonus actions change with the special ability")


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_with_javascript_the_leader_forms_bonus_fields_follow_the_special_ability(live, client, runner, chromium,
                                                                                 fixed_seed, size):
    link, index, (on, legal) = _leader_with_bonus(live, client, runner)
    page = open_page(chromium, link, size)
    box = _open(page, index)
    box.locator("select[name=card]").select_option(on["card"])
    box.locator("select[name=region]").select_option(on["region"])
    for state in ("off", "on", "off"):
        box.locator("input[name=special]").set_checked(state == "on")
        if state == "on" and on.get("connection"):
            box.locator("select[name=connection]").select_option(on["connection"])
        kinds = {b["bonus"] for b in legal[state]}
        assert _options(box.locator("select[name=bonus]")) == kinds, state
        kind = "MOVE" if "MOVE" in kinds else sorted(kinds)[0]
        box.locator("select[name=bonus]").select_option(kind)
        tokens = {b["bonus_token"] for b in legal[state] if b["bonus"] == kind and b["bonus_token"]}
        if tokens:
            assert _options(box.locator("select[name=bonus_token]")) == tokens, state
    assert overflow(page) == 0
    shot(page, f"dual_powers-leader-bonus-js-{size}")
    send_and_see_it_stored(page, box)
