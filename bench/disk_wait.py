"""The disk's own wait, as a commit that waits for it meets it: ``fdatasync`` of 8 KiB.

PostgreSQL's commit waits for one on its log; SQLite's, in WAL mode with
``synchronous=NORMAL``, does not; bare Flask never does.  ``disk_wait`` measures
it on a quiet disk, ``DiskProbe`` samples it while a phase runs (during a storm,
whose own writes share the disk).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

import benchlib


def _synced_write(fd: int) -> float:
    """Append 8 KiB and wait for the disk (``fdatasync``); the wait in seconds."""
    os.write(fd, b"x" * 8192)
    t = time.perf_counter()
    os.fdatasync(fd)
    return time.perf_counter() - t


def disk_wait(directory: str, n: int = 200) -> dict:
    """The wait, ``n`` times back to back, on a file in ``directory``: p50 and p99 in seconds."""
    path = os.path.join(directory, "disk-wait.bin")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        lat = [_synced_write(fd) for _ in range(n)]
    finally:
        os.close(fd)
        os.unlink(path)
    return {"p50": benchlib.quantile(lat, 0.5), "p99": benchlib.quantile(lat, 0.99)}


def _sample(path: str, halt: Any, out: Any) -> None:
    """A probe's process: the wait every 50 ms until ``halt``; the waits sent on ``out``."""
    lat: list[float] = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        while not halt.wait(0.05):
            lat.append(_synced_write(fd))
    finally:
        os.close(fd)
        os.unlink(path)
        out.send(lat)


class DiskProbe:
    """The same wait sampled every 50 ms while a phase runs: what the disk costs a commit during the storm,
    when the storm's own writes share it.

    In a process of its own: as a thread of the load generator it took that process's interpreter lock
    each time its wait ended, and the client's own steps waited for it (measured during a storm: the
    client's connect p90 went from 0.7 ms to 1.6-3.4 ms)."""

    def __init__(self, directory: str) -> None:
        ctx = multiprocessing.get_context("fork")
        self._halt = ctx.Event()
        self._recv, send = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_sample, args=(os.path.join(directory, "disk-probe.bin"), self._halt, send),
                                 daemon=True)

    def start(self) -> None:
        self._proc.start()

    def stop(self) -> dict:
        self._halt.set()
        lat = self._recv.recv() if self._recv.poll(30) else []
        self._proc.join(10)
        return {"p50": benchlib.quantile(lat, 0.5), "p99": benchlib.quantile(lat, 0.99)}
