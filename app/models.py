"""Every table of the platform (one module, no import cycles).

Times are aware UTC ``datetime`` values; the database stores UTC instants.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from app import pg_schema


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
    digest: bool = False  # optional mail gathered into one daily mail
    optional_mail: bool = True  # False: unsubscribed from mail that needs no answer
    prefs_salt: str = ""  # personal settings page and calendar feed
    prefs_hash: str = Field(default="", index=True)  # SHA-256 of the settings page token
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
    policy: dict = json_field({})  # deadline policy (app.deadlines)
    league_id: int | None = Field(default=None, index=True)
    resolve_early: bool = True
    attempts: int = 0
    last_error: str = ""
    gm_salt: str = ""
    gm_token_hash: str = Field(default="", index=True)
    gm_email: str = ""
    press: str = "full"  # full, public (messages to everyone only), none (``app.press``)
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
    missed: int = 0  # deadlines missed in a row
    extensions_used: int = 0
    civil_disorder: bool = False  # auto-command plays the seat at deadlines until the player returns
    press_read: int = 0  # the last press message id the seat marked as read
    bounce_excused_step: int = 0  # the last step whose missed deadline a bounced mail excused


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
    """Every order ever submitted; the last valid one per (game, step, seat) counts.

    Read by game and step (the seats with an order on file, a step's orders): one index on the
    three, so that those reads cost the same in a game's first step and after months of orders."""

    __table_args__ = (Index("ix_order_game_step_seat", "game_id", "step_no", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    step_no: int
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

    @property
    def message(self) -> Any:
        """What a reader reads: the event's message (id and parameters, rendered in the reader's
        language by the ``game_text`` filter), else its text (events stored before messages)."""
        return (self.data or {}).get("msg") or self.text


class Report(SQLModel, table=True):
    """A seat's turn report: the view it was drawn from, and the PDF once rendered."""

    __table_args__ = (UniqueConstraint("game_id", "step_no", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int
    seat: str
    context: dict = json_field({})
    created_at: datetime = Field(default_factory=utcnow)


class MailJob(SQLModel, table=True):
    """A seat's report and mail still to build for one step (``app.mailjobs``).

    The step's transaction only writes this row; the report context and the
    mail are built from the stored step after commit, and the row is deleted in
    the transaction that writes them (so each is built once).
    """

    __table_args__ = (UniqueConstraint("game_id", "step_no", "seat", "kind"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int
    seat: str
    kind: str = "turn"  # start, turn, end
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


class League(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str
    slug: str = Field(index=True, unique=True)
    game_slug: str
    options: dict = json_field({})
    policy: dict = json_field({})
    timezone: str = "UTC"
    hours: float = 24.0
    max_extensions: int = 2  # excused extensions per player per game
    extension_hours: float = 24.0
    civil_disorder_after: int = 2  # missed deadlines in a row before auto-command
    vacation_days: int = 14  # per player per year
    gm_email: str = ""
    gm_salt: str = ""
    gm_token_hash: str = Field(default="", index=True)
    invite_salt: str = ""
    invite_hash: str = Field(default="", index=True)
    created_at: datetime = Field(default_factory=utcnow)


class LeagueMember(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("league_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    player_id: int = Field(foreign_key="player.id")
    active: bool = True
    mu: float = 25.0
    sigma: float = 25.0 / 3
    joined_at: datetime = Field(default_factory=utcnow)


class Season(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("league_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    number: int
    rounds: int
    round_no: int = 0  # the round whose games are running
    status: str = "running"  # running, finished
    created_at: datetime = Field(default_factory=utcnow)


class LeagueGame(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    round_no: int
    game_id: int = Field(foreign_key="game.id", unique=True)
    recorded: bool = False


class Rating(SQLModel, table=True):
    """A player's league rating after one game (the rating history)."""

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    game_id: int = Field(foreign_key="game.id")
    rank: int
    points: float
    mu: float
    sigma: float
    created_at: datetime = Field(default_factory=utcnow)


class Reminder(SQLModel, table=True):
    """One reminder per (step, seat, threshold): the unique key makes sending idempotent."""

    __table_args__ = (UniqueConstraint("game_id", "step_no", "seat", "minutes"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int
    seat: str
    minutes: int
    sent_at: datetime = Field(default_factory=utcnow)


class Absence(SQLModel, table=True):
    """A player's declared vacation (whole days, in UTC instants)."""

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    start: datetime
    end: datetime
    created_at: datetime = Field(default_factory=utcnow)


class GmAction(SQLModel, table=True):
    """Every pause, extension and replacement a GM makes (capped and shown to players)."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    action: str
    hours: float = 0.0
    detail: str = ""
    created_at: datetime = Field(default_factory=utcnow)


class InboundMail(SQLModel, table=True):
    """One inbound mail already handled (a re-delivered mail is handled once).

    Keyed by the SHA-256 of its Message-ID and seat (or of its bytes when it has no Message-ID).
    """

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True)
    message_id: str = ""
    from_addr: str = ""
    seat_id: int | None = None
    game_id: int | None = Field(default=None, index=True)
    step_no: int | None = None
    # processing, accepted, rejected, closed, empty, unknown, auto, bounce, too_large, error
    status: str = "processing"
    detail: str = ""
    received_at: datetime = Field(default_factory=utcnow)
    handled_at: datetime | None = None


class Press(SQLModel, table=True):
    """A press message between the players of a game (``app.press``).

    Only its sender and its recipients read it: ``to`` lists the recipient seats,
    None for everyone in the game.  ``sender_player`` is who held the seat when
    sending (a replaced sender's messages are not the replacement's).
    """

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    step_no: int = 0
    sender: str
    sender_player: int | None = None
    to: list | None = json_field(None)
    text: str = ""
    source: str = "web"  # web, mail
    created_at: datetime = Field(default_factory=utcnow, index=True)


class StandingOrder(SQLModel, table=True):
    """A player's own default for a kind of decision of one game, used at a missed deadline
    before the game's default order (``app.standing``)."""

    __table_args__ = (UniqueConstraint("game_id", "seat", "kind"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    kind: str  # which decision: the prompt's kind (else its title id)
    title: dict = json_field({})  # the prompt's title as it was (a message), to show it
    order: dict = json_field({})
    text: str = ""
    set_at: datetime = Field(default_factory=utcnow)


pg_schema.attach(SQLModel.metadata)  # on PostgreSQL, the function an order's write calls
