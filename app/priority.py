"""Background work gives the CPU to players' requests.

Resolving a deadline storm, building its reports and mails, and rendering them
is background work: an order posted meanwhile must not wait behind it.  The
scheduler's jobs and the delivery workers lower their own thread's CPU priority
by ``BACKGROUND_NICE`` (default 5) before they work; the render pool's processes
go lower still (``RENDER_NICE`` and Linux's idle scheduling class).  On Linux a
thread's nice value is its own (``setpriority`` on the thread's id), so in the embedded server
(``flask --app app serve``) the web threads keep theirs.  Lowering a priority
needs no privilege; nothing here ever raises one.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_NICE = 5

_done = threading.local()


def is_background() -> bool:
    """Whether this thread does background work (it called ``background``)."""
    return bool(getattr(_done, "background", False))


def background(config: Mapping[str, Any]) -> int:
    """Lower this thread's CPU priority once (idempotent per thread); the nice value it has after."""
    _done.background = True
    want = int(config.get("BACKGROUND_NICE", DEFAULT_NICE))
    if want <= 0 or not hasattr(os, "setpriority") or getattr(_done, "nice", None) is not None:
        return getattr(_done, "nice", 0) or 0
    tid = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        target = min(19, current + want)
        os.setpriority(os.PRIO_PROCESS, tid, target)
    except OSError as exc:  # a sandbox that refuses it: work at the normal priority
        log.debug("could not lower the priority of background work: %s", exc)
        target = 0
    _done.nice = target
    return target


def settle_heap() -> None:
    """Load every game, then take what is loaded out of the garbage collector's full passes.

    A long-running process (the scheduler, a delivery worker, the embedded server, a web
    worker) holds hundreds of thousands of long-lived objects: the games, their data and the
    templates.  Each full collection would scan them all, and one landing while a step holds
    the write lock keeps players' orders waiting behind it.  (A web worker first builds what
    its requests use: ``app.web.worker``.)
    """
    from app.games import all_games  # deferred: this module is imported by the database layer

    all_games()
    gc.collect()
    gc.freeze()
