"""Logging that never writes a personal link: tokens in paths are masked.

``configure`` sets up the process's logging from the app's settings (``LOG_LEVEL``,
``LOG_FORMAT`` = ``text`` or ``json``: one JSON object a line) with
``logging.config.dictConfig``; every record of every logger has its tokens masked.
"""

from __future__ import annotations

import json
import logging
import logging.config
import re
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TextIO

from werkzeug.serving import WSGIRequestHandler

# seat, GM, settings and league links (/p/, /gm/, /me/, /lg/), the JSON API's seat (/api/v1/seat/),
# league invitations (/l/<slug>/join/) and their mailed confirmations (.../confirm/<signed code>)
TOKEN_PATH = re.compile(r"(/(?:p|gm|me|lg|api/v1/seat|l/[^/\s?#]+/join)/)[A-Za-z0-9_-]{20,}"
                        r"|(/confirm/)[A-Za-z0-9_.-]{20,}")


#: the game-creation key (``GM_CREATE_KEY``) in a query string: ``/gm/new?key=...``
KEY_QUERY = re.compile(r"([?&]key=)[^&\s\"]+")


def redact(text: str) -> str:
    """``/p/<token>`` -> ``/p/<redacted>`` (and the same for every other personal link, and the
    game-creation key in ``/gm/new?key=``)."""
    return KEY_QUERY.sub(r"\1<redacted>", TOKEN_PATH.sub(lambda m: f"{m.group(1) or m.group(2)}<redacted>", text))


def _redact_args(args):  # type: ignore[no-untyped-def]
    if isinstance(args, dict):  # gunicorn's access log passes a dict
        return {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
    if isinstance(args, tuple):
        return tuple(redact(a) if isinstance(a, str) else a for a in args)
    return args


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """Mask tokens in the record's message and arguments, and in the message they make together."""
    if record.args:
        record.args = _redact_args(record.args)
    if isinstance(record.msg, str):
        record.msg = redact(record.msg)
    if record.args:  # a link split between them: "/me/%s" % token
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is logging's to report, at emit time
            return record
        masked = redact(text)
        if masked != text:
            record.msg, record.args = masked, None
    return record


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


class RedactingRequestHandler(WSGIRequestHandler):
    """The development server's access log, without tokens."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.requestline = redact(self.requestline)
        super().log_request(code, size)


def install() -> None:
    """Mask tokens in every log record of the process, whatever logger writes it."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "redacts_tokens", False):
        return

    def make(*args, **kwargs):  # type: ignore[no-untyped-def]
        return redact_record(factory(*args, **kwargs))

    make.redacts_tokens = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(make)


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time of each record (as logging's last resort does)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


class TextFormatter(logging.Formatter):
    """One line a record (tracebacks below it), tokens masked in the whole text."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO-8601), level, logger, message and traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return redact(json.dumps(entry, ensure_ascii=False, default=str))


FORMATTERS = {
    "text": {"()": TextFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    "json": {"()": JsonFormatter},
}


def logging_config(level: str | int = "INFO", fmt: str = "text") -> dict[str, Any]:
    """The ``dictConfig`` of the process: every logger to stderr at ``level``, as text or JSON lines."""
    if fmt not in FORMATTERS:
        raise ValueError(f"LOG_FORMAT must be one of {sorted(FORMATTERS)}, not {fmt!r}")
    level = level.upper() if isinstance(level, str) else level
    quiet = "DEBUG" if level in ("DEBUG", logging.DEBUG) else "WARNING"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": FORMATTERS[fmt]},
        "handlers": {"stderr": {"()": StderrHandler, "formatter": "default"}},
        "root": {"level": level, "handlers": ["stderr"]},
        # a line per job run and per font subset: only at DEBUG
        "loggers": {"apscheduler": {"level": quiet}, "fontTools": {"level": quiet}},
    }


def configure(config: Mapping[str, Any], *, force: bool = False) -> bool:
    """Mask tokens in every record, and set up logging from ``LOG_LEVEL`` and ``LOG_FORMAT``.

    Like ``logging.basicConfig``, the set-up is left alone when the process's root logger
    already has handlers (an earlier app of this process, a test runner, a host program),
    unless ``force``.  Returns whether it configured logging.
    """
    install()
    if logging.getLogger().handlers and not force:
        return False
    logging.config.dictConfig(logging_config(config.get("LOG_LEVEL") or "INFO", config.get("LOG_FORMAT") or "text"))
    return True


try:
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # gunicorn is optional outside production
    _GunicornLogger = object  # type: ignore[assignment,misc]


class RedactingGunicornLogger(_GunicornLogger):  # type: ignore[misc,valid-type]
    """gunicorn's logger with tokens masked in access and error logs.

    Use with ``logger_class = "app.logs.RedactingGunicornLogger"`` in gunicorn.conf.py.
    """

    def atoms(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "q", "f", "{raw_uri}e"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
