"""A bounded pool of report render processes.

WeasyPrint is slow and memory hungry, and a deadline storm asks for hundreds
of PDFs at once.  Reports are therefore rendered in a fixed number of worker
processes (``RENDER_WORKERS``, default: the number of CPUs), each with its own
application (built from the parent's configuration), a time limit per render
(``REPORT_TIMEOUT`` seconds) and an address-space limit (``REPORT_MEMORY_MB``
beyond what a loaded worker maps).
Workers run at a lower CPU priority (``RENDER_NICE``, default 10) than
the web workers.  A worker is replaced after ``RENDER_TASKS_PER_CHILD`` renders, so a leak
cannot grow without bound.  Workers are forked from a small server process
that has already imported WeasyPrint, so starting one is cheap.

``render_many`` hands out a batch and yields the results in the order given,
as soon as each is ready; a failed or timed-out render yields its error
instead of a PDF (the caller defers the mail).  If a worker dies (a crash, or
the memory limit hit inside a C library) its render never answers: the pool
notices the silence, yields an error for what is left and starts afresh.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Any

log = logging.getLogger(__name__)

#: Configuration keys the render workers do not need (and that must not pin a pool to one database).
_LOCAL_KEYS = ("DATABASE_URL", "SCHEDULER_ENABLED", "DEV_MAILBOX")
_PRELOAD = ["app", "app.reports", "weasyprint", "segno", "jinja2"]

DEFAULT_TASKS_PER_CHILD = 200
DEFAULT_MEMORY_MB = 1024
DEFAULT_NICE = 10


class RenderError(Exception):
    """A report could not be rendered (error, time limit or memory limit)."""


# --------------------------------------------------------------------------- worker side

_worker_app: Any = None


def _init_worker(config: dict[str, Any], memory_mb: int, nice: int = 0) -> None:
    import resource
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    if nice > 0:  # web requests first: a storm of renders must not slow players' pages
        os.nice(nice)
    global _worker_app
    from app import create_app

    _worker_app = create_app(config)
    if memory_mb > 0:  # like a single isolated render: this much beyond what the loaded worker maps
        from app.reports import vm_bytes

        limit = vm_bytes() + memory_mb * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise TimeoutError("report render took too long")


def _render(context: dict[str, Any], link: str, timeout: float, part: str = "whole") -> bytes:
    """One PDF: the whole report, or (``part``) its shared map page or the seat's own pages."""
    import signal

    from app import reports

    signal.signal(signal.SIGALRM, _on_alarm)
    if timeout > 0:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with _worker_app.app_context():
            if part == "map":
                return reports.pdf_of(reports.render_map_html(context))
            if part == "own":
                return reports.pdf_of(reports.render_html(context, link), skip_first=True)
            return reports.render_pdf(context, link)
    except MemoryError:
        raise RenderError("report render ran out of memory") from None
    except BaseException as exc:  # noqa: BLE001 - sent back as text: any exception must pickle
        raise RenderError(f"{type(exc).__name__}: {str(exc)[:300]}") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# --------------------------------------------------------------------------- parent side


def worker_config(config: Any) -> dict[str, Any]:
    """The part of an app's configuration a render worker is built from (picklable values only)."""
    out: dict[str, Any] = {}
    for key, value in dict(config).items():
        if key in _LOCAL_KEYS:
            continue
        try:
            pickle.dumps(value)
        except Exception:  # noqa: BLE001
            continue
        out[key] = value
    out["SCHEDULER_ENABLED"] = False
    out["REPORT_ISOLATE"] = False  # the pool's workers are the isolation (and may not fork)
    out["DATABASE_URL"] = "sqlite://"  # workers never touch the database
    return out


def settings(config: Any) -> dict[str, Any]:
    return {
        "workers": int(config.get("RENDER_WORKERS") or os.cpu_count() or 1),
        "timeout": float(config.get("REPORT_TIMEOUT") or 60),
        "memory_mb": int(config.get("REPORT_MEMORY_MB") or DEFAULT_MEMORY_MB),
        "tasks_per_child": int(config.get("RENDER_TASKS_PER_CHILD") or DEFAULT_TASKS_PER_CHILD),
        "nice": int(config.get("RENDER_NICE", DEFAULT_NICE)),
    }


class RenderPool:
    """A fixed number of render processes; ``render_many`` is safe to call from several threads."""

    def __init__(self, config: dict[str, Any], *, workers: int, timeout: float, memory_mb: int,
                 tasks_per_child: int, nice: int = DEFAULT_NICE) -> None:
        self.config = config
        self.workers = max(1, workers)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.tasks_per_child = tasks_per_child
        self.nice = nice
        self._lock = threading.Lock()
        self._pool: Any = None
        self._generation = 0

    def _get(self) -> tuple[Any, int]:
        with self._lock:
            if self._pool is None:
                import multiprocessing

                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(_PRELOAD)
                self._pool = ctx.Pool(
                    self.workers, initializer=_init_worker, initargs=(self.config, self.memory_mb, self.nice),
                    maxtasksperchild=self.tasks_per_child or None,
                )
                self._generation += 1
            return self._pool, self._generation

    def _restart(self, generation: int) -> None:
        with self._lock:
            if self._pool is not None and generation == self._generation:
                log.warning("render pool stalled (a worker died or hung): starting afresh")
                pool, self._pool = self._pool, None
                pool.terminate()
                pool.join()

    def pids(self) -> list[int]:
        pool = self._pool
        return [p.pid for p in getattr(pool, "_pool", []) if p.pid] if pool is not None else []

    def render_many(self, jobs: Iterable[tuple[dict[str, Any], str]]) -> Iterator[bytes | RenderError]:
        """Render every (report context, link); yield a PDF or a ``RenderError`` for each, in order.

        Everything is handed to the workers at once (before the first result is
        asked for).  A map page shared by several reports (``reports.map_key``)
        is rendered once, first; each report's own pages are joined to it here.
        """
        from app.reports import map_key, shares_map

        jobs = list(jobs)
        if not jobs:
            return iter(())
        pool, generation = self._get()
        answers: queue.Queue[tuple[Any, Any]] = queue.Queue()
        maps: list[str | None] = []
        wanted: set[Any] = set()
        for context, _link in jobs:
            key = map_key(context) if shares_map(context) else None
            maps.append(key)
            if key is not None and ("map", key) not in wanted:
                wanted.add(("map", key))
                self._submit(pool, answers, ("map", key), context, "", "map")
        for i, (context, link) in enumerate(jobs):
            wanted.add(i)
            self._submit(pool, answers, i, context, link, "own" if maps[i] else "whole")
        return self._collect(len(jobs), maps, answers, generation)

    def _submit(self, pool: Any, answers: queue.Queue, tag: Any, context: dict[str, Any], link: str,
                part: str) -> None:
        pool.apply_async(
            _render, (context, link, self.timeout, part),
            callback=lambda pdf: answers.put((tag, pdf)),
            error_callback=lambda exc: answers.put((tag, exc)),
        )

    def _collect(self, n: int, maps: list[str | None], answers: queue.Queue,
                 generation: int) -> Iterator[bytes | RenderError]:
        from app.reports import join_pdfs

        # Per-render limits are enforced in the workers; this only catches a worker that died.
        silence = self.timeout + 30 if self.timeout > 0 else 600
        done: dict[Any, Any] = {}
        dead = False
        for i in range(n):
            needed = [i] if maps[i] is None else [("map", maps[i]), i]
            while not dead and any(tag not in done for tag in needed):
                try:
                    tag, result = answers.get(timeout=silence)
                except queue.Empty:
                    self._restart(generation)
                    dead = True
                    break
                done[tag] = result if isinstance(result, bytes | RenderError) else RenderError(
                    f"{type(result).__name__}: {str(result)[:300]}")
            parts = [done.get(tag, RenderError("render worker died or hung")) for tag in needed]
            done.pop(i, None)
            failed = next((p for p in parts if isinstance(p, RenderError)), None)
            if failed is not None:
                yield failed
            elif len(parts) == 1:
                yield parts[0]
            else:
                try:
                    yield join_pdfs(parts[0], parts[1])
                except Exception as exc:  # noqa: BLE001
                    yield RenderError(f"{type(exc).__name__}: {str(exc)[:300]}")

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()


_pools: dict[bytes, RenderPool] = {}
_pools_lock = threading.Lock()


def get_pool(app: Any) -> RenderPool:
    """The process's render pool for this app's configuration (made on first use)."""
    config = worker_config(app.config)
    opts = settings(app.config)
    key = pickle.dumps((sorted(config.items()), sorted(opts.items())))
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            for old in _pools.values():  # one pool per process: a new configuration replaces it
                old.close()
            _pools.clear()
            pool = _pools[key] = RenderPool(config, **opts)
        return pool


def render_inline(app: Any, jobs: Iterable[tuple[dict[str, Any], str]]) -> Iterator[bytes | RenderError]:
    """Render in this process (``RENDER_WORKERS = 0``), each shared map page once."""
    from app.reports import render_pdf

    maps: dict[str, bytes] = {}
    for context, link in jobs:
        result: bytes | RenderError
        try:
            with app.app_context():
                result = render_pdf(context, link, maps)
        except Exception as exc:  # noqa: BLE001
            result = RenderError(f"{type(exc).__name__}: {str(exc)[:300]}")
        yield result


def render_batch(app: Any, jobs: Iterable[tuple[dict[str, Any], str]]) -> Iterator[bytes | RenderError]:
    """Render a batch through the pool (or inline when ``RENDER_WORKERS`` is 0), results in order."""
    if app.config.get("RENDER_WORKERS", None) == 0:
        return render_inline(app, jobs)
    return get_pool(app).render_many(jobs)


@atexit.register
def _shutdown() -> None:
    for pool in list(_pools.values()):
        pool.close()
    _pools.clear()
