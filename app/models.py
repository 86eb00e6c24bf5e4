"""Every table of the platform (one module, no import cycles).

Times are aware UTC ``datetime`` values; the database stores UTC instants.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """Now, as an aware UTC datetime (the database stores UTC instants)."""
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """An instant as ISO-8601 UTC with a Z (what views, reports and the CLI print)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def json_field(default: Any = None, nullable: bool = True) -> Any:
    return Field(default=default, sa_column=Column(JSON, nullable=nullable))


class Player(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(index=True, unique=True)
    name: str = ""
    timezone: str = "UTC"
    language: str = "en"
    bounced: bool = False
    created_at: datetime = Field(default_factory=utcnow)


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(index=True)
    title: str = ""
    options: dict = json_field({})
    seed: str = ""  # secret until the game ends
    seed_hash: str = ""  # published at the start
    status: str = Field(default="running", index=True)  # running, paused, finished, crashed
    step_no: int = 1  # the open step (resolved steps: step_no - 1)
    state: dict = json_field({})
    owed: dict = json_field({})
    turn_key: str = ""
    notified_key: str = ""  # the turn key of the last turn mail
    deadline: datetime | None = Field(default=None, index=True)
    all_in: bool = Field(default=False, index=True)  # every owed seat has an order on file
    hours: float = 24.0
    resolve_early: bool = True
    attempts: int = 0
    last_error: str = ""
    gm_salt: str = ""
    gm_token_hash: str = Field(default="", index=True)
    gm_email: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    player_id: int | None = Field(default=None, foreign_key="player.id")
    is_bot: bool = False
    is_robot: bool = False  # played by the game itself
    token_salt: str = ""  # secrets.token_urlsafe(32); the link is derived from it and the server key
    token_hash: str | None = Field(default=None, index=True, unique=True)  # SHA-256 of the link token
    token_version: int = 1
    missed: int = 0


class Step(SQLModel, table=True):
    """One step of a game: the state at which it opened and what resolved it."""

    __table_args__ = (UniqueConstraint("game_id", "step_no"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int
    turn_key: str = ""
    state: dict = json_field({})
    owed: dict = json_field({})
    opened_at: datetime = Field(default_factory=utcnow)
    deadline: datetime | None = None
    resolved_at: datetime | None = None
    orders: dict | None = json_field(None)  # the orders applied, by seat
    defaulted: list | None = json_field(None)  # seats whose order was a default


class Order(SQLModel, table=True):
    """Every order ever submitted; the last valid one per (game, step, seat) counts."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int = Field(index=True)
    seat: str
    order: dict = json_field({})
    text: str = ""
    source: str = "web"  # web, mail, bot, default
    submitted_at: datetime = Field(default_factory=utcnow)


class Event(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int = Field(index=True)
    seq: int = 0
    to: list | None = json_field(None)  # None: everyone
    text: str = ""
    data: dict = json_field({})
    created_at: datetime = Field(default_factory=utcnow)


class Report(SQLModel, table=True):
    """A seat's turn report: the view it was drawn from, and the PDF once rendered."""

    __table_args__ = (UniqueConstraint("game_id", "step_no", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int
    seat: str
    context: dict = json_field({})
    created_at: datetime = Field(default_factory=utcnow)


class OutboxMail(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, index=True)
    game_id: int | None = Field(default=None, index=True)
    step_no: int = 0
    seat: str = ""
    kind: str = ""
    to_addr: str = ""
    subject: str = ""
    text: str = ""
    html: str = ""
    references: str = ""
    report_id: int | None = Field(default=None, foreign_key="report.id")
    status: str = Field(default="pending", index=True)  # pending, sent, local, failed
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow, index=True)
    last_error: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None


class Meta(SQLModel, table=True):
    """Small key/value facts about the installation (last processor tick ...)."""

    key: str = Field(primary_key=True)
    value: str = ""
