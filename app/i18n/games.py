"""Game text at the edge: the engines speak English; players read their own language.

``translate_game_text(slug, text, lang)`` looks ``text`` up in the game's
catalogue (``app/i18n/catalog/<slug>.py``): an exact message or glossary term
first, then the message templates ("{a} is not adjacent to {b}."), compiled to
regular expressions whose captured values (regions, cards, phases...) are
translated through the glossary and the templates again.  Text that nothing
matches is returned unchanged (English), never dropped.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from html import escape, unescape
from typing import Any

from app.i18n.lang import current_language

LANGS = ("pt", "el")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_MAX_DEPTH = 4


class Catalog:
    def __init__(self, messages: dict[str, tuple[str, str]], terms: dict[str, tuple[str, str]]) -> None:
        self.exact: dict[str, tuple[str, str]] = {}
        self.patterns: list[tuple[re.Pattern[str], tuple[str, str]]] = []
        literal: dict[str, int] = {}
        self.needles: dict[str, str] = {}
        for en, tr in {**terms, **messages}.items():
            if _PLACEHOLDER.search(en):
                regex = _compile(en)
                literal[regex.pattern] = len(_PLACEHOLDER.sub("", en))
                # a cheap test before the regular expression: its longest literal piece
                self.needles[regex.pattern] = max(_PLACEHOLDER.split(en)[::2], key=len)
                self.patterns.append((regex, tr))
            else:
                self.exact[en] = tr
        # the most specific template (most literal text) wins
        self.patterns.sort(key=lambda p: -literal[p[0].pattern])

    def translate(self, text: str, lang: str, depth: int = 0) -> str | None:
        i = LANGS.index(lang)
        if text in self.exact:
            return self.exact[text][i]
        if depth >= _MAX_DEPTH:
            return None
        for regex, tr in self.patterns:
            if self.needles[regex.pattern] not in text:
                continue
            m = regex.fullmatch(text)
            if m:
                values = {k: self.value(v, lang, depth + 1) for k, v in m.groupdict().items()}
                return _PLACEHOLDER.sub(lambda g: values.get(g.group(1), g.group(0)), tr[i])
        return None

    def value(self, value: str, lang: str, depth: int) -> str:
        """A captured value: a term, a message, or a list of them; else unchanged."""
        if not value or value.lstrip("+-").isdigit():
            return value
        found = self.translate(value, lang, depth)
        if found is not None:
            return found
        if ", " in value:
            return ", ".join(self.value(part, lang, depth) for part in value.split(", "))
        return value


def _compile(template: str) -> re.Pattern[str]:
    out, pos, seen = [], 0, set()
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        if name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>.*?)")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.DOTALL)


@lru_cache(maxsize=None)
def catalog(slug: str) -> Catalog:
    """The catalogue of one game (with the shared one); empty for a game without one."""
    messages: dict[str, Any] = {}
    terms: dict[str, Any] = {}
    for name in ("common", slug):
        if not re.fullmatch(r"[a-z0-9_]+", name or ""):
            continue
        try:
            mod = importlib.import_module(f"app.i18n.catalog.{name}")
        except ModuleNotFoundError:
            continue
        messages.update(mod.MESSAGES)  # every catalogue module defines both (empty when it has none)
        terms.update(mod.TERMS)
    return Catalog(messages, terms)


@lru_cache(maxsize=8192)
def translate_game_text(slug: str, text: str, lang: str) -> str:
    """``text`` (a game's English) in ``lang`` (en, pt, el); unchanged when not in the catalogue."""
    if not text or lang not in LANGS:
        return text
    found = catalog(slug).translate(text, lang)
    return text if found is None else found


def covers(slug: str, text: str) -> bool:
    """Whether the catalogue of ``slug`` has a translation for ``text`` (tests)."""
    return catalog(slug).translate(text, "pt") is not None


_SVG_TEXT = re.compile(r"(<text\b[^>]*>)([^<]*)(</text>)")


def translate_svg(slug: str, svg: str, lang: str | None = None) -> str:
    """A game's SVG board with the text of its ``<text>`` elements in ``lang`` (default: current)."""
    if lang is None:
        lang = current_language()
    if lang not in LANGS:
        return svg
    def one(m: re.Match[str]) -> str:
        text = unescape(m.group(2))
        return m.group(1) + escape(translate_game_text(slug, text, lang), quote=False) + m.group(3)

    return _SVG_TEXT.sub(one, svg)
