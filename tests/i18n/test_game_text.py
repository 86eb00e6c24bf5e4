"""Game text is translated at the edge: every message pattern of the engines has a catalogue entry.

The engines' source is scanned (``app.i18n.scan``) for ``IllegalOrder``/``InvalidOrder``
messages and the ``text``/``title``/``label``/``help`` strings of events and prompts;
each shape must match a template of ``app/i18n/catalog/<slug>.py``.  ``KNOWN_MISSING``
lists what is not translated yet, per game: it may only shrink.
"""

from __future__ import annotations

import ast
import os
import re

import pytest

from app.i18n.games import catalog, translate_game_text
from app.i18n.scan import engine_messages, shape_of

#: games still translated through a regular-expression catalogue (dual_powers speaks in message
#: ids: tests/i18n/test_dual_powers_text.py)
GAMES: tuple[str, ...] = ()  # every game speaks in message ids: tests/i18n/test_<slug>_text.py
#: how many engine messages of each game have no catalogue entry yet (may only go down)
KNOWN_MISSING: dict[str, int] = {}


def _shapes(slug: str) -> set[str]:
    cat = catalog(slug)
    out = {shape_of(en) for en in cat.exact}
    out |= {shape_of(_template_of(regex.pattern)) for regex, _tr in cat.patterns}
    return out


def _template_of(pattern: str) -> str:
    text = re.sub(r"\(\?P<(\w+)>\.\*\?\)", r"{\1}", pattern)
    text = re.sub(r"\(\?P=(\w+)\)", r"{\1}", text)
    return re.sub(r"\\(.)", r"\1", text)


def missing(slug: str) -> list[str]:
    have = _shapes(slug)
    return sorted(s for s in engine_messages(slug) if s not in have)


@pytest.mark.parametrize("slug", GAMES)
def test_engine_messages_have_catalogue_entries(slug):
    gaps = missing(slug)
    assert len(gaps) <= KNOWN_MISSING[slug], (
        f"{slug}: {len(gaps)} engine messages without a catalogue entry (allowed {KNOWN_MISSING[slug]}):\n"
        + "\n".join(gaps))
    if len(gaps) < KNOWN_MISSING[slug]:
        pytest.fail(f"{slug}: only {len(gaps)} missing now: lower KNOWN_MISSING[{slug!r}] to {len(gaps)}")


@pytest.mark.parametrize("slug", GAMES)
def test_catalogue_entries_are_complete(slug):
    cat = catalog(slug)
    for en, tr in list(cat.exact.items()) + [(_template_of(r.pattern), tr) for r, tr in cat.patterns]:
        assert len(tr) == 2 and all(tr), f"{slug}: {en!r} lacks a translation"
        names = set(re.findall(r"\{(\w+)\}", en))
        for t in tr:
            assert set(re.findall(r"\{(\w+)\}", t)) == names, f"{slug}: placeholders differ in {t!r}"


def test_engines_do_not_import_flask_or_babel():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "app", "games")
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                for node in ast.walk(tree):
                    mods = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                        [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                    for mod in mods:
                        assert not mod.split(".")[0] in ("flask", "flask_babel", "babel"), f"{name} imports {mod}"


def test_unknown_text_stays_english():
    assert translate_game_text("dual_powers", "Something new happens.", "pt") == "Something new happens."
    assert translate_game_text("no_such_game", "The game is over.", "el") == "The game is over."


@pytest.mark.parametrize(("slug", "seed", "options"), [
    ("conquest", 1, {}), ("conquest", 2, {}), ("duel", 1, {}), ("duel", 2, {}), ("empire", 1, {}), ("empire", 2, {}),
])
def test_real_games_are_translated(slug, seed, options):
    """Play random games: every event, prompt title, text and form label has a Greek translation."""
    import random

    from app.games import get_rules

    rules = get_rules(slug)
    rng = random.Random(seed)
    opts = {**rules.default_options(), **options}
    state = rules.setup(opts, rules.seats(opts), rng)
    untranslated = set()

    def check(text):
        if text and isinstance(text, str) and translate_game_text(slug, text, "el") == text:
            untranslated.add(text)

    for _ in range(300):
        owed = rules.owed(state)
        if not owed:
            break
        for prompt in owed.values():
            check(prompt.get("title"))
            check(prompt.get("text"))
            for form in prompt.get("forms") or []:
                check(form.get("label"))
                for field in form.get("fields") or []:
                    check(field.get("label"))
                    check(field.get("help"))
                    for choice in field.get("choices") or []:
                        check(choice.get("label"))
        orders = {seat: rules.random_order(state, seat, rng) for seat in owed}
        state, events = rules.resolve(state, orders, rng)
        for event in events:
            check(event["text"])
    # codes (SOV-RED-2, R01, c12 ...) stay as they are; every sentence with words is translated
    words = {t for t in untranslated if re.search(r"[a-z]{3,}", t)}
    assert not words, "\n".join(sorted(words)[:40])


@pytest.mark.parametrize("slug", GAMES)
def test_board_svg_text_is_translated(slug):
    """The text drawn on each game's board (SVG) has Greek for every word-bearing label."""
    import random

    from app.games import get_rules
    from app.i18n.games import translate_svg

    rules = get_rules(slug)
    rng = random.Random(1)
    opts = rules.default_options()
    state = rules.setup(opts, rules.seats(opts), rng)
    seat = rules.seats(opts)[0]
    for _ in range(6):
        owed = rules.owed(state)
        if not owed:
            break
        state, _events = rules.resolve(state, {s: rules.random_order(state, s, rng) for s in owed}, rng)
    svg = translate_svg(slug, rules.board_svg(rules.view(state, seat), seat), "el")
    texts = re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    english = [t for t in texts if re.search(r"\b[a-z]{4,}\b", t) and not re.search(r"[\u0370-\u03ff]", t)]
    allowed = KNOWN_SVG_ENGLISH.get(slug, set())
    assert not [t for t in english if re.sub(r"\d+", "#", t) not in allowed], english


#: board labels still in English (proper names and legends not yet in the catalogues)
KNOWN_SVG_ENGLISH = {
    "conquest": {"G = P# Grey  K = P# Black  R = P# Red  C = P# Ochre   — land  - - sea  ·· air  ≈ map edge  ■ = # armies",
                 "O = P# Olive  G = P# Grey  K = P# Black  R = P# Red  C = P# Ochre  B = P# Blue   — land  - - sea  ·· air  "
                 "≈ map edge  ■ = # armies"},
    "empire": {"# Bluehold", "# Eastgold", "# Eastmarch", "# Eastquarry", "# Eastwood", "# Greenhold", "# Redhold",
               "# Westgold", "# Westmarch", "# Westquarry", "# Westwood", "# Yellowhold"},
}


@pytest.mark.parametrize(("text", "pt"), [
    ("Your order is on file. Receipt: 3f2a", "A sua ordem está registada. Recibo: 3f2a"),
    ("the absence must end after it starts", "a ausência tem de terminar depois de começar"),
    # dual_powers speaks in message ids: the parser's reason reaches the page as English text until the
    # platform keeps the refusal's message for unreadable orders (app/turns/intake.py, app/web/play.py)
    pytest.param("That order cannot be read: The order is empty.", "Não é possível ler essa ordem: A ordem está vazia.",
                 marks=pytest.mark.xfail(strict=True, reason="unreadable orders reach the page as English text")),
])
def test_platform_messages_raised_elsewhere_are_translated_where_shown(text, pt):
    assert translate_game_text("dual_powers", text, "pt") == pt
    assert re.search(r"[\u0370-\u03ff]", translate_game_text("dual_powers", text, "el"))


def test_common_catalogue_is_complete():
    from app.i18n.catalog import common

    for en, tr in common.MESSAGES.items():
        assert len(tr) == 2 and all(tr), en
        for t in tr:
            assert set(re.findall(r"\{(\w+)\}", t)) == set(re.findall(r"\{(\w+)\}", en)), t
