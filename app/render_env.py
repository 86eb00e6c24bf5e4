"""What a report render needs, and nothing more: templates, their helpers, languages, bundled assets.

The web application (``create_app``) installs the same helpers in its own
Jinja environment (``init_jinja``); a render worker builds ``render_app``: a
bare Flask object holding only the report templates, Flask-Babel for the
report's language and these helpers, so that it never imports the web, the
CLI or mail.  WeasyPrint fetches resources through ``asset_fetcher()``, which
serves bundled files from ``templates/static`` and refuses everything else (no
``file://``, no network, no redirects), so player-supplied text cannot pull
files or reach servers.
"""

from __future__ import annotations

import mimetypes
import os
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import segno
from flask import Flask
from markupsafe import Markup

from app import i18n, paths
from app.games import get_rules
from app.i18n import gametext
from app.i18n.dates import format_local

ASSET_SCHEME = "pbem-asset:"
TEMPLATES = paths.TEMPLATES
STATIC = paths.STATIC


def asset_fetcher() -> Any:
    """A WeasyPrint URL fetcher that serves ``pbem-asset:/name`` from the bundled static folder only."""
    # deferred: WeasyPrint loads Pango and friends, which the web's pages never need
    from weasyprint.urls import URLFetcher, URLFetcherResponse, URLFetchingError

    class AssetFetcher(URLFetcher):
        def __init__(self) -> None:
            super().__init__(allowed_protocols=[], allow_redirects=False)

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):
                return super().fetch(url, headers)
            if not url.startswith(ASSET_SCHEME):
                raise URLFetchingError(f"refused to fetch {url[:60]!r}")
            name = url[len(ASSET_SCHEME):].lstrip("/")
            root = os.path.realpath(STATIC)
            path = os.path.realpath(os.path.join(root, name))
            if not path.startswith(root + os.sep) or not os.path.isfile(path):
                raise URLFetchingError(f"no bundled asset {name!r}")
            with open(path, "rb") as fh:
                body = fh.read()
            mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return URLFetcherResponse(url, body=body, headers={"Content-Type": mime})

    return AssetFetcher()


def game_svg(slug: str, view: dict[str, Any], seat: str | None) -> Markup:
    """The game's board as inline SVG (the game escapes its own text)."""
    rules = get_rules(slug)
    if not rules.draws_board:
        return Markup("")
    # the game escapes every text it draws; the translations come from our own catalogues
    lang = i18n.current_language()
    svg = rules.board_svg(view, seat, lambda text: gametext.render(slug, text, lang))
    return Markup(svg)  # nosec B704


def qr_svg(link: str) -> Markup:
    if not link:
        return Markup("")
    # segno draws the code as paths: the link itself is not in the SVG
    return Markup(segno.make(link, error="m").svg_inline(scale=3, dark="#000", light="#fff"))  # nosec B704


def local_time(moment: str | datetime | None, tz: str = "UTC", fmt: str = "%a %d %b %Y, %H:%M %Z") -> str:
    """An instant (ISO-8601 text or datetime) shown in the player's time zone."""
    if not moment:
        return ""
    instant = moment if isinstance(moment, datetime) else datetime.fromisoformat(moment)
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=ZoneInfo("UTC"))
    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return format_local(instant.astimezone(zone), fmt)


def css_string(value: object) -> Markup:
    """A quoted CSS string, safe inside a <style> element (no quote or tag breaks out)."""
    out = []
    text = value.unescape() if isinstance(value, Markup) else str(value)  # text, not HTML: "'" not "&#39;"
    for ch in text:
        if ch.isalnum() or ch in " .,:;#·-_()/+@'":
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):x} ")
    return Markup('"' + "".join(out) + '"')  # nosec B704 (every character but a safe few is escaped above)


def by_turn(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A log grouped by turn, newest turn first, each turn's events oldest first.

    ``events``: dicts with ``step``, ``turn`` (the step's turn key, may be absent) and
    ``text``, oldest first.  A group: ``{"turn": key, "step": first step, "events": [...]}``.
    """
    groups: list[dict[str, Any]] = []
    for event in events:
        key = event.get("turn") or ""
        if not groups or groups[-1]["turn"] != key or (not key and groups[-1]["step"] != event.get("step")):
            groups.append({"turn": key, "step": event.get("step"), "events": []})
        groups[-1]["events"].append(event)
    return groups[::-1]


def init_jinja(app: Flask) -> None:
    """The helpers report (and page) templates call: boards, QR codes, local times, CSS strings."""
    app.jinja_env.globals.update(game_svg=game_svg, qr_svg=qr_svg, local_time=local_time)
    app.jinja_env.filters["css_string"] = css_string
    app.jinja_env.filters["by_turn"] = by_turn


def render_app(config: dict[str, Any] | None = None) -> Flask:
    """A bare application for rendering reports: templates, languages and helpers, no web, no database."""
    app = Flask("app", template_folder=TEMPLATES, static_folder=None)
    app.config.update(config or {})
    i18n.init_app(app)
    init_jinja(app)
    return app
