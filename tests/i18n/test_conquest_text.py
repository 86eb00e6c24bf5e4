"""WW2 Conquest speaks in message ids: every text it emits is in its catalogue, and reads in pt and el.

Seeded random games (humans, AI seats, missed deadlines, abandons, resumed command) collect
every message the engine emits: events, prompts (titles, texts, form, field and choice
labels), refusals of bad orders, the view's display strings and the board's labels.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app.games import IllegalOrder
from app.games.conquest import RULES, data
from app.games.conquest.text import TEXT
from app.games.text import is_msg
from app.i18n import gametext

LANGS = ("pt", "el")
PO = Path(__file__).resolve().parents[2] / "app" / "i18n" / "translations"
#: glossary entries that are proper names (territories, their board abbreviations, theatres)
PROPER = ("territory.", "short.", "theatre.", "title")
#: words written the same in English and in a translation
SAME_IN_BOTH = {"total"}
WORD = re.compile(r"[^\W\d_]{3,}")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

CASES = [
    ({"players": 2, "round_limit": 12}, 1, "humans"),
    ({"players": 3, "round_limit": 10, "ai_seats": 1}, 2, "timeouts"),
    ({"players": 4, "round_limit": 8, "mode": "domination", "ai_seats": 2}, 3, "humans"),
    ({"players": 6, "round_limit": 8}, 4, "abandon"),
    ({"players": 3, "round_limit": 30}, 5, "humans"),
    ({"players": 2, "round_limit": 6}, 6, "timeouts"),
    ({"players": 3, "ai_seats": 2}, 7, "humans"),
    ({"players": 4, "ai_seats": 3, "mode": "domination"}, 8, "humans"),
]
GARBAGE = ["", "xyzzy", "PLACE 3 Qqq", "ATTACK", "ATTACK GER POL REPEAT=0", "MOVE 2 GER", "TRADE c1 c2",
           "TRADE c1 c2 c3 BONUS Qqq", "PLACE 2 GER, 1 GER", "ABANDON", "ADVANCE zz", 42]


def messages(value: Any) -> Iterator[dict[str, Any]]:
    """Every message in ``value``, nested ones (arguments, lists) included."""
    if is_msg(value):
        yield value
        for arg in (value.get("args") or {}).values():
            yield from messages(arg)
    elif isinstance(value, dict):
        for v in value.values():
            yield from messages(v)
    elif isinstance(value, list):
        for v in value:
            yield from messages(v)


def _bad_orders(state: dict[str, Any], seat: str, rng: random.Random) -> Iterator[Any]:
    """Orders that break a rule in many ways (out of turn, wrong phase, foreign territory...)."""
    mine = [t for t in data.TERRITORIES if state["owner"][t] == seat]
    other = [t for t in data.TERRITORIES if state["owner"][t] != seat]
    a, b = rng.choice(mine or data.TERRITORIES), rng.choice(other or data.TERRITORIES)
    far = next((t for t in data.TERRITORIES if t not in data.NEIGHBOURS[a] and t != a), b)
    yield from [
        {"type": "PLACE", b: 1}, {"type": "PLACE", a: 999}, {"type": "PLACE", a: 0}, {"type": "PLACE", "Qq": 1},
        {"type": "TRADE", "cards": ["c1", "c2"]}, {"type": "TRADE", "cards": ["c1", "c1", "c2"]},
        {"type": "TRADE", "cards": ["c1", "c2", "zz"]}, {"type": "TRADE", "cards": ["c1", "c4", "c7"]},
        {"type": "TRADE", "cards": ["c1", "c2", "c3"], "bonus": b},
        {"type": "ATTACK", "pair": f"{a}-{b}"}, {"type": "ATTACK", "pair": f"{b}-{a}"},
        {"type": "ATTACK", "pair": f"{a}-{far}"}, {"type": "ATTACK", "pair": f"{a}-{a}"},
        {"type": "ATTACK", "pair": "GER"}, {"type": "ATTACK", "pair": f"{a}-{b}", "repeat": 0},
        {"type": "ATTACK", "pair": f"{a}-{b}", "stop": 1}, {"type": "ATTACK", "pair": f"{a}-{b}", "advance": 9},
        {"type": "ATTACK", "pair": f"{a}-{b}", "zz": 1},
        {"type": "MOVE", "pair": f"{a}-{a}", "count": 1}, {"type": "MOVE", "pair": f"{a}-{b}", "count": 1},
        {"type": "MOVE", "pair": f"{a}-{far}", "count": 1}, {"type": "MOVE", "pair": f"{a}-{b}", "count": 0},
        {"type": "MOVE", "pair": f"{a}-{b}", "count": 500},
        {"type": "ADVANCE", "count": 9}, {"type": "END_MOBILISATION"}, {"type": "END_OFFENSIVE"},
        {"type": "END_TURN"}, {"type": "AUTO"}, {"type": "RESUME"}, {"type": "ABANDON"}, {"type": "FLY"}, {}, "x",
    ]


def play(options: dict[str, Any], seed: int, style: str) -> list[dict[str, Any]]:
    """One random game; every message it emits, refusals and board labels included."""
    rng = random.Random(seed)
    seats = RULES.seats(options)
    state = RULES.setup({**RULES.default_options(), **options}, seats, rng)
    seen: list[dict[str, Any]] = []

    def refused(call: Any, *args: Any) -> None:
        try:
            call(*args)
        except IllegalOrder as exc:
            assert exc.msg is not None, f"a refusal without a message: {exc}"
            seen.append(exc.msg)

    def look(state: dict[str, Any]) -> None:
        for seat in [None, *seats]:
            view = RULES.view(state, seat)
            seen.extend(messages(view))

            def tr(text: Any) -> str:
                seen.extend(messages(text))
                return TEXT.english(text)

            RULES.board_svg(view, seat, tr)
            if seat:
                seen.extend(messages(RULES.anytime_prompt(state, seat)))

    for step in range(2500):
        if state["result"] is not None:
            break
        owed = RULES.owed(state)
        seen.extend(messages(owed))
        seat = next(iter(owed))
        if step % 25 == 0:
            look(state)
            for junk in GARBAGE:
                refused(RULES.parse, junk)
            for bad in _bad_orders(state, seat, rng):
                refused(RULES.validate, state, seat, bad)
            other = next(s for s in seats if s != seat)
            refused(RULES.validate, state, other, {"type": "END_TURN"})
            refused(RULES.validate, state, "P9", {"type": "END_TURN"})
            refused(RULES.apply_anytime, state, seat, {"type": "ABANDON"}, rng)
            refused(RULES.apply_anytime, state, seat, {"type": "RESUME"}, rng)
            refused(RULES.apply_anytime, state, seat, {"type": "END_TURN"}, rng)
        if style == "timeouts" and step % 3 == 0:
            order = RULES.default_order(state, seat, rng)
        else:
            order = RULES.random_order(state, seat, rng)
        state, events = RULES.resolve(state, {seat: order}, rng)
        seen.extend(messages(events))
        if style == "abandon" and step in (40, 90) and state["result"] is None:
            quitter = [s for s in seats if state["kind"][s] == "human" and state["status"][s] == "ACTIVE"][0]
            state, events = RULES.apply_anytime(state, quitter, {"type": "ABANDON", "confirm": True}, rng)
            seen.extend(messages(events))
        if style == "timeouts" and state["result"] is None:
            for s in seats:
                if state["status"][s] == "FULL_AUTO" and s not in state.get("resuming", []):
                    refused(RULES.apply_anytime, state, s, {"type": "ABANDON"}, rng)
                    seen.extend(messages(RULES.anytime_prompt(state, s)))
                    state, events = RULES.apply_anytime(state, s, {"type": "RESUME"}, rng)
                    seen.extend(messages(events))
                    seen.extend(messages(RULES.anytime_prompt(state, s)))
                    refused(RULES.apply_anytime, state, s, {"type": "RESUME"}, rng)
    look(state)
    refused(RULES.validate, state, seats[0], {"type": "END_TURN"})
    return seen


@pytest.fixture(scope="module")
def emitted() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for options, seed, style in CASES:
        out.extend(play(options, seed, style))
    return out


def test_every_message_the_engine_emits_is_in_the_catalogue(emitted):
    ids = {m["msg"] for m in emitted}
    assert ids - set(TEXT.entries) == set()
    # the playthroughs reach the bulk of the sentences (events, prompts, refusals, board);
    # seat names and turn labels are read by the platform (seat_name, turn_label), not emitted;
    # "page." and "rules." texts are read by the game's own templates (forms, rules summary)
    sentences = {i for i in TEXT.entries
                 if not i.startswith(("territory.", "short.", "seat.", "turn.", "page.", "rules."))}
    assert len(ids & sentences) >= 0.8 * len(sentences), sorted(sentences - ids)


def _po(lang: str):
    with open(PO / lang / "LC_MESSAGES" / "conquest.po", "rb") as fh:
        return read_po(fh, locale=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_catalogues_are_complete_with_their_placeholders(lang):
    cat = _po(lang)
    entries = {m.context: m for m in cat if m.id}
    assert set(entries) == set(TEXT.entries), "run bin/i18n: the .po and text.py differ"
    for msg_id, entry in TEXT.entries.items():
        m = entries[msg_id]
        assert not m.fuzzy, f"{lang}: {msg_id} is fuzzy"
        forms = list(m.string) if isinstance(m.string, tuple) else [m.string]
        english = [entry.singular] + ([entry.plural] if entry.plural else [])
        assert all(forms), f"{lang}: {msg_id} is not translated"
        names = set(PLACEHOLDER.findall(english[-1]))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == names, f"{lang}: {msg_id}: {form!r} changes the placeholders"


def _english_words() -> set[str]:
    """Words of the English catalogue, minus proper names and the order notation (capitals)."""
    proper = set()
    for msg_id, entry in TEXT.entries.items():
        if msg_id.startswith(PROPER):
            proper |= {w.lower() for w in WORD.findall(entry.singular)}
    words = set()
    for entry in TEXT.entries.values():
        for text in (entry.singular, entry.plural or ""):
            words |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text)) if not w.isupper()}
    return words - proper - SAME_IN_BOTH


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_word_in_a_translated_game(emitted, lang):
    english = _english_words()
    assert {"armies", "attacks", "territory", "turn"} <= english
    gametext.MISSING.clear()
    leaks: dict[str, str] = {}
    unique = {repr(m): m for m in emitted}
    for msg_id, entry in TEXT.entries.items():  # and every entry, reached by the games or not
        names = PLACEHOLDER.findall(entry.singular + (entry.plural or ""))
        for n in (1, 2):
            unique[f"{msg_id}/{n}"] = {"msg": msg_id, "args": {k: n if k == entry.count else "X" for k in names}}
    for m in unique.values():
        text = gametext.render("conquest", m, lang)
        assert text.strip() and text != m["msg"]
        for word in WORD.findall(text):
            if not word.isupper() and word.lower() in english:
                leaks.setdefault(word, text)
    assert not [k for k in gametext.MISSING if k[0] == "conquest"]
    assert not leaks, "\n".join(f"{w}: {t}" for w, t in sorted(leaks.items())[:30])


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_no_seat_code_in_what_a_player_reads(emitted, lang):
    """Events, prompts and refusals name a commander as the page does ("Διοικητής 3"), never "P3";
    only the refusal of an unknown seat repeats the code it was sent."""
    word = {"en": "Commander", "pt": "Comandante", "el": "Διοικητής"}[lang]
    named = 0
    for m in {repr(m): m for m in emitted if m["msg"] != "refuse.unknown_seat"}.values():
        text = gametext.render("conquest", m, lang)
        assert not re.search(r"\bP\d\b", text), f"{m['msg']}: {text}"
        named += word in text
    assert named > 100


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_reads_in_the_readers_language(lang):
    rng = random.Random(3)
    options = {**RULES.default_options(), "players": 6}
    state = RULES.setup(options, RULES.seats(options), rng)
    svg = RULES.board_svg(RULES.view(state, "P1"), "P1", lambda m: gametext.render("conquest", m, lang))
    english = _english_words()
    labels = re.findall(r">([^<>]+)</(?:text|title)>", svg) + re.findall(r'aria-label="([^"]+)"', svg)
    assert labels
    leaks = [t for t in labels for w in WORD.findall(t) if not w.isupper() and w.lower() in english]
    assert not leaks, leaks[:10]
    assert "Moscovo" in svg if lang == "pt" else "Μόσχα" in svg


def test_plural_forms_in_european_portuguese_and_greek():
    from app.games.text import msg

    assert gametext.render("conquest", msg("armies", n=1), "pt") == "1 exército"
    assert gametext.render("conquest", msg("armies", n=0), "pt") == "0 exércitos"
    assert gametext.render("conquest", msg("armies", n=2), "el") == "2 στρατοί"
    assert gametext.render("conquest", msg("armies", n=1), "en") == "1 army"


def test_the_glossary_names_every_thing_of_the_game():
    """Territories (the notation's English names too), theatres, colours and card symbols."""
    from app.games.text import name

    for t in data.TERRITORIES:
        assert TEXT.english(name("territory", t)) == data.NAME[t]
    keys = [("theatre", h) for h in data.THEATRES] + [("colour", c) for c in data.COLOURS]
    keys += [("symbol", s) for s in set(data.CARD_SYMBOL.values())]
    keys += [("phase", p) for p in ("MOBILISATION", "OFFENSIVE", "REGROUP", "ENDED")]
    for kind, key in keys:
        assert f"{kind}.{key}" in TEXT


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_templates_read_in_the_readers_language(lang):
    """The board and private fragments (page and report) of a running and a finished game."""
    from flask_babel import force_locale

    from app.games.driver import play_random
    from tests.games.jinja_env import app_env

    app = app_env()._app  # noqa: SLF001 (the application behind the test templates)
    english = _english_words()
    for steps in (120, 20000):
        state = play_random(RULES, {"players": 4, "round_limit": 20}, "look", max_steps=steps).state
        seat = state["current"]
        view = RULES.view(state, seat)
        with app.app_context(), app.test_request_context(), force_locale(lang):
            page = "".join(app.jinja_env.get_template(f"games/conquest/{t}").render(view=view, seat=seat)
                           for t in ("board.html", "private.html"))
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", " ", page, flags=re.S))
        leaks = {w for w in WORD.findall(text) if not w.isupper() and w.lower() in english}
        assert not leaks, sorted(leaks)
        if lang == "el":  # Greek script throughout: a Latin word with lower case is English left over
            assert not {w for w in re.findall(r"\b[A-Za-z]{3,}\b", text) if not w.isupper()}
