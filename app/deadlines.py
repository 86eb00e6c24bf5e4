"""Deadline policy: when the step that just opened is due.

The plain rule: a prompt's own ``seconds`` (a game timer) if it has one, else
the game's ``hours``.  Leagues refine this (length per step kind, a fixed
clock time in the league's zone, weekday masks, minimum and maximum).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from app.models import Game


def next_deadline(session: Session, game: Game, owed: dict[str, dict[str, Any]], now: datetime) -> datetime:
    """The deadline of a turn that opens at ``now`` with these prompts."""
    seconds = [p["seconds"] for p in owed.values() if isinstance(p.get("seconds"), int | float)]
    length = min(seconds) if seconds else game.hours * 3600
    return now + timedelta(seconds=length)
