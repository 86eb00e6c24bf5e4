"""The JSON API's game text: every message in a view, prompt or event rendered as a string.

Engines speak in message ids (``{"msg": id, "args": {...}}``, ``{"list": [...]}``, platform
notices ``{"platform": template, "args": {...}}``; see ``app.games.text``).  A client of the
API reads them already rendered in the player's language, as the pages show them.  Machine
values stay as they are: ids, numbers, a choice's ``value``, a form's ``base`` (the constant
part of the order) and the notation ``example``.
"""

from __future__ import annotations

from typing import Any

from app.i18n import game_text_filter, gametext

#: Keys whose values are data for a program, never text to translate.
MACHINE_KEYS = frozenset({"value", "base", "example", "name", "type", "kind", "seat", "id"})
#: Prompt keys that hold words for the player (older games write them as English strings).
PROMPT_TEXT_KEYS = frozenset({"title", "text", "label"})


def _is_text(value: Any) -> bool:
    """A message, a list argument or a platform notice (and nothing else in that dict)."""
    if not isinstance(value, dict):
        return False
    keys = set(value)
    if isinstance(value.get("msg"), str):
        return keys <= {"msg", "args"}
    if isinstance(value.get("platform"), str):
        return keys <= {"platform", "args"}
    return keys == {"list"} and isinstance(value["list"], list)


def render(slug: str, data: Any, lang: str) -> Any:
    """``data`` with every message rendered in ``lang``; everything else unchanged."""
    if _is_text(data):
        return gametext.render(slug, data, lang)
    if isinstance(data, dict):
        return {k: (v if k in MACHINE_KEYS and not _is_text(v) else render(slug, v, lang)) for k, v in data.items()}
    if isinstance(data, list):
        return [render(slug, x, lang) for x in data]
    return data


def render_prompt(slug: str, prompt: dict[str, Any] | None) -> dict[str, Any] | None:
    """A prompt as a client reads it: its words in the current language (as on the page), its values as they are.

    Call inside the player's locale (``app.i18n.player_locale``).
    """
    if prompt is None:
        return None
    rendered: dict[str, Any] = _prompt_part(slug, prompt)
    return rendered


def _prompt_part(slug: str, data: Any) -> Any:
    if isinstance(data, dict) and not _is_text(data):
        out: dict[str, Any] = {}
        for k, v in data.items():
            if k in MACHINE_KEYS and not _is_text(v):
                out[k] = v
            elif k in PROMPT_TEXT_KEYS and (isinstance(v, str) or _is_text(v)):
                out[k] = game_text_filter(v, slug)
            else:
                out[k] = _prompt_part(slug, v)
        return out
    if isinstance(data, list):
        return [_prompt_part(slug, x) for x in data]
    if _is_text(data):
        return game_text_filter(data, slug)
    return data
