"""On a phone (390 px), every choice of Empire's forms can be read in Greek and Portuguese (the
longest words): whatever option a player picks in a select, either its whole text fits the closed
select, or the page shows that text in full under it, inside the screen (checked at 390 px, and at
320 px where some options must show under their select). Screenshots ``empire-choices-<phase>-<lang>``."""

from __future__ import annotations

import pytest

from tests.browser import open_page
from tests.games.empire.forms_kit import GREEK_AND_PORTUGUESE, greek_and_portuguese_game, legal_values
from tests.games.empire.test_forms_browser import _fits, _phase
from tests.platform.helpers import post_form

pytestmark = pytest.mark.browser

#: each visible select of the forms, each of its options picked in turn: the options whose text
#: neither fits the closed select nor shows whole under it (within the screen's width); each select is
#: then left on its longest option
UNREADABLE = """() => {
  const ruler = document.createElement('canvas').getContext('2d');
  const out = [];
  let echoed = 0;
  const selects = [...document.querySelectorAll('.e-forms form select')].filter(s => s.offsetParent !== null);
  for (const s of selects) {
    const start = s.selectedIndex;
    for (let i = 0; i < s.options.length; i += 1) {
      s.selectedIndex = i;
      s.dispatchEvent(new Event('change', {bubbles: true}));
      const text = s.options[i].text;
      const style = getComputedStyle(s);
      ruler.font = style.font;
      const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
      if (ruler.measureText(text).width <= room) { continue; }
      const note = s.nextElementSibling;
      const shown = note && note.classList.contains('chosen-full') && !note.hidden && note.textContent === text
        && note.getBoundingClientRect().right <= document.documentElement.clientWidth;
      if (shown) { echoed += 1; } else { out.push(s.name + ': ' + text); }
    }
    /* left on its longest option, for the screenshot */
    const widths = [...s.options].map(o => ruler.measureText(o.text).width);
    s.selectedIndex = widths.length ? widths.indexOf(Math.max(...widths)) : start;
    s.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {selects: selects.length, unreadable: out, echoed: echoed};
}"""


def test_every_choice_of_every_form_reads_whole_on_a_phone(live, runner, chromium):
    made, langs = greek_and_portuguese_game(live, runner), GREEK_AND_PORTUGUESE
    client = live.test_client()
    seen: dict[tuple[str, str], int] = {}
    echoed = 0
    for step in range(12):
        phase, owed = _phase(live, made["game"])
        for seat in owed:
            i = int(seat[1:]) - 1
            if (phase, langs[i]) in seen:
                continue
            page = open_page(chromium, made["seats"][i]["link"], "phone")
            found = page.evaluate(UNREADABLE)
            assert not found["unreadable"], (phase, langs[i], found["unreadable"][:5])
            seen[(phase, langs[i])] = found["selects"]
            _fits(page, f"empire-choices-{phase}-{langs[i]}")
            page.context.close()
            if phase in ("T3A", "T4"):  # a narrower phone (320 px): long options show whole under their select
                small = chromium.new_context(viewport={"width": 320, "height": 640}).new_page()
                small.goto(made["seats"][i]["link"])
                found = small.evaluate(UNREADABLE)
                assert not found["unreadable"], (phase, langs[i], 320, found["unreadable"][:5])
                echoed += found["echoed"]
                _fits(small, f"empire-choices-{phase}-{langs[i]}-320")
                small.context.close()
        for seat, prompt in owed.items():
            link = made["seats"][int(seat[1:]) - 1]["link"]
            values = legal_values(prompt["forms"][0], step)
            if phase == "T3A":  # offers to anyone: every other seat then owes answers in 3B
                values = {k: v for k, v in values.items() if not (k.startswith("offer") and k.endswith("_to"))}
            assert post_form(client, link, values).status_code == 303
    assert {("T3A", "el"), ("T3B", "pt"), ("T4", "el"), ("T4", "pt"), ("T8", "pt")} <= set(seen), seen
    assert sum(seen.values()) > 20 and echoed > 0
