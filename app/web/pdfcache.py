"""Turn reports rendered on request (``/p/<token>/report.pdf``): cached, and limited per client.

A report is rendered once per (seat, link version, report, language) and kept in a
small in-process cache (``REPORT_CACHE_SIZE`` entries, least recently used first out),
so a page reloaded in a loop costs nothing; a league's public standings PDF is cached the
same way, under its page's content.  Renders that miss the cache count against
``RATELIMIT_REPORT`` (default 30 per minute) for each client and link: past it the
client gets the 429 page, and other players' pages stay fast.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import current_app

from app.i18n.lang import current_language
from app.models import Report, Seat

EXTENSION = "pbem_report_cache"
_lock = threading.Lock()


def _cache() -> OrderedDict[tuple[Any, ...], bytes]:
    """This application's cache (one per app: two apps of a process never share reports)."""
    with _lock:
        return current_app.extensions.setdefault(EXTENSION, OrderedDict())  # type: ignore[no-any-return]


def report_limit() -> str:
    return str(current_app.config.get("RATELIMIT_REPORT", "30 per minute"))


def cached_pdf(seat: Seat, report: Report, render: Callable[[], bytes]) -> bytes:
    """The PDF of ``report`` for ``seat`` in the reader's language, rendered by ``render`` on a miss."""
    return cached((seat.id or 0, seat.token_version, report.id or 0, current_language()), render)


def cached(key: tuple[Any, ...], render: Callable[[], bytes]) -> bytes:
    """The PDF cached under ``key`` (what it is made from), rendered by ``render`` on a miss."""
    cache = _cache()
    with _lock:
        pdf = cache.get(key)
        if pdf is not None:
            cache.move_to_end(key)
            return pdf
    pdf = render()
    size = int(current_app.config.get("REPORT_CACHE_SIZE", 64))
    with _lock:
        cache[key] = pdf
        while len(cache) > max(size, 0):
            cache.popitem(last=False)
    return pdf
