"""No English left in a Portuguese or Greek game, as the player reads it: pages, mails, PDFs.

Random games of every game are played through the platform by a player whose language is
``pt`` or ``el``: each turn the seat page is read, a refused order is sent (its answer is
read too), a legal order is sent; at the end every mail and the last PDF report are read.
The test fails on

- a message id that the game's catalogue does not hold (``gametext.MISSING``), and
- an English word of the game's own catalogue in what the player reads: a word of the
  English text of any message that no translation of the game or of the platform uses
  (so proper names and words that are the same in both languages do not count). Order
  notation (``<code>``, the prompt's example, orders as written) is the order language,
  not prose, and is left out.
"""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from babel.messages.pofile import read_po
from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.games import all_games, get_rules
from app.games.base import step_rng
from app.i18n import gametext
from app.i18n.lang import TRANSLATIONS
from app.mail import build_message
from app.models import OutboxMail, Player
from tests.platform.helpers import csrf_of, game_row, path_of, step_of

GAMES = sorted(slug for slug in all_games() if slug != "toy" and get_rules(slug).text.entries)
WORD = re.compile(r"[A-Za-z][a-z]{3,}")
HUMAN = "human@example.org"


def _po_strings(domain: str, lang: str) -> list[str]:
    try:
        with open(f"{TRANSLATIONS}/{lang}/LC_MESSAGES/{domain}.po", "rb") as fh:
            cat = read_po(fh)
    except FileNotFoundError:
        return []
    out: list[str] = []
    for m in cat:
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        out += [s for s in strings if s]
    return out


def english_words(slug: str, lang: str) -> set[str]:
    """Words of the game's English that no translation (the game's or the platform's) uses."""
    english: set[str] = set()
    for entry in get_rules(slug).text.entries.values():
        for text in (entry.singular, entry.plural or ""):
            english |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}
    used = set()
    for text in _po_strings(slug, lang) + _po_strings("messages", lang):
        used |= {w.lower() for w in WORD.findall(text)}
    return english - used


def _visible_text(html: str) -> str:
    html = re.sub(r"<(code|pre|script|style|textarea)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<[^>]+>", " ", html)
    return unescape(html)


def _leaks(text: str, words: set[str], notation: set[str]) -> set[str]:
    text = re.sub(r"\S+@\S+|https?://\S+", " ", text)  # addresses and links are not prose
    text = re.sub(r"\b[0-9a-f]{8,}\b", " ", text)  # nor receipts and hashes (a receipt may hold "dead")
    return {w for w in WORD.findall(text) if w.lower() in words and w.lower() not in notation}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["pt", "el"])
@pytest.mark.parametrize("slug", GAMES)
def test_a_game_reads_without_english(app, client, runner, slug, lang):
    rules = get_rules(slug)
    gametext.MISSING.clear()
    made = json.loads(runner.invoke(args=["game", "create", slug, "--player", HUMAN, "--bot"]).output)
    with Session(get_engine(app)) as s:
        player = s.exec(select(Player).where(Player.email == HUMAN)).one()
        player.language = lang
        s.add(player)
        s.commit()
    me = next(seat for seat in made["seats"] if seat["email"] == HUMAN)
    with Session(get_engine(app)) as s:  # mails made before the player chose a language are English
        first_mail = max([m.id or 0 for m in s.exec(select(OutboxMail)).all()], default=0)
    words = english_words(slug, lang)
    notation: set[str] = set()
    seen: dict[str, str] = {}
    for turn in range(25):
        game = game_row(app, made["game"])
        html = client.get(path_of(me["link"])).get_data(as_text=True)
        seen[f"page {turn}"] = html
        if game.status != "running" or me["seat"] not in game.owed:
            break
        prompt = game.owed[me["seat"]]
        order = rules.random_order(game.state, me["seat"], step_rng("lang", game.step_no, me["seat"]))
        written = rules.format(order)
        notation |= {w.lower() for w in WORD.findall(written + " " + str(prompt.get("example", "")))}
        bad = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                     "notation": "XYZZY 99 NOWHERE"})
        seen[f"refusal {turn}"] = bad.get_data(as_text=True)
        resp = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                      "notation": written})
        assert resp.status_code in (303, 409), resp.get_data(as_text=True)[:2000]
    notation |= {"xyzzy", "nowhere"}
    with app.app_context(), Session(get_engine(app)) as s:
        rows = s.exec(select(OutboxMail).where(OutboxMail.to_addr == HUMAN, OutboxMail.id > first_mail)
                      .order_by(OutboxMail.id)).all()
        assert rows
        for row in rows:
            msg = build_message(s, row, with_pdf=row is rows[-1])
            body = msg.get_body(("plain",))
            seen[f"mail {row.id}"] = body.get_content() if body is not None else ""
            for part in msg.iter_attachments():
                if part.get_content_type() == "application/pdf":
                    reader = PdfReader(io.BytesIO(part.get_content()))
                    seen[f"pdf {row.id}"] = "\n".join(page.extract_text() for page in reader.pages)
    assert any(k.startswith("pdf") for k in seen)
    assert not gametext.MISSING, f"message ids missing from the {slug} catalogue: {sorted(gametext.MISSING)}"
    found = {where: sorted(_leaks(_visible_text(text) if "<" in text else text, words, notation))
             for where, text in seen.items()}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"English words of the {slug} catalogue in a {lang} game: {found}"
