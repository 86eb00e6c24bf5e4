"""The languages we speak and the one a render is in (a leaf: imports nothing of the project)."""

from __future__ import annotations

import os

from flask_babel import get_locale

LANGUAGES = ("en", "pt", "el")
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "pt": "Português", "el": "Ελληνικά"}
#: The compiled catalogues: the platform's (domain "messages") and one per game (domain = slug).
TRANSLATIONS = os.path.join(os.path.dirname(__file__), "translations")


def normalize(language: str | None) -> str:
    """One of ``LANGUAGES`` for a language tag ("pt-BR" -> "pt"); English when unknown."""
    tag = (language or "").strip().lower().replace("_", "-").split("-")[0]
    return tag if tag in LANGUAGES else DEFAULT


def current_language() -> str:
    try:
        loc = get_locale()
    except Exception:  # noqa: BLE001 (no app context: the source language)
        return DEFAULT
    return normalize(str(loc)) if loc is not None else DEFAULT
