"""The disk's own wait, as a commit that waits for it meets it: ``fdatasync`` of 8 KiB.

PostgreSQL's commit waits for one on its log; SQLite's, in WAL mode with
``synchronous=NORMAL``, does not; bare Flask never does.  ``disk_wait`` measures
it on a quiet disk, ``DiskProbe`` samples it while a phase runs (during a storm,
whose own writes share the disk).
"""

from __future__ import annotations

import os
import threading
import time

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


class DiskProbe(threading.Thread):
    """The same wait sampled every 50 ms while a phase runs: what the disk costs a commit during the storm,
    when the storm's own writes share it."""

    def __init__(self, directory: str) -> None:
        super().__init__(daemon=True)
        self.path = os.path.join(directory, "disk-probe.bin")
        self.lat: list[float] = []
        self._halt = threading.Event()

    def run(self) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            while not self._halt.wait(0.05):
                self.lat.append(_synced_write(fd))
        finally:
            os.close(fd)
            os.unlink(self.path)

    def stop(self) -> dict:
        self._halt.set()
        self.join()
        return {"p50": benchlib.quantile(self.lat, 0.5), "p99": benchlib.quantile(self.lat, 0.99)}
