"""Languages: English (the source), Portuguese and Greek.

Flask-Babel picks the language of each render:

- a player's own pages (``/p/<token>``, ``/me/<token>``) use the player's
  ``Player.language``; a ``lang`` query parameter (as on an invitation link)
  overrides it for that page only;
- every other page uses the best match of ``Accept-Language`` (default English);
- mails and PDF reports are rendered outside the player's request, inside
  ``with player_locale(language):``.

Game text (events, prompts, refusals, board labels) is message ids with parameters;
each game's English is written once in ``app/games/<slug>/text.py`` and every other
language is a gettext catalogue of the game's own domain (``app.i18n.gametext``, the
``game_text`` filter in templates). Platform notices and refusals are the platform's
messages (``app.notices``).

Catalogues (``translations/<lang>/LC_MESSAGES/<domain>.po``, compiled ``.mo``
committed beside them; domain ``messages`` for the platform, the slug for a game) are
kept up to date with ``bin/i18n``, which runs::

    pybabel extract -F app/i18n/babel.cfg -k N_ -k lazy_gettext --no-location \
        --sort-output -o app/i18n/messages.pot .
    pybabel update -i app/i18n/messages.pot -d app/i18n/translations --no-location
    # translate the new entries (tests/i18n fails while one is empty), then
    pybabel compile -d app/i18n/translations
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, force_locale, gettext, lazy_gettext, ngettext

from app.games import get_rules
from app.games.text import name
from app.i18n import gametext
from app.i18n.lang import DEFAULT, LANGUAGE_NAMES, LANGUAGES, TRANSLATIONS, current_language, normalize

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "DEFAULT", "current_language", "normalize", "gettext", "lazy_gettext",
           "ngettext", "player_locale", "init_app", "game_title_filter", "turn_label_filter", "seat_name_filter"]



@contextlib.contextmanager
def player_locale(language: str | None) -> Iterator[str]:
    """Render mails and reports in a player's language (outside that player's request)."""
    lang = normalize(language)
    with force_locale(lang):
        yield lang


def _player_language() -> str | None:
    """The language of the player whose page this is (set by ``app.web.language`` before the request)."""
    return g.get("player_language")


def select_locale() -> str:
    if not has_request_context():
        return DEFAULT
    asked = (request.args.get("lang") or "").strip().lower()
    if asked in LANGUAGES:
        return asked
    mine = _player_language()
    if mine:
        return mine
    kept = (request.cookies.get("lang") or "").strip().lower()
    if kept in LANGUAGES:
        return kept
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def game_text_filter(text: Any, slug: str | None = None) -> str:
    """Jinja filter: a game's message (id and parameters) or a platform message in the current language.

    A plain string is a name, a number or notation, shown as it is.
    """
    if text is None:
        return ""
    if gametext.is_game_text(text):
        return gametext.render(slug or "", text, current_language())
    return str(text)


def seat_name_filter(seat: Any, slug: str | None = None, state: Any = None) -> str:
    """Jinja filter: a seat as the game names it in the current language ("RED" -> "Vermelho").

    With the game's ``state``, a game whose seats take their names from it (``seat_label``: Empire's
    colours, dealt at setup) names the seat as its board does ("VERDE (Jogador 3)")."""
    if not seat:
        return ""
    label = getattr(get_rules(slug), "seat_label", None) if slug and state is not None else None
    if label is not None:
        try:
            return gametext.render(slug or "", label(state, str(seat)), current_language())
        except (KeyError, TypeError, ValueError):  # not one of the game's seats: named as any other text
            pass
    return gametext.render(slug or "", name("seat", str(seat)), current_language())


def report_seat_filter(ctx: Any, seat: Any = None) -> str:
    """Jinja filter: the seat a report or mail context (``notify.report_context``) is for, or another ``seat``
    it names, as the board names it (its ``seat_name`` and ``seat_names``; a context stored before it had
    them: the game's plain seat name)."""
    slug = ctx["game"]["slug"]
    if seat is None or seat == ctx["seat"]:
        seat, named = ctx["seat"], ctx.get("seat_name")
    else:
        named = (ctx.get("seat_names") or {}).get(seat)
    if named:
        return gametext.render(slug, named, current_language())
    return seat_name_filter(seat, slug)


def game_title_filter(title: Any, slug: str | None = None) -> str:
    """Jinja filter: a game's title ("WW2 Conquest") from its catalogue (id ``title``) in the
    current language; the stored title when the game has none."""
    if slug and "title" in gametext.catalogue(slug).entries:
        return gametext.render(slug, {"msg": "title"}, current_language())
    return str(title or "")


def turn_label_filter(turn_key: Any, slug: str | None = None) -> str:
    """Jinja filter: a turn key ("R2-T3") as the game's players read it, in the current language."""
    if not turn_key:
        return ""
    label = gametext.turn_label(slug or "", str(turn_key))
    return gametext.render(slug or "", label, current_language())


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", TRANSLATIONS)
    Babel(app, locale_selector=select_locale)
    app.jinja_env.filters["game_text"] = game_text_filter
    app.jinja_env.filters["seat_name"] = seat_name_filter
    app.jinja_env.filters["report_seat"] = report_seat_filter
    app.jinja_env.filters["report_seat_of"] = lambda seat, ctx: report_seat_filter(ctx, seat)
    app.jinja_env.filters["game_title"] = game_title_filter
    app.jinja_env.filters["turn_label"] = turn_label_filter
    app.jinja_env.globals.update(current_language=current_language, language_names=LANGUAGE_NAMES,
                                 languages=LANGUAGES)
