"""An idle CPU group for the benches' background work, as the deployment units run it.

``deploy/pbem-scheduler.service`` and ``deploy/pbem-worker@.service`` set systemd's
``CPUWeight=idle``: the kernel's ``cpu.idle`` for the service's control group, so that the
scheduler, the delivery workers and their render processes take a core only when no other
group wants it.  Linux shares the CPU between groups (a service, a login session) before it
shares it between a group's tasks: a render process in the idle scheduling class can still keep
the core for a millisecond or more (at p99) from a process of another group that wakes (the
database server's process answering a web worker), unless its whole group is idle.

``IdleGroup`` makes such a group for a bench's child process (cgroup v2 with the ``cpu``
controller, or cgroup v1's ``cpu`` hierarchy) when this machine lets it, and says why not
otherwise; the child joins it before it starts (``preexec``), and its children with it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


class IdleGroup:
    """A control group with ``cpu.idle`` set, removed by ``close`` (``path`` None: none could be made)."""

    def __init__(self, name: str, enabled: bool = True) -> None:
        self.path: Path | None = None
        self.why = "not asked for"
        base = self._hierarchy() if enabled else None
        if base is None:
            return
        path = base / f"{name}-{os.getpid()}"
        try:
            path.mkdir(exist_ok=True)
            (path / "cpu.idle").write_text("1")
        except OSError as exc:
            self.why = f"cannot make a CPU group here ({exc.strerror})"
            self._remove(path)
            return
        self.path = path

    def _hierarchy(self) -> Path | None:
        self.why = ""
        if (ROOT / "cgroup.controllers").exists():  # cgroup v2
            try:
                enabled = (ROOT / "cgroup.subtree_control").read_text().split()
            except OSError:
                enabled = []
            if "cpu" in enabled:
                return ROOT
            self.why = "cgroup v2 without the cpu controller enabled"
            return None
        if (ROOT / "cpu" / "cpu.idle").exists():  # cgroup v1
            return ROOT / "cpu"
        self.why = "no cgroup with cpu.idle on this machine (Linux 5.15 or later)"
        return None

    def preexec(self) -> None:
        """Join the group (a ``subprocess`` ``preexec_fn``: runs in the child before it starts)."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def describe(self) -> str:
        return "in an idle CPU group (systemd's CPUWeight=idle)" if self.path else f"in no idle CPU group: {self.why}"

    def close(self) -> None:
        """Remove the group once the processes in it have ended (waits a few seconds for the last ones)."""
        if self.path is not None:
            self._remove(self.path, wait=10.0)
            self.path = None

    @staticmethod
    def _remove(path: Path, wait: float = 0.0) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                path.rmdir()
                return
            except OSError:
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.2)
