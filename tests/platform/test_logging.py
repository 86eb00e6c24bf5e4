"""Logging: configured from settings (level, text or JSON lines), tokens masked, a line per sweep and batch."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from datetime import timedelta

import time_machine

from app import logs
from app.models import utcnow
from jobs import deadlines, reminders
from tests.platform.helpers import create_game, game_row

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-xyz"
DURATION = re.compile(r"in \d+\.\d\d s")


def test_every_personal_link_is_masked():
    text = (f"GET /p/{TOKEN} /p/{TOKEN}/history /gm/{TOKEN} /me/{TOKEN}/deadlines.ics /lg/{TOKEN} "
            f"https://pbem.example.org/l/spring-cup/join/{TOKEN}?x=1 /l/spring-cup/join/{TOKEN}/confirm/WzEsImFu"
            f"bkBleGFtcGxlLm9yZyJd.Z1a2Bw.{TOKEN}?lang=el")
    masked = logs.redact(text)
    assert TOKEN not in masked
    assert masked == ("GET /p/<redacted> /p/<redacted>/history /gm/<redacted> /me/<redacted>/deadlines.ics "
                      "/lg/<redacted> https://pbem.example.org/l/spring-cup/join/<redacted>?x=1 "
                      "/l/spring-cup/join/<redacted>/confirm/<redacted>?lang=el"), \
        "a confirmation code names an address"
    assert logs.redact("/dev/mailbox/3 /g/12/verify /static/site.css") == "/dev/mailbox/3 /g/12/verify /static/site.css"
    assert logs.redact('"GET /gm/new?key=s3cret-Key_1&lang=pt HTTP/1.1" 200') == \
        '"GET /gm/new?key=<redacted>&lang=pt HTTP/1.1" 200', "the game-creation key is a secret too"


def test_a_token_in_a_log_message_is_masked_in_records_and_in_both_formats(app, caplog):
    caplog.set_level(logging.INFO)
    logging.getLogger("app.web.me").info("settings saved for /me/%s", TOKEN)
    logging.getLogger("jobs.deadlines").warning(f"bad link /p/{TOKEN}")
    assert TOKEN not in caplog.text
    assert "/me/<redacted>" in caplog.text and "/p/<redacted>" in caplog.text
    try:
        raise ValueError(f"while opening /lg/{TOKEN}")
    except ValueError:
        record = logging.getLogger("app").makeRecord("app", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    for fmt in ("text", "json"):
        spec = dict(logs.logging_config("INFO", fmt)["formatters"]["default"])
        formatter = spec.pop("()")(**spec)
        out = formatter.format(record)
        assert TOKEN not in out and "/lg/<redacted>" in out


def test_json_format_writes_one_json_object_a_line(tmp_path):
    """A fresh process (no logging set up yet) configures itself from FLASK_LOG_FORMAT / FLASK_LOG_LEVEL."""
    script = (
        "import logging\n"
        "from app import create_app\n"
        "create_app()\n"
        "logging.getLogger('jobs.deadlines').info('sweep of /me/%s', " + repr(TOKEN) + ")\n"
        "logging.getLogger('app.mail').debug('hidden at INFO')\n"
        "try:\n"
        "    1 / 0\n"
        "except ZeroDivisionError:\n"
        "    logging.getLogger('app.turns').exception('failed /p/" + TOKEN + "')\n"
    )
    env = {**os.environ, "FLASK_LOG_FORMAT": "json", "FLASK_LOG_LEVEL": "info", "PBEM_INSTANCE": str(tmp_path),
           "FLASK_DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = [json.loads(line) for line in out.stderr.splitlines()]
    assert [(e["level"], e["logger"]) for e in lines] == [("INFO", "jobs.deadlines"), ("ERROR", "app.turns")]
    assert lines[0]["message"] == "sweep of /me/<redacted>"
    assert "ZeroDivisionError" in lines[1]["exc"] and TOKEN not in out.stderr
    assert lines[0]["time"].endswith("+00:00")


def test_logging_is_left_alone_when_the_process_already_has_handlers(app):
    assert logging.getLogger().handlers  # pytest's own
    assert logs.configure({"LOG_LEVEL": "DEBUG", "LOG_FORMAT": "json"}) is False


def test_a_sweep_logs_one_line_with_counts_and_duration(app, runner, caplog):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    caplog.set_level(logging.DEBUG, logger="jobs")
    deadlines.sweep(app)
    idle = [r for r in caplog.records if r.name == "jobs.deadlines"]
    assert len(idle) == 1 and idle[0].levelno == logging.DEBUG and DURATION.search(idle[0].getMessage())
    caplog.clear()
    caplog.set_level(logging.INFO, logger="jobs")
    caplog.set_level(logging.INFO, logger="app.mail")
    with time_machine.travel(utcnow() + timedelta(hours=2), tick=True):
        deadlines.sweep(app)
    assert game_row(app, made["game"]).step_no == 2
    sweeps = [r.getMessage() for r in caplog.records if r.name == "jobs.deadlines"]
    assert len(sweeps) == 1
    assert re.match(r"sweep: 1 steps resolved in 1 games, .*in \d+\.\d\d s$", sweeps[0]), sweeps
    batches = [r.getMessage() for r in caplog.records if r.name == "app.mail" and "batch" in r.getMessage()]
    assert len(batches) == 1 and re.search(r"\d+ to the local mailbox, in \d+\.\d\d s$", batches[0]), batches


def test_reminders_log_a_line_only_when_they_queue_something(app, runner, caplog):
    create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "10")
    caplog.set_level(logging.INFO, logger="jobs")
    assert reminders.run(app) == 0
    assert not [r for r in caplog.records if r.name == "jobs.reminders"]
    with time_machine.travel(utcnow() + timedelta(hours=9), tick=True):
        sent = reminders.run(app)
    assert sent == 2
    lines = [r.getMessage() for r in caplog.records if r.name == "jobs.reminders"]
    assert len(lines) == 1 and re.fullmatch(r"reminders: 2 queued, in \d+\.\d\d s", lines[0]), lines
