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

from app import paths

ASSET_SCHEME = "pbem-asset:"
STATIC = paths.STATIC


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
    if not draw:
        return Markup("")
    from app.i18n.games import translate_svg

    # the game escapes every text it draws; the translations come from our own catalogues
    return Markup(translate_svg(slug, draw(view, seat)))  # nosec B704


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
    from app.i18n.dates import format_local

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


def shares_map(context: dict[str, Any]) -> bool:
    """Whether the report's map is a page of its own, the same for every seat of the step.

    Reports made with a ``public_view`` (``notify.report_context`` stores one when
    the game draws a board that is the same for every seat): page 1 is the map
    drawn from what a spectator sees, rendered once per step and language
    (``map_key``); the seat's own pages follow.
    """
    return bool(context.get("public_view"))


def map_context(context: dict[str, Any]) -> dict[str, Any]:
    """Everything the shared map page is drawn from (nothing of any one seat)."""
    game = context["game"]
    return {
        "game": {k: game.get(k) for k in ("id", "slug", "title", "step_no", "turn_key", "seed_hash")},
        "view": context["public_view"],
        "language": (context.get("player") or {}).get("language"),
        "made_at": context.get("made_at"),
    }


def map_key(context: dict[str, Any]) -> str:
    """Reports with equal keys share one rendering of their map page."""
    import hashlib
    import json

    blob = json.dumps(map_context(context), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def render_map_html(context: dict[str, Any]) -> str:
    """The shared map page of a report (see ``shares_map``)."""
    from app.i18n import player_locale

    import re

    mctx = map_context(context)
    with player_locale(mctx["language"]):
        svg = game_svg(mctx["game"]["slug"], mctx["view"], None)
        box = re.search(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)', svg[:2000])
        wide = bool(box) and float(box.group(1)) > 1.2 * float(box.group(2))
        return render_template("reports/map.html", ctx=mctx, svg=svg, landscape=wide)


def render_html(context: dict[str, Any], link: str) -> str:
    """The seat's report; when its map is shared, a blank first page stands for the map page.

    (The blank page keeps the page numbers right: ``pdf_of(..., skip_first=True)`` drops it.)
    """
    from app.i18n import player_locale

    with player_locale((context.get("player") or {}).get("language")):
        return render_template("reports/report.html", ctx=context, link=link, map_page=shares_map(context))


def join_pdfs(first: bytes, second: bytes) -> bytes:
    """One PDF: the pages of ``first``, then those of ``second`` (whose title it keeps)."""
    import io

    import pikepdf

    out = pikepdf.Pdf.new()
    with pikepdf.Pdf.open(io.BytesIO(first)) as head, pikepdf.Pdf.open(io.BytesIO(second)) as tail:
        out.pages.extend(head.pages)
        out.pages.extend(tail.pages)
        for key, value in tail.docinfo.items():
            out.docinfo[key] = value
        buf = io.BytesIO()
        out.save(buf, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue()


class RenderError(OSError):
    """A report render was stopped (time or memory limit) or its process died.

    An ``OSError``, so that mail delivery treats it as a temporary failure and retries later.
    """


def pdf_of(html: str, skip_first: bool = False) -> bytes:
    """WeasyPrint's PDF of ``html`` (in this process); ``skip_first`` drops its first page."""
    import weasyprint

    doc = weasyprint.HTML(string=html, base_url=ASSET_SCHEME + "/", url_fetcher=_fetcher_class()()).render()
    if skip_first and len(doc.pages) > 1:
        doc = doc.copy(doc.pages[1:])
    return doc.write_pdf(attachments=[], pdf_identifier=None) or b""


def vm_bytes(pid: int | str = "self") -> int:
    """The address space mapped by a process (this one by default), 0 where unknown."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _render_child(conn: Any, html: str, limit: int, skip_first: bool) -> None:  # the forked child
    import resource

    try:
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        conn.send(("ok", pdf_of(html, skip_first)))
    except MemoryError:
        conn.send(("error", "the report needed more memory than allowed"))
    except BaseException as exc:  # noqa: BLE001 (reported to the parent, which raises)
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _await_child(conn: Any, pid: int, timeout: float, limit: int) -> None:
    """Wait for the render child's answer, at most ``timeout`` seconds.

    A child that reaches its address-space limit inside a C library may neither
    fail nor finish (a library retrying its allocation): when its mapped memory
    stays within 2 MB of the limit for 2 s, it is stopped as out of memory.
    """
    import time

    deadline = time.monotonic() + timeout
    at_limit_since = None
    while not conn.poll(0.1):
        now = time.monotonic()
        if now >= deadline:
            raise RenderError(f"the report took longer than {timeout:g} s to render")
        if limit and vm_bytes(pid) >= limit - 2 * 1024 * 1024:
            at_limit_since = at_limit_since or now
            if now - at_limit_since >= 2:
                raise RenderError("the report needed more memory than allowed")
        else:
            at_limit_since = None


def render_limited(html: str, timeout: float, memory_mb: int, skip_first: bool = False) -> bytes:
    """Render ``html`` to PDF in a forked process limited in time and address space.

    :raises RenderError: the render took longer than ``timeout`` seconds, ran out of
        its ``memory_mb`` megabytes, or failed.
    """
    import multiprocessing

    import weasyprint  # noqa: F401  (loaded once in the parent; the child inherits it)

    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    # the child starts as a copy of this process: its limit is what we map now, plus the allowance
    limit = vm_bytes() + memory_mb * 1024 * 1024 if memory_mb else 0
    proc = ctx.Process(target=_render_child, args=(child, html, limit, skip_first), daemon=True)
    proc.start()
    child.close()
    try:
        _await_child(parent, proc.pid, timeout, limit)
        try:
            status, payload = parent.recv()
        except EOFError:
            raise RenderError("the render process died (memory limit?)") from None
    finally:
        parent.close()
        if proc.is_alive():
            proc.kill()
        proc.join(5)
    if status != "ok":
        raise RenderError(f"the report could not be rendered: {payload}")
    return payload


def render_pdf(context: dict[str, Any], link: str, maps: dict[str, bytes] | None = None) -> bytes:
    """The PDF of a report (A4, printable).

    ``maps``: shared map pages already rendered, by ``map_key`` (filled in here), so
    that the reports of one step rendered in a row draw their map page once.

    Rendered in a child process limited to ``REPORT_TIMEOUT`` seconds and
    ``REPORT_MEMORY_MB`` megabytes of address space beyond the parent's (the
    render pool, when present, does this with a bounded set of processes).

    :raises RenderError: a limit was hit (mail delivery then retries later).
    """
    from flask import current_app

    cfg = current_app.config
    if not cfg.get("REPORT_ISOLATE", True) or not hasattr(os, "fork"):
        def render(html: str, skip_first: bool = False) -> bytes:
            return pdf_of(html, skip_first)
    else:
        def render(html: str, skip_first: bool = False) -> bytes:
            return render_limited(html, float(cfg.get("REPORT_TIMEOUT", 60)),
                                  int(cfg.get("REPORT_MEMORY_MB", 1024)), skip_first)
    if not shares_map(context):
        return render(render_html(context, link))
    maps = {} if maps is None else maps
    key = map_key(context)
    if key not in maps:
        maps[key] = render(render_map_html(context))
    return join_pdfs(maps[key], render(render_html(context, link), skip_first=True))


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(game_svg=game_svg, qr_svg=qr_svg, local_time=local_time)
    app.jinja_env.filters["css_string"] = css_string
