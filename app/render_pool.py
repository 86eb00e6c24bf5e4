"""A bounded pool of report render processes (the render service's batch path).

A deadline storm asks for hundreds of PDFs at once.  They are rendered in a
fixed number of worker processes (``RENDER_WORKERS``, default: the number of
CPUs) running the same guarded job as a single render (``reports.render_job``:
``REPORT_TIMEOUT`` seconds, ``REPORT_MEMORY_MB`` beyond what a loaded worker
maps), at a lower CPU priority (``RENDER_NICE``, default 10, and Linux's idle
scheduling class) than the web workers, yielding its core every 0.5 ms while it
renders (``render_yield``).  A worker is replaced after
``RENDER_TASKS_PER_CHILD`` renders, so a leak cannot grow without bound.
Workers are forked from a small server process that has already imported
WeasyPrint, so starting one is cheap, and render with ``render_env.render_app``
(templates, languages, helpers), never the web application.

``render_many`` hands out a batch and yields the results in the order given,
as soon as each is ready; a failed or timed-out render yields its error
instead of a PDF (the caller defers the mail).  If a worker dies (a crash, or
the memory limit hit inside a C library) its render never answers: the pool
notices the silence, yields an error for what is left and starts afresh.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from flask import Flask

from app import render_env, render_yield, reports
from app.reports import (
    DEFAULT_MEMORY_MB,
    RenderError,
    join_pdfs,
    limit_memory,
    memory_limit,
    part_html,
    render_job,
    report_parts,
)

log = logging.getLogger(__name__)

#: Configuration keys the render workers do not need (and that must not pin a pool to one database).
_LOCAL_KEYS = ("DATABASE_URL", "SCHEDULER_ENABLED", "DEV_MAILBOX")
_PRELOAD = ["app.render_pool", "weasyprint", "segno", "jinja2"]

DEFAULT_TASKS_PER_CHILD = 200
DEFAULT_NICE = 10


_worker_app: Flask | None = None
_yield_timer: render_yield.YieldTimer | None = None


def _init_worker(config: dict[str, Any], memory_mb: int, nice: int = 0) -> None:
    global _worker_app, _yield_timer
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    if nice > 0:  # web requests first: a storm of renders must not slow players' pages
        os.nice(nice)
        _idle_class()
        _yield_timer = render_yield.YieldTimer()
    _worker_app = render_env.render_app(config)
    limit_memory(memory_limit(memory_mb))  # like a single render: this much beyond the loaded worker


def _idle_class() -> None:
    """Run only when no other work wants the CPU (Linux's ``SCHED_IDLE``): a web worker that wakes for a
    player's request takes the core at once, where a niced render would keep it until the scheduler's next
    turn.  The workers hold no lock and touch no database, so nothing ever waits on them."""
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError as exc:  # a sandbox that refuses it: the nice value stays
            log.debug("render worker: no idle scheduling class: %s", exc)


def _render_part(context: dict[str, Any], link: str, timeout: float, part: str = "whole") -> bytes:
    """A pool job: one PDF, the whole report or (``part``) its shared map page or the seat's own pages."""
    assert _worker_app is not None, "a render worker is set up by _init_worker"
    giving_way = _yield_timer.rendering() if _yield_timer is not None else contextlib.nullcontext()
    with _worker_app.app_context(), giving_way:
        return render_job(lambda: part_html(context, link, part), timeout)


def loaded_modules() -> list[str]:
    """The modules a process has imported (tests check what a render worker holds)."""
    return sorted(sys.modules)


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
        asked for).  A map page shared by several reports (``report_html.map_key``)
        is rendered once, first; each report's own pages are joined to it here.
        """
        jobs = list(jobs)
        if not jobs:
            return iter(())
        pool, generation = self._get()
        answers: queue.Queue[tuple[Any, Any]] = queue.Queue()
        plans = [report_parts(context) for context, _link in jobs]
        maps: list[str | None] = [plan[0][1] for plan in plans]
        wanted: set[Any] = set()
        for (context, _link), plan in zip(jobs, plans, strict=True):
            for part, key in plan:
                if key is not None and ("map", key) not in wanted:
                    wanted.add(("map", key))
                    self._submit(pool, answers, ("map", key), context, "", part)
        for i, ((context, link), plan) in enumerate(zip(jobs, plans, strict=True)):
            self._submit(pool, answers, i, context, link, plan[-1][0])
        return self._collect(len(jobs), maps, answers, generation)

    def _submit(self, pool: Any, answers: queue.Queue, tag: Any, context: dict[str, Any], link: str,
                part: str) -> None:
        pool.apply_async(
            _render_part, (context, link, self.timeout, part),
            callback=lambda pdf: answers.put((tag, pdf)),
            error_callback=lambda exc: answers.put((tag, exc)),
        )

    def _collect(self, n: int, maps: list[str | None], answers: queue.Queue,
                 generation: int) -> Iterator[bytes | RenderError]:
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


def get_pool(app: Flask) -> RenderPool:
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


def render_inline(app: Flask, jobs: Iterable[tuple[dict[str, Any], str]]) -> Iterator[bytes | RenderError]:
    """Render in this process's application (``RENDER_WORKERS = 0``), each shared map page once."""
    maps: dict[str, bytes] = {}
    for context, link in jobs:
        result: bytes | RenderError
        try:
            with app.app_context():
                result = reports.render_pdf(context, link, maps)  # looked up each time: scripts stub it
        except Exception as exc:  # noqa: BLE001
            result = RenderError(f"{type(exc).__name__}: {str(exc)[:300]}")
        yield result


def render_batch(app: Flask, jobs: Iterable[tuple[dict[str, Any], str]]) -> Iterator[bytes | RenderError]:
    """Render a batch through the pool (or inline when ``RENDER_WORKERS`` is 0), results in order."""
    if app.config.get("RENDER_WORKERS", None) == 0:
        return render_inline(app, jobs)
    return get_pool(app).render_many(jobs)


@atexit.register
def _shutdown() -> None:
    for pool in list(_pools.values()):
        pool.close()
    _pools.clear()
