"""RELIABILITY.md B33: the deadline herd (reduced; the full size is tests/stress/herd.py)."""

from __future__ import annotations

import pytest

from tests.stress.herd import problems, run_herd


@pytest.mark.slow
def test_b33_herd_of_games_on_one_deadline(smtp_app, smtp):
    """B33. Herd: 500 games share a deadline; 3,500 submissions in the last 60 s (locust/wrk); then 3,500
    PDFs+emails -> 0 lost orders, 0 5xx, bounded PDF pool (flat RSS), throttled outbox drain (submit p99 < 1 s
    is measured by ``tests/stress/herd.py``, not by a unit test).

    Reduced to 50 games and 350 submissions (16 client threads against a real
    threaded server, each seat sending 4 orders of which the last must count),
    then the 100 turn reports rendered by the render pool and mailed to a real
    SMTP server.  ``python tests/stress/herd.py`` runs the full size.
    """
    app = smtp_app
    result = run_herd(app, 50, 4, log=lambda _line: None)
    found = problems(result, 50, 4, timed=False)
    assert found == []  # no lost order, no 5xx, mail drained in batches (its p99 goal: tests/stress/herd.py)
    assert len(smtp.sink.messages) == result["turn_mails"] == 100
    assert result["pool"] <= (app.config.get("RENDER_WORKERS") or __import__("os").cpu_count() or 1)
