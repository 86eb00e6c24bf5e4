"""Dates and deadlines in the current language (English keeps its strftime form)."""

from __future__ import annotations

import re
from datetime import datetime

from babel.dates import format_datetime

from app.i18n.lang import current_language

#: strftime directives and their CLDR (babel) pattern equivalents.
_CLDR = {"a": "EEE", "A": "EEEE", "d": "dd", "e": "d", "b": "MMM", "B": "MMMM", "m": "MM", "Y": "y",
         "y": "yy", "H": "HH", "I": "hh", "M": "mm", "S": "ss", "p": "a", "Z": "z", "z": "xx", "%": "%"}
_NAMES = ("short", "medium", "long", "full")


def strftime_to_cldr(fmt: str) -> str:
    """A strftime format as a CLDR pattern ("%d %b %Y" -> "dd MMM y"); literals quoted."""
    out: list[str] = []
    for part in re.split(r"(%.)", fmt):
        if not part:
            continue
        if len(part) == 2 and part[0] == "%" and part[1] in _CLDR:
            out.append(_CLDR[part[1]] if part[1] != "%" else "%")
        elif re.search(r"[A-Za-z']", part):
            out.append("'" + part.replace("'", "''") + "'")
        else:
            out.append(part)
    return "".join(out)


def format_local(instant: datetime, fmt: str) -> str:
    """``instant`` (already in the player's zone) in the current language.

    ``fmt`` is a strftime format (the historical argument) or a babel format
    name (short, medium, long, full).  English output is exactly strftime's.
    """
    lang = current_language()
    if fmt in _NAMES:
        return format_datetime(instant, fmt, tzinfo=instant.tzinfo, locale=lang)
    if lang == "en":
        return instant.strftime(fmt)
    return format_datetime(instant, strftime_to_cldr(fmt), tzinfo=instant.tzinfo, locale=lang)
