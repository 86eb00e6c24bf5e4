"""The stress scripts of tests/stress/ in their --quick size (each must print OK and exit 0).

``herd.py --quick`` is the same run as ``test_load.py::test_b33_herd_of_games_on_one_deadline``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.postgres import server_url

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(name: str, timeout: int = 900, env: dict | None = None) -> str:
    out = subprocess.run([sys.executable, os.path.join("tests", "stress", name), "--quick"], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    assert out.returncode == 0 and last.startswith("OK "), out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ["crash_loop.py", "smtp_outage.py", "leak_scan.py", "concurrent_submit.py"])
def test_stress_script_quick(name):
    _run(name)


def _postgres_available() -> str:
    return server_url()[1]


@pytest.mark.slow
def test_stress_two_processors_pg_quick():
    reason = _postgres_available()
    if reason:
        pytest.skip(reason)
    _run("two_processors_pg.py")


@pytest.mark.slow
def test_stress_workers_pg_quick():
    """Delivery workers and schedulers killed during a storm, orders posted meanwhile: nothing lost or doubled."""
    reason = _postgres_available()
    if reason:
        pytest.skip(reason)
    out = _run("workers_pg.py")
    counts = dict(part.split("=", 1) for part in out.strip().splitlines()[-2].split())
    assert counts["killed"] == "worker,scheduler"
    assert int(counts["orders_acked"]) > 0 and int(counts["steps_after_takeover"]) > 0
    assert counts["reports_with_pdf"] == counts["mails_outbox"]
