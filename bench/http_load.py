"""The HTTP side of ``submit_load.py``: a gunicorn server on loopback and an asyncio HTTP/1.1 load generator
(an open loop at a fixed rate over several servers, interleaved; a closed loop of clients back to back)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import benchlib

# --------------------------------------------------------------------------- load generator


async def _one(port: int, req: bytes) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(req)
        await writer.drain()
        status_line = await reader.readline()
        await reader.read()  # until the server closes (sync workers close every connection)
        return int(status_line.split()[1])
    finally:
        writer.close()


def http_request(path: str, body: bytes) -> bytes:
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


async def open_loop(targets: dict[str, tuple[int, list[bytes]]], rate: float, seconds: float) -> dict[str, dict]:
    """Start requests at ``rate`` per second to each target (name: port, requests), the targets' requests
    interleaved; latencies from the planned start.  The results by target."""
    names = list(targets)
    lat: dict[str, list[float]] = {name: [] for name in names}
    codes: dict[str, dict[int, int]] = {name: {} for name in names}
    n = max(1, int(rate * seconds))
    start = time.perf_counter() + 0.05

    async def fire(i: int) -> None:
        name = names[i % len(names)]
        port, requests = targets[name]
        planned = start + i / (rate * len(names))
        delay = planned - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            code = await asyncio.wait_for(_one(port, requests[(i // len(names)) % len(requests)]), 60)
        except (TimeoutError, OSError, IndexError, ValueError):
            code = 0
        lat[name].append(time.perf_counter() - planned)
        codes[name][code] = codes[name].get(code, 0) + 1

    await asyncio.gather(*(fire(i) for i in range(n * len(names))))
    wall = time.perf_counter() - start
    return {name: {"n": n, "p50": benchlib.quantile(lat[name], 0.5), "p99": benchlib.quantile(lat[name], 0.99),
                   "max": max(lat[name]), "rps": n / wall, "codes": codes[name]} for name in names}


async def closed_loop(port: int, requests: list[bytes], clients: int, seconds: float) -> dict:
    lat: list[float] = []
    codes: dict[int, int] = {}
    end = time.perf_counter() + seconds
    counter = iter(range(10**9))

    async def client() -> None:
        while time.perf_counter() < end:
            i = next(counter)
            t = time.perf_counter()
            try:
                code = await asyncio.wait_for(_one(port, requests[i % len(requests)]), 60)
            except (TimeoutError, OSError, IndexError, ValueError):
                code = 0
            lat.append(time.perf_counter() - t)
            codes[code] = codes.get(code, 0) + 1

    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    wall = time.perf_counter() - t0
    return {"n": len(lat), "p50": benchlib.quantile(lat, 0.5), "p99": benchlib.quantile(lat, 0.99),
            "max": max(lat) if lat else float("nan"), "rps": len(lat) / wall, "codes": codes}


# --------------------------------------------------------------------------- servers


class Gunicorn:
    """``gunicorn -c gunicorn.conf.py APP`` on a free loopback port."""

    def __init__(self, app_spec: str, env: dict[str, str], chdir: Path | None = None) -> None:
        self.port = benchlib.free_port()
        cmd = [sys.executable, "-m", "gunicorn", "-c", str(benchlib.ROOT / "gunicorn.conf.py"),
               "-b", f"127.0.0.1:{self.port}"]
        if chdir:
            cmd += ["--chdir", str(chdir)]
        cmd.append(app_spec)
        full_env = {**os.environ, **env}
        self.proc = subprocess.Popen(cmd, env=full_env, cwd=str(benchlib.ROOT))
        self._wait()

    def _wait(self) -> None:
        import socket

        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("gunicorn did not start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    time.sleep(1.0)  # let every worker boot
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer")

    def workers(self) -> int:
        return len(benchlib._tree(self.proc.pid)) - 1

    def __enter__(self) -> Gunicorn:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
