"""Every order form of every real game, filled in a real browser from what the page offers, is accepted.

For each game: one human seat, bots on the others.  At each of a few steps the seat page
is opened in Chromium (JavaScript on, a phone's width) and each order form on it (the
generic forms and a game's own ``form.html`` alike; not the notation box, not the forms
sent at any time) is filled from the page's own fields only: a few presses of its own
buttons, an offered option of each select (the first, or drawn; in page order, so
narrowing selects narrow), a number within each box's bounds, some of its check boxes,
one of its submit buttons.  What the browser would post (``FormData`` with its submitter)
is read back as the server reads it (``order_from_form``, then the rules' ``validate``):
a form passes when a filling is accepted.  Numbers that must add up to a total are tried
with several totals, so a few fillings per form are tried.  One accepted form per step is
then really submitted, and the page must say it was taken, not refused.
"""

from __future__ import annotations

import json

import pytest
from werkzeug.datastructures import MultiDict

from app.games import IllegalOrder, all_games, get_rules
from app.turns.forms import order_from_form
from tests.browser import open_page, shot
from tests.platform.helpers import game_row

pytestmark = pytest.mark.browser

STEPS = 3
RANDOM_FILLS = 6
MAX_TOTAL = 40


ORDER_FORMS = """() => Array.from(document.querySelectorAll("form")).filter(f =>
    (f.getAttribute("method") || "").toLowerCase() === "post"
    && !f.querySelector("textarea[name=notation]")
    && !(f.getAttribute("action") || "").includes("/anytime")
    && ((f.getAttribute("action") || "") === "" || f.getAttribute("action") === location.pathname))"""

SHAPE = f"""() => ({ORDER_FORMS})().map(f => Array.from(f.querySelectorAll("input[type=number]"))
    .map(i => [Number(i.min || 0), i.max === "" ? Number(i.min || 0) + 10 : Number(i.max)]))"""

FILL = f"""([index, seed, total]) => {{
  const form = ({ORDER_FORMS})()[index];
  let s = (seed * 2654435761 + 1) >>> 0;
  const pick = n => {{ s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % n; }};
  const steppers = Array.from(form.querySelectorAll("button[type=button]"));
  for (let n = seed === 0 || !steppers.length ? 0 : pick(2 * steppers.length + 1); n > 0; n -= 1) {{
    steppers[pick(steppers.length)].click();
  }}
  const count = form.querySelectorAll("select").length;
  for (let i = 0; i < count; i += 1) {{
    const select = form.querySelectorAll("select")[i];
    if (!select || select.disabled) continue;
    const options = Array.from(select.options).filter(o => !o.disabled);
    if (!options.length) continue;
    select.value = options[seed === 0 ? 0 : pick(options.length)].value;
    select.dispatchEvent(new Event("input", {{bubbles: true}}));
    select.dispatchEvent(new Event("change", {{bubbles: true}}));
  }}
  let left = total;
  for (const box of form.querySelectorAll("input[type=number]")) {{
    const lo = Number(box.min || 0), hi = box.max === "" ? lo + 10 : Number(box.max);
    let value;
    if (total === null) value = seed === 0 ? lo : lo + pick(hi - lo + 1);
    else {{ value = Math.max(lo, Math.min(hi, left)); left -= value; }}
    box.value = String(value);
    box.dispatchEvent(new Event("input", {{bubbles: true}}));
    box.dispatchEvent(new Event("change", {{bubbles: true}}));
  }}
  const boxes = {{}};
  form.querySelectorAll("input[type=checkbox]").forEach(b => {{ (boxes[b.name] = boxes[b.name] || []).push(b); }});
  Object.values(boxes).forEach(group => group.forEach((b, i) => {{
    b.checked = seed === 0 ? i === 0 : pick(2) === 1;
  }}));
  const radios = {{}};
  form.querySelectorAll("input[type=radio]").forEach(r => {{ (radios[r.name] = radios[r.name] || []).push(r); }});
  Object.values(radios).forEach(group => {{ group[seed === 0 ? 0 : pick(group.length)].checked = true; }});
  const buttons = Array.from(form.querySelectorAll("button, input[type=submit]"))
    .filter(b => (b.getAttribute("type") || "submit").toLowerCase() === "submit");
  const submitter = buttons.length ? buttons[seed === 0 ? 0 : pick(buttons.length)] : null;
  window.__submitter = submitter;
  return Array.from(new FormData(form, submitter).entries()).filter(([_k, v]) => typeof v === "string");
}}"""

SUBMIT = f"""([index]) => ({ORDER_FORMS})()[index].requestSubmit(window.__submitter || undefined)"""


def _fillings(shape: list[list[int]]) -> list[tuple[int, int | None]]:
    """(seed, total) of the fillings to try: the first options, random ones, then totals of the numbers."""
    tries: list[tuple[int, int | None]] = [(seed, None) for seed in range(RANDOM_FILLS)]
    if shape:
        low, high = sum(lo for lo, _hi in shape), sum(hi for _lo, hi in shape)
        tries += [(0, t) for t in range(max(low, 1), min(high, MAX_TOTAL) + 1)]
    return tries


def _check(live, slug: str, game_id: int, seat: str, pairs: list[list[str]]) -> str | None:
    """None when the server would take this post, else its refusal (English)."""
    game = game_row(live, game_id)
    data = MultiDict([tuple(p) for p in pairs])
    try:
        order = order_from_form(game.owed[seat], str(data.get("form_index", "")), data)
        get_rules(slug).validate(game.state, seat, order)
    except IllegalOrder as exc:
        return str(exc)
    return None


def _seat_of(runner, slug: str) -> tuple[int, str, str]:
    made = json.loads(runner.invoke(args=["game", "create", slug, "--player", "human@example.org", "--bot"]).output)
    me = next(s for s in made["seats"] if s["email"] == "human@example.org")
    return made["game"], me["seat"], me["link"]


def _params():
    for slug in sorted(s for s in all_games() if s != "toy"):
        yield pytest.param(slug, id=slug)


@pytest.mark.parametrize("slug", list(_params()))
def test_every_form_of_the_seat_page_is_accepted_when_filled_from_the_page(live, runner, chromium, slug):
    game_id, seat, link = _seat_of(runner, slug)
    page = open_page(chromium, link, "phone")
    shot(page, f"every-form-{slug}-phone")
    desk = open_page(chromium, link, "desk")
    shot(desk, f"every-form-{slug}-desk")
    desk.context.close()
    submitted = 0
    for step in range(STEPS):
        game = game_row(live, game_id)
        if game.status != "running" or seat not in game.owed:
            break
        page.goto(link)
        shape = page.evaluate(SHAPE)
        assert shape, f"{slug}: the seat owes a decision but its page has no order form"
        accepted: dict[int, tuple[int, int | None]] = {}
        refusals: dict[int, list[str]] = {}
        for index, numbers in enumerate(shape):
            for seed, total in _fillings(numbers):
                page.goto(link)
                why = _check(live, slug, game_id, seat, page.evaluate(FILL, [index, seed, total]))
                if why is None:
                    accepted[index] = (seed, total)
                    break
                refusals.setdefault(index, []).append(why)
        assert len(accepted) == len(shape), (
            f"{slug}, step {game.step_no}: forms refused whatever the page offers: "
            + "; ".join(f"form {i}: {sorted(set(refusals.get(i, [])))[:3]}" for i in range(len(shape))
                        if i not in accepted))
        index = sorted(accepted)[step % len(accepted)]
        page.goto(link)
        page.evaluate(FILL, [index, *accepted[index]])
        with page.expect_navigation():
            page.evaluate(SUBMIT, [index])
        page.wait_for_load_state()
        errors = page.locator(".error").all_inner_texts()
        assert not errors, f"{slug}, step {game.step_no}, form {index} refused in the browser: {errors}"
        assert page.locator(".notice").count() >= 1, f"{slug}: no sign that the order was taken"
        submitted += 1
    assert submitted >= 1, f"{slug}: the human seat never owed a decision"
    shot(page, f"every-form-{slug}-after-phone")
