"""Logging that never writes a personal link: tokens in paths are masked."""

from __future__ import annotations

import logging
import re

from werkzeug.serving import WSGIRequestHandler

TOKEN_PATH = re.compile(r"/(p|gm)/[A-Za-z0-9_-]{20,}")


def redact(text: str) -> str:
    """``/p/<token>`` -> ``/p/<redacted>`` (and the same for GM links)."""
    return TOKEN_PATH.sub(lambda m: f"/{m.group(1)}/<redacted>", text)


def _redact_args(args):  # type: ignore[no-untyped-def]
    if isinstance(args, dict):  # gunicorn's access log passes a dict
        return {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
    if isinstance(args, tuple):
        return tuple(redact(a) if isinstance(a, str) else a for a in args)
    return args


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    if record.args:
        record.args = _redact_args(record.args)
    if isinstance(record.msg, str):
        record.msg = redact(record.msg)
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
