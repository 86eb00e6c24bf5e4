"""Game text in the reader's language: a game's messages through its own gettext domain.

Each game's catalogue (``app/games/<slug>/text.py``) holds the English; every other
language is ``translations/<lang>/LC_MESSAGES/<slug>.po`` (compiled ``.mo`` beside
it), with the message id as the gettext context. ``bin/i18n`` extracts, updates and
compiles every domain.

A message that a language does not translate reads in English (that message only);
an id that the game's catalogue does not hold is reported to :data:`MISSING` (the
tests fail on it) and renders its parameters only, never the raw id.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from babel.lists import format_list
from babel.support import NullTranslations, Translations

from app.games import get_rules
from app.games.text import EMPTY, Catalogue, english_list, is_msg
from app.i18n.lang import TRANSLATIONS

log = logging.getLogger(__name__)

MISSING: set[tuple[str, str]] = set()
"""(game, message id) pairs met while rendering that the game's catalogue lacks."""
#: how many missing ids ``MISSING`` keeps (and logs) at most in one process
MAX_MISSING = 1000


def catalogue(slug: str) -> Catalogue:
    try:
        return get_rules(slug).text
    except LookupError:
        return EMPTY


@lru_cache(maxsize=64)
def translations(slug: str, lang: str) -> NullTranslations:
    """The compiled catalogue of game ``slug`` in ``lang`` (English: none)."""
    if lang == "en" or not slug:
        return NullTranslations()
    return Translations.load(TRANSLATIONS, [lang], domain=slug)


def turn_label(slug: str, turn_key: str) -> Any:
    """The game's label for ``turn_key`` (a message), else the key itself."""
    try:
        return get_rules(slug).turn_label(turn_key)
    except LookupError:
        return turn_key


def is_game_text(value: object) -> bool:
    """A message, a list argument or a platform notice (not a plain string)."""
    return is_msg(value) or (isinstance(value, dict) and ("list" in value or "platform" in value or "parts" in value))


def render(slug: str, text: Any, lang: str) -> str:
    """``text`` (a message, a list, or a plain string) in ``lang``."""
    if isinstance(text, str):
        return text
    if isinstance(text, dict) and isinstance(text.get("parts"), list):  # an order in words (notices.order_words)
        return " · ".join(render(slug, part, lang) for part in text["parts"])
    cat = catalogue(slug)
    trans = translations(slug, lang)

    def missing(msg_id: str) -> None:
        # a message id may come from a request (a GM's seat field): kept short, and the set bounded
        msg_id = msg_id[:80]
        if (slug, msg_id) not in MISSING and len(MISSING) < MAX_MISSING:
            log.warning("game %s: no message %r in its catalogue", slug, msg_id)
            MISSING.add((slug, msg_id))

    def join(items: list[str]) -> str:
        if lang == "en":
            return english_list(items)
        return format_list(items, locale=lang) if items else ""

    if isinstance(text, dict) and isinstance(text.get("platform"), str):
        return _notice(slug, cat, text, lang, trans, join, missing)
    return cat.render(text, trans.pgettext, trans.npgettext, join, missing)


def _notice(slug: str, cat: Catalogue, text: dict[str, Any], lang: str, trans: NullTranslations,
            join: Callable[[list[str]], str], missing: Callable[[str], None]) -> str:
    """A platform notice (``app.notices``): the platform's template, the game's names."""
    english = text["platform"]
    template = translations("messages", lang).gettext(english) if lang != "en" else english

    def one(v: Any) -> Any:
        if isinstance(v, int | float) and not isinstance(v, bool):
            return v
        if isinstance(v, dict) and isinstance(v.get("parts"), list):
            return render(slug, v, lang)
        return cat.render(v, trans.pgettext, trans.npgettext, join, missing)

    args = {k: one(v) for k, v in (text.get("args") or {}).items()}
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError):
        return english.format(**args)
