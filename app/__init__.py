"""The play-by-email turn processor: the Flask application factory."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

from app import paths


class ConfigError(RuntimeError):
    """The configuration cannot run safely (e.g. production without a secret key)."""


DEV_SECRET = "dev-only-secret-change-me"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the application.

    Configuration comes, in order, from defaults, ``instance/config.py``,
    environment variables with the ``FLASK_`` prefix, and ``test_config``.
    The instance folder (``config.py``, the SQLite database) is Flask's default
    unless the ``PBEM_INSTANCE`` environment variable names one.
    """
    app = Flask(
        __name__,
        instance_path=paths.instance_path(),
        instance_relative_config=True,
        template_folder=paths.TEMPLATES,
        static_folder=paths.STATIC,
        static_url_path="/static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        ENV_NAME="development",
        SECRET_KEY=None,
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "pbem.sqlite"),
        BASE_URL="http://127.0.0.1:5000",
        MAIL_SERVER="",
        MAIL_PORT=25,
        MAIL_USERNAME="",
        MAIL_PASSWORD="",
        MAIL_USE_TLS=False,
        MAIL_USE_SSL=False,
        MAIL_TIMEOUT=20,
        MAIL_FROM="PBEM Turn Processor <turns@pbem.localhost>",
        MAIL_DOMAIN="",
        DEFAULT_HOURS=24,
        DEFAULT_TIMEZONE="UTC",
        DEV_MAILBOX=None,
        SCHEDULER_ENABLED=False,
        REPORT_TIMEOUT=60,
        MAX_CONTENT_LENGTH=256 * 1024,
        CSRF_TIME_LIMIT=3600,
        MAX_ATTEMPTS=5,
        GM_MAX_EXTENSION_HOURS=14 * 24,
        OUTAGE_THRESHOLD_MINUTES=12,
        LOG_LEVEL="INFO",
        LOG_FORMAT="text",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("FLASK")
    else:
        app.config.update(test_config)
    _check_config(app)

    # deferred: every module of the package imports this one first, and a render worker or a
    # script importing app.models must not load the web, the CLI and mail; building the app does
    from app import cli, db, logs, mail, render_env
    from app.i18n import init_app as init_i18n
    from app.web import init_app as init_web

    logs.configure(app.config)
    db.init_app(app)
    mail.init_app(app)
    render_env.init_jinja(app)
    init_i18n(app)
    init_web(app)
    cli.init_app(app)
    if app.config["SCHEDULER_ENABLED"]:
        from jobs import init_scheduler  # deferred: APScheduler loads only where it runs

        init_scheduler(app)
    return app


def _check_config(app: Flask) -> None:
    production = app.config["ENV_NAME"] == "production"
    key = app.config.get("SECRET_KEY")
    if production:
        if not key or key == DEV_SECRET or len(str(key)) < 16:
            raise ConfigError("refusing to start in production without a strong SECRET_KEY")
        if app.debug:
            raise ConfigError("refusing to start in production with DEBUG on")
        app.config["DEV_MAILBOX"] = False
    elif not key:
        app.config["SECRET_KEY"] = DEV_SECRET
    if app.config["DEV_MAILBOX"] is None:
        app.config["DEV_MAILBOX"] = not app.config["MAIL_SERVER"]
    if not app.config["MAIL_DOMAIN"]:
        app.config["MAIL_DOMAIN"] = urlsplit(app.config["BASE_URL"]).hostname or "pbem.localhost"
