"""Logging that never writes a personal link: tokens in paths are masked."""

from __future__ import annotations

import logging
import re

from werkzeug.serving import WSGIRequestHandler

TOKEN_PATH = re.compile(r"/(p|gm)/[A-Za-z0-9_-]{20,}")


def redact(text: str) -> str:
    """``/p/<token>`` -> ``/p/<redacted>`` (and the same for GM links)."""
    return TOKEN_PATH.sub(lambda m: f"/{m.group(1)}/<redacted>", text)


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)  # type: ignore[assignment]
        record.msg = redact(str(record.msg))
        return True


class RedactingRequestHandler(WSGIRequestHandler):
    """The development server's access log, without tokens."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.requestline = redact(self.requestline)
        super().log_request(code, size)


def install() -> None:
    """Mask tokens in every log record of the app, werkzeug and gunicorn loggers."""
    for name in ("", "werkzeug", "gunicorn.access", "gunicorn.error", "app", "jobs"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(RedactingFilter())


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
