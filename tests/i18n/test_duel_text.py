"""Dorfromantik: The Duel speaks in message ids: every one is in its catalogue, translated
in pt and el, and a Portuguese or Greek reader meets no English word of the game.

Random games (several seeds) collect every message the engine emits: events, prompts
(title, text, form, field and choice labels), refusals of random bad orders, the views'
display strings and the board's labels; the duel pages are rendered in pt and el too.
"""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app.games import get_rules
from app.games.base import IllegalOrder
from app.games.duel.geometry import frontier
from app.games.duel.placement import grid_of
from app.games.duel.text import TEXT
from app.games.text import is_msg
from app.i18n.gametext import MISSING, render

RULES = get_rules("duel")
LANGS = ("pt", "el")
PO = os.path.join(os.path.dirname(__file__), "..", "..", "app", "i18n", "translations", "{lang}", "LC_MESSAGES",
                  "duel.po")
SEEDS = (1, 2, 3, 4)
#: kinds of glossary entries: names of things (ids ``kind.key``)
GLOSSARY = ("title", "seat", "terrain", "edge", "network", "task", "marker", "abbr", "flag", "dir")
#: words spelt the same in English and Portuguese ("no" is also the abbreviation of noroeste)
SAME = {"no", "total", "subtotal", "final"}
#: the order notation stays as it is in every language (``PLACE L17 2 -1 3``, ``turn=7``, ``PASS``)
NOTATION = re.compile(r"\bPLACE\b|\bPASS\b|\bturn=\d+")
WORD = re.compile(r"[^\W\d_]{2,}")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _messages(value: Any, out: list[dict[str, Any]]) -> None:
    """Every message inside ``value`` (the outer ones; nested ones are rendered with them)."""
    if is_msg(value):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _messages(v, out)
    elif isinstance(value, list):
        for v in value:
            _messages(v, out)


def _ids(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        if is_msg(value):
            out.add(value["msg"])
        for v in value.values():
            _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)


def _bad_orders(state: dict[str, Any], seat: str, rng: random.Random) -> list[Any]:
    cur = state["current"]
    tile = cur["tile"]
    cells = frontier(grid_of(state["areas"][seat])) or [(0, 0)]
    occupied = list(state["areas"][seat]["cells"]) or ["5,5"]
    out: list[Any] = [
        {"type": "PASS"},
        {"type": "PLACE", "tile": "L99" if tile != "L99" else "L98", "position": "0,0", "rotation": 0},
        {"type": "PLACE", "tile": tile, "position": "0,0", "rotation": 9},
        {"type": "PLACE", "tile": tile, "position": "500,0", "rotation": 0},
        {"type": "PLACE", "tile": tile, "position": rng.choice(occupied), "rotation": 0},
        {"type": "PLACE", "tile": tile, "position": "40,40", "rotation": 0},
        {"type": "PLACE", "tile": tile, "position": "1,1", "rotation": 0, "turn": state["turn"] + 3},
        {"type": "JUMP"},
        "PLACE",
    ]
    for _ in range(12):
        q, r = rng.choice(cells)
        out.append({"type": "PLACE", "tile": tile, "position": f"{q},{r}", "rotation": rng.randrange(6)})
    return out


def _collect() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(messages met in random games, views met); refusals are checked to carry a message."""
    found: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    for seed in SEEDS:
        rng = random.Random(seed)
        options = {**RULES.default_options(), **({"forfeit_after": 2} if seed == 4 else {})}
        state = RULES.setup(options, RULES.seats(options), rng)
        for step in range(80):
            owed = RULES.owed(state)
            if not owed:
                break
            _messages(owed, found)
            for seat in RULES.seats(options):
                if step % 9 == 0:
                    views.append(RULES.view(state, seat))
                for junk in _bad_orders(state, seat, rng) if seat in owed or step % 5 == 0 else []:
                    try:
                        RULES.validate(state, seat, junk)
                    except IllegalOrder as exc:
                        assert exc.msg is not None, f"a refusal without a message: {exc}"
                        found.append(exc.msg)
            for text in ("PLACE L17 2 -1", "PLACE L17 a b c", "PASS turn=x", "", "HELLO", "PLACE L17 1 1 1 1"):
                try:
                    RULES.parse(text)
                except IllegalOrder as exc:
                    assert exc.msg is not None, f"a refusal without a message: {exc}"
                    found.append(exc.msg)
            # seed 4 lets one seat miss its deadlines (automatic placements until it forfeits)
            orders = {s: (RULES.default_order(state, s, rng) if seed == 4 and s == "RED"
                          else RULES.random_order(state, s, rng)) for s in owed}
            state, events = RULES.resolve(state, orders, rng)
            for event in events:
                assert is_msg(event["text"]), f"an event in plain text: {event['text']!r}"
                _messages(event["text"], found)
        views.append(RULES.view(state, None))
        for seat in RULES.seats(options):
            views.append(RULES.view(state, seat))
    for view in views:
        _messages(view, found)
    return found, views


@pytest.fixture(scope="module")
def met() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return _collect()


def _english_words() -> set[str]:
    """Words of the game's English catalogue that are not names from its glossary."""
    names: set[str] = set()
    words: set[str] = set()
    for entry in TEXT.entries.values():
        text = PLACEHOLDER.sub(" ", entry.singular + " " + (entry.plural or ""))
        bag = names if entry.id.split(".")[0] in GLOSSARY else words
        bag.update(w.lower() for w in WORD.findall(NOTATION.sub(" ", text)))
    return words - names - SAME


ENGLISH = _english_words()


def _english_in(text: str) -> set[str]:
    return {w for w in WORD.findall(NOTATION.sub(" ", text)) if w.lower() in ENGLISH}


def test_every_message_the_engine_emits_is_in_the_catalogue(met):
    found, _views = met
    ids: set[str] = set()
    _ids(found, ids)
    assert not ids - set(TEXT.entries), sorted(ids - set(TEXT.entries))
    # the playthroughs meet the events, refusals and labels of every kind
    for wanted in ("event.reveal_marker", "event.place", "event.completed", "event.status", "event.over",
                   "event.forfeit", "prompt.place.title_marker", "choice.position", "choice.rotation_named",
                   "refuse.wrong_tile", "refuse.bad_rotation", "refuse.bad_coord", "refuse.occupied",
                   "refuse.pass_not_allowed_example", "refuse.turn_closed", "refuse.bad_order",
                   "refuse.not_adjacent", "now.tiles", "tile.task"):
        assert wanted in ids, wanted


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_is_translated_whole(lang):
    with open(PO.format(lang=lang), "rb") as fh:
        cat = read_po(fh, locale=lang)
    seen = set()
    for m in cat:
        if not m.id:
            continue
        seen.add(m.context)
        assert not m.fuzzy, f"{lang}: {m.context} is fuzzy"
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), f"{lang}: {m.context} is not translated"
        want = set(PLACEHOLDER.findall(" ".join(ids)))
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) == want, f"{lang}: {m.context}: placeholders differ in {s!r}"
    assert seen == set(TEXT.entries), sorted(seen ^ set(TEXT.entries))


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_word_in_a_translated_message(met, lang):
    found, _views = met
    MISSING.clear()
    english = {}
    for message in found:
        text = render("duel", message, lang)
        assert text and "{" not in text, (message, text)
        words = _english_in(text)
        if words:
            english[text] = words
    assert not MISSING
    assert not english, "\n".join(f"{t!r}: {sorted(w)}" for t, w in list(english.items())[:20])
    # every glossary entry and message renders too (plural forms with several counts)
    for entry in TEXT.entries.values():
        args = {k: 2 for k in PLACEHOLDER.findall(entry.singular + (entry.plural or ""))}
        for n in (0, 1, 2, 5):
            text = render("duel", {"msg": entry.id, "args": {**args, entry.count: n}}, lang)
            assert not _english_in(text), (entry.id, text)


@pytest.mark.parametrize("lang", LANGS)
def test_board_and_pages_read_in_the_language(met, lang):
    from flask_babel import force_locale

    from tests.games.jinja_env import app_env

    _found, views = met
    env = app_env()
    view = next(v for v in views if v["seat"] == "RED" and v["candidates"] and v["areas"]["RED"]["active"])

    def tr(message: Any) -> str:
        return render("duel", message, lang)

    svg = RULES.board_svg(view, "RED", tr)
    labels = " ".join(re.findall(r"<text\b[^>]*>([^<]*)</text>", svg) + re.findall(r'aria-label="([^"]*)"', svg))
    assert not _english_in(labels), sorted(_english_in(labels))
    choices = [{"value": c["position"], "label": c["label"]} for c in view["candidates"]]
    state_prompt = {"forms": [{"label": {"msg": "form.place"}, "base": {}, "fields": [
        {"name": "position", "label": {"msg": "field.position"}, "choices": choices},
        {"name": "rotation", "label": {"msg": "field.rotation"}, "choices": []}]}], "example": "PLACE L01 0 0 0"}
    final = next(v for v in reversed(views) if v["over"])
    app = env._app
    with app.test_request_context("/"), force_locale(lang):
        pages = [
            app.jinja_env.get_template("games/duel/board.html").render(view=view, seat="RED"),
            app.jinja_env.get_template("games/duel/board.html").render(view=final, seat=None),
            app.jinja_env.get_template("games/duel/private.html").render(view=view, seat="RED"),
            app.jinja_env.get_template("games/duel/form.html").render(
                prompt=state_prompt, form_index=0, values={}, view=view, seat="RED", csrf_field=""),
        ]
    for page in pages:
        text = re.sub(r"<style>.*?</style>|<script>.*?</script>", " ", page, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        assert not _english_in(text), (sorted(_english_in(text)), text[:2000])
    assert ("Turno" if lang == "pt" else "Γύρος") in pages[0]
