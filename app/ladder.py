"""What happens when seats miss a deadline.

The plain rule: the game's default order for every missing seat.  Leagues add
rungs before that (excused extensions) and after it (civil disorder, a
replacement player).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from app.models import Game


def on_missed(session: Session, game: Game, missing: list[str], now: datetime) -> datetime | None:
    """Called when the deadline passed with ``missing`` seats silent.

    Return a new deadline to make the step wait (an excused extension), or
    None to resolve now with default orders.
    """
    return None
