"""The render pool behind mail delivery: PDFs made in worker processes, failures never lose a mail."""

from __future__ import annotations

import json
import os
import signal
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.mail import REPORT_ON_PAGE, deliver_pending
from app.models import OutboxMail, utcnow


def _create(runner):
    out = runner.invoke(args=["game", "create", "duel", "--player", "red@example.org",
                              "--player", "blue@example.org"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _pdfs(message) -> int:
    return sum(1 for p in message["msg"].iter_attachments() if p.get_content_type() == "application/pdf")


def test_batch_is_rendered_by_the_pool_and_sent_with_pdfs(smtp_app, smtp, runner):
    smtp_app.config.update(RENDER_WORKERS=2, REPORT_ISOLATE=False)
    _create(runner)
    with smtp_app.app_context():
        counts = deliver_pending(smtp_app)
    assert counts == {"sent": 2, "deferred": 0, "failed": 0, "local": 0}
    assert [_pdfs(m) for m in smtp.sink.messages] == [1, 1]


def test_failed_render_defers_then_sends_without_the_pdf(smtp_app, smtp, runner):
    # a time limit no render can meet: every render fails in the worker
    smtp_app.config.update(RENDER_WORKERS=1, REPORT_TIMEOUT=0.001, REPORT_ISOLATE=False, REPORT_ATTEMPTS=3)
    _create(runner)
    now = utcnow()
    with smtp_app.app_context():
        for attempt in (1, 2):
            counts = deliver_pending(smtp_app, now=now)
            assert counts["deferred"] == 2 and counts["sent"] == 0, (attempt, counts)
            assert smtp.sink.messages == []
            now += timedelta(hours=5)  # past the backoff
        counts = deliver_pending(smtp_app, now=now)
    assert counts["sent"] == 2, counts
    for message in smtp.sink.messages:
        assert _pdfs(message) == 0
        body = message["msg"].get_body(("plain",)).get_content()
        assert REPORT_ON_PAGE in body and "https://pbem.example.org/p/" in body.split(REPORT_ON_PAGE)[1]
    with Session(get_engine(smtp_app)) as session:
        rows = session.exec(select(OutboxMail)).all()
    assert {r.status for r in rows} == {"sent"}
    assert all("without the report" in r.last_error for r in rows)


def test_render_workers_hold_the_report_environment_not_the_web(smtp_app, smtp, runner):
    """A worker renders with ``render_env.render_app``: no web, CLI, mail or turn processor is imported."""
    from app import render_pool

    smtp_app.config.update(RENDER_WORKERS=1, REPORT_ISOLATE=False)
    _create(runner)
    with smtp_app.app_context():
        assert deliver_pending(smtp_app)["sent"] == 2
    assert [_pdfs(m) for m in smtp.sink.messages] == [1, 1], "the worker rendered the reports"
    pool, _generation = render_pool.get_pool(smtp_app)._get()
    loaded = pool.apply(render_pool.loaded_modules)
    assert "app.render_env" in loaded and "weasyprint" in loaded
    banned = ("app.web", "app.cli", "app.mail", "app.mailin", "app.turns", "app.leagues", "app.notify", "jobs",
              "app.demo")
    held = [m for m in loaded if m in banned or m.startswith(tuple(b + "." for b in banned))]
    assert held == [], f"a render worker imported the application's other layers: {held}"


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_render_workers_give_the_cpu_to_web_requests(smtp_app, smtp, runner):
    """A storm's renders run in the idle scheduling class, below a lower nice value: a player's request that
    wakes takes the core at once instead of waiting out a render's time slice."""
    from app import render_pool

    smtp_app.config.update(RENDER_WORKERS=1, REPORT_ISOLATE=False)
    _create(runner)
    with smtp_app.app_context():
        assert deliver_pending(smtp_app)["sent"] == 2
    pool, _generation = render_pool.get_pool(smtp_app)._get()
    assert pool.apply(os.sched_getscheduler, (0,)) == os.SCHED_IDLE
    assert pool.apply(os.nice, (0,)) >= render_pool.DEFAULT_NICE


@pytest.mark.skipif(not hasattr(signal, "SIGRTMIN"), reason="Linux's real-time signals")
def test_render_workers_give_way_while_rendering_and_sleep_when_idle(smtp_app, smtp, runner):
    """While it renders, a worker yields its core every half millisecond (``render_yield``), so that a waiting
    web worker or database process need not wait for the kernel's next tick; between renders it is not woken."""
    import time

    from app import render_pool, render_yield

    smtp_app.config.update(RENDER_WORKERS=1, REPORT_ISOLATE=False)
    _create(runner)
    with smtp_app.app_context():
        assert deliver_pending(smtp_app)["sent"] == 2
    pool, _generation = render_pool.get_pool(smtp_app)._get()
    after_renders = pool.apply(render_yield.given_way)
    assert after_renders > 0, "the worker gave way while it rendered two reports"
    time.sleep(0.3)
    assert pool.apply(render_yield.given_way) == after_renders, "an idle worker was woken by its timer"
