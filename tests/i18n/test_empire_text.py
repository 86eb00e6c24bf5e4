"""Empire speaks in message ids, and Portuguese and Greek say all of it.

(a) every message the engine emits over seeded random games (events, prompts with every
    form, field and choice label, refusals of bad orders, the view's names, the board's
    labels) is a message of ``app/games/empire/text.py``, never an English sentence;
(b) the pt and el catalogues are complete, with no fuzzy entry and the English placeholders;
(c) rendered in pt and el, no English word of the catalogue is left, except the glossary's
    proper names, the order notation's tokens and a few words both languages share.
"""

from __future__ import annotations

import io
import os
import random
import re
import string
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app.games.base import IllegalOrder
from app.games.driver import advance, random_orders, start
from app.games.empire import RULES, data
from app.games.empire.notation import KINDS, OP_KIND
from app.games.empire.text import TEXT, amount, province
from app.games.text import listing, msg
from app.i18n import gametext
from tests.games.empire.test_fuzz import _fill
from tests.platform.helpers import path_of

PO = Path(__file__).resolve().parents[2] / "app" / "i18n" / "translations"
LANGS = ("pt", "el")
GAMES = [({"players": 2, "mode": "short", "round_limit": 4}, "t1"),
         ({"players": 3, "mode": "long", "round_limit": 4}, "t2"),
         ({"players": 4, "mode": "short", "round_limit": 5}, "t3"),
         ({"players": 4, "mode": "long", "round_limit": 3}, "t4")]
GARBAGE = ["", "PASS", "hello", "ADMIN: MOVE B-S1 99", "OFFER GIVE 0 FOOD GET 1 WOOD", "PAY GOLD SILVER",
           "ROUTE: ROUTE GOLD 1; PAY GOLD", "FOO: BAR", "MODE B-S1 ATTACK TARGET PURPLE", "LOSE-FOR BLUE",
           "PROPOSE: PACT RED PROVINCE 12", "ANSWER: ACCEPT OFFER B-O9", "ADMIN: MARKET SELL WOOD 2",
           "ADMIN: BUILD HEAVY 7; BUILD WALL 7", "ROUTE: ROUTE TROOPS 50 AT 1", "x" * 6000]
#: glossary kinds: proper names of things, translated from the glossary
GLOSSARY = ("colour.", "resource.", "resource_n.", "province.", "card.", "objective.", "building.",
            "mode.", "mode_short.", "game_mode.", "tribute.")
#: the order notation: tokens a player types, the same in every language
NOTATION = set(KINDS) | {w for op in OP_KIND for w in op.split("_")} | set(data.RESOURCES) | set(data.MODES) | {
    "GIVE", "GET", "TO", "PROVINCE", "BUY", "SELL", "INF", "WALL", "HEAVY", "FOR", "TROOPS", "AT", "FREE",
    "SIMPLE", "NONE", "NEW", "TARGET", "PAY", "LOSE-FOR"} | set(data.COLOUR_LETTER)
#: words written the same in English and in Portuguese (or Greek)
SHARED = {"a", "no", "de", "e", "o", "se", "em", "do", "as", "for", "local", "move", "prov", "total", "use"}


def _ids(text: Any, out: set[str]) -> None:
    """Every message id in ``text`` (nested arguments and lists included)."""
    if isinstance(text, dict):
        if isinstance(text.get("msg"), str):
            out.add(text["msg"])
            for v in (text.get("args") or {}).values():
                _ids(v, out)
        elif "list" in text:
            for v in text["list"]:
                _ids(v, out)
        else:
            for v in text.values():
                _ids(v, out)
    elif isinstance(text, list):
        for v in text:
            _ids(v, out)


def _view_messages(view: Any) -> list[Any]:
    """The messages a view holds for display (names of provinces, cards, phases...)."""
    if _is_msg(view):
        return [view]
    if isinstance(view, dict):
        return [m for v in view.values() for m in _view_messages(v)]
    if isinstance(view, list):
        return [m for v in view for m in _view_messages(v)]
    return []


def _is_msg(text: Any) -> bool:
    return isinstance(text, dict) and (isinstance(text.get("msg"), str) or isinstance(text.get("list"), list))


def _prompt_texts(prompt: dict[str, Any]) -> list[Any]:
    """Title, text and every label of a prompt; each must be a message (a choice label may be
    its own notation value, like ``PAY GOLD``)."""
    out = [prompt["title"], prompt["text"]]
    for form in prompt["forms"]:
        out.append(form["label"])
        for field in form["fields"]:
            out.append(field["label"])
            if field.get("help"):
                out.append(field["help"])
            for choice in field.get("choices") or []:
                if choice["label"] != choice["value"]:
                    out.append(choice["label"])
    return out


def _refusals(state: dict[str, Any], rng: random.Random) -> list[Any]:
    out = []
    owed = RULES.owed(state)
    for seat in RULES.seats(state["options"]):
        candidates: list[Any] = [RULES.parse(t) for t in ("PASS",)]
        for text in GARBAGE:
            try:
                candidates.append(RULES.parse(text))
            except IllegalOrder as exc:
                out.append(exc.message)
        if seat in owed:
            candidates += [_fill(form, rng) for form in owed[seat]["forms"] for _ in range(3)]
            candidates += [{"type": k, "lines": []} for k in KINDS]
        for order in candidates:
            try:
                RULES.validate(state, seat, order)
            except IllegalOrder as exc:
                out.append(exc.message)
    return out


def _board_labels(view: dict[str, Any], seat: str | None) -> list[Any]:
    """What the board asks its ``tr`` to render."""
    seen: list[Any] = []

    def tr(text: Any) -> str:
        seen.append(text)
        return TEXT.english(text)

    RULES.board_svg(view, seat, tr)
    return seen


@cache
def _messages() -> tuple[list[Any], list[str]]:
    """Every text met over the games (messages), and any English string met instead."""
    texts: list[Any] = []
    plain: list[str] = []
    rng = random.Random(11)

    def take(text: Any, where: str) -> None:
        if _is_msg(text):
            texts.append(text)
        else:
            plain.append(f"{where}: {text!r}")

    for options, seed in GAMES:
        game = start(RULES, options, seed)
        steps = 0
        while RULES.outcome(game.state) is None and steps < 200:
            steps += 1
            for prompt in RULES.owed(game.state).values():
                for text in _prompt_texts(prompt):
                    take(text, "prompt")
            for text in _refusals(game.state, rng):
                take(text, "refusal")
            if steps % 3 == 0:
                for seat in [None, *game.seats]:
                    view = RULES.view(game.state, seat)
                    texts.extend(_view_messages(view))
                    for label in _board_labels(view, seat):
                        take(label, "board")
            for event in advance(RULES, game, random_orders(RULES, game)):
                take(event["text"], "event")
    return texts, plain


def test_the_engine_emits_messages_only():
    texts, plain = _messages()
    assert not plain, "\n".join(plain[:20])
    ids: set[str] = set()
    _ids(texts, ids)
    for kind in ("event.", "prompt.", "field.", "choice.", "refuse.", "unreadable.", "board.", "phase.",
                 "card.", "objective."):
        assert any(i.startswith(kind) for i in ids), f"no {kind}* message met"


def test_every_message_id_is_in_the_catalogue():
    texts, _plain = _messages()
    ids: set[str] = set()
    _ids(texts, ids)
    assert ids and not ids - set(TEXT.entries), sorted(ids - set(TEXT.entries))
    # the games met most of the catalogue (the rest: rare cards, objectives, errors)
    assert len(ids) > len(TEXT.entries) // 2


def _placeholders(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete_without_fuzzy_and_keeps_placeholders(lang):
    with open(PO / lang / "LC_MESSAGES" / "empire.po", "rb") as fh:
        cat = read_po(fh, locale=lang, domain="empire")
    assert not cat.fuzzy
    entries = {m.context: m for m in cat if m.id}
    assert set(entries) == set(TEXT.entries)
    for msg_id, entry in TEXT.entries.items():
        po = entries[msg_id]
        assert "fuzzy" not in po.flags, msg_id
        forms = po.string if isinstance(po.string, tuple) else (po.string,)
        assert all(forms) and len(forms) == (1 if entry.plural is None else cat.num_plurals), msg_id
        want = _placeholders(entry.plural or entry.singular)
        for form in forms:
            assert _placeholders(form) == want, f"{lang} {msg_id}: {form!r}"


@cache
def _english_words() -> set[str]:
    """Words of the English catalogue that a translation must not leave (lower case)."""
    names: set[str] = set()
    words: set[str] = set()
    for msg_id, entry in TEXT.entries.items():
        text = " ".join(filter(None, [entry.singular, entry.plural]))
        found = _words(re.sub(r"\{\w+\}", " ", text))
        (names if msg_id.startswith(GLOSSARY) else words).update(found)
    return {w.lower() for w in words - NOTATION} - {n.lower() for n in names} - SHARED


def _words(text: str) -> set[str]:
    """Words of two letters or more (codes such as B-S1 and S05-2 are not words)."""
    text = re.sub(r"\b[A-Z]+-[A-Z]*\d+(-\d+)?\b|\b[A-Z]-(PACT|O\d)\b", " ", text)
    return set(re.findall(r"[^\W\d_][\w'-]*[^\W\d_]", text))


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_is_left_in_a_translated_game(lang):
    texts, _plain = _messages()
    english = _english_words()
    gametext.MISSING.clear()
    left: dict[str, str] = {}
    for text in texts:
        out = gametext.render("empire", text, lang)
        for word in _words(out) - NOTATION:
            if word.lower() in english:
                left.setdefault(word, out)
    assert not gametext.MISSING
    assert not left, "\n".join(f"{w}: {t}" for w, t in sorted(left.items())[:30])


def test_rendering_in_english_reads_as_before():
    """The English rendering is the catalogue's text: names, plurals and lists."""
    assert TEXT.english(msg("event.pays_tribute", seat={"msg": "colour.RED"},
                            what=listing([amount(1, "FOOD"), amount(1, "WOOD")]))) == \
        "RED pays tribute: 1 Food and 1 Wood."
    assert TEXT.english(msg("field.lose", n=1)) == "Exactly 1 troop"
    assert TEXT.english(msg("field.lose", n=2)) == "Exactly 2 troops"
    assert gametext.render("empire", province(6), "pt") == "6 (Minas de Ouro Ocidentais)"
    assert gametext.render("empire", msg("field.lose", n=0), "pt") == "Exatamente 0 tropas"


# ---------------------------------------------------------------- through the platform
def _visible(html: str) -> str:
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S | re.I)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _english_left(text: str) -> list[str]:
    # the game's title is stored on the game as a plain string and printed as it is
    # by the platform (app/turns/setup.py, templates/web/play.html): a name, not engine text
    text = text.replace(RULES.title, " ")
    english = _english_words()
    return sorted({w for w in _words(text) - NOTATION if w.lower() in english})


@pytest.fixture
def played(app, client, runner):
    """A 3-player game in a language, four windows played through the web forms (proposals,
    administration with setbacks, combat and upkeep, routing...): the first seat's page and
    its latest PDF report."""
    def play(lang: str) -> tuple[str, bytes]:
        from sqlmodel import Session, select

        from app.db import get_engine, write_session
        from app.mail import build_message
        from app.models import OutboxMail
        from app.turns import get_or_create_player
        from tests.platform.helpers import create_game, post_form

        emails = tuple(f"{lang}-e{i}@example.org" for i in (1, 2, 3))
        with app.app_context(), write_session(get_engine()) as session:
            for email in emails:
                player = get_or_create_player(session, email)
                player.language = lang
                session.add(player)
        made = create_game(runner, "empire", emails, "--option", "players=3")
        links = [s["link"] for s in made["seats"]]
        for _ in range(4):
            for link in links:  # each seat that owes a decision sends the form's defaults
                orders = client.get(path_of(link)).get_data(as_text=True).split('id="orders"')[1].split("</section>")[0]
                if 'name="step_no"' in orders:
                    post_form(client, link, {})
        page = client.get(path_of(links[0])).get_data(as_text=True)
        assert f'<html lang="{lang}">' in page
        with app.app_context(), Session(get_engine()) as session:
            mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                         OutboxMail.to_addr == emails[0])
                                .order_by(OutboxMail.id.desc())).first()
            message = build_message(session, mail)
        pdf = next(p.get_content() for p in message.iter_attachments()
                   if p.get_content_type() == "application/pdf")
        look = os.environ.get("EMPIRE_LOOK")  # EMPIRE_LOOK=/tmp/dir keeps them to look at
        if look:
            Path(look, f"page-{lang}.html").write_text(page)
            Path(look, f"report-{lang}.pdf").write_bytes(pdf)
        return page, pdf
    return play


def _pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("lang", LANGS)
def test_a_mid_game_page_and_report_leave_no_english(played, lang):
    page, pdf = played(lang)
    shown = _visible(re.sub(r'<ol class="log".*?</ol>', " ", page, flags=re.S))
    assert ("Turno" if lang == "pt" else "Φάση") in shown
    assert ("Bastião Azul" if lang == "pt" else "Γαλάζιο Οχυρό") in shown  # the board, with its names
    assert _english_left(shown) == []
    text = _pdf_text(pdf)
    assert ("Turno" if lang == "pt" else "Φάση") in text
    assert _english_left(text) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_seat_pages_log_is_in_the_players_language(played, lang):
    page, _pdf = played(lang)
    log = re.findall(r'<ol class="log".*?</ol>', page, flags=re.S)
    assert log and _english_left(_visible(" ".join(log))) == []
