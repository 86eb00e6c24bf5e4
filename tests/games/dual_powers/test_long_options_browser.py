"""Long choices on a phone: at 390 px a select too narrow for the text of its chosen option shows that
text in full on a line under it, in Portuguese and Greek (the longest texts), for every form; and the
leaders' tokens on the board read in the page's language, inside their boxes."""

from __future__ import annotations

from random import Random

import pytest

from tests.browser import SCREENSHOTS, open_page, overflow, shot
from tests.platform.helpers import create_game, game_row

from .formfill import kind_of, legal_values
from .test_forms import _post

pytestmark = pytest.mark.browser

#: For each visible select of the open form: its chosen option's text, whether the select is wide enough
#: for it, and the line under it (its text, whether shown, whether it fits the page's width).
READ = """box => Array.from(box.querySelectorAll('select')).filter(s => s.offsetParent).map(s => {
  const ruler = document.createElement('canvas').getContext('2d');
  const st = getComputedStyle(s);
  ruler.font = st.fontWeight + ' ' + st.fontSize + ' ' + st.fontFamily;
  const text = s.selectedOptions[0] ? s.selectedOptions[0].textContent.trim() : '';
  const next = s.nextElementSibling;
  const line = next && next.classList.contains('chosen-full') ? next : null;
  const r = line ? line.getBoundingClientRect() : null;
  return {name: s.name, text, fits: ruler.measureText(text).width <= s.clientWidth - 40,
          line: line ? line.textContent : null, shown: !!(line && line.offsetParent),
          inside: !!(r && r.right <= document.documentElement.clientWidth && line.scrollWidth <= line.clientWidth + 1)};
})"""

LONGEST = """s => { const os = Array.from(s.options).filter(o => !o.disabled && o.value);
  return os.length ? os.reduce((a, b) => b.textContent.length > a.textContent.length ? b : a).value : null; }"""


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-long-options")


def _played(live, client, runner, turns: int = 14):
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    rng = Random(4)
    sent: set[tuple[int, str]] = set()
    for _ in range(turns):  # objectives, units recruited, a leader on the board
        game = game_row(live, made["game"])
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        sent.add((game.step_no, seat))
        forms = game.owed[seat]["forms"]
        kinds = [kind_of(f) for f in forms]
        want = "leader" if "leader" in kinds and rng.random() < 0.4 else "recruit"
        index = kinds.index(want) if want in kinds else 0
        values = legal_values(forms[index], rng)
        if want == "leader":
            values["region"] = "RED"
        assert _post(client, links[seat], values, index).status_code == 303
    game = game_row(live, made["game"])
    return game, links


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_at_a_phones_width_the_chosen_option_of_each_select_reads_in_full(live, client, runner, chromium,
                                                                          fixed_seed, lang):
    game, links = _played(live, client, runner)
    seat = next(iter(sorted(game.owed)))
    page = open_page(chromium, links[seat] + f"?lang={lang}", "phone")
    boxes = page.locator("details.dp-form")
    cut = 0
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if box.get_attribute("open") is None:
            box.locator("summary").click()
        for sel in box.locator("select").all():  # the longest choice of each select, as a player may pick it
            if sel.is_visible():
                value = sel.evaluate(LONGEST)
                if value:
                    sel.select_option(value)
        for read in box.evaluate(READ):
            assert read["fits"] or (read["shown"] and read["line"] == read["text"] and read["inside"]), read
            cut += not read["fits"]
        assert overflow(page) == 0
        shot(page, f"dual_powers-long-options-{lang}-{i}")
    assert cut > 0  # some choices are longer than a phone's select: the line under it is what a player reads
    page.context.close()


LEADERS = {"en": {"LEN", "KER", "DZE", "MIL", "KOL", "KOR", "TROT"},
           "pt": {"LEN", "KER", "DZE", "MIL", "KOL", "KOR", "TROT"},
           "el": {"ΛΕΝ", "ΚΕΡ", "ΝΤΖ", "ΜΙΛ", "ΚΟΛ", "ΚΟΡ", "ΤΡΟΤ"}}

#: The leaders' tokens drawn on the visible board: their label, and whether it stays inside its box
#: (left of the strength printed at the box's right end).
TOKENS = """names => Array.from(document.querySelectorAll('svg text')).filter(t => t.getBoundingClientRect().width > 0
  && names.includes(t.textContent.trim())).map(t => {
  let rect = t.previousElementSibling;
  while (rect && rect.tagName !== 'rect') { rect = rect.previousElementSibling; }
  const a = t.getBoundingClientRect(), b = rect.getBoundingClientRect();
  const strength = t.nextElementSibling ? t.nextElementSibling.getBoundingClientRect() : null;
  return {label: t.textContent.trim(), inside: a.left >= b.left && a.right <= (strength ? strength.left : b.right)};
})"""


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_leaders_on_the_board_are_named_in_the_pages_language_inside_their_tokens(live, client, runner, chromium,
                                                                                fixed_seed, lang):
    game, links = _played(live, client, runner)
    assert any(t.startswith(("L-", "T-")) for t in game.state["board"]), "no leader on the board"
    seat = next(iter(sorted(game.owed)))
    page = open_page(chromium, links[seat] + f"?lang={lang}", "phone")
    others = set().union(*LEADERS.values()) - LEADERS[lang]
    found = page.evaluate(TOKENS, sorted(LEADERS[lang] | others))
    assert found and all(f["label"] in LEADERS[lang] and f["inside"] for f in found), found
    shot(page, f"dual_powers-leaders-{lang}-phone")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("svg:visible").first.screenshot(path=str(SCREENSHOTS / f"dual_powers-leaders-{lang}-board.png"))
    page.context.close()


GROUPS = """s => Array.from(s.querySelectorAll('optgroup')).map(g => ({card: g.label,
  options: Array.from(g.querySelectorAll('option')).map(o => o.textContent.trim())}))"""


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_without_javascript_a_phones_combined_choices_lead_with_what_differs(live, client, runner, chromium,
                                                                          fixed_seed, lang):
    """One select of a form's legal combinations: grouped by card (the group's heading), each option
    leading with the token (what differs between them, and what a phone's narrow select shows)."""
    game, links = _played(live, client, runner)
    seat = next(iter(sorted(game.owed)))
    forms = game.owed[seat]["forms"]
    moving = [i for i, f in enumerate(forms) if f.get("combos") and "token" in f["combos"][0]]
    assert moving, [kind_of(f) for f in forms]
    page = open_page(chromium, links[seat] + f"?lang={lang}", "phone", javascript=False)
    for i in moving:
        box = page.locator("details.dp-form").nth(i)
        if box.get_attribute("open") is None:
            box.locator("summary").click()
        combo = box.locator("select[name=combo]")
        groups = combo.evaluate(GROUPS)
        tokens = box.locator("select[name=token] option").evaluate_all("os => os.map(o => o.textContent.trim())")
        assert len(groups) == len({c["card"] for c in forms[i]["combos"]})
        for group in groups:
            assert all(o.endswith(group["card"]) and any(o.startswith(t) for t in tokens) for o in group["options"])
        shot(page, f"dual_powers-nojs-combos-{lang}-{i}")
        assert overflow(page) == 0
    page.context.close()
