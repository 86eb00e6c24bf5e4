"""Report PDFs, made in a process limited in time and memory: the render service's one code path.

WeasyPrint is slow and memory hungry, and player text ends up in the HTML, so
a render never runs unguarded.  Every render job (``render_job``) runs under
an alarm of ``REPORT_TIMEOUT`` seconds and an address-space limit of
``REPORT_MEMORY_MB`` beyond what its process maps (``limit_memory``), and
turns any failure into a ``RenderError``.  The job runs either

* in a forked child for one document (``render_limited``; ``render_pdf`` does
  this for a page request or a mail built alone), the parent watching the
  clock and the child's memory; or
* in a worker of the render pool for a delivery batch (``app.render_pool``),
  whose workers render with ``render_env.render_app``, never the web.

Either way a report is made of the same parts (``report_parts``): its step's
shared map page (``report_html.map_key``, rendered once) joined to the seat's
own pages, or one whole document.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import resource
import signal
import time
from collections.abc import Callable
from typing import Any

import pikepdf
from flask import current_app

from app import render_env
from app.report_html import map_key, render_html, render_map_html

DEFAULT_MEMORY_MB = 1024


class RenderError(OSError):
    """A report could not be rendered: an error, its time limit or its memory limit, or its process died.

    An ``OSError``, so that mail delivery treats it as a temporary failure and retries later.
    """


# --------------------------------------------------------------------------- one PDF, in this process


def pdf_of(html: str, skip_first: bool = False) -> bytes:
    """WeasyPrint's PDF of ``html`` (in this process); ``skip_first`` drops its first page."""
    # deferred: WeasyPrint loads Pango; the web's pages and the scheduler never need it
    import weasyprint

    doc = weasyprint.HTML(string=html, base_url=render_env.ASSET_SCHEME + "/",
                          url_fetcher=render_env.asset_fetcher()).render()
    if skip_first and len(doc.pages) > 1:
        doc = doc.copy(doc.pages[1:])
    return doc.write_pdf(attachments=[], pdf_identifier=None) or b""


def join_pdfs(first: bytes, second: bytes) -> bytes:
    """One PDF: the map page ``first``, then the seat's own pages ``second`` (whose title it keeps).

    ``second`` begins with a stand-in for the map page that carries only its page number
    ("page 1 of N", known only to the seat's document): that number is laid over the
    map page's bottom right corner, and the stand-in dropped.
    """
    out = pikepdf.Pdf.new()
    with pikepdf.Pdf.open(io.BytesIO(first)) as head, pikepdf.Pdf.open(io.BytesIO(second)) as tail:
        out.pages.extend(head.pages)
        own = list(tail.pages)
        if len(own) > 1:
            stand_in = own.pop(0)
            _x0, _y0, w, h = (float(v) for v in stand_in.mediabox)
            _a, _b, width, _height = (float(v) for v in out.pages[0].mediabox)
            number = out.copy_foreign(stand_in.as_form_xobject())
            out.pages[0].add_overlay(number, pikepdf.Rectangle(width - w, 0, width, h), shrink=False, expand=False)
        out.pages.extend(own)
        for key, value in tail.docinfo.items():
            out.docinfo[key] = value
        buf = io.BytesIO()
        out.save(buf, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue()


def report_parts(context: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The documents a report is joined from: its shared map page and its own pages, or one whole."""
    key = map_key(context)
    return [("whole", None)] if key is None else [("map", key), ("own", None)]


def part_html(context: dict[str, Any], link: str, part: str) -> tuple[str, bool]:
    """(HTML, skip its first page) of one part of a report (needs an application context)."""
    if part == "map":
        return render_map_html(context), False
    return render_html(context, link), False  # "own" keeps its stand-in first page (``join_pdfs``)


# --------------------------------------------------------------------------- the guarded render job


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


def memory_limit(memory_mb: int) -> int:
    """The address-space limit of a render process: what this process maps now, plus the allowance."""
    return vm_bytes() + memory_mb * 1024 * 1024 if memory_mb > 0 else 0


def limit_memory(limit: int) -> None:
    if limit:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise TimeoutError("report render took too long")


def render_job(html_of: Callable[[], tuple[str, bool]], timeout: float) -> bytes:
    """Run one render job under its time limit; any failure becomes a ``RenderError`` (which pickles).

    ``html_of()`` gives (HTML, skip its first page).
    """
    signal.signal(signal.SIGALRM, _on_alarm)
    if timeout > 0:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    started = time.monotonic()
    try:
        pdf = pdf_of(*html_of())
        # a library may catch the alarm's TimeoutError and carry on: the limit holds all the same
        if timeout > 0 and time.monotonic() - started > timeout:
            raise TimeoutError("report render took too long")
        return pdf
    except TimeoutError:
        raise RenderError(f"the report took longer than {timeout:g} s to render") from None
    except MemoryError:
        raise RenderError("the report needed more memory than allowed") from None
    except BaseException as exc:  # noqa: BLE001 - sent back as text: any exception must pickle
        raise RenderError(f"the report could not be rendered: {type(exc).__name__}: {str(exc)[:300]}") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# --------------------------------------------------------------------------- one document in a forked child


def _child(conn: Any, html: str, limit: int, timeout: float, skip_first: bool) -> None:  # the forked child
    try:
        limit_memory(limit)
        conn.send(("ok", render_job(lambda: (html, skip_first), timeout)))
    except BaseException as exc:  # noqa: BLE001 (reported to the parent, which raises)
        conn.send(("error", str(exc) if isinstance(exc, RenderError) else f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _await_child(conn: Any, pid: int, timeout: float, limit: int) -> None:
    """Wait for the render child's answer, at most ``timeout`` seconds (and a little).

    A child that reaches its address-space limit inside a C library may neither
    fail nor finish (a library retrying its allocation), and one stuck in C code
    never sees its alarm: when its mapped memory stays within 2 MB of the limit
    for 2 s, it is stopped as out of memory; past its time, as too slow.
    """
    deadline = time.monotonic() + timeout + 1 if timeout > 0 else float("inf")
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
    # deferred: WeasyPrint loads Pango; loaded once here in the parent so the child inherits it
    import weasyprint  # noqa: F401

    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    limit = memory_limit(memory_mb)  # the child starts as a copy of this process
    proc = ctx.Process(target=_child, args=(child, html, limit, timeout, skip_first), daemon=True)
    proc.start()
    child.close()
    try:
        _await_child(parent, proc.pid or 0, timeout, limit)
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
        raise RenderError(payload)
    return payload


def render_pdf(context: dict[str, Any], link: str, maps: dict[str, bytes] | None = None) -> bytes:
    """The PDF of one report (A4, printable), made in this process's application context.

    ``maps``: shared map pages already rendered, by ``map_key`` (filled in here), so
    that the reports of one step rendered in a row draw their map page once.
    Each part is rendered by ``render_limited`` (``REPORT_ISOLATE``, the default),
    or in this process.

    :raises RenderError: a limit was hit (mail delivery then retries later).
    """
    cfg = current_app.config
    isolate = cfg.get("REPORT_ISOLATE", True) and hasattr(os, "fork")
    timeout, memory_mb = float(cfg.get("REPORT_TIMEOUT", 60)), int(cfg.get("REPORT_MEMORY_MB", DEFAULT_MEMORY_MB))
    maps = {} if maps is None else maps
    pdfs = []
    for part, key in report_parts(context):
        if key is not None and key in maps:
            pdfs.append(maps[key])
            continue
        html, skip_first = part_html(context, link, part)
        pdf = render_limited(html, timeout, memory_mb, skip_first) if isolate else pdf_of(html, skip_first)
        if key is not None:
            maps[key] = pdf
        pdfs.append(pdf)
    return pdfs[0] if len(pdfs) == 1 else join_pdfs(*pdfs)
