"""The bonus action in Chromium: with JavaScript its fields offer only what is legal after the action
chosen; without, it comes on a second step that lists only those. At a phone's and a desk's size."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from tests.browser import open_page, overflow, shot
from tests.games.dual_powers.formfill import send_and_see_it_stored

from .test_forms import _to_a_move

pytestmark = pytest.mark.browser


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-forms-seed")


def _action(form: dict) -> tuple[dict, list[dict]]:
    """An action of the form after which a bonus action is legal (a Bonus Move if one is), and those bonuses."""
    names = list(form["combos"][0])
    best = None
    for combo in form["combos"]:
        key = "|".join(str(combo[n] or "") for n in names)
        legal = [form["bonuses"][k] for k in form["after"].get(key, [])]
        if legal and (best is None or any(b["bonus"] == "MOVE" for b in legal)):
            best = ({n: v for n, v in combo.items() if v is not None}, legal)
            if any(b["bonus"] == "MOVE" for b in legal):
                break
    assert best is not None
    return best


def _options(select) -> set[str]:
    return {v for v in select.locator("option:not([disabled])").evaluate_all("os => os.map(o => o.value)") if v}


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_with_javascript_the_bonus_fields_offer_only_what_the_action_allows(live, client, runner, chromium,
                                                                            fixed_seed, size):
    made, link, game, seat, index = _to_a_move(live, client, runner, bonus=True)
    form = game.owed[seat]["forms"][index]
    action, legal = _action(form)
    page = open_page(chromium, link, size)
    box = page.locator("details.dp-form").nth(index)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    assert not box.locator(".dp-nojs-bonus").is_visible()  # the second step is for pages without JavaScript
    for name, value in action.items():
        box.locator(f"select[name={name}]").select_option(value)
    kinds = _options(box.locator("select[name=bonus]"))
    assert kinds == {b["bonus"] for b in legal}
    kind = "MOVE" if "MOVE" in kinds else sorted(kinds)[0]
    box.locator("select[name=bonus]").select_option(kind)
    tokens = {b["bonus_token"] for b in legal if b["bonus"] == kind and b["bonus_token"]}
    if tokens:
        assert _options(box.locator("select[name=bonus_token]")) == tokens
        token = sorted(tokens)[0]
        box.locator("select[name=bonus_token]").select_option(token)
        regions = {b["bonus_to"] for b in legal if b["bonus"] == kind and b["bonus_token"] == token and b["bonus_to"]}
        if regions:
            assert _options(box.locator("select[name=bonus_to]")) == regions
    assert overflow(page) == 0
    shot(page, f"dual_powers-bonus-js-{size}")
    send_and_see_it_stored(page, box)


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_without_javascript_the_bonus_action_comes_on_a_second_step(live, client, runner, chromium, fixed_seed, size):
    made, link, game, seat, index = _to_a_move(live, client, runner, bonus=True)
    form = game.owed[seat]["forms"][index]
    action, legal = _action(form)
    page = open_page(chromium, link, size, javascript=False)
    box = page.locator("details.dp-form").nth(index)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    combo = box.locator("select[name=combo]")
    values = combo.locator("option").evaluate_all("os => os.map(o => o.value)")
    value = next(v for v in values if all(dict(parse_qsl(v)).get(k) == w for k, w in action.items()))
    combo.select_option(value)
    shot(page, f"dual_powers-bonus-nojs-1-{size}")
    box.locator(".dp-nojs-bonus button").click()
    page.wait_for_load_state()
    assert "csrf_token" not in page.url  # the form token is not put in an address
    assert overflow(page) == 0
    box = page.locator("details.dp-form").nth(index)
    assert box.get_attribute("open") is not None
    offered = [dict(parse_qsl(v)) for v in
               box.locator("select[name=combo] option").evaluate_all("os => os.map(o => o.value)") if v]
    assert offered == [{k: v for k, v in b.items() if v is not None} for b in legal]
    shot(page, f"dual_powers-bonus-nojs-2-{size}")
    box.locator("select[name=combo]").select_option(index=len(offered))
    send_and_see_it_stored(page, box)
