"""The benches' SMTP server: a process of its own, as a mail transfer agent is.

It only counts what it is handed (mails, those with a PDF, bytes, the time of the
first and the last).  Run inside the bench's process it would share that process's
interpreter lock with the scheduler's threads it measures, and slow them in a way
no real deployment does: the outgoing mail server is never a thread of the
scheduler.  The counts live in shared memory; times are ``time.perf_counter``
values, which are the same clock in every process on Linux.
"""

from __future__ import annotations

import math
import multiprocessing
import socket
import time
from typing import Any


class _Counter:
    """aiosmtpd's handler in the server's process: counts into the shared values."""

    def __init__(self, shared: dict[str, Any]) -> None:
        self.shared = shared

    async def handle_DATA(self, server, session, envelope):  # noqa: N802, ANN001, ANN201 (aiosmtpd API)
        now = time.perf_counter()
        s = self.shared
        with s["count"].get_lock():
            s["count"].value += 1
            s["bytes"].value += len(envelope.content)
            if b"application/pdf" in envelope.content:
                s["with_pdf"].value += 1
            if math.isnan(s["first"].value):
                s["first"].value = now
            s["last"].value = now
        return "250 OK"


def _serve(port: int, shared: dict[str, Any]) -> None:
    from aiosmtpd.controller import Controller

    controller = Controller(_Counter(shared), hostname="127.0.0.1", port=port, data_size_limit=50 * 1024 * 1024)
    controller.start()
    while True:
        time.sleep(3600)


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Sink:
    """What the server was handed so far (read from the shared values)."""

    def __init__(self, shared: dict[str, Any]) -> None:
        self._shared = shared

    @property
    def count(self) -> int:
        return int(self._shared["count"].value)

    @property
    def with_pdf(self) -> int:
        return int(self._shared["with_pdf"].value)

    @property
    def bytes(self) -> int:
        return int(self._shared["bytes"].value)

    @property
    def first(self) -> float | None:
        value = self._shared["first"].value
        return None if math.isnan(value) else float(value)

    @property
    def last(self) -> float | None:
        value = self._shared["last"].value
        return None if math.isnan(value) else float(value)


class SmtpServer:
    """``with SmtpServer() as smtp:`` an SMTP server on ``smtp.port``; ``smtp.sink`` counts what it was handed."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of the bench's process
        self.port = free_port()
        shared = {"count": ctx.Value("q", 0), "with_pdf": ctx.Value("q", 0, lock=False),
                  "bytes": ctx.Value("q", 0, lock=False), "first": ctx.Value("d", math.nan, lock=False),
                  "last": ctx.Value("d", math.nan, lock=False)}
        self.sink = Sink(shared)
        self._proc = ctx.Process(target=_serve, args=(self.port, shared), daemon=True, name="smtp-sink")

    def __enter__(self) -> SmtpServer:
        self._proc.start()
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.recv(100)  # the greeting: the server is up
                return self
            except OSError:
                if time.monotonic() > deadline or not self._proc.is_alive():
                    raise RuntimeError("the bench's SMTP server did not start") from None
                time.sleep(0.05)

    def pids(self) -> list[int]:
        """The processes that serve it (its server and multiprocessing's resource tracker), for the
        bench's samplers to leave out: they stand in for a mail server, not for the application."""
        from multiprocessing import resource_tracker

        tracker = getattr(resource_tracker._resource_tracker, "_pid", None)  # noqa: SLF001 (no public accessor)
        return [p for p in (self._proc.pid, tracker) if p]

    def __exit__(self, *exc: Any) -> None:
        self._proc.terminate()
        self._proc.join(10)
