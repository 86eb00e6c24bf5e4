"""Players meet the names of units, leaders and cards, not their codes, in pages, mails and reports
(the notation, in its help and in an order quoted as typed, keeps its codes; a tooltip may show one)."""

from __future__ import annotations

import io
import re
from html import unescape
from random import Random

import pytest
from pypdf import PdfReader

from tests.platform.helpers import create_game, game_row, mails, path_of

from .formfill import each_turn, kind_of, legal_values
from .test_forms import _post

UNIT = {"en": ("red unit", "white unit"), "pt": ("unidade vermelha", "unidade branca"),
        "el": ("κόκκινη μονάδα", "λευκή μονάδα")}
CODE = re.compile(r"\b(?:[RW]\d\d|N[1-6]|O\d-\d+|T-NEU|T-RED|L-[A-Z]{3}|C-[A-Z]{3}-\d[AB]?)\b")
NOTATION = re.compile(r"<code\b.*?</code>|<title>.*?</title>|<script\b.*?</script>|<style\b.*?</style>"
                      r"|<textarea\b.*?</textarea>|<details[^>]*>\s*<summary>[^<]*notation.*?</details>"
                      r"|\b(?:PLAY|OBJECTIVE|PLACE|UNREST) [^\n<]*", re.S)  # an order in the notation


def text_of(html: str) -> str:
    """What a reader sees of a page or mail: no tags, attributes, notation or tooltips."""
    return unescape(re.sub(r"<[^>]+>", " ", NOTATION.sub(" ", html)))


def _around(text: str) -> list[str]:
    return [text[max(0, m.start() - 200):m.end() + 80] for m in CODE.finditer(text)][:2]


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_no_unit_or_card_code_in_pages_mails_and_reports(app, client, runner, monkeypatch, lang):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "dual-powers-names-seed")
    app.config.update(RENDER_WORKERS=0)
    made = create_game(runner, "dual_powers", ("sov@example.org", "gov@example.org"))
    links = {s["seat"]: s["link"] for s in made["seats"]}
    for link in links.values():
        client.get(path_of(link) + f"?lang={lang}")  # the player reads this language from now on
    rng = Random(5)
    pages = []
    for _game, seat, forms in each_turn(app, made["game"], 24):
        pages.append(client.get(path_of(links[seat])).get_data(as_text=True))
        # recruit and move first, so that units stand on the board and show in the log
        index = min(range(len(forms)), key=lambda i: (["recruit", "move", "double", "refresh"] + [kind_of(forms[i])])
                    .index(kind_of(forms[i])))
        assert _post(client, links[seat], legal_values(forms[index], rng), index).status_code == 303
    game = game_row(app, made["game"])
    assert any(t.startswith(("R", "W")) for t in game.state["board"]), "no unit on the board"
    for link in links.values():
        pages.append(client.get(path_of(link)).get_data(as_text=True))
    assert any(word in text_of(html) for html in pages for word in UNIT[lang])  # units are named
    for html in pages:
        found = CODE.findall(text_of(html))
        assert not found, (found, _around(text_of(html)))
    for mail in mails(app, game_id=made["game"]):
        found = CODE.findall(text_of(mail.html)) + CODE.findall(NOTATION.sub(" ", mail.text))
        assert not found, (mail.subject, found, _around(mail.text))
    reports = []
    for link in links.values():
        resp = client.get(path_of(link) + "/report.pdf")
        assert resp.status_code == 200
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(resp.data)).pages)
        found = CODE.findall(text)
        assert not found, (found, text[:3000])
        reports.append(text)
    assert any(word in text for text in reports for word in UNIT[lang]), reports[0][:3000]
