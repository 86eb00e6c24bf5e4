"""The benchmarks run in their smallest mode and print their headline last (no timing is asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BENCHES = {
    "storm": (["storm.py", "--smoke"], r"^storm: \d+\.\d\dx real renders / workers \(goal <= 1\.15x\)$"),
    "submit_load": (["submit_load.py", "--smoke"], r"^submit_load: \d+\.\d\dx bare Flask p99 \(goal <= 3x\)$"),
    "engines": (["engines.py", "--smoke"], r"^engines: \d+\.\d\d% of render, worst \w+ \(goal <= 5%\)$"),
    "arena": (["arena.py", "--quick"], r"^arena: \d+ of \d+ goals met$"),
}


@pytest.fixture(scope="module")
def runs():
    """All at once (they are mostly waiting on each other's renders anyway)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = {
        name: subprocess.Popen([sys.executable, str(ROOT / "bench" / args[0]), *args[1:]], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name, (args, _pattern) in BENCHES.items()
    }
    out = {}
    for name, proc in procs.items():
        try:
            stdout, stderr = proc.communicate(timeout=170)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
        out[name] = (proc.returncode, stdout, stderr)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BENCHES))
def test_bench_prints_its_headline_last(runs, name):
    code, stdout, stderr = runs[name]
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert lines, f"no output; stderr:\n{stderr[-3000:]}"
    assert code in (0, 1), f"exit {code}; stderr:\n{stderr[-3000:]}"
    assert re.match(BENCHES[name][1], lines[-1]), lines[-1]
    assert (code == 0) == ("MISSED" not in stdout), "the exit status says whether every goal was met"
    assert len(lines) > 3, "a table comes before the headline"


@pytest.mark.slow
def test_storm_with_delivery_workers_on_postgres_prints_the_speed_up_from_one_to_two():
    from tests.postgres import server_url

    url, reason = server_url()
    if reason:
        pytest.skip(reason)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "storm.py"), "--database-url", url, "--smoke",
                          "--workers", "2"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    rows = [line.split() for line in lines if re.match(r"^[12] +\d", line)]
    assert [r[0] for r in rows] == ["1", "2"], lines
    for row in rows:  # every report of the storm was mailed, with its PDF
        assert int(row[3]) > 0 and row[4] == row[3] and row[5] == f"({row[3]}", row
    assert re.match(r"^storm with 2 workers: \d+\.\d\dx faster than with 1$", lines[-1]), lines[-1]


@pytest.mark.slow
def test_order_parts_on_postgres_times_the_read_and_the_write_idle_and_during_the_storm():
    from tests.postgres import server_url

    url, reason = server_url()
    if reason:
        pytest.skip(reason)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "order_parts.py"), "--database-url", url, "--smoke"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    rows = {" ".join(line.split()[:2]): line.split() for line in lines if re.match(r"^(idle|storm) \w+ +\d", line)}
    timed = sorted(f"{p} {part}" for p in ("idle", "storm") for part in ("post", "read", "write"))
    waits = sorted(f"{p} {part}" for p in ("idle", "storm") for part in ("cpuwait", "dbcpuwait"))
    assert sorted(set(rows) - set(waits)) == timed  # the waits for a core: where the kernel tells them
    for name, row in rows.items():  # every order of each phase was timed, and each of its parts once
        assert row[2] == "10" if name in timed else int(row[2]) <= 10, row
        assert float(row[3]) <= float(row[4]) <= float(row[5]) <= float(row[6]), row
    for phase in ("idle", "storm"):
        assert any(line.startswith(f"{phase}: the slowest 1 order took ") for line in lines), lines
    assert re.match(r"^order_parts: the write's p90 during the storm \d+\.\d\dx idle \(the read's \d+\.\d\dx\)$",
                    lines[-1]), lines[-1]
    assert "the storm beside the second phase: 1 game, 1 steps resolved" in lines[0], lines[0]
