"""Static security check of the application code (bandit), beside the behavioural tests of B1-B33."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_bandit_finds_nothing_of_medium_severity_or_more():
    """No medium or high finding of medium or high confidence in ``app/`` and ``jobs/``.

    A reviewed exception carries ``# nosec <id>`` with its reason on the line
    (the four ``Markup`` calls on text the code escapes itself).
    """
    out = subprocess.run(
        [sys.executable, "-m", "bandit", "-q", "-r", "app", "jobs", "-ll", "-ii", "-f", "json"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    report = json.loads(out.stdout)
    found = [f"{r['filename']}:{r['line_number']} {r['test_id']} {r['issue_text']}" for r in report["results"]]
    assert found == [], "\n".join(found)
    assert report["metrics"]["_totals"]["loc"] > 10_000, "bandit scanned the code"
