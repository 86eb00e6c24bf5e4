"""Per-seat turn reports: HTML from the seat's view, then PDF with WeasyPrint.

The HTML is drawn only from a report context (``notify.report_context``),
which holds the seat's view, never the raw state.  WeasyPrint fetches
resources through ``AssetFetcher``, which serves bundled files from
``templates/static`` and refuses everything else (no ``file://``, no network,
no redirects), so player-supplied text cannot pull files or reach servers.
"""

from __future__ import annotations

import mimetypes
import os
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import segno
from flask import Flask, render_template
from markupsafe import Markup

ASSET_SCHEME = "pbem-asset:"
STATIC = os.path.join(os.path.dirname(__file__), "..", "templates", "static")


def _fetcher_class():  # imported lazily: WeasyPrint loads Pango
    from weasyprint.urls import URLFetcher, URLFetcherResponse, URLFetchingError

    class AssetFetcher(URLFetcher):
        """Serves ``pbem-asset:/name`` from the bundled static folder; refuses all else."""

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

    return AssetFetcher


def game_svg(slug: str, view: dict[str, Any], seat: str | None) -> Markup:
    """The game's board as inline SVG (the game escapes its own text)."""
    from app.games import get_rules

    rules = get_rules(slug)
    draw = getattr(rules, "board_svg", None)
    return Markup(draw(view, seat)) if draw else Markup("")


def qr_svg(link: str) -> Markup:
    if not link:
        return Markup("")
    return Markup(segno.make(link, error="m").svg_inline(scale=3, dark="#000", light="#fff"))


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
    return instant.astimezone(zone).strftime(fmt)


def css_string(value: object) -> Markup:
    """A quoted CSS string, safe inside a <style> element (no quote or tag breaks out)."""
    out = []
    for ch in str(value):
        if ch.isalnum() or ch in " .,:;#·-_()/+@'":
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):x} ")
    return Markup('"' + "".join(out) + '"')


def render_html(context: dict[str, Any], link: str) -> str:
    return render_template("reports/report.html", ctx=context, link=link)


def render_pdf(context: dict[str, Any], link: str) -> bytes:
    """The PDF of a report (A4, printable)."""
    import weasyprint

    html = render_html(context, link)
    doc = weasyprint.HTML(string=html, base_url=ASSET_SCHEME + "/", url_fetcher=_fetcher_class()())
    return doc.write_pdf(attachments=[], pdf_identifier=None) or b""


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(game_svg=game_svg, qr_svg=qr_svg, local_time=local_time)
    app.jinja_env.filters["css_string"] = css_string
