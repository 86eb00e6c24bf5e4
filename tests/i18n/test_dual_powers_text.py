"""Dual Powers speaks in message ids: every message it emits is in its catalogue, and Portuguese
and Greek readers meet no English.

Seeded random playthroughs (two players and both solo sides) collect every event, prompt
(title, text, form, field and choice labels), view display string, board label and refusal
(from random bad orders and unreadable notation); then:

(a) every message id met, nested arguments included, is in ``TEXT``;
(b) the pt and el catalogues are complete, not fuzzy, and keep the English placeholders;
(c) every such message, and the game's page fragments, rendered in pt and el hold no English
    word of the catalogue that is not also a proper name of the glossary.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app.games import IllegalOrder
from app.games.dual_powers import RULES
from app.games.dual_powers.text import TEXT
from app.games.text import is_msg
from app.i18n import gametext

SLUG = "dual_powers"
ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "app" / "i18n" / "translations" / "{lang}" / "LC_MESSAGES" / f"{SLUG}.po"
LANGS = ("pt", "el")
OPTIONS = ({}, {"solo": True, "difficulty": 2, "faction": "SOV"}, {"solo": True, "difficulty": 5, "faction": "GOV"})
SEEDS = (1, 2, 3)

#: glossary kinds whose entries are proper names (the same words may stay in every language)
PROPER = ("region.", "connection.", "leader.", "short.", "title")  # short.: leaders' initials on the board
#: words spelled the same in the other languages (codes and the order language stay as they are)
ALLOWED = {"json", "special", "special_first", "none", "trotsky", "kerensky", "kornilov", "kollontai",
           "trot"}  # TROT: the Trotsky tokens' short label on the board, beside LEN, KER... (codes)
#: English words that are also words of that language
SAME_IN = {"pt": {"move", "total", "use"}, "el": set()}
#: the order notation: keywords quoted in refusals stay in English (they are what players type)
NOTATION = {"OBJECTIVE", "PLAY", "PLACE", "NONE", "UNREST", "SCORE", "BONUS", "RECRUIT", "MOVE", "TO", "VIA",
            "DOUBLE", "REFRESH", "LEADER", "IN", "SPECIAL", "SPECIAL-FIRST", "SPY-FIRST", "PASS", "DRAW",
            "ORGANIZE"}
#: component codes: cards C-RED-5A, leaders L-LEN, units R01 W10 N3, Opposition O2-7, connections A-RED
CODE = re.compile(r"\b(?:[A-Z]+(?:-[A-Z0-9]+)+|[A-Z]\d+(?:-\d+)?)\b")
WORD = re.compile(r"[^\W\d][\w']*")
JUNK = ("ZZZ", 99, -1, ["ZZZ"], {"k": 1}, True, None, "")


def _walk(value: Any, found: list[Any]) -> None:
    """Every message inside ``value`` (a view, a prompt...), outermost first."""
    if is_msg(value):
        found.append(value)
        return
    if isinstance(value, dict):
        for v in value.values():
            _walk(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _walk(v, found)


def _bad_orders(state: dict[str, Any], seat: str, good: dict[str, Any], rng: random.Random) -> list[Any]:
    out: list[Any] = ["not an order", {}, {"type": "PLAY"}, {"type": "OBJECTIVE", "card": "L-LEN"}]
    for key in list(good):
        for junk in rng.sample(JUNK, 3):
            bad = copy.deepcopy(good)
            bad[key] = junk
            out.append(bad)
    out.append({**good, "extra": 1})
    tokens, regions = ["R01", "W01", "N1", "L-LEN", "ZZZ"], ["RED", "WHT", "XXX"]
    out += [{**good, "bonus": b, "bonus_token": rng.choice(tokens), "bonus_to": rng.choice(regions)}
            for b in ("RECRUIT", "MOVE", "REFRESH", "DRAW", "ORGANIZE")]
    for kind in ("OBJECTIVE", "PLAY", "PLACE", "UNREST"):
        out.append({"type": kind, "card": rng.choice(["C-RED-2", "L-KOR", "L-DZE", "C-PUR-7"]),
                    "action": rng.choice(["PASS", "RECRUIT", "MOVE", "DOUBLE", "REFRESH", "LEADER", "SPY_FIRST"]),
                    "units": rng.sample(["R01", "R09", "W02", "W10"], 2),
                    "token": rng.choice(["R01", "W05", "N2", "T-RED"]),
                    "to": rng.choice(["RED", "BLU", "PUR"]), "region": rng.choice(["GRN", "BRN"]),
                    "special": True, "special_first": rng.random() < 0.5, "connection": "A-WHT", "choice": "BONUS"})
    return out


NOTATION_JUNK = ("", "PLAY", "PLAY C-RED-4", "PLAY C-RED-4 RECRUIT", "PLAY C-RED-4 FLY", "FLY", "PLAY C-RED-4 MOVE R01",
                 "PLAY C-RED-4 MOVE R01 FROM RED", "PLAY C-RED-4 PASS BONUS", "PLAY C-RED-4 PASS BONUS FLY",
                 "UNREST", "PLACE RED EXTRA", "PLAY C-RED-4 PASS !!", " ".join(["PASS"] * 50), "PLAY L-LEN LEADER IN")


def _collect() -> tuple[list[Any], list[tuple[dict[str, Any], str | None]]]:
    """Messages met over the playthroughs, and (view, seat) pairs of mid-game states."""
    found: list[Any] = []
    views: list[tuple[dict[str, Any], str | None]] = []
    for options in OPTIONS:
        for seed in SEEDS:
            rng = random.Random(seed)
            opts = {**RULES.default_options(), **options}
            seats = RULES.seats(opts)
            state = RULES.setup(opts, seats, rng)
            for step in range(400):
                owed = RULES.owed(state)
                if not owed:
                    break
                _walk(owed, found)
                orders = {}
                for seat in owed:
                    orders[seat] = RULES.random_order(state, seat, rng)
                    if step % 3 == 0:
                        for bad in _bad_orders(state, seat, orders[seat], rng):
                            try:
                                RULES.validate(state, seat, bad)
                            except IllegalOrder as exc:
                                found.append(exc.message)
                for seat in seats:
                    if seat not in owed:
                        try:
                            RULES.validate(state, seat, orders[next(iter(owed))])
                        except IllegalOrder as exc:
                            found.append(exc.message)
                if step % 5 == 0:
                    for seat in [*seats, None]:
                        view = RULES.view(state, seat)
                        _walk(view, found)
                        RULES.board_svg(view, seat, lambda m: (found.append(m), TEXT.english(m))[1])
                    if step % 15 == 0:
                        views.append((RULES.view(state, seats[0]), seats[0]))
                if step == 7:  # a default order replaces an impossible one
                    broken = {seat: {"type": "PLAY", "card": "ZZZ"} for seat in owed}
                    _state, events = RULES.resolve(state, broken, random.Random(seed))
                    _walk(events, found)
                state, events = RULES.resolve(state, orders, rng)
                _walk(events, found)
            for seat in [*seats, None]:
                view = RULES.view(state, seat)
                _walk(view, found)
                RULES.board_svg(view, seat, lambda m: (found.append(m), TEXT.english(m))[1])
            views.append((RULES.view(state, seats[0]), seats[0]))
    for text in NOTATION_JUNK:
        try:
            RULES.parse(text)
        except IllegalOrder as exc:
            found.append(exc.message)
    return found, views


@pytest.fixture(scope="module")
def collected() -> tuple[list[Any], list[tuple[dict[str, Any], str | None]]]:
    return _collect()


def _ids(message: Any, out: set[str]) -> set[str]:
    if is_msg(message):
        out.add(message["msg"])
        for v in (message.get("args") or {}).values():
            _ids(v, out)
    elif isinstance(message, dict) and "list" in message:
        for v in message["list"]:
            _ids(v, out)
    return out


def test_every_message_met_is_in_the_catalogue(collected):
    found, _views = collected
    ids: set[str] = set()
    for m in found:
        assert not isinstance(m, str), f"plain text where a message belongs: {m!r}"
        _ids(m, ids)
    missing = sorted(i for i in ids if i not in TEXT)
    assert not missing, missing
    # the playthroughs meet most of the catalogue (events, prompts, refusals, board, views)
    kinds = {i.split(".")[0] for i in ids}
    assert {"event", "prompt", "form", "field", "choice", "refuse", "unreadable", "board", "region",
            "connection", "month", "seat", "card", "leader", "why"} <= kinds


def test_template_ids_are_in_the_catalogue():
    for name in ("board.html", "private.html"):
        source = (ROOT / "templates" / "games" / SLUG / name).read_text(encoding="utf-8")
        ids = set(re.findall(r'\bt\("([a-z_.]+)"', source)) | set(re.findall(r'"msg": "([a-z_.]+)"', source))
        assert ids and not sorted(i for i in ids if i not in TEXT), name
        assert "{% trans" not in source and "_(" not in source, f"{name} uses the platform's catalogue"


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete_and_keeps_placeholders(lang):
    with open(str(PO).format(lang=lang), "rb") as fh:
        catalog = read_po(fh, locale=lang)
    seen = set()
    for message in catalog:
        if not message.id:
            continue
        seen.add(message.context)
        assert not message.fuzzy, message.context
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert strings and all(strings), f"{lang}: {message.context} is not translated"
        for s in strings:
            assert _placeholders(s) == _placeholders(english[-1]), f"{lang}: {message.context}: {s!r}"
    assert seen == set(TEXT.entries), f"{lang}: catalogue out of date: run bin/i18n"


def _english_words() -> set[str]:
    words: set[str] = set()
    proper: set[str] = set()
    for entry in TEXT.entries.values():
        for text in (entry.singular, entry.plural or ""):
            plain = WORD.findall(re.sub(r"\{\w+\}", " ", text))
            (proper if entry.id.startswith(PROPER) else words).update(w.lower().strip("'") for w in plain)
    return {w for w in words - proper - ALLOWED if len(w) >= 3}


ENGLISH = _english_words()


def _english_left(text: str, notation: bool, lang: str) -> list[str]:
    text = re.sub(r"'[^']*'|“[^”]*”", " ", text)  # values quoted from the order
    text = CODE.sub(" ", text)
    if notation:
        text = " ".join(w for w in text.split() if w.strip(".,;:()<>") not in NOTATION)
    return sorted({w for w in WORD.findall(text) if w.lower().strip("'") in ENGLISH - SAME_IN[lang]})


@pytest.mark.parametrize("lang", LANGS)
def test_messages_read_without_english(collected, lang):
    found, _views = collected
    gametext.MISSING.clear()
    bad = {}
    seen = set()
    for m in found:
        key = repr(m)
        if key in seen:
            continue
        seen.add(key)
        text = gametext.render(SLUG, m, lang)
        assert text and not re.search(r"\{[a-z_]+\}", text), (m, text)
        refusal = any(i.split(".")[0] in ("refuse", "unreadable") for i in _ids(m, set()))
        left = _english_left(text, refusal, lang)
        if left:
            bad[text] = left
    assert not gametext.MISSING
    assert not bad, "\n".join(f"{t!r}: {w}" for t, w in list(bad.items())[:30])


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms(lang):
    one = gametext.render(SLUG, {"msg": "page.cards", "args": {"n": 1}}, lang)
    two = gametext.render(SLUG, {"msg": "page.cards", "args": {"n": 2}}, lang)
    zero = gametext.render(SLUG, {"msg": "page.cards", "args": {"n": 0}}, lang)
    assert one != two and zero == two.replace("2", "0")
    assert gametext.render(SLUG, {"msg": "page.cards", "args": {"n": 1}}, "en") == "1 card"


@pytest.mark.parametrize("lang", LANGS)
def test_pages_read_without_english(collected, lang):
    """The game's page fragments (tables and board) in pt and el."""
    from tests.games.jinja_env import app_env

    env = app_env()
    _found, views = collected
    app = env._app
    for view, seat in views:
        with app.test_request_context("/", headers={"Accept-Language": lang}):
            html = app.jinja_env.get_template(f"games/{SLUG}/board.html").render(view=view, seat=seat)
            html += app.jinja_env.get_template(f"games/{SLUG}/private.html").render(view=view, seat=seat)
        text = re.sub(r"<style>.*?</style>", " ", html, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        left = _english_left(text, False, lang)
        assert not left, (lang, left, [ln for ln in text.split("\n") if any(w in ln for w in left)][:5])
