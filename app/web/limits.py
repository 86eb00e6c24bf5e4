"""Rate limits (the ``limits`` library): link guessing, link-resend requests and report renders.

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
lock them all out.  ``RATELIMIT_ENABLED = False`` turns every limit off;
``RATELIMIT_STRATEGY`` picks the window (``fixed-window``, the default, or
``moving-window``, ``sliding-window-counter``).  A store that does not answer
limits nothing rather than turning players away.

The limits are asked straight from the store, one question a request behind a link:
a Flask extension's handling of them cost every such request, an order's post
included, about 0.6 ms of processor time (measured in-process, orders 300 ms apart).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable

from flask import Blueprint, Flask, Response, abort, current_app, g, render_template, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import STRATEGIES

from app.i18n import gettext

log = logging.getLogger(__name__)

EXTENSION = "pbem_limiter"
LINK_SCOPE = "link-lookup"


class Limits:
    """The application's rate limits: one store, counters kept per client address and scope."""

    def __init__(self, app: Flask) -> None:
        self.enabled = bool(app.config.get("RATELIMIT_ENABLED", True))
        storage = storage_from_string(str(app.config["RATELIMIT_STORAGE_URI"]))
        self.strategy = STRATEGIES[str(app.config.get("RATELIMIT_STRATEGY", "fixed-window"))](storage)

    def allows(self, limit: str, *keys: str) -> bool:
        """Whether ``keys`` are under ``limit`` (a ``"20 per minute"`` string), without counting."""
        return self._ask(limit, keys, count=False)

    def take(self, limit: str, *keys: str) -> bool:
        """Count one for ``keys``; whether that stayed within ``limit``."""
        return self._ask(limit, keys, count=True)

    def _ask(self, limit: str, keys: tuple[str, ...], *, count: bool) -> bool:
        if not self.enabled:
            return True
        try:
            item = _parsed(limit)
            return self.strategy.hit(item, *keys) if count else self.strategy.test(item, *keys)
        except Exception as exc:  # noqa: BLE001 (whatever the store raises: no player is turned away)
            log.warning("the rate limit store did not answer: %s", exc)
            return True


@functools.lru_cache(maxsize=16)
def _parsed(limit: str) -> RateLimitItem:
    return parse(limit)


def client_address() -> str:
    """The client's address (the proxy's ``X-Forwarded-For`` when trusted: ``app.web.trust_proxies``)."""
    return request.remote_addr or "127.0.0.1"


def get_limiter(app: Flask | None = None) -> Limits:
    return (app or current_app).extensions[EXTENSION]  # type: ignore[no-any-return]


def resend_limit() -> str:
    return str(current_app.config["RATELIMIT_RESEND"])


def _bad_token_limit() -> str:
    return str(current_app.config["RATELIMIT_BAD_TOKENS"])


def take_or_refuse(limit: str, *keys: str) -> None:
    """Count one request against ``limit`` for ``keys``; past it, the 429 page."""
    if not get_limiter().take(limit, *keys):
        abort(429)


def link_known() -> None:
    """This request's link was found: a 404 it answers (no such report, an export not ready) is not a
    guess at links, and does not count against the address (a player must not lock themselves out)."""
    g.link_known = True


def init_app(app: Flask, link_blueprints: Iterable[Blueprint] = ()) -> None:
    """Install the limits; ``link_blueprints`` (the pages behind personal links) share the bad-link limit."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_BAD_TOKENS", "20 per minute")
    app.config.setdefault("RATELIMIT_RESEND", "5 per hour")
    app.config.setdefault("RESEND_PER_DAY", 3)
    app.config.setdefault("RATELIMIT_REPORT", "30 per minute")
    app.extensions[EXTENSION] = Limits(app)
    links = frozenset(b.name for b in link_blueprints)

    @app.before_request  # before any other hook: a blocked address reads nothing
    def guard_links() -> None:
        if request.blueprint in links and not get_limiter().allows(_bad_token_limit(), client_address(), LINK_SCOPE):
            abort(429)

    @app.after_request
    def count_bad_links(resp: Response) -> Response:
        if resp.status_code == 404 and request.blueprint in links and not g.get("link_known"):
            get_limiter().take(_bad_token_limit(), client_address(), LINK_SCOPE)
        return resp

    @app.errorhandler(429)
    def too_many(_e: Exception):  # type: ignore[no-untyped-def]
        resp = current_app.make_response((render_template(
            "web/message.html", title=gettext("Too many requests"),
            message=gettext("Too many requests came from your address in a short time (unknown links or "
                            "link requests). Wait a few minutes and open your personal link again; "
                            "nothing you sent before was lost.")), 429))
        resp.headers["Retry-After"] = "60"
        return resp
