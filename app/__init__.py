"""The play-by-email turn processor: the Flask application factory."""

from __future__ import annotations

import math
import os
from collections import Counter
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
        ENV_NAME=None,  # "production" or "development" (the default; explicit to mail on the dev key)
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
        BACKGROUND_NICE=5,  # scheduler jobs and delivery workers yield the CPU to web requests
        MAX_CONTENT_LENGTH=256 * 1024,
        CSRF_TIME_LIMIT=3600,
        MAX_ATTEMPTS=5,
        GM_MAX_EXTENSION_HOURS=14 * 24,
        OUTAGE_THRESHOLD_MINUTES=12,
        LOG_LEVEL="INFO",
        LOG_FORMAT="text",
        TRUSTED_PROXIES=0,
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


#: ``ENV_NAME`` values (any case) and the environment each one means
ENV_NAMES = {"production": "production", "prod": "production", "development": "development",
             "dev": "development"}
#: the least entropy estimate of a production ``SECRET_KEY``, in bits
MIN_KEY_BITS = 128


def key_bits(key: str) -> float:
    """An estimate of a key's entropy in bits.

    The key's length times the bits of its alphabet (lowercase, uppercase, digits, other
    characters), but at most twice its Shannon entropy, so that a repeated character or
    pattern counts for little: ``"a" * 64`` is 0 bits, ``secrets.token_urlsafe(32)`` about 250.
    """
    if not key:
        return 0.0
    pool = (26 * any(c.islower() for c in key) + 26 * any(c.isupper() for c in key)
            + 10 * any(c.isdigit() for c in key) + 33 * any(not c.isalnum() for c in key))
    n = len(key)
    shannon = -sum(k / n * math.log2(k / n) for k in Counter(key).values()) * n
    return min(n * math.log2(max(pool, 1)), 2 * shannon)


def _env_name(app: Flask) -> tuple[str, bool]:
    """The environment (``production`` or ``development``) and whether it was set explicitly.

    :raises ConfigError: an ``ENV_NAME`` that names neither.
    """
    raw = app.config.get("ENV_NAME")
    if raw is None or str(raw).strip() == "":
        return "development", False
    name = ENV_NAMES.get(str(raw).strip().lower())
    if name is None:
        raise ConfigError(f"ENV_NAME={raw!r} is neither production (prod) nor development (dev): refusing to start")
    return name, True


def _check_config(app: Flask) -> None:
    env, explicit = _env_name(app)
    app.config["ENV_NAME"] = env
    production = env == "production"
    key = app.config.get("SECRET_KEY")
    if production:
        if not key or key == DEV_SECRET or len(str(key)) < 16:
            raise ConfigError("refusing to start in production without a strong SECRET_KEY")
        if key_bits(str(key)) < MIN_KEY_BITS:
            raise ConfigError(f"refusing to start in production: SECRET_KEY is too easy to guess (an estimated "
                              f"{key_bits(str(key)):.0f} bits, {MIN_KEY_BITS} needed); use secrets.token_urlsafe(32)")
        if app.debug:
            raise ConfigError("refusing to start in production with DEBUG on")
        app.config["DEV_MAILBOX"] = False
    elif not key or key == DEV_SECRET:
        if app.config["MAIL_SERVER"] and not explicit:
            raise ConfigError("refusing to send mail (MAIL_SERVER is set) with the development SECRET_KEY: set a "
                              "SECRET_KEY and ENV_NAME=production, or ENV_NAME=development to mail on the dev key")
        app.config["SECRET_KEY"] = DEV_SECRET
    try:
        proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    except (TypeError, ValueError):
        raise ConfigError(f"TRUSTED_PROXIES must be a count, not {app.config['TRUSTED_PROXIES']!r}") from None
    if proxies < 0:
        raise ConfigError("TRUSTED_PROXIES must be 0 or more")
    app.config["TRUSTED_PROXIES"] = proxies
    if app.config["DEV_MAILBOX"] is None:
        app.config["DEV_MAILBOX"] = not app.config["MAIL_SERVER"]
    if not app.config["MAIL_DOMAIN"]:
        app.config["MAIL_DOMAIN"] = urlsplit(app.config["BASE_URL"]).hostname or "pbem.localhost"
