"""Rate limits (Flask-Limiter): link guessing, link-resend requests and report renders.

* Bad link lookups: a request behind a personal link (``/p/``, ``/gm/``, ``/me/``,
  ``/lg/``, league pages) that finds nothing (404) counts against the client's
  address; past ``RATELIMIT_BAD_TOKENS`` (default 20 per minute) every link lookup
  from that address gets a 429 page for the rest of the window.  Valid lookups never
  count, so players opening their own page are never slowed, and players at other
  addresses are unaffected.
* Link resend requests: ``RATELIMIT_RESEND`` per address (default 5 per hour),
  on top of the per-player cap kept in the database (``RESEND_PER_DAY``).
* Report renders on request: ``RATELIMIT_REPORT`` per client address and link
  (default 30 per minute), counting only renders the cache did not hold
  (``app.web.pdfcache``).

Counters live in ``RATELIMIT_STORAGE_URI``: ``memory://`` (the default) counts
per process, which is right for the development server; with several gunicorn
workers each worker would count on its own, so production sets a shared store
(``redis://host:6379`` or ``memcached://host:11211``).  Behind a reverse proxy,
the client address comes from the proxy's ``X-Forwarded-For`` only when
``TRUSTED_PROXIES`` says how many proxies to trust (``app.web.trust_proxies``);
otherwise every player would share the proxy's address, and one guesser would
lock them all out.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse

from app.i18n import gettext

log = logging.getLogger(__name__)

EXTENSION = "pbem_limiter"
LINK_SCOPE = "link-lookup"


@functools.lru_cache(maxsize=16)
def _parsed(limit: str) -> RateLimitItem:
    return parse(limit)


def _bad_token_limit() -> RateLimitItem:
    return _parsed(str(current_app.config["RATELIMIT_BAD_TOKENS"]))


def _link_counter(blueprints: frozenset[str]) -> tuple[Callable[[], None], Callable[[Response], Response]]:
    """The bad-link limit's two hooks, for the pages of ``blueprints``.

    They ask the limiter's store (``limits``, the library under Flask-Limiter) themselves: Flask-Limiter's
    own handling of a limit, run before every page behind a link, cost an order's post a tenth of its
    processor time (measured in-process, orders 300 ms apart: about 0.6 ms of 8).  A store that does not answer
    (a shared store down) limits nothing rather than turning players away."""

    def guard() -> None:
        limiter = get_limiter()
        if request.blueprint not in blueprints or not limiter.enabled:
            return
        try:
            allowed = limiter.limiter.test(_bad_token_limit(), get_remote_address(), LINK_SCOPE)
        except Exception as exc:  # noqa: BLE001 (whatever the store raises)
            log.warning("the rate limit store did not answer: %s", exc)
            return
        if not allowed:
            abort(429)

    def count(resp: Response) -> Response:
        limiter = get_limiter()
        if resp.status_code == 404 and request.blueprint in blueprints and limiter.enabled:
            try:
                limiter.limiter.hit(_bad_token_limit(), get_remote_address(), LINK_SCOPE)
            except Exception as exc:  # noqa: BLE001 (whatever the store raises)
                log.warning("the rate limit store did not answer: %s", exc)
        return resp

    return guard, count


def resend_limit() -> str:
    return str(current_app.config["RATELIMIT_RESEND"])


def get_limiter(app: Flask | None = None) -> Limiter:
    return (app or current_app).extensions[EXTENSION]


def init_app(app: Flask, link_blueprints: Iterable[Blueprint] = ()) -> None:
    """Install the limiter; ``link_blueprints`` (the pages behind personal links) share the bad-link limit."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_BAD_TOKENS", "20 per minute")
    app.config.setdefault("RATELIMIT_RESEND", "5 per hour")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RESEND_PER_DAY", 3)
    app.config.setdefault("RATELIMIT_REPORT", "30 per minute")
    limiter = Limiter(key_func=get_remote_address, app=app)
    app.extensions[EXTENSION] = limiter
    guard, count = _link_counter(frozenset(b.name for b in link_blueprints))
    app.before_request(guard)  # before any other hook: a blocked address reads nothing
    app.after_request(count)

    @app.errorhandler(429)  # the bad-link limit's, and Flask-Limiter's (RateLimitExceeded)
    def too_many(_e: Exception):  # type: ignore[no-untyped-def]
        resp = current_app.make_response((render_template(
            "web/message.html", title=gettext("Too many requests"),
            message=gettext("Too many requests came from your address in a short time (unknown links or "
                            "link requests). Wait a few minutes and open your personal link again; "
                            "nothing you sent before was lost.")), 429))
        resp.headers["Retry-After"] = "60"
        return resp
