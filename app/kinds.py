"""The words stored in status and kind columns, as ``StrEnum``s.

A leaf module: it imports nothing of the app.  A member compares equal to its
string and is stored as that string, so the database holds the same values as
before these enums existed (no migration).
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """``Game.status``."""

    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CRASHED = "crashed"


class SeasonStatus(StrEnum):
    """``Season.status`` (leagues)."""

    RUNNING = "running"
    FINISHED = "finished"


class OrderSource(StrEnum):
    """``Order.source``: who sent an order."""

    WEB = "web"
    MAIL = "mail"
    API = "api"  # the JSON API (``app.web.api``): a player's own client or bot
    BOT = "bot"  # a seat played by a bot from the start
    AUTO = "auto"  # auto-command of a seat in civil disorder
    DEFAULT = "default"  # the game's default order at a missed deadline
    STANDING = "standing"  # the player's own standing order at a missed deadline (``app.standing``)

    @property
    def by_player(self) -> bool:
        """Whether a player sent it (the missed-deadline ladder starts again)."""
        return self in PLAYER_SOURCES


#: Sources of orders a player sent themselves.
PLAYER_SOURCES = frozenset({OrderSource.WEB, OrderSource.MAIL, OrderSource.API})
#: Sources of orders the platform made for a seat.
MACHINE_SOURCES = frozenset({OrderSource.DEFAULT, OrderSource.AUTO, OrderSource.BOT})


class StepKind(StrEnum):
    """How a step closed: resolved at its deadline (or early), or by an order sent at any time."""

    RESOLVED = "resolved"
    ANYTIME = "@anytime"  # the key of ``Step.orders`` for such a step (``app.games.base.ANYTIME_STEP``)


class GmActionKind(StrEnum):
    """``GmAction.action``: what the GM (or the players' consent) did to a game."""

    EXTEND = "extend"
    PAUSE = "pause"
    RESUME = "resume"
    RESOLVE = "resolve"
    ROTATE = "rotate"
    SETTINGS_LINK = "settings-link"
    REPLACE = "replace"
    ASK_PAUSE = "ask-pause"
    PAUSE_REQUEST = "pause-request"
    PAUSE_CONSENT = "pause-consent"
    GM_LINK = "gm-link"
    RESEND = "resend"


class OutboxStatus(StrEnum):
    """``OutboxMail.status``."""

    PENDING = "pending"
    SENT = "sent"
    LOCAL = "local"
    FAILED = "failed"
    DIGEST = "digest"  # held for the daily digest
    DIGESTED = "digested"
