"""Text a player typed, made safe to keep, show and mail back.

Whatever a player writes (a press message, a display name, an order the server
quotes back in a refusal) may hold characters no reader should get: control
characters (a NUL byte, an escape) and the bidirectional overrides and isolates
that turn the rest of a line around (after U+202E a name reads backwards, and a
quotation mark after it jumps), and it may spell one of the mail placeholders
(``%%ORDER_LINK%%``), which the mail sender fills with each recipient's own
personal link.  ``clean`` removes the first two and breaks the third with an
invisible word joiner, so that the text reads the same and fills nothing.
"""

from __future__ import annotations

import re

from app.tokens import LINK_PLACEHOLDER, PREFS_PLACEHOLDER

#: C0 and C1 control characters but the tab and the newline; the bidirectional embeddings, overrides
#: and isolates (U+202A-U+202E, U+2066-U+2069); the line and paragraph separators
_UNWANTED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: the mail placeholders, as a player could type them
_PLACEHOLDERS = (LINK_PLACEHOLDER, PREFS_PLACEHOLDER)
_JOINER = "\u2060"


def clean(text: str) -> str:
    """``text`` without control characters or direction overrides (a carriage return before a newline
    goes; one alone becomes a newline), and with the mail placeholders broken."""
    text = _UNWANTED.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    for placeholder in _PLACEHOLDERS:
        if placeholder in text:
            text = text.replace(placeholder, placeholder[:2] + _JOINER + placeholder[2:])
    return text


def shown(text: object, limit: int = 40) -> str:
    """A piece of a player's input quoted back in a message: cleaned, on one line, cut to ``limit``."""
    one = " ".join(clean(str(text)).split())
    return f"“{one if len(one) <= limit else one[:limit] + '…'}”"
