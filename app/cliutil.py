"""Small helpers shared by the command-line groups (``app.cli``, ``app.leagues.cli``, ...)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import click

from app.models import utcnow


def parse_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE``; the value is read as JSON when it can be (true, 3, "x")."""
    if "=" not in text:
        raise click.BadParameter(f"{text!r} is not KEY=VALUE")
    key, raw = text.split("=", 1)
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def parse_now(text: str | None) -> datetime:
    """An ISO-8601 instant as an aware UTC datetime (now when ``text`` is empty)."""
    if not text:
        return utcnow()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise click.BadParameter(f"{text!r} is not an ISO-8601 instant") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
